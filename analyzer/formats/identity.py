"""Who played, when, and which game a log is: stable game ids and the identity columns of imported rows.

A game's id is stable: the same game imported twice, from any folder, under any file name, compressed or
not, gets the same id, so copies are found (``import`` skips them, ``score``/``check`` reject them as
``duplicate_row``, another version of a game as ``other_version``: :mod:`analyzer.core.records`). In order
of preference:

1. the Tenhou log id the log itself carries (JSON ``ref``, mjlog ``SHUFFLE ref``), e.g.
   ``2019050417gm-0029-0000-4f2a8622``, or the Mahjong Soul record id a tensoul log carries in ``ref``
   (``231014-84c11a6f-b3f7-4363-966e-25f37886cfbf``, see :mod:`.majsoul`); a ``ref`` of another shape is not
   taken (converters write placeholders there, which would make different games one); a Riichi City record's
   ``keyValue`` (``cd1aa9uai08a0i7csbjg``), which its exports carry in ``ref`` too; for an mjlog, else the
   log id a comment before its root element names (``<!-- /0/?log=2017060214gm-00a9-0000-40a46a1c ... -->``,
   as archives note where a log came from);
2. the Tenhou log id (or Mahjong Soul record id) the file is named after (how Tenhou's own downloads and most
   archives name them: ``2010112714gm-00a9-0000-d497e395.json``, ``…&tw=2.mjlog``);
3. ``log-`` and 16 hex digits of the BLAKE2b hash of the log's content (decompressed, without a byte order
   mark, surrounding whitespace or the CR of CRLF line ends; of an mjlog, its root element, without the
   comments and processing instructions around it): the same content is the same game whatever the file is
   called. A log whose ``ref`` is such an id (analyzer's exports write the game's id there) keeps it.

Tenhou's dan (rank) index, as mjlog ``UN dan=`` records it (tenhou.net/6 JSON writes the name, read back to
the index by :func:`dan_index`): 0 新人 (new player), 1-9 ９級..１級 (9th to 1st kyu), 10-19 初段..十段 (1st to
10th dan), 20 天鳳 (Tenhou-i, also written 天鳳位).
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from datetime import datetime, timedelta, timezone
from pathlib import Path

import polars as pl

from analyzer.formats.majsoul.tensoul import record_id
from analyzer.formats.riichicity.read import record_id as riichi_city_id

DAN_NAMES = [  # kyu digits as NFKC reads Tenhou's full-width ones (９級 -> 9級)
    "新人", "9級", "8級", "7級", "6級", "5級", "4級", "3級", "2級", "1級",
    "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳",
]  # fmt: skip

JAPAN = timezone(timedelta(hours=9), "JST")  # Tenhou's clock (Japan has no daylight saving time)
IDENTITY_COLUMNS: dict[str, pl.DataType] = {
    **{f"dan_{s}": pl.Int64 for s in range(4)},
    **{f"rate_{s}": pl.Float64 for s in range(4)},
    "played_at": pl.Datetime("us", "Asia/Tokyo"),
    **{f"platform_rank_{s}": pl.String for s in range(4)},
}
_DAN_INDEX = {name: i for i, name in enumerate(DAN_NAMES)} | {"天鳳位": 20}
MAX_RATE = 10_000.0  # Tenhou's R starts at 1500; the best players reach about 2400
# YYYYMMDDHH, "gm", the game type (GO type in hex), the lobby (4 digits; more in private lobbies:
# ``2019…gm-0009-10011-…``), a hash
TENHOU_LOG_ID = re.compile(r"(\d{4})(\d\d)(\d\d)(\d\d)gm-[0-9a-f]{4}-[0-9a-f]{4,8}-[0-9a-f]{8}")
ID_PREFIX = "log-"
CONTENT_ID = re.compile(ID_PREFIX + "[0-9a-f]{16}")  # an id of the third kind, as an export writes it back


def content_digest(data: bytes) -> str:
    """16 hex digits identifying a log's content (decompressed bytes; BOM, surrounding whitespace and the CR of
    CRLF line ends left out)."""
    data = data.removeprefix(b"\xef\xbb\xbf").strip()
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def played_at(log_id: str | None) -> datetime | None:
    """When a Tenhou game started (to the hour, Japan time) from its log id's leading ``YYYYMMDDHH``."""
    m = TENHOU_LOG_ID.match(log_id or "")
    if not m:
        return None
    try:
        return datetime(*(int(g) for g in m.groups()), tzinfo=JAPAN)
    except ValueError:  # month 13, hour 25: not a date
        return None


def log_id_from_name(path: str | Path) -> str | None:
    """The Tenhou log id a file is named after (``2019…gm-00a9-0000-9e5ea5b0&tw=2.mjlog.gz``), else None."""
    name = Path(path).name.removesuffix(".gz")
    stem = name.rsplit(".", 1)[0] if "." in name else name
    stem = re.sub(r"&tw=\d$", "", stem)  # the seat the viewer shows at the bottom: not part of the id
    if TENHOU_LOG_ID.fullmatch(stem) and played_at(stem) is not None:
        return stem
    return record_id(stem)


def is_tenhou_log_id(text: str | None) -> bool:
    """``text`` is a Tenhou log id with a real date (``2019050417gm-0029-0000-4f2a8622``)."""
    return isinstance(text, str) and TENHOU_LOG_ID.fullmatch(text) is not None and played_at(text) is not None


def game_id(ref: str | None, path: str | Path, digest: str) -> str:
    """The stable id of a game (see the module docstring)."""
    if is_tenhou_log_id(ref) or (isinstance(ref, str) and CONTENT_ID.fullmatch(ref)):
        return ref
    return record_id(ref) or riichi_city_id(ref) or log_id_from_name(path) or ID_PREFIX + digest


def id_kind(log_id: str) -> str:
    """What kind of id a game id is, for messages: a Tenhou log id, a Mahjong Soul record id, or a content hash."""
    if TENHOU_LOG_ID.fullmatch(log_id):
        return "Tenhou log id"
    if riichi_city_id(log_id):
        return "Riichi City record id"
    return "Mahjong Soul record id" if record_id(log_id) else "log id"


def dan_index(value) -> int | None:
    """Tenhou's dan index 0-20 from the recorded value (an index, its text, or the name); None if unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < len(DAN_NAMES) else None
    if not isinstance(value, str):
        return None
    text = unicodedata.normalize("NFKC", value).strip()  # ９級 -> 9級
    if text.isascii() and text.isdigit() and len(text) <= 2:
        return dan_index(int(text))
    return _DAN_INDEX.get(text)


def rate(value) -> float | None:
    """Tenhou's rating R from the recorded value (a number or its text); None if unreadable or not a rating."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        if len(value) > 32:
            return None
        try:
            value = float(value)
        except ValueError:
            return None
    if isinstance(value, (int, float)) and math.isfinite(value) and 0 < value < MAX_RATE:
        return float(value)
    return None


def identity_columns(dans, rates, notes: list[str], players: int = 4, ranks=None) -> dict:
    """``dan_0..3`` and ``rate_0..3`` of a game from what its log recorded (lists of four, or None when the log
    has none); a value that is recorded but not readable is left null and said in ``notes``. The empty seat 3
    of a three-player game is null whatever the log writes there (Tenhou: dan 0, rate 1500).
    ``platform_rank_0..3``: another platform's rank as its log writes it (``ranks``, Mahjong Soul's ``雀士★2``)."""
    row: dict = {f"platform_rank_{s}": ranks[s] if ranks and s < min(players, len(ranks)) else None for s in range(4)}
    for name, values, read in (("dan", dans, dan_index), ("rate", rates, rate)):
        values = values if isinstance(values, (list, tuple)) and len(values) == 4 else None
        for s in range(4):
            raw = None if values is None or s >= players else values[s]
            row[f"{name}_{s}"] = value = None if raw is None or raw == "" else read(raw)
            if value is None and raw not in (None, ""):
                notes.append(f"{name} of seat {s} ({str(raw)[:40]!r}) is not a Tenhou {name}: {name}_{s} left empty")
    return row
