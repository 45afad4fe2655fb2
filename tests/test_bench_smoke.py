"""The benchmark's generated games are valid hand records: every row scores, none is rejected or flagged."""

import analyzer
from benchmarks.gamegen import generate


def test_generated_games_score_cleanly():
    rows = generate(3000, seed=5)
    assert 0 < rows.height <= 3000
    assert set(rows["result"].unique()) >= {"ron", "tsumo", "draw", "abort"}
    result = analyzer.score(rows, "tenhou")
    assert result.rows_rejected == 0 and result.hands.height == rows.height
    assert (result.hands["problems"].list.len() == 0).all()
    # the replay agrees with the honba the generator wrote
    assert (result.hands["replayed_honba"] == result.hands["honba"]).all()


def test_the_generated_tournament_sheet_scores_cleanly():
    from benchmarks.sheets import generate as sheet

    rows = sheet(40, 3, seed=1)
    assert rows.height == 120 and rows["game_id"].n_unique() == 30
    result = analyzer.check(rows, "ema")
    assert result.ok and result.scored.rejects.height == 0 and result.scored.games.height == 120
    assert result.scored.sessions.height == 40 * 3


def test_the_imports_benchmark_runs_its_steps(tmp_path):
    import pytest

    from benchmarks.imports import main
    from benchmarks.tenhou import SHARED_LOGS

    if not (SHARED_LOGS / "mjlog").is_dir():
        pytest.skip(f"the shared mjlog files are not at {SHARED_LOGS / 'mjlog'}")
    fig = main(["--games", "60", "--repeat", "1", "--steps", "floor,import", "--out", str(tmp_path)])
    assert fig["files"] >= 54 and fig["import"]["exit"] == 0 and fig["floor"]["exit"] == 0
    assert fig["import"]["ratio_to_floor"] > 0 and (tmp_path / "imports-latest.json").is_file()


def test_the_imports_benchmark_reads_the_mahjong_soul_raw_records(tmp_path):
    from benchmarks.imports import main

    fig = main(["--games", "8", "--repeat", "1", "--format", "majsoul", "--steps", "floor,import,import_1",
                "--out", str(tmp_path)])
    assert fig["format"] == "majsoul" and fig["files"] == 8 and fig["logs"] == "tests/data/majsoul_raw"
    assert all(fig[s]["exit"] == 0 for s in ("floor", "import", "import_1"))
    assert fig["import_1"]["ratio_to_import"] > 0


def test_the_imports_benchmark_writes_the_exports_files_alone(tmp_path):
    from benchmarks.imports import main

    steps = "import,export_events,export_mjai,write_events,write_mjai,write_tenhou6"
    fig = main(["--games", "8", "--repeat", "1", "--format", "majsoul", "--steps", steps, "--out", str(tmp_path)])
    assert all(fig[s]["exit"] == 0 for s in steps.split(","))
    assert all(fig[f"write_{s}"]["ratio_to_import"] > 0 for s in ("events", "mjai", "tenhou6"))
    assert [fig[f"write_{s}"]["stdout_tail"].split() for s in ("mjai", "tenhou6")] == [["8"], ["8"]]  # files
    assert int(fig["write_events"]["stdout_tail"]) > 8 * 100  # the events' rows


def test_the_imports_benchmark_exports_on_a_local_cluster_and_compares_the_files(tmp_path):
    import pytest

    pytest.importorskip("distributed", reason="the dask extra is not installed")
    from benchmarks.imports import main

    steps = "export_tenhou6,export_tenhou6_dask,export_events,export_events_dask"
    fig = main(["--games", "8", "--repeat", "1", "--format", "majsoul", "--steps", steps, "--out", str(tmp_path)])
    assert all(fig[s]["exit"] == 0 for s in steps.split(","))
    assert fig["export_tenhou6_dask"]["same_as_local"] == fig["export_events_dask"]["same_as_local"] == "bytes"


def test_the_imports_benchmark_tells_files_that_differ(tmp_path):
    from benchmarks.imports import same_output

    for side in ("local", "ours"):
        (tmp_path / side / "a").mkdir(parents=True)
        (tmp_path / side / "a" / "g.json").write_text("[1]")
    assert same_output(tmp_path / "ours", tmp_path / "local") == "bytes"
    (tmp_path / "ours" / "a" / "g.json").write_text("[2]")
    assert same_output(tmp_path / "ours", tmp_path / "local") == "different"
    (tmp_path / "ours" / "a" / "g.json").write_text("[1]")
    (tmp_path / "ours" / "h.json").write_text("[1]")
    assert same_output(tmp_path / "ours", tmp_path / "local") == "different"
    (tmp_path / "events.parquet").write_bytes(b"PAR1")
    assert same_output(tmp_path / "none.parquet", tmp_path / "events.parquet") == "different"  # the export failed


def test_the_imports_benchmark_reads_mjai_exports_of_the_games(tmp_path):
    import pytest

    from benchmarks.imports import main
    from benchmarks.tenhou import SHARED_LOGS

    if not (SHARED_LOGS / "mjlog").is_dir():
        pytest.skip(f"the shared mjlog files are not at {SHARED_LOGS / 'mjlog'}")
    fig = main(["--games", "60", "--repeat", "1", "--format", "mjai", "--steps", "floor,import,export_tenhou6",
                "--out", str(tmp_path)])
    assert fig["format"] == "mjai" and all(fig[s]["exit"] == 0 for s in ("floor", "import", "export_tenhou6"))
    assert fig["import"]["ratio_to_floor"] > 0
