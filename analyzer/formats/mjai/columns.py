"""mjai files read as columns: a batch of files into the log tables (:mod:`analyzer.formats.log_tables`) with
Polars' NDJSON reader and whole-column arithmetic, no Python loop per line, event or hand.

Per file (Python, as it must be): the bytes read with the caps of :mod:`analyzer.formats.files`, the content
digest, the ``start_game`` line (one small object: the names, the red-five flag, the length, analyzer's own
extension, read by :func:`.read.read_start_game` itself) and the game id. Then for the whole batch:

1. :mod:`.columns_lines`: every line typed and coded (its type, its tiles as the tile Enum's index) and the
   files whose lines break a rule of the per-game reader refused;
2. the events table's rows: each line a row (a ``start_kyoku`` the hand's deal rows and its first indicator),
   their running values (turns, wall left, riichi sticks, the outcomes' tiles) by the play arithmetic the
   mjlog columns use (:func:`analyzer.formats.tenhou.mjlog_columns_play.play_rows`), ``tsumogiri`` as the log
   says it;
3. the hands from the ``start_kyoku`` lines, the outcomes from the results (:mod:`.columns_results`), the games
   from the per-file values.

**The per-game reader (:func:`.read.parse_mjai`) is the oracle**: a file refused here (see
:mod:`.columns_lines` and :func:`analyzer.formats.tenhou.mjlog_columns_play.refusals`), one whose lines do not
all read as JSON objects of the protocol's types, and one that is not an mjai log as these columns expect it
(CR line ends, blank lines, a first line that is not ``start_game``) is read by that reader
(:func:`analyzer.formats.columns_read.read_with_columns`): so every file gives the per-game path's tables,
notes and refusal. Known difference: a line with a key given twice reads its first value here, its last there.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import polars as pl
import pyarrow as pa

from analyzer.formats.columns_read import FileRead, read_with_columns
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES, check_magnitudes, log_head, read_log_bytes
from analyzer.formats.identity import content_digest, game_id
from analyzer.formats.log_tables import HANDS, TILE, LogTables
from analyzer.formats.mjai.columns_lines import (CALLS, NORTH_INDEX, RED_INDICES, T, TILE_LISTS, read_lines,
                                                 refused_lines, result_keys, tile_enum)
from analyzer.formats.mjai.columns_results import outcomes_columns, with_schema
from analyzer.formats.mjai.read import read_start_game
from analyzer.formats.model import Game, LogError
from analyzer.formats.tables_from_games import game_row, games_table
from analyzer.formats.tenhou.mjlog_columns_codes import (EVENT, enum_array, event_tiles, events_frame, outcome_deltas,
                                                          play_arrays)
from analyzer.formats.tenhou.mjlog_columns_games import players as event_players
from analyzer.formats.tenhou.mjlog_columns_play import kept_rows, play_rows, refusals

_START = b'{"type":"start_game"'
_BLANK = re.compile(rb"\n[ \t]*\n")
_BOM = b"\xef\xbb\xbf"
_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
# the events table's event of each line type (-1: no row); a start_kyoku's rows are set apart
_EVENT_OF = np.full(len(T) + 1, -1, np.int8)  # (the last entry: an unknown type, -1)
for _type, _event in (("tsumo", "draw"), ("dahai", "discard"), ("chi", "chi"), ("pon", "pon"),
                      ("daiminkan", "minkan"), ("kakan", "kakan"), ("ankan", "ankan"), ("dora", "dora"),
                      ("reach", "riichi_declared"), ("reach_accepted", "riichi_accepted"), ("nukidora", "kita"),
                      ("kita", "kita"), ("hora", "tsumo"), ("ryukyoku", "abort")):
    _EVENT_OF[T[_type]] = EVENT[_event]


@dataclass
class _Prepared:
    path: Path
    body: bytes  # the lines, each ending in a newline
    digest: str
    lines: int


def _prepare(path: Path, max_bytes: int) -> _Prepared | None:
    """The file's lines and digest when the columns can read it; None for the per-game reader."""
    try:
        data = read_log_bytes(path, max_bytes)
    except LogError:
        return None
    body = data.removeprefix(_BOM).rstrip(b" \t\n")
    if not body.startswith(_START) or b"\r" in body or _BLANK.search(body) or b"\n\n" in body:
        return None
    if not body.isascii():
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return None
    body += b"\n"
    return _Prepared(path, body, content_digest(data), body.count(b"\n"))


def starts_as_mjai(path: str | Path) -> bool:
    """Whether the file's content begins as the mjai files these columns read do (its ``start_game`` first)."""
    return log_head(path, len(_BOM) + len(_START)).removeprefix(_BOM).startswith(_START)


def read_mjai_tables(files: list[str | Path], max_bytes: int = DEFAULT_MAX_LOG_BYTES, log_format: str = "mjai",
                     ) -> tuple[LogTables, list[FileRead]]:
    """The log tables of the mjai ``files`` (games numbered in file order, the files that do not read left
    out) and what became of each file; a file the columns do not read is read by the per-game reader as
    ``log_format`` (``mjai``, or ``auto``: any format told by its content)."""
    prepared = [_prepare(Path(f), max_bytes) for f in files]
    return read_with_columns(files, prepared, _Parsed, max_bytes, log_format)


def _start_games(fast: list[_Prepared]) -> tuple[list[Game | None], list[bool]]:
    """Each file's game from its ``start_game`` line (None: refused), and whether it names the players."""
    games, named = [], []
    for p in fast:
        game = Game(file=str(p.path), ref=None, names=["", "", "", ""])
        try:
            ev = json.loads(p.body[:p.body.index(b"\n")])
            said, aka = read_start_game(ev, game)
            game.aka = aka  # None: told by the red fives seen (set in _Parsed)
            check_magnitudes(game)
            if "log" in ev:
                raise LogError("told apart by content as a Tenhou JSON log")
        except (LogError, ValueError, TypeError, KeyError, AttributeError):
            game, said = None, False
        games.append(game)
        named.append(said)
    return games, named


class _Parsed:
    """The columns of the prepared files of a batch (numbered 0.. in file order) and the files refused."""

    def __init__(self, fast: list[_Prepared]) -> None:
        self.fast = fast
        n = len(fast)
        bodies = [p.body for p in fast]
        lines, refused = read_lines(bodies, np.array([p.lines for p in fast], np.int64))
        games, named = _start_games(fast)
        refused |= {i for i, g in enumerate(games) if g is None}
        if lines is None:
            self.refused, self.game_ids = set(range(n)), [""] * n
            return
        self.lines = lines
        wide = lines.wide
        t = lines.t
        kyoku = t == T["start_kyoku"]
        firsts = wide.filter(pl.col("t") == T["start_kyoku"]).unique("file", keep="first").sort("file")
        three = np.zeros(n, bool)
        three[firsts["file"].to_numpy()] = (firsts["tehais"].list.len() == 3).fill_null(False).to_numpy()
        count = np.array([g.players if g is not None and said else (3 if three[i] else 4)
                          for i, (g, said) in enumerate(zip(games, named))], np.int8)
        self.players = count
        keys = result_keys(lines)
        refused |= refused_lines(lines, count, keys, n)
        red = self._red(n)
        ends = wide.filter(pl.col("t") == T["end_game"]).sort("file")
        final = dict(zip(ends["file"].to_list(), ends["scores"].to_list()))
        for i, game in enumerate(games):
            if game is None:
                continue
            if game.aka is False and red[i]:
                refused.add(i)  # "red fives in a game whose start_game says aka_flag false"
            game.aka = bool(red[i]) if game.aka is None else game.aka
            game.players = int(count[i])
            if final.get(i) is not None:
                game.final_scores = list(final[i]) + [0] * (4 - len(final[i]))
            game.digest = fast[i].digest
        self.games = games
        self.game_ids = [game_id(g.ref, p.path, p.digest) if g is not None else "" for g, p in zip(games, fast)]
        self.keys = keys
        self.kyoku_lines = np.flatnonzero(kyoku)
        rows = self._stream(t, count)
        self.play = play_rows(rows, count, self.kyoku_lines)
        refused |= refusals(rows, self.play, count)
        values = SimpleNamespace(frame=pl.DataFrame({
            "file": np.arange(n, dtype=np.int64), "players": count,
            "names": [g.names if g is not None else ["", "", "", ""] for g in games]}))
        self.names, unnamed = event_players(values, self.game_ids)
        self.refused = refused | unnamed

    def _red(self, n: int) -> np.ndarray:
        """Whether each file shows a red five among the tiles the per-game reader reads."""
        f, reds = self.lines.wide, list(RED_INDICES)
        red = np.zeros(n, bool)
        lines = self.lines
        red[lines.file[np.isin(lines.t, (T["tsumo"], T["dahai"])) & np.isin(lines.pai, reds)]] = True
        t = pl.col("t")
        pai_read = t.is_in([T["tsumo"], T["dahai"], *CALLS, T["hora"], T["nukidora"], T["kita"]])
        lists_read = {"consumed": t.is_in(list(CALLS)), **{name: t == T["hora"] for name in TILE_LISTS[1:]}}
        shown = f.select("file", red=pl.any_horizontal(
            pai_read & pl.col("pai_i").is_in(reds),
            t.is_in([T["start_kyoku"], T["dora"]]) & pl.col("dora_i").is_in(reds),
            (t == T["start_kyoku"]) & pl.col("tehai_i").list.eval(
                pl.element().list.eval(pl.element().is_in(reds)).list.any()).list.any(),
            *(when & pl.col(f"{name}_i").list.eval(pl.element().is_in(reds)).list.any()
              for name, when in lists_read.items())).fill_null(False)).filter("red")
        red[shown["file"].to_numpy()] = True
        return red

    def _stream(self, t: np.ndarray, count: np.ndarray) -> dict[str, np.ndarray]:
        """The rows :func:`play_rows` takes: a row a line, five a ``start_kyoku`` (its four deal rows, seat 3
        none with three players, and its indicator), ``tag`` the line."""
        lines = self.lines
        reps = np.where(t == T["start_kyoku"], 5, 1)
        line = np.repeat(np.arange(len(t)), reps)
        within = np.arange(len(line)) - np.repeat(np.cumsum(reps) - reps, reps)
        tl = t[line].astype(np.int64)
        file = lines.file[line]
        actor, target = (values.astype(np.int8)[line] for values in (lines.actor, lines.target))
        pai = lines.pai.astype(np.int16)[line]
        dora = lines.spread("dora_i", -1).astype(np.int16)[line]
        closed = lines.spread(pl.col("consumed_i").list.last(), -1).astype(np.int16)[line]
        ev = _EVENT_OF[np.where(tl >= 0, tl, len(T))].copy()
        seat = np.where(ev >= 0, actor, -1).astype(np.int8)
        tid = np.full(len(line), -1, np.int16)
        frm = np.full(len(line), -1, np.int8)
        plain = np.isin(tl, (T["tsumo"], T["dahai"], T["chi"], T["pon"], T["daiminkan"], T["kakan"]))
        tid[plain] = pai[plain]
        called = np.isin(tl, (T["chi"], T["pon"], T["daiminkan"]))
        frm[called] = target[called]
        tid[tl == T["ankan"]] = closed[tl == T["ankan"]]
        north = np.isin(tl, (T["nukidora"], T["kita"]))
        tid[north] = NORTH_INDEX
        hora = tl == T["hora"]
        ron = hora & (actor != target)
        ev[ron] = EVENT["ron"]
        frm[ron] = target[ron]
        exhaustive = lines.spread(pl.col("reason").is_in(["fanpai", "nagashimangan"]).cast(pl.Int64), 0) == 1
        draw = (tl == T["ryukyoku"]) & exhaustive[line]
        ev[draw] = EVENT["exhaustive_draw"]
        ryukyoku = tl == T["ryukyoku"]
        seat[ryukyoku] = -1
        on_dora = tl == T["dora"]
        tid[on_dora], seat[on_dora] = dora[on_dora], -1
        deal = (tl == T["start_kyoku"]) & (within < 4)
        ev[deal] = np.where(within[deal] < count[file[deal]], EVENT["haipai"], -1)
        seat[deal] = within[deal]
        indicator = (tl == T["start_kyoku"]) & (within == 4)
        ev[indicator], seat[indicator], tid[indicator] = EVENT["dora"], -1, dora[indicator]
        return {"file": file, "tag": line, "ev": ev, "seat": seat, "tid": tid, "frm": frm}

    def tables(self, numbers: np.ndarray) -> LogTables:
        """The tables of the files kept (``numbers``: each prepared file's game number, -1 for one refused)."""
        keep = numbers >= 0
        wide = self.lines.wide
        f = wide.with_columns(game=pl.Series(numbers[wide["file"].to_numpy()], dtype=pl.Int32))
        hands = self._hands(f)
        games = games_table([game_row(int(numbers[i]), g, self.game_ids[i]) for i, g in enumerate(self.games)
                             if keep[i]])
        return LogTables(games=games, hands=hands.filter(pl.col("game") >= 0).select(list(HANDS)),
                         events=self._events(numbers, hands), outcomes=self._outcomes(f, hands))

    def _hands(self, f: pl.DataFrame) -> pl.DataFrame:
        """A row per ``start_kyoku`` line, in line order (the games refused too, their ``game`` -1)."""
        k = f.filter(pl.col("t") == T["start_kyoku"])
        k = k.with_columns(players=pl.Series(self.players[k["file"].to_numpy()]))
        pad = pl.lit([0, 0, 0, 0]).list.slice(0, 4 - pl.col("players"))
        none = pl.lit([[]], dtype=pl.List(pl.List(pl.Int8))).list.slice(0, 4 - pl.col("players"))
        return k.select(
            "game", "line", "file",
            log_row=(pl.int_range(pl.len()).over("file") + 1).cast(pl.Int16),
            kyoku=(pl.col("bakaze").replace_strict(_WINDS, default=None, return_dtype=pl.Int64) * 4
                   + pl.col("kyoku") - 1).cast(pl.Int16, strict=False),
            honba="honba", kyotaku="kyotaku", scores=pl.col("scores").list.concat(pad),
            haipai=pl.col("tehai_i").list.concat(none).list.eval(pl.element().list.eval(tile_enum(pl.element())))
            .cast(HANDS["haipai"]),
            dora=pl.concat_list(tile_enum(pl.col("dora_i"))), players=pl.col("players").cast(pl.Int8),
            dealer=pl.col("kyoku") - 1,
        )

    def _outcomes(self, f: pl.DataFrame, hands: pl.DataFrame) -> pl.DataFrame:
        results = f.filter(pl.col("t").is_in([T["hora"], T["ryukyoku"]]) & (pl.col("game") >= 0))
        hand_at = np.searchsorted(hands["line"].to_numpy(), results["line"].to_numpy()) - 1
        head = hands[hand_at].select("log_row", "dealer", "players")
        results = pl.concat([results, head], how="horizontal").join(self.keys, on="line", how="left",
                                                                    maintain_order="left")
        first = np.searchsorted(hand_at, hand_at, side="left")
        ids = results.select("game", "log_row", outcome=pl.Series(np.arange(len(hand_at)) - first, dtype=pl.Int8))
        columns = outcomes_columns(results)
        return with_schema(pl.concat([ids, columns], how="horizontal"))

    def _events(self, numbers: np.ndarray, hands: pl.DataFrame) -> pl.DataFrame:
        """The events table of the files kept, from the play rows' arrays."""
        rows = kept_rows(self.play, numbers)
        n = len(rows["ev"])
        file, seat, tid, ev, line = (rows[k] for k in ("file", "seat", "tid", "ev", "r"))
        giri = self.lines.tsumogiri == 1
        discard = ev == EVENT["discard"]
        tsumogiri = rows["tsumogiri"].copy()
        tsumogiri[discard] = giri[line[discard]]
        per_hand = {name: hands[name].fill_null(0).to_numpy().astype(np.int16)
                    for name in ("log_row", "honba", "kyotaku")}
        arrays = {
            **play_arrays(rows, numbers, per_hand, hands["kyoku"].fill_null(0).to_numpy(), tsumogiri),
            "tile": enum_array(np.maximum(tid, 0), TILE, tid >= 0),
            "tiles": self._event_tiles(rows, n),
            **self._deltas(rows, n),
        }
        return events_frame(arrays, file, seat, self.names, self.game_ids, [str(p.path) for p in self.fast])

    def _deltas(self, rows: dict, n: int) -> dict:
        """The outcome rows' deltas (:func:`analyzer.formats.tenhou.mjlog_columns_codes.outcome_deltas`)."""
        f = self.lines.wide.filter(pl.col("t").is_in([T["hora"], T["ryukyoku"]]))
        at = np.searchsorted(f["line"].to_numpy(), rows["r"][rows["out"]])
        recorded = [f["deltas"].list.get(s, null_on_oob=True).fill_null(0).to_numpy()[at] for s in range(4)]
        return outcome_deltas(n, rows, recorded, self.players[rows["file"][rows["out"]]] == 4)

    def _event_tiles(self, rows: dict, n: int) -> pa.Array:
        """The ``tiles`` column: each deal row's thirteen tiles, each call's three or four, sorted."""
        f = self.lines.wide
        ev = rows["ev"]
        deal_pos = np.flatnonzero(ev == EVENT["haipai"])
        call_pos = np.flatnonzero(np.isin(ev, [EVENT[k] for k in ("chi", "pon", "minkan", "kakan", "ankan")]))
        tehais = pl.col("tehai_i")
        dealt_well = (tehais.list.len().is_between(3, 4)
                      & tehais.list.eval(pl.element().list.len() == 13).list.all()).fill_null(False)
        unseated = pl.lit([[-1] * 13] * 4, dtype=pl.List(pl.List(pl.Int8)))
        dealt = f.filter(pl.col("t") == T["start_kyoku"]).select(
            pl.when(dealt_well).then(tehais.list.eval(pl.element().list.sort())
                                     .list.concat(unseated.list.slice(0, 4 - tehais.list.len())))
            .otherwise(unseated).list.eval(pl.element().list.to_array(13)).list.to_array(4)
        )["tehai_i"].to_numpy()  # hands x 4 seats x 13 tiles
        calls = f.filter(pl.col("t").is_in(list(CALLS))).select(
            "line", tiles=pl.when(pl.col("t") == T["ankan"]).then(pl.col("consumed_i"))
            .otherwise(pl.col("consumed_i").list.concat(pl.concat_list("pai_i"))).list.sort())
        at = np.searchsorted(calls["line"].to_numpy(), rows["r"][call_pos])
        call_lengths = calls["tiles"].list.len().fill_null(0).to_numpy()[at]
        call_tiles = np.stack([calls["tiles"].list.get(i, null_on_oob=True).fill_null(-1).to_numpy() for i in range(4)],
                              axis=1)[at]
        deals = dealt[rows["hand"][deal_pos], rows["seat"][deal_pos].astype(np.int64)]
        return event_tiles(n, deal_pos, deals, call_pos, call_tiles, call_lengths)
