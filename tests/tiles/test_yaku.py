"""Every yaku and yakuman, with exact han / fu / yaku / wait (one batched scoring per rules set)."""

from __future__ import annotations

import pytest

from analyzer.core.rules import Rules
from tests.tiles.helpers import score_frame, yaku_of

# id, case, expected yaku {name: han}, han, fu, wait
CASES = [
    ("riichi_pinfu_ron", dict(hand="12355m456p234789s", win="4s", riichi=True),
     {"riichi": 1, "pinfu": 1}, 2, 30, "ryanmen"),
    ("pinfu_tsumo", dict(hand="12355m456p234789s", win="4s", riichi=True, tsumo=True),
     {"riichi": 1, "menzen_tsumo": 1, "pinfu": 1}, 3, 20, "ryanmen"),
    ("open_tanyao", dict(hand="234m567p34566s", melds="chi:678p", win="2m"), {"tanyao": 1}, 1, 30, "ryanmen"),
    ("iipeikou_pinfu", dict(hand="112233m456p55p789s", win="4p"), {"pinfu": 1, "iipeikou": 1}, 2, 30, "ryanmen"),
    ("ryanpeikou_over_chiitoitsu", dict(hand="112233m445566p99s", win="9s"), {"ryanpeikou": 3}, 3, 40, "tanki"),
    ("haku_tanki", dict(hand="123m456p78911s", melds="pon:555z", win="1s"), {"haku": 1}, 1, 30, "tanki"),
    ("hatsu_chun", dict(hand="123m456p11s", melds="pon:666z pon:777z", win="2m"),
     {"hatsu": 1, "chun": 1}, 2, 30, "kanchan"),
    ("double_east", dict(hand="123m456p789s11s", melds="pon:111z", win="4p", seat=0, round=0),
     {"seat_wind": 1, "round_wind": 1}, 2, 30, "ryanmen"),
    ("sanshoku", dict(hand="123789m123p55p123s", win="5p"), {"sanshoku": 2}, 2, 40, "tanki"),
    ("sanshoku_doukou_open", dict(hand="222345m222p66p", melds="pon:222s", win="3m"),
     {"sanshoku_doukou": 2, "tanyao": 1}, 3, 30, "ryanmen"),
    ("ittsu_pinfu", dict(hand="123456789m234p55s", win="1m"), {"pinfu": 1, "ittsu": 2}, 3, 30, "ryanmen"),
    ("ittsu_open", dict(hand="123456m234p55s", melds="chi:789m", win="1m"), {"ittsu": 1}, 1, 30, "ryanmen"),
    ("junchan_penchan", dict(hand="123789m123p78999s", win="7s"), {"junchan": 3}, 3, 40, "penchan"),
    ("chinitsu_closed", dict(hand="11223345678999m", win="4m"),
     {"pinfu": 1, "iipeikou": 1, "ittsu": 2, "chinitsu": 6}, 10, 30, "ryanmen"),
    ("chinitsu_open", dict(hand="12345699m", melds="chi:789m pon:222m", win="1m"), {"ittsu": 1, "chinitsu": 5}, 6, 30,
     "ryanmen"),
    ("sanankou", dict(hand="222m444p666789s11z", win="7s", seat=1, round=0),
     {"sanankou": 2}, 2, 50, "penchan"),
    ("sankantsu", dict(hand="789s11z", melds="ankan:2222m minkan:4444p kakan:6666s", win="7s", seat=1, round=0),
     {"sankantsu": 2}, 2, 60, "penchan"),
    ("honroutou_toitoi", dict(hand="111m999p11199s", melds="pon:777z", win="1m"),
     {"chun": 1, "toitoi": 2, "honroutou": 2}, 5, 50, "shanpon"),
    ("shousangen", dict(hand="123m456p55566677z", win="3m"),
     {"haku": 1, "hatsu": 1, "shousangen": 2}, 4, 50, "penchan"),
    ("chiitoitsu_riichi", dict(hand="1133m5577p22s4466z", win="4z", riichi=True),
     {"riichi": 1, "chiitoitsu": 2}, 3, 25, "chiitoitsu"),
    ("chiitoitsu_tanyao_tsumo", dict(hand="2233m5577p2288s66s", win="2m", tsumo=True),
     {"menzen_tsumo": 1, "tanyao": 1, "chiitoitsu": 2}, 4, 25, "chiitoitsu"),
    ("honitsu_chiitoitsu", dict(hand="1133557799m1122z", win="9m"), {"chiitoitsu": 2, "honitsu": 3}, 5, 25, "chiitoitsu"),
    ("double_riichi_ippatsu", dict(hand="12355m456p234789s", win="4s", riichi=True, double_riichi=True, ippatsu=True),
     {"double_riichi": 2, "ippatsu": 1, "pinfu": 1}, 4, 30, "ryanmen"),
    ("haitei", dict(hand="12355m456p234789s", win="4s", tsumo=True, haitei=True),
     {"menzen_tsumo": 1, "pinfu": 1, "haitei": 1}, 3, 20, "ryanmen"),
    ("houtei", dict(hand="123m456p11s", melds="pon:666z pon:777z", win="2m", houtei=True),
     {"hatsu": 1, "chun": 1, "houtei": 1}, 3, 30, "kanchan"),
    ("rinshan", dict(hand="123m456p11s", melds="minkan:6666z pon:777z", win="2m", tsumo=True, rinshan=True),
     {"hatsu": 1, "chun": 1, "rinshan": 1}, 3, 50, "kanchan"),
    ("chankan", dict(hand="12355m456p234789s", win="4s", chankan=True),
     {"pinfu": 1, "chankan": 1}, 2, 30, "ryanmen"),
    # yakuman (han 0; yakuman entries carry 13 x count)
    ("kokushi", dict(hand="119m19p19s1234567z", win="9p"), {"kokushi": 13}, 0, 0, "kokushi"),
    ("kokushi_13", dict(hand="119m19p19s1234567z", win="1m"), {"kokushi_13": 13}, 0, 0, "kokushi_13"),
    ("suuankou_tsumo", dict(hand="111m33399p555777s", win="3p", tsumo=True), {"suuankou": 13}, 0, 50, "shanpon"),
    ("suuankou_tanki", dict(hand="111m33399p555777s", win="9p"), {"suuankou_tanki": 13}, 0, 60, "tanki"),
    ("daisangen", dict(hand="13m11p555666777z2m", win="2m"), {"daisangen": 13}, 0, 60, "kanchan"),
    ("shousuushii", dict(hand="123m11122233344z", win="1m"), {"shousuushii": 13}, 0, 60, "ryanmen"),
    ("daisuushii", dict(hand="111222333z11m", melds="pon:444z", win="1m"), {"daisuushii": 13}, 0, 50, "tanki"),
    ("tsuuiisou", dict(hand="11122255566z", melds="pon:777z", win="6z"), {"tsuuiisou": 13}, 0, 60, "tanki"),
    ("ryuuiisou", dict(hand="22334466688s666z", win="8s"), {"ryuuiisou": 13}, 0, 50, "tanki"),
    ("chinroutou", dict(hand="111999m111p11s", melds="pon:999p", win="1s"), {"chinroutou": 13}, 0, 50, "tanki"),
    ("chuuren", dict(hand="11123455678999m", win="3m"), {"chuuren": 13}, 0, 50, "kanchan"),
    ("junsei_chuuren", dict(hand="11123455678999m", win="5m"), {"junsei_chuuren": 13}, 0, 50, "tanki"),
    ("suukantsu", dict(hand="55z", melds="ankan:1111m minkan:2222p minkan:3333s kakan:4444z", win="5z"),
     {"suukantsu": 13}, 0, 90, "tanki"),
    ("tenhou", dict(hand="12355m456p234789s", win="4s", tsumo=True, seat=0, tenhou=True), {"tenhou": 13}, 0, 20, "ryanmen"),
    ("chiihou", dict(hand="12355m456p234789s", win="4s", tsumo=True, chiihou=True), {"chiihou": 13}, 0, 20, "ryanmen"),
]


@pytest.fixture(scope="module")
def scored():
    df = score_frame([c for _, c, *_ in CASES])
    return {name: row for (name, *_), row in zip(CASES, df.iter_rows(named=True))}


@pytest.mark.parametrize("name,case,yaku,han,fu,wait", CASES, ids=[c[0] for c in CASES])
def test_yaku(scored, name, case, yaku, han, fu, wait):
    row = scored[name]
    assert row["tile_problem"] is None
    assert yaku_of(row) == yaku
    assert (row["han"], row["fu"], row["wait"]) == (han, fu, wait)
    assert row["yakuman"] == sum(1 for n in yaku if yaku[n] == 13)  # one each (double_yakuman off)


DOUBLE = [
    ("kokushi_13", dict(hand="119m19p19s1234567z", win="1m"), {"kokushi_13": 26}, 2),
    ("suuankou_tanki", dict(hand="111m33399p555777s", win="9p"), {"suuankou_tanki": 26}, 2),
    ("junsei", dict(hand="11123455678999m", win="5m"), {"junsei_chuuren": 26}, 2),
    ("daisuushii", dict(hand="111222333z11m", melds="pon:444z", win="1m"), {"daisuushii": 26}, 2),
    ("stack", dict(hand="11122255566z", melds="pon:777z", win="6z", tsumo=True, seat=0, tenhou=True),
     {"tsuuiisou": 13, "tenhou": 13}, 2),
]


@pytest.mark.parametrize("name,case,yaku,count", DOUBLE, ids=[c[0] for c in DOUBLE])
def test_double_yakuman(name, case, yaku, count):
    df = score_frame([case], Rules(double_yakuman=True))
    row = df.row(0, named=True)
    assert yaku_of(row) == yaku
    assert row["yakuman"] == count


def test_open_tanyao_rule():
    row = score_frame([dict(hand="234m567p34566s", melds="chi:678p", win="2m")], Rules(open_tanyao=False)).row(0, named=True)
    assert row["tile_problem"] == "no_yaku"
    assert row["han"] is None


@pytest.mark.parametrize(
    "mode,yaku,han,points",
    [
        ("none", {"pinfu": 1}, 1, 1000),
        # 'mangan': the renhou entry fills the hand up to 5 han (mangan), or adds 0 when the hand is bigger
        ("mangan", {"pinfu": 1, "renhou": 4}, 5, 8000),
        ("yakuman", {"renhou": 13}, 0, 32000),
    ],
)
def test_renhou(mode, yaku, han, points):
    case = dict(hand="123m456p789s23455s", win="2s", renhou=True)
    row = score_frame([case], Rules(renhou=mode)).row(0, named=True)
    assert (yaku_of(row), row["han"], row["points"]) == (yaku, han, points)


def test_renhou_mangan_bigger_hand():
    case = dict(hand="234m456p66s234567s", win="2m", renhou=True, dora="5s5p")
    row = score_frame([case], Rules(renhou="mangan")).row(0, named=True)
    # pinfu 1, tanyao 1, dora 4 (three 6s via 5s, one 6p via 5p) = 6 han already: renhou adds 0
    assert yaku_of(row) == {"pinfu": 1, "tanyao": 1, "renhou": 0}
    assert (row["han"], row["dora_count"], row["points"]) == (6, 4, 12000)
