"""Where the server keeps its things by default: the user's data folder."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir


def data_dir() -> Path:
    """The user's data folder for Atout (created when missing)."""
    folder = Path(user_data_dir("atout", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def default_db_url() -> str:
    """The embedded default store: an SQLite file in the user's data folder."""
    return f"sqlite:///{data_dir() / 'atout.db'}"


__all__ = ["data_dir", "default_db_url"]
