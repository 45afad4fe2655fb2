"""The settlement a log's recorded result shows: the uma that turns its final scores into the game points the
server recorded, so that an imported game's result is the server's.

A game is scored under the ruleset its ``rules`` column names (:mod:`.rules_spec`); Tenhou's ranked games pay
uma 20/10/-10/-20 (three players 20/0/-20), older lobbies 10/5/-5/-10 or 30/15/-15/-30. A private lobby
(``GO lobby="10011"``) may pay its own uma or a bust bonus, which no log names: the recorded game points are
the only trace. :func:`logged_settlement` reads the uma back from them, place by place:

* places by final score, equal scores by seat (the server has no shared places), unless the lobby's rules say
  tied places share their uma (a custom ``csrule``, :mod:`.lobby`) and the recorded points show that;
* each place's uma is its recorded points minus what the score pays without uma: (final - return)/1000,
  the oka to first place; under Tenhou's whole-number rounding places 2-4 count their score to the thousand
  (500 away from zero) and first place takes minus the others' sum, so its uma is minus the others' sum;
* a lobby's floating uma (``floating_uma``, a custom ``csrule``'s uma table) is the row of the game's count of
  players below the return points (by the recorded final scores): that row is the uma the result is read
  against, and an uma read back that differs replaces the table (``;floating_uma=;uma=…``).

The uma found is what the game is scored with, so its standings and statistics use the server's points:

* the ruleset's own uma: nothing is written;
* an uma Tenhou has used: written into the spec (``uma=10/5/-5/-10``), nothing more to say;
* any other: written too, and said once as a note (the ``settlement`` column, which ``check`` lists as a
  note, not as a mismatch per seat): the uma by place, how it differs from the ruleset's, and what that may
  be: the lobby's own uma, or a bust bonus where a seat ended below zero; recorded points that do not add up
  to zero (money from outside the table) are said too, and a result whole-number rounding cannot give
  (first place is not minus the others' sum) is scored with exact points.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.formats.model import Game
from analyzer.core.rules import Rules

# the uma Tenhou's lobbies have paid (four players), as the symmetric sets of places 1-4
TENHOU_UMAS = ((20.0, 10.0, -10.0, -20.0), (10.0, 5.0, -5.0, -10.0), (30.0, 15.0, -15.0, -30.0))
TOLERANCE = 0.05  # recorded game points have one decimal


@dataclass(frozen=True)
class Settlement:
    """What the recorded result says about the game's settlement: rule overrides for its spec
    (``;game_points_rounding=tenth;uma=50/20/0/-70``) and the note, when it fits no rule we know."""

    spec: str = ""
    note: str | None = None


def _thousands(score: int) -> int:
    """Tenhou's rounding of a final score to thousands: a remainder of 500 goes away from zero."""
    return (1 if score >= 0 else -1) * ((abs(score) + 500) // 1000)


def _text(values) -> str:
    return "/".join(f"{v:g}" for v in values)


def _uma_by_place(finals: list[int], points: list[float], order: list[int], start: int, base: Rules,
                  rounding: str) -> tuple[float, ...] | None:
    """The uma of places 1..n that gives the recorded ``points`` under ``rounding``, or None when no uma does
    (whole-number rounding whose first place is not minus the others' sum)."""
    back = base.return_points / 1000
    oka = len(finals) * (base.return_points - start) / 1000
    if rounding == "tenhou":
        rest = [round(points[s] - (_thousands(finals[s]) - back), 1) + 0.0 for s in order[1:]]
        if abs(sum(points)) > TOLERANCE:
            return None
        return (round(-sum(rest), 1) + 0.0, *rest)
    first = round(points[order[0]] - (finals[order[0]] / 1000 - back) - oka, 1) + 0.0
    return (first, *(round(points[s] - (finals[s] / 1000 - back), 1) + 0.0 for s in order[1:]))


def _shared_places_fit(finals: list[int], points: list[float], start: int, base: Rules) -> bool:
    """Whether ``base``'s own uma and oka, tied places sharing theirs (``tie_rule=split``), give the recorded
    ``points`` to 0.1, unrounded."""
    back, oka = base.return_points / 1000, len(finals) * (base.return_points - start) / 1000
    for s, final in enumerate(finals):
        above = sum(f > final for f in finals)
        shared = range(above, above + sum(f == final for f in finals))
        bonus = (sum(base.uma[p] for p in shared) + (oka if above == 0 else 0.0)) / len(shared)
        if abs(final / 1000 - back + bonus - points[s]) > TOLERANCE:
            return False
    return True


def logged_settlement(game: Game, base: Rules, start: int) -> Settlement:
    """The settlement the game's recorded final scores and points show, against ``base`` (the preset its spec
    starts from) with the game's start points ``start`` (see the module docstring)."""
    n = game.players
    if not game.final_scores or not game.final_points or len(game.final_points) < n:
        return Settlement()
    finals, points = list(game.final_scores[:n]), list(game.final_points[:n])
    floating = ""  # a floating uma: its row for the game's count of players below the return points is its uma
    if base.floating_uma:
        below = sum(f < base.return_points for f in finals)
        base = base.replace(uma=base.floating_uma[below], floating_uma=())
        floating = f" (the row of its floating uma for {below} below)"
    tenths = any(p != round(p) for p in points)
    rounding = "tenth" if tenths else base.game_points_rounding
    spec = ";game_points_rounding=tenth" if tenths and base.game_points_rounding != "tenth" else ""
    by_seat = ""
    if base.tie_rule == "split" and len(set(finals)) < n:  # a lobby whose tied places share their uma
        if _shared_places_fit(finals, points, start, base):  # whole numbers that fit exactly: exact to 0.1
            return Settlement(spec + (";game_points_rounding=tenth" if rounding == "tenhou" else ""))
        by_seat = ";tie_rule=seat"  # read back place by place below, ties by seat
    spec += by_seat
    order = sorted(range(n), key=lambda s: (-finals[s], s))
    uma = _uma_by_place(finals, points, order, start, base, rounding)
    exact = uma is None
    if exact:  # whole numbers Tenhou's rounding cannot give (first is not minus the others' sum): exact points
        uma = _uma_by_place(finals, points, order, start, base, "exact")
        spec = by_seat + ";game_points_rounding=exact"
    if uma != tuple(base.uma):  # a floating uma is then replaced by the uma read back
        spec += (";floating_uma=" if floating else "") + ";uma=" + _text(uma)
    if not exact and (uma == tuple(base.uma) or (n == 4 and uma in TENHOU_UMAS)):
        return Settlement(spec)
    shift = "/".join(f"{u - b:+g}" for u, b in zip(uma, base.uma))
    busted = [game.names[s] or f"seat {s}" for s in range(n) if finals[s] < 0]
    why = "the lobby's own uma" + (f", or a bust bonus ({', '.join(busted)} ended below zero)" if busted else "")
    total = round(sum(points), 1) + 0.0
    odd_sum = (f"; they add up to {total:+g}, not 0: money from outside the table (chips, a prize)"
               if abs(total) > TOLERANCE else "")
    note = (f"the recorded game points fit no rule we know: scored as recorded, with uma {_text(uma)} by place "
            f"({base.name}'s {_text(base.uma)}{floating} {shift}: {why}){odd_sum}")
    return Settlement(spec, note)
