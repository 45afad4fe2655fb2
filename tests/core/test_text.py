"""analyzer.core.text: helpers over text columns."""

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.schema import RESULTS
from analyzer.core.text import columns_where_every_row, one_of

WORDS = st.sampled_from([*RESULTS, "Ron", "ron ", ""])


@given(values=st.lists(st.one_of(st.none(), WORDS), max_size=30), wanted=st.lists(WORDS, max_size=6, unique=True))
def test_one_of_answers_as_is_in_does(values, wanted):
    frame = pl.DataFrame({"text": values}, schema={"text": pl.String})
    got = frame.select(one_of(pl.col("text"), wanted).alias("x"))["x"]
    expected = frame.select(pl.col("text").is_in(wanted).alias("x"))["x"]
    assert got.to_list() == expected.to_list()


def test_columns_where_every_row_names_the_conditions_that_hold_everywhere():
    frame = pl.LazyFrame({"a": ["x", "y"], "b": ["x", " y"]})
    conditions = {name: pl.col(name) == pl.col(name).str.strip_chars() for name in ("a", "b")}
    assert columns_where_every_row(frame, conditions) == {"a"}
    assert columns_where_every_row(frame, {}) == set()
