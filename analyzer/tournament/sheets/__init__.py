"""Game-level result sheets: one row per player per game, the second kind of input beside hand records.

A tournament's sheet records each table's final scores (``game_id``, ``player``, ``final_score``; optionally
``session``, ``table``, ``seat``, ``chombo``, ``penalty``, ``team``, ``leftover_sticks`` and the recorded
``recorded_place`` / ``recorded_points``, only compared: an unreadable one is a finding, not a reject).
:func:`score_sheet` reads one partition's sheet rows (:mod:`.read`), gives each game its ruleset and checks
that each table can be settled (:mod:`.tables`), and settles the games by the rules (:mod:`.settle`): their
rows join the games of hand records in the ``games`` table, and their players the ``players`` table, through
the same run.
"""

from analyzer.tournament.sheets.part import SheetPart, score_sheet
from analyzer.tournament.sheets.read import COMPARED, UNREADABLE
from analyzer.tournament.sheets.settle import GAMES_COLUMNS, games_columns

__all__ = ["COMPARED", "GAMES_COLUMNS", "SheetPart", "UNREADABLE", "games_columns", "score_sheet"]
