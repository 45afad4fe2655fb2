"""The hand records of the log tables (:mod:`.log_tables`): one path for every format, group-bys, joins and
window expressions over the events and outcomes instead of a replay per hand.

The stages, each a ``LazyFrame -> LazyFrame`` that says which columns it adds:

1. :func:`.records_play.model_rows`, :func:`~.records_play.play_rows`, :func:`~.records_play.shown_rows`: the
   game model's event lists out of the events table (riichi discards, rinshan draws, a robbed kan or north);
2. :func:`.records_play.seat_facts` and :func:`~.records_play.riichi_turns`: per hand and seat (discards,
   calls, ippatsu and double riichi, nagashi, the riichi turn), as ``NAME_0..3`` per hand
   (:func:`~.records_play.by_seat`); :func:`~.records_play.hand_facts`: per hand (draws, calls, the last
   draw or discard, the dora shown, the riichi sticks accepted);
3. :func:`.records_hands.seat_states`, :func:`~.records_hands.concealed`, :func:`~.records_hands.seat_melds`:
   each seat's concealed tiles and melds at the end; :func:`~.records_hands.replay_errors`;
4. :func:`.records_rows.hand_rows`: the rows, their columns and the errors of the old path;
5. :func:`.records_games.game_columns`: the per-game columns (names, rules, identity), in Python per game.

A game the old path refuses (:class:`.model.LogError` from :func:`.rows.game_rows`) has no rows here, and its
reason is in :attr:`TableRecords.errors`, the same words; the notes of every game in :attr:`TableRecords.notes`.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analyzer.formats.columns import COLUMNS
from analyzer.formats.log_tables import LogTables
from analyzer.formats.model import Note
from analyzer.formats.records_games import LAST_ROW, game_columns
from analyzer.formats.records_hands import concealed, replay_errors, seat_melds, seat_states
from analyzer.formats.records_play import (HAND, by_seat, hand_facts, hand_key, model_rows, play_rows,
                                           riichi_turns, seat_facts, shown_rows)
from analyzer.formats.records_rows import SEAT_NAMES, ROUND_WINDS, hand_rows, outcome_rows

# the in-memory engine: the stages sort, shift and sum running values over rows in order, which it keeps
ENGINE = "in-memory"
NO_RESULT = -1  # the rank of a hand without a result: the old path checks it before replaying the hand


@dataclass(frozen=True)
class TableRecords:
    """The hand records of a batch (:data:`.columns.COLUMNS`, games refused left out, rows in game, hand and
    row order), the reason each refused game is refused (by game number) and each game's notes."""

    records: pl.DataFrame
    errors: dict[int, str]
    notes: dict[int, list[Note]]
    games: pl.Series  # per row of records, its game's number


def _round(kyoku: pl.Expr) -> pl.Expr:
    kyoku = kyoku.cast(pl.Int64)
    wind = (kyoku // 4 % 4).replace_strict(dict(enumerate(ROUND_WINDS)), return_dtype=pl.String)
    return pl.concat_str(wind, (kyoku % 4 + 1).cast(pl.String))


def sorted_events(events: pl.DataFrame) -> pl.DataFrame:
    """The events in game, ``log_row`` and ``seq`` order, as the stages take them (sorted only when they are not:
    a reader gives them so)."""
    order = pl.col("game").cast(pl.Int64) * 2**32 + pl.col("log_row").cast(pl.Int64) * 2**16 + pl.col("seq")
    if events.height and not events.select(order.diff().drop_nulls().gt(0).all()).item():
        return events.sort("game", "log_row", "seq")
    return events


def record_stages(tables: LogTables) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """The rows of every hand with outcomes (:func:`.records_rows.hand_rows`) and the hands' errors (``game``,
    ``log_row``, ``message``: the old path's, the first of the hand by rank), lazily. The tables the later
    stages share (the plays, the seats' hands, the seats' facts) are computed here once."""
    events = sorted_events(tables.events.select(EVENT_COLUMNS)).lazy()
    hands = tables.hands.lazy().with_columns(hand_key())
    outcomes = tables.outcomes.lazy()
    model = model_rows(events)
    play, shown = (frame.lazy() for frame in pl.collect_all([play_rows(model), shown_rows(model)], engine=ENGINE))
    states = seat_states(events, play).collect(engine=ENGINE).lazy()
    seats = seat_facts(play, states).join(riichi_turns(events), on=["hand_id", "seat"], how="full",
                                          coalesce=True).collect(engine=ENGINE).lazy()
    facts = hand_facts(play, shown, seats, hands).join(by_seat(seats, list(SEAT_NAMES)), on="hand_id", how="left")
    held, melds, facts, replay = (frame.lazy() for frame in pl.collect_all(
        [concealed(states), seat_melds(play, events), facts, replay_errors(states, events, play)], engine=ENGINE))
    rows = hand_rows(outcome_rows(outcomes, facts).collect(engine=ENGINE).lazy(), held, melds).collect(
        engine=ENGINE).lazy()
    resultless = hands.join(outcomes.with_columns(hand_key()), on="hand_id", how="anti").select(
        "hand_id", rank=pl.lit(NO_RESULT, pl.Int64), message=pl.lit(None, pl.String))
    row_errors = rows.filter(pl.col("error").is_not_null()).select("hand_id", rank="error_rank", message="error")
    errors = pl.concat([resultless, replay, row_errors])
    errors = (errors.sort("hand_id", "rank", maintain_order=True).group_by("hand_id").agg(pl.all().first())
              .join(hands.select("hand_id", *HAND, "kyoku", "honba"), on="hand_id")
              .select(*HAND, message=pl.when(pl.col("rank") == NO_RESULT).then(pl.concat_str(
                  pl.lit("hand "), pl.col("log_row").cast(pl.String), pl.lit(" ("), _round(pl.col("kyoku")),
                  pl.lit(") has no result")))
                  .otherwise(pl.concat_str(pl.lit("hand "), pl.col("log_row").cast(pl.String), pl.lit(" ("),
                                           _round(pl.col("kyoku")), pl.lit("-"), pl.col("honba").cast(pl.String),
                                           pl.lit("): "), pl.col("message"))))
              .sort(*HAND))
    return rows, errors


EVENT_COLUMNS = ("game", "log_row", "seq", "seat", "event", "tile", "tiles", "from_seat", "turn")


def _yaku_notes(rows: pl.DataFrame) -> dict[int, list[Note]]:
    """The notes of unrecognised yaku names kept as ``unknown:NAME``, per game in row order (rare rows)."""
    unknown = rows.filter(pl.col("yaku").list.eval(pl.element().str.starts_with("unknown:")).list.any().fill_null(False)
                          & pl.col("result").is_in(["ron", "tsumo"]))
    notes: dict[int, list[Note]] = {}
    for row in unknown.select("game", "log_row", "round", "honba", "yaku").iter_rows(named=True):
        for name in row["yaku"]:
            if name.startswith("unknown:"):
                notes.setdefault(row["game"], []).append(Note(
                    f"{row['round']}-{row['honba']}: unrecognised yaku name {name[8:]!r} kept as {name!r}",
                    row["log_row"]))
    return notes


def records_of_tables(tables: LogTables) -> TableRecords:
    """The hand records, refusals and notes of ``tables`` (see :class:`TableRecords`)."""
    rows_plan, errors_plan = record_stages(tables)
    rows, errors = pl.collect_all([rows_plan, errors_plan], engine=ENGINE)
    first_hands = tables.hands.filter(pl.col("log_row") == 1)
    per_game, before, after = game_columns(tables.games, first_hands)
    refused: dict[int, str] = {}
    for game, message in errors.select("game", "message").iter_rows():
        refused.setdefault(game, message)
    yaku = _yaku_notes(rows)
    notes = {game: [*before[game], *yaku.get(game, []), *([after[game]] if after[game] else [])]
             for game in before}
    kept = rows.filter(~pl.col("game").is_in(list(refused)))
    last = pl.int_range(pl.len()).over("game") == pl.len().over("game") - 1
    records = (kept.sort("game", "log_row", "position")
               .join(per_game, on="game", how="left", maintain_order="left")
               .with_columns(pl.when(last).then(pl.col(name)).otherwise(None).alias(name) for name in LAST_ROW)
               .with_columns(pl.col("log_row", "honba", "kyotaku").cast(pl.Int64)))
    present = set(records.columns)
    # a column another part of the import adds, not derived here (yet): null, which the equality test shows
    columns = [pl.col(name).cast(dtype) if name in present else pl.lit(None, dtype).alias(name)
               for name, dtype in COLUMNS.items()]
    return TableRecords(records.select(columns), refused, notes, records["game"])


def hand_records(tables: LogTables) -> pl.DataFrame:
    """The hand records of ``tables`` (:data:`.columns.COLUMNS`), the games the old path refuses left out."""
    return records_of_tables(tables).records
