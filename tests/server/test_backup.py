"""The README's backup of the default store, done as it says: SQLite's online backup while the server runs
(never a copy of the file, whose recent writes wait in ``atout.db-wal``), then a server on the copy."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .helpers import WITHIN, running_server, site_page


async def test_a_backup_taken_while_the_server_runs_holds_every_account(tmp_path: Path) -> None:
    live, copy = tmp_path / "atout.db", tmp_path / "backup.db"
    async with running_server(f"sqlite:///{live}") as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as page:
            made = await page.post("/api/register", json={"name": "Sauvée", "password": "long enough secret"})
            assert made.status_code == 201, made.text
        assert (tmp_path / "atout.db-wal").exists()  # the writes are in the log, not yet in the file
        source, target = sqlite3.connect(live), sqlite3.connect(copy)
        with target:
            source.backup(target)  # what `sqlite3 atout.db ".backup backup.db"` does
        source.close()
        target.close()
    async with (
        running_server(f"sqlite:///{copy}") as server,
        site_page(f"http://127.0.0.1:{server.port}", timeout=WITHIN) as page,
    ):
        back = await page.post("/api/login", json={"name": "Sauvée", "password": "long enough secret"})
        assert back.status_code == 200, back.text
