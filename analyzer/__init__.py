"""analyzer: batch scoring of Riichi mahjong hand records.

>>> import analyzer
>>> result = analyzer.score(analyzer.load("sample_logs/csv"), rules="ema")
>>> result.players.head()
"""

from analyzer.allocator import tune_for_batch
from analyzer.core.startup import hold_start, keep_ignoring

tune_for_batch()  # before anything below loads Polars
hold_start()  # Ctrl-C while the command line loads: exit 130, no traceback

from analyzer.api import check, score, score_to
from analyzer.formats.export import export_events, export_mjai, export_tenhou6
from analyzer.formats.mjai.write import game_to_mjai
from analyzer.formats.tenhou.tenhou6_write import game_to_tenhou6
from analyzer.formats import read_majsoul, read_mjai, read_riichicity, read_tenhou
from analyzer.io.load import InputError, load
from analyzer.io.write import write_results, write_table
from analyzer.jobs import CheckResult, RunSummary, ScoreResult
from analyzer.play.seats import hand_seats
from analyzer.ratings import RatingOptions
from analyzer.core.rules import Rules, RulesError, from_toml, load_rules, preset, preset_names
from analyzer.run import DaskExecutor, LocalExecutor

keep_ignoring()  # Polars, loaded above, set a SIGINT handler: a process that ignored SIGINT ignores it still

__all__ = [
    "CheckResult",
    "DaskExecutor",
    "InputError",
    "LocalExecutor",
    "RatingOptions",
    "Rules",
    "RulesError",
    "RunSummary",
    "ScoreResult",
    "check",
    "export_events",
    "export_mjai",
    "export_tenhou6",
    "from_toml",
    "game_to_mjai",
    "game_to_tenhou6",
    "hand_seats",
    "load",
    "load_rules",
    "preset",
    "preset_names",
    "read_majsoul",
    "read_mjai",
    "read_riichicity",
    "read_tenhou",
    "score",
    "score_to",
    "write_results",
    "write_table",
]
