"""Every hand row as a person reads it, built as Polars expressions (one pass, no per-row Python):

``E1-0 ron: Brennan from Ishikawa, 3 han 40 fu, 7,700 — Riichi (立直), Pinfu (平和)``

Players by name (a winner or loser given as a seat number is looked up in the seating), the hand's value as
han and fu, the limit (``5 han, mangan``) or the yakuman, the points (hand value without honba and sticks), and
the yaku by their English and Japanese names (:mod:`analyzer.core.yaku_labels`) with the dora counted. Yaku come
from the tiles (``yaku``) or, without tiles, from ``recorded_yaku``; a han/fu sheet has neither: its hands
show han and fu only. A CSV output read back holds these lists as text: both forms are read.
"""

from __future__ import annotations

import polars as pl

from analyzer.game.problems import has_problems, problem_lists, problems_text
from analyzer.core.schema import PLAYER_COLUMNS, SEATS
from analyzer.scoring.validate import seat_of
from analyzer.core.yaku_labels import YAKU_LABELS, yaku_label_map

NOT_PAID = ["head_bump", "triple_ron_abort"]  # problem codes of winners paid nothing
# (tile columns, recorded columns, yaku id) of the dora counts listed after the yaku
DORA = (("dora_count", "recorded_dora", "dora"), ("ura_dora", "recorded_ura_dora", "ura"),
        ("aka_dora", "recorded_aka_dora", "aka"))


def thousands(value: pl.Expr) -> pl.Expr:
    """An integer as text with thousands separators (``7,700``, ``-12,000``)."""
    magnitude = value.abs()
    text = (magnitude % 1000).cast(pl.String)
    rest = magnitude // 1000
    for _ in range(4):  # up to 10^15
        text = pl.when(rest > 0).then(pl.concat_str((rest % 1000).cast(pl.String), pl.lit(","),
                                                    text.str.zfill(3))).otherwise(text)
        rest = rest // 1000
    return pl.when(value < 0).then(pl.lit("-") + text).otherwise(text)


def name_of(reference: pl.Expr) -> pl.Expr:
    """The player a reference names (a name of the seating, or a seat number 0-3); other text as it is."""
    seat = seat_of(reference)
    return pl.coalesce(*[pl.when(seat == s).then(pl.col(PLAYER_COLUMNS[s])) for s in SEATS], reference)


def _as_list(column: str, schema: pl.Schema) -> pl.Expr:
    """A list column, or its comma-joined text of a CSV output, as a list of text."""
    if schema[column] == pl.String:
        return pl.col(column).str.split(",").list.eval(pl.element().str.strip_chars()).list.eval(
            pl.element().filter(pl.element() != ""))
    return pl.col(column).cast(pl.List(pl.String))


def names_listed(column: str, schema: pl.Schema) -> pl.Expr:
    """The players a list column (``riichi``, ``tenpai``) holds, by name, in seat order."""
    listed = _as_list(column, schema)
    return pl.concat_list([
        pl.when(listed.list.contains(pl.col(PLAYER_COLUMNS[s])) | listed.list.contains(pl.lit(str(s))))
        .then(pl.col(PLAYER_COLUMNS[s])).otherwise(pl.lit(None, pl.String)) for s in SEATS
    ]).list.drop_nulls()


def yaku_ids(schema: pl.Schema) -> tuple[pl.Expr | None, bool]:
    """The yaku ids of each row (tiles first, else recorded) and whether they came from the tiles."""
    for column in ("yaku", "recorded_yaku"):
        if column not in schema:
            continue
        dtype = schema[column]
        if isinstance(dtype, pl.List) and isinstance(dtype.inner, pl.Struct):
            return pl.col(column).list.eval(pl.element().struct.field("name").cast(pl.String)), column == "yaku"
        if dtype == pl.String:  # 'riichi:1, pinfu:1' (a list of structs in CSV) or 'riichi,pinfu'
            return _as_list(column, schema).list.eval(pl.element().str.replace(r":-?\d+$", "")), column == "yaku"
        return pl.col(column).cast(pl.List(pl.String)), column == "yaku"
    return None, False


def yaku_text(schema: pl.Schema) -> pl.Expr:
    """The row's yaku by name, then the dora counts (``…, Aka dora (赤ドラ) 3``); empty text without yaku."""
    ids, from_tiles = yaku_ids(schema)
    if ids is None:
        return pl.lit("")
    counts = [(tile if from_tiles else recorded, yaku) for tile, recorded, yaku in DORA]
    if any(column in schema for column, _ in counts):  # the dora are counted: not listed as yaku too
        ids = ids.list.eval(pl.element().filter(~pl.element().is_in([yaku for _, yaku in counts])))
    items = [ids.list.eval(pl.element().replace(yaku_label_map()))]
    for column, yaku in counts:
        if column in schema:
            count = pl.col(column).cast(pl.Int64, strict=False)
            english, japanese = YAKU_LABELS[yaku]
            items.append(pl.when(count > 0).then(pl.concat_list(pl.format(f"{english} ({japanese}) {{}}", count)))
                         .otherwise(pl.lit([], pl.List(pl.String))))
    return pl.concat_list(items).list.join(", ").fill_null("")


def value_text() -> pl.Expr:
    """``3 han 40 fu``; ``5 han, mangan``; ``4 han 40 fu, mangan``; ``yakuman``; null when not a win."""
    han, fu, limit = pl.col("han"), pl.col("fu"), pl.col("limit")
    yakuman = pl.col("yakuman").fill_null(0)
    han_fu = pl.concat_str(han.cast(pl.String), pl.lit(" han"),
                           pl.when(fu.is_not_null() & (han < 5)).then(pl.lit(" ") + fu.cast(pl.String) + pl.lit(" fu"))
                           .otherwise(pl.lit("")))
    return (
        pl.when(~pl.col("result").is_in(["ron", "tsumo"])).then(pl.lit(None, pl.String))
        .when((yakuman > 0) & limit.is_not_null()).then(limit)
        .when(yakuman > 0).then(pl.format("{} yakuman", yakuman))
        .when(han.is_not_null() & limit.is_not_null()).then(han_fu + pl.lit(", ") + limit)
        .when(han.is_not_null()).then(han_fu)
    )


def _who() -> tuple[pl.Expr, pl.Expr]:
    return name_of(pl.col("winner")), name_of(pl.col("loser"))


def described(hands: pl.DataFrame) -> pl.DataFrame:
    """The hands with ``_winner_name``, ``_loser_name``, ``_detail`` (value, points, yaku), ``_short`` (value
    and yaku) and ``outcome`` (the whole line, problems in brackets)."""
    hands = problem_lists(hands)
    schema = hands.schema
    result = pl.col("result")
    winner, loser = _who()
    tenpai = names_listed("tenpai", schema).list.join(", ") if "tenpai" in schema else pl.lit(None, pl.String)
    who = (
        pl.when(result == "ron").then(pl.concat_str(winner, pl.lit(" from "), loser, ignore_nulls=True))
        .when(result.is_in(["tsumo", "nagashi"])).then(winner)
        .when(result == "chombo").then(loser)
        .when((result == "draw") & (tenpai == "")).then(pl.lit("all noten"))
        .when(result == "draw").then(pl.lit("tenpai ") + tenpai)
    )
    points = pl.when(pl.col("points").is_not_null() & (pl.col("points") != 0)).then(thousands(pl.col("points")))
    yaku = yaku_text(schema)
    with_yaku = pl.when(yaku != "").then(pl.lit(" — ") + yaku).otherwise(pl.lit(""))
    detail = pl.concat_str(pl.concat_list(value_text(), points).list.drop_nulls().list.join(", "), with_yaku)
    # the same without the points, where they are said before (best hand, biggest deal-in)
    short = pl.concat_str(value_text().fill_null(""), with_yaku)
    frame = hands.with_columns(winner.alias("_winner_name"), loser.alias("_loser_name"), who.alias("_who"),
                               detail.alias("_detail"), short.alias("_short"))
    head = pl.concat_str(pl.col("round"), pl.lit("-"), pl.col("honba").cast(pl.String), pl.lit(" "), result)
    line = pl.concat_str(
        head,
        pl.when(pl.col("_who").is_not_null()).then(pl.lit(": ") + pl.col("_who")).otherwise(pl.lit("")),
        pl.when(pl.col("_detail") != "").then(pl.lit(", ") + pl.col("_detail")).otherwise(pl.lit("")),
        pl.when(has_problems()).then(pl.lit(" [") + problems_text() + pl.lit("]")).otherwise(pl.lit("")),
    )
    return frame.with_columns(line.alias("outcome"))


def hand_notes(players: pl.DataFrame, hands: pl.DataFrame) -> dict[str, tuple[str | None, str | None]]:
    """Per player: what the best win and the biggest deal-in were (``ron from X, 3 han 40 fu, 7,700 — …``)."""
    paid = ~pl.col("problems").list.eval(pl.element().is_in(NOT_PAID)).list.any()
    wins = hands.filter(pl.col("result").is_in(["ron", "tsumo"]) & paid)
    best = wins.select(
        pl.col("game_id").alias("best_win_game"), pl.col("round").alias("best_win_round"),
        pl.col("honba").alias("best_win_honba"), pl.col("_winner_name").alias("player"),
        pl.concat_str(pl.col("result"), pl.when(pl.col("result") == "ron")
                      .then(pl.lit(" from ") + pl.col("_loser_name")).otherwise(pl.lit("")),
                      pl.lit(", "), pl.col("_short")).alias("_best"),
    ).unique(["best_win_game", "best_win_round", "best_win_honba", "player"], keep="first")
    worst = wins.filter(pl.col("result") == "ron").group_by(
        pl.col("game_id").alias("worst_deal_in_game"), pl.col("round").alias("worst_deal_in_round"),
        pl.col("honba").alias("worst_deal_in_honba"), pl.col("_loser_name").alias("player"), maintain_order=True,
    ).agg(  # each winner's points only when the deal-in paid several (a multiple ron)
        pl.when(pl.len() > 1).then(
            pl.concat_str(pl.lit("to "), pl.col("_winner_name"), pl.lit(", "), pl.col("_detail")).str.join("; "))
        .otherwise(pl.concat_str(pl.lit("to "), pl.col("_winner_name"), pl.lit(", "), pl.col("_short")).first())
        .alias("_worst"))
    keys = players.select("player", "best_win_game", "best_win_round", "best_win_honba", "worst_deal_in_game",
                          "worst_deal_in_round", "worst_deal_in_honba")
    joined = (keys.join(best, on=["player", "best_win_game", "best_win_round", "best_win_honba"], how="left",
                        nulls_equal=False)
              .join(worst, on=["player", "worst_deal_in_game", "worst_deal_in_round", "worst_deal_in_honba"],
                    how="left", nulls_equal=False))
    return {p: (b, w) for p, b, w in joined.select("player", "_best", "_worst").iter_rows()}
