"""mjlog texts into tag rows and the attributes of each tag, as columns (the first stage of
:mod:`.mjlog_columns`).

* :func:`tag_rows`: the logs of a batch as one buffer, split at every ``<`` (the split the per-game reader
  makes, :func:`analyzer.formats.tenhou.mjlog.parse_mjlog`: one vectorised pass finding the ``<``), a draw or
  discard tag (``<T12/>``: a letter, a tile id 0-135 as written without leading zeros, ``/>``) read from its
  first eight bytes, read as one number, by a perfect hash into its code (:data:`PLAY_CODES`: the letter's
  number times 136 plus the tile id). Four marker rows (:data:`HAIPAI_CODE` + seat) put before every ``<INIT `` row are the rows of the
  hand's deals (the events table's ``haipai`` rows) in their place, so that the rows of a hand come in the
  events table's order, with no sort. A file with a ``<!`` tag (a comment the per-game reader would have left
  out, a declaration) is refused.
* :func:`attribute_frames`: every other tag's attributes, per tag name: the tags split at their quotes (the
  values are the odd pieces), each tag's *shape* (its text with every quoted value written ``""``) worked out
  once per distinct shape: a shape of the canonical form (the name, then ``key="value"`` pairs apart by white
  space, then ``/>`` or ``>``) reads as the per-game reader's ``findall`` reads it (the same keys and values, a
  key given twice: its last value); a tag of another shape is *refused* (its file goes to the per-game reader,
  :mod:`.mjlog_columns`), as is one with a ``&`` (an XML character reference), and a file with a tag still open
  at the next ``<`` (text after its ``>``).

Columns: ``tag_rows`` gives arrays ``file`` (the file's number in the batch), ``code`` (:data:`CODES`, a
marker's, -1 for another tag) and ``tag`` (the tag's number, ``r``) per row, and the other tags as a frame of
``r``, ``file``, ``text`` (from its ``<``); ``attribute_frames`` gives per tag name a frame of ``r``, ``file``
and one String column per key its tags have, in ``r`` order, and the files refused. Only the tags that are
no draw or discard (about one in sixteen) become Polars strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

DRAW_LETTERS = "TUVW"
DISCARD_LETTERS = "DEFG"
PLAY_CODES = {f"<{letter}{tid}/>": number * 136 + tid
              for number, letter in enumerate(DRAW_LETTERS + DISCARD_LETTERS) for tid in range(136)}
HAIPAI_CODE = 8 * 136  # + seat: the marker rows of a hand's deals
CODES = PLAY_CODES
INIT_OPEN = b"<INIT "  # the INIT tags the markers go before: any other INIT tag is refused (_plan)

# the tags whose attributes are read; the other names are passed over (TAIKYOKU, BYE, the root, unknown ones)
NAMES = ("INIT", "N", "REACH", "DORA", "AGARI", "RYUUKYOKU", "GO", "UN", "SHUFFLE")
_VALUE = re.compile(r'"[^"]*"')
_SPACE = "[ \t\r\n]"
_SHAPE = re.compile(rf'<(?P<name>[A-Za-z]+)(?P<pairs>(?:{_SPACE}+[A-Za-z0-9_:.\-]+="")*){_SPACE}*/?>')
_KEY = re.compile(r'([A-Za-z0-9_:.\-]+)=""')
_SKIPPED = "/?!"  # a closing tag, a processing instruction, a declaration: passed over, as the per-game reader


@dataclass
class Tags:
    """The rows of a batch: per row its ``file``, ``code`` and ``tag`` (arrays), the row of each tag
    (:attr:`row_of`), the other tags' texts (:attr:`other`: ``r``, ``file``, ``text``), and the files refused
    (a tag still open at the next ``<``, a ``<!`` tag)."""

    file: np.ndarray
    code: np.ndarray
    tag: np.ndarray
    row_of: np.ndarray
    other: pl.DataFrame
    open_files: set[int]


def _key(text: bytes) -> int:
    return int.from_bytes(text.ljust(8, b"\0"), "little")


# every tag of :data:`CODES` (at most seven bytes) as the little-endian number of its bytes, in a table by a
# perfect multiplicative hash of that number (the multiplier found by a search: no two of them share a slot)
_INIT_KEY = np.uint64(_key(INIT_OPEN))
_KEYS = np.array([_key(tag.encode()) for tag in CODES], np.uint64)
_HASH, _SHIFT = np.uint64(0x53B1E1A6C09AEF39), np.uint64(64 - 14)
_SLOTS = (_KEYS * _HASH) >> _SHIFT
assert len(np.unique(_SLOTS)) == len(_KEYS), "the play tags' hash has a collision"
_TABLE_KEYS = np.zeros(1 << 14, np.uint64)
_TABLE_KEYS[_SLOTS] = _KEYS
_TABLE_CODES = np.full(1 << 14, -1, np.int16)
_TABLE_CODES[_SLOTS] = np.array(list(CODES.values()), np.int16)
PADDING = bytes(8)  # after the tags, for the 8-byte reads of the last ones
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [2**64 - 1], np.uint64)  # a key's first k bytes


def _play_codes(key: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Each tag's :data:`CODES` number (-1: another tag) from its first eight bytes and its length: its bytes as
    one number (a tag of up to seven bytes), looked up by its hash."""
    key = key & _MASKS[np.minimum(length, 8)]
    slot = (key * _HASH) >> _SHIFT
    return np.where(_TABLE_KEYS[slot] == key, _TABLE_CODES[slot], -1).astype(np.int16)


def tag_rows(bodies: list[bytes]) -> Tags:
    """The tags of every body (a log from ``<mjloggm`` to ``</mjloggm>``), in order, and the markers of the
    deals (see the module docstring)."""
    buffer = b"".join([*bodies, PADDING])
    data = np.frombuffer(buffer, np.uint8)[: len(buffer) - len(PADDING)]
    sizes = np.fromiter(map(len, bodies), np.int64, len(bodies))
    first = np.zeros(len(bodies) + 1, np.int64)
    np.cumsum(sizes, out=first[1:])
    start = np.flatnonzero(data == ord("<"))
    end = np.empty_like(start)
    end[:-1] = start[1:]
    end[-1:] = len(data)
    # int64 (numpy's index type): the file numbers index many look-ups, which a narrower type would slow
    file = np.repeat(np.arange(len(bodies), dtype=np.int64), np.diff(np.searchsorted(start, first)))
    key = np.ndarray(len(buffer) - 7, np.uint64, buffer, 0, (1,))[start]  # the 8 bytes from each tag's "<"
    code = _play_codes(key, end - start)
    other = np.flatnonzero(code < 0)
    offsets = np.append(start, len(data))
    texts = pa.LargeStringArray.from_buffers(len(start), pa.py_buffer(offsets), pa.py_buffer(buffer))  # no copy
    frame = pl.DataFrame({"r": other, "file": file[other],
                          "text": pl.from_arrow(texts.filter(pa.array(code < 0)))})
    # four marker rows before each INIT: the deals of its seats
    init = (key & _MASKS[len(INIT_OPEN)]) == _INIT_KEY
    tag = np.repeat(np.arange(len(start)), np.where(init, 5, 1))
    row_of = np.arange(len(start)) + 4 * np.cumsum(init)
    rows = code[tag]
    markers = row_of[init][:, None] - 4 + np.arange(4)
    rows[markers] = HAIPAI_CODE + np.arange(4, dtype=np.int16)
    # a tag must end at its ">" (the per-game reader strips white space after it: such files are left to it);
    # a "<!" tag: a comment the per-game reader leaves out, whatever it holds (a draw or discard is neither)
    text = pl.col("text")
    refused = frame.filter(~text.str.ends_with(">") | text.str.starts_with("<!"))["file"]
    return Tags(file[tag], rows, tag, row_of, frame, set(refused.to_list()))


def _plan(shape: str) -> tuple[str | None, list[str], str] | None:
    """(tag name, keys, regular expression capturing the values) of a tag shape; (None, [], "") for a tag passed
    over; None for a shape that is refused."""
    if shape[1:2] in tuple(_SKIPPED) and shape.endswith(">"):
        return None, [], ""
    found = _SHAPE.fullmatch(shape)
    if found is None:
        return None
    name = found["name"]
    if name == "INIT" and not shape.startswith(INIT_OPEN.decode()):
        return None  # no deal markers before it
    if name not in NAMES:
        return None, [], ""
    keys = _KEY.findall(found["pairs"])
    pattern = "^" + re.escape(shape).replace('""', '"([^"]*)"') + "$"
    return name, keys, pattern


def _values(rows: pl.DataFrame, pattern: str, keys: list[str]) -> pl.DataFrame:
    """``r``, ``file`` and the values ``pattern``'s groups capture, one column per key (a key given twice: its
    last value, as a dict of the pairs keeps it)."""
    captured = rows.select("r", "file", pl.col("text").str.extract_groups(pattern).alias("values"))
    fields = captured["values"].struct.fields
    last = {key: fields[i] for i, key in enumerate(keys)}
    return captured.select("r", "file", *(pl.col("values").struct.field(f).alias(key) for key, f in last.items()))


# the most attributes a tag of each name is split for at once (a tag with more is read by its shape's pattern)
PAIRS = {"N": 2, "REACH": 3, "DORA": 1, "INIT": 9, "AGARI": 16, "RYUUKYOKU": 10, "GO": 8, "UN": 10, "SHUFFLE": 2}


def _split(rows: pl.DataFrame, pairs: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Tags split at their quotes into the text before each value and the values (``field_1``, ``field_3``, ...),
    with each one's shape (the texts between the values, the values written ``""``); and the tags this split
    does not hold (more attributes, an odd number of quotes), for the patterns of their shapes."""
    parts = 2 * pairs + 2
    split = rows.with_columns(
        pl.col("text").str.splitn('"', parts).alias("parts"),
        (pl.col("text").str.count_matches('"', literal=True) + 1).alias("count"),
    ).unnest("parts")
    held = (pl.col("count") % 2 == 1) & (pl.col("count") < parts)
    outside = [pl.col(f"field_{i}") for i in range(0, parts, 2)]
    return (split.filter(held).with_columns(pl.concat_str(outside, separator='""', ignore_nulls=True).alias("shape")),
            rows.filter(~split.select(held).to_series()))


def attribute_frames(tags: Tags) -> tuple[dict[str, pl.DataFrame], set[int]]:
    """Per tag name of :data:`NAMES`, the attributes of its tags (see the module docstring), and the numbers of
    the files with a tag that is refused."""
    others = tags.other.with_columns(pl.col("text").str.extract(r"^<([A-Za-z]+)").alias("name"))
    refused = set(others.filter(pl.col("text").str.contains("&", literal=True))["file"].unique().to_list())
    refused |= tags.open_files
    parts: dict[str, list[pl.DataFrame]] = {name: [] for name in NAMES}
    read = pl.col("name").is_in(list(PAIRS)).fill_null(False)
    rest = [others.filter(~read)]
    for (name,), rows in others.filter(read).partition_by("name", as_dict=True, maintain_order=True).items():
        split, unsplit = _split(rows, PAIRS[name])
        rest.append(unsplit)
        # one plan per distinct shape (a few in a batch), not per tag; its values are the split's odd fields
        for (shape,), shaped in split.partition_by("shape", as_dict=True, maintain_order=True).items():
            plan = _plan(shape)
            if plan is None:
                refused.update(shaped["file"].unique().to_list())
            elif plan[0] is not None:
                last = {key: f"field_{2 * i + 1}" for i, key in enumerate(plan[1])}  # a key twice: its last value
                parts[name].append(shaped.select("r", "file", *(pl.col(f).alias(key) for key, f in last.items())))
    rest = pl.concat(rest).with_columns(pl.col("text").str.replace_all(_VALUE.pattern, '""').alias("shape"))
    for (shape,), rows in rest.partition_by("shape", as_dict=True, maintain_order=True).items():
        plan = _plan(shape)
        if plan is None:
            refused.update(rows["file"].unique().to_list())
            continue
        name, keys, pattern = plan
        if name is not None:
            parts[name].append(_values(rows, pattern, keys) if keys else rows.select("r", "file"))
    frames = {}
    for name, found in parts.items():
        found = [frame for frame in found if frame.height] or found[:1]
        frame = pl.concat(found, how="diagonal_relaxed") if found else pl.DataFrame(
            schema={"r": pl.Int64, "file": pl.Int32})
        frames[name] = frame.sort("r") if len(found) > 1 else frame
    return frames, refused


def with_keys(frame: pl.DataFrame, keys: tuple[str, ...]) -> pl.DataFrame:
    """``frame`` with a column for every one of ``keys`` (null where no tag of the frame has it)."""
    missing = [key for key in keys if key not in frame.columns]
    return frame.with_columns(pl.lit(None, pl.String).alias(key) for key in missing) if missing else frame


INT = r"-?[0-9]{1,9}"  # the numbers read here: at most 9 digits (a longer one goes to the per-game reader)
INTS = rf"^(?:{INT}(?:,{INT})*)?$"  # a list of them, or nothing


def is_int(expr: pl.Expr) -> pl.Expr:
    """A number as Python's int() reads it, in the form Tenhou writes it (other forms are refused)."""
    return expr.str.contains(f"^{INT}$")


def is_ints(expr: pl.Expr) -> pl.Expr:
    """A comma-separated list of numbers (or nothing, which reads as no number)."""
    return expr.str.contains(INTS)
