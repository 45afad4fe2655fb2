"""The win rows' columns of the hand records, from the outcomes and the replayed play (:mod:`.records_play`,
:mod:`.records_hands`): the winning tile and hand, the melds, the situation flags, and the errors of a win the
play does not lead to (what :func:`.replay.replay` and :func:`.rows.game_rows` raise)."""

from __future__ import annotations

import polars as pl

from analyzer.formats.model import WALL_DRAWS, WALL_DRAWS_3P
from analyzer.formats.records_play import at_seat
from analyzer.formats.records_tiles import indicators_text, tile_text, tile_words, with_tiles_text, words_text
from analyzer.formats.replay import FLAG_NAMES

WINNER_ERROR = 1 << 21  # + the outcome's place in the log: the replay checks the winners in that order
ROW_ERROR = 1 << 22  # + 8 x the row's place in the hand + what is checked first: the rows' checks come last
WINS = ("ron", "tsumo")

_w = pl.col("winner")
_ron = pl.col("result") == "ron"
_tsumo = pl.col("result") == "tsumo"


def wall(players: pl.Expr) -> pl.Expr:
    """The live-wall and rinshan draws of a hand (:func:`.model.wall_draws`)."""
    return pl.when(players == 4).then(WALL_DRAWS).otherwise(WALL_DRAWS_3P)


def _text(value: pl.Expr) -> pl.Expr:
    return value.cast(pl.String)


def win_flags(wins: pl.LazyFrame) -> pl.LazyFrame:
    """Win rows (the outcomes with the hand's facts and the seats' facts as ``NAME_0..3``) gain ``win_tile``
    (the tile won on), ``in_riichi`` (the winner's stick was accepted), the flags of :data:`.replay.FLAG_NAMES`
    and ``winner_error`` (a win the play does not lead to, else null)."""
    robbed = pl.col("robbed_event")
    on_north = robbed == "kita"
    last_draw = pl.col("last_event") == "draw"
    last_discard = (pl.col("last_event") == "discard") & (pl.col("calls_after") == 0)
    first_uncalled = (last_draw & (at_seat("discards", pl.col("last_seat")).fill_null(0) == 0)
                      & (pl.col("calls_made") == pl.col("calls_after")))
    dealer = pl.col("kyoku") % 4
    full_wall = pl.col("draws") == wall(pl.col("players"))
    in_riichi = pl.col("riichi").list.contains(_text(_w))
    tsumo_ok = last_draw & (pl.col("last_seat") == _w)
    ron_ok = (pl.when(on_north).then(pl.col("robbed_seat") == pl.col("loser"))
              .when(robbed.is_not_null()).then((pl.col("robbed_seat") == pl.col("loser"))
                                              & robbed.is_in(["kakan", "ankan"]))
              .otherwise(last_discard & (pl.col("last_seat") == pl.col("loser"))))
    seat = pl.lit("replay failed: ")
    error = (
        pl.when(_tsumo & ~tsumo_ok.fill_null(False))
        .then(pl.concat_str(seat, pl.lit("tsumo by seat "), _text(_w), pl.lit(" but the last action is not its draw")))
        .when(_ron & on_north & ~ron_ok.fill_null(False))
        .then(pl.concat_str(seat, pl.lit("ron by seat "), _text(_w), pl.lit(" on a north set aside by seat "),
                            _text(pl.col("robbed_seat"))))
        .when(_ron & robbed.is_not_null() & ~ron_ok.fill_null(False))
        .then(pl.concat_str(seat, pl.lit("ron by seat "), _text(_w), pl.lit(" after a "), robbed,
                            pl.lit(" by seat "), _text(pl.col("robbed_seat"))))
        .when(_ron & ~ron_ok.fill_null(False))
        .then(pl.concat_str(seat, pl.lit("ron by seat "), _text(_w), pl.lit(" but the last discard is not seat "),
                            _text(pl.col("loser")), pl.lit("'s")))
    )
    rinshan = _tsumo & pl.col("last_rinshan").fill_null(False)
    flags = {
        "ippatsu": at_seat("ippatsu", _w).fill_null(False) & in_riichi,
        "double_riichi": at_seat("double_riichi", _w).fill_null(False) & in_riichi,
        "haitei": _tsumo & ~rinshan & full_wall,
        "houtei": _ron & robbed.is_null() & full_wall,
        "rinshan": rinshan,
        "chankan": _ron & robbed.is_not_null() & ~on_north,
        "tenhou": _tsumo & first_uncalled & (_w == dealer),
        "chiihou": _tsumo & first_uncalled & (_w != dealer),
        "renhou": _ron & (at_seat("discards", _w).fill_null(0) == 0) & ~pl.col("any_call"),
    }
    return wins.with_columns(
        win_tile=pl.when(_tsumo | robbed.is_null()).then(pl.col("last_tile")).otherwise(pl.col("robbed_tile")),
        in_riichi=in_riichi,
        winner_error=error,
        **{name: flags[name].fill_null(False) for name in FLAG_NAMES},
    )


def win_columns(wins: pl.LazyFrame) -> pl.LazyFrame:
    """Win rows with :func:`win_flags`, ``low``, ``high`` (the winner's concealed tiles as words), ``melds`` and ``meld_set``
    (its melds' texts) and ``kita_held`` gain the hand records' win columns (``hand``, ``melds``, ``win_tile``,
    ``kita``, ``dora``, ``ura``, ``recorded_*``) and ``row_error`` (a replayed hand, tile, melds or norths that
    differ from the recorded ones, else null)."""
    won_low, won_high = tile_words(pl.col("win_tile"))
    hand_low = pl.col("low").fill_null(0) + pl.when(_ron).then(won_low).otherwise(0)
    hand_high = pl.col("high").fill_null(0) + pl.when(_ron).then(won_high).otherwise(0)
    wins = _with_recorded_hand(wins).with_columns(_hand_low=hand_low, _hand_high=hand_high)
    hand_text = words_text(pl.col("_hand_low"), pl.col("_hand_high"))
    recorded_hand = words_text(pl.col("_recorded_low"), pl.col("_recorded_high"))
    other_hand = (pl.col("_recorded_low") != pl.col("_hand_low")) | (pl.col("_recorded_high") != pl.col("_hand_high"))
    melds = pl.col("melds").fill_null([])
    kita = pl.col("kita_held").fill_null(0)
    error = (
        pl.when(pl.col("recorded_hand").is_not_null() & other_hand)
        .then(pl.concat_str(pl.lit("replayed winning hand "), hand_text, pl.lit(" differs from the recorded "),
                            recorded_hand))
        .when(pl.col("recorded_win_tile").is_not_null() & (pl.col("recorded_win_tile") != pl.col("win_tile")))
        .then(pl.concat_str(pl.lit("replayed winning tile "), tile_text(pl.col("win_tile")),
                            pl.lit(" differs from the recorded "), tile_text(pl.col("recorded_win_tile"))))
        .when(pl.col("recorded_melds").is_not_null()
              & (pl.col("recorded_melds") != pl.col("meld_set").fill_null([])))
        .then(pl.lit("replayed melds of the winner differ from the recorded ones"))
        .when((pl.col("players") == 3) & (pl.col("recorded_kita") != 0) & (pl.col("recorded_kita") != kita))
        .then(pl.concat_str(pl.lit("replayed norths set aside ("), _text(kita), pl.lit(") differ from the recorded "),
                            _text(pl.col("recorded_kita"))))
    )
    valued = pl.col("has_value")
    ura = pl.col("ura_indicators")
    return wins.with_columns(
        row_error=error,
        winner=_text(_w), loser=_text(pl.col("loser")), pao=_text(pl.col("pao")),
        hand=hand_text, melds=melds, win_tile=tile_text(pl.col("win_tile")),
        kita=pl.when(pl.col("players") == 3).then(kita),
        dora=indicators_text(pl.coalesce("dora_indicators", "dora_shown")),
        ura=pl.when((ura.list.len() > 0) & pl.col("in_riichi")).then(indicators_text(ura)),
        recorded_han=pl.when(valued).then(pl.col("han")),
        recorded_fu=pl.when(valued).then(pl.col("fu")),
        recorded_points=pl.when(valued).then(pl.col("points")),
        recorded_limit=pl.when(valued).then(pl.col("limit")),
        recorded_yaku=pl.when(valued).then(pl.col("yaku")),
        recorded_dora=pl.when(valued).then(pl.col("dora_han")),
        recorded_ura_dora=pl.when(valued).then(pl.col("ura_han")),
        recorded_aka_dora=pl.when(valued).then(pl.col("aka_han")),
        recorded_yakuman=pl.when(valued).then(pl.col("yakuman")),
    )


def _with_recorded_hand(wins: pl.LazyFrame) -> pl.LazyFrame:
    """Win rows gain ``_recorded_low``, ``_recorded_high``: the recorded hand (``recorded_hand``) as words."""
    tiles = (wins.filter(pl.col("recorded_hand").is_not_null()).select("hand_id", "outcome", tile="recorded_hand")
             .explode("tile").drop_nulls("tile"))
    low, high = tile_words(pl.col("tile"))
    words = tiles.select("hand_id", "outcome", _recorded_low=low, _recorded_high=high).group_by(
        "hand_id", "outcome").agg(pl.col("_recorded_low", "_recorded_high").sum())
    return wins.join(words, on=["hand_id", "outcome"], how="left").with_columns(
        pl.col("_recorded_low", "_recorded_high").cast(pl.Int64).fill_null(0))


def with_recorded_meld_set(wins: pl.LazyFrame) -> pl.LazyFrame:
    """Win rows gain ``recorded_melds``: their recorded melds (``melds_recorded``, List of kind and tiles) as
    the sorted texts :func:`win_columns` compares (null when not recorded)."""
    recorded = wins.filter(pl.col("melds_recorded").is_not_null()).select("hand_id", "outcome", meld="melds_recorded")
    melds = recorded.explode("meld", empty_as_null=False, keep_nulls=False).select(
        "hand_id", "outcome", kind=pl.col("meld").struct.field("kind"), tiles=pl.col("meld").struct.field("tiles"))
    texts = (with_tiles_text(melds, {"text": "tiles"}).group_by("hand_id", "outcome")
             .agg(recorded_melds=pl.concat_str("kind", pl.lit(":"), "text").sort()))
    return wins.join(texts, on=["hand_id", "outcome"], how="left").with_columns(
        recorded_melds=pl.when(pl.col("melds_recorded").is_not_null())
        .then(pl.col("recorded_melds").fill_null(pl.lit([], pl.List(pl.String)))))
