"""The review queue workspace (views/review/workspace.py defines WORKSPACE; the shell finds it)."""
