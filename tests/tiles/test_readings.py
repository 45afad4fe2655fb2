"""Choosing between readings: several splits, chiitoitsu vs ryanpeikou, shanpon ron vs suuankou, purity."""

from __future__ import annotations

import re
from pathlib import Path

from analyzer.core.rules import Rules
from tests.tiles.helpers import score_frame, yaku_of


def test_suuankou_ron_on_shanpon_is_sanankou_toitoi():
    row = score_frame([dict(hand="111m33399p555777s", win="3p")]).row(0, named=True)
    assert yaku_of(row) == {"toitoi": 2, "sanankou": 2}
    # 20 + 10 menzen ron + 333p open by ron (2) + 555s, 777s closed (4+4) + 111m closed (8) = 48 -> 50
    assert (row["han"], row["fu"], row["yakuman"], row["wait"]) == (4, 50, 0, "shanpon")


def test_best_of_several_splits_in_one_suit():
    # 111222333m: three pons (sanankou) or three identical chis (iipeikou); tsumo so the pons stay closed
    row = score_frame([dict(hand="111222333m456p77s", win="7s", tsumo=True)]).row(0, named=True)
    assert yaku_of(row) == {"menzen_tsumo": 1, "sanankou": 2}
    assert (row["han"], row["fu"], row["points"]) == (3, 40, 5200)  # 20 + 2 tsumo + 2 tanki + 8+4+4 = 40
    # 11122233344455m has several splits: won on the pair it is suuankou tanki (a yakuman) ...
    rows = score_frame([dict(hand="11122233344455m", win="5m", riichi=True),
                        # ... won on 1m by ron: 111 is open, so sanankou + toitoi + chinitsu (11 han) beats
                        # the 123x3 + 444 + 55 reading (iipeikou + chinitsu)
                        dict(hand="11122233344455m", win="1m", riichi=True)])
    assert yaku_of(rows.row(0, named=True)) == {"suuankou_tanki": 13}
    second = rows.row(1, named=True)
    assert yaku_of(second) == {"riichi": 1, "toitoi": 2, "sanankou": 2, "chinitsu": 6}
    assert (second["han"], second["fu"], second["wait"], second["points"]) == (11, 50, "shanpon", 24000)


def test_kazoe_vs_real_yakuman_and_yakuman_ignores_dora():
    # daisangen with dora indicators pointing at its tiles: a yakuman, dora not counted
    row = score_frame([dict(hand="13m11p555666777z2m", win="2m", dora="4z4z4z")]).row(0, named=True)
    assert (row["yakuman"], row["han"], row["dora_count"], row["points"]) == (1, 0, 0, 32000)
    # 22334455667788m by tsumo on 8m: 22+345x2+678x2 gives pinfu (ryanmen) -> riichi, tsumo, pinfu, tanyao,
    # ryanpeikou, chinitsu = 13 han: kazoe yakuman (not a real yakuman), 8000/16000
    row = score_frame([dict(hand="22334455667788m", win="8m", riichi=True, tsumo=True)]).row(0, named=True)
    assert yaku_of(row) == {"riichi": 1, "menzen_tsumo": 1, "pinfu": 1, "tanyao": 1, "ryanpeikou": 3, "chinitsu": 6}
    assert (row["han"], row["fu"], row["yakuman"], row["points"]) == (13, 20, 0, 32000)
    row = score_frame([dict(hand="22334455667788m", win="8m", riichi=True, tsumo=True)],
                      Rules(kazoe="sanbaiman")).row(0, named=True)
    assert row["points"] == 24000


def test_dealer_and_points():
    rows = score_frame([
        dict(hand="12355m456p234789s", win="4s", riichi=True, seat=0),  # dealer ron 2 han 30 fu = 2900
        dict(hand="12355m456p234789s", win="4s", riichi=True, seat=0, tsumo=True),  # 3 han 20 fu: 1300 all
    ])
    assert rows["points"].to_list() == [2900, 3900]


def test_no_row_wise_python_in_the_scorer():
    src = "\n".join(p.read_text() for p in Path("analyzer/tiles").glob("*.py"))
    for banned in ("map_elements", ".apply(", "iter_rows", "map_rows", "map_batches", "to_list()"):
        assert banned not in src, banned
    assert not re.search(r"for \w+ in .*\.rows\(", src)
