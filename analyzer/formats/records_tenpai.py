"""Tenpai at a draw from the seats' hands, where the log shows neither the hands nor who was paid for tenpai
(what :func:`.rows.game_rows` derives with :func:`.hand_shape.is_tenpai`): the concealed tiles as counts of
the 34 kinds, every kind added in turn and looked up in the shanten tables (:mod:`analyzer.tiles.shanten`)."""

from __future__ import annotations

import numpy as np
import polars as pl

from analyzer.formats.records_play import SEATS, seat_key
from analyzer.formats.events import TILES
from analyzer.formats.records_tiles import KIND_OF_TEXT, code_count, kind
from analyzer.tiles.shanten import shanten

KINDS = 34
HELD_ALL = 4


def _tenpai(columns: pl.Series) -> pl.Series:
    """Tenhou tenpai of each row of a struct of ``c0..c33`` (the concealed counts), ``own0..own33`` (with the
    melds' tiles) and ``sets``: some kind completes the hand, not one the seat holds all four of."""
    if columns.len() == 0:
        return pl.Series([], dtype=pl.Boolean)
    frame = columns.struct.unnest()
    counts = frame.select(f"c{k}" for k in range(KINDS)).to_numpy().astype(np.int8)
    own = frame.select(f"own{k}" for k in range(KINDS)).to_numpy()
    sets = frame["sets"].to_numpy().astype(np.int8)
    tenpai = np.zeros(len(frame), bool)
    for k in range(KINDS):
        room = own[:, k] < HELD_ALL
        if not room.any():
            continue
        grown = counts.copy()
        grown[:, k] += 1
        tenpai |= room & (shanten(grown, sets) == -1)
    return pl.Series(tenpai)


def tenpai_from_hands(need: pl.LazyFrame, held: pl.LazyFrame, melds: pl.LazyFrame) -> pl.LazyFrame:
    """``hands_tenpai`` (List of seat texts, in seat order) of the hands of ``need`` (their ``riichi`` given):
    the seats in riichi and those whose hand is tenpai (:func:`.hand_shape.is_tenpai`); ``held`` the seats'
    concealed tiles as words (:func:`.records_hands.concealed`)."""
    seats = (need.select("hand_id", "riichi").unique("hand_id")
             .join(pl.LazyFrame({"seat": list(SEATS)}, schema={"seat": pl.Int8}), how="cross")
             .with_columns(seat_key=seat_key()))
    # the concealed counts by kind, a red five counted with its fives
    codes = {k: [c for c, t in enumerate(TILES) if KIND_OF_TEXT[t] == k] for k in range(KINDS)}
    counts = held.join(seats, on="seat_key", how="semi").select(
        "seat_key", *(pl.sum_horizontal(code_count(pl.col("low"), pl.col("high"), c) for c in codes[k]).alias(f"c{k}")
                      for k in range(KINDS)))
    with_keys = melds.with_columns(seat_key=seat_key())
    meld_kinds = (with_keys.join(seats, on="seat_key", how="semi").select("seat_key", tile="meld_tiles")
                  .explode("tile").select("seat_key", kind=kind(pl.col("tile")), count=pl.lit(1, pl.Int64)))
    in_melds = meld_kinds.group_by("seat_key").agg(
        pl.col("count").filter(pl.col("kind") == k).sum().alias(f"m{k}") for k in range(KINDS))
    sets = with_keys.select("seat_key", "sets")
    table = (seats.join(counts, on="seat_key", how="left").join(in_melds, on="seat_key", how="left")
             .join(sets, on="seat_key", how="left")
             .with_columns(pl.col(f"c{k}").fill_null(0) for k in range(KINDS))
             .with_columns(sets=pl.col("sets").fill_null(0),
                           **{f"own{k}": pl.col(f"c{k}") + pl.col(f"m{k}").fill_null(0) for k in range(KINDS)}))
    fields = [*(f"c{k}" for k in range(KINDS)), *(f"own{k}" for k in range(KINDS)), "sets"]
    table = table.with_columns(
        tenpai=pl.col("riichi").list.contains(pl.col("seat").cast(pl.String))
        | pl.struct(fields).map_batches(_tenpai, return_dtype=pl.Boolean))
    return table.group_by("hand_id").agg(
        hands_tenpai=pl.col("seat").filter("tenpai").sort().cast(pl.String))
