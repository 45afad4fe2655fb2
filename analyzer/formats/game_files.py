"""Per-game exports (mjai JSON lines, tenhou.net/6 JSON): each game converted in the export workers into the
text of its file, which the runner writes into the output directory.

The converters are :func:`analyzer.formats.mjai.write.game_to_mjai` (a game into its mjai events) and
:func:`analyzer.formats.tenhou.tenhou6_write.game_to_tenhou6` (a game into its tenhou.net/6 object); this module only
turns their values into text and reports a game they cannot convert like a file that does not read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from analyzer.formats.mjai.write import events_text, game_to_mjai
from analyzer.formats.export_run import read_game
from analyzer.formats.tenhou.tenhou6_write import game_to_tenhou6
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES
from analyzer.formats.model import Game, LogError

SUFFIXES = {"mjai": ".mjai.jsonl", "tenhou6": ".json"}  # format name -> the suffix of each game's file


def mjai_text(game: Game) -> str:
    """A game as mjai JSON lines: one event a line, as Mortal and mjai-reviewer read them."""
    return events_text(game_to_mjai(game))


def tenhou6_text(game: Game) -> str:
    """A game as one tenhou.net/6 JSON object."""
    return json.dumps(game_to_tenhou6(game), ensure_ascii=False, separators=(",", ":")) + "\n"


TEXTS: dict[str, Callable[[Game], str]] = {"mjai": mjai_text, "tenhou6": tenhou6_text}


def games_batch(files: list[Path], to_text: Callable[[Game], str], max_bytes: int = DEFAULT_MAX_LOG_BYTES):
    """Per file (game id, digest, 1, notes, error) and the text of each file's game (None where none)."""
    outcomes, texts = [], []
    for f in files:
        game, gid, digest, error = read_game(f, max_bytes)
        text = None
        if game is not None:
            try:
                text = to_text(game)
            except LogError as exc:
                error = str(exc)
            except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
                error = f"cannot export ({type(exc).__name__}: {str(exc)[:200]})"
        if error is not None:
            outcomes.append((gid, digest, 0, [], error))
        else:
            outcomes.append((gid, digest, 1, [tuple(note) for note in game.notes], None))
        texts.append(text)
    return outcomes, texts
