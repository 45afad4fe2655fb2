"""Why a game is incomplete, on the report page: only what is known, code shown as code (no literal backticks)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from analyzer.cli import main

HEADER = "game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,riichi,tenpai,han,fu,yakuman"
STOPS = [  # stops at E2-1: check finds nothing wrong in what is there
    "G1,E1,0,Aoki,Baba,Chiba,Doi,ron,Baba,Chiba,Baba,,3,40,",
    'G1,E2,0,Aoki,Baba,Chiba,Doi,draw,,,,"Aoki,Baba",,,',
    "G1,E2,1,Aoki,Baba,Chiba,Doi,tsumo,Doi,,,,4,30,",
]
GOES_ON = [  # Chiba is below zero after E1: the game ends there under tenhou rules, but goes on
    "G1,E1,0,Aoki,Baba,Chiba,Doi,ron,Baba,Chiba,,,,,1",
    'G1,E2,0,Aoki,Baba,Chiba,Doi,draw,,,,"Aoki,Baba",,,',
]


@pytest.mark.parametrize(("rows", "why"), [
    (STOPS, "Incomplete: its record stops at E2-1, before the last round of its rules (tenhou) (S4): the rest of "
            "the game is not in the input."),
    (GOES_ON, "Incomplete: it does not end where its rules (tenhou) end a game: at E1-0, the game should end after "
              "this hand: a score is below zero (-7000): the game ends at once (tobi) (<code>analyzer check</code> "
              "lists it)."),
])
@pytest.mark.parametrize("command", [["report", "-o", "PAGE"], ["score", "-o", "OUT", "--report", "PAGE"]])
def test_why_a_game_is_incomplete(tmp_path, rows, why, command):
    hands = tmp_path / "hands.csv"
    hands.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    page = tmp_path / "report.html"
    args = [{"PAGE": str(page), "OUT": str(tmp_path / "out")}.get(a, a) for a in command]
    result = CliRunner().invoke(main, [args[0], str(hands), *args[1:]])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert why in html
    assert "`" not in html.split("<body", 1)[1].split("<script", 1)[0]  # no backtick shown as such
