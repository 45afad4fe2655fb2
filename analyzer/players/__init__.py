"""Per-player totals and statistics across all games, from mergeable partial aggregates.

Games are independent, so the players table is built in two steps that work on any split of the games into
parts (partitions of whole games, or workers of a cluster):

* ``player_partials(hands, games)``: one row per player of the part, every column a count, a sum or another
  aggregate that merges across parts by the rule in :data:`MERGE` (``sum``, ``max``, ``arg_max:KEY`` for a
  value carried along with the largest ``KEY``, ``count_map`` for the yaku counts);
* ``combine_partials(partials)``: the partial rows of many parts merged into one row per player;
* ``finalize_players(partials)``: the published columns (rates and averages from the merged sums, ``rank``)
  and ``finalize_yaku_stats(partials)`` the long yaku table.

``player_stats(hands, games)`` is the three in one, for a single part. Sums of game points are kept in
millionths of a point as integers, so a total does not depend on the order the parts are added in.

The modules, in the order the data flows through them: :mod:`.columns` (what a partial row holds and how each
column merges), :mod:`.seats` (seat masks), :mod:`.facts` (facts of each hand, per-seat inputs), :mod:`.best`
(hand keys of the best win and worst deal-in), :mod:`.sums` (a part's sums over its hand rows, the costly
step), :mod:`.play` (the play statistics' sums, from the events of the part's games where they are given:
``player_partials(hands, games, events=…)``), :mod:`.partials` (a part's partial rows), :mod:`.merge`
(merging them) and :mod:`.publish` (the published tables). A statistic whose input columns are missing
(``riichi_turn_0..3``, ``calls_0..3``, ``open_0..3``, ``turn``; the events) is null, never 0.
"""

from analyzer.players.columns import BEST, LIMIT_BUCKETS, MERGE, PARTIAL_COLUMNS
from analyzer.players.facts import NEEDS
from analyzer.players.merge import combine_partials
from analyzer.players.partials import game_partials, player_partials
from analyzer.players.publish import (
    DEFAULT_RANK_BY, PLAYER_COLUMNS_OUT, RANK_KEYS, YAKU_STATS_COLUMNS, finalize_players, finalize_yaku_stats,
    player_stats, rank_expr, rank_players, yaku_stats_from_hands,
)
from analyzer.players.sums import AMOUNT_SUMS, COUNT_SUMS

__all__ = [
    "AMOUNT_SUMS", "BEST", "COUNT_SUMS", "DEFAULT_RANK_BY", "LIMIT_BUCKETS", "MERGE", "NEEDS", "PARTIAL_COLUMNS",
    "PLAYER_COLUMNS_OUT", "RANK_KEYS", "YAKU_STATS_COLUMNS", "combine_partials", "finalize_players", "game_partials",
    "finalize_yaku_stats", "player_partials", "player_stats", "rank_expr", "rank_players", "yaku_stats_from_hands",
]
