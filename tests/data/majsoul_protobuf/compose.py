"""Writes games of ``tests/data/majsoul_raw`` as the game's server sends them: the ``fetchGameRecord`` response in
protobuf (run: python tests/data/majsoul_protobuf/compose.py; needs the ``majsoul-protobuf`` extra).

Each JSON raw record is encoded with the game's own schema as ms-api compiles it (``ms/protocol_pb2.py``,
MahjongRepository/mahjong_soul_api, MIT): every round action in its ``.lq.Wrapper`` (``name``, ``data``), the
rounds in ``.lq.GameDetailRecords`` (``actions[]`` of ``.lq.GameAction`` or the older ``records[]``, as the JSON
has them) wrapped again, the head as ``.lq.RecordGame``, the whole a ``.lq.ResGameRecord`` in the ``Wrapper`` of
a response (no name) behind the websocket frame header (``0x03`` and the request's index, little-endian), as
ms-api's ``MSRPCChannel`` reads it. A JSON field the schema does not have fails the encoding.

* ``ranked_south.pb``: ``ranked_south.json`` (the older ``records``), the frame's bytes;
* ``ranked_sanma.hex``: ``ranked_sanma.json`` (three players, a north set aside; ``actions``), the frame as hex
  text, 32 digits a line in groups of four, as a hex dump is pasted.
"""

from __future__ import annotations

import json
from pathlib import Path

from google.protobuf.json_format import ParseDict
from ms import protocol_pb2 as pb

HERE = Path(__file__).resolve().parent
RAW = HERE.parent / "majsoul_raw"
REQUEST_INDEX = 7


def _wrap(name: str, message) -> bytes:
    return pb.Wrapper(name=name, data=message.SerializeToString()).SerializeToString()


def _action(action: dict) -> bytes:
    """A round action ``{"name": ".lq.RecordDealTile", "data": {…}}`` in its Wrapper."""
    kind = getattr(pb, action["name"].removeprefix(".lq."))
    return _wrap(action["name"], ParseDict(action["data"], kind()))


def response(record: dict) -> bytes:
    """The ``ResGameRecord`` of a JSON raw record ``{"head", "data": {"name": ".lq.GameDetailRecords", …}}``."""
    body = record["data"]["data"]
    details = pb.GameDetailRecords(version=body.get("version", 0))
    if "actions" in body:
        for a in body["actions"]:
            details.actions.add(passed=a.get("passed", 0), type=a["type"],
                                result=_action(a["result"]) if "result" in a else b"")
    else:
        details.records.extend(_action(r) for r in body["records"])
    head = ParseDict(record["head"], pb.RecordGame())
    return pb.ResGameRecord(head=head, data=_wrap(".lq.GameDetailRecords", details)).SerializeToString()


def frame(record: dict) -> bytes:
    """The response as the websocket carries it: header, then the unnamed Wrapper of the ResGameRecord."""
    wrapper = pb.Wrapper(name="", data=response(record)).SerializeToString()
    return b"\x03" + REQUEST_INDEX.to_bytes(2, "little") + wrapper


def hex_dump(data: bytes) -> str:
    digits = data.hex()
    lines = [digits[i : i + 32] for i in range(0, len(digits), 32)]
    return "".join(" ".join(line[j : j + 4] for j in range(0, len(line), 4)) + "\n" for line in lines)


def main() -> None:
    south = json.loads((RAW / "ranked_south.json").read_text(encoding="utf-8"))
    (HERE / "ranked_south.pb").write_bytes(frame(south))
    sanma = json.loads((RAW / "ranked_sanma.json").read_text(encoding="utf-8"))
    (HERE / "ranked_sanma.hex").write_text(hex_dump(frame(sanma)), encoding="ascii")


if __name__ == "__main__":
    main()
