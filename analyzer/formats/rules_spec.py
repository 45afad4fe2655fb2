"""The ruleset spec of an imported game (the ``rules`` column, read by :func:`analyzer.core.rules.from_spec`): what
its log shows of Tenhou's rules, or of Mahjong Soul's for a Mahjong Soul game (:mod:`.majsoul`), what its
lobby's type and custom rules give (:mod:`.lobby`), and the settlement its recorded result shows
(:mod:`.settlement`)."""

from __future__ import annotations

from functools import lru_cache

from analyzer.formats.tenhou.lobby import first_hand_start, lobby_rules
from analyzer.formats.model import Game
from analyzer.formats.settlement import Settlement, logged_settlement
from analyzer.core.rules import Rules, preset

TENHOU_START = 25_000
TENHOU_START_3P = 35_000


# a platform's own preset (four players; ``_sanma`` added for three): its game points count from the start points
# when a room starts from others (no oka then), as Mahjong Soul's and Riichi City's results do
PLATFORM_PRESETS = {"majsoul": "majsoul", "riichicity": "riichicity"}


def _majsoul(game: Game) -> bool:
    return game.platform == "majsoul"


def _from_start(game: Game) -> bool:
    return game.platform in PLATFORM_PRESETS


def _base(game: Game) -> str:
    return PLATFORM_PRESETS.get(game.platform, "tenhou") + ("" if game.players == 4 else "_sanma")


def _start(game: Game) -> int | None:
    """The points everyone started the game with, when the log's first hand is its first (E1, nothing on the
    table, equal scores)."""
    return first_hand_start(game)


@lru_cache(maxsize=None)
def _preset(name: str) -> Rules:
    """A base preset, read once per process (every game of an import needs one)."""
    return preset(name)


def _base_rules(game: Game) -> Rules:
    """The preset the spec starts from, with the game's start (Mahjong Soul counts game points from the start, no
    oka, whatever it is) and what its lobby gives (:mod:`.lobby`)."""
    base, start = _preset(_base(game)), _start(game)
    if _from_start(game) and start is not None and start != base.start_points:
        base = base.replace(start_points=start, return_points=start)
    lobby = lobby_rules(game).options
    return base.replace(**lobby) if lobby else base


def settlement(game: Game) -> Settlement:
    """The settlement the game's recorded result shows against its base ruleset (see :mod:`.settlement`)."""
    base = _base_rules(game)
    return logged_settlement(game, base, _start(game) or base.start_points)


def rules_spec(game: Game, settled: Settlement | None = None) -> str:
    """The ruleset spec of a game from what its log says: red fives, open tanyao, game length, the starting
    points of its first hand, how a three-player Mahjong Soul game pays a tsumo, its lobby's settlement, and
    the game-point rounding and uma its recorded result shows (``settled``, when already worked out:
    :func:`settlement`)."""
    spec = _base(game)
    if not game.aka:
        spec += ";aka_dora=false"
    if not game.kuitan:
        spec += ";open_tanyao=false"
    if game.game_length == "tonpuu":
        spec += ";game_length=east"
    start = _start(game)
    if start is not None and start != (TENHOU_START if game.players == 4 else TENHOU_START_3P):
        spec += f";start_points={start}" + (f";return_points={start}" if _from_start(game) else "")
    if _majsoul(game) and game.tsumo_loss == "split":
        spec += ";tsumo_loss=split"
    spec += "".join(f";{name}={str(value).lower() if isinstance(value, bool) else value}"
                    for name, value in game.rule_options.items())  # what the room gives (.majsoul_rooms)
    return spec + lobby_rules(game).spec() + (settled or settlement(game)).spec
