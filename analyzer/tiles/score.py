"""score_tiles: the vectorised scorer (see the package docstring for the design)."""

from __future__ import annotations

import polars as pl

from analyzer.core.rules import Rules
from analyzer.tiles import fu as F
from analyzer.tiles import yaku as Y
from analyzer.tiles.columns import PROBLEMS, P, C, Stages, apply_stages
from analyzer.tiles.codes import encode_tiles, has_codes
from analyzer.tiles.features import decode, hand_features, input_columns
from analyzer.tiles.readings import chiitoitsu_reading, kokushi_reading, standard_reading

WAIT_NAMES = [*F.WAITS, "chiitoitsu", "kokushi", "kokushi_13"]
OUT = ("status", "han", "fu", "yakuman", "ykey", "fukey", "wait")  # status: -1 not complete, 0 no yaku, 1 scored
VALUES = ("han", "fu", "yakuman", "dora_count", "ura_dora", "aka_dora", "wait", "tile_problem")  # all but the lists
AMB_OUT = ("score", "han", "fu", "yakuman", "ykey", "fukey", "wait")


def score_tiles(lf: pl.LazyFrame, rules: Rules, *, lists: bool = True) -> pl.LazyFrame:
    """Add yaku, han, fu, fu_detail, yakuman, dora_count, ura_dora, aka_dora, wait, tile_problem.

    ``lists=False`` leaves out the ``yaku`` and ``fu_detail`` list columns.  Attaching them costs about as
    much as all the rest of the scoring of a stored hand (two order-keeping joins of list columns; figures in
    the package docstring), and the query optimizer cannot drop them when they are not selected (a
    horizontal concat or a left join may change the row count, so its inputs are always computed).

    Joins only ever carry narrow frames (row id + a few columns, left order kept); their results are put
    back beside the wide frame with a horizontal concat, so the many scratch and pass-through columns are
    never gathered.
    """
    schema = lf.collect_schema()
    original = schema.names()
    if not has_codes(schema):  # text input: read it into tile codes first (scratch columns, dropped at the end)
        riichi = [pl.col(c).cast(pl.Boolean).fill_null(False) for c in ("_is_riichi", "double_riichi") if c in schema]
        lf = encode_tiles(lf, ura_read=pl.any_horizontal(riichi) if riichi else pl.lit(False))
        schema = lf.collect_schema()
    # the input frame is read twice: its columns pass through untouched, and the scoring works on a narrow
    # copy of the inputs (every .cache() below holds only what is read after it)
    base = lf.cache()
    lf = base.select(pl.int_range(pl.len(), dtype=pl.UInt32).alias(P + "rid"), *input_columns(schema))
    lf = hand_features(decode(lf), rules)
    later = standard_reading("s_", None, rules) + standard_reading("a_", C("k"), rules, points=True)
    later += chiitoitsu_reading("a_", rules) + kokushi_reading("a_", rules)
    needed = {P + k for k in ("rid", "n_read", "cvalid", "kvalid", "problem0", "dora_n", "ura_n", "aka_n")}
    lf = lf.select(sorted(needed | _roots(later))).cache()  # shared by the first-split and the other readings

    # every hand with its first split (no payment needed: it only ranks readings)
    status = pl.when(C("s_valid") & C("s_has_yaku")).then(1).when(C("s_valid")).then(0).otherwise(-1)
    std = apply_stages(lf, "s_", standard_reading("s_", None, rules)).select(
        P + "rid", *[P + k for k in ("problem0", "dora_n", "ura_n", "aka_n")],
        *[P + "s_" + k for k in OUT if k != "status"], status.alias(P + "s_status"),
    ).cache()

    # the few hands with other readings: every split of their one ambiguous suit (~1%), chiitoitsu (incl.
    # ryanpeikou shapes) and kokushi; best by payment (ties: lowest reading number, the first split first),
    # joined on a narrow frame.  The join is an as-of join on the row number with no tolerance (an exact
    # match): it keeps the left order without the re-sort of an order-keeping hash join (~13% less CPU for
    # the whole scorer without lists)
    rank = pl.Int128 if rules.limits == "aotenjou" else pl.Int64  # aotenjou ranks readings in Int128 (readings)

    def reading(frame: pl.LazyFrame, stages: Stages, order: pl.Expr) -> pl.LazyFrame:
        return apply_stages(frame, "a_", stages).select(
            P + "rid",
            *[C("a_" + k).cast(pl.Int32 if k == "wait" else rank if k == "score" else pl.Int64) for k in AMB_OUT],
            (C("a_score") * 8 + 7 - order).cast(rank).alias(P + "a_order"),
        )

    # filtered once (a filter copies every cached column), the chiitoitsu and kokushi rows taken from the few;
    # splits are scored only where there is one (a chiitoitsu or kokushi shape mostly has none)
    several = lf.filter((C("n_read") > 1) | C("cvalid") | C("kvalid")).cache()
    splits = several.filter(C("std_valid")).with_columns(pl.int_ranges(0, C("n_read")).alias(P + "k")).explode(P + "k")
    amb = pl.concat(
        [
            reading(splits, standard_reading("a_", C("k"), rules, points=True), C("k")),
            reading(several.filter(C("cvalid")), chiitoitsu_reading("a_", rules), pl.lit(4)),
            reading(several.filter(C("kvalid")), kokushi_reading("a_", rules), pl.lit(5)),
        ],
        how="vertical",
    )
    amb = amb.filter(C("a_order") == C("a_order").max().over(P + "rid")).sort(P + "rid")  # a_order is unique per hand
    narrow = (
        std.select(P + "rid", *[P + "s_" + k for k in OUT])
        .join_asof(amb, on=P + "rid", strategy="backward", tolerance=0)
        .with_columns(C("a_score").sign().alias(P + "a_status"))
        .select(**{P + "f_" + k: pl.when(C("a_score").is_not_null()).then(C("a_" + k)).otherwise(C("s_" + k))
                   for k in OUT})
    )
    lf = pl.concat([std.select(*[P + k for k in ("problem0", "dora_n", "ura_n", "aka_n")]), narrow], how="horizontal")

    code = (
        pl.when(C("problem0").is_null()).then(None)
        .when(C("problem0") != 0).then(C("problem0"))
        .when(C("f_status") < 0).then(PROBLEMS.index("not_complete"))
        .when(C("f_status") == 0).then(PROBLEMS.index("no_yaku"))
        .otherwise(0)
    )
    problem = pl.when(code > 0).then(pl.lit(pl.Series(PROBLEMS, dtype=pl.String)).gather(code.fill_null(0)))
    scored = C("f_status") > 0
    # a yakuman hand counts no dora, except under aotenjou where its dora are han like any other
    no_ym = scored if rules.limits == "aotenjou" else scored & (C("f_yakuman") == 0)
    lf = lf.with_columns(
        tile_problem=problem,
        han=pl.when(scored).then(C("f_han")).cast(pl.Int64),
        fu=pl.when(scored).then(C("f_fu")).cast(pl.Int64),
        yakuman=pl.when(scored).then(C("f_yakuman")).cast(pl.Int64),
        dora_count=pl.when(no_ym).then(C("dora_n")).when(scored).then(0).cast(pl.Int64),
        ura_dora=pl.when(no_ym).then(C("ura_n")).when(scored).then(0).cast(pl.Int64),
        aka_dora=pl.when(no_ym).then(C("aka_n")).when(scored).then(0).cast(pl.Int64),
        wait=pl.when(C("f_status") >= 0).then(
            pl.lit(pl.Series(WAIT_NAMES)).gather(C("f_wait").fill_null(0).clip(0, len(WAIT_NAMES) - 1))
        ),
        **{P + "ykey": pl.when(scored).then(C("f_ykey")), P + "fukey": pl.when(scored).then(C("f_fukey"))},
    )
    if not lists:
        out = pl.concat([base.select(original), lf.select(VALUES)], how="horizontal")
        return out.select(*original, *VALUES)
    lf = lf.select(*VALUES, P + "ykey", P + "fukey").cache()  # shared by the key tables and the list joins

    # yaku and fu_detail lists: built once per distinct key, joined on a narrow frame
    ykeys = Y.yaku_lists(lf.select(C("ykey")).unique().drop_nulls(), P + "ykey", rules)
    fkeys = F.fu_details(lf.select(C("fukey")).unique().drop_nulls(), P + "fukey", rules)
    list_columns = (
        lf.select(P + "ykey", P + "fukey")
        .join(ykeys, on=P + "ykey", how="left", maintain_order="left")
        .join(fkeys, on=P + "fukey", how="left", maintain_order="left")
        .select("yaku", "fu_detail")
    )
    out = pl.concat([base.select(original), lf.select(VALUES), list_columns], how="horizontal")
    return out.select(
        *original, "yaku", "han", "fu", "fu_detail", "yakuman", "dora_count", "ura_dora", "aka_dora", "wait",
        "tile_problem",
    )


def _roots(stages: Stages) -> set[str]:
    """The hand-level columns the reading stages read (not their own ``s_`` / ``a_`` columns, nor ``k``)."""
    own = (P + "s_", P + "a_", P + "k")
    return {name for st in stages for e in st.values() for name in e.meta.root_names()
            if name.startswith(P) and not name.startswith(own)}
