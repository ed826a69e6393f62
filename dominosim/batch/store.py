"""The output folder of a sweep: its layout, atomic writes, and the manifest of finished chunks.

Layout of a folder::

    metadata.json                         the sweep, each cell's rules, versions, timings
    sweep.toml                            the sweep file as given
    manifest.jsonl                        one line per finished chunk, with its files' digests
    sums/cell=<c>/chunk-<j>.parquet       one row of sums per chunk (every sweep)
    hands/cell=<c>/chunk-<j>.parquet      one row per hand (``keep = "rows"``)
    summary.parquet, summary.csv          one row per cell
    report.md                             the results in words and tables

A chunk's files are written to a temporary name and renamed into place; only then is the chunk
added to the manifest. A chunk is finished when the manifest lists it and its files have the listed
digests, so a sweep killed at any instant loses at most the chunks it was playing: a rerun plays them
again and writes the same bytes. Files are not forced to disk (no ``fsync``): a process killed
leaves them in the operating system's cache, and after a crash of the machine itself a chunk whose
bytes did not reach the disk fails its digest check and is played again.

Examples
--------
>>> import tempfile
>>> store = Store(Path(tempfile.mkdtemp()) / "out")
>>> store.prepare(fresh=False)
{}
>>> store.save(3, 0, 0, 100, {chunk_path("sums", 3, 0): b"..."})
>>> sorted(store.finished())
[(3, 0)]
>>> store.release()
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # not on Windows: two sweeps into one folder are not prevented there
    fcntl = None  # type: ignore[assignment]

OWNED = ("metadata.json", "sweep.toml", "manifest.jsonl", "sums", "hands", "summary.parquet",
         "summary.csv", "report.md", ".lock")
"""Every entry a sweep writes in its folder (``--fresh`` removes these and nothing else)."""


def chunk_path(kind: str, cell: int, index: int) -> str:
    """The relative path of a chunk's file: ``kind`` is ``'sums'`` or ``'hands'``.

    >>> chunk_path("hands", 2, 17)
    'hands/cell=2/chunk-000017.parquet'
    """
    return f"{kind}/cell={cell}/chunk-{index:06d}.parquet"


class OutputFailure(OSError):
    """The output folder could not be written or read back (a full or read-only disk, missing
    permissions, a corrupt ``metadata.json``): the environment, not the sweep, is at fault. Its
    message is one sentence naming the file and what to do.
    """


def describe_os_error(error: OSError, root: Path | None = None) -> str:
    """One sentence for an ``OSError`` met while writing a sweep's folder: the file, the reason,
    and what to do.

    >>> import errno
    >>> describe_os_error(OSError(errno.ENOSPC, "No space left on device", "/r/summary.csv"))
    "Cannot write '/r/summary.csv': No space left on device; free some space and run the same command again (finished chunks are kept)."
    """
    if isinstance(error, OutputFailure):
        return str(error)
    name = error.filename if error.filename is not None else root
    reason = error.strerror or str(error) or type(error).__name__
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        advice = "free some space and run the same command again"
    elif error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        advice = "choose a folder you may write with --out"
    else:
        advice = "check the disk, or choose another --out, and run the same command again"
    return f"Cannot write {str(name)!r}: {reason}; {advice} (finished chunks are kept)."


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` under a temporary name, then rename it into place; on any
    failure the temporary file is removed (nothing half-written is left).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def digest(data: bytes) -> str:
    """The sha256 of ``data`` in hex."""
    return hashlib.sha256(data).hexdigest()


def _first_difference(old: Any, new: Any, path: str = "") -> str | None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            found = _first_difference(old.get(key), new.get(key), f"{path}.{key}" if path else key)
            if found:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list):
        return f"{path}: {len(old)} entries there, {len(new)} in this sweep"
    if old != new:
        return f"{path}: {old!r} there, {new!r} in this sweep"
    return None


def _engine_change(old: dict, engine: dict, modules: dict[str, str] | None) -> str:
    """What differs between the engine that wrote a folder (its metadata ``old``) and this one:
    a library's version, else the modules of the package edited, added or removed.
    """
    found = old.get("engine")
    before: dict = found if isinstance(found, dict) else {}
    for key in ("numba", "numpy"):
        if key in before and before.get(key) != engine.get(key):
            return f"{key} {before[key]!r} there, {engine.get(key)!r} in this sweep"
    listed = old.get("engine_modules")
    if isinstance(listed, dict) and modules is not None:
        changes = [f"dominosim/{name} {'edited' if name in modules else 'removed'}"
                   for name in listed if modules.get(name) != listed[name]]
        changes += [f"dominosim/{name} added" for name in modules if name not in listed]
        if changes:
            more = f" and {len(changes) - 3} more" if len(changes) > 3 else ""
            return ", ".join(changes[:3]) + more
    return _first_difference(before, engine) or "another version"


def resolve_out(root: str | Path) -> Path:
    """The real folder ``root`` names: absolute, symlinks followed and ``..`` resolved (also
    through parts that do not exist yet), so that every check and the lock see the folder the
    results will be written to.

    >>> resolve_out("results/../results/x") == resolve_out("results/x")
    True
    """
    return Path(os.path.realpath(Path(root).expanduser()))


class Store:
    """The output folder ``root`` of one sweep (resolved: see :func:`resolve_out`)."""

    def __init__(self, root: str | Path):
        self.root = resolve_out(root)
        self.manifest = self.root / "manifest.jsonl"
        self.metadata_path = self.root / "metadata.json"

    # ------------------------------------------------------------------ before anything runs
    def check(self, plan: dict, engine: dict, *, fresh: bool,
              modules: dict[str, str] | None = None) -> bool:
        """Refuse a folder that is not a sweep's, or (unless ``fresh``) that holds another sweep
        or chunks of another engine build (``engine``; ``modules``, the digest of each module of
        the package, names what changed). Writes nothing; returns whether the run must start
        afresh (``fresh``, or a folder of this package without metadata, such as one whose first
        run was killed before writing it).
        """
        if self.root.exists() and not self.root.is_dir():
            raise ValueError(f"The value for `--out` must be a folder, but {str(self.root)!r} "
                             "is a file.")
        for parent in self.root.parents:
            if parent.exists():
                if not parent.is_dir():
                    raise ValueError(f"The value for `--out` must be a folder path, but "
                                     f"{str(self.root)!r} lies under the file {str(parent)!r}.")
                break
        names = {p.name for p in self.root.iterdir()} if self.root.exists() else set()
        if not names - {".lock"}:
            return fresh
        if not self.metadata_path.exists():
            if names <= set(OWNED):
                return True
            raise ValueError(f"The value for `--out` must be a new or empty folder, or one a sweep "
                             f"wrote (with metadata.json), but {str(self.root)!r} holds other "
                             "files.")
        if fresh:
            return True
        old = self.read_metadata()
        diff = _first_difference(old.get("plan"), plan)
        if diff:
            raise ValueError(f"The output folder {str(self.root)!r} holds a different sweep "
                             f"({diff}): pass --fresh to replace its results, or choose another "
                             "--out.")
        if old.get("engine") != engine:
            change = _engine_change(old, engine, modules)
            raise ValueError(f"The output folder {str(self.root)!r} holds chunks played by "
                             f"another build of the engine ({change}): pass --fresh to replace "
                             "its results, or choose another --out.")
        return False

    # ------------------------------------------------------------------ writing
    def prepare(self, *, fresh: bool) -> dict[tuple[int, int], dict]:
        """Create the folder and lock it for this process (until it ends); with ``fresh`` remove
        what an earlier sweep wrote there. Leftover temporary files are removed and the manifest
        is rewritten with its finished chunks only, which are returned (as :meth:`finished`).

        Raises ``ValueError`` when another process holds the folder.
        """
        self.root.mkdir(parents=True, exist_ok=True)
        self._lock()
        if fresh:
            for name in OWNED:
                if name == ".lock":
                    continue
                entry = self.root / name
                if entry.is_dir():
                    shutil.rmtree(entry)
                elif entry.exists():
                    entry.unlink()
        for tmp in self.root.rglob(".*.tmp-*"):
            tmp.unlink()
        done = self.finished()
        write_atomic(self.manifest, "".join(json.dumps(e) + "\n" for e in done.values()).encode())
        return done

    def _lock(self) -> None:
        """Hold an exclusive lock on ``.lock`` while this process lives (the system drops it when
        the process ends, however it ends).
        """
        if fcntl is None or getattr(self, "_lock_file", None) is not None:
            return
        handle = open(self.root / ".lock", "a+")  # noqa: SIM115 (held open on purpose)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise ValueError(f"The output folder {str(self.root)!r} is in use by another sweep "
                             "that is still running: wait for it, or choose another --out.") from None
        self._lock_file: IO[str] | None = handle

    def release(self) -> None:
        """Drop the lock taken by :meth:`prepare`."""
        handle = getattr(self, "_lock_file", None)
        if handle is not None:
            handle.close()
            self._lock_file = None

    def save(self, cell: int, index: int, start: int, n: int, files: dict[str, bytes]) -> None:
        """Write a finished chunk's files atomically, then record the chunk in the manifest."""
        for name, data in files.items():
            write_atomic(self.root / name, data)
        entry = {"cell": cell, "chunk": index, "start": start, "hands": n,
                 "files": {name: digest(data) for name, data in files.items()}}
        with open(self.manifest, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")

    def write_metadata(self, metadata: dict) -> None:
        """Write ``metadata.json`` atomically."""
        write_atomic(self.metadata_path, (json.dumps(metadata, indent=1) + "\n").encode())

    # ------------------------------------------------------------------ reading
    def read_metadata(self) -> dict:
        """The folder's ``metadata.json``; :class:`OutputFailure` when it is not a sweep's."""
        try:
            metadata = json.loads(self.metadata_path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            metadata = None
        if not isinstance(metadata, dict) or not isinstance(metadata.get("plan"), dict) or \
                not isinstance(metadata.get("runs"), list):
            raise OutputFailure(f"The file {str(self.metadata_path)!r} is damaged (not the JSON a "
                                "sweep writes): pass --fresh to play the sweep again from the "
                                "start, or choose another --out.")
        return metadata

    def finished(self) -> dict[tuple[int, int], dict]:
        """The finished chunks by ``(cell, chunk)``: listed in the manifest, with every file
        present and of the listed digest. A torn last line (a kill while appending) is ignored.
        """
        return {key: entry for key, entry in self.listed().items()
                if all(self._holds(name, sha) for name, sha in entry["files"].items())}

    def listed(self) -> dict[tuple[int, int], dict]:
        """The chunks the manifest lists by ``(cell, chunk)`` (the last line of a chunk listed
        twice), without checking their files: what readers of the results read. A torn line is
        ignored.
        """
        if not self.manifest.exists():
            return {}
        entries = {}
        for line in self.manifest.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
                key = (int(entry["cell"]), int(entry["chunk"]))
                if not isinstance(entry["files"], dict):
                    continue
            except (ValueError, KeyError, TypeError):
                continue
            entries[key] = entry
        return entries

    def _holds(self, name: str, sha: str) -> bool:
        path = self.root / name
        return path.is_file() and digest(path.read_bytes()) == sha
