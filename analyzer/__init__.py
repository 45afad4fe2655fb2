"""analyzer: batch scoring of Riichi mahjong hand records.

>>> import analyzer
>>> result = analyzer.score(analyzer.load("sample_logs/csv"), rules="ema")
>>> result.players.head()
"""

from analyzer.allocator import tune_for_batch

tune_for_batch()  # before anything below loads Polars

from analyzer.check import CheckResult, check
from analyzer.importers import read_mjai, read_tenhou
from analyzer.io.load import InputError, load
from analyzer.io.write import write_results, write_table
from analyzer.pipeline import RunSummary, ScoreResult, score, score_to
from analyzer.rules import Rules, RulesError, from_toml, load_rules, preset, preset_names

__all__ = [
    "CheckResult",
    "InputError",
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
