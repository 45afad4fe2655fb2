"""tenhou.net/6 JSON files read as columns: a batch of files into the log tables
(:mod:`analyzer.formats.log_tables`) with the play of every hand put in order by numpy arithmetic over all hands
at once, no Python loop per draw, discard or call.

Per file (Python, as the mjai columns read a ``start_game``): the bytes read with the caps of
:mod:`analyzer.formats.files`, the content digest, ``orjson`` decoding, and the game without its play read by
the per-game reader's own functions (:func:`.tenhou6_read.game_of_objects` with ``play=False``: the header,
rules and names, each hand's counters, scores, deal and indicators, its result read into outcomes, the checks of
the numbers) — a few values a hand. Then for the whole batch:

1. :mod:`.tenhou6_columns_items`: the hands' draw and discard lists (the ``log`` arrays written compactly into
   one buffer) as flat integer columns;
2. :mod:`.tenhou6_columns_order`: the play in order, all hands in lock-step, and its checks;
3. the events table's rows with their running values (turns, wall left, the outcomes' tiles, riichi sticks) by
   the play arithmetic of the mjlog columns (:func:`analyzer.formats.tenhou.mjlog_columns_play.play_rows`),
   ``tsumogiri`` as the log says it; the hands table from the deals' columns and each hand's counters, the
   games and outcomes tables from the games without play (as :mod:`analyzer.formats.tables_from_games` makes
   them for the per-game reader).

**The per-game reader (:func:`.tenhou6_read.parse_json`) is the oracle**: a file that is not one JSON object of a
whole game, is not for this reader's format, has an item in its play lists these columns do not read, a play they
cannot put in order the first way the per-game reader tries, or a Mahjong Soul three-player game (whose
north-bisection reading needs the play's riichi) is read by that reader
(:func:`analyzer.formats.columns_read.read_with_columns`): so every file gives the per-game path's tables,
notes and refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import orjson
import polars as pl
import pyarrow as pa

from analyzer.formats.columns_read import FileRead, read_with_columns
from analyzer.formats.detect import TENHOU_JSON, detect_format
from analyzer.formats.events import TILE_CODES
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES, check_magnitudes, collector_paused, log_head, read_log_bytes
from analyzer.formats.identity import content_digest, game_id
from analyzer.formats.log_tables import HANDS, TILE, LogTables
from analyzer.formats.majsoul.protobuf import protobuf_record
from analyzer.formats.model import Game, LogError
from analyzer.formats.events import INT16_MAX
from analyzer.formats.tables_from_games import game_row, games_table, outcomes_of_games
from analyzer.formats.tenhou.mjlog_columns_codes import (EVENT, enum_array, event_tiles, events_frame, lists,
                                                          outcome_deltas, play_arrays, series)
from analyzer.formats.tenhou.mjlog_columns_games import players as event_players
from analyzer.formats.tenhou.mjlog_columns_play import kept_rows, play_rows, refusals
from analyzer.formats.tenhou.tenhou6_columns_items import play_items
from analyzer.formats.tenhou.tenhou6_columns_order import ACCEPTED, CALL_EVENT, DISCARD, checks, play_order
from analyzer.formats.tenhou.tenhou6_read import game_of_objects

_ENUM = {t: i for i, t in enumerate(TILE_CODES)}
_OUTCOME_EVENT = {"ron": EVENT["ron"], "tsumo": EVENT["tsumo"], "draw": EVENT["exhaustive_draw"],
                  "nagashi": EVENT["exhaustive_draw"], "abort": EVENT["abort"]}
HAIPAI, DORA = EVENT["haipai"], EVENT["dora"]
CALLS = CALL_EVENT.tolist()
# the errors the per-game reader turns into a refusal (analyzer.formats.parse.read_game): here, for that reader
_UNREAD = (LogError, ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError, OverflowError)


@dataclass
class _Prepared:
    path: Path
    digest: str
    game: Game  # without its play (the hands' events)
    log: bytes  # the log array, compactly
    seats_listed: list[int]  # per hand: the seats whose lists it has


def _prepare(path: Path, max_bytes: int, log_format: str) -> _Prepared | None:
    """The file's game without its play and its log array when the columns can read it; None for the per-game
    reader."""
    try:
        data = read_log_bytes(path, max_bytes)
        if protobuf_record(data) is not None:
            return None
        text = data.decode("utf-8-sig")
    except (LogError, UnicodeDecodeError):
        return None
    if text.lstrip()[:1] != "{" or (log_format == "auto" and detect_format(text) != TENHOU_JSON):
        return None
    try:
        obj = orjson.loads(text.lstrip("\ufeff"))
        if not isinstance(obj, dict) or not isinstance(obj.get("log"), list):
            return None
        game = game_of_objects([obj], str(path), play=False)
        check_magnitudes(game)
        log = orjson.dumps(obj["log"])
    except (orjson.JSONDecodeError, orjson.JSONEncodeError, *_UNREAD):
        return None
    if (game.platform == "majsoul" and game.players == 3) or b"\\" in log:
        return None
    seats_listed = [3 if len(raw) == 14 else 4 for raw in obj["log"]]
    if not all(isinstance(raw[4 + 3 * s + i], list) for raw, n in zip(obj["log"], seats_listed)
               for s in range(n) for i in (1, 2)):
        return None
    game.digest = content_digest(data)
    return _Prepared(path, game.digest, game, log, seats_listed)


def starts_as_tenhou6(path: str | Path) -> bool:
    """Whether the file's content begins as these columns' files do: one JSON object of a whole game (its
    ``log`` or ``title`` key among its first bytes, no second line starting another object: the mjx layout)."""
    head = log_head(path, 4096).removeprefix(b"\xef\xbb\xbf").lstrip()
    return head.startswith(b"{") and (b'"log":' in head or b'"title":' in head) and b"\n{" not in head \
        and not head.startswith(b'{"type":')


def read_tenhou6_tables(files: list[str | Path], max_bytes: int = DEFAULT_MAX_LOG_BYTES, log_format: str = "tenhou",
                        ) -> tuple[LogTables, list[FileRead]]:
    """The log tables of the tenhou.net/6 JSON ``files`` (games numbered in file order, the files that do not
    read left out) and what became of each file; a file the columns do not read is read by the per-game reader
    as ``log_format`` (``tenhou``, or ``auto``: any format told by its content)."""
    with collector_paused():
        prepared = [_prepare(Path(f), max_bytes, log_format) for f in files]
    return read_with_columns(files, prepared, _Parsed, max_bytes, log_format)


def _beyond_the_tables(games: list[Game]) -> set[int]:
    """The games whose values the tables' types cannot hold (as :func:`analyzer.formats.events.game_events`
    refuses them), or whose outcomes lack a seat's score change."""
    return {i for i, g in enumerate(games) if len(g.kyokus) > INT16_MAX or any(
        not 0 <= k.honba <= INT16_MAX or not 0 <= k.kyotaku <= INT16_MAX or not -INT16_MAX <= k.kyoku <= INT16_MAX
        or any(len(o.deltas) < k.players for o in k.outcomes) for k in g.kyokus)}


class _Parsed:
    """The columns of the prepared files of a batch (numbered 0.. in file order) and the files refused."""

    def __init__(self, fast: list[_Prepared]) -> None:
        self.fast = fast
        self.games = [p.game for p in fast]
        self.game_ids = [game_id(g.ref, p.path, p.digest) for g, p in zip(self.games, fast)]
        kyokus = [k for g in self.games for k in g.kyokus]
        self.hand_file = np.repeat(np.arange(len(fast)), [len(g.kyokus) for g in self.games])
        self.players = np.array([g.players for g in self.games], np.int8)
        hand_players = np.array([k.players for k in kyokus], np.int64)
        self.items = play_items(b"".join(p.log for p in fast),
                                np.array([n for p in fast for n in p.seats_listed], np.int64))
        play = play_order(self.items, hand_players, np.array([k.dealer for k in kyokus], np.int64))
        added, unheld = checks(play, self.items)
        seated = np.arange(4)[None, :] < hand_players[:, None]
        misdealt = (seated & (self.items.dealt != 13)).any(axis=1)
        refused = set(self.hand_file[play.failed | unheld | misdealt].tolist()) | _beyond_the_tables(self.games)
        rows = self._stream(kyokus, play, added)
        self.play = play_rows(rows, self.players, rows["tag"][self.hand_first])
        refused |= refusals(rows, self.play, self.players)
        values = SimpleNamespace(frame=pl.DataFrame({
            "file": np.arange(len(fast), dtype=np.int64), "players": self.players,
            "names": [g.names for g in self.games]}))
        self.names, unnamed = event_players(values, self.game_ids)
        self.refused = refused | unnamed
        self.kyokus = kyokus
        self.scores = np.array([k.scores for k in kyokus], np.int64).reshape(-1, 4)
        self.per_hand = {"log_row": np.concatenate([np.arange(1, len(g.kyokus) + 1) for g in self.games] or
                                                   [np.zeros(0, np.int64)]).astype(np.int16),
                         "honba": np.array([k.honba for k in kyokus], np.int64),
                         "kyotaku": np.array([k.kyotaku for k in kyokus], np.int64),
                         "kyoku": np.array([k.kyoku for k in kyokus], np.int64)}

    def _stream(self, kyokus: list, play, added: np.ndarray) -> dict[str, np.ndarray]:
        """The rows :func:`play_rows` takes, each hand's in order: its deal rows (seats, then indicators), its
        play, a riichi on its last discard if the result accepts it, its outcomes."""
        hands = len(kyokus)
        players = np.array([k.players for k in kyokus], np.int64)
        seats = np.arange(4)
        deal_h, deal_s = np.nonzero(seats[None, :] < players[:, None])
        dora = np.array([_ENUM[t] for k in kyokus for t in k.dora], np.int64)
        dora_h = np.repeat(np.arange(hands), [len(k.dora) for k in kyokus]).astype(np.int64)
        self.dora, self.dora_hand = dora, dora_h
        outcomes = [(h, o) for h, k in enumerate(kyokus) for o in k.outcomes]
        out_h = np.array([h for h, _ in outcomes], np.int64)
        out_ev = np.array([_OUTCOME_EVENT[o.result] for _, o in outcomes], np.int64)
        seated = np.isin(out_ev, (EVENT["ron"], EVENT["tsumo"]))
        out_seat = np.where(seated, [o.winner if o.winner is not None else -1 for _, o in outcomes], -1)
        out_frm = np.where(out_ev == EVENT["ron"], [o.loser if o.loser is not None else -1 for _, o in outcomes], -1)
        self.recorded = np.array([(list(o.deltas) + [0] * 4)[:4] for _, o in outcomes], np.int64).reshape(-1, 4)
        first = [k.outcomes[0] if k.outcomes else None for k in kyokus]
        ronned = np.array([o is not None and o.result == "ron" for o in first], bool)
        loser = np.array([o.loser if o is not None and o.loser is not None else -1 for o in first], np.int64)
        last = play.last_riichi
        settled = np.flatnonzero((last >= 0) & ~(ronned & (loser == last)))
        tile = np.where(play.ev == EVENT["kakan"], added, play.tile)
        parts = [  # hand, group, ev, seat, tile, frm, giri, call, outcome
            (deal_h, 0, np.full(len(deal_h), HAIPAI), deal_s, -1, -1, False, -1, -1),
            (dora_h, 1, np.full(len(dora_h), DORA), -1, dora, -1, False, -1, -1),
            (play.hand, 2, play.ev, play.seat, tile, play.frm, play.giri, play.call, -1),
            (settled, 3, np.full(len(settled), ACCEPTED), last[settled], -1, -1, False, -1, -1),
            (out_h, 4, out_ev, out_seat, -1, out_frm, False, -1, np.arange(len(out_h))),
        ]
        columns = [np.concatenate([np.broadcast_to(np.asarray(p[i]), (len(p[0]),)) for p in parts])
                   for i in range(9)]
        hand, group = columns[0].astype(np.int64), columns[1]
        order = np.lexsort((np.arange(len(hand)), group, hand))
        hand, group, ev, seat, tile, frm, giri, call, outcome = (c[order] for c in columns)
        self.hand_first = np.searchsorted(hand, np.arange(hands))
        self.giri, self.call, self.outcome = giri.astype(bool), call.astype(np.int64), outcome.astype(np.int64)
        self.row_hand = hand
        return {"file": self.hand_file[hand] if hands else hand, "tag": np.arange(len(hand), dtype=np.int64),
                "ev": ev.astype(np.int8), "seat": seat.astype(np.int8), "tid": tile.astype(np.int16),
                "frm": frm.astype(np.int8)}

    def tables(self, numbers: np.ndarray) -> LogTables:
        """The tables of the files kept (``numbers``: each prepared file's game number, -1 for one refused)."""
        kept = [i for i in range(len(self.fast)) if numbers[i] >= 0]
        games = games_table([game_row(int(numbers[i]), self.games[i], self.game_ids[i]) for i in kept])
        outcomes = outcomes_of_games([self.games[i] for i in kept], [int(numbers[i]) for i in kept])
        return LogTables(games=games, hands=self._hands(numbers), events=self._events(numbers), outcomes=outcomes)

    def _hands(self, numbers: np.ndarray) -> pl.DataFrame:
        """The hands table of the files kept: the counters and scores of the games without play, the deals and
        indicators from the columns."""
        keep = numbers[self.hand_file] >= 0 if len(self.hand_file) else np.zeros(0, bool)
        players = np.array([k.players for k in self.kyokus], np.int64)
        seated = np.arange(4)[None, :] < players[:, None]
        deals = self.items.deals[keep]
        inner = np.where(seated[keep], 13, 0).reshape(-1)
        flat = deals.reshape(-1, 13)[inner > 0].reshape(-1)
        haipai = lists(lists(enum_array(flat.astype(np.uint8), TILE), inner, pl.List(TILE)),
                       np.full(int(keep.sum()), 4), HANDS["haipai"])
        dora = lists(enum_array(self.dora[keep[self.dora_hand]].astype(np.uint8), TILE),
                     np.bincount(self.dora_hand, minlength=len(keep))[keep], HANDS["dora"])
        per_hand = {name: values[keep] for name, values in self.per_hand.items()}
        frame = pl.DataFrame({
            "game": numbers[self.hand_file[keep]].astype(np.int32), "log_row": per_hand["log_row"],
            "kyoku": per_hand["kyoku"].astype(np.int16), "honba": per_hand["honba"], "kyotaku": per_hand["kyotaku"],
            "scores": series(lists(pa.array(self.scores[keep].reshape(-1)), np.full(int(keep.sum()), 4),
                                   HANDS["scores"]), HANDS["scores"], "scores"),
            "players": players[keep].astype(np.int8)})
        return frame.with_columns(haipai=series(haipai, HANDS["haipai"], "haipai"),
                                  dora=series(dora, HANDS["dora"], "dora")).select(list(HANDS))

    def _events(self, numbers: np.ndarray) -> pl.DataFrame:
        """The events table of the files kept, from the play rows' arrays."""
        rows = kept_rows(self.play, numbers)
        n = len(rows["ev"])
        file, seat, tid, ev, line = (rows[k] for k in ("file", "seat", "tid", "ev", "r"))
        tsumogiri = np.where(ev == DISCARD, self.giri[line], -1).astype(np.int8)
        per_hand = {name: self.per_hand[name].astype(np.int16) for name in ("log_row", "honba", "kyotaku")}
        arrays = {
            **play_arrays(rows, numbers, per_hand, self.per_hand["kyoku"], tsumogiri),
            "tile": enum_array(np.maximum(tid, 0), TILE, tid >= 0),
            "tiles": self._event_tiles(rows, n),
            **outcome_deltas(n, rows, [self.recorded[self.outcome[line[rows["out"]]], s] for s in range(4)],
                             self.players[file[rows["out"]]] == 4),
        }
        return events_frame(arrays, file, seat, self.names, self.game_ids, [str(p.path) for p in self.fast])

    def _event_tiles(self, rows: dict, n: int) -> pa.Array:
        """The ``tiles`` column: each deal row's thirteen tiles, each call's three or four, sorted."""
        ev, line = rows["ev"], rows["r"]
        deal_pos = np.flatnonzero(ev == HAIPAI)
        call_pos = np.flatnonzero(np.isin(ev, CALLS))
        deals = np.sort(self.items.deals[self.row_hand[line[deal_pos]], rows["seat"][deal_pos].astype(np.int64)],
                        axis=1).astype(np.uint8)
        calls = self.call[line[call_pos]]
        tiles = self.items.tiles[calls].astype(np.int64)
        lengths = self.items.length[calls]
        tiles = np.sort(np.where(tiles >= 0, tiles, 99), axis=1)  # the unused places last
        return event_tiles(n, deal_pos, deals, call_pos, np.where(tiles == 99, 0, tiles).astype(np.uint8), lengths)
