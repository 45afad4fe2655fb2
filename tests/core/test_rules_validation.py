"""Rules from users and from data are checked option by option, with one-line errors naming the option."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import analyzer
from analyzer.cli import main
from analyzer.core.rules import RulesError, from_toml, load_rules
from conftest import game


@pytest.mark.parametrize(
    "spec, says",
    [
        ("tenhou;name=foo", "'name' is not a rule option"),
        ("[/]x", "unknown ruleset"),
        ("tenhou;start_points=true", "start_points"),
        ("tenhou;start_points=-5", "start_points"),
        ("tenhou;start_points=1e300", "start_points"),
        ("tenhou;chombo_penalty=nan", "chombo_penalty"),
        ("tenhou;chombo_penalty=inf", "chombo_penalty"),
        ("tenhou;uma=10/5/-5/nan", "uma"),
        ("tenhou;uma=10/5/-5", "uma"),
        ("tenhou;kiriage=1", "kiriage"),
    ],
)
def test_bad_rules_are_one_line_errors_naming_the_option(spec, says, tmp_path):
    with pytest.raises(RulesError, match=says.replace("[", r"\[").replace("(", r"\(")):
        load_rules(spec)
    never = tmp_path / "never-written"
    result = CliRunner().invoke(main, ["score", "sample_logs/csv", "-o", str(never), "--rules", spec])
    assert not never.exists()
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) == 1


def test_a_rules_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "club.toml"
    path.write_bytes('preset = "ema"\nname = "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(RulesError, match="not UTF-8"):
        from_toml(path)


def test_a_rules_cell_in_the_data_cannot_name_a_file(tmp_path):
    club = tmp_path / "club.toml"
    club.write_text('preset = "ema"\n')
    frame = game([{"round": "E1", "honba": 0, "result": "draw", "rules": str(club)}])
    result = analyzer.score(frame)
    assert result.hands.height == 0 and result.rejects["column"].to_list() == ["rules"]
    assert "unknown ruleset" in result.rejects["reason"].item()
