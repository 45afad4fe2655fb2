"""Every finding names its log file: imported rows carry ``log_file`` (the path as the import was given it) and
``log_row`` (the hand in the file), scoring passes them on, and ``check``'s findings, the console, the check
page and the report cite them; a Tenhou game links to the tenhou.net viewer at the hand, other ids are shown
as they are.

The logs are the hand-made ones of ``tests/data/mjlog`` (``compose.py`` there) and ``sample_logs/tenhou``.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from rich.console import Console

from analyzer.api import check, score
from analyzer.cli import display, main
from analyzer.findings.report import write_findings
from analyzer.formats.parse import parse_file
from analyzer.formats.read import read_mjai, read_tenhou
from analyzer.report import ReportOptions, write_report
from analyzer.report.viewer import tenhou_url, tenhou_url_expr, where_recorded
from tests.formats.mjai.tenhou_to_mjai import to_mjai

ROOT = Path(__file__).resolve().parents[1]
MJLOGS = ROOT / "tests" / "data" / "mjlog"
SAMPLE = ROOT / "sample_logs" / "tenhou" / "sample_tonpuu.json"
COMMENTED_ID = "2017060214gm-00a9-0000-40a46a1c"


@pytest.fixture
def logs(tmp_path) -> Path:
    """A folder of logs of three formats: the hand-made mjlogs, the sample as JSON and as JSON lines."""
    folder = tmp_path / "logs"
    shutil.copytree(MJLOGS, folder / "mjlog", ignore=shutil.ignore_patterns("*.py"))
    (folder / "json").mkdir()
    shutil.copy(SAMPLE, folder / "json" / "sample.json")
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    lines = [json.dumps({**game, "log": [k]}, ensure_ascii=False) for k in game["log"]]
    (folder / "json" / "lines.json").write_text("\n".join(lines), encoding="utf-8")
    return folder


def test_rows_carry_the_log_file_as_given_and_the_hand_in_it(logs, monkeypatch):
    monkeypatch.chdir(logs.parent)
    hands, problems = read_tenhou(["logs/mjlog", "logs/json/sample.json", str(logs / "json" / "lines.json")])
    assert [p.reason for p in problems if not p.imported] == []
    per_file = dict(hands.group_by("log_file").agg(pl.col("log_row")).iter_rows())
    # a folder given is joined with the file's path in it; a file given is named as given
    assert per_file == {
        "logs/mjlog/commented_chankan.mjlog": [1],
        "logs/mjlog/private_lobby.mjlog": [1, 2],
        "logs/mjlog/triple_yakuman.mjlog": [1],
        "logs/mjlog/jansou_lobby.mjlog": [1],
        "logs/mjlog/chip_lobby.mjlog": [1, 2],
        "logs/mjlog/custom_rules.mjlog": [1, 2],
        "logs/json/sample.json": [1, 2, 3, 4],
        str(logs / "json" / "lines.json"): [1, 2, 3, 4],  # one kyoku a line: the hands counted over the lines
    }


def test_json_lines_count_hands_across_lines_and_mjai_counts_start_kyoku(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    (tmp_path / "lines.json").write_text("\n".join(json.dumps({**game, "log": game["log"][i:i + 2]},
                                                              ensure_ascii=False) for i in (0, 2)), encoding="utf-8")
    hands, _ = read_tenhou([tmp_path / "lines.json"])
    assert hands["log_row"].to_list() == [1, 2, 3, 4]
    (tmp_path / "g.mjson").write_text(to_mjai(parse_file(MJLOGS / "private_lobby.mjlog")), encoding="utf-8")
    mjai, problems = read_mjai([tmp_path / "g.mjson"])
    assert problems == [] and mjai["log_file"].unique().to_list() == [str(tmp_path / "g.mjson")]
    assert mjai["log_row"].to_list() == [1, 2]


def test_a_game_imported_from_two_paths_is_still_one_game(tmp_path):
    """log_file says where a row was recorded, not what it says: two imports of one game from two copies of
    its log are copies when scored together, counted once."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        shutil.copy(MJLOGS / "private_lobby.mjlog", tmp_path / folder / "g.mjlog")
        hands, _ = read_tenhou([tmp_path / folder])
        hands.write_parquet(tmp_path / f"{folder}.parquet")
    result = score([str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")], None)
    assert result.hands.height == 2 and result.rows_rejected == 2
    assert set(result.rejects["reason"].str.slice(0, 13)) == {"duplicate_row"}
    assert set(result.rejects["log_file"]) == {str(tmp_path / "b" / "g.mjlog")}


def _imported(logs: Path, tmp_path: Path) -> Path:
    hands, _ = read_tenhou([logs])
    out = tmp_path / "hands.parquet"
    # a disagreement in every game: one more point recorded on each win
    hands.with_columns(pl.col("recorded_points") + 100).write_parquet(out)
    return out


def test_every_finding_names_its_log_file_and_hand(logs, tmp_path):
    result = check([str(_imported(logs, tmp_path))], None, keep_scored=False)
    findings = result.findings
    assert findings.height and findings["log_file"].null_count() == 0 and findings["log_row"].null_count() == 0
    chankan = findings.filter(pl.col("game_id") == COMMENTED_ID)
    assert set(chankan["log_file"]) == {str(logs / "mjlog" / "commented_chankan.mjlog")}
    # the private lobby's E2 is the file's second hand; its game points are compared on its last row
    lobby = findings.filter(pl.col("log_file").str.ends_with("private_lobby.mjlog"))
    assert dict(lobby.select("round", "log_row").unique().iter_rows()) == {"E1": 1, "E2": 2}


def test_rejected_rows_name_their_log_file(logs, tmp_path):
    hands, _ = read_tenhou([logs / "json" / "sample.json"])
    bad = hands.with_columns(pl.when(pl.col("round") == "E2").then(pl.lit("9m")).otherwise("win_tile")
                             .alias("win_tile"))
    bad.write_parquet(tmp_path / "bad.parquet")
    result = check([str(tmp_path / "bad.parquet")], None, keep_scored=False)
    rejected = result.findings.filter(pl.col("kind") == "reject")
    assert rejected.height and set(rejected["log_file"]) == {str(logs / "json" / "sample.json")}
    assert set(rejected["log_row"]) == {2}


def test_score_sheets_have_no_log_file_and_cite_their_own_row():
    frame = pl.DataFrame({"game_id": ["g"], "log_file": [None], "log_row": [None], "source_file": ["s.csv"],
                          "source_row": [12]}, schema_overrides={"log_file": pl.String, "log_row": pl.Int64})
    assert frame.select(where_recorded()).item() == "s.csv:12"
    assert frame.with_columns(pl.lit("l.mjlog").alias("log_file"), pl.lit(3).alias("log_row")).select(
        where_recorded()).item() == "l.mjlog hand 3"


@pytest.mark.parametrize(
    "game_id, log_row, url",
    [
        (COMMENTED_ID, 1, f"https://tenhou.net/0/?log={COMMENTED_ID}&ts=0"),
        (COMMENTED_ID, 4, f"https://tenhou.net/0/?log={COMMENTED_ID}&ts=3"),
        (COMMENTED_ID, None, f"https://tenhou.net/0/?log={COMMENTED_ID}"),
        ("2019040114gm-0009-10011-0a1b2c3d", 2, "https://tenhou.net/0/?log=2019040114gm-0009-10011-0a1b2c3d&ts=1"),
        ("231014-84c11a6f-b3f7-4363-966e-25f37886cfbf", 1, None),  # a Mahjong Soul record id: shown as it is
        ("log-94e318013bf2f1f6", 1, None),
        (f"{COMMENTED_ID}&tw=2", 1, None),
    ],
)
def test_the_viewer_address_of_a_game_at_a_hand(game_id, log_row, url):
    assert tenhou_url(game_id, log_row) == url
    frame = pl.DataFrame({"g": [game_id], "r": [log_row]}, schema={"g": pl.String, "r": pl.Int64})
    assert frame.select(tenhou_url_expr(pl.col("g"), pl.col("r"))).item() == url


def test_the_check_page_links_tenhou_games_and_cites_files(logs, tmp_path):
    hands = pl.read_parquet(_imported(logs, tmp_path))
    soul = "231014-84c11a6f-b3f7-4363-966e-25f37886cfbf"
    hands = hands.with_columns(pl.col("game_id").replace("log-94e318013bf2f1f6", soul))
    hands.write_parquet(tmp_path / "mixed.parquet")
    result = check([str(tmp_path / "mixed.parquet")], None, keep_scored=False)
    page = write_findings(result, tmp_path / "check.html").read_text(encoding="utf-8")
    assert f'<a href="https://tenhou.net/0/?log={COMMENTED_ID}&amp;ts=0">{COMMENTED_ID}</a>' in page
    assert f"<td>{soul}</td>" in page and f"?log={soul}" not in page
    assert "commented_chankan.mjlog" in page and "triple_yakuman.mjlog" in page


def test_the_console_says_where_each_finding_was_recorded(logs, tmp_path, monkeypatch):
    out = _imported(logs, tmp_path)
    wide = Console(file=io.StringIO(), width=1000)  # a table cell is not folded: the path reads whole
    monkeypatch.setattr(display, "out", wide)
    run = CliRunner().invoke(main, ["check", str(out), "--show", "50"])
    assert run.exit_code == 1, run.output
    text = wide.file.getvalue()
    assert "where" in text
    assert f"{logs / 'mjlog' / 'commented_chankan.mjlog'} hand 1" in text
    assert f"{logs / 'mjlog' / 'private_lobby.mjlog'} hand 2" in text


def test_the_report_says_where_each_game_was_recorded_when_asked(logs, tmp_path):
    hands, _ = read_tenhou([logs / "mjlog"])
    result = score(hands, None)
    page = write_report(result, tmp_path / "report.html", options=ReportOptions(sources=True)).read_text(
        encoding="utf-8")
    for name in ("commented_chankan", "private_lobby", "triple_yakuman"):
        assert f"Recorded in {logs / 'mjlog' / name}.mjlog" in page
    assert f'href="https://tenhou.net/0/?log={COMMENTED_ID}"' in page
    # a published page names no file of this machine: only the viewer's address
    published = write_report(result, tmp_path / "published.html").read_text(encoding="utf-8")
    assert str(logs) not in published and "Recorded in" not in published
    assert f'href="https://tenhou.net/0/?log={COMMENTED_ID}"' in published


def test_every_finding_on_the_shared_logs_names_its_log_file(shared_logs, tmp_path):
    hands, _ = read_tenhou([shared_logs, MJLOGS])
    result = check(hands, None, keep_scored=False)
    assert result.findings.height and result.findings["log_file"].null_count() == 0
