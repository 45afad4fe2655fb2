"""Column names and types shared by every stage: the hand-record contract.

Input (one row per hand outcome; a multiple ron is one row per winner, in adjacent rows):

=============== ===================================================================================
game_id         required; one game's rows may come from several files
round           required: E1..E4, S1..S4, W1..W4, N1..N4; the dealer is seat n-1
honba           required: counters on the table at the start of the hand, as recorded
player_0..3     the players in initial seating (player_0 is East in E1)
result          required: ron, tsumo, draw, nagashi, abort, chombo
winner          ron / tsumo / nagashi: a player name from the seating or a seat number 0-3
loser           ron: the discarder; chombo: the offender
riichi          players who declared riichi in this hand (comma- or space-separated, or a list)
tenpai          draw / nagashi: players tenpai at the exhaustive draw
han, fu         of the winning hand, dora included; fu may be empty at 5+ han
yakuman         number of yakuman (han/fu are then ignored)
pao             the player liable for the yakuman
kyotaku         optional: riichi sticks at the start, as recorded (renamed ``recorded_kyotaku``)
recorded_*      optional recorded results, carried through
hand, melds,
win_tile, dora,
ura, flags      tile-level input (see ``analyzer.tiles``)
=============== ===================================================================================

Any other column passes through with its type (a CSV file's as Polars infers it); the columns above are read
from their text where they are validated (:data:`analyzer.io.load.VALIDATED_COLUMNS`).

Internal columns start with an underscore and never reach an output file.
"""

from __future__ import annotations

import polars as pl

RESULTS = ("ron", "tsumo", "draw", "nagashi", "abort", "chombo")
# the results whose rows must name a winner, and those that must name a loser (the discarder, the offender)
WINNER_RESULTS = ["ron", "tsumo", "nagashi"]
LOSER_RESULTS = ["ron", "chombo"]
WINDS = "ESWN"
# every round name, in the order of the round index (`_round_idx`: E1 = 0 … E4 = 3, S1 = 4 … N4 = 15)
ROUND_NAMES = [f"{wind}{number}" for wind in WINDS for number in range(1, 5)]
SEATS = range(4)
PLAYER_COLUMNS = [f"player_{s}" for s in SEATS]
PLAYER_REF_COLUMNS = ["winner", "loser", "pao"]
PLAYER_LIST_COLUMNS = ["riichi", "tenpai"]
SITUATION_FLAGS = [
    "ippatsu",
    "double_riichi",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
    "renhou",
]

# Where each input row came from, carried through to rejects and problems.
SOURCE_FILE = "_file"
SOURCE_ROW = "_row"
INPUT_POSITION = "_pos"
# Where an imported row was recorded: the log file and the row's hand in it (analyzer.formats.columns), cited by
# findings and reports. Like the source columns they say where a row came from, not what it says: a game
# imported from two paths is still one game, its rows copies of each other.
LOG_FILE = "log_file"
LOG_ROW = "log_row"
PROVENANCE_COLUMNS = (LOG_FILE, LOG_ROW)


def log_columns(names: list[str]) -> list[pl.Expr]:
    """``log_file`` (text) and ``log_row`` (a whole number) of rows whose columns are ``names``: as the input
    has them (a loaded sheet holds them as text), null where it has none."""
    return [
        (pl.col(LOG_FILE).cast(pl.String) if LOG_FILE in names else pl.lit(None, pl.String)).alias(LOG_FILE),
        (pl.col(LOG_ROW).cast(pl.Float64, strict=False).cast(pl.Int64, strict=False) if LOG_ROW in names
         else pl.lit(None, pl.Int64)).alias(LOG_ROW),
    ]

# Whether a row comes from a game-level result sheet (one row per player per game) rather than a hand record.
SHEET_ROW = "_sheet"

DELTA_COLUMNS = [f"delta_{s}" for s in SEATS]
SCORE_COLUMNS = [f"score_{s}" for s in SEATS]

GAMES_SCHEMA = {
    "game_id": pl.String,
    "player": pl.String,
    "seat": pl.Int64,
    "final_score": pl.Int64,
    "place": pl.Int64,
    "uma": pl.Float64,
    "oka": pl.Float64,
    "penalty": pl.Float64,
    "game_points": pl.Float64,
}
