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
