"""What analyzer's mjai export (:mod:`analyzer.formats.mjai.write`) writes in ``start_game`` beyond the protocol, read
back into the game: its id, rules spec, platform, room, lobby, ranks, start time and final game points. A value of
the wrong type is an error naming it, not skipped: the file then says something else than the game it came from."""

from __future__ import annotations

from datetime import datetime

from analyzer.formats.model import Game, LogError

EXTENSION = "analyzer"


def _check(value, types, what: str, items=None):
    ok = isinstance(value, types) and not isinstance(value, bool) if bool not in types else isinstance(value, types)
    if ok and items is not None:
        ok = len(value) in (3, 4) and all(v is None or (isinstance(v, items) and not isinstance(v, bool)) for v in value)
    if not ok:
        raise LogError(f"start_game {EXTENSION}.{what}: bad value {value!r}")
    return value


def _four(values: list) -> list:
    return list(values) + [0] * (4 - len(values))


def read_extension(fields, game: Game) -> None:
    """Set the game's fields from ``start_game``'s :data:`EXTENSION` object."""
    if not isinstance(fields, dict):
        raise LogError(f"start_game {EXTENSION}: expected an object, got {fields!r}")
    get = fields.get
    if get("game_id") is not None:
        game.ref = _check(get("game_id"), (str,), "game_id")
    if get("rules") is not None:
        game.rules = _check(get("rules"), (str,), "rules")
    if get("platform") is not None:
        game.platform = _check(get("platform"), (str,), "platform")
    for key, attr in (("room", "room"), ("custom_rules", "custom_rules"), ("tsumo_loss", "tsumo_loss"),
                      ("ratio", "ratio")):
        if get(key) is not None:
            setattr(game, attr, _check(get(key), (str,), key))
    for key, attr in (("lobby", "lobby"), ("lobby_type", "lobby_type")):
        if get(key) is not None:
            setattr(game, attr, _check(get(key), (int,), key))
    if get("open_tanyao") is not None:
        game.kuitan = _check(get("open_tanyao"), (bool,), "open_tanyao")
    for key in ("dan", "rate", "ranks"):
        if get(key) is not None:
            setattr(game, key, list(_check(get(key), (list,), key, (str, int, float))))
    if "game_points" in fields and fields["game_points"] is None:
        game.final_points = None
    if get("game_points") is not None:
        game.final_points = [float(v) for v in _four(_check(get("game_points"), (list,), "game_points", (int, float)))]
    if get("chips") is not None:
        game.final_chips = _four(_check(get("chips"), (list,), "chips", (int,)))
    if get("started_at") is not None:
        try:
            game.started_at = datetime.fromisoformat(_check(get("started_at"), (str,), "started_at"))
        except ValueError:
            raise LogError(f"start_game {EXTENSION}.started_at: bad value {get('started_at')!r}") from None


def read_limit_fu(fields, game: Game) -> None:
    """The fu of limit hands a tenhou.net/6 export keeps in ``limit_fu`` (``[hand, win, fu]``, from 0)."""
    if not isinstance(fields, dict) or fields.get("limit_fu") is None:
        return
    for item in _check(fields["limit_fu"], (list,), "limit_fu"):
        if not (isinstance(item, list) and len(item) == 3 and all(isinstance(v, int) for v in item)):
            raise LogError(f"start_game {EXTENSION}.limit_fu: bad entry {item!r}")
        hand, win, fu = item
        try:
            game.kyokus[hand].outcomes[win].fu = fu
        except IndexError:
            raise LogError(f"{EXTENSION}.limit_fu: no win {win} in hand {hand}") from None
