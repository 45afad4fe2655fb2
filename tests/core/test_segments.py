"""analyzer.core.segments: runs of sorted rows."""

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core import segments as seg


def test_starts_treats_a_null_key_as_equal_to_a_null_key():
    # a seat left empty (three-player records) runs on; the first row starts a run even when its key is null
    df = pl.DataFrame({"a": [None, None, 1, 1, None], "b": [1, 1, 1, 2, 2]})
    out = df.select(seg.starts("a").alias("a"), seg.starts("b").alias("b"), seg.starts("a", "b").alias("ab"))
    assert out["a"].to_list() == [True, False, True, False, True]
    assert out["b"].to_list() == [True, False, False, True, False]
    assert out["ab"].to_list() == [True, False, True, True, True]
    assert pl.DataFrame({"a": []}, schema={"a": pl.Int64}).select(seg.starts("a")).height == 0


@given(st.lists(st.one_of(st.none(), st.integers(0, 2)), min_size=1, max_size=30))
def test_starts_marks_every_change_of_key(keys):
    expected = [i == 0 or keys[i] != keys[i - 1] for i in range(len(keys))]
    assert pl.DataFrame({"k": keys}, schema={"k": pl.Int64}).select(seg.starts("k"))["k"].to_list() == expected
