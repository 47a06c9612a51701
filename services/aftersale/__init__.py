"""Aftersale (in progress)."""
