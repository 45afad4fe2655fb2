"""The hand records' columns that are one value per game, from the games table: the players' names, the rules
spec and settlement, a special lobby's note, the dan and rate read, the start time, the recorded final result,
and the notes the import says about each game (what :func:`.rows.game_rows` adds per game).

Per game, in Python: these are a few values a game, worked out by the same functions the old path calls
(:func:`.rules_spec.rules_spec`, :func:`.settlement.settlement`, :func:`.lobby.lobby_rules`,
:func:`.identity.identity_columns`), never a loop over events or hands."""

from __future__ import annotations

import polars as pl

from analyzer.formats.columns import COLUMNS
from analyzer.formats.identity import identity_columns, played_at
from analyzer.formats.model import Game, Kyoku, Note
from analyzer.formats.rows import ANONYMOUS, seat_names
from analyzer.formats.rules_spec import rules_spec, settlement
from analyzer.formats.tenhou.lobby import lobby_rules

SEATS = range(4)
LAST_ROW = ("settlement", "rules_note", *(f"recorded_{name}_{s}" for name in ("final", "game_points", "chips",
                                                                              "rank_points") for s in SEATS))
GAME_COLUMNS = ("game_id", "log_file", "played_at", "rules", "game_length", "lobby", "room",
                *(f"player_{s}" for s in SEATS), *(f"{name}_{s}" for name in ("dan", "rate", "platform_rank")
                                                   for s in SEATS))
SCHEMA = {"game": pl.Int32, **{name: COLUMNS[name] for name in (*GAME_COLUMNS, *LAST_ROW)}}


def game_of(row: dict, first_hand: dict | None) -> Game:
    """The model's game as far as its per-game columns need it: its games-table row and its first hand's
    counters and scores (the rules spec reads the start points from it)."""
    kyokus = [] if first_hand is None else [Kyoku(first_hand["kyoku"], first_hand["honba"], first_hand["kyotaku"],
                                                  list(first_hand["scores"]), [], [], players=row["players"])]
    return Game(
        file=row["log_file"], ref=row["ref"], names=list(row["names"]), aka=row["aka"], kuitan=row["kuitan"],
        game_length=row["game_length"], lobby=row["lobby"], kyokus=kyokus, final_scores=row["final_scores"],
        final_points=row["final_points"], players=row["players"], dan=row["dan"], rate=row["rate"],
        digest=row["digest"], platform=row["platform"], room=row["room"], ranks=row["ranks"],
        tsumo_loss=row["tsumo_loss"], lobby_type=row["lobby_type"], custom_rules=row["custom_rules"],
        final_chips=row["final_chips"], ratio=row["ratio"], started_at=row["started_at"],
        rank_points=row["rank_points"], rule_options={o["name"]: o["value"] for o in row["rule_options"] or []},
        rules=row["rules"],
    )


def _names(game: Game, gid: str) -> dict:
    names: list[str | None] = list(seat_names(game.names))
    if game.players == 3:  # seat 3 is empty
        names[3] = None
    return {f"player_{s}": f"{ANONYMOUS}@{gid}#{s}" if name is not None and name.startswith(ANONYMOUS) else name
            for s, name in enumerate(names)}


def _recorded(values: list | None, s: int, players: int):
    return values[s] if values and s < players else None


def game_columns(games: pl.DataFrame, first_hands: pl.DataFrame) -> tuple[pl.DataFrame, dict[int, list[Note]],
                                                                           dict[int, Note | None]]:
    """One row per game: :data:`GAME_COLUMNS` and the last row's :data:`LAST_ROW`; per game number the notes said
    before its hands (the reader's, unreadable dan or rate) and the one said after them (its lobby's)."""
    hands = {row["game"]: row for row in first_hands.iter_rows(named=True)}
    out: dict[str, list] = {name: [] for name in SCHEMA}
    before: dict[int, list[Note]] = {}
    after: dict[int, Note | None] = {}
    for row in games.iter_rows(named=True):
        number, gid = row["game"], row["game_id"]
        game = game_of(row, hands.get(number))
        settled = settlement(game)
        lobby = lobby_rules(game)
        rank_notes: list[str] = []
        values = {"game": number, "game_id": gid, "log_file": game.file,
                  "played_at": game.started_at or played_at(gid), "rules": game.rules or rules_spec(game, settled),
                  "game_length": game.game_length, "lobby": game.lobby, "room": game.room, **_names(game, gid),
                  **identity_columns(game.dan, game.rate, rank_notes, game.players, game.ranks),
                  "settlement": settled.note, "rules_note": lobby.note}
        final = game.final_scores is not None
        for s in SEATS:
            values[f"recorded_final_{s}"] = game.final_scores[s] if final and s < game.players else None
            for name, recorded in (("game_points", game.final_points), ("chips", game.final_chips),
                                   ("rank_points", game.rank_points)):
                values[f"recorded_{name}_{s}"] = _recorded(recorded, s, game.players) if final else None
        for name, value in values.items():
            out[name].append(value)
        before[number] = [Note(n["text"], n["hand"]) for n in row["notes"] or []] + [Note(t) for t in rank_notes]
        after[number] = None if lobby.note is None else Note(lobby.note)
    return pl.DataFrame(out, schema=SCHEMA), before, after
