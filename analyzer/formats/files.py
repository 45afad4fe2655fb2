"""Finding the log files to read, and reading files that may be hostile: only regular files, never more than a
cap, gzip in bounded steps.

:func:`expand_paths` turns the given files, folders and globs into the files to read (the log suffixes of a
format: :data:`FORMATS`); a path that finds nothing is a problem reported, not an error.

Archives of logs are downloaded from many places; a file may be truncated or corrupt, a ``.mjlog`` may be a
named pipe or a symlink to ``/dev/zero``, a ``.gz`` may inflate a thousandfold, a number in it may have
hundreds of digits. Every such file becomes a :class:`LogError` for that file alone (the importer reports
it and reads the others), and none costs more than ``max_bytes`` of memory or blocks the run:

* :func:`read_log_bytes` reads a regular file (symlinks resolved) of at most ``max_bytes``, and decompresses
  gzip to at most ``max_bytes``; anything else (directory, FIFO, device, socket) is not opened at all;
* :func:`check_magnitudes` rejects a parsed game holding an absurd number (beyond :data:`MAX_MAGNITUDE`, or
  a float that is not finite) before any row is built, so no Int64 column overflows.
"""

from __future__ import annotations

import contextlib
import gc
import glob
import json
import math
import os
import stat
import zlib
from pathlib import Path

import orjson

from analyzer.formats.model import ImportProblem, LogError

DEFAULT_MAX_LOG_BYTES = 64 << 20  # a whole hanchan is 10-60 kB of mjlog: 64 MB is far beyond any real game
_READ_CHUNK = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b"

LOG_SUFFIXES = (".mjlog", ".xml", ".json", ".jsonl")
MJAI_SUFFIXES = (".json", ".jsonl", ".mjson")  # .mjson: gimite's mjai server
MAJSOUL_PROTOBUF_SUFFIXES = (".pb", ".bin", ".hex", ".b64")  # Mahjong Soul's protobuf record: bytes, hex, base64
MAJSOUL_SUFFIXES = (".json", ".jsonl") + MAJSOUL_PROTOBUF_SUFFIXES
# auto: each file's format told by content
AUTO_SUFFIXES = tuple(dict.fromkeys(LOG_SUFFIXES + MJAI_SUFFIXES + MAJSOUL_SUFFIXES))
RIICHI_CITY_SUFFIXES = (".json",)  # Riichi City: the API's JSON of a game
FORMATS = {"tenhou": LOG_SUFFIXES, "mjai": MJAI_SUFFIXES, "majsoul": MAJSOUL_SUFFIXES,
           "riichicity": RIICHI_CITY_SUFFIXES, "auto": AUTO_SUFFIXES}


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "another kind of file"


def size_text(n: int) -> str:
    """1536 -> '1.5 kB' (binary units, as ``--max-log-size`` reads them)."""
    for unit, factor in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if n >= factor:
            return f"{n / factor:.3g} {unit}"
    return f"{n} bytes"


def read_log_bytes(path: str | Path, max_bytes: int = DEFAULT_MAX_LOG_BYTES) -> bytes:
    """The content of one log file, gzip decompressed (by the ``.gz`` suffix or gzip's magic bytes).

    Raises :class:`LogError` for anything that is not a regular file (after following symlinks), a file or a
    decompressed content larger than ``max_bytes``, and corrupt or truncated gzip data.
    """
    try:
        info = os.stat(path)  # follows symlinks: a link to /dev/zero is a character device
    except OSError as exc:
        raise LogError(f"cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise LogError(f"not a regular file: {_kind(info.st_mode)}, not read")
    if info.st_size > max_bytes:
        raise LogError(f"file of {size_text(info.st_size)} is larger than the {size_text(max_bytes)} limit "
                       "(--max-log-size), not read")
    try:
        # O_NONBLOCK: should the path have become a FIFO since the stat, opening it must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise LogError(f"cannot read: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise LogError(f"not a regular file: {_kind(mode)}, not read")
        chunks: list[bytes] = []
        total = 0
        while total <= max_bytes:  # one byte past the cap tells a file that grew since the stat
            chunk = os.read(fd, min(_READ_CHUNK, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise LogError(f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    if total > max_bytes:
        raise LogError(f"file is larger than the {size_text(max_bytes)} limit (--max-log-size), not read")
    data = b"".join(chunks)
    if str(path).endswith(".gz") or data[:2] == _GZIP_MAGIC:
        return gunzip(data, max_bytes)
    return data


def log_head(path: str | Path, size: int = 64) -> bytes:
    """The first ``size`` bytes of a log's content (gzip decompressed), b"" for anything that cannot be read
    so (not a regular file, unreadable, bad gzip): what a run is told by before any file is read whole."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return b""
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            head = os.read(fd, 4096)
        finally:
            os.close(fd)
        if str(path).endswith(".gz") or head[:2] == _GZIP_MAGIC:
            head = zlib.decompressobj(wbits=31).decompress(head, size)
    except (OSError, zlib.error):
        return b""
    return head[:size]


def gunzip(data: bytes, max_bytes: int) -> bytes:
    """Decompress gzip data (one or more members) to at most ``max_bytes``: a gzip bomb costs the cap, no more."""
    out: list[bytes] = []
    total = 0
    rest = data
    while True:
        inflate = zlib.decompressobj(wbits=31)  # 31: gzip header and trailer (CRC and length checked)
        pending = rest
        try:
            while not inflate.eof:
                chunk = inflate.decompress(pending, max_bytes + 1 - total)  # never 0, which means unbounded
                pending = inflate.unconsumed_tail
                if not chunk and not pending:
                    break  # all input used and nothing more comes out: the stream is cut short
                total += len(chunk)
                if total > max_bytes:
                    raise LogError(f"gzip data decompresses to more than the {size_text(max_bytes)} limit "
                                   "(--max-log-size), not read")
                out.append(chunk)
        except zlib.error as exc:
            raise LogError(f"bad gzip data: {exc}") from None
        if not inflate.eof:
            raise LogError("truncated gzip data: the file ends inside the compressed stream")
        rest = inflate.unused_data
        if not rest.strip(b"\0"):  # gzip itself accepts trailing zero padding
            return b"".join(out)
        if rest[:2] != _GZIP_MAGIC:
            raise LogError("bad gzip data: trailing bytes after the compressed stream")


# Every number a log holds (points, counters, ranks) is far below this; sums over billions of such values
# still fit an Int64.
MAX_MAGNITUDE = 10**9


def check_magnitudes(game) -> None:
    """Raise :class:`LogError` when a number of the parsed game that becomes a column (counters, scores,
    deltas, the hand's value, final results, lobby) is beyond ±:data:`MAX_MAGNITUDE` or a float is not
    finite. Tiles and seats of the play index the replay's tables, where an absurd one fails on its own."""
    numbers: list = [game.lobby, *(game.final_scores or ()), *(game.final_points or ())]
    for k in game.kyokus:
        numbers += (k.kyoku, k.honba, k.kyotaku, *k.scores)
        for o in k.outcomes:
            numbers += (*o.deltas, o.fu, o.han, o.points, o.yakuman, o.dora, o.ura, o.aka)
    for x in numbers:
        if x is None or isinstance(x, bool):
            continue
        if isinstance(x, float) and not math.isfinite(x):
            raise LogError(f"the number {x!r} in the log is not a real value")
        if not -MAX_MAGNITUDE <= x <= MAX_MAGNITUDE:
            raise LogError(f"a number beyond ±{MAX_MAGNITUDE:,} in the log is not a real value")


def expand_paths(
    paths: list[str | Path], suffixes: tuple[str, ...] = LOG_SUFFIXES
) -> tuple[list[Path], list[ImportProblem]]:
    """Files to read: given files as they are, directories recursively (log suffixes only, ``.gz`` too), globs."""
    files: list[Path] = []
    problems: list[ImportProblem] = []

    def unreadable(exc: OSError) -> None:
        problems.append(ImportProblem(str(exc.filename), f"cannot read the directory: {exc.strerror}"))

    def walk(d: Path) -> None:
        for root, dirs, names in os.walk(d, onerror=unreadable):
            dirs.sort()
            for n in sorted(names):
                base = n[:-3] if n.endswith(".gz") else n
                if base.lower().endswith(suffixes):
                    files.append(Path(root) / n)

    for p in paths:
        text = str(p)
        if Path(text).is_dir():
            walk(Path(text))
        elif os.path.lexists(text):  # a file, or a FIFO, device or broken link that the reader reports
            files.append(Path(text))
        elif glob.has_magic(text):
            matches = sorted(glob.glob(text, recursive=True))
            if not matches:
                problems.append(ImportProblem(text, "the pattern matches no file"))
            for m in matches:
                (walk if Path(m).is_dir() else files.append)(Path(m))
        else:
            problems.append(ImportProblem(text, "no such file or directory"))
    seen: set[Path] = set()
    unique = []
    for f in files:
        try:
            key = f.resolve()
        except (OSError, RuntimeError):  # a symlink loop: the reader reports it
            key = f.absolute()
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique, problems


@contextlib.contextmanager
def collector_paused():
    """Python's cycle collector paused for the block, and enabled again after it (errors included) only if it
    was enabled before: reading logs makes tens of thousands of small objects a file (JSON values, tags, events)
    that are not cycles, and each collection while a batch is read scanned all those held so far again (a
    tenth to a fifth of a per-file reading's time)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def long_numbers(text: str | bytes) -> bool:
    """Whether ``text`` holds a run of 19 digits or more: an integer ``orjson`` may read as a float, where
    ``json`` reads the integer."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return _LONG_RUN in data.translate(_DIGITS_ONLY)  # a byte table: about 50 times re's search for [0-9]{19}


def decode_json(text: str | bytes, long: bool | None = None):
    """The JSON of ``text`` as ``json.loads`` reads it, by ``orjson`` where it can (a log is thousands of small
    objects: about half the time), and by ``json`` where ``orjson`` refuses (``NaN``, lone surrogates, a text of
    JSON lines) or would read otherwise (:func:`long_numbers`; ``long``: what it says of ``text``, when the
    caller has asked), so that what is read and every error are ``json``'s."""
    if long_numbers(text) if long is None else long:
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


_DIGITS_ONLY = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))  # a digit stays one, the rest a space
_LONG_RUN = b"0" * 19
