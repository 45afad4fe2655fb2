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
30000,30000,,...,5,-5,-15,5,-5,-15,..."``; a tenhou.net/6 JSON log gives the same fields as its ``rule`` list):
read by :mod:`.csrule`, with its sources: the start and return points, the uma table (one row per count of
players below the return points; a table whose rows differ is a ``floating_uma``), tied places sharing their
uma (``tie_rule=split``). The recorded result is the check of that reading: where it does not fit,
:mod:`analyzer.formats.settlement` reads the uma back as for any lobby. The fields not decoded (the
hexadecimal switches among them) are named in the game's note, once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.formats.model import Game
from analyzer.formats.tenhou.csrule import read_csrule
from analyzer.core.rules import MAX_POINTS
from analyzer.core.uma_values import uma_text

CHIPS, FIVE_CHIPS, JANSOU = 0x200, 0x400, 0x800
KNOWN_BITS = 0xFFF  # 0x100 (暗) is how the table looks: nothing to do
CHIP_UMA = (30.0, 10.0, -10.0, -30.0)


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
    """An option's value as a rules spec writes it: ``20/10/-10/-20``; a floating uma's rows joined by commas."""
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return ",".join(uma_text(row) for row in value)
    return uma_text(value) if isinstance(value, tuple) else str(value)


def first_hand_start(game: Game) -> int | None:
    """The points everyone starts the log's first hand with when it is the game's first (E1, nothing on the
    table, equal scores)."""
    first = game.kyokus[0] if game.kyokus else None
    scores = first.scores[: game.players] if first is not None else []
    if first is not None and (first.kyoku, first.honba, first.kyotaku) == (0, 0, 0) and len(set(scores)) == 1:
        return scores[0]
    return None


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
        custom = read_csrule(game.custom_rules, game.players, first_hand_start(game))
        options |= custom.options
        where = "GO csrule" if game.lobby_type is not None else "csrule, from a JSON log"
        said.append(f"custom rules ({where}): read {', '.join(custom.read) or 'nothing'}; not decoded: "
                    f"{', '.join(custom.undecoded) or 'nothing else'}; otherwise scored under Tenhou's rules")
    return LobbyRules(options, "; ".join(said) or None)
