"""The log tables: what every log reader gives for a batch of files, four Polars tables (:class:`LogTables`).

* ``games`` (:data:`GAMES`): one row per game, the fields of :class:`~analyzer.formats.model.Game` (``file`` as
  ``log_file``, ``kyokus`` as the hands table);
* ``hands`` (:data:`HANDS`): one row per hand of a game, the fields of :class:`~analyzer.formats.model.Kyoku`
  but its events and outcomes;
* ``events`` (:data:`EVENTS`): the events table of ``docs/outputs.md#events`` (:data:`.events.SCHEMA`) without
  the columns derived from the play afterwards (``shanten``);
* ``outcomes`` (:data:`OUTCOMES`): one row per recorded outcome, the fields of
  :class:`~analyzer.formats.model.Outcome`, in the order the log records them (``outcome`` from 0).

Every table starts with ``game``, the game's number in its batch (from 0, the row of ``games``): the key the
other tables join on (a batch may hold two files of one game id: copies are dropped after the tables are read).
Hands are keyed by (``game``, ``log_row``), events by (``game``, ``log_row``, ``seq``), outcomes by (``game``,
``log_row``, ``outcome``). Tiles are :data:`TILE` (the events table's tile Enum: MPSZ text, ``0m`` the red five),
seats Int8 (0-3). The hand records are derived from these tables by :mod:`.records_from_tables`.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analyzer.formats.events import DERIVED, SCHEMA, TILES

TILE = pl.Enum(TILES)
SEAT = pl.Int8
GAME_KEY = pl.Int32
RESULTS = ("ron", "tsumo", "draw", "nagashi", "abort")
MELD = pl.Struct({"kind": pl.String, "tiles": pl.List(TILE)})  # kind: chi pon minkan kakan ankan
NOTE = pl.Struct({"text": pl.String, "hand": pl.Int32})  # Note: hand counted from 1 (log_row), null: the game
RULE_OPTION = pl.Struct({"name": pl.String, "value": pl.String})  # value as a rules spec writes it (true, 40000)

GAMES = pl.Schema({
    "game": GAME_KEY,
    "game_id": pl.String,  # identity.game_id(ref, log_file, digest), worked out by the reader per file
    "log_file": pl.String,  # Game.file: the path as the import was given it
    "ref": pl.String,
    "digest": pl.String,  # identity.content_digest of the log
    "names": pl.List(pl.String),  # four, as recorded (blank: no name); seat 3 of a three-player game ""
    "players": pl.Int8,  # 3 or 4
    "platform": pl.String,  # tenhou | majsoul
    "aka": pl.Boolean,
    "kuitan": pl.Boolean,
    "game_length": pl.String,
    "lobby": pl.Int64,
    "lobby_type": pl.Int64,
    "custom_rules": pl.String,
    "room": pl.String,
    "final_scores": pl.List(pl.Int64),
    "final_points": pl.List(pl.Float64),
    "final_chips": pl.List(pl.Int64),
    "rank_points": pl.List(pl.Int64),
    "ratio": pl.String,
    "dan": pl.List(pl.String),  # per seat as recorded, as text (identity.dan_index reads it)
    "rate": pl.List(pl.String),  # per seat as recorded, as text (identity.rate reads it)
    "ranks": pl.List(pl.String),  # a platform's own rank per seat (Mahjong Soul: 雀士★2)
    "tsumo_loss": pl.String,
    "started_at": pl.Datetime("us", "Asia/Tokyo"),
    "rule_options": pl.List(RULE_OPTION),  # in the order the reader set them
    "rules": pl.String,  # a rules spec the log itself names
    "notes": pl.List(NOTE),  # the reader's caveats (imported anyway), in the order it said them
})

HANDS = pl.Schema({
    "game": GAME_KEY,
    "log_row": pl.Int16,  # the hand's number in its file, from 1 (as the events table's)
    "kyoku": pl.Int16,  # 0-3 East, 4-7 South, ...
    "honba": pl.Int64,
    "kyotaku": pl.Int64,
    "scores": pl.List(pl.Int64),  # four, at the start of the hand
    "haipai": pl.List(pl.List(TILE)),  # per seat (four lists; seat 3 empty with three players), as dealt
    "dora": pl.List(TILE),  # indicators at the start
    "players": pl.Int8,
})

EVENTS = pl.Schema({"game": GAME_KEY, **{name: dtype for name, dtype in SCHEMA.items() if name not in DERIVED}})

OUTCOMES = pl.Schema({
    "game": GAME_KEY,
    "log_row": pl.Int16,
    "outcome": pl.Int8,  # its place among the hand's recorded outcomes, from 0 (the log's order)
    "result": pl.Enum(RESULTS),
    "deltas": pl.List(pl.Int64),  # four, as recorded: honba and sticks collected included, deposits excluded
    "winner": SEAT,
    "loser": SEAT,
    "pao": SEAT,
    "fu": pl.Int64,
    "han": pl.Int64,
    "points": pl.Int64,
    "limit": pl.String,
    "yaku": pl.List(pl.String),
    "yaku_han": pl.List(pl.Int64),
    "yakuman": pl.Int64,
    "dora": pl.Int64,
    "ura": pl.Int64,
    "aka": pl.Int64,
    "dora_indicators": pl.List(TILE),  # null: not recorded with the outcome
    "ura_indicators": pl.List(TILE),
    "hand": pl.List(TILE),  # recorded concealed tiles incl. the winning tile (mjlog), else null
    "win_tile": TILE,  # recorded winning tile (mjlog), else null
    "melds": pl.List(MELD),  # recorded melds of the winner (mjlog), else null
    "tenpai": pl.List(SEAT),  # recorded tenpai seats (mjlog), else null
    "all_tenpai": pl.Boolean,
    "has_value": pl.Boolean,
    "kita": pl.Int64,
    "abort": pl.String,
    "recorded_text": pl.List(pl.String),
})

SCHEMAS = {"games": GAMES, "hands": HANDS, "events": EVENTS, "outcomes": OUTCOMES}


@dataclass(frozen=True)
class LogTables:
    """The four log tables of a batch of games (see the module docstring)."""

    games: pl.DataFrame
    hands: pl.DataFrame
    events: pl.DataFrame
    outcomes: pl.DataFrame

    @classmethod
    def empty(cls) -> LogTables:
        return cls(**{name: pl.DataFrame(schema=schema) for name, schema in SCHEMAS.items()})

    def check_schemas(self) -> None:
        """Raise ValueError naming the table and its columns when a table is not of its schema."""
        for name, schema in SCHEMAS.items():
            got = getattr(self, name).schema
            if got != schema:
                wrong = [f"{c}: {got.get(c)} (want {t})" for c, t in schema.items() if got.get(c) != t]
                extra = [c for c in got if c not in schema]
                raise ValueError(f"log table {name} is not of its schema: {', '.join(wrong + extra)}")


def concat_tables(parts: list[LogTables]) -> LogTables:
    """Batches' tables as one, their ``game`` numbers shifted to stay unique."""
    if not parts:
        return LogTables.empty()
    frames: dict[str, list[pl.DataFrame]] = {name: [] for name in SCHEMAS}
    offset = 0
    for part in parts:
        for name in SCHEMAS:
            frame = getattr(part, name)
            frames[name].append(frame.with_columns(pl.col("game") + offset) if offset else frame)
        offset += part.games.height
    return LogTables(**{name: pl.concat(frames[name]) for name in SCHEMAS})
