"""Telling a log's format from its content, not its name: a folder of mixed logs is read in one run.

* mjlog XML: the text starts with ``<`` (after a byte-order mark, blanks or an XML declaration);
* tenhou.net/6 JSON (Tenhou's viewer, tensoul's Mahjong Soul conversions): a JSON object, or JSON lines of
  objects, the first holding ``log``;
* mjai JSON lines (Mortal, mjai-reviewer, gimite's mjai): the first line is an object with a ``type``;
* Riichi City records (the API's JSON of a game): the text names ``handRecord`` and ``handEventRecord``
  (:func:`analyzer.formats.riichicity.read.looks_like_riichicity`, a scan of the text);
* Mahjong Soul raw game records: a text none of the above is, told by
  :func:`analyzer.formats.majsoul.raw.raw_record` (which parses the whole text, kept for its reader:
  :func:`detected`);
* Mahjong Soul's protobuf record (the ``fetchGameRecord`` response as the game sends it): told from the bytes
  before any text (:func:`detect_bytes`): a frame header or an ``.lq.Wrapper``, or hex or base64 text of them
  (:func:`analyzer.formats.majsoul.protobuf.protobuf_record`).

The first three look only at the start of the text (:data:`SNIFF_CHARS`): their detection costs nothing beside
the parse.
"""

from __future__ import annotations

import json

from analyzer.formats.majsoul.protobuf import protobuf_record
from analyzer.formats.majsoul.raw import RawRecord, raw_record
from analyzer.formats.riichicity.read import looks_like_riichicity

MJLOG, TENHOU_JSON, MJAI, MAJSOUL_RAW = "mjlog", "tenhou_json", "mjai", "majsoul_raw"
MAJSOUL_PROTOBUF = "majsoul_protobuf"
RIICHI_CITY = "riichicity"
SNIFF_CHARS = 4096


def detect_format(text: str) -> str | None:
    """The format of a log's text (``mjlog``, ``tenhou_json``, ``mjai``, ``riichicity`` or ``majsoul_raw``), None
    when it is none of them."""
    return detected(text)[0]


def detected(text: str) -> tuple[str | None, RawRecord | None]:
    """:func:`detect_format`, and for a Mahjong Soul raw record what telling it read (its JSON and round
    actions, :func:`~analyzer.formats.majsoul.raw.raw_record`), which its reader takes instead of reading the
    text again."""
    found = _built_in(text)
    if found in (None, TENHOU_JSON) and looks_like_riichicity(text):  # its hands' keys, scanned: no parse
        return RIICHI_CITY, None
    if found is None:  # asked last: it parses the whole text to tell
        record = raw_record(text)
        if record is not None:
            return MAJSOUL_RAW, record
    return found, None


def detect_bytes(data: bytes) -> str | None:
    """The format of a log's bytes: ``majsoul_protobuf``, else that of its UTF-8 text (:func:`detect_format`),
    None when it is none of them."""
    if protobuf_record(data) is not None:
        return MAJSOUL_PROTOBUF
    try:
        return detect_format(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return None


def _built_in(text: str) -> str | None:
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("<"):
        return MJLOG
    if not head.startswith("{"):
        return None
    first = _first_object(head)
    if first is None:  # the first object does not end in the sniffed text: a whole game in one object
        return TENHOU_JSON if '"log"' in head[:SNIFF_CHARS] or '"title"' in head[:SNIFF_CHARS] else None
    if "log" in first:
        return TENHOU_JSON
    return MJAI if isinstance(first.get("type"), str) else None


def _first_object(head: str) -> dict | None:
    """The first JSON object of the text (its first line, else its first value), None when it does not
    decode from the first :data:`SNIFF_CHARS` characters."""
    line = head.split("\n", 1)[0]
    try:
        first = json.loads(line) if len(line) <= SNIFF_CHARS else None
    except ValueError:
        first = None
    if first is None:
        try:
            first = json.JSONDecoder().raw_decode(head[:SNIFF_CHARS])[0]
        except ValueError:
            return None
    return first if isinstance(first, dict) else {}
