"""The store: the database's schema (``db.py``) and its migrations, tables' events and games (``store.py``),
what it stores and answers (``rows.py``), the writer thread that batches a process's appends (``writer.py``),
and its health: which errors are an outage, and the outage as one state of the process (``health.py``).

Below the features and everything above: it knows no feature. What a game's end books beyond its events
(its row, coins, standings, the daily deal) is written by the ``book`` it is built with (``Store(url, book=...)``)."""

from ..results import GameRow
from .rows import Append, Book, Fenced, Lease, StoredEvent, StoredTable, StoreError
from .store import Store, engine_url
from .writer import StoreWriter

__all__ = [
    "Append",
    "Book",
    "Fenced",
    "GameRow",
    "Lease",
    "Store",
    "StoreError",
    "StoreWriter",
    "StoredEvent",
    "StoredTable",
    "engine_url",
]
