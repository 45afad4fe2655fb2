"""analyzer: batch scoring of Riichi mahjong hand records.

>>> import analyzer
>>> result = analyzer.score(analyzer.load("sample_logs/csv"), rules="ema")
>>> result.players.head()
"""

from analyzer.allocator import tune_for_batch

tune_for_batch()  # before anything below loads Polars

from analyzer.api import check, score, score_to
from analyzer.importers import read_mjai, read_tenhou
from analyzer.io.load import InputError, load
from analyzer.io.write import write_results, write_table
from analyzer.jobs import CheckResult, RunSummary, ScoreResult
from analyzer.ratings import RatingOptions
from analyzer.rules import Rules, RulesError, from_toml, load_rules, preset, preset_names
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
    "from_toml",
    "load",
    "load_rules",
    "preset",
    "preset_names",
    "read_mjai",
    "read_tenhou",
    "score",
    "score_to",
    "write_results",
    "write_table",
]
