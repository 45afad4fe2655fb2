"""A game's section: its score lines, final table and hands; why it is incomplete; its Tenhou viewer link.

A game is incomplete (``complete`` false in the games table) for one of three reasons, read back here from the
result's tables: it is a fragment (its first row has the ``partial_game`` problem: it does not start at E1
with nothing on the table), rows of it were rejected (the rejects table; a rejected copy of a scored row does
not count), or neither: then it does not end where its rules end a game (:mod:`analyzer.game.game_end`) — it goes
on after its end (a check's ``game_end`` finding says where) or its record stops before its last round.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape

import polars as pl

from analyzer.game.per_game import last_round_of
from analyzer.game.problems import problem_lists
from analyzer.core.rules import RulesError, load_rules
from analyzer.core.schema import ROUND_NAMES, log_columns

from analyzer.report.markup import EVERY_SECTION, Sections, anchor
from analyzer.report.svg import legend, line_chart
from analyzer.scoring.validate import COPY_REASON_START
from analyzer.report.viewer import tenhou_url


def incomplete_reasons(games: pl.DataFrame | pl.LazyFrame, hands: pl.DataFrame | pl.LazyFrame,
                       rejects: pl.DataFrame | pl.LazyFrame, findings: pl.DataFrame | None = None,
                       among: pl.Series | None = None) -> dict[str, str]:
    """game id -> why the game is incomplete, as a sentence, for every game whose ``complete`` is false (of
    ``among`` only, when given: the rows of those games alone are read).

    A game that is neither a fragment nor missing rows does not end where its rules end a game: with a check's
    ``findings``, its ``game_end`` finding says where it should have ended; without one, the record stops
    before its last round, which is said as such (``check`` finds nothing wrong in an unfinished game)."""
    games, hands, rejects = games.lazy(), problem_lists(hands.lazy()), rejects.lazy()
    if "complete" not in games.collect_schema().names():
        return {}
    bad = games.filter(~pl.col("complete").fill_null(True))
    if among is not None:
        bad = bad.filter(pl.col("game_id").is_in(among.cast(pl.String).implode()))
    bad = bad.select("game_id", pl.col("rules") if "rules" in games.collect_schema().names() else
                     pl.lit(None, pl.String).alias("rules")).unique("game_id", keep="first", maintain_order=True)
    bad = bad.collect()
    if bad.height == 0:
        return {}
    wanted = bad["game_id"].implode()
    ends = hands.filter(pl.col("game_id").is_in(wanted)).group_by("game_id").agg(
        pl.format("{}-{}", pl.col("round"), pl.col("honba")).first().alias("first"),
        pl.format("{}-{}", pl.col("round"), pl.col("honba")).last().alias("last"),
        pl.col("round").last().alias("last_round"),
        pl.col("problems").list.contains("partial_game").any().alias("fragment"),
    ).collect()
    lost = (rejects.filter(pl.col("game_id").is_in(wanted) & ~pl.col("reason").str.starts_with(COPY_REASON_START))
            .group_by("game_id").agg(pl.struct("file", "row").n_unique().alias("rejected")).collect())
    table = (bad.join(ends, on="game_id", how="left", maintain_order="left")
             .join(lost, on="game_id", how="left", maintain_order="left"))
    found = _end_findings(findings, wanted)
    reasons = {}
    for row in table.iter_rows(named=True):
        said = []
        if row["fragment"]:
            said.append(f"a fragment: it starts at {row['first']}, not at E1 with no honba and no sticks")
        if row["rejected"]:
            said.append(f"{row['rejected']} of its rows rejected (see Problems and rejects)")
        if not said:
            said.append(_end_reason(row, found.get(row["game_id"]), checked=findings is not None))
        reasons[row["game_id"]] = "; ".join(said)
    return reasons


def _end_findings(findings: pl.DataFrame | None, wanted: pl.Series) -> dict[str, tuple[str, str]]:
    """game id -> (round-honba, explanation) of its first ``game_end`` finding about where it ends."""
    if findings is None or findings.height == 0 or "kind" not in findings.columns:
        return {}
    first = (findings.filter((pl.col("kind") == "game_end") & (pl.col("field") == "end")
                             & pl.col("game_id").is_in(wanted))
             .group_by("game_id", maintain_order=True).first())
    return {g: (f"{r}-{h}", e) for g, r, h, e in first.select("game_id", "round", "honba", "explanation").iter_rows()}


def _end_reason(row: dict, finding: tuple[str, str] | None, checked: bool) -> str:
    """Why a game that is no fragment and lost no row is incomplete: only what is known."""
    rules = f" ({row['rules']})" if row["rules"] else ""
    if finding is not None:
        where, explanation = finding
        return f"it does not end where its rules{rules} end a game: at {where}, {explanation} (`analyzer check` lists it)"
    last_round = _last_round(row["rules"])
    if checked and row["last_round"] in ROUND_NAMES and last_round is not None \
            and ROUND_NAMES.index(row["last_round"]) < last_round:
        return (f"its record stops at {row['last']}, before the last round of its rules{rules} "
                f"({ROUND_NAMES[last_round]}): the rest of the game is not in the input")
    last = f" (its last recorded hand: {row['last']})" if row["last"] else ""
    return f"it does not end where its rules{rules} end a game{last}"


@lru_cache(maxsize=256)  # a run has a few rulesets, the incomplete games many
def _last_round(spec: str | None) -> int | None:
    """The round index of the last round of the ruleset ``spec`` (None where it names none)."""
    try:
        return last_round_of(load_rules(spec)) if spec else None
    except RulesError:
        return None


def said(text: str) -> str:
    """A sentence for the page: escaped, with `code` in backticks shown as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(text))


def hand_lines(described_hands: pl.DataFrame) -> pl.DataFrame:
    """Per game (one row each): the hand lines (``outcome``), the four score lines and the seating, as lists,
    and the file the game was recorded in (``recorded_in``: its log file, else its input file)."""
    source = [pl.col("source_file")] if "source_file" in described_hands.columns else []
    return described_hands.with_columns(log_columns(described_hands.columns)).group_by(
        "game_id", maintain_order=True).agg(
        "outcome", *[pl.col(f"score_{s}") for s in range(4)], *[pl.col(f"player_{s}").first() for s in range(4)],
        pl.coalesce("log_file", *source).first().alias("recorded_in"),
    )


def game_section(game: dict, seats: list[dict], incomplete: str | None, start: float, sources: bool = False,
                 sections: Sections = EVERY_SECTION) -> str:
    """A game's section: heading (with the tenhou.net link of a Tenhou log id), why it is incomplete, the
    score chart, the final table and the list of its hands; with ``sources``, the file it was recorded in."""
    gid = game["game_id"]
    # seat 3 of a three-player game has no player and no scores
    names = [game[f"player_{s}"] for s in range(4) if game[f"player_{s}"] is not None]
    series = {n: [start] + game[f"score_{s}"] for s, n in enumerate(names)}
    chart = line_chart(series, x_labels=["start"] + [o.split(" ")[0] for o in game["outcome"]],
                       title=f"Scores in {gid}", point_titles=["start"] + game["outcome"], baseline=start,
                       x_title="hand (round-honba)", y_title="score (points)")
    result = "".join(
        f'<tr><td>{s["place"]}</td><td class="t">{sections.player(s["player"])}</td><td>{s["final_score"]:,}</td>'
        f'<td>{s["game_points"]:+.1f}</td></tr>' for s in seats
    )
    url = tenhou_url(gid)
    viewer = (f' <a class="viewer" href="{escape(url)}" title="open this log in the tenhou.net viewer">'
              "replay on tenhou.net</a>") if url else ""
    flag = ' <span class="warn">incomplete</span>' if incomplete is not None else ""
    why = f'<p class="why warn">Incomplete: {said(incomplete)}.</p>' if incomplete else ""
    hands = "".join(f"<li>{escape(o)}</li>" for o in game["outcome"])
    where = (f'<p class="why">Recorded in {escape(game["recorded_in"])}</p>'
             if sources and game.get("recorded_in") is not None else "")
    return (
        f'<section class="game" id="{escape(anchor("game", gid))}"><h3>{escape(gid)}{flag}{viewer}</h3>{where}{why}'
        f'<div class="charts"><div>{chart}{legend(names)}</div><table><thead><tr><th>place</th>'
        f'<th class="t">player</th><th>final</th><th>points</th></tr></thead><tbody>{result}</tbody></table></div>'
        f'<details open><summary>{len(game["outcome"])} hand(s)</summary><ol class="hands">{hands}</ol></details>'
        "</section>"
    )
