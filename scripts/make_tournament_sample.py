"""Write sample_logs/tournament/sheet.csv: an invented one-day club tournament as a game-level result sheet.

16 players in 4 teams play 4 sessions at 4 tables (EMA rules). The seating is four parallel classes of the
affine plane of order 4 (points: pairs over GF(4), tables: lines), so that no two players meet twice. The final
scores are drawn (seeded) in steps of 100 and add up to 4 x 30,000 at each table, less the riichi sticks left
on it; a few rows carry what the sample should show: a chombo, a penalty, a tie for first, leftover sticks.
``recorded_points`` are worked out here by the EMA formula, with one slip written in on purpose (one point off
for the North player of S1-T1, the one with a penalty), which ``analyzer check`` reports.

    .venv/bin/python scripts/make_tournament_sample.py            # writes the file
    .venv/bin/python scripts/make_tournament_sample.py --check    # and prints the standings
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import polars as pl

OUT = Path(__file__).resolve().parent.parent / "sample_logs" / "tournament" / "sheet.csv"
TEAMS = {
    "Red Dragons": ["Ana", "Cho", "Ines", "Olek"],
    "Blue Winds": ["Ben", "Eli", "Jun", "Pia"],
    "Green Bamboo": ["Dai", "Fay", "Kai", "Quin"],
    "White Tigers": ["Gus", "Hana", "Lev", "Rosa"],
}
PLAYERS = [p for members in TEAMS.values() for p in members]
TEAM_OF = {p: team for team, members in TEAMS.items() for p in members}
UMA, START, CHOMBO = (15, 5, -5, -15), 30000, 20

# GF(4) = {0, 1, a, a+1} as 0..3: addition is xor, multiplication by the log table (a^2 = a + 1)
LOG, EXP = {1: 0, 2: 1, 3: 2}, [1, 2, 3]


def times(x: int, y: int) -> int:
    return 0 if x == 0 or y == 0 else EXP[(LOG[x] + LOG[y]) % 3]


def seating(session: int) -> list[list[str]]:
    """Four tables of four: the lines y = m x + c of slope m = session - 1 of the affine plane, where x is the
    team and y the member: one player of each team at every table, no two players together twice."""
    point = {(x, y): PLAYERS[4 * x + y] for x in range(4) for y in range(4)}
    return [[point[(x, times(session - 1, x) ^ c)] for x in range(4)] for c in range(4)]


# (session, table) -> what the table shows: chombo of a seat, penalty of a seat, a tie for first, sticks left
SPECIAL = {(1, 1): {"penalty": (3, 2.0)}, (2, 3): {"chombo": (1, 1)}, (3, 2): {"tie": True},
           (4, 4): {"sticks": 1}}


def scores(rng: random.Random, special: dict) -> list[int]:
    total = 4 * START - 1000 * special.get("sticks", 0)
    while True:
        drawn = [rng.randrange(100, 550) * 100 for _ in range(3)]
        if special.get("tie"):
            drawn[1] = drawn[0] = max(drawn[0], 36000)
        last = total - sum(drawn)
        if -10000 <= last <= 60000 and (special.get("tie") or len({*drawn, last}) == 4):
            return [*drawn, last]


def settle(finals: list[int], chombo: list[int], penalty: list[float], sticks: int) -> list[float]:
    """EMA game points: ties share the better place and their uma; leftover sticks to first (shared)."""
    top = max(finals)
    firsts = finals.count(top)
    out = []
    for s, score in enumerate(finals):
        above, tied = sum(o > score for o in finals), finals.count(score)
        received = (1000 * sticks // firsts) // 100 * 100 if score == top else 0
        uma = sum(UMA[above:above + tied]) / tied
        out.append(round((score + received - START) / 1000 + uma - CHOMBO * chombo[s] - penalty[s], 1))
    return out


def sheet(seed: int = 27) -> pl.DataFrame:
    rng = random.Random(seed)
    rows = []
    for session in range(1, 5):
        for table, players in enumerate(seating(session), start=1):
            special = SPECIAL.get((session, table), {})
            finals = scores(rng, special)
            chombo, penalty = [0] * 4, [0.0] * 4
            if "chombo" in special:
                chombo[special["chombo"][0]] = special["chombo"][1]
            if "penalty" in special:
                penalty[special["penalty"][0]] = special["penalty"][1]
            points = settle(finals, chombo, penalty, special.get("sticks", 0))
            for seat, player in enumerate(players):
                rows.append({
                    "session": session, "table": table, "game_id": f"S{session}-T{table}", "seat": "ESWN"[seat],
                    "player": player, "final_score": finals[seat], "chombo": chombo[seat], "penalty": penalty[seat],
                    "leftover_sticks": special.get("sticks", 0) if seat == 0 else None, "team": TEAM_OF[player],
                    "recorded_points": points[seat],
                })
    frame = pl.DataFrame(rows)
    slip = (pl.col("game_id") == "S1-T1") & (pl.col("seat") == "N")  # the slip: one point off
    return frame.with_columns(pl.when(slip).then(pl.col("recorded_points") - 1.0).otherwise(pl.col("recorded_points"))
                              .round(1).alias("recorded_points"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="print the standings after writing")
    args = parser.parse_args()
    frame = sheet()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    frame.write_csv(OUT)
    print(f"{OUT}: {frame.height} rows")
    if args.check:
        import analyzer  # deferred: only for --check, after the file is written

        print(analyzer.score(str(OUT), "ema").players.select("rank", "player", "games", "total_points"))


if __name__ == "__main__":
    main()
