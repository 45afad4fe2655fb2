"""Where a row can be found: the log file and hand it was recorded in (or the input file and row), and the
tenhou.net viewer's address of a Tenhou log id, at one of its hands.

A Tenhou log id (:data:`analyzer.formats.identity.TENHOU_LOG_ID`) opens in the tenhou.net viewer
(``https://tenhou.net/0/?log=<id>``), and ``&ts=N`` opens the log at its hand N counted from 0 (an imported
row's ``log_row`` - 1). Other game ids (``log-`` and a hash of the content, Mahjong Soul's record ids
``YYMMDD-uuid``) have no viewer address here: pages show them as they are.
"""

from __future__ import annotations

from urllib.parse import quote

import polars as pl

from analyzer.formats.identity import TENHOU_LOG_ID

TENHOU_VIEWER = "https://tenhou.net/0/?log="


def where_recorded(log_file: str = "log_file", log_row: str = "log_row", source_file: str = "source_file",
                   source_row: str = "source_row") -> pl.Expr:
    """Where a row was recorded, as text: the log file and the hand in it (``logs/g.mjlog hand 3``) for rows
    imported from logs, else the input file and row (``sheet.csv:12``)."""
    return pl.coalesce(
        pl.format("{} hand {}", log_file, log_row), pl.col(log_file),
        pl.format("{}:{}", source_file, source_row), pl.col(source_file),
    )


def tenhou_url(game_id: str | None, log_row: int | None = None) -> str | None:
    """The tenhou.net viewer's address of a Tenhou log id (``2019010100gm-00a9-0000-4f2a8622``), at hand
    ``log_row`` (from 1) when given; None for any other id."""
    if not TENHOU_LOG_ID.fullmatch(game_id or ""):
        return None
    url = TENHOU_VIEWER + quote(game_id, safe="-")
    return url if log_row is None or log_row < 1 else f"{url}&ts={log_row - 1}"


def tenhou_url_expr(game_id: pl.Expr, log_row: pl.Expr | None = None) -> pl.Expr:
    """:func:`tenhou_url` as an expression: the address where ``game_id`` is a Tenhou log id, else null."""
    url = pl.lit(TENHOU_VIEWER) + game_id
    if log_row is not None:
        hand = log_row.cast(pl.Int64, strict=False)
        url = pl.when(hand >= 1).then(url + pl.lit("&ts=") + (hand - 1).cast(pl.String)).otherwise(url)
    return pl.when(game_id.str.contains(f"^{TENHOU_LOG_ID.pattern}$")).then(url).otherwise(pl.lit(None, pl.String))
