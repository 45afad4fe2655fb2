"""Tenhou mjlog files read as columns: a batch of files into the log tables (:mod:`analyzer.formats.log_tables`)
with Polars expressions and numpy arithmetic over whole columns, no Python loop per tag, event or hand.

Per file (Python, as it must be: the bytes read with the caps of :mod:`analyzer.formats.files`, the content
digest and the game id; a file with more than its root element, or not ASCII, decoded and its prolog's
comments left out by :func:`analyzer.formats.tenhou.mjlog.split_prolog`) :func:`read_mjlog_tables` keeps the
log's root element; then for the whole batch:

1. :mod:`.mjlog_columns_tags`: the logs as one buffer split at every ``<`` (one vectorised pass), draws and
   discards coded from their bytes, every other tag's attributes read by its shape as Polars strings;
2. :mod:`.mjlog_columns_games`, :mod:`.mjlog_columns_deals`, :mod:`.mjlog_columns_calls`,
   :mod:`.mjlog_columns_results`: the games' values, the deals, the calls (meld codes decoded with integer
   arithmetic, :mod:`.mjlog_columns_codes`), the riichi and dora tags, the outcomes, each as typed columns;
3. :mod:`.mjlog_columns_play`: the events table's rows with their running values per hand and seat (turns,
   wall left, tsumogiri, riichi sticks) as running sums;
4. the four tables, their list and Enum columns built from flat values and offsets (Arrow arrays).

A call costs about 60 ms whatever its size, and memory grows with it (about 0.3 GB for 1,000 games): batches
of 500 to 1,000 files suit it, two at once on threads where there are two cores (Polars, numpy and Arrow work
outside the GIL; Polars does not survive a fork, so not in forked workers).

**The per-game reader is the oracle of what this reader refuses.** Every rule of
:func:`analyzer.formats.tenhou.mjlog.parse_mjlog` that these columns do not reproduce exactly (a malformed
tag, a form of a number Python reads and these columns do not, a game in an order the events table cannot be
cut from without a sort, ...) makes the file *refused* here; a refused file, and one that is no mjlog, is read
by that reader (:func:`analyzer.formats.read.read_game`) and its game, if any, turned into tables by
:func:`analyzer.formats.tables_from_games.tables_of_games`: so a broken log gets today's exact reason, an
unusual one today's exact tables, and no result is ever silently different. The tests
(``tests/formats/tenhou/test_mjlog_columns.py``) hold the columns to that reader on every shared and test log,
on hand-written logs of each rule and on random damage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa

from analyzer.formats.events import ROUNDS
from analyzer.formats.columns_read import FileRead, read_with_columns
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES, read_log_bytes
from analyzer.formats.identity import content_digest, game_id, is_tenhou_log_id
from analyzer.formats.log_tables import GAMES, SCHEMAS, TILE, LogTables
from analyzer.formats.majsoul.protobuf import protobuf_record
from analyzer.formats.model import LogError
from analyzer.formats.tenhou.mjlog import split_prolog
from analyzer.formats.tenhou.mjlog_columns_calls import calls, doras, reaches
from analyzer.formats.tenhou.mjlog_columns_codes import (
    ANKAN, CHI, EVENT, TILE_TABLE, enum_array, event_tiles, events_frame, play_arrays, outcome_deltas,
)
from analyzer.formats.tenhou.mjlog_columns_deals import deals, placed
from analyzer.formats.tenhou.mjlog_columns_games import game_values, players
from analyzer.formats.tenhou.mjlog_columns_play import kept_rows, play_rows, refusals, stream
from analyzer.formats.tenhou.mjlog_columns_results import results
from analyzer.formats.tenhou.mjlog_columns_tags import attribute_frames, tag_rows

_ROOT = re.compile(rb"<mjloggm(?=[ \t\r\n/>])")
ROUND = pl.Enum(ROUNDS)
_ROUND_VALUES = pl.Series("round", ROUNDS, dtype=ROUND)


@dataclass
class _Prepared:
    path: Path
    body: bytes  # the root element
    digest: str
    commented_id: str | None


def _prepare(path: Path, max_bytes: int) -> _Prepared | None:
    """The log's root element and digest when the columns can read the file; None for the per-game reader
    (a file that cannot be read, or is no mjlog)."""
    try:
        data = read_log_bytes(path, max_bytes)
    except LogError:
        return None
    if protobuf_record(data) is not None:
        return None
    root = data.rstrip()
    if data.startswith(b"<mjloggm") and data.isascii() and root.endswith(b"</mjloggm>"):  # (a "<!" tag: refused)
        # Tenhou's own files: the root element alone, ASCII (no decoding needed), the digest of the bytes
        digest, commented_id = content_digest(data), None
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return None
        if text.lstrip()[:1] != "<":
            return None
        try:
            body, commented_id = split_prolog(text)
        except LogError:
            return None
        # as parse_file: the digest of the root element where the file holds more (mjlog.parse_mjlog)
        digest = content_digest(body.encode("utf-8")) if len(body) != len(text.strip()) else content_digest(data)
        root = body.strip().encode("utf-8")
    if _ROOT.match(root) is None or not root.endswith(b"</mjloggm>"):
        return None
    return _Prepared(path, root, digest, commented_id)


def read_mjlog_tables(files: list[str | Path], max_bytes: int = DEFAULT_MAX_LOG_BYTES, log_format: str = "tenhou",
                      ) -> tuple[LogTables, list[FileRead]]:
    """The log tables of the mjlog ``files`` (games numbered in file order, the files that do not read left
    out) and what became of each file (see the module docstring); a file that is no mjlog is read by the
    per-game reader as ``log_format`` (``tenhou``, or ``auto``: any format told by its content)."""
    prepared = [_prepare(Path(f), max_bytes) for f in files]
    return read_with_columns(files, prepared, _Parsed, max_bytes, log_format)


class _Parsed:
    """The columns of the prepared files of a batch (numbered 0.. in file order) and the files refused."""

    def __init__(self, fast: list[_Prepared]) -> None:
        self.fast = fast
        n = len(fast)
        tags = tag_rows([p.body for p in fast])
        frames, refused = attribute_frames(tags)
        first_init = np.full(n, -1, np.int64)
        init = frames["INIT"]
        if init.height:
            firsts = init.group_by("file").agg(pl.col("r").min())
            first_init[firsts["file"].to_numpy()] = firsts["r"].to_numpy()
        self.values = game_values(frames["GO"], frames["UN"], frames["SHUFFLE"], n, first_init)
        count, aka = self.values.players, self.values.aka
        self.deals = deals(init, count, aka)
        self.results = results(frames["AGARI"], frames["RYUUKYOKU"], aka)
        self.calls = calls(frames["N"], count, aka)
        reach_rows, reach_refused = reaches(frames["REACH"])
        dora_rows, dora_refused = doras(frames["DORA"])
        out = self.results.frame
        sources = {"init": placed(self.deals), "n": self.calls.placed(), "reach": reach_rows, "dora": dora_rows,
                   "outcomes": (out["r"].to_numpy(), out["ev"].to_numpy(), out["seat"].to_numpy(), None,
                                out["frm"].to_numpy())}
        rows = stream(tags, count, sources)
        self.play = play_rows(rows, count, self.deals.frame["r"].to_numpy())
        refused |= (refusals(rows, self.play, count) | self.values.refused | self.deals.refused
                    | self.results.refused | self.calls.refused | reach_refused | dora_refused)
        refused |= set(np.nonzero(first_init < 0)[0].tolist())  # no hand: "no hands (<INIT>) in the log"
        refs = self.values.frame["ref"].to_list()
        self.refs = [p.commented_id if p.commented_id is not None and not is_tenhou_log_id(ref) else ref
                     for p, ref in zip(fast, refs)]
        self.game_ids = [game_id(ref, p.path, p.digest) for p, ref in zip(fast, self.refs)]
        named, unnamed = players(self.values, self.game_ids)
        self.players = named
        self.refused = refused | unnamed

    def tables(self, numbers: np.ndarray) -> LogTables:
        """The tables of the files kept (``numbers``: each prepared file's game number, -1 for one refused)."""
        keep_file = numbers >= 0
        hand_keep = keep_file[self.deals.frame["file"].to_numpy()]
        out = self.results.frame
        hands = self.deals.table(numbers, hand_keep)
        outcome_keep = keep_file[out["file"].to_numpy()]
        return LogTables(games=self._games(numbers), hands=hands, events=self._events(numbers),
                         outcomes=self._outcomes(numbers, outcome_keep))

    def _games(self, numbers: np.ndarray) -> pl.DataFrame:
        keep = numbers >= 0
        v = self.values.frame.join(self.results.owari, on="file", how="left").sort("file")
        n = len(v)
        frame = v.with_columns(
            game=pl.Series(numbers, dtype=pl.Int32),
            game_id=pl.Series(self.game_ids, dtype=pl.String),
            log_file=pl.Series([str(p.path) for p in self.fast], dtype=pl.String),
            ref=pl.Series(self.refs, dtype=pl.String),
            digest=pl.Series([p.digest for p in self.fast], dtype=pl.String),
            platform=pl.lit("tenhou"),
            rule_options=pl.Series([[]], dtype=GAMES["rule_options"]).new_from_index(0, n),
            notes=pl.Series([[]], dtype=GAMES["notes"]).new_from_index(0, n),
        ).filter(pl.Series(keep))
        missing = {name: pl.lit(None, dtype) for name, dtype in GAMES.items() if name not in frame.columns}
        return frame.with_columns(**missing).select([pl.col(name).cast(dtype) for name, dtype in GAMES.items()])

    def _outcomes(self, numbers: np.ndarray, keep: np.ndarray) -> pl.DataFrame:
        out = self.results.frame.filter(pl.Series(keep))
        hands = self.deals.frame
        hand = np.searchsorted(hands["r"].to_numpy(), out["r"].to_numpy()) - 1  # the INIT before each outcome
        first = np.searchsorted(hand, hand, side="left")  # sorted: the hand's first outcome
        frame = out.with_columns(
            game=pl.Series(numbers[out["file"].to_numpy()], dtype=pl.Int32),
            log_row=pl.Series(hands["log_row"].to_numpy()[hand], dtype=pl.Int16),
            outcome=pl.Series(np.arange(len(out)) - first, dtype=pl.Int8),
        )
        return frame.select(list(SCHEMAS["outcomes"]))

    def _events(self, numbers: np.ndarray) -> pl.DataFrame:
        """The events table of the files kept, from the play rows' arrays (Arrow arrays built from them)."""
        e = kept_rows(self.play, numbers)
        n = len(e["ev"])
        file, seat, tid = e["file"], e["seat"], e["tid"]
        hands = self.deals.frame
        per_hand = {name: hands[name].to_numpy().astype(np.int16) for name in ("log_row", "honba", "kyotaku")}
        # a tile id (-1: none) by the file's red fives: one look-up in a table of none, with, none, without them
        table = np.concatenate([[255], TILE_TABLE[:136], [255], TILE_TABLE[136:]]).astype(np.uint8)
        tile = table[tid + np.where(self.values.aka, 1, 138).astype(np.int16)[file]]
        arrays = {
            **play_arrays(e, numbers, per_hand, hands["kyoku"].to_numpy(), e["tsumogiri"]),
            "tile": enum_array(tile, TILE, tile != 255),
            "tiles": self._event_tiles(e, n),
            **self._deltas(e, n),
        }
        return events_frame(arrays, file, seat, self.players, self.game_ids, [str(p.path) for p in self.fast])

    def _deltas(self, e: dict[str, np.ndarray], n: int) -> dict[str, pa.Array]:
        """The outcome rows' deltas (:func:`.mjlog_columns_codes.outcome_deltas`)."""
        res = self.results.frame
        at = np.searchsorted(res["r"].to_numpy(), e["r"][e["out"]])
        four = self.values.players[e["file"][e["out"]]] == 4
        return outcome_deltas(n, e, [res[f"delta_{s}"].to_numpy()[at] for s in range(4)], four)

    def _event_tiles(self, e: dict[str, np.ndarray], n: int) -> pa.Array:
        """The ``tiles`` column: each deal row's thirteen tiles, each call's three or four, by the Enum."""
        ev = e["ev"]
        deal_pos = np.nonzero(ev == EVENT["haipai"])[0]
        call_pos = np.nonzero((ev >= CHI) & (ev <= ANKAN))[0]
        at = np.searchsorted(self.calls.frame["r"].to_numpy(), e["r"][call_pos])
        call_tiles = self.calls.tiles[at]
        dealt = self.deals.event_tiles()[e["hand"][deal_pos], e["seat"][deal_pos].astype(np.int64)]
        return event_tiles(n, deal_pos, dealt, call_pos, call_tiles, (call_tiles != 255).sum(axis=1))
