"""Cross-check ``analyzer.tiles.score_tiles`` against the PyPI ``mahjong`` package on generated hands.

Hands come from ``benchmarks.handgen.generate`` with a fixed seed (every theme: flushes, toitoi, chanta, ittsu,
sanshoku, peikou, chiitoitsu, kokushi, yakuman, open/closed, every kind of call, red fives, kan dora, legal
situation flags). Each hand is scored by both under the same rules; for every hand the oracle accepts we
require the same outcome ('no yaku' or not), and then the same yakuman count, the same points (hand value
without honba or sticks), and on non-yakuman hands the same han and fu. A second test compares the yaku names.

Rulesets: the ``tenhou`` preset on ``N_MAIN`` hands, and two variants on ``N_VARIANT`` hands each that flip
every option the oracle can map or emulate (see ``tests/tiles/oracle.py``: MAPPED, EMULATED, UNSUPPORTED).

Intentional differences (not failures), each with the rule that causes it, are in ``INTENTIONAL_DIFFERENCES``.
"""

from __future__ import annotations

import os
from collections import Counter

import polars as pl
import pytest

from analyzer.scoring.points import base_points, hand_points
from analyzer.core.rules import Rules, preset

pytest.importorskip("mahjong", reason="the mahjong package is the test-only oracle (pip install -e '.[test]')")
pytest.importorskip("numpy", reason="the hand generator needs numpy (pip install -e '.[test]')")

from benchmarks.handgen import generate  # noqa: E402
from tests.tiles.oracle import Unsupported, score_row  # noqa: E402

SEED = 20261122
N_MAIN = int(os.environ.get("CROSSCHECK_N", "6000"))
N_VARIANT = 2000

INTENTIONAL_DIFFERENCES = {
    "han on yakuman hands": "mahjong reports 13 han per yakuman (26 for a double); our han is 0 and the count is "
    "in `yakuman` (the contract). Compared: the yakuman count and the points, never han.",
    "fu on yakuman hands": "mahjong still computes fu from the chosen decomposition (0 for kokushi); the value "
    "takes no part in a yakuman's payment, and our fu there is not specified. Not compared.",
    "renhou = mangan": "mahjong's non-yakuman renhou is a 5-han yaku added to the rest (so 'renhou + 2 han' is "
    "haneman), ours is 'mangan, or the hand if higher'. Rows with the renhou flag are skipped under this option "
    "(the oracle raises Unsupported); the tested rulesets use renhou none/yakuman.",
    "pinfu_tsumo_fu = true": "mahjong's fu_for_pinfu_tsumo switch also removes the pinfu yaku (it recognises pinfu "
    "as 'only the base fu'), so the oracle emulates the option: pinfu tsumo -> 30 fu, pinfu kept.",
    "double_wind_pair_fu = 2": "mahjong has no switch (always 4): emulated by taking 2 off the double-wind pair.",
    "rinshan_tsumo_fu = false": "mahjong has no switch (always gives tsumo fu): emulated.",
    "yakuman_stacking = false": "mahjong always stacks (up to 6): the oracle caps the count afterwards.",
    "tenhou/chiihou with another yakuman": "both stack, as in mahjong; compared as is.",
}

TENHOU = preset("tenhou")
VARIANTS = {
    "tenhou": TENHOU,
    # options mahjong maps directly
    "mapped": TENHOU.replace(open_tanyao=False, aka_dora=False, kiriage=True, kazoe="sanbaiman",
                             double_yakuman=True, renhou="yakuman", kan_dora=False),
    # options the oracle emulates
    "emulated": TENHOU.replace(double_wind_pair_fu=2, pinfu_tsumo_fu=True, rinshan_tsumo_fu=False,
                               yakuman_stacking=False, ura_dora=False),
}


def _score_tiles():
    try:
        from analyzer.tiles import score_tiles
    except ImportError as exc:  # pragma: no cover - until analyzer.tiles lands
        pytest.skip(f"analyzer.tiles.score_tiles is not available yet ({exc})")
    return score_tiles


@pytest.fixture(scope="module")
def hands() -> pl.DataFrame:
    return generate(N_MAIN, seed=SEED).with_row_index("_id")


_SCORED: dict[str, pl.DataFrame] = {}


def scored(hands: pl.DataFrame, variant: str) -> pl.DataFrame:
    """Analyzer scores of the variant's hands (one collect per ruleset per session)."""
    if variant not in _SCORED:
        df = hands if variant == "tenhou" else hands.head(N_VARIANT)
        _SCORED[variant] = analyzer_scores(df, VARIANTS[variant])
    return _SCORED[variant]


def analyzer_scores(df: pl.DataFrame, rules: Rules) -> pl.DataFrame:
    """score_tiles output plus the hand value, in input order."""
    score_tiles = _score_tiles()
    out = score_tiles(df.lazy(), rules).collect()
    base = base_points(pl.col("han"), pl.col("fu"), pl.col("yakuman"), rules)
    return out.with_columns(points=hand_points(base, pl.col("_winner_is_dealer"), pl.col("_is_tsumo"))).sort("_id")


def compare(ours_df: pl.DataFrame, rules: Rules) -> tuple[list[dict], Counter, int]:
    """(mismatches, skipped reasons, compared count) of one ruleset's analyzer scores."""
    ours = ours_df.to_dicts()
    cap = rules.yakuman_max if rules.yakuman_stacking else 1
    mismatches, skipped, compared = [], Counter(), 0
    for row in ours:
        try:
            o = score_row(row, rules)
        except Unsupported as exc:
            skipped[str(exc)[:60]] += 1
            continue
        if o.error not in (None, "no_yaku"):
            skipped[f"oracle rejects: {o.error}"] += 1
            continue
        compared += 1
        ours_no_yaku = row.get("tile_problem") == "no_yaku"
        problems = []
        if (o.error == "no_yaku") != ours_no_yaku or (row.get("tile_problem") not in (None, "no_yaku")):
            problems.append(f"outcome: ours {row.get('tile_problem')!r}, mahjong {o.error!r}")
        elif o.error is None:
            y = min(int(row["yakuman"] or 0), cap)
            if y != o.yakuman:
                problems.append(f"yakuman {y} != {o.yakuman}")
            if row["points"] != o.points:
                problems.append(f"points {row['points']} != {o.points}")
            if o.yakuman == 0 and y == 0:
                if row["han"] != o.han:
                    problems.append(f"han {row['han']} != {o.han}")
                if row["fu"] != o.fu:
                    problems.append(f"fu {row['fu']} != {o.fu}")
        if problems:
            mismatches.append({"row": row, "oracle": o, "problems": problems})
    return mismatches, skipped, compared


def describe(mismatches: list[dict], limit: int = 12) -> str:
    classes = Counter((m["row"]["theme"], m["problems"][0].split(" ")[0]) for m in mismatches)
    lines = [f"{len(mismatches)} mismatches; classes (theme, field): {dict(classes.most_common())}"]
    keys = ["hand", "melds", "win_tile", "dora", "ura", "_is_tsumo", "_is_riichi", "_seat_wind", "_round_wind",
            "ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou"]
    for m in mismatches[:limit]:
        r, o = m["row"], m["oracle"]
        inp = {k: r[k] for k in keys if r.get(k) not in (False, None, [])}
        ours = [(y["name"], y["han"]) for y in (r.get("yaku") or [])]
        lines.append(f"- {m['problems']} theme={r['theme']} input={inp}\n    ours: han={r['han']} fu={r['fu']} "
                     f"yakuman={r['yakuman']} yaku={ours} dora={r.get('dora_count')} aka={r.get('aka_dora')} "
                     f"ura={r.get('ura_dora')} fu_detail={r.get('fu_detail')}\n    mahjong: han={o.han} "
                     f"fu={o.fu} yakuman={o.yakuman} yaku={o.yaku} dora={o.dora} aka={o.aka} ura={o.ura} "
                     f"fu_details={o.fu_details}")
    return "\n".join(lines)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_crosscheck_points_han_fu(hands: pl.DataFrame, variant: str) -> None:
    ours = scored(hands, variant)
    mismatches, skipped, compared = compare(ours, VARIANTS[variant])
    assert compared >= (0.9 * len(ours)), f"oracle compared only {compared} of {len(ours)} hands: {skipped}"
    assert not mismatches, describe(mismatches)


def test_crosscheck_yaku_names(hands: pl.DataFrame) -> None:
    """Same yaku names (dora excluded) whenever han, fu and points already agree."""
    ours = scored(hands, "tenhou").to_dicts()
    bad = []
    for row in ours:
        o = score_row(row, TENHOU)
        if o.error or row.get("tile_problem"):
            continue
        names = sorted(y["name"] for y in (row.get("yaku") or []) if y["name"] not in ("dora", "aka", "aka_dora",
                                                                                       "ura", "ura_dora"))
        if names != o.yaku:
            bad.append({"row": row, "oracle": o, "problems": [f"yaku {names} != {o.yaku}"]})
    assert not bad, describe(bad)


def test_generator_hands_are_winning_and_legal(hands: pl.DataFrame) -> None:
    """Every generated hand is a winning hand with legal flags for the oracle (no rejects at all)."""
    rejects = Counter()
    for row in hands.head(2000).to_dicts():
        o = score_row(row, TENHOU)
        if o.error not in (None, "no_yaku"):
            rejects[o.error] += 1
    assert not rejects, rejects
