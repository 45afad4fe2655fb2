"""The hand records derived as columns from the log tables (:mod:`analyzer.formats.records_from_tables`) are the
old path's (:func:`analyzer.formats.rows.game_rows` in :func:`analyzer.formats.read.read_logs`): for every shared
log and every test log the same frame (dtypes included), notes and refusals, and for logs broken on purpose
(the model of a good game changed) the same reason in the same words."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analyzer.formats import read
from analyzer.formats.files import FORMATS, expand_paths
from analyzer.formats.log_tables import SCHEMAS
from analyzer.formats.model import LogError
from analyzer.formats.read_tables import log_tables_batch, record_batches
from analyzer.formats.records_from_tables import hand_records, records_of_tables
from analyzer.formats.rows import game_rows
from analyzer.formats.tables_from_games import tables_of_games
from tests.formats.export_logs import SHARED_LOGS, all_logs, log_id

DATA = Path(__file__).resolve().parents[1] / "data"
OTHER_FORMATS = {"majsoul_raw": "majsoul", "majsoul_protobuf": "majsoul", "riichicity": "riichicity"}


def _logs() -> list[tuple[Path, str]]:
    logs = all_logs()
    for folder, fmt in OTHER_FORMATS.items():
        if fmt in FORMATS:
            found, _ = expand_paths([DATA / folder], FORMATS[fmt])
            logs += [(f, fmt) for f in found]
    return logs


def _through_tables(path: Path, fmt: str):
    files, problems = expand_paths([path], FORMATS[fmt])
    batches = record_batches([log_tables_batch(files, fmt)])
    return read._assemble(files, batches, problems, None)


@pytest.mark.parametrize("item", _logs(), ids=log_id)
def test_every_log_gives_the_same_records_notes_and_refusals(item):
    path, fmt = item
    old, old_problems = read.read_logs([path], workers=1, log_format=fmt)
    new, new_problems = _through_tables(path, fmt)
    assert_frame_equal(new, old)
    assert new_problems == old_problems


def _game(path: Path):
    game, gid, _, error = read.read_game(path, "tenhou")
    assert error is None
    return game, gid


def test_the_tables_keep_their_schema():
    game, gid = _game(DATA / "mjlog" / "triple_yakuman.mjlog")
    tables = tables_of_games([game], [gid])
    tables.check_schemas()
    assert {name: getattr(tables, name).schema for name in SCHEMAS} == SCHEMAS


def _first(k, kind):
    return next(i for i, ev in enumerate(k.events) if ev[0] == kind)


def _discard_unheld(g):
    k = g.kyokus[0]
    i = _first(k, "discard")
    _, s, t, riichi, giri = k.events[i]
    held = set(k.haipai[s]) | {ev[2] for ev in k.events[:i] if ev[0] == "draw" and ev[1] == s}
    other = next(x for x in range(34) if x not in held and x % 9 != 4)
    k.events[i] = ("discard", s, other, riichi, False)


def _tsumo_by_another(g):
    k = next(k for k in g.kyokus if k.outcomes[0].result == "tsumo")
    k.outcomes[0].winner = (k.outcomes[0].winner + 1) % 4


def _ron_off_another(g):
    k = next(k for k in g.kyokus if k.outcomes[0].result == "ron")
    o = k.outcomes[0]
    o.loser = next(s for s in range(4) if s not in (o.winner, o.loser))


def _no_result(g):
    g.kyokus[-1].outcomes = []


def _draw_early(g):
    k = next(k for k in g.kyokus if k.outcomes[0].result == "ron")
    k.outcomes = [dataclasses.replace(k.outcomes[0], result="draw", winner=None, loser=None, tenpai=[0])]


def _recorded_hand(g):
    k = next(k for k in g.kyokus if k.outcomes[0].result in ("ron", "tsumo") and k.outcomes[0].hand)
    k.outcomes[0].hand = [*k.outcomes[0].hand[1:], 33 if k.outcomes[0].hand[0] != 33 else 32]


def _recorded_tile(g):
    k = next(k for k in g.kyokus if k.outcomes[0].result in ("ron", "tsumo") and k.outcomes[0].win_tile is not None)
    k.outcomes[0].win_tile = (k.outcomes[0].win_tile + 1) % 34


def _recorded_melds(g):
    k = next(k for k in g.kyokus if k.outcomes[0].result in ("ron", "tsumo"))
    k.outcomes[0].melds = [("pon", [31, 31, 31])]


def _called_not_discarded(g):
    k = next(k for k in g.kyokus if any(ev[0] == "call" and ev[2] == "pon" for ev in k.events))
    i = next(i for i, ev in enumerate(k.events) if ev[0] == "call" and ev[2] == "pon")
    ev = list(k.events[i])
    ev[4] = (ev[4] + 1) % 34
    ev[3] = [ev[4] if t == k.events[i][4] else t for t in ev[3]]
    k.events[i] = tuple(ev)


def _unknown_yaku(g):
    k = next(k for k in g.kyokus if k.outcomes[0].result in ("ron", "tsumo"))
    k.outcomes[0].yaku.append("unknown:made_up")
    k.outcomes[0].yaku_han.append(1)


def _fifth_of_a_kind(g):
    from collections import Counter

    k = next(k for k in g.kyokus if k.outcomes[0].result == "tsumo")
    last = max(i for i, ev in enumerate(k.events) if ev[0] == "draw")
    seen = Counter(t % 100 for h in k.haipai for t in h) + Counter(
        ev[2] % 100 for i, ev in enumerate(k.events) if ev[0] == "draw" and i != last)
    four = next(kind for kind, n in sorted(seen.items()) if n == 4)  # a winning tile drawn as a fifth
    _, s, _, rinshan = k.events[last]
    k.events[last] = ("draw", s, four, rinshan)


BROKEN = {  # name: how a good game is changed
    "a discard of a tile not held": _discard_unheld,
    "a tsumo by a seat that did not draw last": _tsumo_by_another,
    "a ron off a seat that did not discard last": _ron_off_another,
    "a hand without a result": _no_result,
    "an exhaustive draw before the wall is drawn": _draw_early,
    "a recorded hand other than the replayed one": _recorded_hand,
    "a recorded winning tile other than the replayed one": _recorded_tile,
    "recorded melds other than the replayed ones": _recorded_melds,
    "a pon of a tile not just discarded": _called_not_discarded,
    "a fifth tile of a kind drawn": _fifth_of_a_kind,
    "an unrecognised yaku name (a note, not a refusal)": _unknown_yaku,
}
# the test mjlogs (one or two hands each) and a few whole games of the shared logs, where present
GAMES = sorted(DATA.glob("mjlog/*.mjlog")) + sorted(SHARED_LOGS.glob("mjlog/*/*.mjlog"))[:3]


@pytest.mark.parametrize("game_name", GAMES, ids=lambda path: path.name)
@pytest.mark.parametrize("change", list(BROKEN), ids=lambda name: name.replace(" ", "_"))
def test_a_broken_game_is_refused_in_the_same_words(change, game_name):
    game, gid = _game(game_name)
    try:
        BROKEN[change](game)
    except (StopIteration, IndexError):
        pytest.skip(f"{game_name.name} has nothing to change for {change}")
    old_game = copy.deepcopy(game)
    try:
        expected_rows, expected_error = game_rows(old_game), None
    except LogError as exc:
        expected_rows, expected_error = None, str(exc)
    assert (expected_error is None) == ("note" in change), "the change is meant to break the game, or not"
    result = records_of_tables(tables_of_games([game], [gid]))
    assert result.errors.get(0) == expected_error
    if expected_error is None:
        assert result.records.height == len(expected_rows)
        assert result.notes[0] == old_game.notes


def test_games_in_one_batch_are_kept_apart():
    games = [_game(name) for name in GAMES]
    together = hand_records(tables_of_games([g for g, _ in games], [gid for _, gid in games]))
    apart = pl.concat([hand_records(tables_of_games([g], [gid])) for g, gid in games])
    assert_frame_equal(together, apart)


def test_no_games_give_no_records_of_the_records_schema():
    from analyzer.formats.columns import COLUMNS
    from analyzer.formats.log_tables import LogTables

    records = hand_records(LogTables.empty())
    assert records.height == 0
    assert records.schema == pl.Schema(COLUMNS)
