"""The page options of ``report`` (``--title``, ``--max-players``, ``--max-games``, ``--max-standings``,
``--sources``) and the same on ``score --report`` (``--report-title``, …): what each does to the page, bad values
and options of a page that is not written refused, the run's scratch tables gone afterwards."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from analyzer.cli import main

SAMPLE = "sample_logs/csv"  # 6 games, 8 players


def invoke(*args) -> tuple[int, str]:
    run = CliRunner().invoke(main, [str(a) for a in args])
    return run.exit_code, run.output


def sections(page: Path, kind: str) -> int:
    return page.read_text(encoding="utf-8").count(f'<section class="{kind}"')


def test_report_takes_the_title_and_the_limits(tmp_path):
    page = tmp_path / "site" / "report.html"
    code, output = invoke("report", SAMPLE, "-o", page, "--title", "Club <league>", "--max-players", "2",
                          "--max-games", "1", "--max-standings", "3")
    assert code == 0, output
    text = page.read_text(encoding="utf-8")
    assert "<h1>Club &lt;league&gt;</h1>" in text and "<title>Club &lt;league&gt;</title>" in text
    assert sections(page, "player") == 2 and sections(page, "game") == 1
    assert "The top 3 of 8 players. --max-standings N (or --max-standings all) shows more." in text
    assert [p.name for p in page.parent.iterdir()] == ["report.html"]  # the run's tables removed


def test_all_lifts_a_limit(tmp_path):
    page = tmp_path / "report.html"
    assert invoke("report", SAMPLE, "-o", page, "--max-players", "all", "--max-games", "ALL")[0] == 0
    assert sections(page, "player") == 8 and sections(page, "game") == 6


def test_sources_are_on_the_page_only_when_asked(tmp_path):
    published, local = tmp_path / "published.html", tmp_path / "local.html"
    assert invoke("report", SAMPLE, "-o", published)[0] == 0
    assert invoke("report", SAMPLE, "-o", local, "--sources")[0] == 0
    assert "round1.csv" not in published.read_text(encoding="utf-8")
    assert re.search(r"Recorded in [^<]*round1\.csv", local.read_text(encoding="utf-8"))


def test_a_bad_limit_is_refused_before_anything_is_read(tmp_path):
    for value in ("-1", "many"):
        code, output = invoke("report", SAMPLE, "-o", tmp_path / "r.html", "--max-games", value)
        assert code == 2 and f"--max-games: a whole number of at least 0, or all, not '{value}'" in output
    assert not (tmp_path / "r.html").exists()


def test_score_report_takes_the_same_options(tmp_path):
    page = tmp_path / "report.html"
    code, output = invoke("score", SAMPLE, "-o", tmp_path / "out", "--report", page, "--report-title", "Spring",
                          "--report-max-players", "1", "--report-max-games", "2", "--report-sources")
    assert code == 0, output
    text = page.read_text(encoding="utf-8")
    assert "<h1>Spring</h1>" in text and "round1.csv" in text
    assert sections(page, "player") == 1 and sections(page, "game") == 2


def test_score_refuses_page_options_without_a_page(tmp_path):
    code, output = invoke("score", SAMPLE, "-o", tmp_path / "out", "--report-title", "Spring", "--report-sources")
    assert code == 2
    assert "--report-title, --report-sources: options of the --report page: add --report FILE" in output
    assert not (tmp_path / "out").exists()
