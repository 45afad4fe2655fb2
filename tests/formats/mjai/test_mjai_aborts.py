"""Abortive draws between mjai and tenhou.net/6: each kind has its own name both ways (no fallback invents one);
an mjai ``ryukyoku`` without a ``reason`` (as other tools write it) gets its kind from the hand's play, and
what the play does not decide is refused, the file named."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.formats.mjai.read import parse_mjai
from analyzer.formats.mjai.write import events_text, game_to_mjai
from analyzer.formats.model import LogError
from analyzer.formats.parse import parse_file
from analyzer.formats.read import read_mjai
from analyzer.formats.tenhou.tenhou6_read import parse_json
from analyzer.formats.tenhou.tenhou6_write import game_to_tenhou6

from conftest import SHARED_HINT
from tests.formats.export_logs import SHARED_LOGS, all_logs

SAMPLE = Path(__file__).resolve().parents[3] / "sample_logs" / "mjai" / "mortal_style.json"


# --- composing a hand: one start_kyoku (seat 0 deals), its plays, a ryukyoku without a reason ---------------


def _hand(text: str) -> list[str]:
    return text.split()


def _t(s: int, pai: str) -> dict:
    return {"type": "tsumo", "actor": s, "pai": pai}


def _d(s: int, pai: str, giri: bool = False) -> dict:
    return {"type": "dahai", "actor": s, "pai": pai, "tsumogiri": giri}


def _riichi(s: int, pai: str, accepted: bool = True) -> list[dict]:
    out = [_t(s, pai), {"type": "reach", "actor": s}, _d(s, pai, True)]
    return out + ([{"type": "reach_accepted", "actor": s}] if accepted else [])


def _ankan(s: int, pai: str) -> dict:
    return {"type": "ankan", "actor": s, "consumed": [pai] * 4}


def _game(tehais: list[list[str]], plays: list[dict], deltas: list[int] | None = None) -> list[dict]:
    return [
        {"type": "start_game", "names": ["A", "B", "C", "D"], "aka_flag": False},
        {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
         "scores": [25000] * 4, "dora_marker": "5s", "tehais": tehais},
        *plays,
        {"type": "ryukyoku", "deltas": deltas or [0, 0, 0, 0]},
        {"type": "end_kyoku"},
        {"type": "end_game"},
    ]  # fmt: skip


MANZU = "1m 2m 3m 4m 5m 6m 7m 8m 9m"
EAST_HANDS = [_hand(f"{MANZU} 1p 2p 3p E"), _hand(f"{MANZU} 4p 5p 6p E"), _hand(f"{MANZU} 7p 8p 9p E"),
              _hand("1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 1p 9p E")]


def _four_winds() -> list[dict]:
    return _game(EAST_HANDS, [ev for s, x in enumerate(["2s", "3s", "4s", "5s"]) for ev in (_t(s, x), _d(s, "E"))])


def _four_riichi() -> list[dict]:
    plays = _riichi(0, "2s") + _riichi(1, "3s") + _riichi(2, "4s") + _riichi(3, "5s", accepted=False)
    return _game(EAST_HANDS, plays)


def _four_kans() -> list[dict]:
    tehais = [_hand("1m 1m 1m 1m 2m 2m 2m 2m 3p 4p 5p E E"), _hand("3m 3m 3m 3m 4m 4m 4m 4m 6p 7p 8p S S"),
              _hand("5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s W W"), _hand("5m 6m 7m 8m 9m 7s 8s 9s 1p 1p 9p N N")]
    dora = [{"type": "dora", "dora_marker": w} for w in "ESWN"]
    plays = [_t(0, "9s"), _ankan(0, "1m"), dora[0], _t(0, "8s"), _ankan(0, "2m"), dora[1], _t(0, "7s"),
             _d(0, "7s", True), _t(1, "6s"), _ankan(1, "3m"), dora[2], _t(1, "5s"), _ankan(1, "4m"), dora[3],
             _t(1, "4s"), _d(1, "4s", True)]  # fmt: skip
    return _game(tehais, plays)


NINE_TERMINALS = [_hand(f"{MANZU} 1p 2p 3p E"), _hand("1m 9m 1p 9p 1s 9s E S W N P 2m 3m"),
                  _hand("4p 5p 6p 7p 8p 2s 3s 4s 5s 6s 7s 8s F"), _hand("2p 3p 4p 5p 6p 7p 8p 2s 3s 4s 5s 6s C")]


def _nine_terminals(hands: list[list[str]] = NINE_TERMINALS) -> list[dict]:
    return _game(hands, [_t(0, "F"), _d(0, "F", True), _t(1, "C")])  # seat 1's first draw: it declares


def _triple_ron() -> list[dict]:
    tehais = [_hand("E E E S S S W W W N N N P"), _hand(f"{MANZU} 1p 2p 3p 9s"), _hand(f"{MANZU} 4p 5p 6p 9s"),
              _hand(f"{MANZU} 7p 8p 9p 9s")]
    return _game(tehais, [_t(0, "9s"), _d(0, "9s", True)])  # three seats wait on 9s: three declare ron


def _whole_wall(deltas: list[int]) -> list[dict]:
    """70 draws, each discarded; the dealer draws only terminals and honours (a nagashi when it is paid)."""
    kinds = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC")
    tiles = [t for t in kinds for _ in range(4)]
    ends = [t for t in tiles if t in ("1m", "9m", "1p", "9p", "1s", "9s") or t in "ESWNPFC"]
    simples = [t for t in tiles if t not in ends]
    dealer, others = ends[:18], simples[:52]
    rest = ends[18:] + simples[52:]
    tehais = [rest[13 * s : 13 * s + 13] for s in range(4)]
    plays = []
    for n in range(70):
        s = n % 4
        pai = dealer.pop() if s == 0 else others.pop()
        plays += [_t(s, pai), _d(s, pai, True)]
    return _game(tehais, plays, deltas)


def _whole_wall_last_discard_waited_on(seat_1: str) -> list[dict]:
    """70 draws, each discarded; seats 0, 2 and 3 wait on 9s, which seat 1 draws last and discards."""
    tehais = [_triple_ron()[1]["tehais"][s] for s in (1, 0, 2, 3)]
    tehais[1] = _hand(seat_1)
    wall = Counter({f"{n}{s}": 4 for s in "mps" for n in range(1, 10)} | {w: 4 for w in "ESWNPFC"})
    wall.subtract([t for h in tehais for t in h] + ["9s"])
    draws = sorted(wall.elements())[:69] + ["9s"]
    return _game(tehais, [ev for n, pai in enumerate(draws) for ev in (_t(n % 4, pai), _d(n % 4, pai, True))])


# (name, composed game, result, abort kind, tenhou.net/6's word, mjai's reason)
CASES = [
    ("four winds", _four_winds, "abort", "kaze4", "四風連打", "sufonrenta"),
    ("four riichi", _four_riichi, "abort", "reach4", "四家立直", "suchareach"),
    ("four kans", _four_kans, "abort", "kan4", "四槓散了", "sukaikan"),
    ("nine terminals", _nine_terminals, "abort", "yao9", "九種九牌", "kyushukyuhai"),
    ("triple ron", _triple_ron, "abort", "ron3", "三家和了", "sanchaho"),
    ("triple ron on the last discard", lambda: _whole_wall_last_discard_waited_on("1s 2s 3s 4s 5s 7s E S W N P F C"),
     "abort", "ron3", "三家和了", "sanchaho"),  # nobody pays though three seats are tenpai: no exhaustive draw
    ("exhaustive draw", lambda: _whole_wall([0, 0, 0, 0]), "draw", None, "全員不聴", "fanpai"),
    ("nagashi mangan", lambda: _whole_wall([12000, -4000, -4000, -4000]), "nagashi", None, "流し満貫",
     "nagashimangan"),
]  # fmt: skip


@pytest.mark.parametrize(("make", "result", "abort", "word", "reason"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_the_kind_of_a_ryukyoku_without_reason_comes_from_the_play(make, result, abort, word, reason):
    game = parse_mjai(events_text(make()), "g.mjai.jsonl")
    (o,) = game.kyokus[0].outcomes
    assert (o.result, o.abort) == (result, abort)
    written = game_to_tenhou6(game)
    assert written["log"][0][-1][0] == word
    back = game_to_mjai(parse_json(json.dumps(written, ensure_ascii=False), "g.json"))
    assert [ev["reason"] for ev in back if ev["type"] == "ryukyoku"] == [reason]


UNDECIDED = [
    ("a discard", lambda: _game(EAST_HANDS, [_t(0, "2s"), _d(0, "5m")])),
    ("eight terminal kinds", lambda: _nine_terminals([NINE_TERMINALS[0], _hand("1m 9m 1p 9p 1s 9s E 2p 3p 2m 3m 4m 5m"),
                                                      *NINE_TERMINALS[2:]])),
    ("nine kinds after a call", lambda: _game(
        [*NINE_TERMINALS[:2], _hand("4p 4p 6p 7p 8p 2s 3s 4s 5s 6s 7s 8s F"), NINE_TERMINALS[3]],
        [_t(0, "4p"), _d(0, "4p", True),
         {"type": "pon", "actor": 2, "target": 0, "pai": "4p", "consumed": ["4p", "4p"]}, _d(2, "F"),
         _t(3, "9s"), _d(3, "9s", True), _t(0, "9s"), _d(0, "9s", True), _t(1, "C")])),
    ("two seats waiting", lambda: _game(
        [*_triple_ron()[1]["tehais"][:3], _hand("1s 2s 3s 4s 5s 6s 7s 8s 9s 7p 8p 9p P")],
        [_t(0, "9s"), _d(0, "9s", True)])),
    ("the last discard waited on, all tenpai", lambda: _whole_wall_last_discard_waited_on(
        "1s 2s 3s 4s 5s 6s 7s 8s E E E S S")),  # all four tenpai: an exhaustive draw pays nobody either
]  # fmt: skip


@pytest.mark.parametrize("make", [c[1] for c in UNDECIDED], ids=[c[0] for c in UNDECIDED])
def test_an_abort_the_play_does_not_decide_is_refused_naming_the_file(make, tmp_path):
    path = tmp_path / "undecided.mjai.jsonl"
    path.write_text(events_text(make()), encoding="utf-8")
    with pytest.raises(LogError, match="ryukyoku without a reason.*not guessed"):
        parse_mjai(path.read_text(encoding="utf-8"), str(path))
    df, problems = read_mjai([path])
    assert df.height == 0 and [Path(p.file).name for p in problems] == [path.name]
    result = CliRunner().invoke(main, ["import", "mjai", str(path), "-o", str(tmp_path / "o.parquet")])
    assert result.exit_code != 0 and "undecided.mjai.jsonl" in result.output and "not guessed" in result.output
    assert "Traceback" not in result.output


def test_the_samples_four_winds_exports_as_its_own_name_and_back(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["export", "tenhou6", str(SAMPLE), "-o", str(tmp_path / "t6")])
    assert result.exit_code == 0, result.output
    (written,) = (tmp_path / "t6").iterdir()
    assert json.loads(written.read_text(encoding="utf-8"))["log"][0][-1] == ["四風連打"]
    result = runner.invoke(main, ["export", "mjai", str(tmp_path / "t6"), "-o", str(tmp_path / "mjai")])
    assert result.exit_code == 0, result.output
    (again,) = (tmp_path / "mjai").iterdir()
    events = [json.loads(line) for line in again.read_text(encoding="utf-8").splitlines()]
    assert [ev.get("reason") for ev in events if ev["type"] == "ryukyoku"] == ["sufonrenta", "fanpai"]


def test_an_abort_of_no_known_kind_is_not_written_as_another(tmp_path):
    """A model whose abort names no kind: tenhou.net/6 has a word for each kind only, so the export names the
    game and the hand instead of writing 九種九牌."""
    game = parse_file(SAMPLE, "mjai")
    game.kyokus[0].outcomes[0].abort = None
    gid = game_to_tenhou6(parse_file(SAMPLE, "mjai"))["ref"]
    with pytest.raises(LogError, match=rf"game {re.escape(gid)}: hand 1 \(E1-0\): an abortive draw of no known kind"):
        game_to_tenhou6(game)


def _ends(game) -> list[tuple[str, str | None]]:
    return [(k.outcomes[0].result, k.outcomes[0].abort) for k in game.kyokus]


@pytest.mark.parametrize("item", all_logs(), ids=lambda item: f"{item[0].parent.name}/{item[0].name}")
def test_every_logs_draws_come_back_from_mjai_without_reasons(item):
    """Every shared and test log exported to mjai without reasons (as other tools write it): each hand's
    ending, an abort's kind included, is read off the play as the original log named it."""
    path, log_format = item
    if not path.exists():
        pytest.skip(f"{path} not found ({SHARED_HINT})")
    try:
        game = parse_file(path, log_format)
    except LogError:
        pytest.skip(f"{path.name} does not import (a problem file of the shared set)")
    events = game_to_mjai(game)
    for ev in events:
        if ev["type"] == "ryukyoku":
            ev.pop("reason", None)
    assert _ends(parse_mjai(events_text(events), "g.mjai.jsonl")) == _ends(game)


def test_the_shared_logs_have_aborts_of_every_kind_but_triple_ron():
    if not SHARED_LOGS.is_dir():
        pytest.skip(f"shared logs not found at {SHARED_LOGS} ({SHARED_HINT})")
    kinds = set()
    for path, log_format in all_logs():
        try:
            kinds |= {abort for _, abort in _ends(parse_file(path, log_format))}
        except LogError:
            continue
    assert {"yao9", "reach4", "kan4", "kaze4"} <= kinds
