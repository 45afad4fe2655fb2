"""mjai files as typed columns, a row per JSON line, and the files whose lines these columns do not read as the
per-game reader (:mod:`.read`) would (the first stage of :mod:`.columns`).

:func:`read_lines` reads the lines of a batch of files (:class:`Lines`): a draw or discard written as mjai
writes it (:data:`PLAIN_TEXTS`, nine lines in ten) is told by its whole text, in one lookup over the batch's
lines; every other line is read by Polars' NDJSON reader (one call, typed by :data:`LINE_SCHEMA`: a value of
another JSON type than its column's makes the call fail, and then each file's lines are read alone and the file
that fails is refused). Each line's ``type`` is coded (:data:`TYPES`) and its tiles (the index of the tile Enum,
:data:`TILE_INDEX`). :func:`refused_lines` gives the files whose lines break a rule of
the per-game reader, or take a path of it these columns do not follow: they go to that reader, which says
why or reads them its own way. Refused:

* a type these columns do not know (``none``, ``error``, any other), a second ``start_game`` or ``end_game``,
  ``start_game`` not first, ``end_game`` not last, a line before the first ``start_kyoku``;
* a hand (``start_kyoku`` up to the next or ``end_game``) without a result, play after its result, an
  ``end_kyoku`` that is not its last line, a second result that is not a ron on the same discard;
* a ``reach`` not right before its seat's ``dahai``; a ``ryukyoku`` right after a riichi discard whose stick
  is not accepted (the per-game reader accepts it); a ``dora`` right before a ron (it moves before a robbed kan);
* a seat, tile, count of tiles or per-seat list that is missing or not what the protocol says; a ``dahai``
  without ``tsumogiri``; a ``start_kyoku`` without ``scores`` or ``kyotaku`` (carried from the play by the
  per-game reader), a result without ``deltas``; a ``ryukyoku`` without its ``reason``;
* gimite's ``sangenpai`` (its dragons are read off the winning hand), a yaku that is not ``[name, fan]``, a
  ``limit`` that is not text or null, both ``ura_markers`` and ``uradora_markers``;
* a north set aside (``nukidora``, ``kita``) that is not ``N``;
* a number beyond :data:`analyzer.formats.files.MAX_MAGNITUDE`, a counter beyond the events table's Int16.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from analyzer.formats.events import INT16_MAX, TILES
from analyzer.formats.files import MAX_MAGNITUDE
from analyzer.formats.log_tables import TILE

TYPES = ("start_game", "start_kyoku", "tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "dora",
         "reach", "reach_accepted", "nukidora", "kita", "hora", "ryukyoku", "end_kyoku", "end_game")
T = {name: i for i, name in enumerate(TYPES)}
CALLS = (T["chi"], T["pon"], T["daiminkan"], T["kakan"], T["ankan"])
CONSUMED = {T["chi"]: 2, T["pon"]: 2, T["daiminkan"]: 3, T["kakan"]: 3, T["ankan"]: 4}
ACTOR = (T["tsumo"], T["dahai"], *CALLS, T["reach"], T["reach_accepted"], T["nukidora"], T["kita"], T["hora"])
TARGET = (T["chi"], T["pon"], T["daiminkan"], T["hora"])
PAI = (T["tsumo"], T["dahai"], T["chi"], T["pon"], T["daiminkan"], T["kakan"])
OUTCOMES = (T["hora"], T["ryukyoku"])

_MJAI_TILES = {**{f"{n}{s}": f"{n}{s}" for s in "mps" for n in range(1, 10)},
               **{f"5{s}r": f"0{s}" for s in "mps"}, **{h: f"{i}z" for i, h in enumerate("ESWNPFC", 1)}}
TILE_INDEX = {text: TILES.index(tile) for text, tile in _MJAI_TILES.items()}  # mjai's text -> the tile Enum's index
RED_INDICES = tuple(TILES.index(f"0{s}") for s in "mps")
NORTH_INDEX = TILES.index("4z")
_TILE_TEXT = dict(enumerate(TILES))

LINE_SCHEMA = {
    "type": pl.String, "actor": pl.Int64, "target": pl.Int64, "pai": pl.String, "consumed": pl.List(pl.String),
    "tsumogiri": pl.Boolean, "bakaze": pl.String, "kyoku": pl.Int64, "honba": pl.Int64, "kyotaku": pl.Int64,
    "oya": pl.Int64, "scores": pl.List(pl.Int64), "dora_marker": pl.String, "tehais": pl.List(pl.List(pl.String)),
    "deltas": pl.List(pl.Int64), "ura_markers": pl.List(pl.String), "uradora_markers": pl.List(pl.String),
    "pao": pl.Int64, "hora_tehais": pl.List(pl.String), "yakus": pl.List(pl.List(pl.String)), "fan": pl.Int64,
    "fu": pl.Int64, "hora_points": pl.Int64, "limit": pl.String, "dora_markers": pl.List(pl.String),
    "reason": pl.String, "tenpais": pl.List(pl.Boolean),
}
TILE_LISTS = ("consumed", "ura_markers", "uradora_markers", "hora_tehais", "dora_markers")
_YAKUS = r'"yakus"\s*:\s*(\[(?:\s*\[[^\[\]]*\]\s*,?)*\s*\])'  # a list of [name, fan] lists
_GIMITE_REASONS = ("fanpai", "nagashimangan", "kyushukyuhai", "suchareach", "sanchaho", "sukaikan", "sufonrenta")


def _tile(expr: pl.Expr) -> pl.Expr:
    return expr.replace_strict(TILE_INDEX, default=-1, return_dtype=pl.Int8)


def tile_enum(index: pl.Expr) -> pl.Expr:
    """The tile Enum of a tile index column (:data:`TILE_INDEX`'s values)."""
    return index.replace_strict(_TILE_TEXT, default=None, return_dtype=TILE)


def _plain_lines() -> tuple[list[str], np.ndarray]:
    """The texts of the draws and discards as mjai writes them compactly (with their newline), and per text its
    type's number, seat, tile index and tsumogiri (-1: none), a row of the array each; a last column for a line
    that is none of them."""
    texts, values = [], []
    for seat in range(4):
        for text, index in TILE_INDEX.items():
            texts.append(f'{{"type":"tsumo","actor":{seat},"pai":"{text}"}}\n')
            values.append((T["tsumo"], seat, index, -1))
            for giri in ("false", "true"):
                texts.append(f'{{"type":"dahai","actor":{seat},"pai":"{text}","tsumogiri":{giri}}}\n')
                values.append((T["dahai"], seat, index, int(giri == "true")))
    values.append((-1, -1, -1, -1))
    return texts, np.array(values, np.int64).T.copy()  # a row per value: each gathered alone


PLAIN_TEXTS, _PLAIN_VALUES = _plain_lines()


@dataclass
class Lines:
    """The lines of a batch of files: per line (numbered in the files' order) its ``file``, ``t`` (its type's
    number, -1: unknown), ``actor`` and ``target`` (-1: none), ``pai`` (the tile's index, -1: none or not a
    tile) and ``tsumogiri`` (1, 0, -1: none); ``wide``: every line that is not a draw or discard written as
    :data:`PLAIN_TEXTS` has it, typed by :data:`LINE_SCHEMA`, with ``file``, ``line``, ``t``, the tile indices
    ``pai_i``, ``dora_i``, ``tehai_i`` (List(List)) and ``<list>_i`` (List) of each tile list (-1: not a
    tile); ``texts`` their texts."""

    file: np.ndarray
    t: np.ndarray
    actor: np.ndarray
    target: np.ndarray
    pai: np.ndarray
    tsumogiri: np.ndarray
    wide: pl.DataFrame
    texts: pl.Series

    def spread(self, column: str | pl.Expr, default: int) -> np.ndarray:
        """A column of the wide lines as a value per line, ``default`` on the others (and for a null)."""
        values = np.full(len(self.t), default, np.int64)
        values[self.wide["line"].to_numpy()] = self.wide.select(column).to_series().fill_null(default).to_numpy()
        return values


def read_lines(bodies: list[bytes], counts: np.ndarray) -> tuple[Lines | None, set[int]]:
    """The lines of the files (``bodies``, each of ``counts`` lines ending in a newline) and the files whose
    lines do not all read (None: a line the reader passed over, none of the batch read here).

    A draw or discard written as mjai writes it is told by its whole text (one lookup among
    :data:`PLAIN_TEXTS`); the other lines (about one in fifteen) are read by Polars' NDJSON reader in one call,
    each file's alone when that call fails."""
    buffer = b"".join(bodies)
    ends = np.flatnonzero(np.frombuffer(buffer, np.uint8) == 10)
    offsets = np.zeros(len(ends) + 1, np.int64)
    offsets[1:] = ends + 1
    texts = pa.LargeStringArray.from_buffers(len(ends), pa.py_buffer(offsets), pa.py_buffer(buffer))
    plain = pl.Series(pl.from_arrow(texts), dtype=pl.String).replace_strict(
        PLAIN_TEXTS, list(range(len(PLAIN_TEXTS))), default=len(PLAIN_TEXTS), return_dtype=pl.Int32).to_numpy()
    file = np.repeat(np.arange(len(bodies), dtype=np.int32), counts)
    rest = np.flatnonzero(plain == len(PLAIN_TEXTS))
    rest_texts = pc.take(texts, pa.array(rest))
    frame, failed = _wide_lines(rest_texts, file[rest], len(bodies))
    if frame.height != len(rest):
        return None, set(range(len(bodies)))
    wide = frame.with_columns(
        file=pl.Series(file[rest]), line=pl.Series(rest, dtype=pl.Int64),
        t=pl.col("type").replace_strict(T, default=-1, return_dtype=pl.Int8),
        pai_i=_tile(pl.col("pai")), dora_i=_tile(pl.col("dora_marker")),
        tehai_i=pl.col("tehais").list.eval(pl.element().list.eval(_tile(pl.element()).fill_null(-1))),
        **{f"{name}_i": pl.col(name).list.eval(_tile(pl.element()).fill_null(-1)) for name in TILE_LISTS},
    )
    t, actor, pai, tsumogiri = (values[plain] for values in _PLAIN_VALUES)
    lines = Lines(file, t, actor, np.full(len(plain), -1, np.int64), pai, tsumogiri,
                  wide, pl.Series(pl.from_arrow(rest_texts), dtype=pl.String).str.strip_chars_end("\n"))
    for name, column in (("t", lines.t), ("actor", lines.actor), ("target", lines.target), ("pai_i", lines.pai)):
        column[rest] = wide[name].fill_null(-1).to_numpy()
    lines.tsumogiri[rest] = wide["tsumogiri"].cast(pl.Int64).fill_null(-1).to_numpy()
    return lines, failed


def _wide_lines(texts: pa.LargeStringArray, file: np.ndarray, files: int) -> tuple[pl.DataFrame, set[int]]:
    """The lines ``texts`` (of the files ``file``, in order) typed by :data:`LINE_SCHEMA`, and the files one of
    whose lines does not read (their lines all null)."""
    try:
        return pl.read_ndjson(_joined(texts), schema=LINE_SCHEMA), set()
    except (pl.exceptions.PolarsError, ValueError):
        pass
    failed, frames = set(), []
    bounds = np.searchsorted(file, np.arange(files + 1))
    for i in range(files):
        part = texts[bounds[i]:bounds[i + 1]]
        try:
            frames.append(pl.read_ndjson(_joined(part), schema=LINE_SCHEMA) if len(part) else
                          pl.DataFrame(schema=LINE_SCHEMA))
        except (pl.exceptions.PolarsError, ValueError):
            failed.add(i)
            frames.append(pl.DataFrame(schema=LINE_SCHEMA).clear(len(part)))
    return pl.concat(frames), failed


def _joined(texts: pa.LargeStringArray) -> io.BytesIO:
    """The bytes of ``texts`` one after another (each ends in its newline)."""
    if not len(texts):
        return io.BytesIO(b"")
    offsets = np.frombuffer(texts.buffers()[1], np.int64)[texts.offset:texts.offset + len(texts) + 1]
    return io.BytesIO(memoryview(texts.buffers()[2])[offsets[0]:offsets[-1]])


def result_keys(lines: Lines) -> pl.DataFrame:
    """Per result line (``hora``, ``ryukyoku``): ``line``, and whether its text has the keys ``yakus``,
    ``limit`` (and its value as text: ``limit_text``), both ura keys (the columns cannot tell a key missing
    from a null)."""
    results = lines.wide["t"].is_in(OUTCOMES)
    text = lines.texts.filter(results)
    return lines.wide.filter(results).select("line").with_columns(
        yakus_key=text.str.contains(r'"yakus"\s*:'),
        # the names' quotes alone: a fan written as text ("1") reads as the number 1 in the typed columns
        yakus_quotes=text.str.extract(_YAKUS).str.count_matches('"', literal=True).fill_null(-1)
        - text.str.extract(_YAKUS).str.count_matches("\\", literal=True).fill_null(0) * 1000,
        limit_key=text.str.contains(r'"limit"\s*:'),
        limit_text=text.str.contains(r'"limit"\s*:\s*"'),
        both_ura=text.str.contains('"ura_markers"', literal=True)
        & text.str.contains('"uradora_markers"', literal=True))


def refused_lines(lines: Lines, players: np.ndarray, keys: pl.DataFrame, files: int) -> set[int]:
    """The files whose lines these columns do not read as the per-game reader (see the module docstring);
    ``players`` per file."""
    t, file, actor, target = lines.t, lines.file, lines.actor, lines.target
    n = len(t)
    index = np.arange(n)
    bad = t < 0
    first = np.r_[True, file[1:] != file[:-1]]
    last = np.r_[file[1:] != file[:-1], True]
    bad |= (t == T["start_game"]) != first
    bad |= (t == T["end_game"]) != last
    previous, following = np.maximum(index - 1, 0), np.minimum(index + 1, n - 1)
    bad |= (first[previous] & ~first) & (t != T["start_kyoku"])  # the line after start_game starts a hand
    # the hands: a segment from each start_kyoku; its results last, end_kyoku (if any) its last line
    kyoku = t == T["start_kyoku"]
    outcome = np.isin(t, OUTCOMES)
    segment = np.cumsum(kyoku) - 1
    start = np.flatnonzero(kyoku)
    seg = np.maximum(segment, 0)
    ended = np.cumsum(outcome)
    at_start = ended[start[seg]] if len(start) else np.zeros(n, np.int64)
    after_result = (segment >= 0) & (ended - outcome - at_start > 0)
    inside = ~np.isin(t, (T["start_game"], T["end_game"], T["start_kyoku"]))
    bad |= inside & ~outcome & (t != T["end_kyoku"]) & after_result
    bad_hand = np.bincount(seg[outcome], minlength=len(start)) == 0
    bad |= (t == T["end_kyoku"]) & (last | ~np.isin(t[following], (T["start_kyoku"], T["end_game"])))
    bad |= kyoku & (np.cumsum(kyoku) - np.maximum.accumulate(np.where(first, np.cumsum(kyoku), 0)) > INT16_MAX)
    # a second result: a ron on the discard of the first
    again = outcome & outcome[previous] & ~kyoku[previous] & (index > 0)
    ron = (t == T["hora"]) & (actor != target)
    bad |= again & ~(ron & ron[previous] & (target == target[previous]))
    # riichi: declared right before its seat's discard; a draw right after a riichi discard (stick not accepted)
    reach = t == T["reach"]
    bad |= reach & ~((t[following] == T["dahai"]) & (actor[following] == actor) & ~last)
    counted = np.isin(t, (T["tsumo"], T["dahai"], *CALLS, T["reach_accepted"]))
    last_counted = np.maximum.accumulate(np.where(counted, index, -1))
    j = np.maximum(last_counted[previous], 0)
    bad |= ((t == T["ryukyoku"]) & (t[j] == T["dahai"]) & (j > 0) & (t[np.maximum(j - 1, 0)] == T["reach"])
            & (segment[j] == segment))
    bad |= ron & (t[previous] == T["dora"])
    bad |= np.isin(t, ACTOR) & ((actor < 0) | (actor > 3))
    bad |= np.isin(t, TARGET) & ((target < 0) | (target > 3))
    bad |= np.isin(t, PAI) & (lines.pai < 0)
    bad |= (t == T["dahai"]) & (lines.tsumogiri < 0)
    bad[lines.wide["line"].to_numpy()] |= _bad_fields(lines.wide, players[lines.wide["file"].to_numpy()])
    refused = set(file[bad].tolist())
    refused |= set(file[start[bad_hand]].tolist())
    refused |= set(np.flatnonzero(np.bincount(file[kyoku], minlength=files) == 0).tolist())
    refused |= set(file[np.isin(t, OUTCOMES)][~_result_keys_ok(lines.wide, keys)].tolist())
    return refused


def _bad_fields(frame: pl.DataFrame, players: np.ndarray) -> np.ndarray:
    """Per wide line (``frame``, its files' ``players``): a field other than the seats, the tile of a draw or
    discard and its tsumogiri missing or not of the protocol, or beyond what the columns hold."""
    t = frame["t"].to_numpy()
    count = pl.Series(players)
    checks = frame.select(
        consumed=pl.col("consumed_i").list.len().fill_null(-1)
        != pl.col("t").replace_strict(CONSUMED, default=None, return_dtype=pl.Int64).fill_null(-1),
        consumed_tile=pl.col("consumed_i").list.min().fill_null(0) < 0,
        dora=pl.col("dora_i").fill_null(-1) < 0,
        wind=~pl.col("bakaze").is_in(list("ESWN")).fill_null(False),
        kyoku=~pl.col("kyoku").is_between(1, 4).fill_null(False)
        | (pl.col("oya") != pl.col("kyoku") - 1).fill_null(True),
        counters=~(pl.col("honba").is_between(0, INT16_MAX)
                   & pl.col("kyotaku").is_between(0, INT16_MAX)).fill_null(False),
        scores=(pl.col("scores").list.len() != count) | pl.col("scores").list.eval(
            pl.element().is_null() | (pl.element().abs() > MAX_MAGNITUDE)).list.any(),
        scores_missing=pl.col("scores").is_null(),
        tehais=(pl.col("tehai_i").list.len() != count).fill_null(True)
        | ~pl.col("tehai_i").list.eval((pl.element().list.len() == 13) & (pl.element().list.min() >= 0))
        .list.all().fill_null(False),
        deltas=(pl.col("deltas").list.len() != count).fill_null(True) | pl.col("deltas").list.eval(
            pl.element().is_null() | (pl.element().abs() > MAX_MAGNITUDE)).list.any().fill_null(True),
        tiles=pl.any_horizontal(*(pl.col(f"{name}_i").list.min().fill_null(0) < 0 for name in TILE_LISTS[1:]),
                                pl.col("pai").is_not_null() & (pl.col("pai_i") < 0)),
        pao=pl.col("pao").is_not_null() & ~pl.col("pao").is_between(0, 3),
        tehai_pai=(pl.col("hora_tehais").list.len() % 3 == 1) & pl.col("pai").is_null(),
        values=pl.any_horizontal(*(pl.col(name).abs() > MAX_MAGNITUDE for name in ("fan", "fu", "hora_points")))
        | (pl.col("hora_points") < 0),
        reason=~pl.col("reason").is_in(_GIMITE_REASONS).fill_null(False),
        tenpais=pl.col("tenpais").list.eval(pl.element().is_null()).list.any().fill_null(False),
        north=pl.col("pai").fill_null("") != "N",
    ).with_columns(pl.all().fill_null(True))
    c = {name: checks[name].to_numpy() for name in checks.columns}
    bad = np.isin(t, CALLS) & (c["consumed"] | c["consumed_tile"])
    kyoku = t == T["start_kyoku"]
    bad |= kyoku & (c["dora"] | c["wind"] | c["kyoku"] | c["counters"] | c["scores"] | c["scores_missing"]
                    | c["tehais"])
    bad |= (t == T["dora"]) & c["dora"]
    results = np.isin(t, OUTCOMES)
    bad |= results & c["deltas"]
    scored = np.isin(t, (T["reach_accepted"], T["hora"], T["ryukyoku"], T["end_game"]))
    bad |= scored & ~c["scores_missing"] & c["scores"]
    bad |= (t == T["hora"]) & (c["tiles"] | c["pao"] | c["tehai_pai"] | c["values"])
    bad |= (t == T["ryukyoku"]) & (c["reason"] | c["tenpais"])
    bad |= np.isin(t, (T["nukidora"], T["kita"])) & c["north"]
    return bad


def _result_keys_ok(frame: pl.DataFrame, keys: pl.DataFrame) -> np.ndarray:
    """Per result line (in line order): its yakus and limit as the columns read them."""
    results = frame.filter(pl.col("t").is_in(OUTCOMES)).select("line", "t", "yakus", "limit").join(
        keys, on="line", how="left").sort("line")
    items = pl.col("yakus").list.eval(
        (pl.element().list.len() == 2) & pl.element().list.first().is_not_null()
        & (pl.element().list.first() != "sangenpai")
        & pl.element().list.get(1, null_on_oob=True).cast(pl.Int64, strict=False).is_not_null())
    ok = results.select(
        yakus=~pl.col("yakus_key") | (pl.col("yakus").is_not_null() & items.list.all()
                                       & (pl.col("yakus_quotes") == 2 * pl.col("yakus").list.len())),
        limit=pl.col("limit").is_null() | pl.col("limit_text"),
        ura=~pl.col("both_ura"),
    )
    return (ok["yakus"] & ok["limit"] & ok["ura"]).fill_null(False).to_numpy() | (results["t"] != T["hora"]).to_numpy()
