"""Importers turning recorded game logs into hand records (see :mod:`analyzer.schema`)."""

from analyzer.importers.model import ImportProblem
from analyzer.importers.tenhou import read_majsoul, read_mjai, read_tenhou

__all__ = ["ImportProblem", "read_majsoul", "read_mjai", "read_tenhou"]
