"""A Riichi City game's rules from its record's fields (:func:`apply_record_rules`): the presets ``riichicity``
and ``riichicity_sanma`` (the ranked rules), the game's length, start points and red fives, and what the record
says of its room that the rules do not reproduce, said in notes.

Sources: riichi.wiki "Riichi City" (ranked rules: 25,000 / 30,000 with uma 30/10/-10/-30 and oka, three players
35,000 / 40,000 with 20/0/-20, the north set aside as dora with tsumo loss; friendly rooms choose start points,
return points, uma, oka, red fives), and the field names as public readers take them: 0num4/paifu-playground
(``riichicity/Types/commonConsts.py``: ``GamePlayType`` 1001 ranked, 1002 tournament, 1003 friendly, 1004 and
1005 one-round fights; ``StateType`` 1-4 the ranked tiers; ``RoundType`` 1 East, 2 South, 3 one hand;
``EGameNorthType`` 0 the north set aside, 1 north a value honour; and the comments of its record uploader:
``isKaiLiZhi`` open riichi, ``isShaoJi`` yakitori, ``isLuck`` chips (祝儀), ``isGeMu`` wareme (割れ目), ``fangFu``
a friendly room's minimum han, ``isGangPay`` a liability setting of kans).

What the rules have no option for is never taken silently: a room flag that can change a hand's payments is
named in a note where a hand depends on it (open riichi declared, a rinshan tsumo after an open kan where
``isGangPay`` is set, yakitori penalties paid) or once a game (wareme, a minimum han other than one, north as a
value honour); chips are the ``recorded_chips_*`` of the game's last row.
"""

from __future__ import annotations

from analyzer.formats.model import Game, Note

PLATFORM = "riichicity"
PLAYS = {1001: "ranked", 1002: "tournament", 1003: "friendly", 1004: "one-round fight", 1005: "one-round fight"}
TIERS = {1: "New Star", 2: "Bright Moon", 3: "Hot Sun", 4: "Milky Way"}  # StateType: the ranked tiers
LENGTHS = {1: ("tonpuu", "East"), 2: ("hanchan", "South")}  # RoundType; 3: a game of one hand
ONE_HAND = 3
NORTH_SET_ASIDE, NORTH_VALUE_HONOUR = 0, 1


def _whole(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def room_name(top: dict, players: int) -> str:
    """The room as the ``room`` column writes it: ``Riichi City ranked Milky Way 4P East``. Words of our own, in
    English: no 東/南 (tenhou.net/6's reader would take the room for a Japanese name) and no Mahjong Soul room's."""
    play = PLAYS.get(_whole(top.get("gamePlay")), "game")
    tier = TIERS.get(_whole(top.get("stageType"))) if play == "ranked" else None
    length = LENGTHS.get(_whole(top.get("round")), (None, "one hand" if top.get("round") == ONE_HAND else ""))[1]
    return " ".join(w for w in ("Riichi City", play, tier, f"{players}P", length) if w)


def apply_record_rules(game: Game, top: dict, walls: list[str]) -> None:
    """The rules of ``game`` (its hands read) from the record's top-level fields ``top`` and its hands' walls
    (``handCardEncode``: red fives are ``0``); see the module docstring."""
    game.platform = PLATFORM
    game.kuitan = True  # every room plays open tanyao (riichi.wiki: "Kuitan & Atozuke allowed")
    game.room = room_name(top, game.players)
    length = _whole(top.get("round"))
    game.game_length = LENGTHS[length][0] if length in LENGTHS else None
    if length not in LENGTHS:
        game.notes.append(Note(f"round {top.get('round')!r} ({'one hand' if length == ONE_HAND else 'not known'}): "
                               "no game length the rules have; the game is not ended where its rules end it"))
    seen_walls = [w for w in walls if w]
    game.aka = any("0" in w for w in seen_walls) if seen_walls else _red_fives_played(game)
    start = _whole(top.get("initPoints"))
    first = game.kyokus[0].scores[: game.players] if game.kyokus else []
    if start is not None and first and game.kyokus[0].kyoku == 0 and game.kyokus[0].honba == 0 and (
            set(first) != {start}):
        game.notes.append(Note(f"initPoints is {start}, but the first hand deals {first}: the game is read from "
                               "its hands", 1))
    said = []
    if top.get("isGeMu"):
        said.append("wareme (割れ目, isGeMu: the seat of the dice's wall pays and is paid double), which the rules "
                    "do not reproduce: its hands' payments differ from the computed ones")
    fang_fu = _whole(top.get("fangFu"))
    if fang_fu not in (None, 0, 1):
        said.append(f"fangFu {fang_fu} (a friendly room's minimum han) is not decoded: hands are checked under "
                    "the usual one-han minimum")
    if game.players == 3 and _whole(top.get("northOperateType")) not in (None, NORTH_SET_ASIDE):
        said.append(f"northOperateType {top.get('northOperateType')} (north a value honour, not set aside): "
                    "the rules set norths aside, and have no north value honour")
    game.notes.extend(Note(text) for text in said)


def _red_fives_played(game: Game) -> bool:
    for k in game.kyokus:
        if any(t >= 100 for h in k.haipai for t in h) or any(e[0] == "draw" and e[2] >= 100 for e in k.events):
            return True
    return False


def final_chips(top: dict, user_data: list[dict], seat_of: dict, players: int) -> list[int] | None:
    """A chip (祝儀, ``isLuck``) room's chips per seat at the end (``user_data[].luck_score``), else None."""
    if not top.get("isLuck"):
        return None
    chips = [0, 0, 0, 0]
    for entry in user_data:
        seat, luck = seat_of.get(entry.get("user_id")), _whole(entry.get("luck_score"))
        if seat is not None and luck is not None:
            chips[seat] = luck
    return chips


def yakitori_note(top: dict, user_data: list[dict]) -> Note | None:
    """Yakitori (``isShaoJi``) penalties paid at the end (``shao_ji_score``), which the rules do not reproduce."""
    paid = [e.get("shao_ji_score") for e in user_data if _whole(e.get("shao_ji_score"))]
    if top.get("isShaoJi") and paid:
        return Note(f"yakitori (焼き鳥, isShaoJi) penalties {paid} were paid at the end: the rules have no yakitori, "
                    "the final points show them")
    return None


def open_riichi_note(hand: str, hand_no: int) -> Note:
    return Note(f"{hand}: an open riichi (開立直, isKaiLiZhi) with the han the room gives it: the rules have no open "
                "riichi, it is checked as a riichi (its extra han shows)", hand_no)


def kan_pay_note(hand: str, hand_no: int) -> Note:
    return Note(f"{hand}: a rinshan tsumo after an open kan in a room with isGangPay (a kan's liability "
                "payment): what it pays is the room's, which the rules do not reproduce", hand_no)
