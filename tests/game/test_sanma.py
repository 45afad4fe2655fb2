"""Three-player mahjong (sanma): payments, game end and results under ``tenhou_sanma`` and ``majsoul_sanma``.

``tests/data/sanma_hand_worked.csv`` holds two games worked out by hand, each row with the expected deltas
(``exp_delta_0..2``) and the working in its ``note``: game T is the Tenhou Phoenix sanma log
``mjlog/dnovikoff-tenhou/sanma2.xml`` as han/fu rows (its recorded deltas), game S covers a dealer ron, a
draw with two tenpai, honba on a ron (200 each) and on tsumo (100 from each payer), tsumo-zon, nagashi,
an abortive draw, a yakuman and the end after S3. The two presets pay the same hands; they differ in the
game points (Tenhou: 35,000 / 40,000, oka 15, uma +20 / 0 / -20, places 2-3 rounded to 1000; Mahjong
Soul: 35,000 with no oka, uma +15 / 0 / -15, to 0.1).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.core.rules import RulesError, preset

SHEET = Path(__file__).parents[1] / "data" / "sanma_hand_worked.csv"

FINAL = {"T": [27_400, 83_100, -5_500], "S": [11_000, 27_800, 66_200]}
GAME_POINTS = {
    # Tenhou: places 2-3 rounded to 1000 minus 40; top takes minus the rest.
    # T: A 27,400 -> 27 - 40 + 0 = -13; C -5,500 -> -6 - 40 - 20 = -66; B = 79
    # S: Y 27,800 -> 28 - 40 + 0 = -12; X 11,000 -> 11 - 40 - 20 = -49; Z = 61
    "tenhou_sanma": {"T": [-13.0, 79.0, -66.0], "S": [-49.0, -12.0, 61.0]},
    # Mahjong Soul: (final - 35,000) / 1000 + uma
    # T: A -7.6 + 0; B 48.1 + 15 = 63.1; C -40.5 - 15 = -55.5.  S: X -24 - 15; Y -7.2; Z 31.2 + 15
    "majsoul_sanma": {"T": [-7.6, 63.1, -55.5], "S": [-39.0, -7.2, 46.2]},
}


@pytest.mark.parametrize("rules", ["tenhou_sanma", "majsoul_sanma"])
def test_hand_worked_games(rules):
    result = analyzer.score(SHEET, rules=rules)
    assert result.rejects.height == 0, result.rejects
    hands = result.hands
    for s in range(3):
        expected = hands[f"exp_delta_{s}"].cast(pl.Int64)
        wrong = hands.filter(pl.col(f"delta_{s}") != expected)
        assert wrong.height == 0, wrong.select("game_id", "round", "honba", f"delta_{s}", f"exp_delta_{s}", "note")
    assert hands["delta_3"].null_count() == hands.height and hands["score_3"].null_count() == hands.height
    assert hands["problems"].to_list() == [[]] * hands.height
    games = result.games.sort("game_id", "seat")
    assert games.height == 6  # three rows per game, no seat 3
    for game, finals in FINAL.items():
        rows = games.filter(pl.col("game_id") == game)
        assert rows["final_score"].to_list() == finals
        assert rows["game_points"].to_list() == pytest.approx(GAME_POINTS[rules][game])
        assert rows["complete"].all()  # T ends on tobi, S after S3 with Z above the return points
        assert sum(finals) == 105_000


SPLIT = {
    # tsumo_loss = "split": each payer adds half of the missing non-dealer's share, rounded up to 100
    ("T", "E1", 0): [-5_000, 8_000, -3_000],  # mangan: 4000 + 1000, 2000 + 1000
    ("T", "E2", 2): [-9_200, 19_400, -9_200],  # dealer haneman: 6000 + 3000 each, + 200 honba, + stick
    ("T", "E2", 3): [4_600, -2_800, -1_800],  # 2000 + 500 and 1000 + 500, + 300 honba each
    ("S", "E2", 0): [-3_000, -4_900, 7_900],  # 3900 + 1000, 2000 + 1000: the four-player total
    ("S", "E3", 0): [-3_000, 8_000, -5_000],  # nagashi: 4000 + 1000, 2000 + 1000
    ("S", "S1", 1): [3_200, -1_600, -1_600],  # dealer tsumo 1000 + 500 each, + 100 honba
    ("S", "S3", 0): [8_000, -3_000, -5_000],
}


def test_north_bisection_split():
    result = analyzer.score(SHEET, rules=preset("tenhou_sanma").replace(tsumo_loss="split"))
    for (game, rnd, honba), expected in SPLIT.items():
        row = result.hands.filter((pl.col("game_id") == game) & (pl.col("round") == rnd) & (pl.col("honba") == honba))
        assert [row[f"delta_{s}"].item() for s in range(3)] == expected, (game, rnd, honba)
    # the rows without a tsumo pay as before
    same = result.hands.filter(~pl.col("result").is_in(["tsumo", "nagashi"]))
    assert (same["delta_0"] == same["exp_delta_0"].cast(pl.Int64)).all()


def test_three_player_games_find_their_ruleset_and_check_clean():
    """Without --rules a game with no player_3 is scored as tenhou_sanma; ``check`` agrees with itself."""
    result = analyzer.score(SHEET)
    assert set(result.games["rules"]) == {"tenhou_sanma"}
    report = analyzer.check(SHEET)
    assert report.ok, report.findings


def test_mixed_four_and_three_player_games():
    three = pl.read_csv(SHEET, infer_schema=False).filter(pl.col("game_id") == "T").drop("note")
    four = pl.DataFrame({"game_id": ["F"], "round": ["E1"], "honba": ["0"], "player_0": ["a"], "player_1": ["b"],
                         "player_2": ["c"], "player_3": ["d"], "result": ["tsumo"], "winner": ["b"], "han": ["5"]})
    result = analyzer.score(pl.concat([three, four], how="diagonal"))
    assert result.rejects.height == 0
    by_game = dict(result.games.group_by("game_id").agg(pl.col("rules").first()).iter_rows())
    assert by_game == {"T": "tenhou_sanma", "F": "tenhou"}
    assert result.hands.filter(pl.col("game_id") == "F")["delta_1"].item() == 8_000  # four-player tsumo


REJECTED = [
    ({"player_3": "D"}, "player_3", "seat 3 must be empty"),
    ({"round": "E4"}, "round", "E1-E3"),
    ({"winner": "3"}, "winner", "seat 3 is empty"),
    ({"riichi": "3"}, "riichi", "seat 3 is empty"),
    ({"kita": "5"}, "kita", "0 to 4"),
    ({"players": "4"}, "players", "ruleset tenhou_sanma is for 3"),
]


@pytest.mark.parametrize("change, column, text", REJECTED, ids=[r[0].__repr__() for r in REJECTED])
def test_three_player_rejects(change, column, text):
    row = {"game_id": "R", "round": "E1", "honba": "0", "player_0": "A", "player_1": "B", "player_2": "C",
           "result": "tsumo", "winner": "1", "han": "3", "fu": "30"} | change
    result = analyzer.score(pl.DataFrame([row]), rules="tenhou_sanma")
    assert result.hands.height == 0
    assert any(c == column and text in r for c, r in result.rejects.select("column", "reason").iter_rows()), \
        result.rejects


def test_four_player_rules_refuse_kita_and_three_player_counts():
    row = {"game_id": "R", "round": "E1", "honba": "0", "player_0": "A", "player_1": "B", "player_2": "C",
           "player_3": "D", "result": "tsumo", "winner": "1", "han": "3", "fu": "30", "kita": "1"}
    result = analyzer.score(pl.DataFrame([row]), rules="tenhou")
    assert result.rejects["reason"].str.contains("only in three-player games").any()
    assert analyzer.score(pl.DataFrame([row | {"kita": "0"}]), rules="tenhou").rejects.height == 0


def test_a_three_player_game_under_a_four_player_ruleset_is_told_so(tmp_path):
    """With ``--rules tenhou`` (or majsoul) a game with no player_3 on any row is rejected as a three-player game
    under a four-player ruleset, naming the three-player preset to use, not as a missing player name; a
    four-player game missing player_3 on one row keeps "missing player name"."""
    from click.testing import CliRunner

    from analyzer.cli import main

    sheet = tmp_path / "sanma.csv"
    sheet.write_text(
        "game_id,round,honba,player_0,player_1,player_2,result,winner,loser,han,fu\n"
        "g,E1,0,A,B,C,ron,B,A,3,40\n"
        "g,E2,0,A,B,C,tsumo,B,,1,30\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["score", str(sheet), "--rules", "tenhou", "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "rows read: 2 = scored 0 + rejected 2" in result.output
    rejects = pl.read_parquet(tmp_path / "out" / "rejects.parquet")
    expected = ("the game has three players (no player_3 on any of its rows) but the ruleset tenhou is for four "
                "players: use a three-player ruleset such as tenhou_sanma")
    assert rejects.select("column", "reason").rows() == [("player_3", expected)] * 2
    majsoul = analyzer.score(sheet, rules="majsoul").rejects["reason"].unique().to_list()
    assert majsoul == [expected.replace("tenhou", "majsoul")]
    # without --rules the same game is scored under tenhou_sanma
    assert analyzer.score(sheet).rejects.height == 0
    # a four-player game that lacks player_3 on one row only: that row is missing a player
    four = pl.DataFrame([
        {"game_id": "h", "round": "E1", "honba": "0", "player_0": "A", "player_1": "B", "player_2": "C",
         "player_3": d, "result": "ron", "winner": "1", "loser": "0", "han": "3", "fu": "40"} for d in ("D", "")
    ])
    assert analyzer.score(four, rules="tenhou").rejects.select("column", "reason").rows() == [
        ("player_3", "missing player name")]


def test_uma_needs_one_value_per_player():
    with pytest.raises(RulesError, match="uma needs 3 numbers"):
        preset("tenhou").replace(players=3)
    assert preset("tenhou_sanma").oka == 15.0  # 3 x (40,000 - 35,000)
    assert preset("majsoul_sanma").oka == 0.0


TILE_BASE = {"round": "E1", "honba": "0", "player_0": "a", "player_1": "b", "player_2": "c"}
TILE_CASES = [
    # riichi, menzen tsumo, pinfu (9s pair) = 3 han 20 fu; non-dealer tsumo under tsumo-zon
    ({"hand": "234p567p345s678s99s", "dora": "1z", "kita": "2"}, 5, 2, 6_000,
     "2 kita = 2 dora: 5 han, mangan 4000 + 2000"),
    ({"hand": "234p567p345s678s99s", "dora": "3z", "kita": "2"}, 7, 4, 9_000,
     "West indicator: north is dora, each kita counts twice: 7 han, haneman 6000 + 3000"),
    ({"hand": "234p567p345s678s99m", "dora": "1m", "kita": "0"}, 5, 2, 6_000,
     "a 1m indicator shows 9m (2m-8m are not in the game): the 99m pair is 2 dora"),
    ({"hand": "234p567p345s678s99s", "dora": "1z", "kita": "0"}, 3, 0, 2_000,
     "3 han 20 fu: 1300 from the dealer, 700 from the other; no kita"),
]


@pytest.mark.parametrize("tiles, han, dora, points, why", TILE_CASES, ids=[c[4][:30] for c in TILE_CASES])
def test_tiles_kita_and_dora(tiles, han, dora, points, why):
    row = TILE_BASE | {"game_id": "K", "result": "tsumo", "winner": "1", "riichi": "1", "win_tile": "4p"} | tiles
    result = analyzer.score(pl.DataFrame([row]), rules="tenhou_sanma")
    assert result.rejects.height == 0, result.rejects
    hand = result.hands.row(0, named=True)
    assert (hand["han"], hand["dora_count"], hand["points"]) == (han, dora, points), why


def test_tiles_seat_wind_of_three_seats():
    """E2 (dealer seat 1): seat 0 is West with three players (North with four), so its West triplet is yakuhai:
    1 han, 20 + 10 menzen ron + 8 concealed honour triplet = 38 -> 40 fu: 40 x 8 x 4 = 1280 -> 1300."""
    row = TILE_BASE | {"game_id": "W", "round": "E2", "result": "ron", "winner": "0", "loser": "2",
                       "hand": "333z234p567p345s99s", "win_tile": "4p", "dora": "1z"}
    hand = analyzer.score(pl.DataFrame([row]), rules="tenhou_sanma").hands.row(0, named=True)
    assert (hand["han"], hand["fu"], hand["points"]) == (1, 40, 1_300)
    assert [y["name"] for y in hand["yaku"]] == ["seat_wind"]


@pytest.mark.parametrize("tiles, problem", [
    ({"hand": "333z234m567p345s99s", "win_tile": "4m"}, "removed_in_three_player"),
    ({"hand": "333z234p567p345s99s", "win_tile": "4p", "dora": "5m"}, "removed_in_three_player"),
    ({"hand": "333z567p345s99s", "melds": "chi:234p", "win_tile": "5p"}, "chi_in_three_player"),
])
def test_tiles_refuse_what_three_players_cannot_hold(tiles, problem):
    row = TILE_BASE | {"game_id": "X", "result": "ron", "winner": "0", "loser": "2", "dora": "1z"} | tiles
    result = analyzer.score(pl.DataFrame([row]), rules="tenhou_sanma")
    assert result.hands.height == 0
    assert result.rejects["reason"].to_list() == [f"tiles cannot be scored: {problem}"]
    # with a han/fu given the row is scored from it, the problem kept as a code
    given = analyzer.score(pl.DataFrame([row | {"han": "1", "fu": "40"}]), rules="tenhou_sanma")
    assert problem in given.hands["problems"].item()


def test_report_of_three_player_games():
    from analyzer.report.html import build_report

    page = build_report(analyzer.score(SHEET, rules="tenhou_sanma"))
    assert "Scores in S" in page and "Scores in T" in page
    assert page.count('class="key"') >= 6  # three players in each game's legend, no empty seat 3
