"""Riichi City's yaku ids (``fang_type`` of a win's ``fang_info``) as our canonical names
(:data:`analyzer.formats.tenhou.yaku_names.TENHOU_YAKU_IDS` has them all).

Sources: the ``Yakus`` table of cht33/RiichiCity-to-Tenhou-Log-Parser (``convert.py``: ids 0-56 with their
Chinese and Japanese names), and the client's ``EMjFangType`` as 0num4/paifu-playground transcribes it
(``riichicity/Types/commonConsts.py``: ``fangTypeYiPaiQuan`` 10 the round wind 圈风, ``fangTypeYiPaiMen`` 11 the
seat wind 门风, ``fangTypeKaiLiZhi`` 52 open riichi, ``fangTypePullNorth`` 55 the norths set aside, ``fangTypeYiPaiBei``
56 north as a value honour).

Dora (50), red fives (49) and ura (51) go to their counts, and the norths set aside (55) to the dora, as Tenhou
counts them. Open riichi (開立直, 52) is riichi and open double riichi (53) double riichi, with the han the record
gives them (2 and 3): the rules have no open riichi, so such a hand's extra han stays visible to ``check``. What
our yaku have no name for is kept as ``unknown:NAME`` (a note names it).
"""

from __future__ import annotations

KITA, NAGASHI = 55, 30
COUNTED = {49: "aka", 50: "dora", 51: "ura", KITA: "dora"}  # counts, not yaku: the norths are dora

FANG_NAMES = {
    0: "riichi", 1: "menzen_tsumo", 2: "ippatsu", 3: "rinshan", 4: "haitei", 5: "houtei", 6: "chankan", 7: "chun",
    8: "hatsu", 9: "haku", 10: "round_wind", 11: "seat_wind", 12: "iipeikou", 13: "pinfu", 14: "tanyao",
    15: "double_riichi", 16: "toitoi", 17: "chiitoitsu", 18: "sanankou", 19: "sankantsu", 20: "honroutou",
    21: "chanta", 22: "ittsu", 23: "sanshoku", 24: "shousangen", 25: "sanshoku_doukou", 26: "junchan",
    27: "honitsu", 28: "ryanpeikou", 29: "chinitsu", 31: "tenhou", 32: "chiihou", 33: "renhou", 34: "kokushi",
    35: "kokushi_13", 36: "chuuren", 37: "junsei_chuuren", 38: "suuankou", 39: "suuankou_tanki", 40: "suukantsu",
    41: "chinroutou", 42: "tsuuiisou", 43: "daisuushii", 44: "shousuushii", 45: "daisangen", 46: "ryuuiisou",
    47: "ryuuiisou", 52: "riichi", 53: "double_riichi",
}  # fmt: skip
UNKNOWN = {30: "nagashi_mangan", 48: "paarenchan", 54: "open_riichi_yakuman", 56: "north_value_honour"}
OPEN_RIICHI = (52, 53, 54)
YAKUMAN = frozenset([*range(31, 49), 54])  # 33 renhou: Riichi City plays none, a record naming it is a yakuman
# the forms Riichi City pays as two yakuman when a record does not say how many (riichi.wiki "Riichi City":
# full scoring, suuankou tanki a double)
DOUBLE_FORMS = frozenset([35, 37, 39, 43])
YAKUMAN_HAN_RC = 13  # the han a yakuman's fang_num counts (the client's YiManNum: 13 han and up is a yakuman)


def fang_name(fang_type) -> str:
    """Our name of a fang id, ``unknown:…`` for one we have no name for."""
    name = FANG_NAMES.get(fang_type)
    return name if name is not None else f"unknown:{UNKNOWN.get(fang_type, fang_type)}"


def yakuman_times(fang_type: int, fang_num: int) -> int:
    """How many yakuman a yakuman entry is: its han in 13s (26 a double), a count (1, 2) as some records
    write it, else two for a double form and one for the others."""
    if fang_num >= YAKUMAN_HAN_RC:
        return fang_num // YAKUMAN_HAN_RC
    if fang_num in (1, 2):
        return fang_num
    return 2 if fang_type in DOUBLE_FORMS else 1
