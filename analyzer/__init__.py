"""analyzer: batch scoring of Riichi mahjong hand records.

>>> import analyzer
>>> result = analyzer.score(analyzer.load("sample_logs/csv"), rules="ema")
>>> result.players.head()
"""

from analyzer.io.load import InputError, load
from analyzer.io.write import write_results, write_table
from analyzer.pipeline import ScoreResult, score
from analyzer.rules import Rules, RulesError, from_toml, load_rules, preset, preset_names

__all__ = [
    "InputError",
    "Rules",
    "RulesError",
    "ScoreResult",
    "from_toml",
    "load",
    "load_rules",
    "preset",
    "preset_names",
    "score",
    "write_results",
    "write_table",
]
