"""One log file into the game model (:mod:`.model`): its bytes read with the caps of :mod:`.files`, mjlog XML
and Tenhou JSON told apart by content, mjai when asked for, or every format told by content (``auto``)."""

from __future__ import annotations

from pathlib import Path

from analyzer.formats.detect import MAJSOUL_RAW, MJAI, MJLOG, RIICHI_CITY, TENHOU_JSON, detected
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES, check_magnitudes, collector_paused, read_log_bytes
from analyzer.formats.identity import content_digest, game_id
from analyzer.formats.majsoul.protobuf import protobuf_record, record_from_protobuf
from analyzer.formats.majsoul.raw import REFUSED_BINARY, looks_like_majsoul_raw, parse_majsoul, read_majsoul_record
from analyzer.formats.mjai.read import parse_mjai
from analyzer.formats.riichicity.read import looks_like_riichicity, parse_riichicity
from analyzer.formats.tenhou.mjlog import parse_mjlog
from analyzer.formats.model import Game, LogError
from analyzer.formats.tenhou.tenhou6_read import parse_json


def parse_file(path: str | Path, log_format: str = "tenhou", max_bytes: int = DEFAULT_MAX_LOG_BYTES) -> Game:
    """One log file into the shared game model (raises ``LogError`` with the problem's reason).

    ``log_format`` is ``tenhou`` (mjlog XML or Tenhou JSON, told apart by content), ``mjai`` (JSON lines) or
    ``majsoul`` (Mahjong Soul's raw records or tensoul's JSON, :mod:`.majsoul_raw`), ``riichicity`` (Riichi City's
    records, :mod:`.riichicity.read`) or ``auto`` (any of them,
    told by :func:`.detect.detect_format`); Mahjong Soul's protobuf record (:mod:`.majsoul.protobuf`) is told by
    its bytes for ``majsoul`` and ``auto``.
    Only a regular file of at most ``max_bytes`` (also once decompressed) is read (:mod:`.files`)."""
    path = Path(path)
    data = read_log_bytes(path, max_bytes)
    record = protobuf_record(data)  # Mahjong Soul's protobuf record, told by its first bytes (as detect_bytes)
    if record is not None:
        game = _parse_protobuf(record, str(path), log_format)
        check_magnitudes(game)
        return game
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LogError(REFUSED_BINARY if log_format == "majsoul" else "not UTF-8 text") from None
    game = _parse_text(text, str(path), log_format)
    check_magnitudes(game)
    game.digest = game.digest or content_digest(data)  # an mjlog's is its root element's (mjlog.split_prolog)
    return game


def _parse_protobuf(record: bytes, path: str, log_format: str) -> Game:
    if log_format not in ("majsoul", "auto"):
        raise LogError("a Mahjong Soul protobuf record (the fetchGameRecord response): import it with "
                       "`analyzer import majsoul`")
    game = read_majsoul_record(record_from_protobuf(record), path)
    game.digest = content_digest(record)  # its bytes, given as bytes or as text: one content
    return game


def _parse_text(text: str, path: str, log_format: str) -> Game:
    if log_format == "auto":
        return _parse_detected(text, path)
    if log_format == "mjai":
        return parse_mjai(text, path)
    if log_format == "majsoul":
        return parse_majsoul(text, path)
    if log_format == "riichicity":
        return parse_riichicity(text, path)
    head = text.lstrip()[:1]
    if head == "<":
        return parse_mjlog(text, path)
    if head in "{[" and head:
        try:
            return parse_json(text, path)
        except LogError:
            if looks_like_majsoul_raw(text):
                raise LogError("a Mahjong Soul raw record, not a Tenhou log: import it with "
                               "`analyzer import majsoul`") from None
            if _looks_like_mjai(text):
                raise LogError("an mjai log, not a Tenhou log: import it with `analyzer import mjai`") from None
            if looks_like_riichicity(text):
                raise LogError("a Riichi City record, not a Tenhou log: import it with `analyzer import riichicity`"
                               ) from None
            raise
    raise LogError("not a Tenhou log (neither mjlog XML nor Tenhou JSON)")


def _looks_like_mjai(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0]
    return first.startswith("{") and '"type"' in first and '"log"' not in first


def _parse_detected(text: str, path: str) -> Game:
    found, record = detected(text)
    if found == MJLOG:
        return parse_mjlog(text, path)
    if found == TENHOU_JSON:
        return parse_json(text, path)
    if found == MJAI:
        return parse_mjai(text, path)
    if found == MAJSOUL_RAW:
        return parse_majsoul(text, path, record)
    if found == RIICHI_CITY:
        return parse_riichicity(text, path)
    raise LogError("not a log of a known format (mjlog XML, tenhou.net/6 JSON, mjai JSON lines or Mahjong Soul raw "
                   "records)")


def read_game(f: Path, log_format: str = "tenhou", max_bytes: int = DEFAULT_MAX_LOG_BYTES):
    """(game, game id, content digest, None) for a file that reads, (None, "", "", reason) for one that does
    not: the reasons ``import`` and ``export`` give.

    The cycle collector waits while the game is read (:func:`~analyzer.formats.files.collector_paused`: a tenth
    of a Mahjong Soul import's time) and runs as before once it is read."""
    try:
        with collector_paused():
            game = parse_file(f, log_format, max_bytes)
        return game, game_id(game.ref, f, game.digest), game.digest, None
    except LogError as exc:
        return None, "", "", str(exc)
    except ValueError as exc:
        return None, "", "", malformed_reason(exc)
    except (KeyError, IndexError, TypeError, AttributeError, RecursionError, OverflowError, MemoryError) as exc:
        return None, "", "", f"malformed log ({type(exc).__name__}: {str(exc)[:200]})"


def malformed_reason(exc: ValueError) -> str:
    """The reason a log is refused for a ValueError from its reading."""
    if "integer string conversion" in str(exc):  # Python refuses ints of over 4300 digits
        return "a number of thousands of digits in the log is not a real value"
    return f"malformed log (ValueError: {str(exc)[:200]})"
