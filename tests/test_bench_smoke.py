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
