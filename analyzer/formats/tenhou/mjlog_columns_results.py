"""The recorded outcomes of a batch of mjlogs from their ``AGARI`` and ``RYUUKYOKU`` tags, as columns (for
:mod:`.mjlog_columns`): the outcomes table (:data:`analyzer.formats.log_tables.OUTCOMES`) but its keys, the
deltas, and each file's final result (``owari``).

As :func:`analyzer.formats.tenhou.mjlog._agari` and ``_ryuukyoku`` read them: ``ten`` (fu, points, limit),
``yaku`` (id and han pairs; the dora, ura and red-five ids counted apart) or ``yakuman`` (ids, then han is
none), ``doraHai``/``doraHaiUra``/``hai``/``machi`` (tile ids), ``m`` (the winner's melds; a north set aside is
counted, not a meld), ``sc`` (score and change pairs, in hundreds; eight more numbers in a chip lobby),
``paoWho``; a draw's ``type`` and the seats whose hand it shows (``hai0``..``hai3``: tenpai). Lists are read
flat (one row per number, their lengths kept) and built from offsets. A tag the per-game reader refuses, or
reads with Python's own quirks (a yaku id counted from the end), is refused here, and so is a file with two
final results.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from analyzer.formats.log_tables import MELD, OUTCOMES, TILE
from analyzer.formats.model import YAKUMAN_HAN
from analyzer.formats.tenhou.mjlog_columns_codes import (
    EVENT, KITA, MELD_NAMES, arrow_field, enum_array, lists, meld_columns, series, tile_index_array,
)
from analyzer.formats.tenhou.mjlog_columns_tags import INT, INTS, with_keys
from analyzer.formats.tenhou.yaku_names import LIMITS, TENHOU_YAKU_IDS

KEYS = ("who", "fromWho", "paoWho", "m", "ten", "yaku", "yakuman", "doraHai", "doraHaiUra", "hai", "machi", "sc",
        "owari", "ratio", "type", "hai0", "hai1", "hai2", "hai3")
ABORTS = ("yao9", "reach4", "ron3", "kan4", "kaze4")
DORA_IDS = {"dora": 52, "ura": 53, "aka": 54}
MAX_HUNDREDS = 10**7  # sc= and owari= in hundreds: beyond it a value exceeds check_magnitudes' ±10^9
MAGNITUDE = 10**9
_NUMBERS = rf"^{INT}(?:\.[0-9]{{1,9}})?(?:,{INT}(?:\.[0-9]{{1,9}})?)*$"
_SEAT = r"^[0-3]$"


@dataclass
class Results:
    """The outcome tags of a batch in ``r`` order: :attr:`frame` (``r``, ``file``, ``ev``, ``seat``, ``frm``
    for the play stream, the outcomes table's columns but its keys, ``delta_0..3`` as recorded), the files
    refused, each file's final result (:attr:`owari`: ``file``, ``final_scores``, ``final_points``,
    ``final_chips``, ``ratio``)."""

    frame: pl.DataFrame
    refused: set[int]
    owari: pl.DataFrame


LISTS = ("m", "yaku", "yakuman", "doraHai", "doraHaiUra", "hai")  # the attributes that are lists of numbers


def _columns(tags: pl.DataFrame) -> pl.DataFrame:
    """Every check and number the outcomes take from the tags' texts, in one pass (one Polars query)."""
    text = pl.col
    number = {key: text(key).cast(pl.Int64, strict=False) for key in ("who", "fromWho", "paoWho", "machi")}
    ten, sc = text("ten").str.splitn(",", 4), text("sc").str.splitn(",", 17)
    return tags.select(
        *(number[key].fill_null(-1).alias(key) for key in number),
        who_ok=text("who").str.contains(_SEAT), from_ok=text("fromWho").str.contains(_SEAT),
        pao_ok=text("paoWho").is_null() | text("paoWho").str.contains(_SEAT), pao_given=text("paoWho").is_not_null(),
        machi_ok=text("machi").str.contains(r"^[0-9]{1,3}$") & (number["machi"] <= 135),
        ten_ok=text("ten").str.contains(INTS) & ten.struct.field("field_1").is_not_null(),
        **{f"ten_{i}": ten.struct.field(f"field_{i}").cast(pl.Int64, strict=False).fill_null(-1) for i in range(3)},
        sc_ok=text("sc").str.contains(INTS) & ((sc.struct.field("field_7").is_not_null()
                                               & sc.struct.field("field_8").is_null())
                                              | (sc.struct.field("field_15").is_not_null()
                                                 & sc.struct.field("field_16").is_null())),
        **{f"sc_{s}": sc.struct.field(f"field_{2 * s + 1}").cast(pl.Int64, strict=False).fill_null(0) * 100
           for s in range(4)},
        type_ok=text("type").is_null() | text("type").is_in([*ABORTS, "nm"]),
        abort=text("type").is_in(ABORTS), nagashi=text("type") == "nm",
        **{f"{key}_ok": text(key).is_null() | text(key).str.contains(INTS) for key in LISTS},
        **{f"{key}_given": text(key).is_not_null() for key in ("yakuman", "doraHaiUra", *(f"hai{s}" for s in range(4)))},
    ).with_columns(pl.col(pl.Boolean).fill_null(False))


def _flat(tags: pl.DataFrame) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The number lists of :data:`LISTS` read flat, all in one explode: per key (lengths per row, owner row per
    number, numbers); null, "" and a text not of :data:`.mjlog_columns_tags.INTS` (refused by the caller) count
    none."""
    n = len(tags)
    texts = pl.DataFrame({"t": pl.concat([tags[key] for key in LISTS])})
    good = (pl.col("t").str.contains(INTS) & (pl.col("t") != "")).fill_null(False)
    counts = texts.select(pl.when(good).then(pl.col("t").str.count_matches(",", literal=True) + 1).otherwise(0)
                          ).to_series().to_numpy().astype(np.int64)
    numbers = texts.select(pl.col("t").filter(good).str.split(",").explode().cast(pl.Int64)).to_series().to_numpy()
    out, at = {}, 0
    for i, key in enumerate(LISTS):
        lengths = counts[i * n:(i + 1) * n]
        total = int(lengths.sum())
        out[key] = lengths, np.repeat(np.arange(n), lengths), numbers[at:at + total]
        at += total
    return out


def _any_by(n: int, owner: np.ndarray, bad: np.ndarray) -> np.ndarray:
    return np.bincount(owner[bad], minlength=n) > 0


def _nullable(values: np.ndarray, valid: np.ndarray, kind: pa.DataType) -> pl.Series:
    return pl.from_arrow(pa.array(values, kind, mask=~valid))


def _tile_lists(flat: tuple, aka: np.ndarray, valid: np.ndarray) -> tuple[pa.Array, np.ndarray]:
    """(the list array of a column of tile-id lists, the rows with an id outside 0-135)."""
    lengths, owner, ids = flat
    tiles = tile_index_array(np.clip(ids, 0, 135), aka[owner])
    out_of_range = _any_by(len(lengths), owner, (ids < 0) | (ids > 135))
    return lists(enum_array(tiles, TILE), lengths, pl.List(TILE), valid), out_of_range


def _yaku(flat: dict, pairs: np.ndarray, yakuman_given: np.ndarray, bad: np.ndarray) -> dict:
    """``yaku``/``yaku_han`` list arrays, han, yakuman and the dora, ura and red-five counts of each row."""
    n = len(pairs)
    lengths, owner, numbers = flat["yaku"]
    bad |= pairs & (lengths % 2 == 1)
    paired = np.repeat(pairs & (lengths % 2 == 0), lengths)
    yid, han, yowner = numbers[paired][0::2], numbers[paired][1::2], owner[paired][0::2]
    bad |= _any_by(n, yowner, (yid < 0) | (yid >= len(TENHOU_YAKU_IDS)))  # Python would count one from the end
    counted = {name: np.bincount(yowner[yid == i], weights=han[yid == i], minlength=n).astype(np.int64)
               for name, i in DORA_IDS.items()}
    han_sum = np.bincount(yowner, weights=han, minlength=n).astype(np.int64)
    ylen, yown, ynum = flat["yakuman"]
    used = np.repeat(yakuman_given, ylen)
    bad |= _any_by(n, yown, (ynum < 0) | (ynum >= len(TENHOU_YAKU_IDS)))
    named = yid < DORA_IDS["dora"]
    entry_owner = np.concatenate([yowner[named], yown[used]])
    entry_id = np.concatenate([yid[named], ynum[used]])
    entry_han = np.concatenate([han[named], np.full(int(used.sum()), YAKUMAN_HAN)])
    order = np.argsort(entry_owner, kind="stable")
    entry_lengths = np.bincount(entry_owner, minlength=n)
    names = pa.array(TENHOU_YAKU_IDS, pa.large_string()).take(pa.array(np.clip(entry_id[order], 0, 54)))
    bad |= (np.abs(han_sum) > MAGNITUDE) | np.any([np.abs(v) > MAGNITUDE for v in counted.values()], axis=0)
    return {
        "han": _nullable(han_sum, pairs, pa.int64()),
        "yaku": series(lists(names, entry_lengths, pl.List(pl.String)), OUTCOMES["yaku"], "yaku"),
        "yaku_han": series(lists(pa.array(entry_han[order], pa.int64()), entry_lengths, pl.List(pl.Int64)),
                           OUTCOMES["yaku_han"], "yaku_han"),
        "yakuman": pl.Series(np.where(yakuman_given, np.bincount(yown[used], minlength=n), 0).astype(np.int64)),
        **{name: pl.Series(np.where(pairs, counted[name], 0)) for name in DORA_IDS},
    }


def _melds(flat: tuple, who: np.ndarray, aka: np.ndarray, win: np.ndarray, bad: np.ndarray) -> dict:
    """The winner's ``melds`` list array (tiles in the per-game model's order) and ``kita`` count per row."""
    n = len(win)
    _, owner, codes = flat
    bad |= _any_by(n, owner, codes < 0)
    melds = pl.DataFrame({"m": np.maximum(codes, 0), "who": np.maximum(who, 0)[owner]}).select(
        **meld_columns(pl.col("m"), pl.col("who")))
    kind = melds["meld"].to_numpy()
    north = kind == KITA
    kita = np.bincount(owner[north], minlength=n).astype(np.int64)
    tiles = np.column_stack([melds[f"t{i}"].fill_null(-1).to_numpy() for i in range(4)]).reshape(-1, 4)[~north]
    meld_owner, kind = owner[~north], kind[~north]
    bad |= _any_by(n, meld_owner, (tiles > 135).any(axis=1))
    counts = (tiles >= 0).sum(axis=1)
    values = tile_index_array(np.clip(tiles[tiles >= 0], 0, 135), aka[np.repeat(meld_owner, counts)])
    kinds = sorted(MELD_NAMES)
    names = pa.array([MELD_NAMES[k] for k in kinds], pa.large_string()).take(pa.array(np.searchsorted(kinds, kind)))
    struct = pa.StructArray.from_arrays([names, lists(enum_array(values, TILE), counts, pl.List(TILE))],
                                        fields=list(arrow_field(pl.List(MELD)).type.value_type))
    meld_lists = lists(struct, np.bincount(meld_owner, minlength=n), pl.List(MELD), win)
    return {"melds": series(meld_lists, OUTCOMES["melds"], "melds"), "kita": pl.Series(kita)}


def results(agari: pl.DataFrame, ryuukyoku: pl.DataFrame, aka: np.ndarray) -> Results:
    """The outcomes of the ``AGARI`` and ``RYUUKYOKU`` attribute frames of files with red fives ``aka``."""
    tags = pl.concat([with_keys(agari, KEYS).with_columns(win=pl.lit(True)),
                      with_keys(ryuukyoku, KEYS).with_columns(win=pl.lit(False))], how="diagonal_relaxed").sort("r")
    n = len(tags)
    win = tags["win"].to_numpy()
    hand_aka = aka[tags["file"].to_numpy()]
    c = {name: column.to_numpy() for name, column in _columns(tags).to_dict().items()}
    flat = _flat(tags)
    bad = win & ~(c["who_ok"] & c["from_ok"] & c["pao_ok"] & c["machi_ok"] & c["ten_ok"])
    deltas = np.column_stack([c[f"sc_{s}"] for s in range(4)]).reshape(-1, 4)
    bad |= ~c["sc_ok"] | (np.abs(deltas) > MAGNITUDE).any(axis=1) | (~win & ~c["type_ok"])
    yakuman_given = win & c["yakuman_given"]
    pairs = win & ~yakuman_given
    bad |= win & ~(c["m_ok"] & c["doraHai_ok"] & c["doraHaiUra_ok"] & c["hai_ok"])
    bad |= pairs & ~c["yaku_ok"]
    bad |= yakuman_given & ~c["yakuman_ok"]
    dora, dora_bad = _tile_lists(flat["doraHai"], hand_aka, win)
    ura, ura_bad = _tile_lists(flat["doraHaiUra"], hand_aka, win & c["doraHaiUra_given"])
    hand, hand_bad = _tile_lists(flat["hai"], hand_aka, win)
    bad |= win & (dora_bad | ura_bad | hand_bad)
    who, frm = c["who"], c["fromWho"]
    tsumo, ron = win & (who == frm), win & (who != frm)
    abort, nagashi = ~win & c["abort"], ~win & c["nagashi"]
    tenpai_rows = ~win & ~abort
    shown = np.column_stack([c[f"hai{s}_given"] for s in range(4)]).reshape(-1, 4) & tenpai_rows[:, None]
    limit = pl.Series(c["ten_2"]).replace_strict(LIMITS, default=None, return_dtype=pl.String)  # -1: none
    frame = pl.DataFrame({
        "r": tags["r"], "file": tags["file"],
        "ev": pl.Series(np.select([ron, tsumo, abort], [EVENT["ron"], EVENT["tsumo"], EVENT["abort"]],
                                  EVENT["exhaustive_draw"]), dtype=pl.Int8),
        "seat": pl.Series(np.where(win, who, -1), dtype=pl.Int8),
        "frm": pl.Series(np.where(ron, frm, -1), dtype=pl.Int8),
        **{f"delta_{s}": pl.Series(deltas[:, s]) for s in range(4)},
        "result": series(enum_array(np.select([ron, tsumo, abort, nagashi], [0, 1, 4, 3], 2), OUTCOMES["result"]),
                         OUTCOMES["result"], "result"),
        "deltas": series(lists(pa.array(deltas.reshape(-1)), np.full(n, 4), pl.List(pl.Int64)),
                         OUTCOMES["deltas"], "deltas"),
        "winner": _nullable(who, win, pa.int8()),
        "loser": _nullable(frm, ron, pa.int8()),
        "pao": _nullable(c["paoWho"], win & c["pao_given"], pa.int8()),
        "fu": _nullable(c["ten_0"], win, pa.int64()),
        "points": _nullable(c["ten_1"], win, pa.int64()),
        "limit": limit.zip_with(pl.Series(win), pl.Series([None], dtype=pl.String).new_from_index(0, n)),
        **_yaku(flat, pairs, yakuman_given, bad),
        "dora_indicators": series(dora, OUTCOMES["dora_indicators"], "dora_indicators"),
        "ura_indicators": series(ura, OUTCOMES["ura_indicators"], "ura_indicators"),
        "hand": series(hand, OUTCOMES["hand"], "hand"),
        "win_tile": series(enum_array(tile_index_array(np.clip(c["machi"], 0, 135), hand_aka), TILE, win), TILE,
                           "win_tile"),
        **_melds(flat["m"], who, hand_aka, win, bad),
        "tenpai": series(lists(pa.array(np.nonzero(shown)[1].astype(np.int8)), shown.sum(axis=1), pl.List(pl.Int8),
                               tenpai_rows), OUTCOMES["tenpai"], "tenpai"),
        "all_tenpai": pl.Series([None], dtype=pl.Boolean).new_from_index(0, n),
        "has_value": pl.Series(np.ones(n, bool)),
        "abort": tags["type"].zip_with(pl.Series(abort), pl.Series([None], dtype=pl.String).new_from_index(0, n)),
        "recorded_text": pl.Series([None], dtype=pl.List(pl.String)).new_from_index(0, n),
    })
    owari, two = _owari(tags)
    refused = set(tags["file"].filter(pl.Series(bad)).unique().to_list()) | two
    return Results(frame, refused, owari)


def _owari(tags: pl.DataFrame) -> tuple[pl.DataFrame, set[int]]:
    """Each file's final result from its outcome tag with ``owari`` (scores in hundreds and game points by
    seat, then in a chip lobby the chips: :func:`analyzer.formats.tenhou.mjlog._owari`), and the files refused
    (two such tags, a value not as the per-game reader reads it)."""
    given = tags.filter(pl.col("owari").is_not_null())
    part = pl.col("owari").str.splitn(",", 17).struct.field
    whole = f"^{INT}$"
    ok = pl.col("owari").str.contains(_NUMBERS) & part("field_7").is_not_null()
    for i in (0, 2, 4, 6):
        ok &= part(f"field_{i}").str.contains(whole) & (part(f"field_{i}").cast(pl.Int64, strict=False).abs()
                                                        <= MAX_HUNDREDS)
    for i in (8, 10, 12, 14):
        ok &= part("field_15").is_null() | part(f"field_{i}").str.contains(whole)
    for i in (1, 3, 5, 7):
        ok &= part(f"field_{i}").cast(pl.Float64, strict=False).abs() <= MAGNITUDE
    columns = given.select(
        "file", ok.fill_null(False).alias("ok"), part("field_15").is_not_null().alias("chips"),
        *(part(f"field_{i}").cast(pl.Int64, strict=False).fill_null(0).alias(f"i{i}") for i in (0, 2, 4, 6, 8, 10, 12, 14)),
        *(part(f"field_{i}").cast(pl.Float64, strict=False).fill_null(0.0).alias(f"f{i}") for i in (1, 3, 5, 7)),
    )
    twice = given.group_by("file").len().filter(pl.col("len") > 1)["file"]
    refused = set(columns.filter(~pl.col("ok"))["file"].to_list()) | set(twice.to_list())
    m = len(given)

    def numbers(names: list[str], dtype: pl.DataType, scale, valid: np.ndarray | None = None) -> pl.Series:
        flat = np.column_stack([columns[name].to_numpy() for name in names]).reshape(-1) * scale
        return series(lists(pa.array(flat), np.full(m, 4), pl.List(dtype), valid), pl.List(dtype), "x")

    owari = pl.DataFrame({
        "file": given["file"],
        "final_scores": numbers(["i0", "i2", "i4", "i6"], pl.Int64, 100),
        "final_points": numbers(["f1", "f3", "f5", "f7"], pl.Float64, 1.0),
        "final_chips": numbers(["i8", "i10", "i12", "i14"], pl.Int64, 1, columns["chips"].to_numpy()),
        "ratio": given["ratio"],
    })
    return owari, refused
