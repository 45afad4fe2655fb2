"""The play statistics' partial sums of one part (:data:`~analyzer.players.columns.PLAY_SUMS`): how each player
plays, from the events of the part's games beside its scored hands and its games table.

One row per hand and seat (:func:`analyzer.play.seats.hand_seats`, the seat's facts of play) is joined to the
hand records' outcome of the hand — the seat's win (its ``points``, ``turn``, ippatsu and dora as recorded),
its deal-in (the ``points`` of every winner together), another seat's tsumo — and every statistic is one
integer expression per row, summed by player. The games' sums (start seat, all-last) are one row per game and
player. Only hands and games that have events count: the ``_play_*`` counts are the denominators, so a player
whose games have no events has every play statistic null, and a run may mix games with and without events.
"""

from __future__ import annotations

import polars as pl

from analyzer.core.schema import PLAYER_COLUMNS, SEATS
from analyzer.play.seats import EVENT_COLUMNS, SEAT, hand_seats
from analyzer.play.state import HAND
from analyzer.players.columns import PLAY_SUMS, PLAY_THRESHOLDS
from analyzer.players.seats import at_seat

# the chasing riichi counts of hands with events, added to those of the turn rule (:mod:`.sums`) by the part
CHASING = {"_chasing_riichi": "_chasing_riichi_events", "_chasing_known": "_chasing_known_events"}
MANGAN = 8000
# the games table's kind of game -> its last scheduled round ("all-last"); other kinds have none known
LAST_ROUNDS = {"4-player hanchan": "S4", "4-player east-only": "E4", "3-player hanchan": "S3",
               "3-player east-only": "E3"}


def _recorded(names: list[str], recorded: str, scored: str) -> pl.Expr:
    """A win's value as recorded, else as scored from its tiles (0 without either)."""
    values = [pl.col(c).cast(pl.Int64, strict=False) for c in (recorded, scored) if c in names]
    return pl.coalesce(*values, pl.lit(0, pl.Int64))


def _has_ippatsu(schema: pl.Schema) -> pl.Expr:
    """The win lists ippatsu among its recorded yaku (a list, or comma-separated text), else among the yaku
    scored from its tiles."""
    found = []
    if "recorded_yaku" in schema:
        listed = (pl.col("recorded_yaku").str.split(",").list.eval(pl.element().str.strip_chars())
                  if schema["recorded_yaku"] == pl.String else pl.col("recorded_yaku").cast(pl.List(pl.String)))
        found.append(listed.list.contains("ippatsu"))
    if "yaku" in schema:
        found.append(pl.col("yaku").list.eval(pl.element().struct.field("name").cast(pl.String))
                     .list.contains("ippatsu"))
    return pl.coalesce(*found, pl.lit(False))


def _hand_outcomes(hands: pl.LazyFrame) -> tuple[pl.LazyFrame, pl.LazyFrame, pl.LazyFrame, pl.LazyFrame]:
    """From the scored hands: the counted hands (a hand's first row, not a chombo), each paid win (by winner
    seat), each deal-in (by the discarder's seat: the points of all its winners) and each paid tsumo (by hand)."""
    schema = hands.collect_schema()
    names = schema.names()
    keys = [pl.col("game_id").cast(pl.String), pl.col("log_row").cast(pl.Int16, strict=False)]
    paid = pl.col("_paid").fill_null(False)
    counted = hands.filter(pl.col("_first") & (pl.col("result") != "chombo")).select(
        *keys, "dealer", pl.col("round").cast(pl.String), *PLAYER_COLUMNS)
    dora = [_recorded(names, f"recorded_{kind}", scored) for kind, scored in
            (("dora", "dora_count"), ("aka_dora", "aka_dora"), ("ura_dora", "ura_dora"))]
    turn = pl.col("turn").cast(pl.Int64, strict=False) if "turn" in names else pl.lit(None, pl.Int64)
    wins = hands.filter(paid & pl.col("result").is_in(["ron", "tsumo"])).select(
        *keys, pl.col("_winner").cast(pl.Int8).alias("seat"), pl.col("points").alias("win_points"),
        turn.alias("win_turn"), _has_ippatsu(schema).alias("ippatsu"), dora[2].alias("ura"),
        pl.sum_horizontal(dora).alias("dora"))
    deal_ins = (hands.filter(paid & (pl.col("result") == "ron"))
                .group_by(*keys, pl.col("_loser").cast(pl.Int8).alias("seat"))
                .agg(pl.col("points").sum().alias("deal_in_points")))
    tsumo = hands.filter(paid & (pl.col("result") == "tsumo")).select(
        *keys, pl.col("_winner").alias("tsumo_winner"), pl.col("points").alias("tsumo_points"))
    return counted, wins, deal_ins, tsumo


def _count(condition: pl.Expr) -> pl.Expr:
    return condition.fill_null(False).cast(pl.Int64)


def _sum_where(condition: pl.Expr, value: pl.Expr) -> pl.Expr:
    return pl.when(condition.fill_null(False)).then(value.cast(pl.Int64)).otherwise(0).fill_null(0)


def _seat_sums() -> dict[str, pl.Expr]:
    """What one (hand, seat) row adds to each per-hand play sum."""
    riichi = pl.col("riichi_accepted").fill_null(False)
    won, dealt_in = pl.col("win_points").is_not_null(), pl.col("deal_in_points").is_not_null()
    riichi_win = riichi & won
    opened = pl.col("calls") > 0
    hit = pl.col("tsumo_winner").is_not_null() & (pl.col("tsumo_winner") != pl.col("seat"))
    dealer_hit = hit & (pl.col("dealer") == pl.col("seat"))
    turn_known = pl.col("win_turn").is_not_null()
    win_kinds = {"riichi": riichi_win, "open": won & opened, "dama": won & ~opened & ~riichi}
    return {
        "_play_hands": pl.lit(1, pl.Int64),
        "_play_riichi": _count(riichi),
        "_riichi_first": _count(riichi & pl.col("riichi_first")),
        "_riichi_chased": _count(riichi & pl.col("riichi_chased")),
        "_chasing_riichi_events": _count(riichi & ~pl.col("riichi_first")),
        "_chasing_known_events": _count(riichi),
        "_play_riichi_wins": _count(riichi_win),
        "_ippatsu_wins": _count(riichi_win & pl.col("ippatsu")),
        "_ura_wins": _count(riichi_win & (pl.col("ura") > 0)),
        "_riichi_balance_sum": _sum_where(riichi, pl.col("score_change")),
        "_riichi_balance_hands": _count(riichi & pl.col("score_change").is_not_null()),
        "riichi_declaration_deal_ins": _count(pl.col("riichi_seq").is_not_null() & ~riichi & dealt_in),
        "_riichi_waits_sum": _sum_where(riichi, pl.col("riichi_waits")),
        "_riichi_multi_wait": _count(riichi & (pl.col("riichi_waits") >= 2)),
        "_riichi_wait_left_sum": _sum_where(riichi, pl.col("riichi_wait_left")),
        "_riichi_good_shape": _count(riichi & (pl.col("riichi_wait_left") >= 6)),
        "_riichi_furiten": _count(riichi & pl.col("riichi_furiten")),
        "_play_deal_ins": _count(dealt_in),
        "_deal_in_shanten_sum": _sum_where(dealt_in, pl.col("deal_in_shanten")),
        "_deal_in_tenpai": _count(dealt_in & (pl.col("deal_in_shanten") == 0)),
        **{f"_deal_in_{t}": _count(pl.col("deal_in_points") >= t) for t in PLAY_THRESHOLDS},
        "_play_wins": _count(won),
        **{f"_win_{t}": _count(pl.col("win_points") >= t) for t in PLAY_THRESHOLDS},
        "_dora_sum": _sum_where(won, pl.col("dora")),
        "_start_shanten_sum": pl.col("start_shanten").cast(pl.Int64).fill_null(0),
        "tsumo_hits": _count(hit),
        "_dealer_tsumo_hits": _count(dealer_hit),
        "_dealer_tsumo_hit_mangan": _count(dealer_hit & (pl.col("tsumo_points") >= MANGAN)),
        "_first_call_hands": _count(pl.col("first_call_turn").is_not_null()),
        "_first_call_turn_sum": pl.col("first_call_turn").cast(pl.Int64).fill_null(0),
        "_play_calls": pl.col("calls").cast(pl.Int64),
        "_ippatsu_cancels": pl.col("ippatsu_cancels").cast(pl.Int64),
        "_kan_hands": _count(pl.col("kans") > 0),
        **{name: expr for kind, condition in win_kinds.items() for name, expr in (
            (f"_{kind}_win_turn_sum", _sum_where(condition & turn_known, pl.col("win_turn"))),
            (f"_{kind}_win_turn_known", _count(condition & turn_known)))},
    }


def _game_sums(games: pl.LazyFrame, entered: pl.LazyFrame) -> pl.LazyFrame:
    """Per player, the sums of the games that have events: games and places by start seat, and the all-last
    counts (``entered``: each game's seats' places entering its last scheduled round, and the seats dealt)."""
    place, seat = pl.col("place"), pl.col("seat")
    into = pl.col("start_place")
    last = pl.col("seats_dealt")
    reached = games.join(entered, on=["game_id", "seat"], how="left")
    return reached.select(
        "player",
        pl.lit(1, pl.Int64).alias("_play_games"),
        *[c for s in SEATS for c in (_count(seat == s).alias(f"_games_seat_{s}"),
                                     _sum_where(seat == s, place).alias(f"_place_sum_seat_{s}"))],
        _count(into.is_not_null()).alias("all_last_games"),
        _count(into == 1).alias("_all_last_entered_first"),
        _count((into == 1) & (place == 1)).alias("_all_last_kept_first"),
        _count(into >= 2).alias("_all_last_entered_lower"),
        _count((into >= 2) & (place == 1)).alias("_all_last_comebacks"),
        _count(into == last).alias("_all_last_entered_last"),
        _count((into == last) & (place < last)).alias("_all_last_avoided_last"),
    ).group_by("player").agg(pl.all().sum())


def _last_rounds(games: pl.LazyFrame, hands: pl.LazyFrame) -> pl.LazyFrame:
    """``game_id``, ``_last``: each game's last scheduled round, by the games table's kind of game (the score
    run's), else by the hand records' ``game_length`` and seats (imported logs); null where neither says."""
    if "kind" in games.collect_schema().names():
        return games.select("game_id", pl.col("kind").replace_strict(LAST_ROUNDS, default=None).alias("_last"))
    if "game_length" not in hands.collect_schema().names():
        return games.select("game_id", pl.lit(None, pl.String).alias("_last"))
    wind = pl.col("game_length").cast(pl.String).replace_strict({"hanchan": "S", "tonpuu": "E"}, default=None)
    seats = pl.when(pl.col("player_3").is_null()).then(pl.lit("3")).otherwise(pl.lit("4"))
    return hands.filter(pl.col("_first")).select(pl.col("game_id").cast(pl.String), (wind + seats).alias("_last"))


def _all_last_entries(last_rounds: pl.LazyFrame, counted: pl.LazyFrame, seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per game that reached its last scheduled round (``last_rounds``: :func:`_last_rounds`) and seat: the
    seat's place entering the round's first hand, and the seats dealt in it."""
    first = (counted.join(last_rounds.unique("game_id"), on="game_id").filter(pl.col("round") == pl.col("_last"))
             .group_by("game_id").agg(pl.col("log_row").min()))
    return seats.join(first, on=list(HAND)).select(
        "game_id", pl.col("seat").cast(pl.Int64), "start_place", pl.len().over("game_id").alias("seats_dealt"))


def play_partials(hands: pl.LazyFrame, games: pl.LazyFrame, events: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame:
    """Per player of the part: the :data:`PLAY_SUMS` of its hands and games that have events, and the chasing
    riichi counts of those hands (:data:`CHASING`). ``hands``: the part's scored hands; ``games``: its games
    table; ``events``: the events of its games (whole games)."""
    frame = events.lazy()
    available = frame.collect_schema().names()
    return play_sums(hands, games, hand_seats(frame.select(c for c in EVENT_COLUMNS if c in available).collect()))


def play_sums(hands: pl.LazyFrame, games: pl.LazyFrame, seats: pl.DataFrame) -> pl.LazyFrame:
    """:func:`play_partials` from the events' ``hand_seats`` table."""
    seats = seats.lazy()
    counted, wins, deal_ins, tsumo = _hand_outcomes(hands)
    sums = _seat_sums()
    per_hand = (counted.join(seats, on=list(HAND))
                .join(wins, on=list(SEAT), how="left").join(deal_ins, on=list(SEAT), how="left")
                .join(tsumo, on=list(HAND), how="left")
                .select(at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("seat")).alias("player"),
                        *[e.alias(n) for n, e in sums.items()])
                .group_by("player").agg(pl.all().sum()))
    event_games = seats.select("game_id").unique()
    played = games.join(event_games, on="game_id", how="semi")
    per_game = _game_sums(played, _all_last_entries(_last_rounds(played, hands), counted, seats))
    columns = [*PLAY_SUMS, *CHASING.values()]
    return (per_game.join(per_hand, on="player", how="full", coalesce=True)
            .select("player", *[pl.col(c).fill_null(0).cast(pl.Int64) for c in columns]))
