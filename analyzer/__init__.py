"""analyzer: batch scoring of Riichi mahjong hand records.

>>> import analyzer
>>> result = analyzer.score(analyzer.load("sample_logs/csv"), rules="ema")
>>> result.players.head()
"""

from analyzer.allocator import tune_for_batch

tune_for_batch()  # before anything below loads Polars

from analyzer.api import check, score, score_to
from analyzer.formats.export import export_events, export_mjai, export_tenhou6
from analyzer.formats.mjai.write import game_to_mjai
from analyzer.formats.tenhou.tenhou6_write import game_to_tenhou6
from analyzer.formats import read_majsoul, read_mjai, read_tenhou
from analyzer.io.load import InputError, load
from analyzer.io.write import write_results, write_table
from analyzer.jobs import CheckResult, RunSummary, ScoreResult
from analyzer.ratings import RatingOptions
from analyzer.core.rules import Rules, RulesError, from_toml, load_rules, preset, preset_names
from analyzer.run import DaskExecutor, LocalExecutor

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
    "load",
    "load_rules",
    "preset",
    "preset_names",
    "read_majsoul",
    "read_mjai",
    "read_tenhou",
    "score",
    "score_to",
    "write_results",
    "write_table",
]
