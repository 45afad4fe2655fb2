"""The rating options of ``score`` and ``report`` (:mod:`analyzer.ratings`): ``--ratings``, ``--ratings-from``,
``--rating-start``, ``--rating-scale``, read into one :class:`~analyzer.ratings.RatingOptions` by
:func:`rating_choice` inside the command (so that a bad earlier table is a one-line error)."""

from __future__ import annotations

import click

from analyzer.ratings import SYSTEMS, RatingOptions
from analyzer.ratings.tenhou import SCALE, START


def rating_options(command):
    for decorator in reversed([
        click.option("--ratings", type=click.Choice(SYSTEMS), default="tenhou", show_default=True,
                     help="Rating computed over the games in their order (played_at, else date, else session, "
                          "else input order): Tenhou's R, openskill (Plackett-Luce, mu - 3 sigma), or none. "
                          "Four- and three-player ratings are kept apart. See docs/ratings.md."),
        click.option("--ratings-from", type=click.Path(dir_okay=False, exists=True), default=None, metavar="FILE",
                     help="An earlier run's players table (players.parquet or .csv): each player starts from "
                          "the rating and games counted there (carrying a season on)."),
        click.option("--rating-start", type=float, default=START, show_default=True,
                     help="Tenhou R of a player's first game."),
        click.option("--rating-scale", type=click.FloatRange(min=0, min_open=True), default=SCALE,
                     show_default=True, help="Tenhou R: the divisor of the table's average R minus the player's."),
    ]):
        command = decorator(command)
    return command


def rating_choice(ratings: str, ratings_from: str | None, rating_start: float, rating_scale: float) -> RatingOptions:
    """The options given, as :class:`RatingOptions` (the earlier players table read and checked)."""
    return RatingOptions.of(ratings, ratings_from, rating_start, rating_scale)
