"""The events table of a batch of Riichi City records (the last stage of :mod:`.columns`): the rows of each hand's
head (its four deals, its dora indicator, the dealer's first draw: its fourteenth tile), of its play
(:mod:`.columns_play`) and of its outcomes (the hand read per hand), sorted into place, with their running
values from :func:`analyzer.formats.tenhou.mjlog_columns_play.play_rows` (as the mjlog and mjai columns) and
``tsumogiri`` as :func:`.read.parse_riichicity` tells it: the tile its seat just drew, and ``move_cards_pos``
names the place of that tile, the hand's last (the count of its seat's tiles before the discard).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa

from analyzer.formats.events import ROUNDS, TILE_CODES
from analyzer.formats.log_tables import EVENTS, HANDS, TILE
from analyzer.formats.model import Kyoku
from analyzer.formats.riichicity.columns_play import HELD, NO_POS, STEP, PlayRows
from analyzer.formats.tenhou.mjlog_columns_codes import EVENT, arrow_field, enum_array, event_tiles, outcome_deltas
from analyzer.formats.tenhou.mjlog_columns_play import kept_rows, play_rows, refusals

ROUND = pl.Enum(ROUNDS)
_MODEL_INDEX = {tile: i for i, tile in enumerate(TILE_CODES)}
_OUTCOME_EVENT = {"ron": EVENT["ron"], "tsumo": EVENT["tsumo"], "draw": EVENT["exhaustive_draw"],
                  "nagashi": EVENT["exhaustive_draw"], "abort": EVENT["abort"]}
_HELD = np.zeros(256, np.int64)
for _event, _change in {**HELD, EVENT["haipai"]: 13}.items():
    _HELD[_event] = _change


class Stream:
    """The rows of the hands kept (``kyokus`` by hand, None: a hand of a file refused), in the events table's
    order, and their running values; ``refused``: the files whose rows these values do not read as the
    per-game reader (:func:`analyzer.formats.tenhou.mjlog_columns_play.refusals`)."""

    def __init__(self, play: PlayRows, kyokus: list[Kyoku | None], hand_file: np.ndarray, players: np.ndarray,
                 end_row: np.ndarray, first_tid: np.ndarray, log_row: np.ndarray, names: pl.Series,
                 game_ids: list[str], paths: list[str]) -> None:
        kept = np.array([k is not None for k in kyokus], bool)
        self.hands = np.flatnonzero(kept)
        self.kyokus = [kyokus[h] for h in self.hands.tolist()]
        self.names, self.game_ids, self.paths, self.players = names, game_ids, paths, players
        self.log_row = log_row[self.hands].astype(np.int16)
        self.file = hand_file[self.hands]
        flat = [_MODEL_INDEX[t] for k in self.kyokus for s in range(4) for t in k.haipai[s]]  # 52 tiles a hand
        self.dealt_flat = np.array(flat, np.int64)
        self.dealt_lengths = np.array([len(k.haipai[s]) for k in self.kyokus for s in range(4)], np.int64)
        dealt = np.full((len(self.dealt_lengths), 13), -1, np.int64)
        dealt[self.dealt_lengths == 13] = self.dealt_flat.reshape(-1, 13)
        self.dealt_sorted = np.sort(dealt, axis=1).reshape(-1, 4, 13)
        parts = [self._heads(first_tid), self._outcomes(end_row)]
        in_play = kept[play.hand]
        parts.append({"hand": play.hand[in_play], "within": play.within[in_play], "minor": play.minor[in_play],
                      "ev": play.ev[in_play], "seat": play.seat[in_play], "tid": play.tid[in_play],
                      "frm": play.frm[in_play], "pos": play.pos[in_play], "call": play.call[in_play]})
        columns = {name: np.concatenate([part.get(name, np.full(len(part["hand"]), -1)) for part in parts])
                   for name in ("hand", "within", "minor", "ev", "seat", "tid", "frm", "pos", "call")}
        columns["pos"][:len(parts[0]["hand"]) + len(parts[1]["hand"])] = NO_POS
        deltas = np.concatenate([np.zeros((len(parts[0]["hand"]), 4), np.int64), parts[1]["deltas"],
                                 np.zeros((len(parts[2]["hand"]), 4), np.int64)])
        order = np.lexsort((columns["minor"], columns["within"], columns["hand"]))
        c = {name: values[order] for name, values in columns.items()}
        self.deltas, self.play = deltas[order], play
        n = len(order)
        position = np.arange(n)
        head = (c["within"] < 0) & (c["ev"] != EVENT["draw"])  # deals and the indicator: their hand's tag
        starts = np.flatnonzero(np.r_[True, c["hand"][1:] != c["hand"][:-1]]) if n else position
        tag = np.where(head, starts[np.searchsorted(starts, position, side="right") - 1], position)
        file = hand_file[c["hand"]]
        rows = {"file": file, "tag": tag, "ev": c["ev"].astype(np.int8), "seat": c["seat"].astype(np.int8),
                "tid": c["tid"].astype(np.int16), "frm": c["frm"].astype(np.int8)}
        self.e = play_rows(rows, players, tag[starts])
        self.refused = refusals(rows, self.e, players)
        self.c = c
        self.held_before = self._held(c)

    def _heads(self, first_tid: np.ndarray) -> dict[str, np.ndarray]:
        hands = np.repeat(self.hands, 6)
        slot = np.tile(np.arange(6), len(self.hands))
        count = np.repeat([k.players for k in self.kyokus], 6)
        dealer = np.repeat([k.dealer for k in self.kyokus], 6)
        indicator = np.repeat([_MODEL_INDEX[k.dora[0]] for k in self.kyokus], 6)
        ev = np.select([slot < count, slot == 4, slot == 5], [EVENT["haipai"], EVENT["dora"], EVENT["draw"]], -1)
        ev[(slot < 4) & (slot >= count)] = -1
        return {"hand": hands, "within": np.select([slot < 4, slot == 4], [slot - 16, -8], -4),
                "minor": np.zeros(len(hands), np.int64), "ev": ev,
                "seat": np.select([slot < 4, slot == 5], [slot, dealer], -1),
                "tid": np.select([slot == 4, slot == 5], [indicator, first_tid[hands]], -1)}

    def _outcomes(self, end_row: np.ndarray) -> dict[str, np.ndarray]:
        hand, ev, seat, frm, minor, deltas = [], [], [], [], [], []
        for h, k in zip(self.hands.tolist(), self.kyokus):  # a few outcomes a hand
            outcomes = list(k.outcomes)
            if outcomes and outcomes[0].result == "ron":
                loser = outcomes[0].loser
                outcomes.sort(key=lambda o: (o.winner - loser) % 4)
            for j, o in enumerate(outcomes):
                hand.append(h)
                ev.append(_OUTCOME_EVENT[o.result])
                seat.append(o.winner if o.result in ("ron", "tsumo") else -1)
                frm.append(o.loser if o.result == "ron" else -1)
                minor.append(j)
                deltas.append(list(o.deltas))
        hand = np.array(hand, np.int64)
        return {"hand": hand, "within": end_row[hand] * STEP + 1, "minor": np.array(minor, np.int64),
                "ev": np.array(ev, np.int64), "seat": np.array(seat, np.int64), "frm": np.array(frm, np.int64),
                "tid": np.full(len(hand), -1), "deltas": np.array(deltas, np.int64).reshape(-1, 4)}

    @staticmethod
    def _held(c: dict[str, np.ndarray]) -> np.ndarray:
        """Each row's seat's count of tiles in hand before it."""
        change = np.where(c["ev"] >= 0, _HELD[np.maximum(c["ev"], 0)], 0)
        frame = pl.DataFrame({"hand": c["hand"], "seat": c["seat"], "change": change})
        return (frame.select(pl.col("change").cum_sum().over("hand", "seat"))["change"].to_numpy() - change)

    def events(self, numbers: np.ndarray) -> pl.DataFrame:
        """The events table of the files kept (``numbers``: each file's game number, -1 for one refused)."""
        rows = kept_rows(self.e, numbers)
        n = len(rows["ev"])
        file, hand, seat, ev, r = (rows[k] for k in ("file", "hand", "seat", "ev", "r"))
        c = self.c
        discard = ev == EVENT["discard"]
        pos = c["pos"][r[discard]]
        tsumogiri = rows["tsumogiri"].copy()
        tsumogiri[discard] = (tsumogiri[discard] == 1) & ((pos == NO_POS) | (pos == self.held_before[r[discard]]))
        numbered = {name: np.array([getattr(k, name) for k in self.kyokus], np.int64) for name in ("honba", "kyotaku")}
        arrays = {
            "game": pa.array(numbers[file]),
            "log_row": pa.array(self.log_row[hand]),
            **{name: pa.array(values.astype(np.int16)[hand]) for name, values in numbered.items()},
            "round": enum_array(np.array([k.kyoku % 16 for k in self.kyokus], np.uint8)[hand], ROUND),
            "seq": pa.array(rows["seq"]),
            "turn": pa.array(rows["turn"], mask=rows["turn"] < 0),
            "seat": pa.array(seat, mask=seat < 0),
            "event": enum_array(ev, EVENTS["event"]),
            "tile": enum_array(np.maximum(rows["tid"], 0), TILE, rows["tid"] >= 0),
            "tiles": self._tiles(rows, n),
            "from_seat": pa.array(rows["frm"], mask=rows["frm"] < 0),
            "tsumogiri": pa.array(tsumogiri == 1, mask=tsumogiri < 0),
            "wall_left": pa.array(rows["wall_left"]),
            **outcome_deltas(n, rows, [self.deltas[r[rows["out"]], s] for s in range(4)],
                             self.players[file[rows["out"]]] == 4),
        }
        fields = [arrow_field(dtype).with_name(name) for name, dtype in EVENTS.items() if name in arrays]
        frame = pl.from_arrow(pa.Table.from_arrays([arrays[x.name] for x in fields], schema=pa.schema(fields)))
        at_file = pl.Series(file)
        unseated = seat < 0
        player = self.names.gather(pl.Series(file.astype(np.int64) * 4 + np.where(unseated, 0, seat)))
        return frame.with_columns(
            game_id=pl.Series(self.game_ids, dtype=pl.String).gather(at_file),
            log_file=pl.Series(self.paths, dtype=pl.String).gather(at_file),
            player=player.set(pl.Series(unseated), None) if unseated.any() else player,
        ).select(list(EVENTS))

    def _tiles(self, rows: dict, n: int) -> pa.Array:
        """The ``tiles`` column: each deal row's thirteen tiles, each call's three or four, sorted."""
        ev, r = rows["ev"], rows["r"]
        deal_pos = np.flatnonzero(ev == EVENT["haipai"])
        call_pos = np.flatnonzero(np.isin(ev, [EVENT[k] for k in ("chi", "pon", "minkan", "kakan", "ankan")]))
        at = self.c["call"][r[call_pos]]
        deals = self.dealt_sorted[rows["hand"][deal_pos], rows["seat"][deal_pos].astype(np.int64)]
        return event_tiles(n, deal_pos, deals, call_pos, self.play.call_tiles[at], self.play.call_lengths[at])

    def hands_table(self, numbers: np.ndarray) -> pl.DataFrame:
        """The hands table (:data:`analyzer.formats.log_tables.HANDS`) of the files kept, from the hands read."""
        values = {name: np.array([getattr(k, name) for k in self.kyokus], np.int64)
                  for name in ("kyoku", "honba", "kyotaku", "players")}
        inner = np.zeros(len(self.dealt_lengths) + 1, np.int64)
        np.cumsum(self.dealt_lengths, out=inner[1:])
        seats = pa.LargeListArray.from_arrays(pa.array(inner), enum_array(self.dealt_flat, TILE))
        haipai = pa.LargeListArray.from_arrays(pa.array(np.arange(0, len(self.dealt_lengths) + 1, 4)), seats)
        dora = pa.LargeListArray.from_arrays(pa.array(np.arange(len(self.kyokus) + 1)), enum_array(
            np.array([_MODEL_INDEX[k.dora[0]] for k in self.kyokus], np.int64), TILE))
        frame = pl.from_arrow(pa.table({"haipai": haipai, "dora": dora}))
        return frame.with_columns(
            game=pl.Series(numbers[self.file], dtype=pl.Int32), log_row=pl.Series(self.log_row),
            kyoku=pl.Series(values["kyoku"]).cast(pl.Int16), honba=pl.Series(values["honba"]),
            kyotaku=pl.Series(values["kyotaku"]),
            scores=pl.Series([k.scores for k in self.kyokus], dtype=pl.List(pl.Int64)),
            players=pl.Series(values["players"]).cast(pl.Int8),
        ).filter(pl.col("game") >= 0).select(list(HANDS)).cast(dict(HANDS))
