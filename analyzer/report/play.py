"""How the players play, on the report: the table's shanten by turn (a chart for every seat of the games shown)
and a "play" block in each player's section (riichi: first, chasing, chased, waits, good shape, furiten;
deal-ins by shanten; all-last), from the events table (``docs/outputs.md#events``) and the players table's
play statistics (:data:`analyzer.report.glossary.PLAY_GROUPS`).

The events are an optional input of the page (:func:`events_table`): a frame, or the Parquet file that
``analyzer export events`` writes; without them the page has no shanten chart and no split of deal-ins by
shanten. A player's block needs the play statistics: a score sheet's players table has them null (its rows
have no events), and its page stays as it was. Everything here is an aggregate of the events (a group-by over
discards; a join of the deal-ins to the tile dealt in): only those small tables are collected.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import polars as pl

from analyzer.io.errors import InputError
from analyzer.report.glossary import PLAY_GROUPS
from analyzer.report.players import figure_boxes
from analyzer.report.svg import bar_chart, legend, line_chart, stacked_shares
from analyzer.report.tables import columns

# what the page reads of the events table
EVENT_COLUMNS = ("game_id", "log_row", "seq", "turn", "seat", "player", "event", "from_seat", "shanten")
HAND = ("game_id", "log_row")
BANDS = ("tenpai", "1-shanten", "2-shanten", "3-shanten", "4+ shanten")  # a seat's shanten after a discard
BAND_COLOURS = ("#276749", "#48bb78", "#c6f6d5", "#fbd38d", "#dd6b20")
DEAL_IN_BANDS = ("tenpai", "1", "2", "3+")
# the play statistics only the events give (what each seat held): a players table has them where its input had
# events; the others of PLAY_GROUPS (chasing riichi by turns, all-last, ...) may come from hand records too, and
# alone do not make a play block
FROM_EVENTS = ("riichi_first_rate", "riichi_chased_rate", "avg_riichi_waits", "riichi_multi_wait_rate",
               "avg_riichi_wait_left", "riichi_good_shape_rate", "riichi_furiten_rate", "avg_deal_in_shanten",
               "deal_in_tenpai_rate", "avg_start_shanten")
# a turn with fewer discards than this (or than this share of the busiest turn's) is left out of the chart:
# a column of a handful of seats says nothing of the table
MIN_SEATS, MIN_SHARE = 10, 0.01


Events = pl.LazyFrame | pl.DataFrame | str | Path | list[str | Path] | tuple[str | Path, ...]


def events_table(events: Events | None, games: pl.LazyFrame) -> tuple[pl.LazyFrame, int] | None:
    """``events`` (a frame, or the paths of events Parquet files) as a lazy frame of the columns the page reads
    (:data:`EVENT_COLUMNS`) for the games of ``games`` alone (a ``--player`` page, a run of chosen days), and
    how many games that is; None without events of those games. A game in several files is read from the first
    that has it (as a run reads them, :mod:`analyzer.jobs.events`). A file that is not there, or a table without
    those columns, is an :class:`InputError`.

    Which games each table holds is read first (one column): a table all of whose games are wanted is read as
    it is, and only one holding others is filtered (a filter by a list of ids over every event costs several
    times the page's own aggregates)."""
    if events is None:
        return None
    if isinstance(events, (str, Path, list, tuple)):
        paths = [Path(p) for p in ([events] if isinstance(events, (str, Path)) else events)]
        missing = [str(p) for p in paths if not p.is_file()]
        if missing or not paths:
            raise InputError(f"events: no such file: {', '.join(missing) or '(none given)'}")
        sources = [_checked(pl.scan_parquet(path, glob=False), path) for path in paths]
    else:
        sources = [_checked(events.lazy(), "the events table")]
    shown = games.select(pl.col("game_id").cast(pl.String)).unique().collect()["game_id"].implode()
    parts, seen = [], pl.Series("game_id", [], pl.String)
    for source in sources:  # a file at a time (a few), not a row at a time
        held = source.select(pl.col("game_id").cast(pl.String)).unique().collect()["game_id"]
        wanted = held.filter(held.is_in(shown) & ~held.is_in(seen.implode()))
        if wanted.len() == held.len():
            parts.append(source)
        elif wanted.len():
            parts.append(source.filter(pl.col("game_id").is_in(wanted.implode())))
        seen = pl.concat([seen, wanted])
    return (pl.concat(parts, how="diagonal_relaxed"), seen.len()) if parts else None


def _checked(frame: pl.LazyFrame, name: str | Path) -> pl.LazyFrame:
    """The columns of :data:`EVENT_COLUMNS` of ``frame``; an :class:`InputError` naming ``name`` if any is
    missing."""
    try:
        names = columns(frame)
    except (pl.exceptions.PolarsError, OSError) as error:  # not Parquet, or cut short
        raise InputError(f"{name}: not an events table that can be read ({str(error).splitlines()[0]})") from None
    missing = [c for c in EVENT_COLUMNS if c not in names]
    if missing:
        raise InputError(f"{name} has no {', '.join(missing)} column(s): write it again with analyzer export "
                         "events")
    return frame.select(EVENT_COLUMNS)


def _is(*events: str) -> pl.Expr:
    return pl.col("event").cast(pl.String).is_in(list(events))


def shanten_by_turn(events: pl.LazyFrame) -> pl.DataFrame:
    """Every seat's shanten after each of its discards, counted by turn (its n-th discard is on turn n) and
    band (:data:`BANDS`: 0 … 4 and more): ``turn``, ``band``, ``seats`` and ``shanten_sum`` (the exact
    shanten summed, for the mean), sorted by turn and band. One group-by over the discards."""
    return (events.filter(_is("discard"), pl.col("shanten").is_not_null(), pl.col("turn") >= 1)
            .group_by("turn", band=pl.col("shanten").clip(0, len(BANDS) - 1))
            .agg(seats=pl.len(), shanten_sum=pl.col("shanten").cast(pl.Int64).sum())
            .sort("turn", "band").collect())


def deal_ins_by_shanten(events: pl.LazyFrame, players: list[str]) -> dict[str, list[int]]:
    """For each of ``players``, their deal-ins counted by the shanten of their hand after the tile dealt in
    left it (:data:`DEAL_IN_BANDS`: tenpai, 1, 2, 3 and more): the shanten of the dealer-in's last discard (or
    added kan, robbed) before the hand's first ``ron`` row — a multiple ron is one deal-in."""
    ron = events.filter(_is("ron")).group_by(*HAND).agg(seat=pl.col("from_seat").first(),
                                                         ron_seq=pl.col("seq").min())
    shown = pl.Series(players, dtype=pl.String).implode()
    dealt = (events.filter(_is("discard", "kakan")).select(*HAND, "seat", "seq", "player", "shanten")
             .join(ron, on=[*HAND, "seat"]).filter(pl.col("seq") < pl.col("ron_seq"))
             .group_by(*HAND).agg(pl.col("player").first(), shanten=pl.col("shanten").get(pl.col("seq").arg_max()))
             .filter(pl.col("player").is_in(shown))  # after the join: a few rows per hand dealt in, not every discard
             .group_by("player", band=pl.col("shanten").clip(0, len(DEAL_IN_BANDS) - 1)).agg(n=pl.len())
             .collect())
    counts: dict[str, list[int]] = {}
    for player, band, n in dealt.drop_nulls("band").iter_rows():
        counts.setdefault(player, [0] * len(DEAL_IN_BANDS))[band] = n
    return counts


def has_play(players: pl.DataFrame) -> bool:
    """Whether the players table has play statistics: any of :data:`FROM_EVENTS` there, not all null (a score
    sheet's are)."""
    present = [c for c in FROM_EVENTS if c in players.columns]
    return bool(present) and players.select(pl.any_horizontal(pl.col(present).is_not_null()).any()).item()


def _kept_turns(by_turn: pl.DataFrame) -> tuple[list[int], list[int]]:
    """The turns the chart shows and those it leaves out (:data:`MIN_SEATS`, :data:`MIN_SHARE`)."""
    per_turn = by_turn.group_by("turn").agg(pl.col("seats").sum()).sort("turn")
    floor = max(MIN_SEATS, MIN_SHARE * (per_turn["seats"].max() or 0))
    kept = per_turn.filter(pl.col("seats") >= floor)["turn"].to_list()
    return kept, [t for t in per_turn["turn"].to_list() if t not in kept]


def _spans(turns: list[int]) -> str:
    """Sorted turns as runs: ``[1, 2, 3, 7, 9, 10]`` → ``1–3, 7, 9–10``."""
    runs: list[list[int]] = []
    for t in turns:
        if runs and t == runs[-1][-1] + 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def table_section(by_turn: pl.DataFrame, games: int) -> str:
    """The page's "Play" section: the share of seats at each shanten after their discard by turn, and the
    mean, over every seat of ``games`` games; empty without discards."""
    kept, left_out = _kept_turns(by_turn)
    if not kept:
        return ""
    grid = by_turn.filter(pl.col("turn").is_in(kept))
    seats = {(t, b): n for t, b, n in grid.select("turn", "band", "seats").iter_rows()}
    counts = {name: [seats.get((t, b), 0) for t in kept] for b, name in enumerate(BANDS)}
    means = grid.group_by("turn").agg(pl.col("shanten_sum").sum() / pl.col("seats").sum(),
                                      pl.col("seats").sum().alias("n")).sort("turn")
    mean_of, n_of = dict(zip(means["turn"], means["shanten_sum"])), dict(zip(means["turn"], means["n"]))
    labels = [str(t) for t in kept]
    shares = stacked_shares(labels, counts, colours=BAND_COLOURS, title="Shanten after the discard, by turn",
                            x_title="turn", y_title="seats")
    mean = line_chart({"mean shanten": [round(mean_of[t], 3) for t in kept]}, x_labels=labels, width=440,
                      height=230, title="Mean shanten after the discard, by turn", x_title="turn",
                      y_title="mean shanten",
                      point_titles=[f"turn {t}: {mean_of[t]:.2f} over {n_of[t]:,} discards" for t in kept])
    total = int(by_turn["seats"].sum())
    dropped = int(by_turn.filter(pl.col("turn").is_in(left_out))["seats"].sum())
    note = ""
    if left_out:  # said, with the discards of those turns
        one = len(left_out) == 1
        note = (f" Turn{'' if one else 's'} {_spans(left_out)} ({dropped:,} discard{'' if dropped == 1 else 's'}) "
                f"{'is' if one else 'are'} left out: too few seats get there to say much.")
    return ('<h2 id="play">Play</h2><p class="lead">'
            + escape(f"The shanten of every seat's hand after each of its discards (its n-th discard is on turn "
                     f"n; 0 is tenpai), from the events of {games:,} game(s): {total:,} discards.{note}")
            + ' Hover over a column for its counts.</p><div class="charts">'
            f'<figure class="shanten-by-turn">{shares}{legend(list(BANDS), BAND_COLOURS)}'
            "<figcaption>share of seats by shanten after the discard</figcaption></figure>"
            f'<figure class="mean-shanten">{mean}<figcaption>mean shanten after the discard</figcaption>'
            "</figure></div>")


def play_block(row: dict, deal_ins: list[int] | None) -> str:
    """A player's "play" block: the figures of :data:`PLAY_GROUPS` (each with its definition on hover) and,
    with the events, their deal-ins by shanten; empty when the player has none of :data:`FROM_EVENTS` (no
    events)."""
    if all(row.get(c) is None for c in FROM_EVENTS):
        return ""
    boxes = figure_boxes(row, PLAY_GROUPS)
    if deal_ins is not None:
        chart = (f'<figure class="deal-in-shanten">'
                 + bar_chart(list(DEAL_IN_BANDS), deal_ins, width=240, height=150, value_format="{:d}",
                             title=f"Deal-ins of {row['player']} by shanten", x_title="shanten",
                             y_title="deal-ins")
                 + "<figcaption>deal-ins by shanten after the tile dealt in</figcaption></figure>"
                 if sum(deal_ins) else '<p class="deal-in-shanten">No deal-ins in the events.</p>')
        boxes.append(f'<div class="group"><h4>deal-ins by shanten</h4>{chart}</div>')
    return (f'<div class="play"><h4 class="play-h">Play <small>from the events of the games</small></h4>'
            f'<div class="stats">{"".join(boxes)}</div></div>')
