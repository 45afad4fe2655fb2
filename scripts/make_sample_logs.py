"""Write the bundled sample tournament in ``sample_logs/`` (CSV and Parquet).

A small club tournament: 8 players, 3 rounds x 2 tables of hanchan (6 games, E1..S4 each). Every game is
written below as a plain list of hand outcomes; ``round`` and ``honba`` are *derived* from the standard flow
rules (see :func:`next_state`), so the counters are right by construction. Nothing is random.

    .venv/bin/python scripts/make_sample_logs.py            # (re)write sample_logs/csv and sample_logs/parquet
    .venv/bin/python scripts/make_sample_logs.py --check    # also print rough final scores per game

The ``--check`` scores are a rough sanity check only (Tenhou-like defaults, reverse-mangan chombo, pao ron
split between discarder and liable player); the analyzer is the real scorer.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "sample_logs"

COLUMNS = [
    "game_id", "round", "honba", "player_0", "player_1", "player_2", "player_3",
    "result", "winner", "loser", "riichi", "tenpai", "han", "fu", "yakuman", "pao", "rules",
]  # fmt: skip
ROUNDS = [f"{wind}{n}" for wind in "ES" for n in range(1, 5)]  # a hanchan: E1..E4, S1..S4
# The club's rules, carried in every row's `rules` column so that the sample is scored under the rules its games
# are played by: Tenhou's (25,000 start, reverse-mangan chombo, abortive draws, nagashi, pao), but every game is
# a plain hanchan that ends after S4 (no West extension: nobody needs 30,000 to finish).
RULES = "tenhou;west_extension=false"

# Single-word names (as on a club score sheet) so a space-separated riichi list stays unambiguous.
TANAKA, LINDQVIST, ISHIKAWA, MOREAU = "Tanaka", "Lindqvist", "Ishikawa", "Moreau"
NAKAMURA, KOWALSKI, BRENNAN, MUELLER = "Nakamura", "Kowalski", "Brennan", "Müller"


# --------------------------------------------------------------------------------------------------
# Hand outcomes
# --------------------------------------------------------------------------------------------------
@dataclass
class Win:
    winner: str
    han: int | None = None
    fu: int | None = None
    yakuman: int | None = None
    pao: str | None = None
    as_seat: tuple[str, ...] = ()  # which of winner/loser/pao to write as a seat number instead of a name


@dataclass
class Hand:
    result: str
    wins: list[Win] = field(default_factory=list)  # ron (one per winner) / tsumo / nagashi
    loser: str | None = None  # ron: discarder; chombo: offender
    riichi: tuple[str, ...] = ()
    tenpai: tuple[str, ...] | None = None  # draw / nagashi only
    riichi_sep: str = ","  # CSV separator for the riichi list
    note: str = ""


def ron(winner, loser, han=None, fu=None, *, riichi=(), yakuman=None, pao=None, as_seat=(), sep=",", note=""):
    win = Win(winner, han, fu, yakuman, pao, tuple(as_seat))
    return Hand("ron", [win], loser, tuple(riichi), riichi_sep=sep, note=note)


def multi_ron(loser, wins, *, riichi=(), sep=",", note=""):
    """A double/triple ron; ``wins`` = [(winner, han, fu), ...] in any order (rows are sorted by turn order)."""
    return Hand("ron", [Win(w, h, f) for w, h, f in wins], loser, tuple(riichi), riichi_sep=sep, note=note)


def tsumo(winner, han=None, fu=None, *, riichi=(), yakuman=None, pao=None, as_seat=(), sep=",", note=""):
    win = Win(winner, han, fu, yakuman, pao, tuple(as_seat))
    return Hand("tsumo", [win], None, tuple(riichi), riichi_sep=sep, note=note)


def draw(tenpai=(), *, riichi=(), sep=",", note=""):
    return Hand("draw", [], None, tuple(riichi), tuple(tenpai), riichi_sep=sep, note=note)


def nagashi(winner, tenpai=(), *, riichi=(), note=""):
    return Hand("nagashi", [Win(winner)], None, tuple(riichi), tuple(tenpai), note=note)


def abort(*, riichi=(), note=""):
    return Hand("abort", [], None, tuple(riichi), note=note)


def chombo(offender, *, as_seat=(), note=""):
    return Hand("chombo", [Win("", as_seat=tuple(as_seat))], offender, note=note)


@dataclass
class Game:
    game_id: str
    players: tuple[str, str, str, str]  # initial seating; player_0 is East in E1
    hands: list[Hand]


# --------------------------------------------------------------------------------------------------
# The tournament. Seating covers every pair of players at least once over the three rounds.
# --------------------------------------------------------------------------------------------------
GAMES = [
    # Round 1, table 1: dealer repeats with honba, an abortive draw, a chombo and its replay.
    Game("R1-T1", (TANAKA, LINDQVIST, ISHIKAWA, MOREAU), [
        ron(ISHIKAWA, MOREAU, 2, 40),
        tsumo(LINDQVIST, 3, 30, riichi=[LINDQVIST], note="dealer tsumo, repeats"),
        ron(LINDQVIST, TANAKA, 2, 30, note="dealer ron at 1 honba, repeats again"),
        ron(TANAKA, LINDQVIST, 3, 40, riichi=[TANAKA, LINDQVIST], sep=" ", note="space-separated riichi"),
        abort(note="kyuushu kyuuhai"),
        chombo(MOREAU, note="wrong ron; the hand is replayed at the same round and honba"),
        tsumo(MOREAU, 2, 20, note="replay of the chombo hand; pinfu tsumo"),
        ron(ISHIKAWA, TANAKA, 1, 30, riichi=[ISHIKAWA]),
        draw([TANAKA, MOREAU], note="dealer tenpai, repeats"),
        ron(MOREAU, LINDQVIST, 5, riichi=[MOREAU], as_seat=["winner", "loser"], note="mangan; seat numbers"),
        tsumo(ISHIKAWA, 3, 40, riichi=[ISHIKAWA]),
        ron(TANAKA, ISHIKAWA, 2, 30),
        draw([ISHIKAWA], riichi=[ISHIKAWA], note="dealer noten in S4: game over, one stick left over"),
    ]),
    # Round 1, table 2: riichi sticks carried over two consecutive draws, nagashi mangan, a plain yakuman.
    Game("R1-T2", (NAKAMURA, KOWALSKI, BRENNAN, MUELLER), [
        ron(NAKAMURA, BRENNAN, 2, 30, note="dealer ron, repeats"),
        ron(KOWALSKI, MUELLER, 3, 25, note="chiitoitsu"),
        draw([BRENNAN, KOWALSKI], riichi=[BRENNAN], note="1st draw: 1 stick on the table, dealer repeats"),
        draw([MUELLER], riichi=[MUELLER], note="2nd draw: 2 sticks, dealer noten"),
        ron(NAKAMURA, KOWALSKI, 3, 30, riichi=[NAKAMURA], note="takes the 2 carried sticks + own"),
        tsumo(MUELLER, 4, 20, riichi=[MUELLER], note="dealer pinfu tsumo"),
        nagashi(BRENNAN, [KOWALSKI], note="nagashi mangan; dealer noten"),
        ron(KOWALSKI, NAKAMURA, 1, 30, riichi=[KOWALSKI]),
        tsumo(BRENNAN, yakuman=1, note="suuankou tsumo"),
        ron(KOWALSKI, BRENNAN, 3, 40),
        ron(NAKAMURA, BRENNAN, 3, 30),
    ]),
    # Round 2, table 1: a double ron with riichi sticks on the table; the dealer is the second winner.
    Game("R2-T1", (KOWALSKI, TANAKA, NAKAMURA, LINDQVIST), [
        ron(TANAKA, LINDQVIST, 1, 30, riichi=[TANAKA]),
        draw([NAKAMURA, TANAKA], riichi=[NAKAMURA], note="1 stick carried"),
        multi_ron(NAKAMURA, [(TANAKA, 2, 40), (LINDQVIST, 3, 30)], riichi=[LINDQVIST],
                  note="double ron, 2 sticks on the table; Lindqvist is nearest, dealer Tanaka repeats"),
        ron(KOWALSKI, TANAKA, 2, 30),
        tsumo(NAKAMURA, 2, 40, note="dealer tsumo"),
        ron(LINDQVIST, KOWALSKI, 4, 40, riichi=[LINDQVIST], as_seat=["loser"], note="mangan"),
        tsumo(KOWALSKI, 3, 30, as_seat=["winner"]),
        ron(NAKAMURA, TANAKA, 2, 30, riichi=[NAKAMURA, TANAKA], sep=" ", note="space-separated riichi"),
        draw([], note="all noten: next round, honba 1"),
        ron(TANAKA, LINDQVIST, 2, 30, riichi=[TANAKA]),
        ron(KOWALSKI, NAKAMURA, 2, 30),
    ]),
    # Round 2, table 2: daisangen by ron from a third player, with a liable (pao) player.
    Game("R2-T2", (MUELLER, ISHIKAWA, BRENNAN, MOREAU), [
        ron(MUELLER, ISHIKAWA, 3, 30, riichi=[MUELLER], note="dealer ron, repeats"),
        ron(BRENNAN, MOREAU, 3, 40, riichi=[BRENNAN]),
        tsumo(MUELLER, 3, 30),
        ron(BRENNAN, ISHIKAWA, 3, 30, note="dealer ron, repeats"),
        ron(MOREAU, MUELLER, 2, 30, riichi=[MOREAU]),
        ron(ISHIKAWA, MUELLER, yakuman=1, pao=BRENNAN, as_seat=["pao"],
            note="daisangen by ron from Mueller; Brennan (seat 2) fed the third dragon: pao"),
        ron(MUELLER, ISHIKAWA, 3, 30, note="dealer ron, repeats"),
        draw([MOREAU, BRENNAN], riichi=[MOREAU], note="dealer noten: next round, 1 stick carried"),
        ron(MUELLER, ISHIKAWA, 2, 30, riichi=[MUELLER], note="takes the carried stick + own"),
        ron(BRENNAN, ISHIKAWA, 3, 40, note="dealer ron, repeats"),
        ron(MOREAU, BRENNAN, 3, 40),
        tsumo(ISHIKAWA, 2, 30),
    ]),
    # Round 3, table 1: daisuushii by tsumo with a liable (pao) player.
    Game("R3-T1", (LINDQVIST, MUELLER, TANAKA, BRENNAN), [
        ron(TANAKA, LINDQVIST, 2, 30),
        tsumo(MUELLER, 4, 30, riichi=[MUELLER], note="dealer tsumo"),
        tsumo(MUELLER, 2, 20, note="dealer pinfu tsumo at 1 honba"),
        ron(LINDQVIST, MUELLER, 3, 25, riichi=[LINDQVIST], note="riichi chiitoitsu"),
        ron(LINDQVIST, BRENNAN, 3, 30),
        ron(MUELLER, TANAKA, 5),
        tsumo(BRENNAN, yakuman=1, pao=MUELLER, note="daisuushii tsumo; Mueller fed the 4th wind: pao"),
        abort(note="suufon renda"),
        ron(TANAKA, LINDQVIST, 3, 30, riichi=[TANAKA], as_seat=["winner"]),
        ron(BRENNAN, TANAKA, 2, 40),
        tsumo(MUELLER, 3, 30, riichi=[MUELLER, LINDQVIST]),
    ]),
    # Round 3, table 2: plain hands only (no rule-dependent payments); Nakamura and Ishikawa finish level.
    Game("R3-T2", (MOREAU, NAKAMURA, KOWALSKI, ISHIKAWA), [
        ron(NAKAMURA, KOWALSKI, 2, 30),
        tsumo(NAKAMURA, 2, 30, riichi=[NAKAMURA], note="dealer tsumo"),
        ron(ISHIKAWA, NAKAMURA, 3, 30, riichi=[ISHIKAWA]),
        ron(KOWALSKI, MOREAU, 4, 40, riichi=[KOWALSKI], note="dealer mangan"),
        draw([MOREAU, ISHIKAWA], riichi=[MOREAU, ISHIKAWA], note="dealer noten: next round, 2 sticks carried"),
        ron(MOREAU, KOWALSKI, 2, 30, riichi=[MOREAU], note="takes the 2 carried sticks + own"),
        tsumo(ISHIKAWA, 3, 30),
        ron(NAKAMURA, ISHIKAWA, 2, 40, note="dealer ron"),
        ron(KOWALSKI, ISHIKAWA, 1, 40, riichi=[KOWALSKI], note="Nakamura and Ishikawa now level"),
        ron(MOREAU, KOWALSKI, 2, 30),
        ron(MOREAU, KOWALSKI, 1, 30, note="game over: Nakamura and Ishikawa tied for 2nd"),
    ]),
]


# --------------------------------------------------------------------------------------------------
# Flow rules and validation
# --------------------------------------------------------------------------------------------------
def next_state(round_index: int, honba: int, hand: Hand, dealer: str) -> tuple[int, int]:
    """(round, honba) of the next hand under the standard flow rules."""
    if hand.result in ("ron", "tsumo"):
        if any(w.winner == dealer for w in hand.wins):
            return round_index, honba + 1
        return round_index + 1, 0
    if hand.result in ("draw", "nagashi"):
        return (round_index if dealer in hand.tenpai else round_index + 1), honba + 1
    if hand.result == "abort":
        return round_index, honba + 1
    if hand.result == "chombo":
        return round_index, honba
    raise ValueError(hand.result)


def check_hand(game: Game, round_name: str, hand: Hand) -> None:
    where = f"{game.game_id} {round_name} ({hand.result})"
    names = set(game.players)
    refs = [w.winner for w in hand.wins if w.winner] + [w.pao for w in hand.wins if w.pao]
    refs += [hand.loser] if hand.loser else []
    for ref in [*refs, *hand.riichi, *(hand.tenpai or ())]:
        assert ref in names, f"{where}: {ref!r} is not at this table"
    assert len(set(hand.riichi)) == len(hand.riichi), where
    if hand.result in ("draw", "nagashi"):
        assert set(hand.riichi) <= set(hand.tenpai), f"{where}: a riichi player must be tenpai"
    else:
        assert hand.tenpai is None, where
    if hand.result == "ron":
        assert hand.loser and all(w.winner != hand.loser for w in hand.wins), where
        assert len({w.winner for w in hand.wins}) == len(hand.wins) <= 3, where
    if hand.result in ("ron", "tsumo"):
        for w in hand.wins:
            if w.pao:
                assert w.yakuman and w.pao != w.winner and w.pao != hand.loser, where
            if w.yakuman:
                assert w.han is None and w.fu is None, where
                continue
            assert w.han is not None and w.han >= 1, where
            if w.han >= 5:
                assert w.fu is None, f"{where}: leave fu empty at 5+ han"
                continue
            assert w.fu in (20, 25) or (w.fu >= 30 and w.fu % 10 == 0 and w.fu <= 110), where
            assert w.fu != 20 or hand.result == "tsumo", f"{where}: 20 fu is a pinfu tsumo"
            riichi, is_tsumo = w.winner in hand.riichi, hand.result == "tsumo"
            if w.fu in (20, 25):  # pinfu tsumo / chiitoitsu (closed): 2 han, + riichi, + menzen tsumo
                least = 2 + riichi + (is_tsumo and w.fu == 25)
            else:
                least = 1 + (riichi and is_tsumo)  # riichi is itself a yaku; riichi + tsumo is 2
            assert w.han >= least, f"{where}: at least {least} han"
    if hand.result == "nagashi":
        assert hand.wins[0].winner not in hand.riichi, f"{where}: a riichi player cannot call nagashi"
    if hand.result == "chombo":
        assert hand.loser and not hand.riichi, where


def turn_distance(players: tuple[str, ...], frm: str, to: str) -> int:
    return (players.index(to) - players.index(frm)) % 4


def game_rows(game: Game) -> list[dict]:
    """One dict per row, with round and honba derived from the flow rules."""
    rows: list[dict] = []
    round_index, honba = 0, 0
    for number, hand in enumerate(game.hands):
        assert round_index < len(ROUNDS), f"{game.game_id}: hand {number} after the end of S4"
        round_name = ROUNDS[round_index]
        dealer = game.players[round_index % 4]
        check_hand(game, round_name, hand)
        wins = hand.wins
        if hand.result == "ron":  # nearest winner from the discarder in turn order first
            wins = sorted(wins, key=lambda w: turn_distance(game.players, hand.loser, w.winner))
        for win in wins or [None]:
            def ref(column: str, name: str | None) -> str | None:
                if name and win is not None and column in win.as_seat:
                    return str(game.players.index(name))
                return name or None

            rows.append({
                "game_id": game.game_id,
                "round": round_name,
                "honba": honba,
                **{f"player_{s}": p for s, p in enumerate(game.players)},
                "result": hand.result,
                "winner": ref("winner", win.winner if win else None),
                "loser": ref("loser", hand.loser),
                "riichi": list(hand.riichi),
                "tenpai": list(hand.tenpai) if hand.tenpai is not None else None,
                "han": win.han if win else None,
                "fu": win.fu if win else None,
                "yakuman": win.yakuman if win else None,
                "pao": ref("pao", win.pao if win else None),
                "rules": RULES,
                "_riichi_sep": hand.riichi_sep,
                "_note": hand.note,
            })  # fmt: skip
        round_index, honba = next_state(round_index, honba, hand, dealer)
    assert round_index == len(ROUNDS), f"{game.game_id}: the game stops in {ROUNDS[round_index]}, not after S4"
    assert 8 <= len(rows) <= 14, f"{game.game_id}: {len(rows)} rows"
    return rows


# --------------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------------
SCHEMA = {
    "game_id": pl.String,
    "round": pl.String,
    "honba": pl.Int64,
    **{f"player_{s}": pl.String for s in range(4)},
    "result": pl.String,
    "winner": pl.String,
    "loser": pl.String,
    "riichi": pl.List(pl.String),
    "tenpai": pl.List(pl.String),
    "han": pl.Int64,
    "fu": pl.Int64,
    "yakuman": pl.Int64,
    "pao": pl.String,
    "rules": pl.String,
}


def write(rows_by_round: dict[int, list[dict]]) -> None:
    (OUT / "csv").mkdir(parents=True, exist_ok=True)
    (OUT / "parquet").mkdir(parents=True, exist_ok=True)
    for tournament_round, rows in rows_by_round.items():
        frame = pl.DataFrame([{c: r[c] for c in COLUMNS} for r in rows], schema=SCHEMA)
        frame.write_parquet(OUT / "parquet" / f"round{tournament_round}.parquet")
        # CSV: lists joined by commas (a space in the rows that ask for it); empty list -> empty field.
        csv = frame.with_columns(
            pl.Series("riichi", [r["_riichi_sep"].join(r["riichi"]) or None for r in rows], pl.String),
            pl.Series("tenpai", [",".join(r["tenpai"] or []) or None for r in rows], pl.String),
        )
        csv.write_csv(OUT / "csv" / f"round{tournament_round}.csv")


# --------------------------------------------------------------------------------------------------
# Rough scores (sanity check only)
# --------------------------------------------------------------------------------------------------
def _ceil100(x: int) -> int:
    return (x + 99) // 100 * 100


def _base(win: Win) -> int:
    if win.yakuman:
        return 8000 * win.yakuman
    if win.han >= 5:
        return {5: 2000, 6: 3000, 7: 3000, 8: 4000, 9: 4000, 10: 4000, 11: 6000, 12: 6000}.get(win.han, 8000)
    return min(win.fu * 2 ** (win.han + 2), 2000)


def rough_scores(game: Game) -> tuple[dict[str, int], int, int]:
    """Final scores (leftover sticks to first), lowest score seen, sticks left at the end."""
    score = {p: 25000 for p in game.players}
    low = 25000
    sticks = 0
    round_index, honba = 0, 0
    for hand in game.hands:
        dealer = game.players[round_index % 4]
        for p in hand.riichi:
            score[p] -= 1000
            sticks += 1
        if hand.result == "ron":
            wins = sorted(hand.wins, key=lambda w: turn_distance(game.players, hand.loser, w.winner))
            for i, w in enumerate(wins):
                pay = _ceil100(_base(w) * (6 if w.winner == dealer else 4)) + (300 * honba if i == 0 else 0)
                if w.pao:  # split with the liable player
                    score[hand.loser] -= pay // 2
                    score[w.pao] -= pay - pay // 2
                else:
                    score[hand.loser] -= pay
                score[w.winner] += pay + (1000 * sticks if i == 0 else 0)
            sticks = 0
        elif hand.result in ("tsumo", "nagashi"):
            w = hand.wins[0]
            base = _base(w) if hand.result == "tsumo" else 2000
            extra = 100 * honba if hand.result == "tsumo" else 0
            for p in game.players:
                if p != w.winner:
                    pay = _ceil100(base * (2 if dealer in (p, w.winner) else 1)) + extra
                    score[w.pao or p] -= pay
                    score[w.winner] += pay
            if hand.result == "tsumo":
                score[w.winner] += 1000 * sticks
                sticks = 0
        elif hand.result == "draw" and 0 < len(hand.tenpai) < 4:
            for p in game.players:
                score[p] += 3000 // len(hand.tenpai) if p in hand.tenpai else -3000 // (4 - len(hand.tenpai))
        elif hand.result == "chombo":
            for p in game.players:
                if p != hand.loser:
                    pay = 4000 if dealer in (p, hand.loser) else 2000
                    score[p] += pay
                    score[hand.loser] -= pay
        low = min(low, *score.values())
        round_index, honba = next_state(round_index, honba, hand, dealer)
    first = max(game.players, key=lambda p: (score[p], -game.players.index(p)))
    score[first] += 1000 * sticks
    assert sum(score.values()) == 100000, game.game_id
    return score, low, sticks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="print rough final scores and the row notes")
    args = parser.parse_args()
    rows_by_round: dict[int, list[dict]] = {}
    for game in GAMES:
        rows_by_round.setdefault(int(game.game_id[1]), []).extend(game_rows(game))
    write(rows_by_round)
    for tournament_round, rows in rows_by_round.items():
        print(f"round{tournament_round}: {len(rows)} rows")
    if args.check:
        for game in GAMES:
            score, low, sticks = rough_scores(game)
            print(f"\n{game.game_id}: " + ", ".join(f"{p} {s}" for p, s in score.items())
                  + f"  (lowest during the game {low}, sticks left {sticks})")  # fmt: skip
            for r in game_rows(game):
                if r["_note"]:
                    print(f"  {r['round']}-{r['honba']} {r['result']:7} {r['_note']}")


if __name__ == "__main__":
    main()
