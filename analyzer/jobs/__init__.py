"""The jobs a run can do: score hand records, or score and check them (see :mod:`analyzer.run.job`)."""

from analyzer.jobs.check import CheckJob, CheckResult
from analyzer.jobs.score import RunSummary, ScoreJob, ScoreResult

__all__ = ["CheckJob", "CheckResult", "RunSummary", "ScoreJob", "ScoreResult"]
