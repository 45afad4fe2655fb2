"""The hands of a batch of mjlogs from their ``INIT`` tags, as columns (for :mod:`.mjlog_columns`): the hands
table (:data:`analyzer.formats.log_tables.HANDS`) and what the events table takes from each deal.

``INIT seed="kyoku,honba,kyotaku,die,die,dora" ten="…" oya="…" hai0="…" … hai3="…"``: the scores in hundreds, the
dealt tile ids (thirteen a seat, none for seat 3 of a three-player game). The hands table holds each seat's
tiles in the per-game model's order (by kind, a red five after the other fives of its kind); the events
table's ``haipai`` rows hold them by the tile Enum (:func:`Deals.event_tiles`). A deal the per-game reader
refuses or reads otherwise is refused here (:attr:`Deals.refused`): a seed or ``ten`` not of six and four
numbers, a seat dealt other than thirteen tiles (seat 3 of a three-player game none), a tile id outside
0-135, a dealer ``oya`` other than the seed's, counters beyond the events table's Int16.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from analyzer.formats.log_tables import HANDS, TILE
from analyzer.formats.tenhou.mjlog_columns_codes import EVENT, RED_IDS, enum_array, lists, series, tile_index_array
from analyzer.formats.tenhou.mjlog_columns_tags import INTS, is_int, is_ints, with_keys

KEYS = ("seed", "ten", "oya", "hai0", "hai1", "hai2", "hai3")
DEALT = 13
INT16_MAX = 32767
MAX_SCORE = 10**7  # in hundreds: beyond it a score exceeds check_magnitudes' ±10^9


@dataclass
class Deals:
    """The hands of a batch, one row per ``INIT`` tag in ``r`` order (:attr:`frame`: ``r``, ``file``,
    ``log_row``, ``kyoku``, ``honba``, ``kyotaku``, ``players``, ``dora`` the first indicator's tile id), the
    dealt tile ids (:attr:`ids`: hands x 4 x 13, -1 where none), the numbers of the files refused."""

    frame: pl.DataFrame
    ids: np.ndarray
    aka: np.ndarray  # per hand
    scores: np.ndarray  # per hand and seat, in points
    refused: set[int]

    def event_tiles(self) -> np.ndarray:
        """Each hand and seat's dealt tiles as tile Enum indices in the Enum's order (hands x 4 x 13)."""
        return np.sort(tile_index_array(np.maximum(self.ids, 0), self.aka[:, None, None]), axis=2)

    def table(self, games: np.ndarray, keep: np.ndarray) -> pl.DataFrame:
        """The hands table of the hands with ``keep`` (their files' games numbered by ``games``, per file)."""
        frame = self.frame.filter(pl.Series(keep))
        ids, aka, scores = self.ids[keep], self.aka[keep], self.scores[keep]
        n = len(frame)
        key = (ids // 4) * 2 + np.isin(ids, RED_IDS)  # the model's order: by kind, a red five after its kind
        order = np.argsort(np.where(ids < 0, 1 << 20, key), axis=2, kind="stable")
        dealt = np.take_along_axis(ids, order, axis=2)
        lengths = (dealt >= 0).sum(axis=2).reshape(-1)
        values = tile_index_array(dealt[dealt >= 0], np.repeat(aka, lengths.reshape(n, 4).sum(axis=1)))
        seats = lists(enum_array(values, TILE), lengths, pl.List(TILE))
        dora = tile_index_array(frame["dora"].to_numpy(), aka)
        columns = {
            "game": pl.Series("game", games[frame["file"].to_numpy()], pl.Int32),
            "log_row": frame["log_row"].cast(pl.Int16),
            "kyoku": frame["kyoku"].cast(pl.Int16),
            "honba": frame["honba"].cast(pl.Int64),
            "kyotaku": frame["kyotaku"].cast(pl.Int64),
            "scores": series(lists(pa.array(scores.reshape(-1), pa.int64()), np.full(n, 4), pl.List(pl.Int64)),
                             HANDS["scores"], "scores"),
            "haipai": series(lists(seats, np.full(n, 4), HANDS["haipai"]), HANDS["haipai"], "haipai"),
            "dora": series(lists(enum_array(dora, TILE), np.ones(n, np.int64), HANDS["dora"]), HANDS["dora"], "dora"),
            "players": frame["players"].cast(pl.Int8),
        }
        return pl.DataFrame(columns)


def deals(init: pl.DataFrame, players: np.ndarray, aka: np.ndarray) -> Deals:
    """The deals of the ``INIT`` tags (their attribute frame, :mod:`.mjlog_columns_tags`) of files with
    ``players`` and red fives (``aka``) per file."""
    init = with_keys(init, KEYS)
    file = init["file"].to_numpy()
    seated_players = players[file]
    seed, ten = pl.col("seed").str.splitn(",", 7).struct.field, pl.col("ten").str.splitn(",", 5).struct.field
    number = {name: seed(f"field_{i}").cast(pl.Int64, strict=False)
              for name, i in (("kyoku", 0), ("honba", 1), ("kyotaku", 2), ("dora", 5))}
    oya = pl.col("oya")
    f = init.select(
        "r", "file", pl.Series("players", seated_players, pl.Int8), *(v.alias(k) for k, v in number.items()),
        *(ten(f"field_{s}").cast(pl.Int64, strict=False).fill_null(0).alias(f"ten_{s}") for s in range(4)),
        ok=(is_ints(pl.col("seed")) & is_ints(pl.col("ten")) & seed("field_5").is_not_null()
            & ten("field_3").is_not_null() & ten("field_4").is_null()
            & number["dora"].is_between(0, 135) & number["kyoku"].is_between(-INT16_MAX - 1, INT16_MAX)
            & number["honba"].is_between(0, INT16_MAX) & number["kyotaku"].is_between(0, INT16_MAX)
            & (oya.is_null() | (is_int(oya) & (oya.cast(pl.Int64, strict=False) == number["kyoku"] % 4)))
            ).fill_null(False),
    )
    score = np.column_stack([f[f"ten_{s}"].to_numpy() for s in range(4)]).reshape(-1, 4)
    # the four seats' deals as one column of 4 x hands texts, split once
    dealt = pl.DataFrame({"t": pl.concat([init[f"hai{s}"] for s in range(4)])})
    text = pl.col("t")
    thirteen = (text.str.contains(INTS) & (text.str.count_matches(",", literal=True) == DEALT - 1)).fill_null(False)
    shapes = dealt.select(thirteen.alias("thirteen"), (text.is_null() | (text == "")).alias("none"))
    values = dealt.select(text.filter(thirteen).str.split(",").explode().cast(pl.Int64)).to_series().to_numpy()
    seated = (np.arange(4)[:, None] < seated_players[None, :]).reshape(-1)  # seat-major, as the column
    full = shapes["thirteen"].to_numpy()
    flat = np.full((4 * len(f), DEALT), -1, np.int64)
    flat[full] = values.reshape(-1, DEALT)
    in_range = ((flat >= 0) & (flat <= 135)).all(axis=1)
    dealt_ok = np.where(seated, full & in_range, shapes["none"].to_numpy()).reshape(4, -1).all(axis=0)
    ids = np.where(seated[:, None], flat, -1).reshape(4, -1, DEALT).transpose(1, 0, 2).copy()
    ok = f["ok"].to_numpy() & dealt_ok & (np.abs(score).max(axis=1, initial=0) <= MAX_SCORE)
    refused = set(file[~ok].tolist())
    first = np.searchsorted(file, file, side="left")  # the file's first hand (the frame is in file order)
    f = f.select("r", "file", "players", "kyoku", "honba", "kyotaku", pl.col("dora").fill_null(0),
                 log_row=pl.Series(np.arange(len(f)) - first + 1, dtype=pl.Int64))
    return Deals(f, ids, aka[file], score * 100, refused)


def placed(d: Deals) -> tuple:
    """What the ``INIT`` tag rows give the play stream (:func:`.mjlog_columns_play.stream`): the row of the
    first dora indicator."""
    r = d.frame["r"].to_numpy()
    return r, np.full(len(r), EVENT["dora"], np.int8), None, d.frame["dora"].to_numpy(), None
