"""Click's usage errors in the project's one-line form (analyzer.cli.errors.usage_failure): ``error: …`` with the
way to the command's help, exit status 2, no usage lines and no ``Error:``."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from analyzer.cli import main


@pytest.mark.parametrize(("args", "line"), [
    (["score", "IN", "-o", "FILE"],
     "error: invalid value for '-o' / '--output': directory 'FILE' is a file — try 'analyzer score --help'"),
    (["score"], "error: missing argument 'INPUTS...' — try 'analyzer score --help'"),
    (["score", "IN", "-o", "out", "--top", "x"],
     "error: invalid value for '--top': 'x' is not a valid integer — try 'analyzer score --help'"),
    (["score", "IN", "--bogus"], "error: no such option '--bogus' — try 'analyzer score --help'"),
    (["check", "IN", "--input-kind", "foo"],
     "error: invalid value for '--input-kind': 'foo' is not one of 'auto', 'hands', 'games' — try "
     "'analyzer check --help'"),
    (["report", "IN"], "error: missing option '-o' / '--output' — try 'analyzer report --help'"),
    (["scroe"], "error: no such command 'scroe': did you mean 'score'? — try 'analyzer --help'"),
    (["--bogus"], "error: no such option '--bogus' — try 'analyzer --help'"),
    (["rules", "show"], "error: missing argument 'NAME' — try 'analyzer rules show --help'"),
    (["import", "tenhou", "x.xml"], "error: missing option '-o' / '--output' — try 'analyzer import tenhou --help'"),
    (["tiles", "encode", "IN", "-o", "c.parquet", "--drop-txt"],
     "error: no such option '--drop-txt': did you mean '--drop-text'? — try 'analyzer tiles encode --help'"),
])
def test_usage_errors_are_one_line(tmp_path, args, line):
    given = tmp_path / "in.csv"
    given.write_text("game_id\n", encoding="utf-8")
    a_file = tmp_path / "a_file"
    a_file.write_text("", encoding="utf-8")
    args = [{"IN": str(given), "FILE": str(a_file)}.get(a, a) for a in args]
    line = line.replace("'FILE'", repr(str(a_file)))
    result = CliRunner().invoke(main, args, prog_name="analyzer")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [line]


@pytest.mark.parametrize("args", [[], ["rules"], ["import"], ["--help"], ["score", "--help"]])
def test_help_is_still_help(args):
    result = CliRunner().invoke(main, args, prog_name="analyzer")
    assert result.output.startswith("Usage: analyzer")
    assert "error:" not in result.output
