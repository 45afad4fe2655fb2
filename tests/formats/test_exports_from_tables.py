"""The exports written from the log tables (:mod:`analyzer.formats.game_files_columns`) give every file byte for
byte as the model's writers do (:mod:`analyzer.formats.game_files`), and the same reason for a game a format
cannot carry: every shared log, every test log, and games changed to reach each refusal."""

from __future__ import annotations

import copy
from datetime import datetime, timezone
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.formats.outputs import DirectoryOutput
from analyzer.formats.game_files import SUFFIXES, TEXTS, games_batch
from analyzer.formats.game_files_columns import TablesBatch, recorded_numbers, text_batches, texts_of_tables
from analyzer.formats.identity import game_id
from analyzer.formats.model import LogError
from analyzer.formats.parse import read_game
from analyzer.formats.read_tables import games_into_tables
from analyzer.formats.tables_from_games import tables_of_games

from conftest import SHARED, SHARED_HINT

DATA = Path(__file__).resolve().parents[1] / "data"
FORMATS = ("mjai", "tenhou6")


def corpus() -> list[Path]:
    """Every shared log (mjlog, tenhou.net/6 JSON, the mjx pairs) and every test log (mjlog, tenhou.net/6,
    mjai, Mahjong Soul raw records and protobuf, tensoul's JSON, Riichi City)."""
    shared = [p for p in sorted((SHARED / "data").rglob("*")) if p.is_file()
              and p.suffix in (".xml", ".mjlog", ".json", ".xml_")]
    tests = [p for p in sorted(DATA.glob("*/*")) if p.is_file() and p.suffix not in (".py", ".csv")]
    return shared + tests


FILES = corpus()


def tables_batch(files: list[Path]) -> TablesBatch:
    """The files read as the export reads them (each file's format told from its content), their games into the
    log tables through the model (:func:`analyzer.formats.read_tables.games_into_tables`)."""
    read, tables = games_into_tables(files, "auto", 1 << 26)
    kept = [game for game, *_ in read if game is not None]
    outcomes = [(gid, digest, [] if game is None else [tuple(note) for note in game.notes], error)
                for game, gid, digest, error in read]
    return TablesBatch(outcomes, tables, recorded_numbers(kept))


def texts_batch(files: list[Path], fmt: str) -> tuple[list[tuple], list[str | None]]:
    """The files' texts in ``fmt`` made from their tables, in the form :func:`games_batch` gives."""
    return next(text_batches([tables_batch(files)], fmt))


@pytest.fixture(scope="module", params=FORMATS)
def both(request):
    """Per format: (the model's writers' outcomes and texts, the tables' outcomes and texts) of every file."""
    fmt = request.param
    old = games_batch(FILES, TEXTS[fmt])
    new = next(text_batches([tables_batch(FILES)], fmt, games_per_run=10**6))
    return fmt, old, new


def test_the_corpus_is_here():
    if not (SHARED / "data" / "logs").is_dir():
        pytest.skip(f"shared logs not found under {SHARED} ({SHARED_HINT})")
    assert len(FILES) >= 160


def test_every_file_is_byte_identical(both):
    fmt, (old_outcomes, old_texts), (new_outcomes, new_texts) = both
    differ = [str(f) for f, a, b in zip(FILES, old_texts, new_texts)
              if (a is None) != (b is None) or (a is not None and a.encode("utf-8") != b.encode("utf-8"))]
    assert differ == []
    assert sum(t is not None for t in new_texts) >= 150, fmt


def test_every_outcome_and_refusal_is_the_same(both):
    fmt, (old_outcomes, _), (new_outcomes, _) = both
    assert len(old_outcomes) == len(new_outcomes) == len(FILES)
    differ = [(str(f), a, b) for f, a, b in zip(FILES, old_outcomes, new_outcomes) if a != b]
    assert differ == []
    if fmt == "tenhou6":  # a test log whose seat draws out of turn: tenhou.net/6 cannot say it
        reasons = {f.name: o[4] for f, o in zip(FILES, new_outcomes) if o[4] is not None}
        assert "draws out of turn" in reasons["chip_lobby.mjlog"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_files_written_are_those_of_the_export(fmt, tmp_path):
    """The runner's output class writes the texts as it writes the model's: the same bytes on disk."""
    files = [f for f in FILES if f.parent.name in ("mjlog", "mjai", "majsoul_raw", "tenhou6")][:12]
    written = {}
    for name, (outcomes, texts) in (("old", games_batch(files, TEXTS[fmt])), ("new", texts_batch(files, fmt))):
        output = DirectoryOutput(tmp_path / name, SUFFIXES[fmt])
        output.open()
        for (gid, _, _, _, error), text in zip(outcomes, texts):
            if error is None:
                output.write_game(gid, text)
        output.commit()
        written[name] = {p.name: p.read_bytes() for p in (tmp_path / name).iterdir()}
    assert written["old"] == written["new"] and len(written["new"]) >= 8


def test_batches_run_together_give_the_same_texts():
    """Batches turned into texts several at a time (the parent's runs) give what each alone gives."""
    files = [f for f in FILES if f.parent.name in ("mjlog", "tenhou6", "mjai")]
    batches = [tables_batch(files[i:i + 3]) for i in range(0, len(files), 3)]
    together = list(text_batches(batches, "mjai", games_per_run=7))
    alone = [next(text_batches([b], "mjai")) for b in batches]
    assert together == alone


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_columnar_mjlog_reader_s_tables_give_the_same_files(fmt):
    """The tables of the columnar mjlog reader (not the model's) written: the same files."""
    columns = pytest.importorskip("analyzer.formats.tenhou.mjlog_columns")
    mjlogs = [f for f in FILES if f.suffix in (".mjlog", ".xml")]
    tables, reads = columns.read_mjlog_tables(mjlogs)
    texts = texts_of_tables(tables, fmt)
    outcomes, old = games_batch(mjlogs, TEXTS[fmt])
    differ = [str(f) for f, r, o, t in zip(mjlogs, reads, outcomes, old)
              if r.game is not None and (texts.text(r.game), texts.errors[r.game]) != (t, o[4])]
    assert differ == [] and sum(r.game is not None for r in reads) >= 20


@pytest.mark.parametrize("fmt", FORMATS)
def test_tables_out_of_order_give_the_same_files(fmt):
    """Rows given in another order (a streaming join keeps none) are put in their keys' order first."""
    games = [read_game(f, "auto", 1 << 26)[0] for f in FILES if f.parent.name in ("mjai", "riichicity")]
    tables = tables_of_games(games)
    shuffled = type(tables)(*(getattr(tables, name).sample(fraction=1.0, shuffle=True, seed=7)
                              for name in ("games", "hands", "events", "outcomes")))
    ordered, mixed = texts_of_tables(tables, fmt), texts_of_tables(shuffled, fmt)
    assert [ordered.text(i) for i in range(len(ordered))] == [mixed.text(i) for i in range(len(mixed))]


# --- games changed to reach each refusal of the model's writers, and each kind of value ---------------------


def _game(name: str):
    path = next(f for f in FILES if f.name == name)
    game, gid, _, error = read_game(path, "auto", 1 << 26)
    assert game is not None, error
    return game


def _old(game, fmt):
    try:
        return TEXTS[fmt](game), None
    except LogError as exc:
        return None, str(exc)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        return None, f"cannot export ({type(exc).__name__}: {str(exc)[:200]})"


def _new(game, fmt):
    gid = game_id(game.ref, game.file, game.digest or "")
    numbers = pl.from_arrow(recorded_numbers([game]))
    texts = texts_of_tables(tables_of_games([game], [gid]), fmt, numbers)
    return texts.text(0), texts.errors[0]


def _first_of(game, result: str):
    return next(k for k in game.kyokus if k.outcomes and k.outcomes[0].result == result)


def _no_result(game):
    game.kyokus[1].outcomes = []


def _unknown_abort(game):
    outcome = game.kyokus[2].outcomes[0]
    outcome.result, outcome.abort, outcome.recorded_text = "abort", "kaze5", None


def _no_dora(game):
    game.kyokus[1].dora = []


def _unpriced_tsumo(game):
    _first_of(game, "tsumo").outcomes[0].points = None


def _unpriced_ron(game):
    _first_of(game, "ron").outcomes[0].points = None
    _first_of(game, "ron").outcomes[0].fu = None


def _three_final_scores(game):
    game.final_scores = game.final_scores[:3]


def _pon_of_own_seat(game):
    for k in game.kyokus:
        for i, ev in enumerate(k.events):
            if ev[0] == "call" and ev[2] == "pon":
                k.events[i] = (*ev[:5], ev[1])
                return
    raise AssertionError("no pon")


def _kakan_without_its_pon(game):
    for k in game.kyokus:
        kakans = [ev for ev in k.events if ev[0] == "call" and ev[2] == "kakan"]
        if kakans:
            k.events = [("call", ev[1], "chi", *ev[3:]) if ev[0] == "call" and ev[2] == "pon" else ev
                        for ev in k.events]
            return
    raise AssertionError("no kakan")


def _points_and_times(game):
    game.final_points = [12.3, -0.5, 45.0, -56.8]
    game.started_at = datetime(2024, 3, 1, 11, 5, 51, 250_000, tzinfo=timezone.utc)
    game.rate = [1525, 1753.01, "1600.00", None]
    game.dan = ["初段", 3, "九段", "新人"]
    game.names = ['quote " back \\ slash', "tab\there\nline", "\x01\x1f\x7f", "😀 名前"]
    game.room, game.custom_rules, game.ratio = 'room "x"', "0001\\", "1.5"


def _unknown_yaku(game):
    outcome = _first_of(game, "ron").outcomes[0]
    outcome.yaku = [*outcome.yaku, 'unknown:"odd" \\ name', "seat_wind", "round_wind"]
    outcome.yaku_han = [*outcome.yaku_han, 2, 1, 1]


CHANGES = [_no_result, _unknown_abort, _no_dora, _unpriced_tsumo, _unpriced_ron, _three_final_scores,
           _pon_of_own_seat, _points_and_times, _unknown_yaku]
SOURCES = ["gimite_examples.mjson", "east_4p.json", "ranked_south.json"]  # mjai, Riichi City, Mahjong Soul


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__.strip("_"))
def test_a_changed_game_gives_the_same_text_or_reason(change, source, fmt):
    game = copy.deepcopy(_game(source))
    change(game)
    assert _new(game, fmt) == _old(game, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_kakan_without_its_pon(fmt):
    game = copy.deepcopy(_game("mortal_style.json"))
    _kakan_without_its_pon(game)
    new, old = _new(game, fmt), _old(game, fmt)
    assert new == old
    if fmt == "tenhou6":
        assert old[1].startswith("cannot export (KeyError: (")


def test_the_refusals_are_reached():
    """The changes above reach the refusals they are named after (else the comparison says little)."""
    reasons = {}
    for change in (_no_result, _unknown_abort, _unpriced_tsumo, _three_final_scores, _pon_of_own_seat):
        game = copy.deepcopy(_game("gimite_examples.mjson"))
        change(game)
        reasons[change.__name__] = _old(game, "tenhou6")[1]
    game = copy.deepcopy(_game("gimite_examples.mjson"))
    _no_dora(game)
    reasons["mjai no dora"] = _old(game, "mjai")[1]
    assert all(reasons.values()), reasons
    assert "abortive draw of no known kind ('kaze5')" in reasons["_unknown_abort"]


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(TEXT, min_size=4, max_size=4), room=st.none() | TEXT, yaku=TEXT,
       points=st.lists(st.floats(-200, 200, allow_nan=False).map(lambda x: round(x, 1)), min_size=4, max_size=4))
def test_any_text_and_number_is_written_alike(names, room, yaku, points):
    """Names, rooms and yaku of any characters are escaped as ``json.dumps`` escapes them; game points as
    Python writes floats."""
    game = copy.deepcopy(_game("custom_rules.mjlog"))
    game.names, game.room, game.final_points = names, room, points
    outcome = _first_of(game, "ron").outcomes[0]
    outcome.yaku, outcome.yaku_han = [*outcome.yaku, f"unknown:{yaku}"], [*outcome.yaku_han, 1]
    for fmt in FORMATS:
        assert _new(game, fmt) == _old(game, fmt)
