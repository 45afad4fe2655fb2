"""The replay of one kyoku's events (:mod:`.model`): the hands at the end, the winning tiles and the situation
flags, riichi, nagashi and the turn, which the outcome rows are built from (:mod:`.rows`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from analyzer.formats.model import Kyoku, LogError, wall_draws
from analyzer.formats.tile_text import RED, TERMINAL_HONOUR, kind, tile_str


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
    calls: list[int]  # per seat: chi, pon, open kan and added kan declared (a kakan robbed by chankan too)
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
            _, s, t, riichi, _ = ev
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
        if robbed_kan[0] == "call" and robbed_kan[2] == "kakan":  # declared (the log has it), though robbed
            calls[robbed_kan[1]] += 1
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
