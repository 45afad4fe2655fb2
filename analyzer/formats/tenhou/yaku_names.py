"""Tenhou's names of the recorded yaku and limits, mapped to ours (the names of :mod:`analyzer.tiles.yaku`).

mjlog gives yaku as ids (:data:`TENHOU_YAKU_IDS`) and the limit as an index (:data:`LIMITS`); Tenhou JSON and
mjai give display names, in Japanese or English (:func:`yaku_name`), Mahjong Soul games converted by tensoul
Mahjong Soul's (``役牌:場風牌``; see :mod:`.majsoul`).
"""

from __future__ import annotations

# Tenhou's yaku ids (mjlog ``yaku``/``yakuman``) in order; the last three are dora counts (dora, ura, red fives).
TENHOU_YAKU_IDS = [
    "menzen_tsumo", "riichi", "ippatsu", "chankan", "rinshan", "haitei", "houtei", "pinfu", "tanyao", "iipeikou",
    "seat_wind", "seat_wind", "seat_wind", "seat_wind", "round_wind", "round_wind", "round_wind", "round_wind",
    "haku", "hatsu", "chun", "double_riichi", "chiitoitsu", "chanta", "ittsu", "sanshoku", "sanshoku_doukou",
    "sankantsu", "toitoi", "sanankou", "shousangen", "honroutou", "ryanpeikou", "junchan", "honitsu", "chinitsu",
    "renhou", "tenhou", "chiihou", "daisangen", "suuankou", "suuankou_tanki", "tsuuiisou", "ryuuiisou",
    "chinroutou", "chuuren", "junsei_chuuren", "kokushi", "kokushi_13", "daisuushii", "shousuushii", "suukantsu",
    "dora", "ura", "aka",
]  # fmt: skip

JA_NAMES = {
    "門前清自摸和": "menzen_tsumo", "立直": "riichi", "一発": "ippatsu", "槍槓": "chankan", "嶺上開花": "rinshan",
    "海底摸月": "haitei", "河底撈魚": "houtei", "平和": "pinfu", "断幺九": "tanyao", "一盃口": "iipeikou",
    "自風 東": "seat_wind", "自風 南": "seat_wind", "自風 西": "seat_wind", "自風 北": "seat_wind",
    "場風 東": "round_wind", "場風 南": "round_wind", "場風 西": "round_wind", "場風 北": "round_wind",
    "役牌 白": "haku", "役牌 發": "hatsu", "役牌 中": "chun", "両立直": "double_riichi", "七対子": "chiitoitsu",
    "混全帯幺九": "chanta", "一気通貫": "ittsu", "三色同順": "sanshoku", "三色同刻": "sanshoku_doukou",
    "三槓子": "sankantsu", "対々和": "toitoi", "三暗刻": "sanankou", "小三元": "shousangen", "混老頭": "honroutou",
    "二盃口": "ryanpeikou", "純全帯幺九": "junchan", "混一色": "honitsu", "清一色": "chinitsu", "人和": "renhou",
    "天和": "tenhou", "地和": "chiihou", "大三元": "daisangen", "四暗刻": "suuankou", "四暗刻単騎": "suuankou_tanki",
    "字一色": "tsuuiisou", "緑一色": "ryuuiisou", "清老頭": "chinroutou", "九蓮宝燈": "chuuren",
    "純正九蓮宝燈": "junsei_chuuren", "国士無双": "kokushi", "国士無双１３面": "kokushi_13",
    "国士無双13面": "kokushi_13", "大四喜": "daisuushii", "小四喜": "shousuushii", "四槓子": "suukantsu",
    "ドラ": "dora", "裏ドラ": "ura", "赤ドラ": "aka",
    # Mahjong Soul's own names, as tensoul writes them (its data.json fan table, name_jp)
    "役牌:自風牌": "seat_wind", "役牌:場風牌": "round_wind", "ダブル立直": "double_riichi",
    "国士無双十三面待ち": "kokushi_13",
}  # fmt: skip

# English display names of the tenhou.net/6 viewer (and common romaji), matched lower-case without spaces.
EN_NAMES = {
    "menzentsumo": "menzen_tsumo", "fullyconcealedhand": "menzen_tsumo", "selfdraw": "menzen_tsumo",
    "riichi": "riichi", "ippatsu": "ippatsu", "chankan": "chankan", "robbingakan": "chankan",
    "rinshan": "rinshan", "rinshankaihou": "rinshan", "afterakan": "rinshan", "haitei": "haitei",
    "haiteiraoyue": "haitei", "underthesea": "haitei", "houtei": "houtei", "houteiraoyui": "houtei",
    "undertheriver": "houtei", "pinfu": "pinfu", "tanyao": "tanyao", "allsimples": "tanyao",
    "iipeikou": "iipeikou", "puredoublesequence": "iipeikou", "seatwind": "seat_wind", "roundwind": "round_wind",
    "prevalentwind": "round_wind", "haku": "haku", "whitedragon": "haku", "hatsu": "hatsu",
    "greendragon": "hatsu", "chun": "chun", "reddragon": "chun", "doubleriichi": "double_riichi",
    "chiitoitsu": "chiitoitsu", "sevenpairs": "chiitoitsu", "chanta": "chanta", "halfoutsidehand": "chanta",
    "ittsu": "ittsu", "purestraight": "ittsu", "sanshoku": "sanshoku", "mixedtriplesequence": "sanshoku",
    "sanshokudoukou": "sanshoku_doukou", "tripletriplets": "sanshoku_doukou", "sankantsu": "sankantsu",
    "threequads": "sankantsu", "toitoi": "toitoi", "alltriplets": "toitoi", "sanankou": "sanankou",
    "threeconcealedtriplets": "sanankou", "shousangen": "shousangen", "littlethreedragons": "shousangen",
    "honroutou": "honroutou", "allterminalsandhonors": "honroutou", "ryanpeikou": "ryanpeikou",
    "twicepuredoublesequence": "ryanpeikou", "junchan": "junchan", "fullyoutsidehand": "junchan",
    "honitsu": "honitsu", "halfflush": "honitsu", "chinitsu": "chinitsu", "fullflush": "chinitsu",
    "renhou": "renhou", "blessingofman": "renhou", "tenhou": "tenhou", "blessingofheaven": "tenhou",
    "chiihou": "chiihou", "blessingofearth": "chiihou", "daisangen": "daisangen", "bigthreedragons": "daisangen",
    "suuankou": "suuankou", "fourconcealedtriplets": "suuankou", "suuankoutanki": "suuankou_tanki",
    "tsuuiisou": "tsuuiisou", "allhonors": "tsuuiisou", "ryuuiisou": "ryuuiisou", "allgreen": "ryuuiisou",
    "chinroutou": "chinroutou", "allterminals": "chinroutou", "chuuren": "chuuren", "chuurenpoutou": "chuuren",
    "ninegates": "chuuren", "junseichuuren": "junsei_chuuren", "truenninegates": "junsei_chuuren",
    "kokushi": "kokushi", "kokushimusou": "kokushi", "thirteenorphans": "kokushi", "kokushi13": "kokushi_13",
    "daisuushii": "daisuushii", "bigfourwinds": "daisuushii", "shousuushii": "shousuushii",
    "littlefourwinds": "shousuushii", "suukantsu": "suukantsu", "fourquads": "suukantsu", "dora": "dora",
    "uradora": "ura", "ura": "ura", "akadora": "aka", "reddora": "aka", "redfive": "aka", "aka": "aka",
    # Mahjong Soul's English names (tensoul data.json, name_en)
    "trueninegates": "junsei_chuuren", "singlewaitfourconcealedtriplets": "suuankou_tanki",
    "thirteenwaitthirteenorphans": "kokushi_13", "fourbigwinds": "daisuushii", "fourlittlewinds": "shousuushii",
    "handofman": "renhou",
}  # fmt: skip


def yaku_name(text: str) -> str | None:
    """Our canonical name for a Tenhou yaku display name (Japanese or English); None if unknown."""
    text = text.strip()
    if text in JA_NAMES:
        return JA_NAMES[text]
    key = "".join(ch for ch in text.lower() if ch.isalnum())
    if key in EN_NAMES:
        return EN_NAMES[key]
    for prefix, name in (("seatwind", "seat_wind"), ("roundwind", "round_wind"), ("prevalentwind", "round_wind")):
        if key.startswith(prefix):
            return name
    return None


# mjlog ``ten``'s third number: the limit the hand reached (kazoe yakuman too is 5).
LIMITS = {0: None, 1: "mangan", 2: "haneman", 3: "baiman", 4: "sanbaiman", 5: "yakuman"}
