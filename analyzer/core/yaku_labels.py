"""What a person reads for a yaku id: its English name and its Japanese name, e.g. ``Riichi (立直)``.

The ids are those of :mod:`analyzer.tiles.yaku` (the ``yaku`` column of hands scored from tiles), of the
importers' name tables (:mod:`analyzer.formats.tenhou.yaku_names`, which map Tenhou's and mjai's names to these ids)
and of the dora counts. The English names are the romanised names English-speaking players use (as the
tenhou.net/6 English viewer shows them); the Japanese names are Tenhou's, without the wind or dragon a
seat-wind, round-wind or dragon yaku is for.
"""

from __future__ import annotations

YAKU_LABELS: dict[str, tuple[str, str]] = {
    "riichi": ("Riichi", "立直"),
    "double_riichi": ("Double riichi", "両立直"),
    "ippatsu": ("Ippatsu", "一発"),
    "menzen_tsumo": ("Menzen tsumo", "門前清自摸和"),
    "pinfu": ("Pinfu", "平和"),
    "tanyao": ("Tanyao", "断幺九"),
    "iipeikou": ("Iipeikou", "一盃口"),
    "ryanpeikou": ("Ryanpeikou", "二盃口"),
    "haku": ("Haku", "役牌 白"),
    "hatsu": ("Hatsu", "役牌 發"),
    "chun": ("Chun", "役牌 中"),
    "seat_wind": ("Seat wind", "自風"),
    "round_wind": ("Round wind", "場風"),
    "sanshoku": ("Sanshoku", "三色同順"),
    "sanshoku_doukou": ("Sanshoku doukou", "三色同刻"),
    "ittsu": ("Ittsu", "一気通貫"),
    "chanta": ("Chanta", "混全帯幺九"),
    "junchan": ("Junchan", "純全帯幺九"),
    "honitsu": ("Honitsu", "混一色"),
    "chinitsu": ("Chinitsu", "清一色"),
    "toitoi": ("Toitoi", "対々和"),
    "sanankou": ("Sanankou", "三暗刻"),
    "sankantsu": ("Sankantsu", "三槓子"),
    "honroutou": ("Honroutou", "混老頭"),
    "shousangen": ("Shousangen", "小三元"),
    "chiitoitsu": ("Chiitoitsu", "七対子"),
    "haitei": ("Haitei raoyue", "海底摸月"),
    "houtei": ("Houtei raoyui", "河底撈魚"),
    "rinshan": ("Rinshan kaihou", "嶺上開花"),
    "chankan": ("Chankan", "槍槓"),
    "renhou": ("Renhou", "人和"),
    "kokushi": ("Kokushi musou", "国士無双"),
    "kokushi_13": ("Kokushi 13-sided wait", "国士無双13面"),
    "suuankou": ("Suuankou", "四暗刻"),
    "suuankou_tanki": ("Suuankou tanki", "四暗刻単騎"),
    "daisangen": ("Daisangen", "大三元"),
    "shousuushii": ("Shousuushii", "小四喜"),
    "daisuushii": ("Daisuushii", "大四喜"),
    "tsuuiisou": ("Tsuuiisou", "字一色"),
    "ryuuiisou": ("Ryuuiisou", "緑一色"),
    "chinroutou": ("Chinroutou", "清老頭"),
    "chuuren": ("Chuuren poutou", "九蓮宝燈"),
    "junsei_chuuren": ("Junsei chuuren", "純正九蓮宝燈"),
    "suukantsu": ("Suukantsu", "四槓子"),
    "tenhou": ("Tenhou", "天和"),
    "chiihou": ("Chiihou", "地和"),
    "dora": ("Dora", "ドラ"),
    "ura": ("Ura dora", "裏ドラ"),
    "aka": ("Aka dora", "赤ドラ"),
}


def yaku_label(yaku: str) -> str:
    """``English (日本語)`` of a yaku id; an id not in :data:`YAKU_LABELS` as it is."""
    names = YAKU_LABELS.get(yaku)
    return f"{names[0]} ({names[1]})" if names else yaku


def yaku_label_map() -> dict[str, str]:
    """Every id of :data:`YAKU_LABELS` -> its :func:`yaku_label` (for ``Expr.replace``)."""
    return {yaku: yaku_label(yaku) for yaku in YAKU_LABELS}
