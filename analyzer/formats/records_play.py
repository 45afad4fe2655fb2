"""What the hand records take from the play of each hand, from the events table of the log tables: the
stages of :mod:`.records_from_tables` that replay the hands as columns (what :func:`.replay.replay` does one
event at a time). Every stage is a ``LazyFrame -> LazyFrame`` of joins, group-bys and shifts; the events come
sorted by game, ``log_row`` and ``seq`` (:func:`.records_from_tables.sorted_events` sees to it), and hands
and seats are keyed by one integer each (``hand_id``, ``seat_key``: :func:`hand_key`) for fast group-bys.

The game model's event list of a hand is the events table's rows but the deal (``haipai``), the dora
indicators shown at the start, the riichi declarations (a flag of the declaring discard there) and the outcome
rows. A ron on the hand's last event when that is a call or a north set aside is a ron on a robbed kan (or
north): the replay leaves that event out (``robbed``)."""

from __future__ import annotations

import polars as pl

from analyzer.formats.records_segments import run_totals
from analyzer.formats.records_tiles import terminal_or_honour

HAND = ("game", "log_row")
SEAT_KEY = (*HAND, "seat")
FROM_DISCARD = ("chi", "pon", "minkan")
MELDS = ("chi", "pon", "minkan", "kakan", "ankan")
KANS = ("minkan", "kakan", "ankan")
PLAYS = ("draw", "discard", *MELDS, "kita")  # what a seat does with its tiles
MODEL_ONLY = ("riichi_accepted", "dora")
RESULTS = ("ron", "tsumo", "exhaustive_draw", "abort")
SEATS = range(4)
ROW_BITS = 16  # log_row and seq are Int16

_event = pl.col("event")
_seq = pl.col("seq")


def hand_key() -> pl.Expr:
    """``hand_id``: one Int64 per hand (its game and ``log_row``)."""
    return (pl.col("game").cast(pl.Int64) * 2**ROW_BITS + pl.col("log_row").cast(pl.Int64)).alias("hand_id")


def seat_key(seat: str = "seat") -> pl.Expr:
    """``seat_key``: one Int64 per hand and seat."""
    return pl.col("hand_id") * 4 + pl.col(seat).cast(pl.Int64)


def from_seat_key() -> list[pl.Expr]:
    """``hand_id`` and ``seat`` back from ``seat_key``."""
    return [(pl.col("seat_key") // 4).alias("hand_id"), (pl.col("seat_key") % 4).cast(pl.Int8).alias("seat")]


def _same_hand(shift: int) -> pl.Expr:
    return (pl.col("hand_id").shift(shift) == pl.col("hand_id")).fill_null(False)


def model_rows(events: pl.LazyFrame) -> pl.LazyFrame:
    """The rows of the model's event lists (plays, riichi accepted, kan dora), in hand and ``seq`` order, without
    the calls' ``tiles`` (:func:`with_call_tiles`).

    Adds ``hand_id``, ``riichi`` (a discard that declared riichi) and ``robbed`` (the hand's last event, a call or
    a north set aside, when the hand's first result row is a ron: a robbed kan or north, left out)."""
    rows = events.select("game", "log_row", "seq", "seat", "event", "tile", "from_seat", hand_key())
    seen = (~_event.is_in(["haipai", "dora"])).cast(pl.Int32).cum_sum()  # grows once a play or result is seen
    start_dora = (_event == "dora") & (seen == pl.when(_seq == 1).then(seen).forward_fill())
    rows = rows.with_columns(
        riichi=(_event == "discard") & (_event.shift(1) == "riichi_declared").fill_null(False),
        _model=_event.is_in([*PLAYS, *MODEL_ONLY]) & ~start_dora,
    ).filter(pl.col("_model") | _event.is_in(RESULTS))
    return rows.with_columns(
        robbed=pl.col("_model") & _event.is_in([*MELDS, "kita"]) & (_event.shift(-1) == "ron").fill_null(False)
        & _same_hand(-1),
    ).filter(pl.col("_model")).drop("_model")


def with_call_tiles(calls: pl.LazyFrame, events: pl.LazyFrame) -> pl.LazyFrame:
    """Calls (a few rows a hand) with their ``tiles`` from the events: the big tables go without that list."""
    tiles = events.filter(_event.is_in(MELDS)).select(hand_key(), "seq", "tiles")
    return calls.join(tiles, on=["hand_id", "seq"], how="left")


def play_rows(model: pl.LazyFrame) -> pl.LazyFrame:
    """The plays of :func:`model_rows` (draws, discards, calls, norths set aside): adds ``seat_key``,
    ``rinshan`` (a draw right after the seat's own kan or north set aside) and ``after``, ``after_tile`` (the
    previous play of the hand: what a call is made on)."""
    before = {name: pl.when(_same_hand(1)).then(pl.col(name).shift(1)) for name in ("event", "seat", "tile")}
    return model.filter(_event.is_in(PLAYS)).with_columns(
        seat_key=seat_key(),
        rinshan=((_event == "draw") & before["event"].is_in([*KANS, "kita"])
                 & (before["seat"] == pl.col("seat"))).fill_null(False),
        after=before["event"], after_tile=before["tile"],
    )


def shown_rows(model: pl.LazyFrame) -> pl.LazyFrame:
    """The riichi sticks accepted and the kan dora of :func:`model_rows`."""
    return model.filter(_event.is_in(MODEL_ONLY)).select("hand_id", "seq", "seat", "event", "tile")


def effective(play: pl.LazyFrame) -> pl.LazyFrame:
    """The rows the replay plays: all but a robbed kan or north."""
    return play.filter(~pl.col("robbed"))


def call_rows(play: pl.LazyFrame) -> pl.LazyFrame:
    """The calls and norths set aside that the replay plays (a few rows a hand)."""
    return effective(play).filter(_event.is_in([*MELDS, "kita"]))


def seat_facts(play: pl.LazyFrame, states: pl.LazyFrame) -> pl.LazyFrame:
    """One row per hand and seat that played (``hand_id``, ``seat``): ``draws``, ``discards``, ``calls`` (chi, pon,
    open and added kans: a robbed added kan too), ``kita``, ``opened`` (an open meld), ``ippatsu`` (its riichi
    discard is its last and no call or north followed it), ``double_riichi`` (its riichi discard was its
    first, before any call), ``nagashi`` (it discarded, only terminals and honours, none of them called);
    ``states`` the seats' rows in seat order (:func:`.records_hands.seat_states`)."""
    discard = _event == "discard"
    per_seat = run_totals(
        states, "seat_key",
        sums={"draws": _event == "draw", "discards": discard,
              "plain_discards": discard & ~terminal_or_honour(pl.col("tile"))},
        lasts={"last_discard": (discard, _seq), "riichi_discard": (discard & pl.col("riichi"), _seq)},
        firsts={"first_discard": (discard, _seq)},
    ).with_columns(from_seat_key())
    calls = call_rows(play)
    by_hand = calls.group_by("hand_id").agg(first_call=_seq.min(), last_call=_seq.max())
    by_seat = calls.group_by("seat_key").agg(
        calls=_event.is_in(["chi", "pon", "minkan", "kakan"]).sum(), kita=(_event == "kita").sum(),
        opened=_event.is_in(FROM_DISCARD).any())
    robbed_kakan = (play.filter(pl.col("robbed") & (_event == "kakan")).group_by("seat_key")
                    .agg(robbed_calls=pl.len().cast(pl.UInt32)))
    called_from = (calls.filter(_event.is_in(FROM_DISCARD)).select(seat_key=seat_key("from_seat")).unique()
                   .with_columns(called=pl.lit(True)))
    riichi = pl.col("riichi_discard")
    return (per_seat.join(by_hand, on="hand_id", how="left").join(by_seat, on="seat_key", how="left")
            .join(called_from, on="seat_key", how="left").join(robbed_kakan, on="seat_key", how="left")
            .select(
                "hand_id", "seat", "draws", "discards", kita=pl.col("kita").fill_null(0),
                opened=pl.col("opened").fill_null(False),
                calls=pl.col("calls").fill_null(0) + pl.col("robbed_calls").fill_null(0),
                ippatsu=((riichi == pl.col("last_discard"))
                         & (pl.col("last_call").is_null() | (pl.col("last_call") < riichi))).fill_null(False),
                double_riichi=((riichi == pl.col("first_discard"))
                               & (pl.col("first_call").is_null() | (pl.col("first_call") > riichi))).fill_null(False),
                nagashi=(pl.col("discards") > 0) & (pl.col("plain_discards") == 0) & pl.col("called").is_null(),
            ))


def riichi_turns(events: pl.LazyFrame) -> pl.LazyFrame:
    """One row per hand and seat that declared riichi: ``riichi_turn``, the turn of its last declaration."""
    return (events.filter(_event == "riichi_declared").select(hand_key(), "seat", "seq", "turn")
            .group_by("hand_id", "seat").agg(riichi_turn=pl.col("turn").sort_by("seq").last()))


def by_seat(frame: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    """One row per hand from one per hand and seat: ``NAME_0..NAME_3`` for every name of ``names``."""
    return frame.group_by("hand_id").agg(
        pl.col(name).filter(pl.col("seat") == s).first().alias(f"{name}_{s}") for name in names for s in SEATS)


def at_seat(name: str, seat: pl.Expr) -> pl.Expr:
    """The value of ``NAME_0..NAME_3`` at the seat a column names (null when it names none)."""
    picked = pl.when(seat == 0).then(pl.col(f"{name}_0"))
    for s in SEATS[1:]:
        picked = picked.when(seat == s).then(pl.col(f"{name}_{s}"))
    return picked


def hand_facts(play: pl.LazyFrame, shown: pl.LazyFrame, seats: pl.LazyFrame, hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per hand of ``hands`` (with its ``hand_id`` key): ``draws``, ``calls_made`` (calls and norths set
    aside), ``any_call``, the hand's last draw or discard (``last_event``, ``last_seat``, ``last_tile``,
    ``last_rinshan``, ``last_seq``) and ``calls_after`` it, ``dora_shown`` (the start's indicators and the kan
    dora), ``riichi`` (the seats whose riichi was accepted, in order, as text), the robbed kan or north
    (``robbed_event``, ``robbed_seat``, ``robbed_tile``)."""
    done = effective(play).filter(_event.is_in(["draw", "discard"]))
    last = done.filter(pl.col("hand_id") != pl.col("hand_id").shift(-1).fill_null(-1)).select(
        "hand_id", last_event=_event.cast(pl.String), last_seat="seat", last_tile="tile", last_rinshan="rinshan",
        last_seq="seq")
    calls = call_rows(play).join(last.select("hand_id", "last_seq"), on="hand_id", how="left").group_by("hand_id").agg(
        calls_made=pl.len(), calls_after=(_seq > pl.col("last_seq")).sum())
    draws = seats.group_by("hand_id").agg(draws=pl.col("draws").sum())
    extra = shown.group_by("hand_id").agg(
        kan_dora=pl.col("tile").filter(_event == "dora").sort_by(_seq.filter(_event == "dora")),
        accepted=pl.col("seat").filter(_event == "riichi_accepted")
        .sort_by(_seq.filter(_event == "riichi_accepted")).cast(pl.String),
    )
    robbed = play.filter(pl.col("robbed")).select("hand_id", robbed_event=_event.cast(pl.String), robbed_seat="seat",
                                                  robbed_tile="tile")
    return (hands.select("hand_id", *HAND, "kyoku", "honba", "kyotaku", "players", dora_start="dora")
            .join(draws, on="hand_id", how="left").join(last, on="hand_id", how="left")
            .join(calls, on="hand_id", how="left").join(extra, on="hand_id", how="left")
            .join(robbed, on="hand_id", how="left")
            .with_columns(
                pl.col("draws", "calls_made", "calls_after").fill_null(0),
                any_call=pl.col("calls_made").fill_null(0) > 0,
                dora_shown=pl.concat_list("dora_start", pl.col("kan_dora").fill_null([])),
                riichi=pl.col("accepted").fill_null([]),
            ).drop("dora_start", "kan_dora", "accepted"))
