"""A generated game-level sheet of a 48-player, 8-session EMA tournament (12 tables a session, 12 teams of 4),
and an independent settlement of it in plain Python: the hand count the tests compare analyzer with.

Every row carries its recorded place and points, worked out here; :func:`plant` then makes the mistakes a
test expects ``check`` to find.
"""

from __future__ import annotations

import random

import polars as pl

PLAYERS = [f"P{i:02d}" for i in range(1, 49)]
TEAMS = {p: f"Team {chr(ord('A') + i // 4)}" for i, p in enumerate(PLAYERS)}
SESSIONS, TABLES = 8, 12
START, UMA, CHOMBO = 30000, (15, 5, -5, -15), 20


def settle(scores: list[int], chombo: list[int], penalty: list[float]) -> list[tuple[int, float]]:
    """(place, game points) of each seat under EMA rules: ties share the better place and their uma."""
    out = []
    for s, score in enumerate(scores):
        above = sum(other > score for other in scores)
        tied = sum(other == score for other in scores)
        uma = sum(UMA[above:above + tied]) / tied
        out.append((above + 1, round((score - START) / 1000 + uma - CHOMBO * chombo[s] - penalty[s], 6)))
    return out


def generate(seed: int = 27) -> pl.DataFrame:
    """The sheet, right in every row: session, table, game_id, seat, player, final_score, chombo, penalty, team,
    recorded_place, recorded_points."""
    rng = random.Random(seed)
    rows = []
    for session in range(1, SESSIONS + 1):
        order = PLAYERS[:]
        rng.shuffle(order)
        for table in range(1, TABLES + 1):
            players = order[4 * (table - 1):4 * table]
            scores = [rng.randrange(50, 500) * 100 for _ in range(3)]
            scores.append(4 * START - sum(scores))
            chombo = [1 if rng.random() < 0.02 else 0 for _ in range(4)]
            penalty = [2.0 if rng.random() < 0.02 else 0.0 for _ in range(4)]
            for seat, (player, (place, points)) in enumerate(zip(players, settle(scores, chombo, penalty))):
                rows.append({"session": session, "table": table, "game_id": f"S{session}-T{table:02d}", "seat": seat,
                             "player": player, "final_score": scores[seat], "chombo": chombo[seat],
                             "penalty": penalty[seat], "team": TEAMS[player], "recorded_place": place,
                             "recorded_points": points})
    return pl.DataFrame(rows)


def hand_count(sheet: pl.DataFrame, skip_games: set[str]) -> tuple[dict[str, float], dict[str, float]]:
    """Each player's and each team's total game points, settled here from the sheet's final scores (games in
    ``skip_games`` left out: they cannot be settled); a player's team is the first the sheet gives."""
    players: dict[str, float] = {}
    team_of: dict[str, str] = {}
    for game in sheet.partition_by("game_id", maintain_order=True):
        for player, team in zip(game["player"], game["team"]):
            team_of.setdefault(player, team)
        if game["game_id"][0] in skip_games:
            continue
        results = settle(game["final_score"].to_list(), game["chombo"].to_list(), game["penalty"].to_list())
        for player, (_, points) in zip(game["player"], results):
            players[player] = players.get(player, 0.0) + points
    teams: dict[str, float] = {}
    for player, points in players.items():
        teams[team_of[player]] = teams.get(team_of[player], 0.0) + points
    return players, teams


def _cell(sheet: pl.DataFrame, game: str, seat: int, column: str):
    return sheet.filter(pl.col("game_id") == game, pl.col("seat") == seat)[column].item()


def _set(sheet: pl.DataFrame, game: str, seat: int, **values) -> pl.DataFrame:
    at = (pl.col("game_id") == game) & (pl.col("seat") == seat)
    return sheet.with_columns(pl.when(at).then(pl.lit(v)).otherwise(pl.col(k)).alias(k) for k, v in values.items())


def plant(sheet: pl.DataFrame) -> tuple[pl.DataFrame, set, set, set[str]]:
    """The sheet with the mistakes tests/test_planted_mistakes.py lists; the (game, player, field) of the
    mismatches and of the notes (field: the session) check must find; the games that cannot be settled."""
    mismatches, notes = set(), set()
    top = sheet.filter(pl.col("game_id") == "S2-T03").sort("final_score", descending=True)
    assert top["final_score"][0] > top["final_score"][1]  # still alone at the top, 1000 higher
    sheet = _set(sheet, "S2-T03", top["seat"][0], final_score=top["final_score"][0] + 1000)
    mismatches |= {("S2-T03", None, "final_score_sum"), ("S2-T03", top["player"][0], "game_points")}

    sheet = _set(sheet, "S3-T05", 1, recorded_points=_cell(sheet, "S3-T05", 1, "recorded_points") + 1.0)
    mismatches.add(("S3-T05", _cell(sheet, "S3-T05", 1, "player"), "game_points"))

    sheet = _set(sheet, "S4-T01", 2, recorded_place=_cell(sheet, "S4-T01", 2, "recorded_place") % 4 + 1)
    mismatches.add(("S4-T01", _cell(sheet, "S4-T01", 2, "player"), "place"))

    notes.add((None, _cell(sheet, "S5-T07", 3, "player"), "5"))
    sheet = sheet.filter(~((pl.col("game_id") == "S5-T07") & (pl.col("seat") == 3)))
    mismatches.add(("S5-T07", None, "players"))

    left_out, twice = _cell(sheet, "S6-T02", 0, "player"), _cell(sheet, "S6-T09", 0, "player")
    sheet = _set(sheet, "S6-T02", 0, player=twice, team=_cell(sheet, "S6-T09", 0, "team"))
    mismatches.add(("S6-T09", twice, "session"))  # named at the later of the two games
    notes.add((None, left_out, "6"))

    left_out, doubled = _cell(sheet, "S7-T04", 1, "player"), _cell(sheet, "S7-T04", 2, "player")
    sheet = _set(sheet, "S7-T04", 1, player=doubled, team=_cell(sheet, "S7-T04", 2, "team"))
    mismatches.add(("S7-T04", doubled, "player"))
    notes.add((None, left_out, "7"))

    sheet = _set(sheet, "S8-T06", 3, chombo=_cell(sheet, "S8-T06", 3, "chombo") + 1)
    mismatches.add(("S8-T06", _cell(sheet, "S8-T06", 3, "player"), "game_points"))

    sheet = _set(sheet, "S8-T10", 0, team="Team Z")
    mismatches.add(("S8-T10", _cell(sheet, "S8-T10", 0, "player"), "team"))  # the game of the second team
    return sheet, mismatches, notes, {"S5-T07", "S7-T04"}
