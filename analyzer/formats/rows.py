"""A game of the model (:mod:`.model`) into its outcome rows (the columns of :mod:`.columns`, but the game id
and start time, which the reader adds per game): one replay per hand (:mod:`.replay`), the winner's hand,
melds and flags, the deltas with the riichi deposits, the tenpai at a draw."""

from __future__ import annotations

from analyzer.formats.hand_shape import is_tenpai
from analyzer.formats.identity import identity_columns
from analyzer.formats.tenhou.lobby import lobby_rules
from analyzer.formats.model import Game, Kyoku, LogError, Note, wall_draws
from analyzer.formats.replay import Replay, replay
from analyzer.formats.rules_spec import rules_spec, settlement
from analyzer.formats.tile_text import indicators_str, meld_str, tile_str, tiles_str


ANONYMOUS = "NoName"


def _names(names: list[str]) -> list[str]:
    out: list[str] = []
    for n in names:
        n = n.strip() or ANONYMOUS
        if n in out:
            i = 2
            while f"{n} ({i})" in out or f"{n} ({i})" in names:
                i += 1
            n = f"{n} ({i})"
        out.append(n)
    return out


def seat_names(names: list[str]) -> list[str]:
    """The players' names as the hand records write them: a blank name is NoName, a repeated one numbered."""
    return _names(names)


def _seats(seats) -> list[str]:
    return [str(s) for s in seats]


def game_rows(game: Game) -> list[dict]:
    """All outcome rows of a game (without game_id)."""
    names = _names(game.names)
    if game.players == 3:  # seat 3 is empty: no name, no deltas, no per-seat facts
        names[3] = None
    common = {f"player_{s}": names[s] for s in range(4)}
    settled = settlement(game)
    common |= {"rules": game.rules or rules_spec(game, settled), "game_length": game.game_length, "lobby": game.lobby,
               "room": game.room}
    rank_notes: list[str] = []
    common |= identity_columns(game.dan, game.rate, rank_notes, game.players, game.ranks)
    game.notes.extend(Note(text) for text in rank_notes)
    common["log_file"] = game.file
    rows: list[dict] = []
    for n, k in enumerate(game.kyokus):
        if not k.outcomes:
            raise LogError(f"hand {n + 1} ({k.round}) has no result")
        try:
            rows.extend(common | r | {"log_row": n + 1} for r in _kyoku_rows(game, k, n + 1))
        except LogError as exc:
            raise LogError(f"hand {n + 1} ({k.round}-{k.honba}): {exc}") from None
    lobby = lobby_rules(game)
    if lobby.note is not None:
        game.notes.append(Note(lobby.note))
    if rows:  # the game's last row: its result, and what is said once about the game
        rows[-1] |= {"settlement": settled.note, "rules_note": lobby.note}
    if rows and game.final_scores is not None:
        for s in range(game.players):
            rows[-1][f"recorded_final_{s}"] = game.final_scores[s]
            rows[-1][f"recorded_game_points_{s}"] = game.final_points[s] if game.final_points else None
            rows[-1][f"recorded_chips_{s}"] = game.final_chips[s] if game.final_chips else None
            rows[-1][f"recorded_rank_points_{s}"] = game.rank_points[s] if game.rank_points else None
    if rows:
        rows[0]["played_at"] = game.started_at  # read by the driver with the game id (.tenhou)
    return rows


def _kyoku_rows(game: Game, k: Kyoku, hand_no: int) -> list[dict]:
    rp: Replay = replay(k)
    riichi = _seats(rp.riichi)
    base = {"round": k.round, "honba": k.honba, "kyotaku": k.kyotaku, "riichi": riichi, "turn": rp.turn}
    for s in range(k.players):
        base |= {f"riichi_turn_{s}": rp.riichi_turn[s], f"calls_{s}": rp.calls[s], f"open_{s}": rp.opened[s]}
    rows: list[dict] = []
    outcomes = list(k.outcomes)
    if outcomes[0].result == "ron":
        loser = outcomes[0].loser
        outcomes.sort(key=lambda o: (o.winner - loser) % 4)
    for o in outcomes:
        row = dict(base, result=o.result)
        deltas = list(o.deltas)
        if o.result in ("ron", "tsumo"):
            _win_row(game, k, rp, o, row, hand_no)
        elif o.result == "nagashi":
            winners = [s for s in rp.nagashi if o.deltas[s] > 0] or rp.nagashi
            if not winners:
                raise LogError("nagashi mangan recorded but no seat discarded only terminals and honours")
            row["tenpai"] = _seats(o.tenpai) if o.tenpai is not None else _tenpai_from_hands(rp)
            for i, w in enumerate(winners):
                r = dict(row, winner=str(w), recorded_points=o.deltas[w])
                r["dora"] = indicators_str(rp.dora)
                r |= _delta_cols(o.deltas if i == 0 else [0, 0, 0, 0], rp.riichi if not rows and i == 0 else [],
                                 k.players)
                rows.append(r)
            continue
        else:
            row["dora"] = indicators_str(rp.dora)
            if o.result == "draw":
                if rp.draws != wall_draws(k.players):
                    raise LogError(f"exhaustive draw after {rp.draws} draws (expected {wall_draws(k.players)})")
                if o.tenpai is not None:
                    row["tenpai"] = _seats(o.tenpai)
                elif o.all_tenpai is not None:
                    row["tenpai"] = _seats(range(k.players)) if o.all_tenpai else []
                elif any(deltas):
                    row["tenpai"] = _seats(s for s in range(k.players) if deltas[s] > 0)
                else:
                    row["tenpai"] = _tenpai_from_hands(rp)
        row |= _delta_cols(deltas, rp.riichi if not rows else [], k.players)
        rows.append(row)
    return rows


def _tenpai_from_hands(rp: Replay) -> list[str]:
    return _seats(s for s in range(4) if s in rp.riichi or is_tenpai(rp.concealed[s], rp.melds[s]))


def _delta_cols(deltas: list[int], riichi: list[int], players: int = 4) -> dict:
    return {f"recorded_delta_{s}": deltas[s] - 1000 * riichi.count(s) for s in range(players)}


def _win_row(game: Game, k: Kyoku, rp: Replay, o, row: dict, hand_no: int) -> None:
    w = o.winner
    win_tile = rp.win_tiles[w]
    hand = list(rp.concealed[w]) + ([win_tile] if o.result == "ron" else [])
    if o.hand is not None and sorted(o.hand) != sorted(hand):
        raise LogError(f"replayed winning hand {tiles_str(hand)} differs from the recorded {tiles_str(o.hand)}")
    if o.win_tile is not None and o.win_tile != win_tile:
        raise LogError(f"replayed winning tile {tile_str(win_tile)} differs from the recorded {tile_str(o.win_tile)}")
    if o.melds is not None and _meld_set(o.melds) != _meld_set(rp.melds[w]):
        raise LogError("replayed melds of the winner differ from the recorded ones")
    if k.players == 3 and o.kita and o.kita != rp.kita[w]:
        raise LogError(f"replayed norths set aside ({rp.kita[w]}) differ from the recorded {o.kita}")
    for name in o.yaku:
        if name.startswith("unknown:"):
            game.notes.append(Note(f"{k.round}-{k.honba}: unrecognised yaku name {name[8:]!r} kept as {name!r}",
                                   hand_no))
    row |= {
        "winner": str(w),
        "loser": None if o.loser is None else str(o.loser),
        "pao": None if o.pao is None else str(o.pao),
        "hand": tiles_str(hand),
        "melds": [meld_str(mk, tiles) for mk, tiles in rp.melds[w]],
        "win_tile": tile_str(win_tile),
        "kita": rp.kita[w] if k.players == 3 else None,
        "dora": indicators_str(o.dora_indicators if o.dora_indicators is not None else rp.dora),
        "ura": indicators_str(o.ura_indicators) if o.ura_indicators and w in rp.riichi else None,
        **rp.flags[w],
    }
    if o.has_value:
        row |= {
            "recorded_han": o.han,
            "recorded_fu": o.fu,
            "recorded_points": o.points,
            "recorded_limit": o.limit,
            "recorded_yaku": list(o.yaku),
            "recorded_dora": o.dora,
            "recorded_ura_dora": o.ura,
            "recorded_aka_dora": o.aka,
            "recorded_yakuman": o.yakuman,
        }


def _meld_set(melds: list[tuple[str, list[int]]]) -> list[tuple[str, list[int]]]:
    return sorted((mk, sorted(tiles)) for mk, tiles in melds)


def red_fives(hand: str | None, melds: list[str] | None) -> int:
    """Number of red fives in a row's hand and melds (MPSZ ``0``)."""
    text = (hand or "") + "".join(m.split(":", 1)[1] for m in melds or [])
    return text.count("0")
