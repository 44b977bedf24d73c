"""Yardsticks from earlier commits: ``commit:HASH:LEVEL`` is the robot of ``LEVEL`` as commit ``HASH`` of
Atout's history had it, run through the engine protocol (``atout engine --level LEVEL`` of that commit).

A yardstick is built once: the commit's ``src/`` and ``pyproject.toml`` taken with ``git archive`` into
the user's cache (``platformdirs.user_cache_dir("atout")/yardsticks/FULLHASH``, or ``$ATOUT_CACHE_DIR``),
checked to import there, and its compiled card play warmed into numba's cache beside it.  It runs on
this interpreter and its installed packages, with its own ``src/`` alone on ``PYTHONPATH``: a commit
whose dependencies this environment lacks is refused at the build, with what failed to import.

The history is read from the git repository holding this package's source (a clone), else
``$ATOUT_REPO``; a shallow clone lacks the earlier commits, and is said so.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PREFIX = "commit:"

WARM = """
import importlib, pathlib, sys
root = pathlib.Path(sys.argv[1])
for path in sorted(root.glob("atout/bots/**/fast*.py")) if sys.argv[2:] == ["warm"] else ():
    name = ".".join(path.relative_to(root).with_suffix("").parts)
    warm = getattr(importlib.import_module(name), "warm_up", None)
    if warm is not None:
        warm()
import atout, atout.bots, atout.cli.main
print(atout.__file__)
"""
"""Run in the built tree: the path of the ``atout`` it imports printed, and with ``warm`` every compiled
card play it has warmed first (its numba cache written beside it, so no seat's process compiles at its
first card)."""


class YardstickError(ValueError):
    """A ``commit:`` entrant that cannot be built or run; the message says what and why."""


def is_yardstick(spec: str) -> bool:
    return spec.startswith(PREFIX)


def parse(spec: str) -> tuple[str, str]:
    """``commit:HASH:LEVEL`` as (HASH, LEVEL); YardstickError for anything else."""
    parts = spec[len(PREFIX) :].split(":")
    if not is_yardstick(spec) or len(parts) != 2 or not all(p.strip() for p in parts):
        raise YardstickError(f"{spec!r} is not commit:HASH:LEVEL (such as commit:ad2d964:expert-2)")
    return parts[0].strip(), parts[1].strip()


def cache_root() -> Path:
    """Where built yardsticks are kept: ``$ATOUT_CACHE_DIR/yardsticks``, else the user's cache dir's."""
    base = os.environ.get("ATOUT_CACHE_DIR")
    if not base:
        import platformdirs

        base = platformdirs.user_cache_dir("atout")
    return Path(base) / "yardsticks"


def repository() -> Path:
    """The git repository whose history the commits are read from (see the module's docstring)."""
    named = os.environ.get("ATOUT_REPO")
    here = Path(named) if named else Path(__file__).resolve().parent
    run = subprocess.run(["git", "-C", str(here), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if run.returncode != 0:
        where = f"$ATOUT_REPO ({named})" if named else f"this package's source ({here})"
        raise YardstickError(
            f"commit: yardsticks read Atout's git history, and {where} is in no git clone "
            "(set ATOUT_REPO to a clone of Atout)"
        )
    return Path(run.stdout.strip())


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)


def full_hash(repo: Path, rev: str) -> str:
    """The commit ``rev`` names in ``repo``, in full; YardstickError naming a shallow clone if it is one."""
    run = _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if run.returncode == 0:
        return run.stdout.strip()
    shallow = _git(repo, "rev-parse", "--is-shallow-repository").stdout.strip() == "true"
    hint = (" (a shallow clone: `git fetch --unshallow` brings the earlier commits)" if shallow
            else "")  # fmt: skip
    raise YardstickError(f"commit {rev!r} is not in the history of {repo}{hint}")


def tree_of(commit: str) -> Path:
    return cache_root() / commit


UNCOMPILED = frozenset({"random", "beginner", "club", "heuristic"})
"""Levels that play without the compiled card play: their yardstick needs no warming (tens of seconds)."""


def build(rev: str, log=sys.stderr, warm: bool = True) -> Path:
    """The built tree of commit ``rev`` (its ``src`` to put on PYTHONPATH), built now if not cached, and
    with ``warm`` its compiled card play warmed once. Concurrent builds are safe: each builds aside and the
    first to finish is kept."""
    repo = repository()
    commit = full_hash(repo, rev)
    tree = tree_of(commit)
    if (tree / "built").exists():
        if warm and not (tree / "warmed").exists():
            _warm(tree)
        return tree
    print(f"atout arena: building the yardstick of commit {commit[:12]} (once, into {tree})...", file=log, flush=True)
    t0 = time.monotonic()
    tree.parent.mkdir(parents=True, exist_ok=True)
    aside = Path(tempfile.mkdtemp(prefix=f".{commit[:12]}-", dir=tree.parent))
    try:
        archive = subprocess.run(
            ["git", "-C", str(repo), "archive", "--format=tar", commit, "src", "pyproject.toml"], capture_output=True
        )
        if archive.returncode != 0:
            raise YardstickError(f"git archive of {commit[:12]} failed: {archive.stderr.decode(errors='replace')}")
        subprocess.run(["tar", "-x", "-C", str(aside)], input=archive.stdout, check=True)
        if not (aside / "src" / "atout").is_dir():
            raise YardstickError(f"commit {commit[:12]} has no src/atout: not a commit of Atout")
        checked = subprocess.run(
            [sys.executable, "-c", WARM, str(aside / "src")], env=_env(aside), capture_output=True, text=True
        )
        imported = checked.stdout.strip().splitlines()[-1:] if checked.returncode == 0 else []
        if not imported or not imported[0].startswith(str(aside)):
            said = checked.stderr.strip().splitlines()[-3:] or imported
            raise YardstickError(f"commit {commit[:12]} does not load on {sys.executable}: " + " / ".join(said))
        (aside / "built").write_text(f"{commit}\n{sys.executable}\n{time.strftime('%Y-%m-%d %H:%M:%S')}\n")
        try:
            aside.rename(tree)
        except OSError:  # another process built it meanwhile
            if not (tree / "built").exists():
                raise
    finally:
        if aside.exists():
            shutil.rmtree(aside, ignore_errors=True)
    if warm:
        _warm(tree)
    print(f"atout arena: yardstick {commit[:12]} built in {time.monotonic() - t0:.0f} s", file=log, flush=True)
    return tree


def _warm(tree: Path) -> None:
    """The tree's compiled card play warmed where it lives (numba's cache is found by the source's path)."""
    done = subprocess.run([sys.executable, "-c", WARM, str(tree / "src"), "warm"], env=_env(tree), capture_output=True)
    if done.returncode == 0:
        (tree / "warmed").touch()


def _env(tree: Path) -> dict[str, str]:
    """This process's environment with the commit's ``src`` alone on PYTHONPATH."""
    return {**os.environ, "PYTHONPATH": str(tree / "src")}


def command(spec: str) -> str:
    """The command that runs yardstick ``spec`` as an engine (building it if it is not yet built)."""
    rev, level = parse(spec)
    tree = build(rev, warm=level not in UNCOMPILED)
    run = "import sys; from atout.cli.main import main; sys.exit(main())"
    return shlex.join(["env", f"PYTHONPATH={tree / 'src'}", sys.executable, "-c", run, "engine", "--level", level])
