"""Signing in person at a station (the signature pad), reused by inspection and records."""
