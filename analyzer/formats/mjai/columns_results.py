"""The outcomes table (:data:`analyzer.formats.log_tables.OUTCOMES`) of mjai's ``hora`` and ``ryukyoku`` lines
read as columns (:mod:`.columns_lines`), as :mod:`.read` and :mod:`.results` read them into the game model:
gimite's yaku names as ours (a table of the few distinct names, worked out once), dora, ura and aka counted
apart, a yakuman's fan of 100 per yakuman, the limit read off ``hora_points`` unless the line names it.
"""

from __future__ import annotations

import polars as pl

from analyzer.formats.log_tables import OUTCOMES, SEAT
from analyzer.formats.mjai.columns_lines import T, tile_enum
from analyzer.formats.mjai.results import GIMITE_YAKU, RYUKYOKU_ABORTS, RYUKYOKU_REASONS, YAKUMAN_FAN
from analyzer.formats.tenhou.yaku_names import yaku_name

_LIMITS = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman"}
_COUNTED = ("dora", "ura", "aka")


def our_yaku_name(raw: str) -> str:
    """A yaku name of the log as ours (:func:`analyzer.formats.mjai.results.hora_value`'s rule)."""
    return GIMITE_YAKU.get(raw) or yaku_name(raw) or (raw if raw.startswith("unknown:") else f"unknown:{raw}")


def _yaku(results: pl.DataFrame) -> pl.DataFrame:
    """Per hora line with yakus: ``line``, ``yaku``, ``yaku_han`` (lists), ``yakuman``, ``dora``, ``ura``, ``aka``."""
    items = results.filter(pl.col("yakus_key")).select("line", "yakus").explode("yakus").filter(
        pl.col("yakus").is_not_null()).select(
        "line", raw=pl.col("yakus").list.first(), fan=pl.col("yakus").list.get(1).cast(pl.Int64))
    names = {raw: our_yaku_name(raw) for raw in items["raw"].unique().to_list()}
    items = items.with_columns(name=pl.col("raw").replace_strict(names, return_dtype=pl.String),
                               yakuman=pl.col("fan") >= YAKUMAN_FAN)
    listed = ~pl.col("name").is_in(_COUNTED) | pl.col("yakuman")
    return items.group_by("line").agg(
        yaku=pl.col("name").filter(listed),
        yaku_han=pl.when(pl.col("yakuman")).then(pl.col("fan") // YAKUMAN_FAN * YAKUMAN_FAN).otherwise(
            pl.col("fan")).filter(listed),
        yakuman=(pl.col("fan") // YAKUMAN_FAN).filter(pl.col("yakuman")).sum(),
        **{name: pl.col("fan").filter((pl.col("name") == name) & ~pl.col("yakuman")).sum() for name in _COUNTED},
    )


def outcomes_columns(results: pl.DataFrame) -> pl.DataFrame:
    """The outcomes table's columns but ``game``, ``log_row`` and ``outcome``, a row per result line of
    ``results`` (the lines' columns with their hand's ``dealer`` and ``players`` and the key flags of
    :func:`.columns_lines.result_keys`), in their order."""
    hora = pl.col("t") == T["hora"]
    tsumo = hora & (pl.col("actor") == pl.col("target"))
    frame = results.join(_yaku(results), on="line", how="left", maintain_order="left")
    fan, valued = pl.col("fan"), hora & pl.col("yakus_key")
    big = pl.col("yakuman").fill_null(0) > 0
    han = pl.when(valued & ~big & ~(fan >= YAKUMAN_FAN).fill_null(False)).then(fan)
    yakuman = (pl.when(valued & ~big & (fan >= YAKUMAN_FAN).fill_null(False)).then(fan // YAKUMAN_FAN)
               .otherwise(pl.col("yakuman").fill_null(0)))
    points = pl.when(valued).then(pl.col("hora_points"))
    share = pl.when(pl.col("actor") == pl.col("dealer")).then(6).otherwise(4)
    base, rest = points // share, points % share
    limit = (pl.when(rest != 0).then(None).when((base >= 8000) & (base % 8000 == 0)).then(pl.lit("yakuman"))
             .otherwise(base.replace_strict(_LIMITS, default=None, return_dtype=pl.String)))
    limit = (pl.when(hora & pl.col("limit_text")).then(pl.col("limit"))
             .when(valued & pl.col("limit_key") & pl.col("limit").is_null()).then(None).otherwise(limit))
    ura = pl.coalesce("ura_markers_i", "uradora_markers_i")
    four = pl.col("deltas").list.concat(pl.lit([0, 0, 0, 0]).list.slice(0, 4 - pl.col("players")))
    reason = pl.col("reason")
    result = (pl.when(tsumo).then(pl.lit("tsumo")).when(hora).then(pl.lit("ron"))
              .otherwise(reason.replace_strict(RYUKYOKU_REASONS, default=None, return_dtype=pl.String)))
    drawn = (~hora & result.is_in(["draw", "nagashi"]) & (pl.col("tenpais").list.len() == pl.col("players")))
    tenpai = pl.when(drawn).then(pl.col("tenpais").list.eval(pl.arg_where(pl.element()).cast(SEAT)))
    hand = pl.when(pl.col("hora_tehais_i").list.len() % 3 == 1).then(
        pl.col("hora_tehais_i").list.concat(pl.concat_list("pai_i"))).otherwise(pl.col("hora_tehais_i"))
    empty_texts = pl.lit([], dtype=pl.List(pl.String))
    columns = {
        "result": result,
        "deltas": four,
        "winner": pl.when(hora).then(pl.col("actor")),
        "loser": pl.when(hora & ~tsumo).then(pl.col("target")),
        "pao": pl.when(hora & (pl.col("pao") != pl.col("actor"))).then(pl.col("pao")),
        "fu": pl.when(valued).then(pl.col("fu")),
        "han": han,
        "points": points,
        "limit": pl.when(hora).then(limit),
        "yaku": pl.col("yaku").fill_null(empty_texts),
        "yaku_han": pl.col("yaku_han").fill_null(pl.lit([], dtype=pl.List(pl.Int64))),
        "yakuman": yakuman,
        **{name: pl.col(name).fill_null(0) for name in _COUNTED},
        "dora_indicators": pl.when(hora).then(pl.col("dora_markers_i")),
        "ura_indicators": pl.when(hora & (ura.list.len() > 0)).then(ura),
        "hand": pl.when(hora).then(hand),
        "win_tile": pl.when(hora).then(pl.col("pai_i")),
        "melds": pl.lit(None),
        "tenpai": tenpai,
        "all_tenpai": pl.lit(None),
        "has_value": ~hora | pl.col("yakus_key"),
        "kita": pl.lit(0),
        "abort": pl.when(~hora).then(reason.replace_strict(RYUKYOKU_ABORTS, default=None, return_dtype=pl.String)),
        "recorded_text": pl.lit(None),
    }
    return frame.select(**columns)


def with_schema(frame: pl.DataFrame) -> pl.DataFrame:
    """The outcomes columns cast to the outcomes table's types, tile indices as the tile Enum."""
    tiles = {"dora_indicators", "ura_indicators", "hand"}
    out = []
    for name, dtype in OUTCOMES.items():
        if name in tiles:
            out.append(pl.col(name).list.eval(tile_enum(pl.element())).cast(dtype).alias(name))
        elif name == "win_tile":
            out.append(tile_enum(pl.col(name)).cast(dtype).alias(name))
        else:
            out.append(pl.col(name).cast(dtype))
    return frame.select(out)
