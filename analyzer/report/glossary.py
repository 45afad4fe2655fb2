"""The figures of a player's section, grouped by topic, each with its short definition (shown on hover).

The definitions are the short form of the glossary for users, ``docs/statistics.md``; a test checks that every
figure has one and that each column appears in that glossary. ``mangan_plus_wins`` is made by the report from
the glossary's ``wins_mangan`` … ``yakuman`` (:data:`DERIVED`).
"""

from __future__ import annotations

import polars as pl

# (group, [(label, column, format, definition)]); format: a str.format pattern, "%" for a rate, None for text
STAT_GROUPS: list[tuple[str, list[tuple[str, str, str | None, str]]]] = [
    ("results", [
        ("games", "games", "{:d}", "Games played."),
        ("hands", "hands", "{:d}", "Hands dealt (the rows of a multiple ron are one hand; a chombo re-deal is not "
                                   "a hand)."),
        ("total points", "total_points", "{:+.1f}", "Sum of game points (uma, oka and penalties included)."),
        ("average points", "avg_points", "{:+.2f}", "Game points per game."),
        ("average place", "avg_place", "{:.2f}", "Sum of places / games (1 is best)."),
        *[(f"avg final score, {p}{'stndrdth'[2 * min(p - 1, 3):][:2]}", f"avg_final_score_{p}", "{:,.0f}",
           f"Average final score of the games finished in place {p}.") for p in range(1, 5)],
        ("busts", "busts", "{:d}", "Games ending with a final score below 0."),
        ("bust rate", "bust_rate", "%", "Busts / games."),
        ("penalties", "penalties", "{:.1f}", "Points taken off after uma: chombo and other penalties."),
        ("chombo", "chombo", "{:d}", "Chombo (penalised mistakes) the player made."),
    ]),
    ("wins", [
        ("win rate", "win_rate", "%", "Wins (paid ron or tsumo) / hands."),
        ("tsumo rate", "tsumo_rate", "%", "Wins by tsumo / wins."),
        ("average win", "avg_win_value", "{:,.0f}", "Points of a win on average (hand value without honba and "
                                                    "sticks)."),
        ("riichi wins", "riichi_wins", "{:d}", "Wins with the player in riichi."),
        ("avg riichi win", "avg_riichi_win_value", "{:,.0f}", "Points per riichi win."),
        ("open wins", "open_wins", "{:d}", "Wins with an open hand (needs the open_0..3 columns)."),
        ("avg open win", "avg_open_win_value", "{:,.0f}", "Points per open win."),
        ("dama wins", "dama_wins", "{:d}", "Wins with a closed hand without riichi (needs open_0..3)."),
        ("avg dama win", "avg_dama_win_value", "{:,.0f}", "Points per dama win."),
        ("mangan+ wins", "mangan_plus_wins", "{:d}", "Wins of mangan or more (mangan, haneman, baiman, sanbaiman, "
                                                     "yakuman)."),
        ("yakuman", "yakuman", "{:d}", "Yakuman wins (kazoe and multiples included)."),
        ("avg win turn", "avg_win_turn", "{:.1f}", "Turn the hand ended on, averaged over wins with a known turn."),
    ]),
    ("deal-ins", [
        ("deal-in rate", "deal_in_rate", "%", "Hands in which the player discarded into a paid ron / hands."),
        ("average deal-in", "avg_deal_in_cost", "{:,.0f}", "Points paid per deal-in (all winners of a multiple ron "
                                                           "together)."),
        ("paid to others' tsumo", "tsumo_paid", "{:,d}", "Points paid on other players' tsumo wins (honba "
                                                         "included)."),
        ("deal-ins in riichi", "deal_ins_in_riichi", "{:d}", "Deal-ins while the player was in riichi."),
        ("deal-ins while open", "deal_ins_while_open", "{:d}", "Deal-ins with an open hand (needs open_0..3)."),
        ("deal-ins to riichi", "deal_ins_to_riichi", "{:d}", "Deal-ins into a winner in riichi."),
        ("deal-ins to open", "deal_ins_to_open", "{:d}", "Deal-ins into a winner with an open hand."),
        ("deal-ins to dama", "deal_ins_to_dama", "{:d}", "Deal-ins into a winner closed without riichi."),
        ("avg deal-in turn", "avg_deal_in_turn", "{:.1f}", "Turn the hand ended on, averaged over deal-ins with a "
                                                           "known turn."),
    ]),
    ("riichi", [
        ("riichi rate", "riichi_rate", "%", "Hands with an accepted riichi declaration / hands."),
        ("riichi: win", "riichi_win_rate", "%", "Riichi hands the player won / riichi hands."),
        ("riichi: deal-in", "riichi_deal_in_rate", "%", "Riichi hands the player dealt in / riichi hands."),
        ("riichi: draw", "riichi_draw_rate", "%", "Riichi hands ending in an exhaustive draw / riichi hands."),
        ("riichi: other's win", "riichi_other_win_rate", "%", "Riichi hands someone else won without the player "
                                                              "dealing in / riichi hands."),
        ("avg riichi turn", "avg_riichi_turn", "{:.1f}", "Turn of the riichi declaration, averaged over riichi "
                                                         "hands with a known turn."),
        ("chasing riichi", "chasing_riichi_rate", "%", "Riichi declared after another player's riichi in the hand "
                                                       "/ riichi hands whose turns are known."),
    ]),
    ("calls", [
        ("call rate", "call_rate", "%", "Hands with an open hand / hands whose open_s is known."),
        ("avg calls (opened)", "avg_calls", "{:.2f}", "Calls made per opened hand."),
    ]),
    ("draws", [
        ("draw rate", "draw_rate", "%", "Hands ending in an exhaustive draw / hands."),
        ("draw tenpai", "draw_tenpai_rate", "%", "Draws with the player tenpai / draws."),
        ("nagashi", "nagashi", "{:d}", "Nagashi mangan."),
    ]),
    ("dealer", [
        ("hands as dealer", "dealer_hands", "{:d}", "Hands dealt as dealer."),
        ("dealer keep", "dealer_keep_rate", "%", "Dealer hands after which the deal stays (dealer win, dealer "
                                                 "tenpai at a draw, abort) / dealer hands."),
        ("max renchan", "max_renchan", "{:d}", "Most repeats of one dealership in a game."),
    ]),
]

# columns the report makes from the players table: column -> the glossary's columns it sums
DERIVED = {"mangan_plus_wins": ("wins_mangan", "wins_haneman", "wins_baiman", "wins_sanbaiman", "yakuman")}


def derived_columns() -> list[pl.Expr]:
    """The :data:`DERIVED` columns as expressions on the players table."""
    return [pl.sum_horizontal(*sources).alias(name) for name, sources in DERIVED.items()]


def figures() -> list[tuple[str, str, str | None, str]]:
    """Every figure of :data:`STAT_GROUPS`, in order."""
    return [figure for _, group in STAT_GROUPS for figure in group]
