"""The seats' tiles at the end of each hand, from the plays (:func:`.records_play.play_rows`) and the deal: the
concealed tiles, the melds, and the replay errors of tiles that are not there to play (what
:func:`.replay.replay` raises as it removes them).

A seat's concealed tiles are two words of counts (:func:`.records_tiles.tile_words`): the deal, then each
play's tiles in or out (a draw's in, a discard's, an added kan's or a north's out, a call's called tile in and
its tiles out, a closed kan's out). Sorted by hand, seat and ``seq``, the running sum of the words is the
seat's hand after each play (a cumulative sum less its value before the seat's first row), and a play that
takes a tile the hand before it does not hold is the replay's error."""

from __future__ import annotations

import polars as pl

from analyzer.formats.log_tables import EVENTS, TILE
from analyzer.formats.records_play import (FROM_DISCARD, effective, from_seat_key, hand_key, seat_key,
                                           with_call_tiles)
from analyzer.formats.events import TILES
from analyzer.formats.records_segments import run_totals
from analyzer.formats.records_tiles import (KIND_OF_TEXT, KIND_TEXT, add_words, added_count, count_in, kind,
                                            tile_text, tile_words, with_tiles_text)

_event = pl.col("event")
_seq = pl.col("seq")
EVENT = EVENTS["event"]
TAKEN = {"discard": "discards", "kakan": "kakan adds", "ankan": "ankan uses", "kita": "sets aside",
         **{mk: f"{mk} uses" for mk in FROM_DISCARD}}
FOUR_AT_MOST_ERROR = 1 << 20  # ranks of a hand's errors (the first, lowest, is the old path's): after the play's
SEQ_BITS = 16
KINDS = 34


def _summed(frame: pl.LazyFrame, keys: list[str], sign: int = 1) -> pl.LazyFrame:
    """Rows of ``keys`` and ``tile`` summed to words ``d_low``, ``d_high`` per key (times ``sign``)."""
    low, high = tile_words(pl.col("tile"))
    # the words are columns before the group-by: an aggregation of a gather has no type on no rows
    return frame.with_columns(d_low=low * sign, d_high=high * sign).group_by(keys).agg(
        pl.col("d_low", "d_high").sum())


def _dealt_words(events: pl.LazyFrame) -> pl.LazyFrame:
    """One row per seat dealt: ``seat_key``, ``seq`` (its deal row's), ``d_low``, ``d_high``: its deal as words
    (the deal's tiles exploded in order, summed per run of a seat)."""
    low, high = tile_words(pl.col("tile"))
    tiles = dealt_tiles(events).with_columns(seat_key=seat_key())
    words = run_totals(tiles, "seat_key", {"d_low": low, "d_high": high}, lasts={"seq": (pl.lit(True), _seq)})
    return words.with_columns(pl.col("seq").cast(pl.Int16))


def dealt_tiles(events: pl.LazyFrame) -> pl.LazyFrame:
    """One row per tile dealt: ``hand_id``, ``seat``, ``seq`` (its deal row's), ``tile``."""
    return (events.filter(_event == "haipai").select(hand_key(), "seat", "seq", tile="tiles").explode("tile")
            .drop_nulls("tile"))


def seat_states(events: pl.LazyFrame, play: pl.LazyFrame) -> pl.LazyFrame:
    """One row per deal and per play of a seat, sorted by ``seat_key`` and ``seq``: ``event``, ``tile``,
    ``d_low``, ``d_high`` (its tiles in less out, as words) and ``low``, ``high`` (the seat's hand after it)."""
    done = effective(play)
    dealt = _dealt_words(events).with_columns(event=pl.lit("haipai", EVENT), tile=pl.lit(None, TILE),
                                               riichi=pl.lit(False))
    low, high = tile_words(pl.col("tile"))
    sign = pl.when(_event == "draw").then(1).otherwise(-1)
    single = done.filter(_event.is_in(["draw", "discard", "kakan", "kita"])).select(
        "seat_key", "seq", "event", "tile", "riichi", d_low=low * sign, d_high=high * sign)
    listed = with_call_tiles(done.filter(_event.is_in([*FROM_DISCARD, "ankan"])), events)
    used = _summed(listed.select("seat_key", "seq", tile="tiles").explode("tile"), ["seat_key", "seq"], -1)
    calls = listed.select("seat_key", "seq", "event", "tile", "riichi").join(used, on=["seat_key", "seq"], how="left").with_columns(
        d_low=pl.col("d_low") + pl.when(_event != "ankan").then(low).otherwise(0),
        d_high=pl.col("d_high") + pl.when(_event != "ankan").then(high).otherwise(0))
    columns = ["seat_key", "seq", "event", "tile", "riichi", "d_low", "d_high"]
    rows = pl.concat([frame.select(columns) for frame in (dealt, single, calls)]).sort(
        pl.col("seat_key") * 2**SEQ_BITS + pl.col("seq").cast(pl.Int64))
    start = pl.col("seat_key") != pl.col("seat_key").shift(1).fill_null(-1)

    def running(value: str) -> pl.Expr:
        total = pl.col(value).cum_sum()  # wraps around over many hands: the differences are exact
        return total - pl.when(start).then(total - pl.col(value)).forward_fill()

    return rows.with_columns(low=running("d_low"), high=running("d_high"))


def concealed(states: pl.LazyFrame) -> pl.LazyFrame:
    """One row per hand and seat dealt (``hand_id``, ``seat``, ``seat_key``): ``low``, ``high``, its concealed
    tiles at the end of the hand as words."""
    return (states.filter(pl.col("seat_key") != pl.col("seat_key").shift(-1).fill_null(-1))
            .select("seat_key", *from_seat_key(), "low", "high"))


def _message(seat: pl.Expr, text: str, tile: pl.Expr, tail: str) -> pl.Expr:
    return pl.concat_str(pl.lit("replay failed: seat "), seat.cast(pl.String), pl.lit(f" {text}"), tile_text(tile),
                         pl.lit(tail))


def replay_errors(states: pl.LazyFrame, events: pl.LazyFrame, play: pl.LazyFrame) -> pl.LazyFrame:
    """The replay's errors (``hand_id``, ``rank``: its place in play, ``seq`` then what the replay checks first;
    ``message``): a call on a tile that was not just discarded, a tile taken that is not in the hand, an added
    kan without its pon, more than four of a kind dealt and drawn."""
    before_low, before_high = pl.col("low") - pl.col("d_low"), pl.col("high") - pl.col("d_high")
    single = states.filter(_event.is_in(["discard", "kakan", "kita"])
                           & (count_in(before_low, before_high, pl.col("tile")) < 1))
    calls = states.filter(_event.is_in([*FROM_DISCARD, "ankan"])).select(
        "seat_key", "seq", "event", called="tile", low=before_low, high=before_high)
    needed = (with_call_tiles(calls.with_columns(from_seat_key()), events).explode("tiles")
              .group_by("seat_key", "seq", "event", "called", "low", "high", tile="tiles")
              .agg(need=pl.len().cast(pl.Int64)))
    # the called tile comes in before the meld's tiles go out (a closed kan calls none)
    short = needed.filter(pl.col("need") > count_in(pl.col("low"), pl.col("high"), pl.col("tile"))
                          + ((pl.col("tile") == pl.col("called")) & (_event != "ankan")).cast(pl.Int64))
    columns = ["seat_key", "seq", "event", "tile"]
    taken = pl.concat([single.select(columns), short.select(columns)]).select(
        *from_seat_key(), rank=_seq.cast(pl.Int64) * 4 + 1, message=pl.concat_str(
            pl.lit("replay failed: seat "), (pl.col("seat_key") % 4).cast(pl.String), pl.lit(" "),
            _event.cast(pl.String).replace_strict(TAKEN, default="takes"), pl.lit(" "), tile_text(pl.col("tile")),
            pl.lit(" not in hand")), _tile=pl.col("tile").to_physical())
    taken = taken.sort("rank", "_tile").select("hand_id", "rank", "message")
    done = effective(play)
    on_discard = (pl.col("after") == "discard") & (pl.col("after_tile") == pl.col("tile"))
    not_discarded = done.filter(_event.is_in(FROM_DISCARD) & ~on_discard.fill_null(False)).select(
        "hand_id", rank=_seq.cast(pl.Int64) * 4,
        message=_message(pl.col("seat"), "calls ", pl.col("tile"), " that was not just discarded"))
    pons = done.filter(_event == "pon").select("seat_key", kind=kind(pl.col("tile")), pon_seq="seq")
    kakans = done.filter(_event == "kakan").select("hand_id", "seat_key", "seat", "seq", "tile", kind=kind(pl.col("tile")))
    no_pon = (kakans.join(pons, on=["seat_key", "kind"], how="left")
              .group_by("hand_id", "seat", "seq", "tile").agg(found=(pl.col("pon_seq") < _seq).any())
              .filter(~pl.col("found").fill_null(False))
              .select("hand_id", rank=_seq.cast(pl.Int64) * 4 + 2,
                      message=_message(pl.col("seat"), "kakan ", pl.col("tile"), " without a pon")))
    over = _more_than_four(events)
    return pl.concat([taken, not_discarded, no_pon, over])


def _more_than_four(events: pl.LazyFrame) -> pl.LazyFrame:
    """The hands with more than four of a kind dealt and drawn (``hand_id``, ``rank``, ``message``): the deal's
    tiles and the draws (each in hand order) as count words summed per hand."""
    words = add_words(pl.col("tile"))
    dealt = run_totals(dealt_tiles(events), "hand_id", words)
    drawn = run_totals(events.filter(_event == "draw").select(hand_key(), "tile"), "hand_id", words)
    names = list(words)
    added = (pl.concat([dealt, drawn]).group_by("hand_id").agg(pl.col(names).sum()))
    codes = {k: [c for c, t in enumerate(TILES) if KIND_OF_TEXT[t] == k] for k in range(KINDS)}
    counts = {k: pl.sum_horizontal(added_count(c) for c in codes[k]) for k in range(KINDS)}
    over = pl.concat_list([pl.when(counts[k] > 4).then(pl.lit(KIND_TEXT[k])) for k in range(KINDS)]).list.drop_nulls()
    return (added.select("hand_id", kinds=over.list.sort()).filter(pl.col("kinds").list.len() > 0)
            .select("hand_id", rank=pl.lit(FOUR_AT_MOST_ERROR, pl.Int64),
                    message=pl.concat_str(pl.lit("more than four of "), pl.col("kinds").list.join(", "),
                                          pl.lit(" dealt and drawn"))))


def seat_melds(play: pl.LazyFrame, events: pl.LazyFrame) -> pl.LazyFrame:
    """One row per hand and seat with melds (``hand_id``, ``seat``): ``melds`` (their text in call order:
    ``chi:345p``, an added kan ``kakan:5555p`` in its pon's place), ``meld_set`` (the same texts sorted, to
    compare with the recorded ones), ``sets`` (how many) and ``meld_tiles`` (their tiles)."""
    done = effective(play)
    sets = with_call_tiles(done.filter(_event.is_in([*FROM_DISCARD, "ankan"])), events).select(
        "hand_id", "seat", "seat_key", "seq", "tiles", meld=_event.cast(pl.String), kind=kind(pl.col("tile")))
    added = (done.filter(_event == "kakan").select("seat_key", kind=kind(pl.col("tile")), added="tile",
                                                    added_seq="seq"))
    upgraded = sets.join(added, on=["seat_key", "kind"], how="left").with_columns(
        up=(pl.col("meld") == "pon") & (pl.col("added_seq") > pl.col("seq")).fill_null(False))
    upgraded = upgraded.with_columns(
        meld=pl.when("up").then(pl.lit("kakan")).otherwise("meld"),
        tiles=pl.when("up").then(pl.concat_list("tiles", pl.col("added").cast(TILE))).otherwise("tiles"),
    )
    text = pl.concat_str("meld", pl.lit(":"), "_tiles_text")
    return with_tiles_text(upgraded, {"_tiles_text": "tiles"}).with_columns(text=text).group_by("hand_id", "seat").agg(
        melds=pl.col("text").sort_by("seq"), meld_set=pl.col("text").sort(), sets=pl.len().cast(pl.Int64),
        meld_tiles=pl.col("tiles").list.explode(keep_nulls=False, empty_as_null=False))
