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
from analyzer.formats.model import Kyoku, LogError
from analyzer.formats.events import INT16_MAX, TILE_CODES
from analyzer.formats.riichicity.codes import ACTION, DEAL, DRAW, GAME_END, HAND_END, KAN_DORA, READ
from analyzer.formats.riichicity.columns_play import play_events
from analyzer.formats.riichicity.columns_events import Stream
from analyzer.formats.riichicity.columns_heads import DEAL as DEAL_DATA
from analyzer.formats.riichicity.columns_heads import hand_heads
from analyzer.formats.riichicity.read import (finish_hand, looks_like_riichicity, new_game, read_result, started_at,
                                              wall_note)
from analyzer.formats.riichicity.rooms import apply_record_rules
from analyzer.formats.tables_from_games import game_row, games_table, outcomes_table
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
_SCALAR = r"^(?:-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|\[.*\]|\{.*\})$"  # other JSON read as text
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


def _prepare(path: Path, max_bytes: int) -> _Prepared | None:
    """The file's record on one line when the columns can read it; None for the per-game reader."""
    try:
        data = read_log_bytes(path, max_bytes)
    except LogError:
        return None
    body = data.removeprefix(_BOM)
    if protobuf_record(data) is not None or not looks_like_riichicity(body):
        return None
    if not body.isascii():
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return _Prepared(path, body.replace(b"\r", b" ").replace(b"\n", b" "), content_digest(data))


def read_riichicity_tables(files: list[str | Path], max_bytes: int = DEFAULT_MAX_LOG_BYTES,
                           log_format: str = "riichicity") -> tuple[LogTables, list[FileRead]]:
    """The log tables of the Riichi City records ``files`` (games numbered in file order, the files that do not
    read left out) and what became of each file; a file the columns do not read is read by the per-game reader
    as ``log_format``."""
    prepared = [_prepare(Path(f), max_bytes) for f in files]
    return read_with_columns(files, prepared, _Parsed, max_bytes, log_format)


def _ndjson(lines: list[bytes] | pl.Series, schema: dict) -> tuple[pl.DataFrame, set[int]]:
    """The lines (bytes, or a column of text) read as one NDJSON text (a row a line, ``n`` its number), and the
    lines that do not read as one object of ``schema`` (each then read alone)."""
    if isinstance(lines, pl.Series):
        text = lines.str.join("\n").item().encode() if len(lines) else b""
        lines = [line.encode() for line in lines.to_list()] if len(lines) else []
    else:
        text = b"\n".join(lines)
    try:
        frame = pl.read_ndjson(io.BytesIO(text), schema=schema)
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
        lines = [p.line for p in fast]
        records, refused = _ndjson(lines, RECORD)
        refused |= {i for i, p in enumerate(fast) if p.line.count(b'"handRecord"') != 1}  # see the docstring
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
        refused |= _scalars_as_text(games, hands)
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
        decoded = self._decode()
        self._read_heads(games, decoded)
        self._read_play(decoded)
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

    def _decode(self) -> pl.DataFrame:
        """The deals, draws, actions and kan dora events of the files not refused, their data decoded (each
        distinct text once: a draw's is one of a few dozen)."""
        ok = ~pl.col("file").is_in(list(self.refused))
        coded = self.events.filter(ok & pl.col("eventType").is_in([DEAL, DRAW, ACTION, KAN_DORA]))
        texts = coded["data"].unique()
        datas, bad = _ndjson(texts, {**PLAY, **DEAL_DATA})
        if bad:
            self.refused |= set(coded.filter(pl.col("data").is_in(texts.gather(sorted(bad)).implode()))["file"]
                                .to_list())
        datas = datas.with_columns(data=texts.gather(datas["n"])).drop("n")
        return coded.join(datas, on="data", how="inner", maintain_order="left")

    def _read_heads(self, games: pl.DataFrame, decoded: pl.DataFrame) -> None:
        """Per file the game and its seats, per hand its head (:func:`.columns_heads.hand_heads`) and end."""
        hands, events = self.hands_frame, self.events
        h_count = hands.height
        self.kyokus, self.heads_said = [None] * h_count, [None] * h_count
        self.ends, self.end_row = [None] * h_count, np.full(h_count, -1, np.int64)
        self.end_type = np.full(h_count, -99, np.int64)
        self.first_tid, self.first_tile = np.full(h_count, -1, np.int64), [None] * h_count
        self.user_data, self.seat_of, self.top = {}, {}, {}
        end_rows = events.filter(pl.col("eventType") == HAND_END).select("h", "row")
        self.end_row[end_rows["h"].to_numpy()] = end_rows["row"].to_numpy()
        ok = ~pl.col("file").is_in(list(self.refused))
        deals = decoded.filter(pl.col("eventType") == DEAL)
        first_deal = deals.group_by("file", maintain_order=True).agg(pl.col("dealer_pos").first())
        dealer_pos = dict(zip(first_deal["file"].to_list(), first_deal["dealer_pos"].to_list()))
        firsts = hands.filter(ok & (pl.col("number") == 1)).select("file", "players")
        tops = {row["file"]: {k: v for k, v in row.items() if v is not None and k != "handRecord"}
                for row in games.filter(ok).drop("handRecord").iter_rows(named=True)}
        first_start = events.group_by("file").agg(pl.col("startTime").first())
        starts = dict(zip(first_start["file"].to_list(), first_start["startTime"].to_list()))
        rotate = {}
        for f, players in zip(firsts["file"].to_list(), firsts["players"].to_list()):  # a game each
            first = {} if dealer_pos.get(f) is None else {"dealer_pos": dealer_pos[f]}
            try:
                game, self.seat_of[f], rotate[f] = new_game(tops[f], players or [], first, str(self.fast[f].path))
            except (LogError, TypeError, ValueError, AttributeError, KeyError, IndexError):
                self.refused.add(f)
                continue
            game.started_at = started_at(tops[f], starts.get(f))
            self.models[f], self.top[f] = game, tops[f]
        seats = pl.DataFrame([(f, user, seat) for f, of in self.seat_of.items() for user, seat in of.items()
                              if isinstance(user, int)], schema={"file": pl.Int64, "userId": pl.Int64,
                                                                 "seat": pl.Int64}, orient="row")
        self.seats = seats
        counts = pl.DataFrame({"file": list(rotate), "rotate": list(rotate.values()),
                               "players": [self.models[f].players for f in rotate]},
                              schema={"file": pl.Int64, "rotate": pl.Int64, "players": pl.Int64})
        info = hands.select("h", "file", "changCi", "quanFeng").join(counts, on="file", how="inner",
                                                                      maintain_order="left")
        heads, refused = hand_heads(deals, info, seats)
        self.refused |= refused
        self._hands_read(heads.filter(~pl.col("file").is_in(list(self.refused))))

    def _hands_read(self, heads: pl.DataFrame) -> None:
        """The hands of ``heads`` as the model's (their play aside), their walls checked, their ends decoded."""
        hands, events = self.hands_frame, self.events
        walls = dict(zip(hands["h"].to_list(), zip(hands["handCardEncode"].to_list(),
                                                   hands["handCardsSHA256"].to_list(), hands["number"].to_list())))
        rare = events.filter(pl.col("h").is_in(heads["h"].implode()) & pl.col("eventType").is_in([HAND_END, GAME_END]))
        per_hand = rare.group_by("h", maintain_order=True).agg(
            "eventType", text=pl.format("[{}]", pl.col("data").str.join(",")))
        ends = dict(zip(per_hand["h"].to_list(), zip(per_hand["eventType"].to_list(), per_hand["text"].to_list())))
        columns = ("h", "file", "kyoku", "honba", "kyotaku", "scores", "dora", "players", "first",
                   "seat0", "seat1", "seat2", "seat3")
        for h, f, kyoku, honba, kyotaku, scores, dora, players, first, *haipai in zip(
                *(heads[c].to_list() for c in columns)):
            if f in self.refused:
                continue
            k = Kyoku(kyoku=kyoku, honba=honba, kyotaku=kyotaku, scores=scores, haipai=haipai, dora=[dora],
                      players=players)
            wall, digest, number = walls[h]
            note = wall_note(k, wall, digest, number)
            try:
                types, text = ends[h]
                datas = orjson.loads(text)
                if len(datas) != len(types) or not isinstance(datas[types.index(HAND_END)], dict):
                    raise LogError("an end the columns do not read")
                end = datas[types.index(HAND_END)]
                if end.get("end_type").__class__ is not int:
                    raise LogError("an end the columns do not read")
                for t, d in zip(types, datas):
                    if t == GAME_END:
                        self.user_data[(f, h)] = d.get("user_data")
            except (LogError, AttributeError, KeyError, ValueError, orjson.JSONDecodeError):
                self.refused.add(f)
                continue
            self.kyokus[h], self.heads_said[h], self.ends[h] = k, [] if note is None else [note], end
            self.end_type[h] = end["end_type"]
            self.first_tid[h], self.first_tile[h] = _MODEL_INDEX[first], first

    def _read_play(self, decoded: pl.DataFrame) -> None:
        """The play's rows (:func:`.columns_play.play_events`) of the files not refused so far."""
        hands = self.hands_frame
        ok = ~pl.col("file").is_in(list(self.refused))
        play = decoded.filter(ok & pl.col("eventType").is_in([DRAW, ACTION, KAN_DORA]))
        play = play.join(self.seats, on=["file", "userId"], how="left", maintain_order="left").with_columns(
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
        actors, accepted = play.actor.tolist(), np.minimum(play.accepted, 1).tolist()
        open_riichi, kan_paid = play.open_riichi.tolist(), play.kan_paid.tolist()
        for f, game in enumerate(self.models):
            if game is None or f in self.refused:
                self.models[f] = None
                continue
            if any(self.kyokus[h] is None for h in by_file[f]):  # a hand whose head or end is not read here
                self.models[f] = None
                continue
            try:
                user_data = None
                for number, h in enumerate(by_file[f], 1):
                    k, said = self.kyokus[h], self.heads_said[h]
                    actor = actors[h]
                    finish_hand(k, self.ends[h], self.seat_of[f], wins.get(h, {}), actor if actor >= 0 else None,
                                accepted[h], open_riichi[h], kan_paid[h], said, number)
                    game.kyokus.append(k)
                    game.notes.extend(said)
                    found = self.user_data.get((f, h))
                    user_data = found if found is not None else user_data
                shown = [walls[h] or "" for h in by_file[f]]
                red = None if any(shown) else f in red_drawn or any(  # needed without walls only
                    t >= RED for h in by_file[f] for hand in [*self.kyokus[h].haipai, [self.first_tile[h]]] for t in hand)
                apply_record_rules(game, self.top[f], shown, red)
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
        outcomes = outcomes_table(kept)
        games = games_table([game_row(number, g, self.game_ids[f]) for f, g in enumerate(self.models)
                             if numbers[f] >= 0 for number in (int(numbers[f]),)])
        return LogTables(games=games, hands=self.stream.hands_table(numbers), events=self.stream.events(numbers),
                         outcomes=outcomes)


def _scalars_as_text(games: pl.DataFrame, hands: pl.DataFrame) -> set[int]:
    """The files where a field read as text may have been a number, a boolean, a list or an object (Polars'
    NDJSON reader gives their JSON text; the per-game reader tells them apart): the record id, a name, a wall or
    its digest that reads as one. (Event data given as objects read as their JSON text, which decodes to what the per-game reader
    takes.)"""
    names = hands.filter(pl.col("number") == 1).select("file", text=pl.col("players").list.eval(
        pl.element().struct.field("nickname").str.contains(_SCALAR)).list.any())
    texts = pl.concat([games.select("file", text=pl.col("keyValue").str.contains(_SCALAR)),
                       hands.select("file", text=pl.col("handCardEncode").str.contains(_SCALAR)),
                       hands.select("file", text=pl.col("handCardsSHA256").str.contains(_SCALAR)), names])
    return set(texts.filter(pl.col("text").fill_null(False))["file"].to_list())


def _out_of_order(events: pl.DataFrame) -> set[int]:
    """The files with a hand whose events are not deals, play, its end, the game's end in this order, or that
    has not one end."""
    phase = pl.col("eventType").replace_strict(_PHASE, default=None)
    bad = events.select("file", "h", back=(phase.diff().over("h") < 0).fill_null(False),
                        ends=(pl.col("eventType") == HAND_END).sum().over("h"))
    return set(bad.filter(pl.col("back") | (pl.col("ends") != 1))["file"].to_list())
