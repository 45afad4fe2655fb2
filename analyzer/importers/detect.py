"""Telling a log's format from its content, not its name: a folder of mixed logs is read in one run.

* mjlog XML: the text starts with ``<`` (after a byte-order mark, blanks or an XML declaration);
* tenhou.net/6 JSON (Tenhou's viewer, tensoul's Mahjong Soul conversions): a JSON object or array, or JSON
  lines, whose first value holds ``log`` (or, as an array, objects that do);
* mjai JSON lines (Mortal, mjai-reviewer, gimite's mjai): the first line is an object with a ``type``;
* Mahjong Soul raw game records: told by :func:`analyzer.importers.majsoul_raw.looks_like_majsoul_raw` when
  that reader is installed (:data:`EXTRA_DETECTORS`).

Only the start of the text is looked at (:data:`SNIFF_CHARS`): detection costs nothing beside the parse.
"""

from __future__ import annotations

import importlib
import json
from typing import Callable

MJLOG, TENHOU_JSON, MJAI = "mjlog", "tenhou_json", "mjai"
SNIFF_CHARS = 4096

# (format name, module, function): readers that may be absent; the function takes the log's text
EXTRA_DETECTORS: list[tuple[str, str, str]] = [
    ("majsoul_raw", "analyzer.importers.majsoul_raw", "looks_like_majsoul_raw"),
]


def detect_format(text: str) -> str | None:
    """The format of a log's text (``mjlog``, ``tenhou_json``, ``mjai`` or an extra reader's name), None when
    it is none of them."""
    for name, looks_like in _extra_detectors():
        if looks_like(text):
            return name
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("<"):
        return MJLOG
    if not head.startswith(("{", "[")):
        return None
    first = _first_value(head)
    if isinstance(first, dict):
        if "log" in first:
            return TENHOU_JSON
        if isinstance(first.get("type"), str):
            return MJAI
        return None
    if isinstance(first, list) and first and all(isinstance(x, dict) and "log" in x for x in first[:1]):
        return TENHOU_JSON
    if first is _CUT:  # the first value is longer than the sniffed text: a whole game in one object
        start = head[:SNIFF_CHARS]
        if start.startswith("[") or '"log"' in start or '"title"' in start or '"name"' in start:
            return TENHOU_JSON
    return None


_CUT = object()


def _first_value(head: str):
    """The first JSON value of the text (its first line, else its start), ``_CUT`` when it does not end in the
    sniffed characters, None when it is not JSON."""
    line = head.split("\n", 1)[0].strip()
    if len(line) <= SNIFF_CHARS:
        try:
            return json.loads(line)
        except ValueError:
            pass
    try:
        return json.JSONDecoder().raw_decode(head[:SNIFF_CHARS])[0]
    except ValueError:
        return _CUT if len(head) > SNIFF_CHARS or "\n" in head else None


_loaded: list[tuple[str, Callable[[str], bool]]] | None = None


def _extra_detectors() -> list[tuple[str, Callable[[str], bool]]]:
    global _loaded
    if _loaded is None:
        _loaded = []
        for name, module, function in EXTRA_DETECTORS:
            try:
                _loaded.append((name, getattr(importlib.import_module(module), function)))
            except (ImportError, AttributeError):
                continue  # that reader is not part of this installation
    return _loaded
