"""The ruleset spec of an imported game (the ``rules`` column, read by :func:`analyzer.rules.from_spec`): what
its log shows of Tenhou's rules, or of Mahjong Soul's for a Mahjong Soul game (:mod:`.majsoul`)."""

from __future__ import annotations

from analyzer.importers.model import Game

TENHOU_UMA = (20, 10, -10, -20)
TENHOU_START = 25_000
TENHOU_START_3P = 35_000
MAJSOUL_UMA = {4: (15, 5, -5, -15), 3: (15, 0, -15)}  # the majsoul and majsoul_sanma presets


def _thousands(score: int) -> int:
    """Tenhou's rounding of a final score to thousands: a remainder of 500 goes away from zero."""
    return (1 if score >= 0 else -1) * ((abs(score) + 500) // 1000)


def _logged_uma(game: Game) -> tuple[float, float, float, float] | None:
    """The uma the log's own result shows: places 2-4 paid (score to thousands) - 30 + uma, so each uma is the
    recorded points minus that; first place is the mirror of last (the symmetric sets Tenhou has used)."""
    if not game.final_scores or not game.final_points:
        return None
    order = sorted(range(4), key=lambda s: (-game.final_scores[s], s))
    uma = [round(game.final_points[s] - (_thousands(game.final_scores[s]) - 30), 1) for s in order[1:]]
    return (-uma[2], *uma)


def _majsoul_uma(game: Game, start: int) -> tuple[float, ...] | None:
    """Mahjong Soul's game points are (final - start)/1000 + uma, no oka: each place's uma is what the recorded
    points add to that (a tournament's or a friendly room's own uma, the room's settings not being in the log)."""
    if not game.final_scores or not game.final_points:
        return None
    seats = range(game.players)
    order = sorted(seats, key=lambda s: (-game.final_scores[s], s))  # ties by seat, as Mahjong Soul ranks them
    return tuple(round(game.final_points[s] - (game.final_scores[s] - start) / 1000, 1) + 0.0 for s in order)


def rules_spec(game: Game) -> str:
    """The ruleset spec of a game from what its log says: red fives, open tanyao, game length, the starting
    points of its first hand, and the uma and game-point rounding its recorded result shows (whole numbers up
    to 2020, tenths in newer logs)."""
    majsoul = game.platform == "majsoul"
    spec = ("majsoul" if majsoul else "tenhou") + ("" if game.players == 4 else "_sanma")
    if not game.aka:
        spec += ";aka_dora=false"
    if not game.kuitan:
        spec += ";open_tanyao=false"
    if game.game_length == "tonpuu":
        spec += ";game_length=east"
    first = game.kyokus[0] if game.kyokus else None
    start = TENHOU_START if game.players == 4 else TENHOU_START_3P
    scores = first.scores[: game.players] if first is not None else []
    if first is not None and (first.kyoku, first.honba, first.kyotaku) == (0, 0, 0) and len(set(scores)) == 1 \
            and scores[0] != start:  # the first INIT's scores: what the game started from
        start = scores[0]
        # Mahjong Soul counts game points from the start (no oka), whatever it is
        spec += f";start_points={start}" + (f";return_points={start}" if majsoul else "")
    if majsoul:  # game points to 0.1 as the preset has them; the uma the result shows when it is not the preset's
        uma = _majsoul_uma(game, start)
        if uma is not None and uma != MAJSOUL_UMA[game.players]:
            spec += ";uma=" + "/".join(f"{u:g}" for u in uma)
        if game.tsumo_loss == "split":
            spec += ";tsumo_loss=split"
    elif game.final_points and any(p != round(p) for p in game.final_points):
        spec += ";game_points_rounding=tenth"
    elif game.players == 4:
        uma = _logged_uma(game)
        if uma is not None and uma != TENHOU_UMA and uma[1:] in {(5, -5, -10), (10, -10, -20), (15, -15, -30)}:
            spec += ";uma=" + "/".join(f"{u:g}" for u in uma)
    return spec
