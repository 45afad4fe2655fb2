"""The tile benchmark command keeps working (tiny N; no timing assertions)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("mahjong", reason="the benchmark scores a sample with the mahjong package")
pytest.importorskip("numpy", reason="the hand generator needs numpy")


def test_benchmark_main_tiny(tmp_path, capsys) -> None:
    from benchmarks.tiles import main

    fig = main(["--n", "2000", "--sample", "200", "--seed", "1", "--engine", "in-memory", "--repeat", "1",
                "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "generate" in out and "mahjong" in out and "peak RSS" in out
    saved = json.loads((tmp_path / "tiles-latest.json").read_text())
    assert saved["n"] == 2000 and saved["sample"] == 200
    assert saved["mahjong_hands_per_s"] > 0 and saved["peak_rss_mb"] > 0
    if "analyzer_skipped" not in fig:
        assert saved["analyzer_hands_per_s"] > 0 and "ratio" in saved
        # per-phase figures and the like-for-like ratio without input conversion are reported too
        assert saved["encode_hands_per_s"] > 0 and saved["score_from_codes_hands_per_s"] > 0
        assert saved["values_from_codes_hands_per_s"] > 0 and saved["codes_agree"] is True
        assert "ratio_calc_only" in saved and "score from tile codes" in out
        assert 0 < saved["sample_compared"] <= 200


def test_end_to_end_benchmark_tiny(tmp_path, capsys) -> None:
    """`--e2e` scores a tiny file with `analyzer score` and measures the steps it cannot do without."""
    from benchmarks.tiles_e2e import main

    fig = main(300, 50, 2, out=tmp_path / "results", data_dir=tmp_path / "data", repeat=1)
    out = capsys.readouterr().out
    assert "analyzer score" in out and "ceiling" in out
    assert fig["analyzer"]["exit"] in (0, 1)  # 1: some generated hands have no yaku, rejected with a reason
    parts = fig["components"]
    assert set(parts["steps"]) == {"startup", "read", "tile_scoring", "write_outputs"}
    assert all(step["cpu_seconds"] > 0 for step in parts["steps"].values())
    assert parts["cpu_seconds"] == round(sum(s["cpu_seconds"] for s in parts["steps"].values()), 2)
    # the bound: the steps' CPU spread over the cores, never less than the longest step alone
    assert parts["best_seconds"] >= max(s["seconds"] for s in parts["steps"].values()) - 0.01
    assert parts["ceiling_hands_per_s"] == round(300 / parts["best_seconds"])
    if fig["riichienv"]["hands"]:  # every riichienv path timed and reported; the fastest is the one compared
        paths = {k: v for k, v in fig["riichienv"].items() if k.endswith("_hands_per_s") and "rounds" not in k}
        assert set(paths) == {"calc_from_text_hands_per_s", "parse_hand_calc_hands_per_s", "core_calc_hands_per_s"}
        assert fig["riichienv"]["hands_per_s"] == max(paths.values())
        assert "parse_hand_calc" in out and "core_calc" in out and "calc_from_text" in out
        # the paths score what analyzer scores: nearly every closed hand alike
        assert fig["riichienv"]["agree_with_analyzer"] >= 0.9 * fig["riichienv"]["hands"]
    saved = json.loads((tmp_path / "results" / "tiles_e2e-latest.json").read_text())
    assert saved["components"] == parts
