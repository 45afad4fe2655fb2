"""What mjai's hora and ryukyoku events say beyond the deltas, and the hand's end put in the shared model's
terms: gimite's yaku names and the value of a hora (:func:`hora_value`), the kinds of a ryukyoku, and the
events a result fixes up (a kan indicator before a robbed kan, a riichi stick put out by the last discard).
"""

from __future__ import annotations

from analyzer.formats.model import Kyoku, LogError, Outcome
from analyzer.formats.tile_text import TERMINAL_HONOUR, kind
from analyzer.formats.tenhou.yaku_names import yaku_name

# gimite's yaku names (lib/mjai/hora.rb, and its Tenhou archive converter) -> ours; sangenpai is resolved
# to haku / hatsu / chun from the winning hand, dora / uradora / akadora go to their counts.
GIMITE_YAKU = {
    "menzenchin_tsumoho": "menzen_tsumo", "reach": "riichi", "ippatsu": "ippatsu", "chankan": "chankan",
    "rinshankaiho": "rinshan", "haiteiraoyue": "haitei", "hoteiraoyui": "houtei", "pinfu": "pinfu",
    "tanyaochu": "tanyao", "ipeko": "iipeikou", "jikaze": "seat_wind", "bakaze": "round_wind",
    "double_reach": "double_riichi", "chitoitsu": "chiitoitsu", "honchantaiyao": "chanta",
    "ikkitsukan": "ittsu", "sanshokudojun": "sanshoku", "sanshokudoko": "sanshoku_doukou",
    "sankantsu": "sankantsu", "toitoiho": "toitoi", "sananko": "sanankou", "shosangen": "shousangen",
    "honroto": "honroutou", "ryanpeko": "ryanpeikou", "junchantaiyao": "junchan", "honiso": "honitsu",
    "chiniso": "chinitsu", "renho": "renhou", "tenho": "tenhou", "chiho": "chiihou", "daisangen": "daisangen",
    "suanko": "suuankou", "tsuiso": "tsuuiisou", "ryuiso": "ryuuiisou", "chinroto": "chinroutou",
    "churenpoton": "chuuren", "kokushimuso": "kokushi", "daisushi": "daisuushii", "shosushi": "shousuushii",
    "sukantsu": "suukantsu", "dora": "dora", "uradora": "ura", "akadora": "aka",
}  # fmt: skip
_DRAGONS = {31: "haku", 32: "hatsu", 33: "chun"}
YAKUMAN_FAN = 100  # gimite: a yakuman counts 100 fan

RYUKYOKU_REASONS = {
    "fanpai": "draw", "nagashimangan": "nagashi", "kyushukyuhai": "abort", "suchareach": "abort",
    "sanchaho": "abort", "sukaikan": "abort", "sufonrenta": "abort",
}  # fmt: skip
RYUKYOKU_ABORTS = {"kyushukyuhai": "yao9", "suchareach": "reach4", "sanchaho": "ron3", "sukaikan": "kan4",
                   "sufonrenta": "kaze4"}  # gimite's names -> mjlog's
_LIMITS = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman"}
NOTEN_MONEY = 3000


def hora_value(ev: dict, o: Outcome, w: int, k: Kyoku) -> None:
    """What a hora with ``yakus`` (gimite's mjai) says of the hand's value: yaku, han, fu, points, limit."""
    yakus = ev["yakus"]
    if not isinstance(yakus, list):
        raise LogError(f"bad yakus {yakus!r}")
    dragons, dragons_at = 0, 0
    for item in yakus:
        if not isinstance(item, list) or len(item) != 2 or not isinstance(item[1], int):
            raise LogError(f"bad yaku {item!r} (expected [name, fan])")
        raw, fan = str(item[0]), item[1]
        if raw == "sangenpai":
            dragons_at = dragons_at if dragons else len(o.yaku)
            dragons += fan
            continue
        name = GIMITE_YAKU.get(raw) or yaku_name(raw) or (raw if raw.startswith("unknown:") else f"unknown:{raw}")
        if fan >= YAKUMAN_FAN:
            o.add_yakuman(name, fan // YAKUMAN_FAN)
        else:
            o.add_recorded_yaku(name, fan)
    if dragons:
        o.yaku[dragons_at:dragons_at] = _dragon_yaku(o, w, k, dragons)
        o.yaku_han[dragons_at:dragons_at] = [1] * dragons
    fan, fu, points = ev.get("fan"), ev.get("fu"), ev.get("hora_points")
    o.han = None if o.yakuman or (isinstance(fan, int) and fan >= YAKUMAN_FAN) else fan
    if o.han is None and not o.yakuman and isinstance(fan, int):
        o.yakuman = fan // YAKUMAN_FAN
    o.fu = fu if isinstance(fu, int) else None
    o.points = points if isinstance(points, int) else None
    if o.points is not None:
        base, rest = divmod(o.points, 6 if w == k.dealer else 4)
        o.limit = None if rest else ("yakuman" if base >= 8000 and base % 8000 == 0 else _LIMITS.get(base))


def dora_before_robbed_kan(k: Kyoku) -> None:
    """A kan indicator logged between a kan and the ron robbing it goes before the kan: the replay finds the
    robbed kan as the last play event (Tenhou logs no indicator for a robbed kan)."""
    n = len(k.events)
    i = n
    while i and k.events[i - 1][0] == "dora":
        i -= 1
    if i < n and i and k.events[i - 1][0] == "call" and k.events[i - 1][2] in ("kakan", "ankan"):
        k.events[i - 1 : n] = k.events[i:n] + [k.events[i - 1]]


def accept_last_riichi(k: Kyoku) -> None:
    """A riichi discard that is the hand's last play before a draw (four riichi) put out its stick."""
    for ev in reversed(k.events):
        if ev[0] in ("draw", "call", "reach"):
            return
        if ev[0] == "discard":
            if ev[3]:
                k.events.append(("reach", ev[1]))
            return


def nagashi_seats(k: Kyoku) -> list[int]:
    ok, discarded = [True] * 4, [False] * 4
    for ev in k.events:
        if ev[0] == "discard":
            discarded[ev[1]] = True
            ok[ev[1]] &= kind(ev[2]) in TERMINAL_HONOUR
        elif ev[0] == "call" and ev[2] in ("chi", "pon", "minkan"):
            ok[ev[5]] = False
    return [s for s in range(4) if ok[s] and discarded[s]]


def _dragon_yaku(o: Outcome, w: int, k: Kyoku, fan: int) -> list[str]:
    """gimite's one ``sangenpai`` entry (fan = number of dragon sets) as haku / hatsu / chun, from the winner's
    tiles; ``unknown:sangenpai`` when the hand shown does not tell."""
    tiles = list(o.hand or [])
    for ev in k.events:
        if ev[0] == "call" and ev[1] == w:
            tiles.extend(ev[3])
    counts = [sum(1 for t in tiles if kind(t) == d) for d in _DRAGONS]
    names = [_DRAGONS[d] for d, c in zip(_DRAGONS, counts) if c >= 3]
    return names if len(names) == fan else ["unknown:sangenpai"] * fan
