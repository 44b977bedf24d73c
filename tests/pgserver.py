"""A PostgreSQL server of a test's own, on a free port, that the test may restart or stop for real
(``pg_ctl restart -m fast``, ``-m immediate``, a stop of some seconds), as production's fails: the machine's
own PostgreSQL (127.0.0.1:5432) is never touched.

Its cluster is made once a test process (``initdb``, about a second) and copied for each server; PostgreSQL
refuses to run as root, so under root it runs as the ``postgres`` user. Where the binaries are missing the
caller skips loudly (fails under CI, whose machine has them)."""

from __future__ import annotations

import functools
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from served import free_port


@functools.cache
def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (Debian's ``/usr/lib/postgresql/N/bin``, the newest), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


def _as_owner() -> list[str]:
    """The prefix that runs a command as the cluster's owner: ``postgres`` under root, else oneself."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def _chown(path: Path) -> None:
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        for folder, _, files in os.walk(path):
            os.chown(folder, user.pw_uid, user.pw_gid)
            for name in files:
                os.chown(os.path.join(folder, name), user.pw_uid, user.pw_gid)


@functools.cache
def _template() -> Path:
    """A fresh cluster made once in this test process, copied for each server (initdb takes a second)."""
    bin_dir = binaries()
    assert bin_dir is not None
    root = Path(tempfile.mkdtemp(prefix="atout-pg-template-"))
    _chown(root)
    subprocess.run(
        [
            *_as_owner(),
            str(bin_dir / "initdb"),
            "-D",
            str(root / "data"),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
            "-E",
            "UTF8",
        ],
        check=True,
        capture_output=True,
    )
    return root / "data"


class PostgresServer:
    """A PostgreSQL of one test's own, in a folder of its own (the ``postgres`` user must reach it, and a
    test's ``tmp_path`` is root's alone): ``url`` names its database ``atout``."""

    def __init__(self) -> None:
        bin_dir = binaries()
        assert bin_dir is not None
        self.bin = bin_dir
        self.folder = folder = Path(tempfile.mkdtemp(prefix="atout-pg-"))
        self.data = folder / "pgdata"
        self.port = free_port()
        self.log = folder / "postgresql.log"
        shutil.copytree(_template(), self.data)
        os.chmod(self.data, 0o700)
        _chown(folder)
        self.admin_url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/atout"

    def _ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        done = subprocess.run(
            [
                *_as_owner(),
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.log),
                "-w",
                "-t",
                "120",
                "-o",
                options,
                *args,
            ],
            capture_output=True,
        )
        if done.returncode:  # what pg_ctl and the server said: a port taken, a full disk...
            log = self.log.read_text(errors="replace")[-1500:] if self.log.exists() else ""
            said = done.stderr.decode(errors="replace")[-800:]
            raise AssertionError(f"pg_ctl {' '.join(args)} failed ({done.returncode}): {said}\n{log}")

    def start(self) -> None:
        self._ctl("start")

    def create_database(self) -> None:
        subprocess.run(
            [
                *_as_owner(),
                str(self.bin / "psql"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-q",
                "-c",
                "CREATE DATABASE atout",
            ],
            check=True,
            capture_output=True,
        )

    def restart(self, mode: str = "fast") -> None:
        """``pg_ctl restart -m MODE``: ``fast`` ends every connection and shuts down cleanly, ``immediate``
        as a crash does (recovery at the start)."""
        self._ctl("restart", "-m", mode)

    def stop(self, mode: str = "fast") -> None:
        self._ctl("stop", "-m", mode)

    def close(self) -> None:
        """Stopped if running, and its files gone."""
        subprocess.run(
            [*_as_owner(), str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
        )
        shutil.rmtree(self.folder, ignore_errors=True)
