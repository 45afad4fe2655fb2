"""The heads of a batch of Riichi City hands from their deals as columns (for :mod:`.columns`): what
:func:`.read.hand_head` reads of a hand's deal events (type 1, one a player, their data decoded as columns), by
group-bys over the deals, no Python per event.

Each player's deal gives its tiles (``hand_cards``: the dealer's fourteen, its last the dealer's first draw); the
first deal of the hand gives the dealer (``dealer_pos``, counted from the first hand's dealer), the dora indicator
(``bao_pai_card``), the honba and sticks (``ben_chang_num``, ``li_zhi_bang_num``) and the scores
(``user_info_list[].hand_points`` by user). The hand's own ``quanFeng`` is the round wind, its ``changCi`` the
dealer's number. A hand whose deals these columns do not read as the per-game reader is refused (that reader says
why, or reads it its own way): not one deal a seat of a player, a tile code that is none, a dealer or wind that
is not the hand's, a count of tiles not 14 for the dealer and 13 for the others, a value left out or null that the
per-game reader takes from elsewhere or refuses (the honba, the sticks, the scores by user, the dealer's position),
scores naming a user who does not play or one user twice.
"""

from __future__ import annotations

import polars as pl

from analyzer.formats.riichicity.codes import TILES, WINDS

DEAL = {"hand_cards": pl.List(pl.Int64), "dealer_pos": pl.Int64, "bao_pai_card": pl.Int64,
        "ben_chang_num": pl.Int64, "li_zhi_bang_num": pl.Int64,
        "user_info_list": pl.List(pl.Struct({"user_id": pl.Int64, "hand_points": pl.Int64}))}
_MODEL = {code: tile for code, tile in TILES.items()}  # a tile code -> the model's tile


def hand_heads(deals: pl.DataFrame, hands: pl.DataFrame, seats: pl.DataFrame) -> tuple[pl.DataFrame, set[int]]:
    """Per hand (``h``) its head: ``kyoku``, ``honba``, ``kyotaku``, ``scores`` (four), ``haipai`` (four lists of
    model tiles, seat 3 of three players empty), ``first`` (the dealer's first draw), ``dora`` (the indicator);
    and the files refused. ``deals``: the deal events (``h``, ``file``, ``row``, ``userId`` and :data:`DEAL`'s
    fields) in order; ``hands``: ``h``, ``file``, ``players``, ``rotate`` (the first hand's dealer position),
    ``changCi``, ``quanFeng``; ``seats``: each file's users' seats (``file``, ``userId``, ``seat``)."""
    d = deals.join(seats, on=["file", "userId"], how="left", maintain_order="left").with_columns(
        tiles=pl.col("hand_cards").list.eval(pl.element().replace_strict(_MODEL, default=-1, return_dtype=pl.Int64)))
    per = d.group_by("h", maintain_order=True).agg(
        deals=pl.len(), seated=pl.col("seat").drop_nulls().n_unique(), unseated=pl.col("seat").is_null().any(),
        no_tile=(pl.col("tiles").list.min().fill_null(-1) < 0).any() | pl.col("tiles").is_null().any(),
        *(pl.col(name).first() for name in ("dealer_pos", "bao_pai_card", "ben_chang_num", "li_zhi_bang_num",
                                            "user_info_list")),
        *(pl.col("tiles").filter(pl.col("seat") == s).first().alias(f"seat{s}") for s in range(4)))
    n = pl.col("players")
    dealer = ((pl.col("dealer_pos") - pl.col("rotate")) % n + n) % n  # Python's modulo: never negative
    heads = hands.join(per, on="h", how="inner", maintain_order="left").with_columns(
        dealer=dealer, wind=pl.col("quanFeng").replace_strict(WINDS, default=None, return_dtype=pl.Int64),
        dora=pl.col("bao_pai_card").replace_strict(_MODEL, default=None, return_dtype=pl.Int64))
    held = [pl.col(f"seat{s}").list.len().fill_null(0) for s in range(4)]
    dealt_well = pl.all_horizontal(
        (s >= n) | (held[s] == pl.when(pl.col("dealer") == s).then(14).otherwise(13)) for s in range(4))
    well = (~pl.col("unseated") & ~pl.col("no_tile") & (pl.col("deals") == n) & (pl.col("seated") == n)
            & pl.col("dealer").is_not_null() & pl.col("wind").is_not_null() & (pl.col("changCi") == pl.col("dealer") + 1)
            & pl.col("dora").is_not_null() & pl.col("ben_chang_num").is_not_null()
            & pl.col("li_zhi_bang_num").is_not_null() & (pl.col("user_info_list").list.len().fill_null(0) > 0)
            & dealt_well).fill_null(False)
    scores, bad_scores = _scores(heads, seats)
    refused = set(heads.filter(~well)["file"].to_list()) | bad_scores
    heads = heads.filter(well).join(scores, on="h", how="left", maintain_order="left")
    empty = pl.lit([], pl.List(pl.Int64))
    dealer_is = [pl.col("dealer") == s for s in range(4)]
    return heads.select(
        "h", "file", kyoku=4 * pl.col("wind") + pl.col("dealer"), honba="ben_chang_num", kyotaku="li_zhi_bang_num",
        scores="scores", dora="dora", players="players",
        first=pl.coalesce(*(pl.when(dealer_is[s]).then(pl.col(f"seat{s}").list.last()) for s in range(4))),
        *(pl.when(dealer_is[s]).then(pl.col(f"seat{s}").list.head(13)).otherwise(pl.col(f"seat{s}").fill_null(empty))
          .alias(f"seat{s}") for s in range(4))), refused


def _scores(heads: pl.DataFrame, seats: pl.DataFrame) -> tuple[pl.DataFrame, set[int]]:
    """Each hand's four scores from its first deal's ``user_info_list`` (0 for a seat it does not name), and the
    files whose scores name a user who does not play, a user twice, or no points."""
    infos = heads.select("h", "file", "user_info_list").explode("user_info_list").unnest("user_info_list").rename(
        {"user_id": "userId"}).join(seats, on=["file", "userId"], how="left", maintain_order="left")
    per = infos.group_by("h").agg(
        "file", bad=pl.col("seat").is_null().any() | pl.col("hand_points").is_null().any()
        | (pl.col("seat").n_unique() != pl.len()),
        *(pl.col("hand_points").filter(pl.col("seat") == s).first().alias(f"p{s}") for s in range(4)))
    scores = per.select("h", scores=pl.concat_list(*(pl.col(f"p{s}").fill_null(0) for s in range(4))))
    return scores, set(per.filter("bad")["file"].list.first().to_list())
