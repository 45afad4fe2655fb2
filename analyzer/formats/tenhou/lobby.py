"""What a Tenhou lobby's type bits and custom rules say about how its games are settled (mjlog ``GO type`` above
0xFF, ``GO csrule``), and what they say that cannot be scored here: :func:`lobby_rules`.

The bits every lobby has (0x01 against people, 0x02 no red fives, 0x04 no open tanyao, 0x08 hanchan, 0x10 three
players, 0x20 / 0x80 the level, 0x40 fast) are read by :mod:`.mjlog`. The higher ones, as a public Tenhou log
library's game-type table names them (``show_discard_shadow``, ``with_tips``, ``is_5tips``) and
dnovikoff/tenhou's ``tbase/lobby.go`` (``RulesDzjanso = 0x0841``) with the logs of its ``log/test_data``:

* 0x100 暗 (the table shows no discard shadow): how the table looks, nothing scored differs;
* 0x200 祝儀 (chips; 0x400 with it: five chips a unit, 祝5, else two): chips for ippatsu, ura dora and red fives
  are paid apart from the points; the log writes them after the points in ``sc`` and ``owari`` (and what paid
  them in the win's ``chip``). The final chip counts are kept as recorded (``recorded_chips_*``), never mixed
  into the points, and not checked. The chip lobbies' logs we know (a tokujou hanchan and a tokujou east-only
  game) pay uma 30/10/-10/-30 on Tenhou's points, which the recorded result then confirms (:mod:`.settlement`);
* 0x800 雀荘 (jansou; type 0x841): everyone starts with 1,000 and the game points are the change of the score
  in thousands, to 0.1 (-300 -> -1.3, 17,000 -> +16.0): no uma, no oka, as both such logs record them. How long
  such a game lasts and what its ``ratio`` is are not known (both logs end at a bust in their first hand);
* any other bit: not known; the game is scored under Tenhou's rules and a note says so.

``csrule`` (a lobby's custom rules, written since 2023; ``GO type="257" csrule="0FE0BF0B,0000001F,,,30000,
30000,30000,,...,5,-5,-15,5,-5,-15,..."``): no description of the format is published. A Tenhou-hosted lobby
states its custom rules as 30,000 points returned at 30,000, uma +15/+5/-5/-15, tied places sharing their uma
(Equim-chan/mjai-reviewer issue 161, the "ronron" lobby), and the one such log we have matches that reading:
fields 5 and 6 the start and return points, field 22 on the uma of places 2 to n (the first place's is minus
their sum), given once per set in several sets; ties share their places' uma (``tie_rule=split``). The recorded
result is the check of that reading: where it does not fit, :mod:`.settlement` reads the uma back as for any
lobby. The rest of a ``csrule`` (its leading hexadecimal switches and other sets) is not decoded, which the
game's note says once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.formats.model import Game
from analyzer.core.rules import MAX_POINTS

CHIPS, FIVE_CHIPS, JANSOU = 0x200, 0x400, 0x800
KNOWN_BITS = 0xFFF  # 0x100 (暗) is how the table looks: nothing to do
CHIP_UMA = (30.0, 10.0, -10.0, -30.0)
CUSTOM_POINTS = (4, 5)  # csrule fields: start and return points
CUSTOM_UMA = 21  # csrule field of the second place's uma, the first of a set of places 2..n


@dataclass(frozen=True)
class LobbyRules:
    """Rule overrides a lobby's type and custom rules give (option -> value, as :meth:`Rules.replace` takes
    them), and the note said once for its game: what of its rules is not reproduced here."""

    options: dict = field(default_factory=dict)
    note: str | None = None

    def spec(self) -> str:
        """The overrides as a rules spec's tail: ``;return_points=1000;uma=0/0/0/0``."""
        return "".join(f";{name}={_text(value)}" for name, value in self.options.items())


def _text(value) -> str:
    return "/".join(f"{v:g}" for v in value) if isinstance(value, tuple) else str(value)


def _number(text: str) -> int | None:
    """A whole number a rule can take (at most ``MAX_POINTS`` either way), else None."""
    try:
        value = int(text)
    except ValueError:
        return None
    return value if abs(value) <= MAX_POINTS else None


def lobby_rules(game: Game) -> LobbyRules:
    """The overrides and the note of ``game``'s lobby (see the module docstring); none for a standard lobby or
    a log that names no lobby type (tenhou.net/6 JSON, mjai)."""
    bits = game.lobby_type or 0
    options: dict = {}
    said: list[str] = []
    if bits & JANSOU:
        start = game.kyokus[0].scores[0] if game.kyokus else 1000
        options |= {"uma": (0.0,) * game.players, "game_points_rounding": "tenth"}
        if 0 <= start <= MAX_POINTS:  # no oka: game points count from the start
            options = {"return_points": start, **options}
        said.append(f"a 雀荘 (jansou) lobby (GO type 0x{bits:x}): game points are the score's change in thousands, "
                    f"no uma, no oka; not known here: how long its games last"
                    f"{f', what ratio={game.ratio} is' if game.ratio else ''}; otherwise scored under Tenhou's rules")
    if bits & CHIPS:
        if game.players == 4:
            options["uma"] = CHIP_UMA
        chips = "/".join(f"{c:+d}" for c in game.final_chips[: game.players]) if game.final_chips else "none recorded"
        ratio = f"; ratio={game.ratio}" if game.ratio else ""
        said.append(f"a 祝儀 (chip) lobby (GO type 0x{bits:x}, {5 if bits & FIVE_CHIPS else 2} chips a unit): chips "
                    f"are paid apart from the points and not checked (final chips by seat: {chips}{ratio})")
    unknown = bits & ~KNOWN_BITS | (bits & FIVE_CHIPS if not bits & CHIPS else 0)  # 祝5 only says with chips
    if unknown:
        said.append(f"GO type 0x{bits:x} has lobby bits not known here (0x{unknown:x}): scored under Tenhou's rules")
    if game.custom_rules is not None:
        custom, undecoded = _custom(game.custom_rules, game.players)
        options |= custom
        read = ", ".join(f"{name} {_text(value)}" for name, value in custom.items()) or "nothing"
        said.append(f"custom rules (GO csrule): read {read}; not decoded: {undecoded or 'nothing else'}; otherwise "
                    "scored under Tenhou's rules")
    return LobbyRules(options, "; ".join(said) or None)


def _custom(text: str, players: int) -> tuple[dict, str]:
    """The options a ``csrule`` gives (return points, uma, ties sharing their uma) and, as text, the fields
    left undecoded."""
    fields = [f.strip() for f in text.split(",")]
    options: dict = {}
    points = [_number(fields[i]) if i < len(fields) else None for i in CUSTOM_POINTS]
    if points[1] is not None and points[1] >= 0:
        options["return_points"] = points[1]
    sets = [fields[i : i + players - 1] for i in range(CUSTOM_UMA, len(fields), players - 1)]
    uma_sets = [tuple(_number(v) for v in s) for s in sets if len(s) == players - 1 and all(s)]
    uma_sets = [s for s in uma_sets if None not in s and abs(sum(s)) <= MAX_POINTS]
    if uma_sets:
        rest = uma_sets[0]
        options["uma"] = (float(-sum(rest)), *map(float, rest))
        options["tie_rule"] = "split"
    used = {*CUSTOM_POINTS, *range(CUSTOM_UMA, CUSTOM_UMA + (players - 1) * len(uma_sets))}
    others = [f"field {i + 1} {v}" for i, v in enumerate(fields) if v and i not in used]
    if len(set(uma_sets)) > 1:
        others.append(f"the uma sets after the first ({'; '.join('/'.join(map(str, s)) for s in uma_sets[1:])})")
    return options, ", ".join(others)
