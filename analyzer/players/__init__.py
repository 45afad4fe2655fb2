"""Per-player totals and statistics (moved into a package; split by topic in the next commit)."""

from analyzer.players.sums import *  # noqa: F401,F403
from analyzer.players.sums import (  # noqa: F401
    _arg_max, _at_seat, _best, _bounds, _chasing, _flag, _game_ids, _hand_facts, _inputs, _int, _per_seat_sums,
    _seat_rows, PLAYER_COLUMNS,
)
