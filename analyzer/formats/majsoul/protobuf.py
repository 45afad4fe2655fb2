"""Mahjong Soul's game record as the game's server sends it: the ``fetchGameRecord`` response, protobuf bytes,
read into the structure the JSON raw reader takes (:func:`record_from_protobuf`, then
:func:`analyzer.formats.majsoul.raw.read_majsoul_record`), so that its rows, events and server checks are
those of the same record decoded to JSON.

The bytes, as the client's websocket carries them and ms-api's ``MSRPCChannel`` reads them
(MahjongRepository/mahjong_soul_api, ``ms/base.py``): a frame header, ``0x03`` (a response) and the request's
index in two bytes, then ``.lq.Wrapper`` (``name``, empty in a response, and ``data``) of ``.lq.ResGameRecord``
(``head`` the ``.lq.RecordGame``, ``data`` another ``Wrapper`` of ``.lq.GameDetailRecords``, or ``data_url``
where the server keeps it elsewhere); the rounds in ``actions[]`` (``.lq.GameAction``: ``type`` 1 holds
``result``, a ``Wrapper`` of a round action such as ``.lq.RecordDealTile``) or the older ``records[]`` (each a
``Wrapper``). Read too, as tools save them: the ``Wrapper`` without the frame header, the ``ResGameRecord``
alone (ms-api's ``Lobby.fetch_game_record`` returns it), the ``Wrapper`` of ``.lq.GameDetailRecords`` alone
(what a ``data_url`` holds: no head), and any of these as hex text (blanks between the digits allowed) or
base64 text. :func:`protobuf_record` tells them by their first bytes, without the schema.

The schema is the game's own (``liqi``), compiled by the ``ms-api`` package (MIT; its ``ms/protocol_pb2.py``
is generated from the client's ``liqi.json``), on Google's ``protobuf`` runtime: the optional extra
``majsoul-protobuf``. Nothing of the schema is copied here. A message becomes a dict of its proto field
names with every scalar field, at its default too (on the wire a zero is an absent field, where the JSON
record writes ``"grading_score": 0``), and a sub-message only where it is set; enums as numbers.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re

from analyzer.formats.model import LogError

EXTRA = "majsoul-protobuf"
MISSING = (f"a Mahjong Soul protobuf record: reading it needs the optional extra {EXTRA} "
           f"(pip install 'riichi-analyzer[{EXTRA}]')")
_RESPONSE = b"\x03"  # the frame's first byte: 1 notify, 2 request, 3 response
_TEXT = re.compile(rb"[0-9A-Za-z+/=\s]*")
_HEX = re.compile(rb"[0-9A-Fa-f]+")
_BASE64 = re.compile(rb"[A-Za-z0-9+/]+={0,2}")
_BLANKS = re.compile(rb"\s+")


def protobuf_record(data: bytes) -> bytes | None:
    """The record's protobuf bytes when ``data`` is one (bytes, hex or base64 text of them; see the module
    docstring), None when it is not: told by the first bytes alone, so a truncated record is still told."""
    if _looks_like_record(data):
        return data
    if not _TEXT.fullmatch(data[:256]):  # JSON, XML and other text: not hex nor base64 (the usual case, cheap)
        return None
    digits = _BLANKS.sub(b"", data)
    try:
        if _HEX.fullmatch(digits) and len(digits) % 2 == 0:
            decoded = bytes.fromhex(digits.decode("ascii"))
        elif _BASE64.fullmatch(digits):
            decoded = base64.b64decode(digits, validate=True)
        else:
            return None
    except (ValueError, binascii.Error):
        return None
    return decoded if _looks_like_record(decoded) else None


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """(value, the index after it) of the varint at ``at``; (-1, at) when the bytes end inside it."""
    value = shift = 0
    for i in range(at, min(len(data), at + 10)):
        value |= (data[i] & 0x7F) << shift
        if data[i] < 0x80:
            return value, i + 1
        shift += 7
    return -1, at


def _looks_like_record(data: bytes) -> bool:
    """A frame header then a ``Wrapper``; a ``Wrapper`` named ``.lq.…`` (or unnamed, its data the whole rest);
    or a ``ResGameRecord`` whose ``head`` starts with its ``uuid``."""
    first = data[:1]
    if first == _RESPONSE:
        return len(data) > 4 and data[3] in (0x0A, 0x12)  # the Wrapper's name or, a response's, its data
    length, at = _varint(data, 1)
    if first == b"\x0a":  # Wrapper.name
        return 0 < length <= 200 and data[at : at + 4] == b".lq."
    if first == b"\x12":  # Wrapper.data, no name
        return length > 0 and at + length == len(data)
    if first == b"\x1a":  # ResGameRecord.head, RecordGame.uuid first
        return length > 0 and data[at : at + 1] == b"\x0a"
    return False


@functools.cache
def load_schema():
    """ms-api's compiled liqi schema (raises ``LogError`` naming the extra when it cannot be loaded)."""
    try:
        from ms import protocol_pb2  # deferred: the optional extra, loaded only when a protobuf record is read
        from google.protobuf.message import DecodeError  # deferred: the optional extra's runtime
    except Exception as exc:  # not installed, or a protobuf runtime that refuses the compiled schema
        raise LogError(f"{MISSING}: {type(exc).__name__}: {str(exc)[:120]}") from None
    if not all(hasattr(protocol_pb2, n) for n in ("Wrapper", "ResGameRecord", "GameDetailRecords")):
        raise LogError(f"{MISSING}: the installed `ms` package is not ms-api's liqi schema")
    return protocol_pb2, DecodeError


def record_from_protobuf(data: bytes) -> dict:
    """The record (bytes :func:`protobuf_record` gave) as the JSON raw reader takes it: ``{"head": …, "data":
    {"name": ".lq.GameDetailRecords", "data": {"version", "actions" | "records"}}}`` (a ``GameDetailRecords``
    alone: the inner ``{"version", …}``, without a head). Raises ``LogError`` for bytes that do not decode, in
    one line."""
    pb, decode_error = load_schema()
    try:
        return _record(pb, data)
    except decode_error as exc:
        raise LogError(f"a Mahjong Soul protobuf record that does not decode (truncated or garbled: {exc})") from None


def _record(pb, data: bytes) -> dict:
    if data[:1] == b"\x1a":
        response = pb.ResGameRecord.FromString(data)
    else:
        wrapper = pb.Wrapper.FromString(data[3:] if data[:1] == _RESPONSE else data)
        if wrapper.name == ".lq.GameDetailRecords":  # what a data_url holds: the rounds without the head
            return _details(pb, wrapper)["data"]
        if wrapper.name not in ("", ".lq.ResGameRecord"):
            raise LogError(f"a Mahjong Soul protobuf message {wrapper.name[:60]!r}, not a game record "
                           "(.lq.ResGameRecord, the fetchGameRecord response)")
        response = pb.ResGameRecord.FromString(wrapper.data)
    if response.HasField("error") and response.error.code:
        raise LogError(f"the fetchGameRecord response is the server's error {response.error.code}, not a record")
    if not response.data:
        where = f" (data_url {response.data_url[:120]!r})" if response.data_url else ""
        raise LogError(f"the fetchGameRecord response holds no rounds{where}: save the response that holds them, "
                       "or the .lq.GameDetailRecords its data_url gives beside it")
    head = message_dict(response.head) if response.HasField("head") else {}
    return {"head": head, "data": _details(pb, pb.Wrapper.FromString(response.data))}


def _details(pb, wrapper) -> dict:
    """A ``Wrapper`` of ``.lq.GameDetailRecords`` with every round action decoded from its own ``Wrapper``."""
    if wrapper.name != ".lq.GameDetailRecords":
        raise LogError(f"the record's data is {wrapper.name[:60]!r}, not an .lq.GameDetailRecords")
    details = pb.GameDetailRecords.FromString(wrapper.data)
    body: dict = {"version": details.version}
    if details.actions:
        body["actions"] = [_action(pb, a) for a in details.actions]
    else:
        body["records"] = [_wrapped(pb, r) for r in details.records]
    return {"name": wrapper.name, "data": body}


def _action(pb, action) -> dict:
    out = {"passed": action.passed, "type": action.type, "game_event": action.game_event}
    if action.result:
        out["result"] = _wrapped(pb, action.result)
    for name in ("user_input", "user_event"):  # the players' inputs, which the reader skips
        if action.HasField(name):
            out[name] = message_dict(getattr(action, name))
    return out


def _wrapped(pb, data: bytes) -> dict:
    """``{"name", "data"}`` of a round action's ``Wrapper``; the data of a name the schema does not know is
    left empty, and the reader names that action."""
    wrapper = pb.Wrapper.FromString(data)
    name = wrapper.name
    message = _message_type(pb, name)
    return {"name": name, "data": message_dict(message.FromString(wrapper.data)) if message is not None else {}}


@functools.cache
def _message_type(pb, name: str):
    """The schema's message class of a Wrapper's name (``.lq.RecordDealTile``), None for a name it lacks."""
    message = getattr(pb, name.removeprefix(".lq."), None) if name.startswith(".lq.") else None
    return message if isinstance(message, type) and hasattr(message, "FromString") else None


def message_dict(message) -> dict:
    """A protobuf message as a dict of its proto field names (see the module docstring)."""
    layout = _LAYOUTS.get(message.__class__)
    if layout is None:
        layout = _LAYOUTS[message.__class__] = _layout(message.DESCRIPTOR)
    scalars, empties, kinds = layout
    out = scalars.copy()  # every scalar field at its default, then those the message sets (ListFields: C speed)
    for name, empty in empties:
        out[name] = empty()
    for field, value in message.ListFields():
        name = field.name
        kind = kinds[name]
        if kind == _SCALAR:
            out[name] = value
        elif kind == _SCALARS:
            out[name] = list(value)
        elif kind == _MESSAGE:
            out[name] = message_dict(value)
        elif kind == _MESSAGES:
            out[name] = [message_dict(m) for m in value]
        elif kind == _MAP:
            out[name] = {k: (message_dict(v) if hasattr(v, "ListFields") else v) for k, v in value.items()}
        elif kind == _BYTES:  # as JSON writes bytes
            out[name] = _base64(value)
        else:
            out[name] = [_base64(v) for v in value]
    return out


_SCALAR, _SCALARS, _MESSAGE, _MESSAGES, _MAP, _BYTES, _BYTES_LIST = range(7)
_LAYOUTS: dict[type, tuple] = {}  # per message class its _layout, looked up once per message (a dict: fastest)


def _base64(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")


def _layout(descriptor) -> tuple[dict, tuple[tuple[str, type], ...], dict[str, int]]:
    """Of a message type: its singular scalar fields at their defaults (enums as numbers), its repeated and map
    fields with the empty value each starts from, and each field's kind."""
    scalars: dict = {}
    empties: list[tuple[str, type]] = []
    kinds: dict[str, int] = {}
    for f in descriptor.fields:
        # is_repeated: protobuf 6 and later (label deprecated there, gone in 7)
        many = f.is_repeated if hasattr(f, "is_repeated") else f.label == f.LABEL_REPEATED
        sub = f.message_type
        if sub is not None and sub.GetOptions().map_entry:
            kinds[f.name] = _MAP
            empties.append((f.name, dict))
            continue
        if f.type == f.TYPE_BYTES:
            kinds[f.name] = _BYTES_LIST if many else _BYTES
        elif sub is not None:
            kinds[f.name] = _MESSAGES if many else _MESSAGE
        else:
            kinds[f.name] = _SCALARS if many else _SCALAR
        if many:
            empties.append((f.name, list))
        elif f.type == f.TYPE_BYTES:
            scalars[f.name] = ""
        elif sub is None:
            scalars[f.name] = f.default_value
    return scalars, tuple(empties), kinds
