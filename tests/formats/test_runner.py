"""The export runner: one file per game written whole, bad files named and counted as ``import`` does, copies
exported once, nothing written when no game exports, the same output from worker processes and from a Dask
cluster as from one process."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.formats.export import export_events, export_games, export_mjai, export_tenhou6
from analyzer.formats.model import Game
from analyzer.formats.read import read_logs
from conftest import SHARED_LOGS

DATA = Path(__file__).parents[1] / "data"


def stand_in(game: Game) -> str:
    """A converter for the test only (the real ones are analyzer.formats.mjai.write and .tenhou6): the game's
    hands and names, one a line."""
    return "".join(f"{k.round}-{k.honba} {' '.join(game.names)}\n" for k in game.kyokus)


def _archive(tmp_path: Path) -> Path:
    """Test logs of every format, a copy of one game under another name, a file that is no log."""
    logs = tmp_path / "logs"
    shutil.copytree(DATA / "mjlog", logs / "mjlog", ignore=shutil.ignore_patterns("*.py"))
    shutil.copytree(DATA / "mjai", logs / "mjai", ignore=shutil.ignore_patterns("*.py"))
    shutil.copy(DATA / "majsoul" / "majsoul_east.json", logs / "east.json")
    shutil.copy(DATA / "majsoul" / "majsoul_east.json", logs / "zz_copy.json")
    (logs / "broken.mjlog").write_text("<mjloggm ver='2.3'><GO type='169'/><INIT seed='0,0,0")
    return logs


def _files(outdir: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(outdir.iterdir())}


def test_one_file_per_game_named_by_its_id(tmp_path: Path) -> None:
    logs = _archive(tmp_path)
    summary = export_games([logs], tmp_path / "out", stand_in, ".txt", workers=1)
    hands, problems = read_logs([logs], 1, "auto")
    ids = sorted(hands["game_id"].unique())
    assert sorted(_files(tmp_path / "out")) == [f"{gid}.txt" for gid in ids]  # no temporary file left
    assert (summary.games, summary.rows, summary.failed, summary.copies) == (len(ids), len(ids), 1, 1)
    def named(found):  # files not read, and copies (lobby notes are about scoring, which an export does not do)
        return [(p.file, p.same_as, p.imported) for p in found if not p.imported or p.same_as]

    assert named(summary.problems) == named(problems) and len(named(problems)) == 2
    east = hands.filter(pl.col("log_file").str.ends_with("east.json"))
    text = (tmp_path / "out" / f"{east['game_id'][0]}.txt").read_text()
    assert len(text.splitlines()) == east["log_row"].n_unique()


def test_events_rows_of_a_copy_or_bad_file_are_not_written(tmp_path: Path) -> None:
    logs = _archive(tmp_path)
    out = tmp_path / "events.parquet"
    summary = export_events([logs], out, workers=1)
    events = pl.read_parquet(out)
    assert summary.rows == events.height
    assert not events["log_file"].str.ends_with("zz_copy.json").any()
    assert not events["log_file"].str.ends_with("broken.mjlog").any()
    assert events["game_id"].n_unique() == summary.games
    assert sorted(p.name for p in tmp_path.iterdir()) == ["events.parquet", "logs"]  # no temporary file left


def test_nothing_written_when_no_game_exports(tmp_path: Path) -> None:
    (tmp_path / "bad.mjlog").write_text("not a log")
    out = tmp_path / "events.parquet"
    out.write_bytes(b"old")
    summary = export_events([tmp_path / "bad.mjlog"], out, workers=1)
    assert (summary.games, summary.failed) == (0, 1)
    assert out.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mjlog", "events.parquet"]


def test_worker_processes_write_the_same_as_one_process(tmp_path: Path) -> None:
    if not SHARED_LOGS.is_dir():
        pytest.skip(f"shared logs not found at {SHARED_LOGS}: too few test logs for several batches")
    one = export_events([SHARED_LOGS], tmp_path / "one.parquet", workers=1)
    two = export_events([SHARED_LOGS], tmp_path / "two.parquet", workers=2)
    assert (one.games, one.rows) == (two.games, two.rows)
    assert pl.read_parquet(tmp_path / "one.parquet").equals(pl.read_parquet(tmp_path / "two.parquet"))


def test_a_dask_cluster_writes_the_same_files_as_a_local_run(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    logs = _archive(tmp_path)
    local_events = export_events([logs], tmp_path / "local.parquet", workers=1)
    export_games([logs], tmp_path / "local", stand_in, ".txt", workers=1)
    local_hands, _ = read_logs([logs], 1, "auto")
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        dask_events = export_events([logs], tmp_path / "dask.parquet", client=client)
        export_games([logs], tmp_path / "dask", stand_in, ".txt", client=client)
        dask_hands, _ = read_logs([logs], None, "auto", client=client)
    assert local_events.rows == dask_events.rows > 0
    assert pl.read_parquet(tmp_path / "local.parquet").equals(pl.read_parquet(tmp_path / "dask.parquet"))
    assert _files(tmp_path / "local") == _files(tmp_path / "dask")
    assert local_hands.equals(dask_hands)


@pytest.mark.parametrize("export", [export_mjai, export_tenhou6])
def test_games_read_one_at_a_time_are_written_the_same_anywhere(export, tmp_path: Path) -> None:
    """Records read a game at a time (Mahjong Soul raw and tensoul's, Riichi City), written in this process,
    in two worker processes and on a Dask cluster: the same files, the same problems."""
    distributed = pytest.importorskip("distributed")
    logs = tmp_path / "logs"
    for folder in ("majsoul_raw", "majsoul", "riichicity"):
        shutil.copytree(DATA / folder, logs / folder, ignore=shutil.ignore_patterns("*.py"))
    (logs / "broken.json").write_text('{"head": {}, "data": [', encoding="utf-8")
    one = export([logs], tmp_path / "one", workers=1)
    two = export([logs], tmp_path / "two", workers=2)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        dask = export([logs], tmp_path / "dask", client=client)
    assert one.games == two.games == dask.games >= 8
    assert [(p.file, p.reason) for p in one.problems] == [(p.file, p.reason) for p in two.problems] \
        == [(p.file, p.reason) for p in dask.problems]
    assert any(p.file.endswith("broken.json") for p in one.problems)
    assert _files(tmp_path / "one") == _files(tmp_path / "two") == _files(tmp_path / "dask")


def test_cli_export_events_names_bad_files_and_exits_1(tmp_path: Path) -> None:
    logs = _archive(tmp_path)
    result = CliRunner().invoke(main, ["export", "events", str(logs), "-o", str(tmp_path / "events.parquet")])
    assert result.exit_code == 1, result.output
    assert "broken.mjlog" in result.output and "1 file(s) not exported" in result.output
    assert "1 file(s) skipped as the same game as another" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["export", "events", "LOGS", "-o", "events.csv"], "events.csv: the events table is Parquet"),
    (["export", "events", "LOGS", "-o", "e.parquet", "--workers", "2", "--scheduler", "tcp://x:1"],
     "give one of them"),
    (["import", "LOGS", "-o", "h.parquet", "--workers", "2", "--scheduler", "tcp://x:1"], "give one of them"),
    (["export", "events", "nowhere", "-o", "e.parquet"], "no such file or directory"),
])
def test_cli_refusals_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    logs = _archive(tmp_path)
    args = [str(logs) if a == "LOGS" else str(tmp_path / a) if a.endswith((".csv", ".parquet")) else a for a in args]
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (1, 2)
    assert message in result.output
    assert "Traceback" not in result.output


def test_cli_import_without_format_word(tmp_path: Path) -> None:
    logs = _archive(tmp_path)
    result = CliRunner().invoke(main, ["import", str(logs), "-o", str(tmp_path / "hands.parquet")])
    assert result.exit_code == 1  # the broken file
    hands = pl.read_parquet(tmp_path / "hands.parquet")
    assert hands["game_id"].n_unique() == len(list((DATA / "mjlog").glob("*.mjlog"))) + 2 + 1


def test_a_counter_beyond_the_table_types_is_a_named_problem(tmp_path: Path) -> None:
    text = (DATA / "mjlog" / "triple_yakuman.mjlog").read_text(encoding="utf-8")
    seed = text.index('<INIT seed="') + len('<INIT seed="')
    fields = text[seed:text.index('"', seed)].split(",")
    fields[1] = "40000"  # honba
    (tmp_path / "big.mjlog").write_text(text[:seed] + ",".join(fields) + text[text.index('"', seed):])
    summary = export_events([tmp_path / "big.mjlog"], tmp_path / "events.parquet", workers=1)
    assert summary.games == 0 and summary.failed == 1
    assert "beyond the events table's Int16" in summary.problems[0].reason


def test_progress_counts_files_and_games(tmp_path: Path) -> None:
    logs = _archive(tmp_path)
    calls: list[tuple[int, int, int]] = []
    summary = export_events([logs], tmp_path / "events.parquet", workers=1,
                            progress=lambda done, total, games: calls.append((done, total, games)))
    files = sum(1 for p in logs.rglob("*") if p.is_file())
    assert calls and calls[-1] == (files, files, summary.games)
    assert [c[0] for c in calls] == sorted(c[0] for c in calls)


CHIP_LOBBY = DATA / "mjlog" / "chip_lobby.mjlog"
EVERY_TEST_LOG = [DATA / "mjlog", DATA / "majsoul", DATA / "mjai"]
BUT_CHIP_LOBBY = [*sorted(set((DATA / "mjlog").glob("*.mjlog")) - {CHIP_LOBBY}), DATA / "majsoul", DATA / "mjai"]


@pytest.mark.parametrize(("command", "suffix", "logs"), [
    ("mjai", ".mjai.jsonl", EVERY_TEST_LOG),
    ("tenhou6", ".json", BUT_CHIP_LOBBY),
], ids=["mjai", "tenhou6"])
def test_cli_export_per_game_files_import_back(tmp_path: Path, command: str, suffix: str, logs: list[Path]) -> None:
    """`export mjai|tenhou6` writes one file per game named by its id; `import` (format told from content)
    reads the directory back into the same games (the converters' round trips are tested with them)."""
    result = CliRunner().invoke(main, ["export", command, *map(str, logs), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    hands, _ = read_logs(logs, 1, "auto")
    ids = sorted(hands["game_id"].unique())
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [gid + suffix for gid in ids]
    back, problems = read_logs([tmp_path / "out"], 1, "auto")
    assert not [p for p in problems if not p.imported]
    assert sorted(back["game_id"].unique()) == ids and back.height == hands.height


def test_cli_export_tenhou6_names_a_game_it_cannot_write(tmp_path: Path) -> None:
    """The chip lobby fixture's seat 1 draws out of turn: tenhou.net/6 cannot say it; the file is named with the
    reason, the other games are written, exit status 1."""
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", "tenhou6", str(CHIP_LOBBY), str(DATA / "majsoul"), "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "chip_lobby.mjlog" in result.output and "draws out of turn" in result.output
    assert len(list(out.iterdir())) == 3
