"""Score one tile-input row with the PyPI ``mahjong`` package (test-only oracle; the library never imports it).

``score_row(row, rules)`` takes a row in our column format (a dict with ``hand``, ``melds``, ``win_tile``,
``dora``, ``ura``, the situation flags, ``_is_tsumo``, ``_is_riichi``, ``_seat_wind``, ``_round_wind``) and
returns an :class:`OracleResult` in our conventions:

* ``han``: yaku + dora han; **0 for yakuman hands** (mahjong reports 13 per yakuman there),
* ``fu``: as mahjong reports it; for yakuman hands it is meaningless (see ``YAKUMAN_FU`` below),
* ``yakuman``: number of yakuman (double forms count 2 under ``double_yakuman``), capped like ``paid_yakuman``,
* ``points``: the hand's value without honba or sticks (ron payment, or the sum of the tsumo payments),
* ``yaku``: our canonical yaku names (dora, aka and ura are in ``dora``/``aka``/``ura`` instead),
* ``error``: None, ``no_yaku`` or another mahjong error (illegal flags, not a winning hand).

Rules are mapped onto ``OptionalRules`` where mahjong has a switch, and emulated after the call where it has not
(see ``EMULATED``). Options that cannot be reproduced raise :class:`Unsupported` for the rows they affect.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mahjong.constants import EAST
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

from analyzer.core.rules import Rules

# mahjong yaku class name -> our canonical yaku name (dora / aka / ura are counted separately).
YAKU_NAMES = {
    "Tsumo": "menzen_tsumo",
    "Riichi": "riichi",
    "DaburuRiichi": "double_riichi",
    "Ippatsu": "ippatsu",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Ryanpeikou": "ryanpeikou",
    "Haku": "haku",
    "Hatsu": "hatsu",
    "Chun": "chun",
    "SeatWindEast": "seat_wind",
    "SeatWindSouth": "seat_wind",
    "SeatWindWest": "seat_wind",
    "SeatWindNorth": "seat_wind",
    "RoundWindEast": "round_wind",
    "RoundWindSouth": "round_wind",
    "RoundWindWest": "round_wind",
    "RoundWindNorth": "round_wind",
    "Sanshoku": "sanshoku",
    "SanshokuDoukou": "sanshoku_doukou",
    "Ittsu": "ittsu",
    "Chantai": "chanta",
    "Junchan": "junchan",
    "Honitsu": "honitsu",
    "Chinitsu": "chinitsu",
    "Toitoi": "toitoi",
    "Sanankou": "sanankou",
    "SanKantsu": "sankantsu",
    "Honroto": "honroutou",
    "Shosangen": "shousangen",
    "Chiitoitsu": "chiitoitsu",
    "Haitei": "haitei",
    "Houtei": "houtei",
    "Rinshan": "rinshan",
    "Chankan": "chankan",
    "Renhou": "renhou",
    "RenhouYakuman": "renhou",
    "KokushiMusou": "kokushi",
    "DaburuKokushiMusou": "kokushi_13",
    "Suuankou": "suuankou",
    "SuuankouTanki": "suuankou_tanki",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "DaiSuushii": "daisuushii",
    "Tsuuiisou": "tsuuiisou",
    "Ryuuiisou": "ryuuiisou",
    "Chinroutou": "chinroutou",
    "ChuurenPoutou": "chuuren",
    "DaburuChuurenPoutou": "junsei_chuuren",
    "Suukantsu": "suukantsu",
    "Tenhou": "tenhou",
    "Chiihou": "chiihou",
}
DORA_YAKU = {"Dora": "dora", "AkaDora": "aka", "UraDora": "ura"}

# How each of our options reaches mahjong.
MAPPED = {
    "open_tanyao": "OptionalRules.has_open_tanyao",
    "aka_dora": "OptionalRules.has_aka_dora",
    "double_yakuman": "OptionalRules.has_double_yakuman",
    "kazoe": "OptionalRules.kazoe_limit (yakuman -> KAZOE_LIMITED, sanbaiman -> KAZOE_SANBAIMAN)",
    "kiriage": "OptionalRules.kiriage",
    "renhou": "none -> is_renhou not passed; yakuman -> renhou_as_yakuman",
    "ura_dora": "ura indicators passed only when on",
    "kan_dora": "only the first dora/ura indicator passed when off",
}
EMULATED = {
    "pinfu_tsumo_fu": "mahjong's fu_for_pinfu_tsumo drops the pinfu yaku (it detects pinfu as 'no fu but the base'), "
    "so the oracle runs without it and sets a pinfu tsumo to 30 fu afterwards",
    "double_wind_pair_fu": "mahjong always gives 4; for 2 the oracle takes 2 off the DOUBLE_VALUED_PAIR fu detail",
    "rinshan_tsumo_fu": "mahjong always gives the tsumo fu; when off the oracle takes 2 off a rinshan win's TSUMO fu",
    "yakuman_stacking / yakuman_max": "mahjong stacks up to 6; the oracle caps the yakuman count afterwards",
}
UNSUPPORTED = {
    "renhou=mangan": "mahjong's non-yakuman renhou is a 5-han yaku added to the others; ours is 'mangan or the hand "
    "if higher'. Rows with the renhou flag raise Unsupported under this option.",
}
# mahjong computes fu for yakuman hands from the decomposition (0 for kokushi); the value plays no part in the
# points, so the cross-check never compares fu on yakuman hands.
YAKUMAN_FU = "not compared"


class Unsupported(Exception):
    """The row cannot be scored by mahjong under these rules (see ``UNSUPPORTED``)."""


@dataclass
class OracleResult:
    error: str | None
    han: int = 0
    fu: int = 0
    yakuman: int = 0
    points: int = 0
    yaku: list[str] = field(default_factory=list)
    dora: int = 0
    aka: int = 0
    ura: int = 0
    fu_details: list = field(default_factory=list)


_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
_MELD_TYPES = {"chi": (Meld.CHI, True), "pon": (Meld.PON, True), "minkan": (Meld.KAN, True),
               "kakan": (Meld.SHOUMINKAN, True), "ankan": (Meld.KAN, False)}


def parse_tiles(text: str | None) -> list[tuple[int, bool]]:
    """MPSZ text -> [(tile34, is_red)] in written order ('0' is a red five)."""
    out: list[tuple[int, bool]] = []
    digits: list[str] = []
    for ch in text or "":
        if ch.isdigit():
            digits.append(ch)
        elif ch in _SUIT_BASE:
            for d in digits:
                red = d == "0"
                out.append((_SUIT_BASE[ch] + (4 if red else int(d) - 1), red))
            digits = []
        elif not ch.isspace():
            raise ValueError(f"bad tile text {text!r}")
    if digits:
        raise ValueError(f"tile text {text!r} ends without a suit")
    return out


class _Ids:
    """Hands out distinct 136-ids: the red five is copy 0 (mahjong's AKA_DORAS), plain fives copies 1-3."""

    def __init__(self) -> None:
        self.used: dict[int, list[int]] = {}

    def take(self, tile: int, red: bool) -> int:
        used = self.used.setdefault(tile, [])
        is_five = tile < 27 and tile % 9 == 4
        if red:
            choices = [0]
        elif is_five:
            choices = [1, 2, 3]
        else:
            choices = [0, 1, 2, 3]
        for c in choices:
            if c not in used:
                used.append(c)
                return tile * 4 + c
        raise Unsupported(f"more copies of tile {tile} than mahjong can tell apart (red={red})")


def options_for(rules: Rules) -> OptionalRules:
    return OptionalRules(
        has_open_tanyao=rules.open_tanyao,
        has_aka_dora=rules.aka_dora,
        has_double_yakuman=rules.double_yakuman,
        kazoe_limit=HandConstants.KAZOE_LIMITED if rules.kazoe == "yakuman" else HandConstants.KAZOE_SANBAIMAN,
        kiriage=rules.kiriage,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=rules.renhou == "yakuman",
        limit_to_sextuple_yakuman=True,
    )


def _ceil100(x: int) -> int:
    return (x + 99) // 100 * 100


def hand_value(han: int, fu: int, yakuman: int, rules: Rules, dealer: bool, tsumo: bool) -> int:
    """Independent re-statement of the payment rules (used when the oracle has to emulate an option)."""
    if yakuman:
        base = 8000 * yakuman
    elif han >= 13:
        base = 8000 if rules.kazoe == "yakuman" else 6000
    elif han >= 11:
        base = 6000
    elif han >= 8:
        base = 4000
    elif han >= 6:
        base = 3000
    elif han >= 5:
        base = 2000
    else:
        base = min(fu * 2 ** (han + 2), 2000)
        if rules.kiriage and base == 1920:
            base = 2000
    if not tsumo:
        return _ceil100(base * (6 if dealer else 4))
    if dealer:
        return 3 * _ceil100(2 * base)
    return _ceil100(2 * base) + 2 * _ceil100(base)


def build_args(row: dict, rules: Rules):
    """(tiles, win_tile, melds, dora_indicators, ura_indicators, config) for HandCalculator."""
    ids = _Ids()
    tiles: list[int] = []
    melds: list[Meld] = []
    concealed = parse_tiles(row["hand"])
    meld_texts = row.get("melds") or []
    for text in meld_texts:
        kind, _, body = text.partition(":")
        mtype, opened = _MELD_TYPES[kind]
        mt = [ids.take(t, r) for t, r in parse_tiles(body)]
        tiles += mt
        melds.append(Meld(meld_type=mtype, tiles=mt, opened=opened))
    hand_ids = [(t, r, ids.take(t, r)) for t, r in concealed]
    tiles += [i for _, _, i in hand_ids]
    (win_t, win_red), = parse_tiles(row["win_tile"])
    candidates = [i for t, r, i in hand_ids if t == win_t and r == win_red] or [i for t, _, i in hand_ids if t == win_t]
    if not candidates:
        raise ValueError(f"win tile {row['win_tile']} not in hand {row['hand']}")
    win_id = candidates[0]

    dora = [t * 4 + 1 for t, _ in parse_tiles(row.get("dora"))]
    ura = [t * 4 + 1 for t, _ in parse_tiles(row.get("ura"))]  # indicators only count by kind
    if not rules.kan_dora:
        dora, ura = dora[:1], ura[:1]
    if not rules.ura_dora:
        ura = []

    renhou = bool(row.get("renhou"))
    if renhou and rules.renhou == "mangan":
        raise Unsupported(UNSUPPORTED["renhou=mangan"])
    config = HandConfig(
        is_tsumo=bool(row["_is_tsumo"]),
        is_riichi=bool(row["_is_riichi"]),
        is_ippatsu=bool(row.get("ippatsu")),
        is_rinshan=bool(row.get("rinshan")),
        is_chankan=bool(row.get("chankan")),
        is_haitei=bool(row.get("haitei")),
        is_houtei=bool(row.get("houtei")),
        is_daburu_riichi=bool(row.get("double_riichi")),
        is_tenhou=bool(row.get("tenhou")),
        is_chiihou=bool(row.get("chiihou")),
        is_renhou=renhou and rules.renhou == "yakuman",
        player_wind=EAST + int(row["_seat_wind"]),
        round_wind=EAST + int(row["_round_wind"]),
        options=options_for(rules),
    )
    return tiles, win_id, melds, dora, ura, config


def score_row(row: dict, rules: Rules) -> OracleResult:
    """Score one row with mahjong under ``rules`` (see the module docstring)."""
    tiles, win_id, melds, dora, ura, config = build_args(row, rules)
    res = HandCalculator.estimate_hand_value(
        tiles, win_id, melds=melds, dora_indicators=dora, ura_dora_indicators=ura, config=config
    )
    if res.error:
        return OracleResult(error=res.error)
    tsumo = bool(row["_is_tsumo"])
    dealer = int(row["_seat_wind"]) == 0
    names, counts = [], {"dora": 0, "aka": 0, "ura": 0}
    yakuman_units = 0
    for y in res.yaku:
        cls = type(y).__name__
        if cls in DORA_YAKU:
            counts[DORA_YAKU[cls]] += y.han_open if res.is_open_hand and y.han_open else y.han_closed
            continue
        names.append(YAKU_NAMES[cls])
        if y.is_yakuman:
            h = y.han_open if res.is_open_hand and y.han_open else y.han_closed
            yakuman_units += h // 13
    is_yakuman = yakuman_units > 0
    fu = res.fu
    details = list(res.fu_details or [])
    emulated = False
    if not is_yakuman and "chiitoitsu" not in names:
        raw = sum(d["fu"] for d in details)
        if rules.double_wind_pair_fu == 2 and any(d["reason"] == FuCalculator.DOUBLE_VALUED_PAIR for d in details):
            raw -= 2
            emulated = True
        if not rules.rinshan_tsumo_fu and row.get("rinshan") and any(d["reason"] == FuCalculator.TSUMO for d in details):
            raw -= 2
            emulated = True
        if emulated:
            fu = (raw + 9) // 10 * 10
        if rules.pinfu_tsumo_fu and tsumo and "pinfu" in names:
            fu, emulated = 30, True
    cap = rules.yakuman_max if rules.yakuman_stacking else 1
    yakuman = min(yakuman_units, cap)
    if yakuman != min(yakuman_units, 6):
        emulated = True
    han = 0 if is_yakuman else res.han
    points = hand_value(han, fu, yakuman, rules, dealer, tsumo)
    if not emulated and points != res.cost["total"]:  # self-check of hand_value against mahjong
        raise AssertionError(f"oracle payment mismatch {points} != {res.cost['total']} for {row}")
    return OracleResult(
        error=None, han=han, fu=fu, yakuman=yakuman, points=points, yaku=sorted(names),
        dora=counts["dora"], aka=counts["aka"], ura=counts["ura"], fu_details=details,
    )
