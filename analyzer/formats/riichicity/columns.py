"""Riichi City records read as columns: a batch of files into the log tables (:mod:`analyzer.formats.log_tables`)
with Polars' NDJSON reader and whole-column arithmetic, no Python per event.

1. Each file's record is one JSON object: its line breaks (JSON's white space) made spaces, the batch's records
   are one NDJSON text, read by one call typed by :data:`RECORD` (the API's ``{"code", "data", "message"}`` or
   the game itself): the hands exploded into rows, their events into rows.
2. The data of the draws, actions and kan dora events (JSON text in each event) are one more NDJSON text, read
   by one call typed by :data:`PLAY`; the play's rows come from them as columns (:mod:`.columns_play`).
3. Per hand, in Python: its deals and its end (a few events a hand, decoded by ``orjson``) by the per-game
   reader's own functions (:func:`.read.hand_head`, :func:`.read.finish_hand`), so the hands, outcomes, server
   checks and notes are its; per file the game (:func:`.read.new_game`, the rules, the result).
4. The events table from the rows of the hands' heads, their play and their outcomes, sorted into place, with
   the running values of :func:`analyzer.formats.tenhou.mjlog_columns_play.play_rows`.

**The per-game reader (:func:`.read.parse_riichicity`) is the oracle**: a file whose record these columns do not
read as it does is refused and read by that reader (:func:`analyzer.formats.columns_read.read_with_columns`),
which gives its exact rows, notes or reason: a record that does not read as JSON of :data:`RECORD`'s types, a
field read as text given as another JSON type, event data given as objects, a ``handRecord`` key given twice, a
hand field or event value missing where the per-game reader tells a missing one from a null one, events out of
the order deal, play, hand end, game end, and anything :mod:`.columns_play` refuses. Known difference: a key
given twice in an object reads its first value here, its last there.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import orjson
import polars as pl

from analyzer.formats.columns_read import FileRead, read_with_columns
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES, check_magnitudes, read_log_bytes
from analyzer.formats.identity import content_digest, game_id
from analyzer.formats.log_tables import LogTables
from analyzer.formats.majsoul.protobuf import protobuf_record
from analyzer.formats.model import LogError
from analyzer.formats.events import INT16_MAX, TILE_CODES
from analyzer.formats.riichicity.codes import ACTION, DEAL, DRAW, GAME_END, HAND_END, KAN_DORA, READ
from analyzer.formats.riichicity.columns_play import play_events
from analyzer.formats.riichicity.columns_events import Stream
from analyzer.formats.riichicity.read import (finish_hand, hand_head, looks_like_riichicity, new_game, read_result,
                                              started_at)
from analyzer.formats.riichicity.rooms import apply_record_rules
from analyzer.formats.tables_from_games import game_row, games_table, kyoku_tables
from analyzer.formats.tenhou.mjlog_columns_codes import EVENT
from analyzer.formats.tenhou.mjlog_columns_games import players as event_players
from analyzer.formats.tile_text import RED

_EVENT = pl.Struct({"eventType": pl.Int64, "userId": pl.Int64, "startTime": pl.Int64, "data": pl.String})
_PLAYER = pl.Struct({"userId": pl.Int64, "nickname": pl.String, "points": pl.Int64, "position": pl.Int64})
_HAND = pl.Struct({"changCi": pl.Int64, "quanFeng": pl.Int64, "benChangNum": pl.Int64, "players": pl.List(_PLAYER),
                   "handCardEncode": pl.String, "handCardsSHA256": pl.String, "handEventRecord": pl.List(_EVENT)})
GAME = {"keyValue": pl.String, "playerCount": pl.Int64, "round": pl.Int64, "initPoints": pl.Int64,
        "nowTime": pl.Int64, "gamePlay": pl.Int64, "stageType": pl.Int64, "fangFu": pl.Int64,
        "northOperateType": pl.Int64, "isGeMu": pl.Boolean, "isLuck": pl.Boolean, "isShaoJi": pl.Boolean,
        "isGangPay": pl.Boolean, "handRecord": pl.List(_HAND)}  # the fields the per-game reader reads
RECORD = {**GAME, "data": pl.Struct(GAME)}
PLAY = {"in_card": pl.Int64, "action": pl.Int64, "card": pl.Int64, "group_cards": pl.List(pl.Int64),
        "is_li_zhi": pl.Boolean, "li_zhi_type": pl.Int64, "move_cards_pos": pl.List(pl.Int64),
        "cards": pl.List(pl.Int64)}
_TEXT_KEYS = re.compile(rb'"(?:keyValue|nickname|handCardEncode|handCardsSHA256)"\s*:\s*[^\s"n]')  # not text
_DATA_TEXT = re.compile(rb'"data"\s*:\s*"')
_HAND_RECORD = re.compile(rb'"handRecord"\s*:')
_BOM = b"\xef\xbb\xbf"
_HEAD_FIELDS = ("quanFeng", "changCi", "benChangNum", "players", "handCardEncode", "handCardsSHA256")
_MODEL_INDEX = {tile: i for i, tile in enumerate(TILE_CODES)}  # a model tile -> the tile Enum's index
_RED_INDICES = [i for i, tile in enumerate(TILE_CODES) if tile >= RED]
_PHASE = {DEAL: 0, DRAW: 1, ACTION: 1, KAN_DORA: 1, HAND_END: 2, GAME_END: 3}


@dataclass
class _Prepared:
    path: Path
    line: bytes  # the record on one line
    digest: str
    texts: int  # the values of "data" keys given as text


def _prepare(path: Path, max_bytes: int) -> _Prepared | None:
    """The file's record on one line when the columns can read it; None for the per-game reader."""
    try:
        data = read_log_bytes(path, max_bytes)
    except LogError:
        return None
    body = data.removeprefix(_BOM)
    if protobuf_record(data) is not None or not looks_like_riichicity(body) or _TEXT_KEYS.search(body) or len(
            _HAND_RECORD.findall(body)) != 1:
        return None
    if not body.isascii():
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return None
    line = body.replace(b"\r", b" ").replace(b"\n", b" ")
    return _Prepared(path, line, content_digest(data), len(_DATA_TEXT.findall(body)))


def read_riichicity_tables(files: list[str | Path], max_bytes: int = DEFAULT_MAX_LOG_BYTES,
                           log_format: str = "riichicity") -> tuple[LogTables, list[FileRead]]:
    """The log tables of the Riichi City records ``files`` (games numbered in file order, the files that do not
    read left out) and what became of each file; a file the columns do not read is read by the per-game reader
    as ``log_format``."""
    prepared = [_prepare(Path(f), max_bytes) for f in files]
    return read_with_columns(files, prepared, _Parsed, max_bytes, log_format)


def _ndjson(lines: list[bytes], schema: dict) -> tuple[pl.DataFrame, set[int]]:
    """The lines read as one NDJSON text (a row a line, ``n`` its number), and the lines that do not read as one
    object of ``schema`` (each then read alone)."""
    try:
        frame = pl.read_ndjson(io.BytesIO(b"\n".join(lines)), schema=schema)
        if frame.height == len(lines):
            return frame.with_row_index("n"), set()
    except pl.exceptions.PolarsError:
        pass
    frames, bad = [], set()
    for i, line in enumerate(lines):
        try:
            one = pl.read_ndjson(io.BytesIO(line), schema=schema)
        except pl.exceptions.PolarsError:
            one = None
        if one is None or one.height != 1:
            bad.add(i)
            continue
        frames.append(one.with_columns(n=pl.lit(i, pl.UInt32)).select("n", *schema))
    empty = pl.DataFrame(schema={"n": pl.UInt32, **schema})
    return pl.concat([empty, *frames]), bad


class _Parsed:
    """The columns of the prepared files of a batch (numbered 0.. in file order) and the files refused."""

    def __init__(self, fast: list[_Prepared]) -> None:
        self.fast = fast
        n = len(fast)
        records, refused = _ndjson([p.line for p in fast], RECORD)
        wrapped = pl.col("handRecord").is_null() & pl.col("data").struct.field("handRecord").is_not_null()
        games = records.select(pl.col("n").cast(pl.Int64).alias("file"), *(
            pl.when(wrapped).then(pl.col("data").struct.field(name)).otherwise(pl.col(name)).alias(name)
            for name in GAME))
        refused |= set(games.filter(~pl.col("playerCount").is_in([3, 4]) | pl.col("handRecord").is_null()
                                    | (pl.col("handRecord").list.len() == 0))["file"].to_list())
        hands = games.select("file", "handRecord").explode("handRecord").unnest("handRecord").with_row_index("h")
        hands = hands.with_columns(number=pl.int_range(1, pl.len() + 1).over("file"))
        refused |= set(hands.filter(pl.any_horizontal(pl.col(c).is_null() for c in (
            "changCi", "quanFeng", "benChangNum", "handEventRecord")))["file"].to_list())
        events = hands.select("h", "file", "handEventRecord").explode("handEventRecord").unnest("handEventRecord")
        texts = np.bincount(events.filter(pl.col("data").is_not_null())["file"].to_numpy(), minlength=n)
        refused |= set(np.flatnonzero(texts != np.array([p.texts for p in fast], np.int64)).tolist())
        events = events.filter(pl.col("eventType").is_in(list(READ)) | pl.col("eventType").is_null()).with_row_index(
            "row")
        refused |= set(events.filter(pl.col("eventType").is_null() | pl.col("userId").is_null()
                                     | pl.col("data").is_null() | pl.col("data").str.contains("\n", literal=True)
                                     | (pl.col("data").str.strip_chars() == ""))["file"].to_list())
        refused |= _out_of_order(events)
        self.hands_frame, self.events = hands, events
        self.refused = refused
        self.models: list = [None] * n  # the games read (their hands' play is in the events table, not here)
        self.game_ids = [""] * n
        self._read_heads(games)
        self._read_play()
        self._finish()
        self.refused |= {i for i, g in enumerate(self.models) if g is None}
        self._stream()

    def _stream(self) -> None:
        """The rows of the events table (:class:`.columns_events.Stream`) of the games read."""
        hand_file = self.hands_frame["file"].to_numpy()
        kyokus = [k if self.models[f] is not None else None for k, f in zip(self.kyokus, hand_file.tolist())]
        players = np.array([g.players if g is not None else 4 for g in self.models], np.int8)
        values = SimpleNamespace(frame=pl.DataFrame({
            "file": np.arange(len(self.fast), dtype=np.int64), "players": players,
            "names": [g.names if g is not None else ["", "", "", ""] for g in self.models]}))
        names, unnamed = event_players(values, self.game_ids)
        self.stream = Stream(self.play, kyokus, hand_file, players, self.end_row, self.first_tid,
                             self.hands_frame["number"].to_numpy(), names, self.game_ids,
                             [str(p.path) for p in self.fast])
        self.refused |= self.stream.refused | unnamed

    def _read_heads(self, games: pl.DataFrame) -> None:
        """Per file the game and its seats, per hand its head and end (see the module docstring)."""
        hands, events = self.hands_frame, self.events
        ok = ~pl.col("file").is_in(list(self.refused))
        rare = events.filter(ok & pl.col("eventType").is_in([DEAL, HAND_END, GAME_END])).select(
            "file", "h", "eventType", "userId", "data")
        h_count = hands.height
        self.kyokus, self.heads_said = [None] * h_count, [None] * h_count
        self.ends, self.end_row = [None] * h_count, np.full(h_count, -1, np.int64)
        self.end_type = np.full(h_count, -99, np.int64)
        self.first_tid, self.user_data, self.seat_of = np.full(h_count, -1, np.int64), {}, {}
        self.top = {}
        end_rows = events.filter(pl.col("eventType") == HAND_END).select("h", "row")
        self.end_row[end_rows["h"].to_numpy()] = end_rows["row"].to_numpy()
        by_hand: dict[int, list] = {}
        for f, h, typ, user, data in rare.iter_rows():  # a few a hand: deals, its end, the game's end
            by_hand.setdefault(h, []).append((typ, user, data))
        hand_rows = hands.filter(ok).select("file", "h", "number", *_HEAD_FIELDS)
        first_start = self.events.group_by("file").agg(pl.col("startTime").first())
        starts = dict(zip(first_start["file"].to_list(), first_start["startTime"].to_list()))
        tops = {row["file"]: {k: v for k, v in row.items() if v is not None and k != "handRecord"}
                for row in games.filter(ok).drop("handRecord").iter_rows(named=True)}
        current, game = None, None
        for row in hand_rows.iter_rows(named=True):
            f, h = row["file"], row["h"]
            if f in self.refused:
                continue
            try:
                if f != current:
                    current = f
                    top = tops[f]
                    deal = orjson.loads(by_hand[h][0][2]) if by_hand.get(h) else {}
                    game, seat_of, rotate = new_game(top, row["players"] or [], deal if isinstance(deal, dict)
                                                     else {}, str(self.fast[f].path))
                    self.models[f], self.seat_of[f], self.top[f] = game, seat_of, top
                    game.started_at = started_at(top, starts.get(f))
                rare_of = by_hand.get(h, [])
                datas = orjson.loads(b"[" + ",".join(d for _, _, d in rare_of).encode() + b"]")
                deals = [({"userId": u}, d) for (t, u, _), d in zip(rare_of, datas) if t == DEAL]
                head = {k: row[k] for k in _HEAD_FIELDS if row[k] is not None}
                k, first, said = hand_head(head, [e for e, _ in deals], [d for _, d in deals], self.seat_of[f],
                                           game.players, rotate, row["number"])
                ends = [d for (t, _, _), d in zip(rare_of, datas) if t == HAND_END]
                if len(ends) != 1 or not isinstance(ends[0], dict) or ends[0].get("end_type").__class__ is not int:
                    raise LogError("an end the columns do not read")
                for (t, _, _), d in zip(rare_of, datas):
                    if t == GAME_END:
                        self.user_data[(f, h)] = d.get("user_data")
                self.kyokus[h], self.heads_said[h], self.ends[h] = k, said, ends[0]
                self.end_type[h] = ends[0]["end_type"]
                self.first_tid[h] = _MODEL_INDEX[first]
            except (LogError, TypeError, ValueError, AttributeError, KeyError, IndexError, orjson.JSONDecodeError):
                self.refused.add(f)
                self.models[f] = None

    def _read_play(self) -> None:
        """The play's rows (:func:`.columns_play.play_events`) of the files not refused so far."""
        hands, events = self.hands_frame, self.events
        ok = ~pl.col("file").is_in(list(self.refused))
        play = events.filter(ok & pl.col("eventType").is_in([DRAW, ACTION, KAN_DORA]))
        datas, bad = _ndjson([d.encode() for d in play["data"].to_list()], PLAY)
        if bad:
            self.refused |= set(play["file"].gather(sorted(bad)).to_list())
        play = play.with_row_index("n").join(datas, on="n", how="inner", maintain_order="left")
        seats = pl.DataFrame([(f, user, seat) for f, of in self.seat_of.items() for user, seat in of.items()
                              if isinstance(user, int)], schema={"file": pl.Int64, "userId": pl.Int64,
                                                                 "seat": pl.Int64}, orient="row")
        play = play.join(seats, on=["file", "userId"], how="left", maintain_order="left").with_columns(
            pl.col("seat").fill_null(-1)).sort("row")
        file_of = hands["file"].to_numpy()
        players = np.array([g.players if g is not None else 4 for g in self.models], np.int64)[file_of]
        gang = np.array([bool(self.top.get(f, {}).get("isGangPay")) for f in range(len(self.fast))])[file_of]
        self.play = play_events(play, file_of, players, self.end_row, self.end_type, gang)
        self.refused |= self.play.refused

    def _finish(self) -> None:
        """Each hand's outcomes and notes, each game's rules and result (as :func:`.read.parse_riichicity`)."""
        play = self.play
        wins: dict[int, dict] = {}
        for h, seat, card in play.wins:
            wins.setdefault(h, {})[seat] = card
        by_file: dict[int, list[int]] = {}
        for h, f in enumerate(self.hands_frame["file"].to_list()):
            by_file.setdefault(f, []).append(h)
        red_drawn = set(self.hands_frame["file"].gather(
            play.hand[(play.ev == EVENT["draw"]) & np.isin(play.tid, _RED_INDICES)]).to_list())
        walls = self.hands_frame["handCardEncode"].to_list()
        for f, game in enumerate(self.models):
            if game is None or f in self.refused:
                self.models[f] = None
                continue
            try:
                user_data = None
                for number, h in enumerate(by_file[f], 1):
                    k, said = self.kyokus[h], self.heads_said[h]
                    actor = int(play.actor[h])
                    finish_hand(k, self.ends[h], self.seat_of[f], wins.get(h, {}), actor if actor >= 0 else None,
                                [min(1, int(x)) for x in play.accepted[h]], bool(play.open_riichi[h]),
                                bool(play.kan_paid[h]), said, number)
                    game.kyokus.append(k)
                    game.notes.extend(said)
                    found = self.user_data.get((f, h))
                    user_data = found if found is not None else user_data
                red = f in red_drawn or any(t >= RED for h in by_file[f] for hand in self.kyokus[h].haipai
                                            for t in hand) or any(self.first_tid[h] in _RED_INDICES for h in by_file[f])
                apply_record_rules(game, self.top[f], [walls[h] or "" for h in by_file[f]], red)
                if user_data is not None:
                    read_result(game, self.top[f], user_data, self.seat_of[f])
                check_magnitudes(game)
                if len(game.kyokus) > INT16_MAX or any(not 0 <= x <= INT16_MAX for k in game.kyokus
                                                       for x in (k.honba, k.kyotaku)):
                    raise LogError("a counter beyond the events table's Int16")  # the per-game path says so
                game.digest = self.fast[f].digest
                self.game_ids[f] = game_id(game.ref, self.fast[f].path, game.digest)
            except (LogError, TypeError, ValueError, AttributeError, KeyError, IndexError):
                self.models[f] = None

    def tables(self, numbers: np.ndarray) -> LogTables:
        """The tables of the files kept (``numbers``: each prepared file's game number, -1 for one refused)."""
        kept = [(int(numbers[f]), g) for f, g in enumerate(self.models) if numbers[f] >= 0]
        hands, outcomes = kyoku_tables(kept)
        games = games_table([game_row(number, g, self.game_ids[f]) for f, g in enumerate(self.models)
                             if numbers[f] >= 0 for number in (int(numbers[f]),)])
        return LogTables(games=games, hands=hands, events=self.stream.events(numbers), outcomes=outcomes)


def _out_of_order(events: pl.DataFrame) -> set[int]:
    """The files with a hand whose events are not deals, play, its end, the game's end in this order, or that
    has not one end."""
    phase = pl.col("eventType").replace_strict(_PHASE, default=None)
    bad = events.select("file", "h", back=(phase.diff().over("h") < 0).fill_null(False),
                        ends=(pl.col("eventType") == HAND_END).sum().over("h"))
    return set(bad.filter(pl.col("back") | (pl.col("ends") != 1))["file"].to_list())
