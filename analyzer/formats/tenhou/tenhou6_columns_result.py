"""The result array of each hand in tenhou.net/6 JSON from the outcomes table, as columns: byte for byte what
:func:`.tenhou6_write.game_to_tenhou6` writes from the model (its ``_result``, ``_value`` and ``_yaku``; the
words are :mod:`.tenhou6_write`'s), for :mod:`.tenhou6_columns`.

``["和了", deltas, [who, from, pao, value, yaku...], ...]`` for a hand won (every outcome of the hand, in the
log's order), else the first outcome's word: the one it was read with, or an abort's kind, ``流し満貫``,
``流局`` (points paid), ``全員聴牌`` / ``全員不聴``, with its deltas where points moved (or the word needs them).
A hand the model's writer cannot write gets its reason: no outcome at all, an abortive draw of no known
kind, a tsumo whose points are not recorded.
"""

from __future__ import annotations

import polars as pl

from analyzer.formats.game_texts import json_int, json_ints, json_value
from analyzer.formats.mjai.write_columns import yaku_hans
from analyzer.formats.model import YAKUMAN_HAN
from analyzer.formats.tenhou.yaku_names import JA_NAMES

HAND_KEY = ("game", "log_row")
# the words of tenhou6_write (its private tables, the same values)
LIMIT_JA = {"mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満", "yakuman": "役満"}
ABORT_JA = {"yao9": "九種九牌", "reach4": "四家立直", "ron3": "三家和了", "kan4": "四槓散了", "kaze4": "四風連打"}
WINDS_JA = "東南西北"
YAKU_JA: dict[str, str] = {}
for _ja, _name in JA_NAMES.items():  # ours -> Tenhou's Japanese name: the first of JA_NAMES for it
    YAKU_JA.setdefault(_name, _ja)
WORDS = ", ".join(ABORT_JA.values())
NO_OUTCOME = "cannot export (IndexError: list index out of range)"  # the model's writer: k.outcomes[0]
NO_POINTS = {True: "cannot export (TypeError: unsupported operand type(s) for //: 'NoneType' and 'int')",
             False: "cannot export (TypeError: bad operand type for unary -: 'NoneType')"}  # a tsumo, by dealer


def _text(value: pl.Expr) -> pl.Expr:
    """A value as Python's f-string writes it (``None`` for null)."""
    return value.cast(pl.String).fill_null("None")


def value_text(players: pl.Expr, dealer: pl.Expr) -> pl.Expr:
    """A win's value as Tenhou writes it (``30符4飜7700点``, ``満貫2000-4000点``, ``役満16000点∀``)."""
    points = pl.col("points")
    share = -(-points // players // 100) * 100  # the dealer pays twice a non-dealer's share, less rounding
    paid = (pl.when(pl.col("result") == "ron").then(pl.concat_str(_text(points), pl.lit("点")))
            .when(pl.col("winner") == dealer).then(pl.concat_str(_text(points // (players - 1)), pl.lit("点∀")))
            .otherwise(pl.concat_str(_text(share), pl.lit("-"), _text(points - (players - 2) * share),
                                     pl.lit("点"))))
    word = (pl.when((pl.col("limit") == "yakuman") & (pl.col("yakuman") == 0)).then(pl.lit("数え役満"))
            .otherwise(pl.col("limit").replace_strict(LIMIT_JA, default=None, return_dtype=pl.String)))
    return (pl.when(pl.col("limit").is_null())
            .then(pl.concat_str(_text(pl.col("fu")), pl.lit("符"), _text(pl.col("han")), pl.lit("飜"), paid))
            .otherwise(pl.concat_str(word, paid)))


def yaku_texts(outcomes: pl.LazyFrame, dealers: pl.LazyFrame) -> pl.LazyFrame:
    """Per outcome (``game``, ``log_row``, ``outcome``) ``yaku``: its yaku as Tenhou writes them (``立直(1飜)``,
    ``自風 東(1飜)``, ``大三元(役満)``, then ``ドラ(n飜)``...) as a JSON list's inside (no brackets, null when
    none)."""
    key = (*HAND_KEY, "outcome")
    rows = (outcomes.select(*key, "winner", "yaku", han=yaku_hans()).join(dealers, on=HAND_KEY, how="left")
            .explode("yaku", "han").filter(pl.col("yaku").is_not_null()))
    seat_wind = lookup_wind((pl.col("winner").cast(pl.Int64) - pl.col("dealer")) % 4)
    name = (pl.when(pl.col("yaku") == "seat_wind").then(pl.concat_str(pl.lit("自風 "), seat_wind))
            .when(pl.col("yaku") == "round_wind").then(pl.concat_str(pl.lit("場風 "),
                                                                      lookup_wind(pl.col("kyoku") // 4 % 4)))
            .otherwise(pl.col("yaku").replace_strict(YAKU_JA, default=pl.col("yaku").str.strip_prefix("unknown:"),
                                                     return_dtype=pl.String)))
    text = pl.concat_str(name, pl.when(pl.col("han") >= YAKUMAN_HAN).then(pl.lit("(役満)"))
                         .otherwise(pl.concat_str(pl.lit("("), pl.col("han").cast(pl.String), pl.lit("飜)"))))
    listed = rows.select(*key, item=json_value(text)).group_by(key).agg(pl.col("item").str.join(","))
    counts = outcomes.select(*key, counts=pl.concat_str(
        *[pl.when(pl.col(column) != 0).then(pl.concat_str(pl.lit(f',"{ja}('), pl.col(column).cast(pl.String),
                                                          pl.lit('飜)"')))
          for ja, column in (("ドラ", "dora"), ("赤ドラ", "aka"), ("裏ドラ", "ura"))], ignore_nulls=True))
    return counts.join(listed, on=key, how="left").select(
        *key, yaku_text=pl.when(pl.col("item").is_null()).then(pl.col("counts").str.strip_prefix(","))
        .otherwise(pl.concat_str(pl.col("item"), pl.col("counts"), ignore_nulls=True)))


def lookup_wind(index: pl.Expr) -> pl.Expr:
    return pl.lit(pl.Series(list(WINDS_JA))).gather(index)


def result_texts(outcomes: pl.LazyFrame, hands: pl.LazyFrame, players: pl.LazyFrame) -> pl.LazyFrame:
    """Per hand with outcomes (``game``, ``log_row``) ``result``, its result array as JSON, and ``error``: why
    the model's writer cannot write it (null when it can)."""
    dealers = hands.select(*HAND_KEY, "kyoku", dealer=pl.col("kyoku").cast(pl.Int64) % 4)
    o = (outcomes.join(players, on="game", how="left").join(dealers, on=HAND_KEY, how="left")
         .join(yaku_texts(outcomes, dealers), on=(*HAND_KEY, "outcome"), how="left"))
    n = pl.col("players").cast(pl.Int64)
    deltas = pl.col("deltas")
    padded = json_ints(pl.concat_list(deltas, pl.lit([0, 0, 0, 0], pl.List(pl.Int64)).list.head(
        (4 - deltas.list.len()).clip(0))))
    recorded = json_value(pl.col("recorded_text")).str.strip_prefix("[").str.strip_suffix("]")
    valued = pl.concat_str(json_value(value_text(n, pl.col("dealer"))),
                           pl.when(pl.col("yaku_text").is_not_null()).then(pl.concat_str(pl.lit(","),
                                                                                         pl.col("yaku_text"))))
    o = o.with_columns(tail=pl.when(pl.col("recorded_text").is_not_null()).then(recorded)
                       .when(pl.col("has_value")).then(valued))
    info = pl.concat_str(
        pl.lit("["), json_int(pl.col("winner")), pl.lit(","), json_int(pl.coalesce(pl.col("loser"), pl.col("winner"))),
        pl.lit(","), json_int(pl.coalesce(pl.col("pao"), pl.col("winner"))),
        pl.when(pl.col("tail").is_not_null() & (pl.col("tail") != "")).then(pl.concat_str(pl.lit(","), pl.col("tail"))),
        pl.lit("]"), ignore_nulls=True)
    win = pl.concat_str(pl.lit(","), padded, pl.lit(","), info)
    tsumo_unpriced = ((pl.col("result") == "tsumo") & pl.col("recorded_text").is_null() & pl.col("has_value")
                      & pl.col("points").is_null())
    o = o.with_columns(win=win, unpriced=pl.when(tsumo_unpriced).then(pl.col("winner") == pl.col("dealer")))
    firsts = o.filter(pl.col("outcome") == 0)  # the log's first outcome of each hand says which kind it is
    per_hand = (o.sort(*HAND_KEY, "outcome").group_by(HAND_KEY, maintain_order=True)
                .agg(wins=pl.col("win").str.join(""), unpriced_at=pl.col("unpriced").drop_nulls().first())
                .join(firsts.drop("win", "unpriced"), on=HAND_KEY, how="left")
                .rename({"unpriced_at": "unpriced"})
                .with_columns(won=pl.col("result").is_in(["ron", "tsumo"])))
    deltas_any = deltas.list.eval(pl.element() != 0).list.any()
    tenpai_count = (pl.when(pl.col("tenpai").is_not_null()).then(pl.col("tenpai").list.len())
                    .when(pl.col("all_tenpai")).then(n).otherwise(0))
    result = pl.col("result").cast(pl.String)
    word = (pl.when(pl.col("recorded_text").is_not_null()).then(pl.col("recorded_text").list.first())
            .when(result == "abort").then(pl.col("abort").replace_strict(ABORT_JA, default=None,
                                                                        return_dtype=pl.String))
            .when(result == "nagashi").then(pl.lit("流し満貫"))
            .when(deltas_any).then(pl.lit("流局"))
            .when(tenpai_count == n).then(pl.lit("全員聴牌")).otherwise(pl.lit("全員不聴")))
    with_deltas = deltas_any | word.is_in(["流局", "流し満貫"])
    drawn = pl.concat_str(pl.lit("["), json_value(word), pl.when(with_deltas).then(pl.concat_str(pl.lit(","),
                                                                                                 padded)),
                          pl.lit("]"), ignore_nulls=True)
    unknown_abort = (~pl.col("won") & pl.col("recorded_text").is_null() & (result == "abort")
                     & ~pl.col("abort").is_in(list(ABORT_JA)).fill_null(False))
    abort_repr = pl.when(pl.col("abort").is_null()).then(pl.lit("None")).otherwise(
        pl.concat_str(pl.lit("'"), pl.col("abort"), pl.lit("'")))
    unpriced = pl.col("unpriced").is_not_null() & pl.col("won")
    error = (pl.when(unpriced)
             .then(pl.when(pl.col("unpriced")).then(pl.lit(NO_POINTS[True])).otherwise(pl.lit(NO_POINTS[False])))
             .when(unknown_abort).then(pl.concat_str(
                 pl.lit("an abortive draw of no known kind ("), abort_repr,
                 pl.lit(f"): tenhou.net/6 names each kind ({WORDS}) and none is invented"))))
    return per_hand.select(
        *HAND_KEY,
        result=pl.when(pl.col("won")).then(pl.concat_str(pl.lit('["和了"'), pl.col("wins"), pl.lit("]")))
        .otherwise(drawn),
        error=error, in_hand=~unpriced)  # in_hand: the model's LogError, said with the game and hand
