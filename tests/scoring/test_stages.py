"""Every scoring stage changes the schema exactly as it declares, and needs exactly the columns it names."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analyzer.scoring.parts import raw_input
from analyzer.scoring.rejects import is_clean
from analyzer.game.replay import game_keys, sort_for_replay
from analyzer.core.rules import load_rules
from analyzer.scoring.stages import CHECK_STAGES, HAND_STAGES, Stage, run_stages, stage_table
from analyzer.scoring.validate import validate

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
RULES = load_rules("tenhou")
# two hands given as tiles (the seeds' examples 000-1 and 000-2, shared/reference/seed_examples.csv)
TILE_HANDS = pl.DataFrame({
    "game_id": ["t1", "t1"], "round": ["E1", "E1"], "honba": ["0", "1"],
    **{f"player_{s}": [f"P{s}", f"P{s}"] for s in range(4)},
    "result": ["ron", "tsumo"], "winner": ["0", "3"], "loser": ["1", ""], "riichi": ["", "3"],
    "hand": ["333s77s555p", "344556m678p34577s"], "melds": ["pon:999m pon:555z", ""], "win_tile": ["5p", "8p"],
    "dora": ["4p", "7z"],
})


def _inputs(name: str) -> pl.LazyFrame:
    raw = raw_input("sample_logs/csv") if name == "han_fu" else raw_input(TILE_HANDS)
    return validate(raw.collect().lazy()).pipe(game_keys).collect().lazy()


def _stage_inputs(name: str) -> list[tuple[Stage, pl.LazyFrame]]:
    """Each stage with the real rows it gets in a run (materialised, as the run does between stages)."""
    pairs, lf = [], _inputs(name)
    for stage in CHECK_STAGES:
        pairs.append((stage, lf))
        lf = stage(lf, RULES).collect().lazy()
    lf = sort_for_replay(lf.collect().filter(is_clean())).lazy()
    for stage in HAND_STAGES:
        pairs.append((stage, lf))
        lf = stage(lf, RULES).collect().lazy()
    return pairs


CASES = [(name, i) for name in ("han_fu", "tiles") for i in range(len(CHECK_STAGES) + len(HAND_STAGES))]


@pytest.fixture(scope="module")
def stage_inputs():
    return {name: _stage_inputs(name) for name in ("han_fu", "tiles")}


@pytest.mark.parametrize("name,index", CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_a_stage_adds_and_drops_what_it_declares(stage_inputs, name, index):
    stage, lf = stage_inputs[name][index]
    before = lf.collect_schema().names()
    after = stage(lf, RULES).collect_schema().names()
    applies = stage.applies is None or stage.applies(before)
    assert set(after) - set(before) == (set(stage.adds) | set(stage.internal) if applies else set()), stage.name
    assert set(before) - set(after) == (set(stage.drops) if applies else set()), stage.name


@pytest.mark.parametrize("name,index", CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_a_stage_cannot_run_without_what_it_needs(stage_inputs, name, index):
    stage, lf = stage_inputs[name][index]
    names = lf.collect_schema().names()
    if stage.applies is not None and not stage.applies(names):
        return
    for column in stage.needs:
        assert column in names, f"{stage.name} needs {column}, which the run does not give it"
        with pytest.raises(pl.exceptions.ColumnNotFoundError):
            stage(lf.drop(column), RULES).collect_schema()


def test_the_declared_lists_are_the_run():
    """The run composes exactly these lists: what score_hands does is running HAND_STAGES."""
    stage_pairs = _stage_inputs("han_fu")
    lf = stage_pairs[len(CHECK_STAGES)][1]
    from analyzer.scoring.stages import score_hands

    assert score_hands(lf, RULES).collect().equals(run_stages(lf, HAND_STAGES, RULES).collect())


def test_the_architecture_page_shows_the_stage_table():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    between = text.split("<!-- stages:begin -->")[1].split("<!-- stages:end -->")[0].strip()
    assert between == stage_table(), "run `.venv/bin/python scripts/stage_table.py` to regenerate docs/architecture.md"
