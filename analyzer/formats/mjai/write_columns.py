"""mjai JSON lines from the log tables (:mod:`analyzer.formats.log_tables`): byte for byte what
:func:`.write.game_to_mjai` and :func:`.write.events_text` write from the game model (see :mod:`.write` for
the lines), built as columns (:func:`mjai_texts`).

Every row of the events table is one line of the file or none (a deal, a dora indicator shown at the start,
an outcome row): a draw, a discard, a riichi, a north set aside or a kan dora is one of 785 texts, gathered by
its (event, seat, tile, tsumogiri) code; a call's line is put together (its other tiles are the call's tiles
but one called, in the readers' order: by kind, a red five after the other fives); a kan's replacement draw
gains the next kan dora indicator of the hand's list (tenhou.net/6 lists them with the first), as the model's
writer reveals them. The
first row of a hand gets ``start_kyoku`` before it (and the first hand ``start_game``), the last row of a hand
the indicators never revealed, the outcomes (``hora`` or ``ryukyoku``, from the outcomes table in the log's
order) and ``end_kyoku`` after it (and the last hand ``end_game``). The rows in events-table order are then the
file, game after game (:class:`.game_texts.GameTexts`).

A game the model's writer cannot write gets the same reason: a hand without a dora indicator, a call whose
tiles do not hold its called tile, a ruleset spec that cannot be worked out.

What the tables do not keep is taken as the readers give it: a call's other tiles in the order above (the
events table sorts them), a per-seat dan or rate written as a number where ``numbers`` says the log had one
(:func:`extension_fields`), the start time in UTC.
"""

from __future__ import annotations

import polars as pl

from analyzer.formats.game_texts import (EVENT_INDEX, MJAI_TILES, GameTexts, call_others, first_error,
                                         hand_bounds, json_bool, json_int, json_ints, json_tiles, json_value,
                                         lookup, rules_specs, tile_code, tile_texts)
from analyzer.formats.log_tables import LogTables
from analyzer.formats.mjai.write import ABORT_REASONS, EXTENSION, GIMITE_YAKU
from analyzer.formats.model import YAKUMAN_HAN

CALLS = ("chi", "pon", "minkan", "kakan", "ankan")
KANS = ("minkan", "kakan", "ankan")
NO_SEAT, NO_TILE, NO_GIRI = 4, 37, 2  # a null seat, tile, tsumogiri in a line's code
HAND_KEY = ("game", "log_row")
ROW_RANK = 1 << 16  # an error's rank: the hand's number times this, plus the row's seq (0: the hand's start)
NO_DORA = "cannot export (IndexError: list index out of range)"  # the model's writer: k.dora[0] of no dora
CALLED_MISSING = "cannot export (ValueError: list.remove(x): x not in list)"


def _code(event: str, seat: int, tile: int, giri: int) -> int:
    return ((EVENT_INDEX[event] * 5 + seat) * 38 + tile) * 3 + giri


def _simple_lines() -> list[str | None]:
    """The text of every one-tile line by its code (:func:`_code`), each with its newline; None elsewhere."""
    lines: list[str | None] = [None] * _code("abort", NO_SEAT, NO_TILE, NO_GIRI + 1)
    for s in range(4):
        lines[_code("riichi_declared", s, NO_TILE, NO_GIRI)] = f'{{"type":"reach","actor":{s}}}\n'
        lines[_code("riichi_accepted", s, NO_TILE, NO_GIRI)] = f'{{"type":"reach_accepted","actor":{s}}}\n'
        for t, pai in enumerate(MJAI_TILES):
            lines[_code("draw", s, t, NO_GIRI)] = f'{{"type":"tsumo","actor":{s},"pai":"{pai}"}}\n'
            lines[_code("kita", s, t, NO_GIRI)] = f'{{"type":"nukidora","actor":{s},"pai":"{pai}"}}\n'
            for giri, word in enumerate(("false", "true", "null")):
                lines[_code("discard", s, t, giri)] = (f'{{"type":"dahai","actor":{s},"pai":"{pai}",'
                                                       f'"tsumogiri":{word}}}\n')
    for t, pai in enumerate(MJAI_TILES):
        lines[_code("dora", NO_SEAT, t, NO_GIRI)] = f'{{"type":"dora","dora_marker":"{pai}"}}\n'
    return lines


SIMPLE_LINES = _simple_lines()
DORA_LINES = [f'{{"type":"dora","dora_marker":"{pai}"}}\n' for pai in MJAI_TILES]


def _mjai(tile: pl.Expr) -> pl.Expr:
    return lookup(MJAI_TILES, tile_code(tile))


def dora_line(tile: pl.Expr) -> pl.Expr:
    return pl.concat_str(pl.lit('{"type":"dora","dora_marker":"'), _mjai(tile), pl.lit('"}\n'))


def line_codes(events: pl.LazyFrame) -> pl.LazyFrame:
    """The events with ``code``: the row's line in :data:`SIMPLE_LINES` (null: none; the dora rows are
    :func:`dora_lines`')."""
    giri = pl.when(pl.col("tsumogiri")).then(1).when(~pl.col("tsumogiri")).then(0).otherwise(NO_GIRI)
    code = ((tile_code(pl.col("event")) * 5 + pl.col("seat").cast(pl.Int64).fill_null(NO_SEAT)) * 38
            + tile_code(pl.col("tile")).fill_null(NO_TILE)) * 3 + giri
    return events.with_columns(code=pl.when(pl.col("event") != "dora").then(code))


def dora_lines(events: pl.LazyFrame, hands: pl.LazyFrame) -> pl.LazyFrame:
    """The lines of the kan dora indicators shown in the play (``row``, ``line``): the dora rows after those of
    the start (the hand's deals and its indicators at the start come first), whose ``start_kyoku`` names the
    first of them."""
    dora = events.with_row_index("row").filter(pl.col("event") == "dora").select("row", *HAND_KEY, "seq", "tile")
    return dora.join(hands.select(*HAND_KEY, shown=pl.col("players").cast(pl.Int64) + pl.col("dora").list.len()),
                     on=HAND_KEY, how="left").filter(pl.col("seq") > pl.col("shown")).select(
        "row", line=dora_line(pl.col("tile")))


def call_lines(events: pl.LazyFrame) -> pl.LazyFrame:
    """One row per call: ``row`` (its place in the events), ``line`` (its text) and ``missing`` (its tiles do
    not hold the called tile: the model's writer cannot write it)."""
    calls = events.with_row_index("row").filter(pl.col("event").is_in(CALLS)).select(
        "row", "event", "seat", "tile", "from_seat", "tiles")
    calls = calls.join(call_others(calls), on="row", how="left")
    event, seat = pl.col("event"), pl.col("seat").cast(pl.String)
    consumed = json_tiles(pl.when(event == "ankan").then(pl.col("tiles")).otherwise(pl.col("other")))
    kind = pl.when(event == "minkan").then(pl.lit("daiminkan")).otherwise(event.cast(pl.String))
    target = pl.when(event.is_in(["chi", "pon", "minkan"])).then(
        pl.concat_str(pl.lit(',"target":'), json_int(pl.col("from_seat"))))
    pai = pl.when(event != "ankan").then(pl.concat_str(pl.lit(',"pai":"'), _mjai(pl.col("tile")), pl.lit('"')))
    line = pl.concat_str(pl.lit('{"type":"'), kind, pl.lit('","actor":'), seat, target, pai, pl.lit(',"consumed":'),
                         consumed, pl.lit("}\n"), ignore_nulls=True)
    return calls.select("row", line=line, missing=pl.col("missing") & (event != "ankan"))


def kan_doras(events: pl.LazyFrame, hands: pl.LazyFrame) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """The kan dora indicators the start's list holds beyond the first, as the model's writer reveals them:
    the replacement draws that reveal one (``row``, ``line``: the draw's and the indicator's lines), and per
    hand ``left``, the lines of those never revealed (written before its outcomes)."""
    moves = events.with_row_index("row").filter(pl.col("event").is_in(["draw", *CALLS])).select(
        "row", *HAND_KEY, "event", "seat", "tile")
    same_hand = (pl.col("game").shift(1) == pl.col("game")) & (pl.col("log_row").shift(1) == pl.col("log_row"))
    drawn = moves.filter((pl.col("event") == "draw") & pl.col("event").shift(1).is_in(KANS) & same_hand)
    drawn = drawn.with_columns(nth=pl.int_range(1, pl.len() + 1).over(HAND_KEY)).join(
        hands.select(*HAND_KEY, "dora"), on=HAND_KEY, how="left")
    indicator = pl.col("dora").list.get(pl.col("nth"), null_on_oob=True)
    draw_code = ((EVENT_INDEX["draw"] * 5 + pl.col("seat").cast(pl.Int64)) * 38 + tile_code(pl.col("tile"))) * 3
    revealed = drawn.filter(indicator.is_not_null()).select(
        "row", line=pl.concat_str(lookup(SIMPLE_LINES, draw_code + NO_GIRI), dora_line(indicator)))
    counts = drawn.group_by(HAND_KEY).agg(shown=pl.len().cast(pl.Int64))
    never = pl.col("dora").list.slice(1 + pl.col("shown").fill_null(0))
    left = hands.select(*HAND_KEY, "dora").join(counts, on=HAND_KEY, how="left").select(
        *HAND_KEY, left=tile_texts(never, DORA_LINES).list.join(""))
    return revealed, left


def yaku_hans() -> pl.Expr:
    """Each yaku's han; a model built without them gets a yakuman's share or 1 (as :func:`.write._hans`)."""
    each = pl.when(pl.col("yakuman") > 0).then(YAKUMAN_HAN).otherwise(1)
    hans = pl.col("yaku_han")
    return pl.when(hans.list.len() == pl.col("yaku").list.len()).then(hans).otherwise(
        each.repeat_by(pl.col("yaku").list.len()))


def yakus(outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """Per outcome (``game``, ``log_row``, ``outcome``) its ``yakus``: the JSON list of ``[name, han]``, gimite's
    names where gimite has the yaku, then the dora, aka and ura counts that are not 0."""
    key = (*HAND_KEY, "outcome")
    pairs = (outcomes.select(*key, "yaku", han=yaku_hans()).explode("yaku", "han")
             .filter(pl.col("yaku").is_not_null())
             .select(*key, pair=pl.concat_str(pl.lit("["), json_value(pl.col("yaku").replace(GIMITE_YAKU)),
                                              pl.lit(","), pl.col("han").cast(pl.String), pl.lit("]"))))
    counts = outcomes.select(*key, pl.concat_str(
        *[pl.when(pl.col(column) != 0).then(pl.concat_str(pl.lit(f',["{name}",'), pl.col(column).cast(pl.String),
                                                          pl.lit("]")))
          for name, column in (("dora", "dora"), ("akadora", "aka"), ("uradora", "ura"))],
        ignore_nulls=True).alias("counts"))
    listed = pairs.group_by(key).agg(pl.col("pair").str.join(","))
    return counts.join(listed, on=key, how="left").select(
        *key, yakus=pl.concat_str(pl.lit("["), pl.col("pair").fill_null(""),
                                  pl.when(pl.col("pair").is_null()).then(pl.col("counts").str.strip_prefix(","))
                                  .otherwise(pl.col("counts")), pl.lit("]")))


def outcome_lines(outcomes: pl.LazyFrame, players: pl.LazyFrame) -> pl.LazyFrame:
    """Per hand ``outcomes``: the lines of its outcomes in the log's order (``hora`` or ``ryukyoku``)."""
    n = pl.col("players")
    won = pl.col("result").is_in(["ron", "tsumo"])
    wins = outcomes.filter(won)  # each kind of line made from its own rows only
    o = outcomes.join(players, on="game", how="left")
    deltas = json_ints(pl.col("deltas").list.slice(0, n))
    winner = pl.col("winner")
    value = pl.when(pl.col("has_value")).then(pl.concat_str(
        pl.lit(',"fan":'), json_int(pl.col("han").fill_null(YAKUMAN_HAN * pl.col("yakuman"))),
        pl.lit(',"fu":'), json_int(pl.col("fu")), pl.lit(',"yakus":'), pl.col("yakus"),
        pl.lit(',"hora_points":'), json_int(pl.col("points")), pl.lit(',"limit":'), json_value(pl.col("limit"))))
    hora = pl.concat_str(
        pl.lit('{"type":"hora","actor":'), json_int(winner), pl.lit(',"target":'),
        json_int(pl.coalesce(pl.col("loser"), winner)), pl.lit(',"deltas":'), deltas,
        pl.lit(',"ura_markers":'), json_tiles(pl.col("ura_indicators").fill_null([])),
        pl.when(pl.col("win_tile").is_not_null()).then(pl.concat_str(
            pl.lit(',"pai":"'), _mjai(pl.col("win_tile")), pl.lit('"'))),
        pl.when(pl.col("pao").is_not_null()).then(pl.concat_str(pl.lit(',"pao":'), pl.col("pao").cast(pl.String))),
        value,
        pl.when(pl.col("dora_indicators").is_not_null()).then(pl.concat_str(
            pl.lit(',"dora_markers":'), json_tiles(pl.col("dora_indicators")))),
        pl.lit("}\n"), ignore_nulls=True)
    result = pl.col("result").cast(pl.String)
    reason = (pl.when(result == "draw").then(pl.lit("fanpai")).when(result == "nagashi").then(pl.lit("nagashimangan"))
              .otherwise(pl.col("abort").replace_strict(ABORT_REASONS, default=None, return_dtype=pl.String)))
    seats = [pl.col("tenpai").list.contains(pl.lit(s, pl.Int8)) for s in range(4)]
    tenpais = (pl.when(pl.col("tenpai").is_not_null()).then(pl.concat_list(seats))
               .when(pl.col("all_tenpai").is_not_null()).then(pl.concat_list([pl.col("all_tenpai")] * 4)))
    ryukyoku = pl.concat_str(
        pl.lit('{"type":"ryukyoku","deltas":'), deltas,
        pl.when(reason.is_not_null()).then(pl.concat_str(pl.lit(',"reason":"'), reason, pl.lit('"'))),
        pl.when(tenpais.is_not_null()).then(pl.concat_str(pl.lit(',"tenpais":'),
                                                           json_value(tenpais.list.slice(0, n)))),
        pl.lit("}\n"), ignore_nulls=True)
    lines = pl.concat([
        o.filter(won).join(yakus(wins.filter(pl.col("has_value"))), on=(*HAND_KEY, "outcome"), how="left")
        .select(*HAND_KEY, "outcome", line=hora),
        o.filter(~won).select(*HAND_KEY, "outcome", line=ryukyoku)])
    return (lines.sort(*HAND_KEY, "outcome")
            .group_by(HAND_KEY, maintain_order=True).agg(outcomes=pl.col("line").str.join("")))


def hand_starts(hands: pl.LazyFrame, players: pl.LazyFrame) -> pl.LazyFrame:
    """Per hand ``start``: its ``start_kyoku`` line; ``no_dora``: it has no dora indicator to name."""
    n, kyoku = pl.col("players"), pl.col("kyoku").cast(pl.Int64)
    tehais = pl.col("haipai").list.slice(0, n).list.eval(tile_texts(pl.element(), MJAI_TILES))
    start = pl.concat_str(
        pl.lit('{"type":"start_kyoku","bakaze":"'), lookup(list("ESWN"), kyoku // 4 % 4), pl.lit('","kyoku":'),
        (kyoku % 4 + 1).cast(pl.String), pl.lit(',"honba":'), pl.col("honba").cast(pl.String),
        pl.lit(',"kyotaku":'), pl.col("kyotaku").cast(pl.String), pl.lit(',"oya":'), (kyoku % 4).cast(pl.String),
        pl.lit(',"dora_marker":"'), _mjai(pl.col("dora").list.first()), pl.lit('","scores":'),
        json_ints(pl.col("scores").list.slice(0, n)), pl.lit(',"tehais":'), json_value(tehais), pl.lit("}\n"))
    return hands.drop("players").join(players, on="game", how="left").select(
        *HAND_KEY, kyoku_start=start, no_dora=pl.col("dora").list.len() == 0)


def extension_fields(games: pl.DataFrame, hands: pl.DataFrame, numbers: pl.DataFrame | None) -> pl.DataFrame:
    """Per game (in ``games``' order) ``fields``, the inside of :func:`.write.game_fields`' object as JSON
    (``"game_id":...,...``, no braces): the values that are not null (``game_points`` always), in its order;
    and ``fields_error``, why its ruleset spec cannot be worked out (the model's writers fail there).
    ``numbers`` (``game`` and ``dan_numbers``, ``rate_numbers``, ``ranks_numbers``: per seat whether the log
    recorded a number, not a text) says which of the per-seat values to write as JSON numbers (the tables keep
    them as text: without it, every value is written as text)."""
    specs, errors = rules_specs(games, hands)
    frame = games.with_columns(specs, fields_error=pl.col("game").replace_strict(errors, default=None,
                                                                                 return_dtype=pl.String))
    recorded = {f"{name}_json": per_seat_json(frame, name, numbers) for name in ("dan", "rate", "ranks")}
    frame = frame.with_columns(**recorded)

    def field(name: str, value: pl.Expr, present: pl.Expr | None = None, first: bool = False) -> pl.Expr:
        text = pl.concat_str(pl.lit(("" if first else ",") + f'"{name}":'), value)
        return pl.when(present if present is not None else value.is_not_null()).then(text)

    return frame.select(pl.concat_str(
        field("game_id", json_value(pl.col("game_id")), first=True),
        field("rules", json_value(pl.col("rules")), pl.col("rules").is_not_null()),
        field("platform", json_value(pl.col("platform")), pl.col("platform").is_not_null()),
        field("room", json_value(pl.col("room")), pl.col("room").is_not_null()),
        field("lobby", pl.col("lobby").cast(pl.String)),
        field("lobby_type", pl.col("lobby_type").cast(pl.String)),
        field("custom_rules", json_value(pl.col("custom_rules")), pl.col("custom_rules").is_not_null()),
        field("open_tanyao", json_bool(pl.col("kuitan")), pl.col("kuitan").is_not_null()),
        field("tsumo_loss", json_value(pl.col("tsumo_loss")), pl.col("tsumo_loss").is_not_null()),
        *(field(name, pl.col(f"{name}_json"), pl.col(name).is_not_null()) for name in ("dan", "rate", "ranks")),
        field("game_points", json_value(pl.col("final_points")), pl.lit(True)),
        field("chips", json_ints(pl.col("final_chips"))),
        field("ratio", json_value(pl.col("ratio")), pl.col("ratio").is_not_null()),
        field("started_at", iso_time(pl.col("started_at"))),
        ignore_nulls=True).alias("fields"), "fields_error")


def iso_time(at: pl.Expr) -> pl.Expr:
    """A start time as the JSON of Python's ``isoformat`` of it in UTC (the clock the readers give it in; the
    tables keep the instant, not the offset it was written with): ``"2024-03-01T11:05:51+00:00"``."""
    utc = at.dt.convert_time_zone("UTC")
    fraction = pl.when(utc.dt.microsecond() != 0).then(utc.dt.strftime("%.6f")).otherwise(pl.lit(""))
    return pl.concat_str(pl.lit('"'), utc.dt.strftime("%Y-%m-%dT%H:%M:%S"), fraction, pl.lit('+00:00"'))


def number_text(text: pl.Expr) -> pl.Expr:
    """A number kept as Python's ``str`` of it, as ``json.dumps`` writes the number (``True``: ``true``...)."""
    return text.replace({"True": "true", "False": "false", "nan": "NaN", "inf": "Infinity",
                         "-inf": "-Infinity"})


def per_seat_json(games: pl.DataFrame, name: str, numbers: pl.DataFrame | None) -> pl.Expr:
    """The JSON list of a per-seat value (``dan``, ``rate``, ``ranks``; null when not recorded): each text
    quoted, but a number the log recorded (``numbers``) as the number."""
    if numbers is None or f"{name}_numbers" not in numbers.columns:
        return json_value(pl.col(name))
    values = pl.col(name)
    flags = (games.select("game", name).filter(values.list.len() > 0)
             .join(numbers.select("game", flag=f"{name}_numbers"), on="game", how="left")
             .with_columns(pl.col("flag").fill_null(values.list.eval(pl.element().is_null() & False))))
    items = (flags.explode(name, "flag").with_columns(
        item=pl.when(values.is_null()).then(pl.lit("null")).when(pl.col("flag")).then(number_text(values))
        .otherwise(json_value(values)))
        .group_by("game", maintain_order=True).agg(pl.col("item").str.join(",")))
    joined = games.select("game", name).join(items, on="game", how="left", maintain_order="left").select(
        pl.when(pl.col("item").is_not_null()).then(pl.concat_str(pl.lit("["), pl.col("item"), pl.lit("]")))
        .otherwise(json_value(pl.col(name))).alias(name))
    return pl.lit(joined.to_series())


def game_lines(games: pl.DataFrame, hands: pl.DataFrame, numbers: pl.DataFrame | None) -> pl.DataFrame:
    """Per game (``game``) its ``start_game`` and ``end_game`` lines (``game_start``, ``game_end``), and
    ``fields_error`` (:func:`extension_fields`)."""
    n = pl.col("players")
    first = pl.when(pl.col("game_length").is_not_null()).then(pl.concat_str(
        pl.lit(',"kyoku_first":'),
        pl.when(pl.col("game_length") == "hanchan").then(pl.lit("0")).otherwise(pl.lit("4"))))
    return pl.concat([games, extension_fields(games, hands, numbers)], how="horizontal").select(
        "game", "fields_error",
        game_start=pl.concat_str(pl.lit('{"type":"start_game","names":'), json_value(pl.col("names").list.slice(0, n)),
                            first, pl.lit(',"aka_flag":'), json_bool(pl.col("aka")),
                            pl.lit(f',"{EXTENSION}":{{'), pl.col("fields"), pl.lit("}}\n"), ignore_nulls=True),
        game_end=pl.concat_str(pl.lit('{"type":"end_game"'), pl.when(pl.col("final_scores").is_not_null()).then(
            pl.concat_str(pl.lit(',"scores":'), json_ints(pl.col("final_scores").list.slice(0, n)))),
            pl.lit("}\n"), ignore_nulls=True))


def sorted_tables(tables: LogTables) -> LogTables:
    """The tables in their keys' order (the readers give them so; sorted where one does not)."""
    def ordered(frame: pl.DataFrame, keys: tuple[str, ...]) -> pl.DataFrame:
        key = pl.lit(0, pl.Int64)
        for name in keys:  # every key is below 2**16 but the game number: one Int64 in the keys' order
            key = key * (1 << 16) + pl.col(name).cast(pl.Int64)
        if frame.height < 2 or frame.select(key.diff().min() >= 0).item():
            return frame
        return frame.sort(keys, maintain_order=True)

    return LogTables(ordered(tables.games, ("game",)), ordered(tables.hands, HAND_KEY),
                     ordered(tables.events, (*HAND_KEY, "seq")), ordered(tables.outcomes, (*HAND_KEY, "outcome")))


def _patch(text: pl.Series, rows, before: pl.Series | None = None, after: pl.Series | None = None) -> pl.Series:
    """``text`` with ``before`` put before and ``after`` after its values at ``rows`` (nulls: nothing)."""
    pieces = [p for p in (before, text.gather(rows), after) if p is not None]
    joined = pl.DataFrame({str(i): p for i, p in enumerate(pieces)}).select(
        pl.concat_str(pl.all(), ignore_nulls=True)).to_series()
    return text.scatter(rows, joined)


def mjai_texts(tables: LogTables, numbers: pl.DataFrame | None = None) -> GameTexts:
    """The mjai file of every game of ``tables``, byte for byte :func:`.write.game_to_mjai`'s lines (see the
    module docstring); ``numbers`` as :func:`extension_fields` reads it."""
    tables = sorted_tables(tables)
    games, hands = tables.games, tables.hands
    events, players = tables.events.lazy(), games.lazy().select("game", "players")
    base = line_codes(events).select(*HAND_KEY, "seq", "code").collect()
    calls = call_lines(events).collect()
    revealed, left = kan_doras(events, hands.lazy())
    revealed, shown = revealed.collect(), dora_lines(events, hands.lazy()).collect()
    starts = hand_starts(hands.lazy(), players).collect()
    per_game = game_lines(games, hands, numbers)
    ends = (hands.lazy().select(*HAND_KEY).join(left, on=HAND_KEY, how="left")
            .join(outcome_lines(tables.outcomes.lazy(), players), on=HAND_KEY, how="left")
            .select(*HAND_KEY, kyoku_end=pl.concat_str(pl.col("left"), pl.col("outcomes"),
                                                       pl.lit('{"type":"end_kyoku"}\n'), ignore_nulls=True))
            .collect())
    text = base.select(lookup(SIMPLE_LINES, pl.col("code"))).to_series()
    for patch in (calls, revealed, shown):
        if patch.height:
            text = text.scatter(patch["row"], patch["line"])
    first, last = hand_bounds(base)
    at = (base[first].select(*HAND_KEY)
          .with_columns(game_first=pl.col("game") != pl.col("game").shift(1).fill_null(-1),
                        game_last=pl.col("game") != pl.col("game").shift(-1).fill_null(-1))
          .join(starts, on=HAND_KEY, how="left", maintain_order="left")
          .join(ends, on=HAND_KEY, how="left", maintain_order="left")
          .join(per_game, on="game", how="left", maintain_order="left"))
    before = at.select(pl.concat_str(pl.when(pl.col("game_first")).then(pl.col("game_start")),
                                     pl.col("kyoku_start"), ignore_nulls=True)).to_series()
    after = at.select(pl.concat_str(pl.col("kyoku_end"), pl.when(pl.col("game_last")).then(pl.col("game_end")),
                                    ignore_nulls=True)).to_series()
    if len(first):
        text = _patch(text, first, before=before)
        text = _patch(text, last, after=after)
    errors = [
        per_game.filter(pl.col("fields_error").is_not_null()).select("game", rank=pl.lit(-1, pl.Int64),
                                                                     error="fields_error"),
        starts.filter(pl.col("no_dora")).select("game", rank=pl.col("log_row").cast(pl.Int64) * ROW_RANK,
                                                error=pl.lit(NO_DORA)),
        calls.filter(pl.col("missing")).join(base.with_row_index("row"), on="row").select(
            "game", rank=pl.col("log_row").cast(pl.Int64) * ROW_RANK + pl.col("seq"), error=pl.lit(CALLED_MISSING)),
    ]
    alone = dict(zip(per_game["game"].to_list(),
                     per_game.select(pl.concat_str("game_start", "game_end")).to_series().to_list()))
    return GameTexts.of_rows(text, base["game"].to_numpy(), games, first_error(errors, games), alone)
