"""Importers turning recorded game logs into hand records (see :mod:`analyzer.core.schema`)."""

from analyzer.formats.model import ImportProblem
from analyzer.formats.read import read_majsoul, read_mjai, read_riichicity, read_tenhou

__all__ = ["ImportProblem", "read_majsoul", "read_mjai", "read_riichicity", "read_tenhou"]
