"""The end of a Riichi City hand (its ``eventType`` 5, see :mod:`.read`) as the model's outcomes: each win's value,
yaku and tiles, an exhaustive draw's tenpai players, an abortive draw's kind, and what the server paid."""

from __future__ import annotations

from analyzer.formats.model import Kyoku, LogError, Note, Outcome
from analyzer.formats.riichicity.codes import ABORTS, EXHAUSTIVE, NOT_READ_ENDS, TILES, whole_number
from analyzer.formats.riichicity.yaku import COUNTED, KITA, NAGASHI, YAKUMAN, fang_name, yakuman_times


def hand_outcomes(end: dict, k: Kyoku, seat_of: dict, wins: dict, loser, accepted: list[int], said: list[Note],
                  where: str, number: int) -> list[Outcome]:
    """The outcomes of hand ``number`` (``where``: ``E1-0``) from its end ``end``: ``wins`` the tile each winner's
    action names, ``loser`` who acted last (a ron's discarder), ``accepted`` each seat's riichi stick placed;
    caveats go to ``said``."""
    end_type = end.get("end_type")
    if end_type in NOT_READ_ENDS or end_type not in (0, 1, EXHAUSTIVE, *ABORTS):
        raise LogError(f"the hand ended by {NOT_READ_ENDS.get(end_type, 'no end known')} (end_type {end_type!r}), "
                       "which is not read")
    infos = end.get("win_info") or []
    if end_type in (0, 1):
        ron = end_type == 0
        if not infos or (ron and loser is None):
            raise LogError("a win with no winner" if not infos else "a ron with no discard to win on")
        outcomes = [_win(info, ron, k, seat_of, wins, loser, end) for info in infos]
        head = min(outcomes, key=lambda o: (o.winner - (loser if ron else o.winner)) % k.players)
        total = _server_deltas(end, seat_of, accepted, k, head.winner, said, where, number)
        if len(outcomes) == 1:
            head.deltas = total
            return outcomes
        for o in outcomes:  # each winner's own payment; honba and sticks to the winner nearest the discarder
            o.deltas[o.winner] += o.points
            o.deltas[loser] -= o.points
        rest = [t - sum(o.deltas[s] for o in outcomes) for s, t in enumerate(total)]
        head.deltas = [d + r for d, r in zip(head.deltas, rest)]
        return outcomes
    deltas = _server_deltas(end, seat_of, accepted, k, None, said, where, number)
    if end_type != EXHAUSTIVE:
        return [Outcome(result="abort", deltas=deltas, abort=ABORTS[end_type])]
    if any(f.get("fang_type") == NAGASHI for info in infos for f in info.get("fang_info") or []):
        return [Outcome(result="nagashi", deltas=deltas)]
    return [Outcome(result="draw", deltas=deltas, tenpai=sorted(seat_of[info["user_id"]] for info in infos))]


def _server_deltas(end: dict, seat_of: dict, accepted: list[int], k: Kyoku, taker: int | None, said: list[Note],
                   where: str, number: int) -> list[int]:
    """Each seat's change as the record pays it: ``point_profit``, and for a seat that collects no sticks
    (``taker`` does) ``li_zhi_profit`` for its stick where the play's stick is taken back out (see :mod:`.read`), so
    ``recorded_delta_*`` is the record's; a ``li_zhi_profit`` that is not the play's is said."""
    profits = end.get("user_profit")
    if not isinstance(profits, list) or len(profits) != k.players:
        raise LogError("the hand's end has no user_profit for every player")
    deltas = [0, 0, 0, 0]
    for p in profits:
        s = seat_of[p["user_id"]]
        paid, sticks = whole_number(p, "point_profit"), p.get("li_zhi_profit")
        if s == taker:
            expect = 1000 * (k.kyotaku + sum(accepted) - accepted[s])
        else:
            expect = -1000 * accepted[s]
        deltas[s] = paid
        if sticks is None:
            continue
        if sticks.__class__ is not int:
            raise LogError(f"li_zhi_profit is {sticks!r}, not a whole number")
        if s != taker:
            deltas[s] = paid + sticks + 1000 * accepted[s]
        if sticks != expect:
            said.append(Note(f"{where}: li_zhi_profit of seat {s} is {sticks:+}, the play's riichi sticks give "
                             f"{expect:+}", number))
    return deltas


def _win(info: dict, ron: bool, k: Kyoku, seat_of: dict, wins: dict, loser, end: dict) -> Outcome:
    w = seat_of[info["user_id"]]
    card = wins.get(w)
    o = Outcome(result="ron" if ron else "tsumo", deltas=[0, 0, 0, 0], winner=w, loser=loser if ron else None)
    if o.loser == w:
        raise LogError(f"a ron by seat {w} on its own tile")
    o.win_tile = TILES[card] if card else None
    cards = [TILES[c] for c in info.get("user_cards") or []]
    if cards:
        o.hand = cards + [o.win_tile] if ron and o.win_tile is not None else cards
    ura = info.get("li_bao_card")
    o.ura_indicators = [TILES[c] for c in ura] if ura else None
    for fang in info.get("fang_info") or []:
        fid, num = fang["fang_type"], whole_number(fang, "fang_num", 0)
        if fid in YAKUMAN:
            o.add_yakuman(fang_name(fid), yakuman_times(fid, num))
        else:
            o.add_recorded_yaku(COUNTED.get(fid) or fang_name(fid), num)
            o.kita += num if fid == KITA else 0
    o.pao = next((seat_of[p["user_id"]] for p in end.get("user_profit") or []
                  if p.get("is_bao_pai") and seat_of.get(p.get("user_id")) not in (None, w)), None)
    han, fu = whole_number(info, "all_fang_num", 0), whole_number(info, "all_fu", 0)
    o.han = None if o.yakuman else han
    o.fu = fu or None
    o.points = whole_number(info, "all_point")
    o.limit = _limit(han, fu, o.yakuman > 0)
    return o


def _limit(han: int, fu: int, yakuman: bool) -> str | None:
    """The limit a hand's han and fu reach: Riichi City rounds 4 han 30 fu and 3 han 60 fu up to mangan
    (kiriage; real records pay them 8,000 and a dealer 12,000), 13 han is a (kazoe) yakuman."""
    if yakuman or han >= 13:
        return "yakuman"
    for least, name in ((11, "sanbaiman"), (8, "baiman"), (6, "haneman")):
        if han >= least:
            return name
    return "mangan" if han >= 5 or (han == 4 and fu >= 30) or (han == 3 and fu >= 60) else None
