"""First contact and faults (issue 28): the sample under its own rules, rejects summed up on screen, small usage
faults, control characters on the console, Ctrl-C and write errors while the outputs are written."""

from __future__ import annotations

import errno
import os
import signal
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import analyzer
import analyzer.io.write as write
from analyzer.cli import main
from analyzer.io.faults import OutputError, interrupts_held
from analyzer.core.rules import load_rules, preset
from analyzer.run.sink import DirectorySink

SAMPLE = "sample_logs/csv"
REPO = Path(__file__).resolve().parents[2]
SHEET = (
    "game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,han,fu\n"
    "g,E1,0,A,B,C,D,ron,B,A,3,40\n"
    "g,E2,x,A,B,C,D,ron,B,A,3,40\n"
    "g,E3,y,A,B,C,D,ron,Q,A,3,40\n"
    "g,E4,0,A,B,C,D,ron,B,A,3,z\n"
)


def invoke(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def contents(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (the lock file aside: it only says a run may write there) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != write.LOCK_NAME}


@pytest.fixture
def scored(tmp_path) -> Path:
    """OUTDIR holding a previous run's result set."""
    out = tmp_path / "out"
    assert invoke("score", SAMPLE, "-o", out).exit_code == 0
    return out


# --- the first screen: the sample under the rules its games are played by ---------------------------------


def test_the_sample_is_scored_under_its_own_rules_with_every_game_complete(tmp_path):
    result = invoke("score", SAMPLE, "-o", tmp_path / "out", "--report", tmp_path / "out" / "report.html")
    assert result.exit_code == 0, result.output
    assert "Standings (rules: tenhou;west_extension=false)" in result.output
    assert "*" not in result.output and "incomplete" not in result.output
    games = pl.read_parquet(tmp_path / "out" / "games.parquet")
    assert games["complete"].all() and set(games["rules"]) == {"tenhou;west_extension=false"}


def test_the_sample_csv_and_parquet_hold_the_same_rules():
    csv = pl.read_csv(f"{SAMPLE}/*.csv", infer_schema=False)
    parquet = pl.read_parquet("sample_logs/parquet/*.parquet")
    assert csv["rules"].to_list() == parquet["rules"].to_list() == ["tenhou;west_extension=false"] * 70


def test_under_the_tenhou_rules_the_sample_wants_a_west_round_in_two_games():
    games = analyzer.score(SAMPLE, "tenhou").games
    assert sorted(games.filter(~pl.col("complete"))["game_id"].unique()) == ["R2-T2", "R3-T2"]


# --- rejected rows summed up on screen -----------------------------------------------------------------------


def test_rejects_are_summed_up_by_reason_with_where_they_are(tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    result = invoke("score", sheet, "-o", tmp_path / "out")
    assert result.exit_code == 1
    rejects = tmp_path / "out" / "rejects.parquet"
    assert (f"3 row(s) rejected — see {rejects}: 2× honba: honba must be a whole number >= 0; 1× fu: not a whole"
            " number; 1× winner: not a player of this game") in result.output


def test_the_run_summary_counts_rejects_per_reason(tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    summary = analyzer.score_to(sheet, tmp_path / "out")
    assert summary.reject_reasons.columns == ["column", "reason", "rows", "example"]
    assert summary.reject_reasons.select("column", "rows").rows() == [("honba", 2), ("fu", 1), ("winner", 1)]
    assert summary.reject_reasons.equals(analyzer.score(sheet).reject_reasons)
    assert analyzer.score_to(SAMPLE, tmp_path / "clean").reject_reasons.height == 0


def test_at_most_five_reasons_are_listed(tmp_path):
    rows = [f"g,E{n},0,A,B,C,D,ron,B,A,3,40,{bad}" for n, bad in enumerate("abcdefg", start=1)]
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,han,fu,yakuman\n"
                     + "\n".join(rows).replace(",3,40,", ",,,") + "\n", encoding="utf-8")
    summary = analyzer.score_to(sheet, tmp_path / "out")
    result = invoke("score", sheet, "-o", tmp_path / "out")
    shown = result.output.split("rejected — see")[1]
    assert shown.count("×") == min(5, summary.reject_reasons.height)
    if summary.reject_reasons.height > 5:
        assert f"{summary.reject_reasons.height - 5} more reason(s)" in shown


# --- small usage faults ---------------------------------------------------------------------------------------


def test_preset_names_are_case_insensitive():
    assert load_rules("Tenhou") == preset("tenhou") and load_rules("EMA").name == "ema"
    assert load_rules("Tenhou;aka_dora=false").name == "tenhou;aka_dora=false"
    result = invoke("rules", "show", "Tenhou")
    assert result.exit_code == 0 and "Ruleset tenhou" in result.output


def test_the_report_is_written_only_as_html(tmp_path):
    for args in (["report", SAMPLE, "-o", tmp_path / "report.pdf"],
                 ["score", SAMPLE, "-o", tmp_path / "out", "--report", tmp_path / "report.pdf"]):
        result = invoke(*args)
        assert result.exit_code == 2 and "use a .html or .htm file name" in result.output
    assert not (tmp_path / "report.pdf").exists() and not (tmp_path / "out").exists()
    assert invoke("report", SAMPLE, "-o", tmp_path / "report.htm").exit_code == 0


def test_a_report_of_no_game_is_refused_and_not_written(tmp_path):
    result = invoke("report", SAMPLE, "-o", tmp_path / "report.html", "--since", "2030-01-01")
    assert result.exit_code == 2
    assert f"no game matches --since 2030-01-01: {tmp_path / 'report.html'} not written" in result.output
    assert not (tmp_path / "report.html").exists()


def test_import_help_says_three_player_logs_import():
    text = " ".join(invoke("import", "tenhou", "--help").output.split())
    assert "three-player (sanma) games are read" in text and "e.g. three-player" not in text


def test_the_readme_check_example_does_not_overwrite_make_runs_report():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "-o out/report.html" not in "\n".join(line for line in readme.splitlines() if "analyzer check" in line)


# --- control characters are shown escaped ---------------------------------------------------------------------


def test_control_characters_in_names_are_escaped_on_the_console(tmp_path):
    evil = "Ta\x1b[2Jnaka[red]"
    rows = pl.read_csv(f"{SAMPLE}/round1.csv", infer_schema=False).with_columns(
        pl.col(c).str.replace("Tanaka", evil, literal=True)
        for c in ("player_0", "player_1", "player_2", "player_3", "winner", "loser", "riichi", "tenpai")
    ).with_columns(pl.when(pl.col("honba") == "1").then(pl.lit("1\x07")).otherwise("honba").alias("honba"))
    sheet = tmp_path / "sheet\x1b[31m.csv"
    rows.write_csv(sheet)
    outputs = [invoke("score", sheet, "-o", tmp_path / "out\x1b[31m").output,
               invoke("check", sheet, "--show", "50").output,
               invoke("score", tmp_path / "missing\x1b[2J.csv", "-o", tmp_path / "out").output]
    for output in outputs:
        assert "\x1b" not in output and "\x07" not in output
    assert "Ta\\x1b[2Jnaka[red]" in outputs[0]  # the name, and its brackets, as they are
    assert "out\\x1b[31m/rejects.parquet: 7× honba" in outputs[0]  # written: …, and the reject summary
    assert "1\\x07" in outputs[1]  # a value in the findings
    assert "missing\\x1b[2J.csv" in outputs[2]
    page = analyzer.score(rows).players  # the HTML escapes its own way: unchanged
    assert evil in page["player"].to_list()


# --- Ctrl-C while the tables are written ----------------------------------------------------------------------


def interrupt(*args, **kwargs):
    raise KeyboardInterrupt


def replace_failing_at(monkeypatch, call: int):
    """os.replace raising KeyboardInterrupt on its ``call``-th use (the commit's renames)."""
    real, calls = os.replace, []

    def replace(source, target):
        calls.append(target)
        if len(calls) == call:
            raise KeyboardInterrupt
        return real(source, target)

    monkeypatch.setattr(write.os, "replace", replace)


@pytest.mark.parametrize("where", ["write", "append", "close", "commit", "swap-1", "swap-3", "swap-6", "abort twice"])
@pytest.mark.parametrize("partitions", ["1", "30"])
def test_ctrl_c_while_writing_leaves_outdir_as_it_was(scored, monkeypatch, where, partitions):
    before = contents(scored)
    if where == "write":  # on the writer thread, raised by the next append or the commit
        monkeypatch.setattr(write.ResultWriter, "_write_part", interrupt)
    elif where == "append":
        monkeypatch.setattr(write.ResultWriter, "append", interrupt)
    elif where == "close":
        monkeypatch.setattr(write.ResultWriter, "_finish_thread", interrupt)
    elif where == "commit":
        monkeypatch.setattr(write.ResultWriter, "_swap", interrupt)
    elif where.startswith("swap"):  # the old manifest set aside, then each table renamed in, the manifest last
        replace_failing_at(monkeypatch, int(where.split("-")[1]))
    else:  # Polars raises Ctrl-C, then Python raises it again as the cleanup starts
        real_abort, calls = DirectorySink.abort, []

        def abort(self):
            calls.append(1)
            if len(calls) == 1:
                raise KeyboardInterrupt
            real_abort(self)

        monkeypatch.setattr(write.ResultWriter, "append", interrupt)
        monkeypatch.setattr(DirectorySink, "abort", abort)
    result = invoke("score", SAMPLE, "-o", scored, "--partition-rows", "1000" if partitions == "1" else "30")
    monkeypatch.undo()
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.output
    assert contents(scored) == before
    assert not list(scored.glob(".analyzer-run-*"))


def test_ctrl_c_into_a_new_outdir_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(write.ResultWriter, "_swap", interrupt)
    assert invoke("score", SAMPLE, "-o", tmp_path / "new" / "out").exit_code == 130
    assert list(tmp_path.iterdir()) == [tmp_path / "new"] and not list((tmp_path / "new").iterdir())


def test_ctrl_c_is_held_back_until_the_block_ends():
    with pytest.raises(KeyboardInterrupt):
        with interrupts_held() as held:
            signal.raise_signal(signal.SIGINT)
            assert held.interrupted  # still here: the cleanup goes on
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_commit_interrupted_by_ctrl_c_puts_the_previous_tables_back(scored, monkeypatch):
    before = contents(scored)
    real_swap = write.ResultWriter._swap

    def swap_then_ctrl_c(self, files):
        real_swap(self, files)
        signal.raise_signal(signal.SIGINT)  # held back until the swap is done: then undone

    monkeypatch.setattr(write.ResultWriter, "_swap", swap_then_ctrl_c)
    assert invoke("score", SAMPLE, "-o", scored, "--format", "csv").exit_code == 130
    assert contents(scored) == before


# --- a full disk, a directory that cannot be written ---------------------------------------------------------


def no_space(*args, **kwargs):
    raise pl.exceptions.ComputeError("parquet: File out of specification: underlying IO error: No space left on "
                                     "device (os error 28)")


def test_a_full_disk_names_the_file_and_what_to_do(scored, monkeypatch):
    before = contents(scored)
    monkeypatch.setattr(pl.DataFrame, "write_parquet", no_space)  # one partition: Polars writes each table
    result = invoke("score", SAMPLE, "-o", scored)
    assert result.exit_code == 2
    assert (f"error: cannot write {scored / 'hands.parquet'}: no space left on device — free space or choose"
            " another -o") in result.output
    monkeypatch.undo()
    sink_parquet = pl.LazyFrame.sink_parquet

    def hands_sink_fails(frame, path, *args, **kwargs):  # several partitions: each table a stream into Polars' sink
        return no_space() if str(path).endswith("hands.parquet") else sink_parquet(frame, path, *args, **kwargs)

    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", hands_sink_fails)
    result = invoke("score", SAMPLE, "-o", scored, "--partition-rows", "30")
    assert result.exit_code == 2
    assert (f"error: cannot write {scored / 'hands.parquet'}: no space left on device — free space or choose"
            " another -o") in result.output
    monkeypatch.undo()
    assert contents(scored) == before


def test_a_full_disk_while_spilling_names_the_temporary_directory(scored, monkeypatch, tmp_path):
    """CSV input in several partitions is spilled into TMPDIR first: that is the disk to free."""
    before = contents(scored)
    monkeypatch.setattr(pl.DataFrame, "write_parquet", no_space)
    result = invoke("score", SAMPLE, "-o", scored, "--partition-rows", "30")
    assert result.exit_code == 2 and "analyzer-spill-" in result.output
    assert "no space left on device — free space there, or set TMPDIR" in result.output
    monkeypatch.undo()
    assert contents(scored) == before


def _no_space_left(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_while_importing_names_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(pq.ParquetWriter, "write_table", _no_space_left)  # the rows appended as they are read
    result = invoke("import", "tenhou", "sample_logs/tenhou", "-o", tmp_path / "hands.parquet")
    assert result.exit_code == 2
    assert f"cannot write {tmp_path / 'hands.parquet'}: no space left on device" in result.output
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_outdir_is_named(scored, monkeypatch):
    before = contents(scored)

    def denied(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", kwargs.get("dir"))

    monkeypatch.setattr(write.tempfile, "mkdtemp", denied)
    result = invoke("score", SAMPLE, "-o", scored)
    assert result.exit_code == 2
    assert f"error: cannot write {scored}: permission denied — make it writable or choose another -o" in result.output
    monkeypatch.undo()
    assert contents(scored) == before


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into a read-only directory")
def test_a_read_only_outdir_keeps_the_previous_results(scored):
    before = contents(scored)
    scored.chmod(0o555)
    try:
        result = invoke("score", SAMPLE, "-o", scored)
    finally:
        scored.chmod(0o755)
    assert result.exit_code == 2 and f"cannot write {scored}" in result.output and "Traceback" not in result.output
    assert contents(scored) == before


def test_output_errors_carry_the_path_for_the_library_too(tmp_path, monkeypatch):
    monkeypatch.setattr(pl.DataFrame, "write_parquet", no_space)
    with pytest.raises(OutputError) as caught:
        analyzer.score_to(SAMPLE, tmp_path / "out")
    assert caught.value.errno == errno.ENOSPC and caught.value.filename == str(tmp_path / "out" / "hands.parquet")
    assert not (tmp_path / "out").exists()


# --- the tests themselves ----------------------------------------------------------------------------------------


def test_the_shared_folder_may_be_given_by_an_environment_variable(monkeypatch, tmp_path):
    from conftest import shared_dir

    monkeypatch.setenv("ANALYZER_SHARED", str(tmp_path))
    assert shared_dir() == tmp_path.resolve()
    monkeypatch.delenv("ANALYZER_SHARED")
    assert shared_dir() == REPO.parent / "shared"


# --- the report is part of the run's set (issue 43) -----------------------------------------------------------


@pytest.mark.parametrize("where", ["in OUTDIR", "beside OUTDIR"])
def test_a_report_that_cannot_be_written_leaves_outdir_as_it_was(scored, monkeypatch, where):
    import analyzer.api as api

    report = scored / "report.html" if where == "in OUTDIR" else scored.parent / "report.html"
    assert invoke("score", SAMPLE, "-o", scored, "--report", report).exit_code == 0  # an earlier run's set, report too
    before, beside = contents(scored), sorted(p.name for p in scored.parent.iterdir())
    old_report = report.read_bytes()

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(api, "write_report", disk_full)
    result = invoke("score", SAMPLE, "-o", scored, "--report", report, "--partition-rows", "30")
    assert result.exit_code == 2, result.output
    assert f"cannot write {report}: no space left on device" in result.output and "Traceback" not in result.output
    assert contents(scored) == before and report.read_bytes() == old_report
    assert sorted(p.name for p in scored.parent.iterdir()) == beside  # no temporary file of the report left
    assert not list(scored.glob(".analyzer-run-*")) and not (scored / write.LOCK_NAME).exists()


def test_a_report_is_put_in_place_with_the_tables(scored, tmp_path):
    """A run's report replaces the earlier run's together with the tables, inside OUTDIR or beside it."""
    for report in (scored / "report.html", tmp_path / "report.html"):
        report.write_text("earlier", encoding="utf-8")
        result = invoke("score", SAMPLE, "-o", scored, "--report", report)
        assert result.exit_code == 0, result.output
        assert "<html" in report.read_text(encoding="utf-8").lower()
        assert not [p for p in report.parent.iterdir() if p.name.startswith((".report", ".analyzer-run-"))]
