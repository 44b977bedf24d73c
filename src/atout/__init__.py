"""Atout: French Tarot for 3, 4 and 5 players."""

__version__ = "0.1.0"
