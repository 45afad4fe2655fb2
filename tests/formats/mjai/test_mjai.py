"""mjai export: the protocol Mortal writes (a Mortal-style log gives its own lines back), what a record adds
(gimite's values, analyzer's start_game fields, read back by import mjai), three players (three seats,
``nukidora``), and an outside engine: riichienv's MjaiReplay steps through every exported game with no desync,
to the same number of hands and wins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.formats.mjai.write import game_to_mjai
from analyzer.formats.mjai.read import parse_mjai
from analyzer.formats.model import LogError
from analyzer.formats.parse import parse_file

from conftest import SHARED_HINT
from tests.formats.export_logs import PAIRS, TESTS, all_logs, write_jsonl

MORTAL = TESTS / "data" / "mjai" / "mortal_style.json"
SANMA = TESTS / "data" / "majsoul" / "majsoul_sanma.json"


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_a_mortal_style_log_gives_its_lines_back():
    """What Mortal writes comes back as written; added: start_game's analyzer fields, each draw's gimite reason
    (the four winds' kind read off the play)."""
    exported = game_to_mjai(parse_file(MORTAL, "mjai"))
    added = exported[0].pop("analyzer")
    assert added["game_id"].startswith("log-") and added["rules"] == "tenhou;game_length=east"
    reasons = [ev.pop("reason", None) for ev in exported if ev["type"] == "ryukyoku"]
    assert reasons == ["sufonrenta", "fanpai"]
    assert exported == _lines(MORTAL)


def test_hora_carries_the_records_values():
    path = TESTS / "data" / "mjlog" / "triple_yakuman.mjlog"
    hora = next(ev for ev in game_to_mjai(parse_file(path)) if ev["type"] == "hora")
    assert {k: hora[k] for k in ("fan", "fu", "hora_points", "limit")} == {
        "fan": 300, "fu": 60, "hora_points": 144000, "limit": "yakuman"}  # the dealer's triple yakuman tsumo
    assert hora["yakus"] == [["daisangen", 100], ["suanko", 100], ["tsuiso", 100]]  # gimite: 100 a yakuman


def test_three_players_three_seats_and_nukidora():
    events = game_to_mjai(parse_file(SANMA))
    start = events[0]
    assert len(start["names"]) == 3 and start["analyzer"]["rules"].startswith("majsoul_sanma")
    assert start["analyzer"]["game_id"] == json.loads(SANMA.read_text(encoding="utf-8"))["ref"]
    kyoku = next(ev for ev in events if ev["type"] == "start_kyoku")
    assert len(kyoku["scores"]) == len(kyoku["tehais"]) == 3
    kita = [ev for ev in events if ev["type"] == "nukidora"]
    assert kita and all(ev["pai"] == "N" for ev in kita)
    assert all(len(ev["deltas"]) == 3 for ev in events if ev["type"] in ("hora", "ryukyoku"))
    assert len(events[-1]["scores"]) == 3


def test_dahai_says_tsumogiri_as_the_log_did():
    if not PAIRS.is_dir():
        pytest.skip(f"shared mjlog/JSON pairs not found at {PAIRS} ({SHARED_HINT})")
    game = parse_file(PAIRS / "2010081709gm-00a9-0000-fe3371ad.mjlog")
    discards = [ev for k in game.kyokus for ev in k.events if ev[0] == "discard"]
    dahais = [ev for ev in game_to_mjai(game) if ev["type"] == "dahai"]
    assert [ev["tsumogiri"] for ev in dahais] == [ev[4] for ev in discards]
    assert 0 < sum(ev["tsumogiri"] for ev in dahais) < len(dahais)


@pytest.mark.parametrize(("fields", "words"), [
    ({"game_id": 7}, "analyzer.game_id: bad value 7"),
    ({"game_points": [1, "x", 3]}, "analyzer.game_points"),
    ({"open_tanyao": "yes"}, "analyzer.open_tanyao"),
    ("text", "expected an object"),
])  # fmt: skip
def test_a_bad_extension_value_is_named(fields, words):
    lines = _lines(MORTAL)
    lines[0]["analyzer"] = fields
    with pytest.raises(LogError, match=words):
        parse_mjai("\n".join(map(json.dumps, lines)), "g.json")


def test_riichienv_replays_every_exported_game(tmp_path):
    riichienv = pytest.importorskip("riichienv", reason="riichienv not installed (the bench extra)")
    checked = 0
    for path, log_format in all_logs():
        if not path.exists():
            continue
        try:
            game = parse_file(path, log_format)
        except LogError:
            continue  # a problem file of the shared set: nothing to export
        events = game_to_mjai(game)
        for ev in events:  # riichienv's name of a north set aside
            if ev["type"] == "nukidora":
                ev["type"] = "kita"
        replay = riichienv.MjaiReplay.from_jsonl(str(write_jsonl(tmp_path / f"{checked}.jsonl", events)))
        hands = wins = 0
        for kyoku in replay.take_kyokus():
            hands += 1
            for _ in kyoku.steps():  # a desync raises
                pass
            wins += sum(1 for _ in kyoku.take_win_result_contexts())
        assert hands == len(game.kyokus), path.name
        assert wins == sum(o.result in ("ron", "tsumo") for k in game.kyokus for o in k.outcomes), path.name
        checked += 1
    assert checked >= 11


def test_three_players_told_by_tehais_when_start_game_names_nobody():
    events = game_to_mjai(parse_file(SANMA))
    del events[0]["names"]
    game = parse_mjai("\n".join(map(json.dumps, events)), "g.jsonl")
    assert game.players == 3 and all(k.players == 3 and k.haipai[3] == [] for k in game.kyokus)
    assert game.kyokus[0].scores[3] == 0 and game.final_scores[3] == 0


@pytest.mark.parametrize(("edit", "words"), [
    (lambda evs: evs[1].update(scores=evs[1]["scores"] + [0]), "expected 3 integers: a 3-player game"),
    (lambda evs: evs[1].update(tehais=evs[1]["tehais"] + [evs[1]["tehais"][0]]), "expected 3 starting hands"),
    (lambda evs: next(e for e in evs if e["type"] == "nukidora").update(pai="E"), "not a north"),
])  # fmt: skip
def test_a_three_player_game_that_does_not_fit_is_named(edit, words):
    events = game_to_mjai(parse_file(SANMA))
    edit(events)
    with pytest.raises(LogError, match=words):
        parse_mjai("\n".join(map(json.dumps, events)), "g.jsonl")
