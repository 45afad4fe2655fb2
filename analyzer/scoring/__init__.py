"""Scoring stages: each is a ``LazyFrame -> LazyFrame`` (or ``-> Expr``) function composed with ``pipe``."""
