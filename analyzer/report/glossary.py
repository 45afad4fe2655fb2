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
                                                       "(with the games' events: after it was accepted; without, "
                                                       "by turns) / riichi hands (with events, or turns known)."),
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

# The play block of a player's section (:mod:`analyzer.report.play`): the statistics that need the events of the
# games (what each seat held), null where the input has none (a score sheet); same shape as STAT_GROUPS.
PLAY_GROUPS: list[tuple[str, list[tuple[str, str, str | None, str]]]] = [
    ("riichi", [
        ("first riichi", "riichi_first_rate", "%", "Riichi hands in which no other player's riichi was accepted "
                                                   "before the player declared / riichi hands (先制率)."),
        ("chasing riichi", "chasing_riichi_rate", "%", "Riichi declared after another player's riichi was "
                                                       "accepted / riichi hands (追っかけ率)."),
        ("chased", "riichi_chased_rate", "%", "Riichi hands in which another player's riichi was accepted after "
                                              "the player's / riichi hands (追っかけられ率)."),
        ("ippatsu", "ippatsu_rate", "%", "Riichi wins with ippatsu / riichi wins (一発率)."),
        ("ura dora", "ura_rate", "%", "Riichi wins with at least one han of ura dora / riichi wins (裏ドラ率)."),
        ("riichi balance", "riichi_balance", "{:+,.0f}", "The player's score change per riichi hand: the stick "
                                                         "paid, honba and sticks collected included (立直収支)."),
        ("ronned on declaring", "riichi_declaration_deal_ins", "{:,.0f}", "Riichi declarations ronned on the "
                                                                          "declaring tile."),
        ("ronned on declaring, rate", "riichi_declaration_deal_in_rate", "%", "Declarations ronned on the "
                                                                              "declaring tile / (those + riichi)."),
    ]),
    ("riichi waits", [
        ("avg wait kinds", "avg_riichi_waits", "{:.2f}", "Tile kinds that complete the hand after the declaring "
                                                         "discard, per riichi hand (a kind held four times is none)."),
        ("multi-sided", "riichi_multi_wait_rate", "%", "Riichi hands waiting on 2 or more kinds / riichi hands."),
        ("avg wait tiles left", "avg_riichi_wait_left", "{:.2f}", "Wait tiles not in the player's view at the "
                                                                  "declaration (own tiles, melds, discards, dora "
                                                                  "indicators), per riichi hand."),
        ("good shape (6+ left)", "riichi_good_shape_rate", "%", "Riichi hands with 6 or more wait tiles left in "
                                                                "view / riichi hands (好型率)."),
        ("furiten riichi", "riichi_furiten_rate", "%", "Riichi hands with a wait among the player's own discards "
                                                       "of the hand / riichi hands (振聴立直率)."),
        ("avg win turn, riichi", "avg_win_turn_riichi", "{:.1f}", "Turn of the player's riichi wins, averaged."),
    ]),
    ("deal-ins, tsumo hits", [
        ("avg shanten at deal-in", "avg_deal_in_shanten", "{:.2f}", "Shanten of the player's hand after the tile "
                                                                    "dealt in left it, per deal-in (放銃時向聴数)."),
        ("dealt in tenpai", "deal_in_tenpai_rate", "%", "Deal-ins with the player tenpai after the tile left the "
                                                        "hand / deal-ins."),
        ("deal-ins 3,900+", "deal_in_3900_rate", "%", "Deal-ins worth 3,900 points or more (without honba and "
                                                      "sticks) / deal-ins."),
        ("deal-ins 7,700+", "deal_in_7700_rate", "%", "Deal-ins worth 7,700 points or more / deal-ins."),
        ("deal-ins 11,600+", "deal_in_11600_rate", "%", "Deal-ins worth 11,600 points or more / deal-ins."),
        ("hit by tsumo", "tsumo_hit_rate", "%", "Hands in which another player won by tsumo / hands (被ツモ率)."),
        ("dealer hit by mangan+", "dealer_tsumo_hit_mangan_rate", "%", "Dealer hands in which another player won "
                                                                       "by tsumo with 8,000 points or more / dealer "
                                                                       "hands hit by a tsumo (親被り率)."),
    ]),
    ("hands", [
        ("avg start shanten", "avg_start_shanten", "{:.2f}", "Shanten of the 13 dealt tiles, per hand (配牌向聴数)."),
        ("avg first call turn", "avg_first_call_turn", "{:.1f}", "Turn of the first chi, pon or open kan, per "
                                                                 "opened hand."),
        ("ippatsu cancels", "ippatsu_cancel_rate", "%", "Calls made after another player's riichi was accepted and "
                                                        "before that player's next discard / calls (一発消し)."),
        ("kan rate", "kan_rate", "%", "Hands with at least one kan of the player / hands."),
        ("wins 3,900+", "win_3900_rate", "%", "Wins worth 3,900 points or more / wins."),
        ("wins 7,700+", "win_7700_rate", "%", "Wins worth 7,700 points or more / wins."),
        ("wins 11,600+", "win_11600_rate", "%", "Wins worth 11,600 points or more / wins."),
        ("avg win turn, open", "avg_win_turn_open", "{:.1f}", "Turn of the player's open wins, averaged."),
        ("avg win turn, dama", "avg_win_turn_dama", "{:.1f}", "Turn of the player's dama wins, averaged."),
        ("avg dora per win", "avg_dora_per_win", "{:.2f}", "Han of dora, red fives and ura dora per win."),
    ]),
    ("all-last", [
        ("all-last games", "all_last_games", "{:,.0f}", "Games that reached their last scheduled round (E4 or S4; "
                                                        "E3 or S3 with three players)."),
        ("kept 1st", "all_last_keep_first_rate", "%", "Entered the last round 1st and finished 1st / entered it "
                                                      "1st (オーラストップ率)."),
        ("came back to 1st", "all_last_comeback_rate", "%", "Entered the last round 2nd or lower and finished 1st "
                                                            "/ entered it 2nd or lower."),
        ("avoided last", "all_last_avoid_last_rate", "%", "Entered the last round last and finished above last / "
                                                          "entered it last (ラス回避率)."),
        *[(f"avg place, start seat {s}", f"avg_place_seat_{s}", "{:.2f}",
           f"Average place in games the player started in seat {s} (seat 0 deals first).") for s in range(4)],
    ]),
]


def play_columns() -> list[str]:
    """The players table's columns :data:`PLAY_GROUPS` shows, in order."""
    return [column for _, group in PLAY_GROUPS for _, column, _, _ in group]
