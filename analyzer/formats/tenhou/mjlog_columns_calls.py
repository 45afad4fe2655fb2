"""The play tags of a batch of mjlogs other than draws and discards, as columns (for :mod:`.mjlog_columns`):
``N`` (a call or a north set aside: :func:`.mjlog_columns_codes.meld_columns`), ``REACH`` (step 1 the
declaration, step 2 the stick accepted) and ``DORA`` (a new kan dora indicator). Each gives the play stream
(:func:`.mjlog_columns_play.stream`) its rows' event, seat, tile id and seat called from.

Refused as the per-game reader refuses them (or reads them otherwise): a seat that is not 0-3, a meld code or
tile id that is not a plain number, a meld's tile id outside 0-135, a north set aside outside a three-player
game or other than a north.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from analyzer.formats.tenhou.mjlog_columns_codes import EVENT, KITA, NORTH_IDS, meld_columns, tile_index_array
from analyzer.formats.tenhou.mjlog_columns_tags import with_keys

_SEAT = r"^[0-3]$"


@dataclass
class Calls:
    """The ``N`` tags in ``r`` order (:attr:`frame`: ``r``, ``file``, ``meld``, ``who``, ``called``, ``frm``),
    each call's tiles as tile Enum indices in the Enum's order (:attr:`tiles`: calls x 4, 255 past its
    three or four; a north's row unused), and the files refused."""

    frame: pl.DataFrame
    tiles: np.ndarray
    refused: set[int]

    def placed(self) -> tuple:
        f = self.frame
        return (f["r"].to_numpy(), f["meld"].to_numpy(), f["who"].to_numpy(), f["called"].to_numpy(),
                f["frm"].to_numpy())


def calls(n: pl.DataFrame, players: np.ndarray, aka: np.ndarray) -> Calls:
    """The calls of the ``N`` attribute frame of files with ``players`` and red fives ``aka``."""
    n = with_keys(n, ("who", "m"))
    ok = n["who"].str.contains(_SEAT) & n["m"].str.contains(r"^[0-9]{1,9}$")
    f = n.select("r", "file", ok.fill_null(False).alias("ok"),
                 who=pl.col("who").cast(pl.Int64, strict=False).fill_null(0),
                 m=pl.col("m").cast(pl.Int64, strict=False).fill_null(0))
    f = f.with_columns(**meld_columns(pl.col("m"), pl.col("who")))
    ids = np.column_stack([f[f"t{i}"].fill_null(-1).to_numpy() for i in range(4)]).reshape(-1, 4)
    file = f["file"].to_numpy()
    north = f["meld"].to_numpy() == KITA
    good = f["ok"].to_numpy() & np.where(
        north, np.isin(ids[:, 0], NORTH_IDS) & (players[file] == 3), (ids <= 135).all(axis=1))
    tiles = np.where(ids >= 0, tile_index_array(np.clip(ids, 0, 135), aka[file][:, None]), 255)
    frame = f.select("r", "file", "meld", pl.col("who").cast(pl.Int8), pl.col("called").cast(pl.Int16),
                     pl.when(pl.col("meld").is_in([EVENT["chi"], EVENT["pon"], EVENT["minkan"]]))
                     .then(pl.col("frm")).otherwise(-1).cast(pl.Int8).alias("frm"))
    return Calls(frame, np.sort(tiles, axis=1), set(file[~good].tolist()))


def reaches(reach: pl.DataFrame) -> tuple[tuple, set[int]]:
    """The ``REACH`` tags' stream rows (step 1: riichi_declared, step 2: riichi_accepted, another step: no row)
    and the files refused (a seat that is not 0-3, checked whatever the step, as the per-game reader)."""
    reach = with_keys(reach, ("who", "step"))
    ok = reach["who"].str.contains(_SEAT).fill_null(False).to_numpy()
    step = reach["step"]
    ev = np.select([(step == "1").fill_null(False).to_numpy(), (step == "2").fill_null(False).to_numpy()],
                   [EVENT["riichi_declared"], EVENT["riichi_accepted"]], -1).astype(np.int8)
    who = reach["who"].cast(pl.Int8, strict=False).fill_null(0).to_numpy()
    return (reach["r"].to_numpy(), ev, who, None, None), set(reach["file"].to_numpy()[~ok].tolist())


def doras(dora: pl.DataFrame) -> tuple[tuple, set[int]]:
    """The ``DORA`` tags' stream rows (the new indicator's tile id) and the files refused (not a tile id)."""
    dora = with_keys(dora, ("hai",))
    tid = dora["hai"].cast(pl.Int64, strict=False)
    ok = (dora["hai"].str.contains(r"^[0-9]{1,3}$") & (tid <= 135)).fill_null(False).to_numpy()
    rows = dora["r"].to_numpy()
    return ((rows, np.full(len(rows), EVENT["dora"], np.int8), None, tid.fill_null(0).to_numpy(), None),
            set(dora["file"].to_numpy()[~ok].tolist()))
