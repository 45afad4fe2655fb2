"""The log tables (:mod:`.log_tables`) of games read into the per-game model (:mod:`.model`): the bridge for the
readers that are not columnar yet, and the oracle the columnar readers are tested against.

:func:`arrow_tables_of_games` uses pyarrow and Python only (it runs in forked workers, where Polars' threads do
not survive), one loop per game and per hand (the events table's rows come from :func:`.events.game_events`);
:func:`log_tables_from_arrow` gives them their Polars types in the parent, :func:`tables_of_games` does both.
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa

from analyzer.formats.events import EventColumns, game_events
from analyzer.formats.identity import game_id
from analyzer.formats.log_tables import EVENTS, GAMES, HANDS, OUTCOMES, LogTables
from analyzer.formats.model import Game
from analyzer.formats.tile_text import tile_str

_TEXT = pa.large_string()
_TEXTS = pa.large_list(_TEXT)
_INTS = pa.large_list(pa.int64())
_MELDS = pa.large_list(pa.struct([("kind", _TEXT), ("tiles", _TEXTS)]))
# the columns as they travel: tiles as text (the parent casts them to the tile Enum)
_ARROW_GAMES = pa.schema([
    ("game", pa.int32()), ("game_id", _TEXT), ("log_file", _TEXT), ("ref", _TEXT), ("digest", _TEXT),
    ("names", _TEXTS), ("players", pa.int8()), ("platform", _TEXT), ("aka", pa.bool_()), ("kuitan", pa.bool_()),
    ("game_length", _TEXT), ("lobby", pa.int64()), ("lobby_type", pa.int64()), ("custom_rules", _TEXT),
    ("room", _TEXT), ("final_scores", _INTS), ("final_points", pa.large_list(pa.float64())),
    ("final_chips", _INTS), ("rank_points", _INTS), ("ratio", _TEXT), ("dan", _TEXTS), ("rate", _TEXTS),
    ("ranks", _TEXTS), ("tsumo_loss", _TEXT), ("started_at", pa.timestamp("us", "Asia/Tokyo")),
    ("rule_options", pa.large_list(pa.struct([("name", _TEXT), ("value", _TEXT)]))), ("rules", _TEXT),
    ("notes", pa.large_list(pa.struct([("text", _TEXT), ("hand", pa.int32())]))),
])
_ARROW_HANDS = pa.schema([
    ("game", pa.int32()), ("log_row", pa.int16()), ("kyoku", pa.int16()), ("honba", pa.int64()),
    ("kyotaku", pa.int64()), ("scores", _INTS), ("haipai", pa.large_list(_TEXTS)), ("dora", _TEXTS),
    ("players", pa.int8()),
])
_ARROW_OUTCOMES = pa.schema([
    ("game", pa.int32()), ("log_row", pa.int16()), ("outcome", pa.int8()), ("result", _TEXT), ("deltas", _INTS),
    ("winner", pa.int8()), ("loser", pa.int8()), ("pao", pa.int8()), ("fu", pa.int64()), ("han", pa.int64()),
    ("points", pa.int64()), ("limit", _TEXT), ("yaku", _TEXTS), ("yaku_han", _INTS), ("yakuman", pa.int64()),
    ("dora", pa.int64()), ("ura", pa.int64()), ("aka", pa.int64()), ("dora_indicators", _TEXTS),
    ("ura_indicators", _TEXTS), ("hand", _TEXTS), ("win_tile", _TEXT), ("melds", _MELDS),
    ("tenpai", pa.large_list(pa.int8())), ("all_tenpai", pa.bool_()), ("has_value", pa.bool_()),
    ("kita", pa.int64()), ("abort", _TEXT), ("recorded_text", _TEXTS),
])
_OUTCOME_FIELDS = ("result", "deltas", "winner", "loser", "pao", "fu", "han", "points", "limit", "yaku", "yaku_han",
                   "yakuman", "dora", "ura", "aka", "all_tenpai", "has_value", "kita", "abort", "recorded_text")


def _texts(values) -> list | None:
    """A per-seat value the model keeps as recorded (text or number), as text; None when not a list."""
    if not isinstance(values, (list, tuple)):
        return None
    return [None if v is None else str(v) for v in values]


def _tiles(tiles) -> list[str] | None:
    return None if tiles is None else [tile_str(t) for t in tiles]


def _option(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def game_row(number: int, game: Game, gid: str) -> dict:
    """One row of the games table (:data:`.log_tables.GAMES`, tiles as text) of ``game``, numbered ``number``."""
    return {
        "game": number, "game_id": gid, "log_file": game.file, "ref": game.ref, "digest": game.digest,
        "names": list(game.names), "players": game.players, "platform": game.platform, "aka": game.aka,
        "kuitan": game.kuitan, "game_length": game.game_length, "lobby": game.lobby, "lobby_type": game.lobby_type,
        "custom_rules": game.custom_rules, "room": game.room, "final_scores": game.final_scores,
        "final_points": None if game.final_points is None else [float(p) for p in game.final_points],
        "final_chips": game.final_chips, "rank_points": game.rank_points, "ratio": game.ratio,
        "dan": _texts(game.dan), "rate": _texts(game.rate), "ranks": _texts(game.ranks),
        "tsumo_loss": game.tsumo_loss, "started_at": game.started_at,
        "rule_options": [{"name": name, "value": _option(value)} for name, value in game.rule_options.items()],
        "rules": game.rules, "notes": [{"text": note.text, "hand": note.hand} for note in game.notes],
    }


def arrow_tables_of_games(games: list[Game], game_ids: list[str] | None = None,
                          refused: dict[int, str] | None = None) -> dict[str, pa.Table]:
    """The four tables of ``games`` (numbered from 0 in this order) as Arrow tables, tiles as text;
    ``game_ids`` the games' ids (default: :func:`.identity.game_id` of each). A game the events table cannot
    hold (:func:`.events.game_events` raises: a counter beyond Int16, a round past N4) raises ValueError, or,
    when ``refused`` is given, is left out and its reason put there under its place in ``games`` (the games
    kept are numbered in order without it)."""
    ids = game_ids if game_ids is not None else [game_id(g.ref, g.file, g.digest or "") for g in games]
    game_rows: list[dict] = []
    hands: dict[str, list] = {name: [] for name in _ARROW_HANDS.names}
    outcomes: dict[str, list] = _outcome_lists()
    events = EventColumns()
    event_games: list[int] = []
    number = -1
    for place, (game, gid) in enumerate(zip(games, ids)):
        mark = events.mark()
        try:
            rows = game_events(game, gid, events)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            if refused is None:
                raise ValueError(f"{game.file}: the events table cannot hold this game ({exc})") from exc
            events.truncate(mark)
            refused[place] = f"cannot export ({type(exc).__name__}: {str(exc)[:200]})"
            continue
        number += 1
        event_games.extend([number] * rows)
        game_rows.append(game_row(number, game, gid))
        for n, k in enumerate(game.kyokus, start=1):
            for name, value in (("game", number), ("log_row", n), ("kyoku", k.kyoku), ("honba", k.honba),
                                ("kyotaku", k.kyotaku), ("scores", k.scores), ("players", k.players),
                                ("haipai", [_tiles(h) for h in k.haipai]), ("dora", _tiles(k.dora))):
                hands[name].append(value)
            _add_outcomes(outcomes, number, n, k)
    played = events.table()
    return {
        "games": pa.Table.from_pylist(game_rows, schema=_ARROW_GAMES),
        "hands": pa.table({name: pa.array(hands[name], _ARROW_HANDS.field(name).type) for name in _ARROW_HANDS.names}),
        "events": played.add_column(0, pa.field("game", pa.int32()), pa.array(event_games, pa.int32())),
        "outcomes": _outcomes_table(outcomes),
    }


def _outcome_lists() -> dict[str, list]:
    return {name: [] for name in _ARROW_OUTCOMES.names}


def _add_outcomes(outcomes: dict[str, list], number: int, n: int, k) -> None:
    """The outcome rows of hand ``n`` (from 1) of game ``number``."""
    for i, o in enumerate(k.outcomes):
        for name in _OUTCOME_FIELDS:
            outcomes[name].append(getattr(o, name))
        for name in ("dora_indicators", "ura_indicators", "hand"):
            outcomes[name].append(_tiles(getattr(o, name)))
        outcomes["game"].append(number)
        outcomes["log_row"].append(n)
        outcomes["outcome"].append(i)
        outcomes["win_tile"].append(None if o.win_tile is None else tile_str(o.win_tile))
        outcomes["melds"].append(None if o.melds is None else
                                 [{"kind": mk, "tiles": _tiles(tiles)} for mk, tiles in o.melds])
        outcomes["tenpai"].append(o.tenpai)


def _outcomes_table(outcomes: dict[str, list]) -> pa.Table:
    return pa.table({name: pa.array(outcomes[name], _ARROW_OUTCOMES.field(name).type)
                     for name in _ARROW_OUTCOMES.names})


def outcomes_of_games(games: list[Game], numbers: list[int]) -> pl.DataFrame:
    """The outcomes table (:data:`.log_tables.OUTCOMES`) of ``games``, each numbered as ``numbers`` says."""
    outcomes = _outcome_lists()
    for number, game in zip(numbers, games):
        for n, k in enumerate(game.kyokus, start=1):
            _add_outcomes(outcomes, number, n, k)
    return pl.from_arrow(_outcomes_table(outcomes)).cast(dict(OUTCOMES))


def games_table(rows: list[dict]) -> pl.DataFrame:
    """Rows of :func:`game_row` as the games table (:data:`.log_tables.GAMES`)."""
    return pl.from_arrow(pa.Table.from_pylist(rows, schema=_ARROW_GAMES)).cast(dict(GAMES))


def log_tables_from_arrow(tables: dict[str, pa.Table]) -> LogTables:
    """:func:`arrow_tables_of_games`'s tables with the types of :mod:`.log_tables` (tiles as the tile Enum)."""
    frames = {name: pl.from_arrow(table) for name, table in tables.items()}
    return LogTables(
        games=frames["games"].cast(dict(GAMES)),
        hands=frames["hands"].cast(dict(HANDS)),
        events=frames["events"].cast(dict(EVENTS)),
        outcomes=frames["outcomes"].cast(dict(OUTCOMES)),
    )


def tables_of_games(games: list[Game], game_ids: list[str] | None = None) -> LogTables:
    """The log tables of ``games`` (see :func:`arrow_tables_of_games`)."""
    return log_tables_from_arrow(arrow_tables_of_games(games, game_ids))

