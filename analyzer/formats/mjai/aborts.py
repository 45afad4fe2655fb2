"""The kind of an mjai ``ryukyoku`` that names none (Mortal, mjai-reviewer and other tools write it without a
``reason``), read off the hand's play; never guessed.

* the whole wall drawn (70 draws, 55 with three players): an exhaustive draw -- nagashi mangan when a seat that
  discarded only terminals and honours, none of them called, gains more than noten money (3,000) -- unless the
  last discard completes the three other hands and nobody pays (a triple ron on it: with noten payments, or
  with the discarder tenpai too, the play would fit an exhaustive draw as well);
* before that, an abortive draw, each kind as Tenhou ends the hand:

  - four winds (``kaze4``, four players): the first four discards, one a seat, are the same wind, no call;
  - four kans (``kan4``): the fourth kan, made by two or more players, then its replacement draw and the
    discard that nobody wins on, which ends the hand;
  - four riichi (``reach4``, four players): the last discard is the riichi discard of the fourth seat in riichi;
  - nine terminals (``yao9``): the last play is a seat's first draw, before any call or north set aside, and
    its fourteen tiles hold nine or more kinds of terminals and honours;
  - triple ron (``ron3``, four players): the last discard (or added kan) completes the three other hands.

A ``ryukyoku`` that fits none of them, or more than one, is a :class:`LogError`: its kind is not guessed.
"""

from __future__ import annotations

from analyzer.formats.hand_shape import is_complete, is_tenpai
from analyzer.formats.mjai.results import NOTEN_MONEY, nagashi_seats
from analyzer.formats.model import Kyoku, LogError, wall_draws
from analyzer.formats.replay import replay
from analyzer.formats.tile_text import TERMINAL_HONOUR, kind

_KANS = ("minkan", "kakan", "ankan")
_WINDS = range(27, 31)
ABORT_NAMES = {"kaze4": "four winds", "kan4": "four kans", "reach4": "four riichi", "yao9": "nine terminals",
               "ron3": "triple ron"}  # fmt: skip


def ryukyoku_kind(k: Kyoku, deltas: list[int]) -> tuple[str, str | None]:
    """(result, abort kind) of a ``ryukyoku`` without ``reason``: ``draw`` / ``nagashi`` with no kind, or
    ``abort`` with its kind (mjlog's words, as :attr:`Outcome.abort`)."""
    plays = [ev for ev in k.events if ev[0] not in ("dora", "reach")]
    draws = sum(1 for ev in plays if ev[0] == "draw")
    if draws == wall_draws(k.players):
        if not any(deltas) and _ron_seats(k, plays) == 3:
            discarder = plays[-1][1]
            rp = replay(k)
            if is_tenpai(rp.concealed[discarder], rp.melds[discarder]):
                raise LogError("ryukyoku without a reason on the last discard, which three seats could win on and "
                               "everyone was tenpai: an exhaustive draw or a triple ron, its kind not guessed")
            return "abort", "ron3"
        return ("nagashi" if any(deltas[s] > NOTEN_MONEY for s in nagashi_seats(k)) else "draw"), None
    kinds = [abort for abort, fits in (("kaze4", _four_winds), ("kan4", _four_kans), ("reach4", _four_riichi),
                                       ("yao9", _nine_terminals)) if fits(k, plays)]
    if _ron_seats(k, plays) == 3:
        kinds.append("ron3")
    if len(kinds) == 1:
        return "abort", kinds[0]
    where = f"after {draws} of the wall's {wall_draws(k.players)} draws"
    if kinds:
        raise LogError(f"ryukyoku without a reason {where}, whose play fits more than one abortive draw "
                       f"({', '.join(ABORT_NAMES[a] for a in kinds)}): its kind is not guessed (give its reason)")
    raise LogError(f"ryukyoku without a reason {where}, and the play shows no abortive draw (four winds, four "
                   "kans, four riichi, nine terminals, triple ron): its kind is not guessed (give its reason)")


def _four_winds(k: Kyoku, plays: list[tuple]) -> bool:
    discards = [ev for ev in plays if ev[0] == "discard"]
    return (k.players == 4 and len(discards) == 4 and plays[-1][0] == "discard"
            and all(ev[0] in ("draw", "discard") for ev in plays)
            and len({ev[1] for ev in discards}) == 4 and len({kind(ev[2]) for ev in discards}) == 1
            and kind(discards[0][2]) in _WINDS)  # fmt: skip


def _four_kans(k: Kyoku, plays: list[tuple]) -> bool:
    kans = [ev for ev in plays if ev[0] == "call" and ev[2] in _KANS]
    if len(kans) != 4 or len({ev[1] for ev in kans}) < 2 or len(plays) < 3:
        return False
    kan, draw, discard = plays[-3:]
    return kan is kans[-1] and draw[0] == "draw" and discard[0] == "discard" and draw[1] == discard[1] == kan[1]


def _four_riichi(k: Kyoku, plays: list[tuple]) -> bool:
    last = plays[-1] if plays else None
    return (k.players == 4 and last is not None and last[0] == "discard" and last[3]
            and len({ev[1] for ev in plays if ev[0] == "discard" and ev[3]}) == 4)  # fmt: skip


def _nine_terminals(k: Kyoku, plays: list[tuple]) -> bool:
    last = plays[-1] if plays else None
    if last is None or last[0] != "draw":
        return False
    s = last[1]
    before = plays[:-1]
    if any(ev[0] in ("call", "kita") or ev[1] == s for ev in before):
        return False  # not the seat's first draw, or the first go-round was broken by a call
    return len({kind(t) for t in [*k.haipai[s], last[2]]} & TERMINAL_HONOUR) >= 9


def _ron_seats(k: Kyoku, plays: list[tuple]) -> int:
    """How many of the other seats' hands the last discard (or added kan) completes; 0 without four players."""
    last = plays[-1] if plays else None
    if k.players != 4 or last is None:
        return 0
    if last[0] == "discard":
        tile = last[2]
    elif last[0] == "call" and last[2] == "kakan":
        tile = last[4]
    else:
        return 0
    rp = replay(k)
    return sum(1 for s in range(4) if s != last[1] and is_complete([kind(t) for t in rp.concealed[s]] + [kind(tile)]))
