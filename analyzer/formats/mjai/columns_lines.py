"""mjai files as typed columns, a row per JSON line, and the files whose lines these columns do not read as the
per-game reader (:mod:`.read`) would (the first stage of :mod:`.columns`).

:func:`lines_frame` reads the lines of a batch of files with Polars' NDJSON reader (one call, typed by
:data:`LINE_SCHEMA`: a value of another JSON type than its column's makes the call fail, and then each file is
read alone and the one that fails is refused) and codes each line's ``type`` (:data:`TYPES`) and its tiles (the
index of the tile Enum, :data:`TILE_INDEX`). :func:`refused_lines` gives the files whose lines break a rule of
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

import numpy as np
import polars as pl
import pyarrow as pa

from analyzer.formats.events import INT16_MAX, TILES
from analyzer.formats.files import MAX_MAGNITUDE

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


def lines_frame(bodies: list[bytes], counts: np.ndarray) -> tuple[pl.DataFrame, set[int]]:
    """The lines of the files (``bodies``, each of ``counts`` lines ending in a newline) as one frame: the
    columns of :data:`LINE_SCHEMA` plus ``file``, ``line`` (its row), ``t`` (its type's number, -1: unknown),
    tile indices ``pai_i``, ``dora_i``, ``tehai_i`` (List(List)), ``<list>_i`` (List) of each tile list (-1:
    not a tile), and the line's ``text`` where it is a result (keys present); and the files that fail."""
    failed: set[int] = set()
    try:
        frame = pl.read_ndjson(io.BytesIO(b"".join(bodies)), schema=LINE_SCHEMA)
    except (pl.exceptions.PolarsError, ValueError):
        frames = []
        for i, body in enumerate(bodies):
            try:
                frames.append(pl.read_ndjson(io.BytesIO(body), schema=LINE_SCHEMA))
            except (pl.exceptions.PolarsError, ValueError):
                failed.add(i)
                frames.append(pl.DataFrame(schema=LINE_SCHEMA).clear(int(counts[i])))
        frame = pl.concat(frames)
    if frame.height != int(counts.sum()):  # a line the reader passed over: none of the batch is read here
        return pl.DataFrame(), set(range(len(bodies)))
    file = np.repeat(np.arange(len(bodies), dtype=np.int32), counts)
    frame = frame.with_columns(
        file=pl.Series(file), line=pl.int_range(pl.len(), dtype=pl.Int64),
        t=pl.col("type").replace_strict(T, default=-1, return_dtype=pl.Int8),
        pai_i=_tile(pl.col("pai")), dora_i=_tile(pl.col("dora_marker")),
        tehai_i=pl.col("tehais").list.eval(pl.element().list.eval(_tile(pl.element()).fill_null(-1))),
        **{f"{name}_i": pl.col(name).list.eval(_tile(pl.element()).fill_null(-1)) for name in TILE_LISTS},
    )
    return frame, failed


def result_keys(bodies: list[bytes], frame: pl.DataFrame) -> pl.DataFrame:
    """Per result line (``hora``, ``ryukyoku``): ``line``, and whether its text has the keys ``yakus``,
    ``limit`` (and its value as text: ``limit_text``), both ura keys (the columns cannot tell a key missing
    from a null)."""
    starts = np.zeros(len(bodies) + 1, np.int64)
    np.cumsum([len(b) for b in bodies], out=starts[1:])
    results = frame.filter(pl.col("t").is_in(OUTCOMES)).select("line")
    if not results.height:
        return pl.DataFrame(schema={"line": pl.Int64, "yakus_key": pl.Boolean, "limit_key": pl.Boolean,
                                    "limit_text": pl.Boolean, "yakus_quotes": pl.Int64, "both_ura": pl.Boolean})
    text = _line_texts(bodies, results["line"].to_numpy())
    return results.select("line").with_columns(
        yakus_key=text.str.contains(r'"yakus"\s*:'),
        # the names' quotes alone: a fan written as text ("1") reads as the number 1 in the typed columns
        yakus_quotes=text.str.extract(_YAKUS).str.count_matches('"', literal=True).fill_null(-1)
        - text.str.extract(_YAKUS).str.count_matches("\\", literal=True).fill_null(0) * 1000,
        limit_key=text.str.contains(r'"limit"\s*:'),
        limit_text=text.str.contains(r'"limit"\s*:\s*"'),
        both_ura=text.str.contains('"ura_markers"', literal=True)
        & text.str.contains('"uradora_markers"', literal=True))


def _line_texts(bodies: list[bytes], lines: np.ndarray) -> pl.Series:
    """The texts of the batch's lines numbered ``lines`` (in the files' order, as :func:`lines_frame` numbers):
    their bytes gathered out of the batch's, one Arrow string array over them."""
    buffer = np.frombuffer(b"".join(bodies), np.uint8)
    ends = np.flatnonzero(buffer == 10)
    begin = np.where(lines > 0, ends[np.maximum(lines - 1, 0)] + 1, 0)
    lengths = ends[lines] - begin
    offsets = np.zeros(len(lines) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    texts = buffer[np.arange(offsets[-1]) + np.repeat(begin - offsets[:-1], lengths)]
    array = pa.LargeStringArray.from_buffers(len(lines), pa.py_buffer(offsets), pa.py_buffer(texts.tobytes()))
    return pl.Series(pl.from_arrow(array), dtype=pl.String)


def refused_lines(frame: pl.DataFrame, players: np.ndarray, keys: pl.DataFrame, files: int) -> set[int]:
    """The files whose lines these columns do not read as the per-game reader (see the module docstring);
    ``players`` per file."""
    if not frame.height:
        return set()
    t = frame["t"].to_numpy()
    file = frame["file"].to_numpy()
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
    actor, target = (frame[name].fill_null(-1).to_numpy() for name in ("actor", "target"))
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
    bad |= _bad_fields(frame, t, actor, target, players[file])
    refused = set(file[bad].tolist())
    refused |= set(file[start[bad_hand]].tolist())
    refused |= set(np.flatnonzero(np.bincount(file[kyoku], minlength=files) == 0).tolist())
    refused |= set(file[np.isin(t, OUTCOMES)][~_result_keys_ok(frame, keys)].tolist())
    return refused


def _bad_fields(frame: pl.DataFrame, t: np.ndarray, actor: np.ndarray, target: np.ndarray,
                players: np.ndarray) -> np.ndarray:
    """Per line: a field missing or not of the protocol, or beyond what the columns hold."""
    bad = np.isin(t, ACTOR) & ((actor < 0) | (actor > 3))
    bad |= np.isin(t, TARGET) & ((target < 0) | (target > 3))
    count = pl.Series(players)
    seated = pl.col("x").list.len() == count
    checks = frame.select(
        pai=pl.col("pai_i").fill_null(-1) < 0,
        consumed=pl.col("consumed_i").list.len().fill_null(-1)
        != pl.col("t").replace_strict(CONSUMED, default=None, return_dtype=pl.Int64).fill_null(-1),
        consumed_tile=pl.col("consumed_i").list.min().fill_null(0) < 0,
        giri=pl.col("tsumogiri").is_null(),
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
    bad |= np.isin(t, PAI) & c["pai"]
    bad |= np.isin(t, CALLS) & (c["consumed"] | c["consumed_tile"])
    bad |= (t == T["dahai"]) & c["giri"]
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
