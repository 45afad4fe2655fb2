"""Shared pieces of the Tenhou importers: tiles, the replay of one kyoku's play, yaku names and output rows.

Both log formats are first turned into the same small model (:class:`Game` holding :class:`Kyoku` objects, each
with a list of play events and the recorded outcomes); everything derived from play (situation flags, the
winning hand, riichi sticks, nagashi, tenpai) is computed here once for both formats.

Tiles are small ints: ``kind`` 0-33 (0-8 man, 9-17 pin, 18-26 sou, 27-33 E S W N white green red), plus
:data:`RED` for a red five (so ``RED + 4`` is the red 5m).

Events (tuples, in play order):

* ``("draw", seat, tile, rinshan)``
* ``("discard", seat, tile, riichi_declared)``
* ``("call", seat, kind, tiles, called_tile, from_seat)`` with kind chi|pon|minkan|kakan|ankan; for kakan
  ``tiles`` is the whole quad and ``called_tile`` the added tile; for ankan ``from_seat`` is the caller
* ``("reach", seat)``: the riichi stick was accepted (Tenhou REACH step 2)
* ``("dora", indicator)``: a new kan dora indicator
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

RED = 100
WALL_DRAWS = 70  # live-wall plus rinshan draws in a four-player hand (136 - 14 dead - 52 dealt)
WALL_DRAWS_3P = 55  # three players: 108 tiles (no 2m-8m) - 14 dead - 39 dealt; kita replacements count as rinshan
NORTH = 30  # tile kind of the north wind (set aside as nukidora with three players)


TERMINAL_HONOUR = frozenset([0, 8, 9, 17, 18, 26, *range(27, 34)])


def wall_draws(players: int) -> int:
    return WALL_DRAWS if players == 4 else WALL_DRAWS_3P


class LogError(Exception):
    """A problem that stops one file from importing; the message becomes the :class:`ImportProblem` reason."""


@dataclass(frozen=True)
class ImportProblem:
    """A file (or a game inside it) that did not import, or imported with a caveat.

    ``file`` is the path as found; ``reason`` says what is wrong. ``game_id`` is set when the problem concerns
    one game whose rows were still imported (``imported=True``), e.g. an unknown yaku name kept as
    ``unknown:NAME``. ``same_as`` names the earlier file of a game met again: an exact copy is skipped with
    ``imported=True`` (nothing is lost), another version (the same Tenhou log id, other content) with
    ``imported=False``.
    """

    file: str
    reason: str
    game_id: str | None = None
    imported: bool = False
    same_as: str | None = None


# --- tiles -------------------------------------------------------------------------------------------


def kind(tile: int) -> int:
    return tile % RED


def is_red(tile: int) -> bool:
    return tile >= RED


def _digit(tile: int) -> str:
    if is_red(tile):
        return "0"
    k = kind(tile)
    return str(k % 9 + 1) if k < 27 else str(k - 26)


def _suit(tile: int) -> str:
    return "mpsz"[kind(tile) // 9]


_TILES = [*range(34), *(RED + k for k in (4, 13, 22))]
_DIGITS = {t: _digit(t) for t in _TILES}
_SUITS = {t: _suit(t) for t in _TILES}
_ORDER = {t: 2 * kind(t) + (0 if is_red(t) else 1) for t in _TILES}  # by kind, a red five first
_STRS = {t: _DIGITS[t] + _SUITS[t] for t in _TILES}


def tile_str(tile: int) -> str:
    """One tile in MPSZ, e.g. ``8p``; a red five is ``0p``."""
    return _STRS[tile]


def tiles_str(tiles: list[int]) -> str:
    """Sorted and grouped MPSZ, e.g. ``123m406p789s1122z``."""
    parts: list[str] = []
    suit = ""
    for t in sorted(tiles, key=_ORDER.__getitem__):
        if _SUITS[t] != suit:
            if suit:
                parts.append(suit)
            suit = _SUITS[t]
        parts.append(_DIGITS[t])
    if suit:
        parts.append(suit)
    return "".join(parts)


def indicators_str(tiles: list[int]) -> str:
    """Dora indicators in their order, each with its own suit letter, e.g. ``3m7z1p``."""
    return "".join([_STRS[t] for t in tiles])


def meld_str(meld_kind: str, tiles: list[int]) -> str:
    return f"{meld_kind}:{tiles_str(tiles)}"


# --- completed hands and tenpai ----------------------------------------------------------------------


def _standard(counts: list[int], sets: int) -> bool:
    """``counts`` (34) holds exactly ``sets`` sets plus one pair."""

    def sets_only(c: list[int], start: int) -> bool:
        i = start
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            return True
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c, i)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            ok = sets_only(c, i)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
            if ok:
                return True
        return False

    for p in range(34):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = sets_only(counts, 0)
            counts[p] += 2
            if ok:
                return True
    return False


def is_complete(concealed_kinds: list[int]) -> bool:
    """A complete hand (the concealed part; melds are already sets): standard, seven pairs or kokushi."""
    counts = [0] * 34
    for k in concealed_kinds:
        counts[k] += 1
    n = len(concealed_kinds)
    if n % 3 != 2:
        return False
    if n == 14:
        if sum(1 for c in counts if c == 2) == 7:
            return True
        orphans = [counts[k] for k in sorted(TERMINAL_HONOUR)]
        if all(orphans) and sum(orphans) == 14:
            return True
    return _standard(counts, (n - 2) // 3)


def is_tenpai(concealed: list[int], melds: list[tuple[str, list[int]]]) -> bool:
    """Tenhou tenpai: some tile completes the hand, and it is not a wait on a tile the player holds all four of."""
    kinds = [kind(t) for t in concealed]
    own = Counter(kinds)
    for _, tiles in melds:
        own.update(kind(t) for t in tiles)
    for k in range(34):
        if own[k] >= 4:
            continue
        if is_complete(kinds + [k]):
            return True
    return False


# --- recorded yaku -----------------------------------------------------------------------------------

# Tenhou's yaku ids (mjlog ``yaku``/``yakuman``) in order; None = a dora count.
TENHOU_YAKU_IDS = [
    "menzen_tsumo", "riichi", "ippatsu", "chankan", "rinshan", "haitei", "houtei", "pinfu", "tanyao", "iipeikou",
    "seat_wind", "seat_wind", "seat_wind", "seat_wind", "round_wind", "round_wind", "round_wind", "round_wind",
    "haku", "hatsu", "chun", "double_riichi", "chiitoitsu", "chanta", "ittsu", "sanshoku", "sanshoku_doukou",
    "sankantsu", "toitoi", "sanankou", "shousangen", "honroutou", "ryanpeikou", "junchan", "honitsu", "chinitsu",
    "renhou", "tenhou", "chiihou", "daisangen", "suuankou", "suuankou_tanki", "tsuuiisou", "ryuuiisou",
    "chinroutou", "chuuren", "junsei_chuuren", "kokushi", "kokushi_13", "daisuushii", "shousuushii", "suukantsu",
    "dora", "ura", "aka",
]  # fmt: skip

_JA_NAMES = {
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
}  # fmt: skip

# English display names of the tenhou.net/6 viewer (and common romaji), matched lower-case without spaces.
_EN_NAMES = {
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
}  # fmt: skip


def yaku_name(text: str) -> str | None:
    """Our canonical name for a Tenhou yaku display name (Japanese or English); None if unknown."""
    text = text.strip()
    if text in _JA_NAMES:
        return _JA_NAMES[text]
    key = "".join(ch for ch in text.lower() if ch.isalnum())
    if key in _EN_NAMES:
        return _EN_NAMES[key]
    for prefix, name in (("seatwind", "seat_wind"), ("roundwind", "round_wind"), ("prevalentwind", "round_wind")):
        if key.startswith(prefix):
            return name
    return None


LIMITS = {0: None, 1: "mangan", 2: "haneman", 3: "baiman", 4: "sanbaiman", 5: "yakuman"}


# --- the model --------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """One recorded outcome row (before derivation)."""

    result: str  # ron | tsumo | draw | nagashi | abort
    deltas: list[int]  # as recorded by Tenhou: honba and sticks collected included, riichi deposits excluded
    winner: int | None = None
    loser: int | None = None
    pao: int | None = None
    fu: int | None = None
    han: int | None = None
    points: int | None = None
    limit: str | None = None
    yaku: list[str] = field(default_factory=list)
    yakuman: int = 0
    dora: int = 0
    ura: int = 0
    aka: int = 0
    dora_indicators: list[int] | None = None
    ura_indicators: list[int] | None = None
    hand: list[int] | None = None  # recorded concealed tiles incl. the winning tile (mjlog)
    win_tile: int | None = None  # recorded winning tile (mjlog)
    melds: list[tuple[str, list[int]]] | None = None  # recorded melds of the winner (mjlog)
    tenpai: list[int] | None = None  # recorded tenpai seats (mjlog RYUUKYOKU hai0..3)
    all_tenpai: bool | None = None  # JSON 全員聴牌 / 全員不聴
    has_value: bool = True  # False when the log omits the value (a shortened result)
    kita: int = 0  # three players: north tiles the winner set aside (nukidora), as recorded with the win

    def add_recorded_yaku(self, name: str, han: int) -> None:
        """Record one yaku of the log: dora, ura and aka go to their counts, the rest to ``yaku``."""
        if name == "dora":
            self.dora += han
        elif name == "ura":
            self.ura += han
        elif name == "aka":
            self.aka += han
        else:
            self.yaku.append(name)


@dataclass
class Kyoku:
    kyoku: int  # 0-3 East, 4-7 South, ...
    honba: int
    kyotaku: int
    scores: list[int]
    haipai: list[list[int]]
    dora: list[int]  # indicators at the start
    events: list[tuple] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    players: int = 4

    @property
    def dealer(self) -> int:
        return self.kyoku % 4

    @property
    def round(self) -> str:
        return f"{'ESWN'[(self.kyoku // 4) % 4]}{self.kyoku % 4 + 1}"


@dataclass
class Game:
    file: str
    ref: str | None
    names: list[str]
    aka: bool = True
    kuitan: bool = True
    game_length: str | None = None
    lobby: int | None = None
    kyokus: list[Kyoku] = field(default_factory=list)
    final_scores: list[int] | None = None
    final_points: list[float] | None = None
    players: int = 4  # 3: a three-player (sanma) game, seat 3 empty
    notes: list[str] = field(default_factory=list)  # non-fatal caveats (imported anyway)
    dan: list | None = None  # per seat as recorded (mjlog index text, JSON name); read by identity.dan_index
    rate: list | None = None  # per seat as recorded (text or number); read by identity.rate
    digest: str | None = None  # hash of the log's content (identity.content_digest), set by the reader


# --- replay --------------------------------------------------------------------------------------


@dataclass
class Replay:
    concealed: list[list[int]]
    melds: list[list[tuple[str, list[int]]]]
    riichi: list[int]  # accepted, in order of declaration
    flags: dict[int, dict[str, bool]]  # per winner
    win_tiles: dict[int, int]
    nagashi: list[int]  # seats eligible for nagashi mangan
    draws: int
    dora: list[int]
    riichi_turn: list[int | None]  # per seat: its discard number of the riichi declaration (accepted or not)
    calls: list[int]  # per seat: chi, pon, open kan and added kan made (a robbed added kan is not made)
    opened: list[bool]  # per seat: the hand has an open meld at its end
    turn: int  # the turn the hand ended on: the last acting seat's discard number (see :func:`replay`)
    kita: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # per seat: north tiles set aside (sanma)


FLAG_NAMES = ["ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou"]


def _remove(hand: list[int], tile: int, seat: int, what: str) -> None:
    try:
        hand.remove(tile)
    except ValueError:
        raise LogError(f"replay failed: seat {seat} {what} {tile_str(tile)} not in hand") from None


def _four_at_most(tiles: list[int]) -> None:
    seen = Counter(tiles)
    if max(seen.values(), default=0) > 2:  # only then can a kind with its red five exceed four
        for t in [t for t in seen if t >= RED]:
            seen[t - RED] += seen.pop(t)
        over = sorted(tile_str(t) for t, n in seen.items() if n > 4)
        if over:
            raise LogError(f"more than four of {', '.join(over)} dealt and drawn")


def replay(k: Kyoku) -> Replay:
    """Play the kyoku's events and derive what the outcome rows need.

    Turns count a seat's own discards: its n-th discard is made on its turn n, and a draw starts its turn
    (discards so far + 1). The hand ends on the turn of the seat that acted last: the discarder's turn for a
    ron or an exhaustive draw, the drawing seat's for a tsumo or nine terminals, the kan caller's for a
    chankan."""
    concealed = [list(h) for h in k.haipai]
    melds: list[list[tuple[str, list[int]]]] = [[] for _ in range(4)]
    any_call = False
    calls_made = 0  # call and kita events (kita counts as a call for ippatsu and first-turn wins)
    ippatsu = [False] * 4
    double = [False] * 4
    accepted: list[int] = []
    nagashi_ok = [True] * 4
    dora = list(k.dora)
    winners = [o for o in k.outcomes if o.result in ("ron", "tsumo")]
    events = k.events
    robbed_kan = None
    if winners and winners[0].result == "ron" and events and events[-1][0] in ("call", "kita"):
        robbed_kan = events[-1]
        events = events[:-1]
    kita = [0] * 4
    discards = [0] * 4
    riichi_turn: list[int | None] = [None] * 4
    calls = [0] * 4
    last_discard: tuple | None = None  # the discard a call takes: the last event but a riichi or a dora
    # The hot loop does only what needs the order of events; what the end of the hand needs (the last draw or
    # discard, the turn, the wall drawn) is read off the event list afterwards.
    for ev in events:
        typ = ev[0]
        if typ == "draw":
            concealed[ev[1]].append(ev[2])
            last_discard = None
        elif typ == "discard":
            _, s, t, riichi = ev
            try:
                concealed[s].remove(t)
            except ValueError:
                _remove(concealed[s], t, s, "discards")
            ippatsu[s] = False
            n = discards[s] = discards[s] + 1
            if riichi:
                riichi_turn[s] = n
                double[s] = n == 1 and not any_call
                ippatsu[s] = True
            if t % RED not in TERMINAL_HONOUR:
                nagashi_ok[s] = False
            last_discard = ev
        elif typ == "call":
            _, s, mk, tiles, called, frm = ev
            any_call = True
            calls_made += 1
            ippatsu = [False] * 4
            if mk != "ankan":
                calls[s] += 1
            if mk in ("chi", "pon", "minkan"):
                if last_discard is None or last_discard[2] != called:
                    raise LogError(f"replay failed: seat {s} calls {tile_str(called)} that was not just discarded")
                rest = list(tiles)
                rest.remove(called)
                for t in rest:
                    _remove(concealed[s], t, s, f"{mk} uses")
                melds[s].append((mk, list(tiles)))
                nagashi_ok[frm] = False
            elif mk == "kakan":
                _remove(concealed[s], called, s, "kakan adds")
                for i, (m, mt) in enumerate(melds[s]):
                    if m == "pon" and kind(mt[0]) == kind(called):
                        melds[s][i] = ("kakan", mt + [called])
                        break
                else:
                    raise LogError(f"replay failed: seat {s} kakan {tile_str(called)} without a pon")
            else:  # ankan
                for t in tiles:
                    _remove(concealed[s], t, s, "ankan uses")
                melds[s].append(("ankan", list(tiles)))
            last_discard = None
        elif typ == "kita":  # a north tile set aside: like a call for ippatsu and first-turn wins, not opening
            _, s, t = ev
            _remove(concealed[s], t, s, "sets aside")
            kita[s] += 1
            any_call = True
            calls_made += 1
            ippatsu = [False] * 4
            last_discard = None
        elif typ == "reach":
            accepted.append(ev[1])
        elif typ == "dora":
            dora.append(ev[1])

    drawn = [ev[2] for ev in events if ev[0] == "draw"]
    draws = len(drawn)
    _four_at_most([t for h in k.haipai for t in h] + drawn)  # after the play: a replay error is reported first
    # The last draw or discard: a tsumo is on the last draw (calls may follow it: a kan before its rinshan
    # draw), a ron on the last discard (nothing but a riichi or dora after it). The hand ends on its turn.
    last_draw = last_discard = None
    calls_after = 0
    turn = 0
    for ev in reversed(events):
        typ = ev[0]
        if typ == "draw":
            last_draw = ev
            turn = discards[ev[1]] + 1
            break
        if typ == "discard":
            last_discard = ev if calls_after == 0 else None
            turn = discards[ev[1]]
            break
        if typ == "call" or typ == "kita":
            calls_after += 1
    # Before any call every draw is followed by its discard: a seat's first draw is one before its first discard.
    first_uncalled = last_draw is not None and discards[last_draw[1]] == 0 and calls_made == calls_after
    if robbed_kan is not None:
        turn = discards[robbed_kan[1]] + 1
    flags: dict[int, dict[str, bool]] = {}
    win_tiles: dict[int, int] = {}
    for o in winners:
        w = o.winner
        f = dict.fromkeys(FLAG_NAMES, False)
        f["ippatsu"] = ippatsu[w] and w in accepted
        f["double_riichi"] = double[w] and w in accepted
        if o.result == "tsumo":
            if last_draw is None or last_draw[1] != w:
                raise LogError(f"replay failed: tsumo by seat {w} but the last action is not its draw")
            _, _, t, rinshan = last_draw
            f["rinshan"] = rinshan
            f["haitei"] = not rinshan and draws == wall_draws(k.players)
            f["tenhou"] = first_uncalled and w == k.dealer
            f["chiihou"] = first_uncalled and w != k.dealer
            win_tiles[w] = t
        else:
            if robbed_kan is not None and robbed_kan[0] == "kita":  # a ron on a north set aside: no chankan
                if robbed_kan[1] != o.loser:
                    raise LogError(f"replay failed: ron by seat {w} on a north set aside by seat {robbed_kan[1]}")
                win_tiles[w] = robbed_kan[2]
            elif robbed_kan is not None:
                _, s, mk, tiles, called, _ = robbed_kan
                if s != o.loser or mk not in ("kakan", "ankan"):
                    raise LogError(f"replay failed: ron by seat {w} after a {mk} by seat {s}")
                f["chankan"] = True
                win_tiles[w] = called
            else:
                if last_discard is None or last_discard[1] != o.loser:
                    raise LogError(f"replay failed: ron by seat {w} but the last discard is not seat {o.loser}'s")
                f["houtei"] = draws == wall_draws(k.players)  # no draw follows the discard won on
                win_tiles[w] = last_discard[2]
            # before any call, a seat that has not discarded has not drawn (the last event is another's)
            f["renhou"] = discards[w] == 0 and not any_call
        flags[w] = f
    nagashi = [s for s in range(4) if nagashi_ok[s] and discards[s]]
    opened = [any(mk != "ankan" for mk, _ in m) for m in melds]
    return Replay(concealed, melds, accepted, flags, win_tiles, nagashi, draws, dora, riichi_turn, calls, opened, turn,
                  kita)
