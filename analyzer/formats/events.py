"""The events table: one row per event of every hand, built in the export workers from the game model.

Rows of a hand, in play order (``seq`` from 1): the four (three) ``haipai`` rows, a ``dora`` row per indicator
shown at the start, then every draw, discard, call, north set aside, riichi declaration and acceptance and new
kan dora as the log records them, and last the hand's outcome rows: ``ron`` (one per winner, in turn order from
the discarder, as the hand records' rows), ``tsumo``, ``exhaustive_draw`` (nagashi mangan included) or
``abort``. The columns are described in ``docs/outputs.md`` (:data:`SCHEMA`).

Per game one loop over the events (as the importers' replay) appends one packed int per row; per batch of
files numpy unpacks them into one Arrow table with the exact types of :data:`SCHEMA` (dictionary codes for the
Enum columns), which the runner appends to the Parquet file as it is.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES
from analyzer.formats.model import Game, wall_draws
from analyzer.formats.outputs import TableOutput
from analyzer.formats.parse import read_game
from analyzer.formats.rows import ANONYMOUS, seat_names
from analyzer.formats.tile_text import RED, tile_str
from analyzer.io.faults import writing
from analyzer.play.seats import COLUMNS as SEATS_COLUMNS
from analyzer.play.seats import hand_seats
from analyzer.play.state import seat_states, shanten_column

EVENTS = ("haipai", "draw", "discard", "chi", "pon", "minkan", "kakan", "ankan", "kita", "riichi_declared",
          "riichi_accepted", "dora", "ron", "tsumo", "exhaustive_draw", "abort")
ROUNDS = tuple(f"{wind}{n}" for wind in "ESWN" for n in range(1, 5))
# by kind, a red five after its suit's nine: 1m..9m 0m 1p..9p 0p 1s..9s 0s 1z..7z
TILE_CODES = [*range(9), RED + 4, *range(9, 18), RED + 13, *range(18, 27), RED + 22, *range(27, 34)]
TILES = tuple(tile_str(t) for t in TILE_CODES)
ROWS_PER_REPLAY = 1 << 18  # about 250 games' events: see EventsOutput

SCHEMA = pl.Schema({
    "game_id": pl.String,
    "log_file": pl.String,
    "log_row": pl.Int16,
    "round": pl.Enum(ROUNDS),
    "honba": pl.Int16,
    "kyotaku": pl.Int16,
    "seq": pl.Int16,
    "turn": pl.Int8,
    "seat": pl.Int8,
    "player": pl.String,
    "event": pl.Enum(EVENTS),
    "tile": pl.Enum(TILES),
    "tiles": pl.List(pl.Enum(TILES)),
    "from_seat": pl.Int8,
    "tsumogiri": pl.Boolean,
    "wall_left": pl.Int8,
    **{f"delta_{s}": pl.Int32 for s in range(4)},
    "shanten": pl.Int8,
})
ARROW_SCHEMA: pa.Schema = pl.DataFrame(schema=SCHEMA).to_arrow().schema
SEATS_ARROW_SCHEMA: pa.Schema = pl.DataFrame(schema=SEATS_COLUMNS).to_arrow().schema
# the key of a hand_seats file's metadata naming the events file it was made from (by its SHA-256)
EVENTS_DIGEST = "analyzer.events_sha256"
SEATS_SUFFIX = ".hand_seats.parquet"
# what the export workers build (pyarrow and numpy only: Polars is not used in a forked worker); the parent adds
# the columns derived from the play (EventsOutput)
DERIVED = ("shanten",)
PLAYED_SCHEMA = pa.schema([field for field in ARROW_SCHEMA if field.name not in DERIVED])

INT16_MAX = 32767
_TILE_INDEX = {t: i for i, t in enumerate(TILE_CODES)}
_EVENT_INDEX = {e: i for i, e in enumerate(EVENTS)}
_ROUND_INDEX = {r: i for i, r in enumerate(ROUNDS)}
_OUTCOME_EVENT = {"ron": "ron", "tsumo": "tsumo", "draw": "exhaustive_draw", "nagashi": "exhaustive_draw",
                  "abort": "abort"}

# A row's small values packed into one int (one list append per event in the hot loop, unpacked with numpy per
# batch): (name, shift, bits); a field holds value + 1, 0 for null (wall_left and event, never null, hold the
# value).
_FIELDS = {"wall_left": (0, 7), "tile": (7, 6), "event": (13, 5), "seat": (18, 3), "from_seat": (21, 3),
           "tsumogiri": (24, 2), "turn": (26, 7)}
_TILE_BITS = {t: (i + 1) << 7 for t, i in _TILE_INDEX.items()}
_SEAT_BITS = [(s + 1) << 18 for s in range(4)]
_FROM_BITS = [(s + 1) << 21 for s in range(4)]
_GIRI_BITS = {None: 0, False: 1 << 24, True: 2 << 24}
_TURN_SHIFT = 26


def _event_bits(name: str) -> int:
    return _EVENT_INDEX[name] << 13


class _Columns:
    """The rows of a batch: each row's small values packed (:data:`_FIELDS`), the sparse values (``tiles``,
    deltas) with their row numbers, the per-hand and per-game values with their row counts."""

    def __init__(self) -> None:
        self.codes: list[int] = []
        self.tiles_rows: list[int] = []
        self.tiles_lengths: list[int] = []
        self.tiles_flat: list[int] = []
        self.delta_rows: list[int] = []
        self.deltas: list[int | None] = []  # four per delta row
        self.hands: dict[str, list] = {"log_row": [], "round": [], "honba": [], "kyotaku": [], "rows": []}
        self.games: dict[str, list] = {"game_id": [], "log_file": [], "rows": []}
        self.names: list[str | None] = []  # four per game

    def __len__(self) -> int:
        return len(self.codes)

    def truncate(self, mark: tuple) -> None:
        """Back to the state of :meth:`mark` (a game that failed half-way leaves no row)."""
        rows, tiles_rows, flat, delta_rows, hands, games = mark
        del self.codes[rows:], self.tiles_rows[tiles_rows:], self.tiles_lengths[tiles_rows:]
        del self.tiles_flat[flat:], self.delta_rows[delta_rows:], self.deltas[4 * delta_rows:]
        for values in self.hands.values():
            del values[hands:]
        for values in self.games.values():
            del values[games:]
        del self.names[4 * games:]

    def mark(self) -> tuple:
        return (len(self.codes), len(self.tiles_rows), len(self.tiles_flat), len(self.delta_rows),
                len(self.hands["rows"]), len(self.games["rows"]))

    def table(self) -> pa.Table:
        n = len(self.codes)
        codes = np.array(self.codes, dtype=np.int64) if n else np.zeros(0, np.int64)
        arrays: dict[str, pa.Array] = {}
        for name, (shift, bits) in _FIELDS.items():
            field = (codes >> shift) & ((1 << bits) - 1)
            kind = ARROW_SCHEMA.field(name).type
            if name == "wall_left":
                arrays[name] = pa.array(field.astype(np.int8), kind)
            elif name == "event":
                arrays[name] = pa.DictionaryArray.from_arrays(pa.array(field.astype(np.uint8), kind.index_type),
                                                              _DICTIONARIES[name], ordered=True)
            elif name == "tsumogiri":
                arrays[name] = pa.array(field == 2, pa.bool_(), mask=field == 0)
            elif pa.types.is_dictionary(kind):
                indices = pa.array((field - 1).clip(0).astype(np.uint8), kind.index_type, mask=field == 0)
                arrays[name] = pa.DictionaryArray.from_arrays(indices, _DICTIONARIES[name], ordered=True)
            else:
                arrays[name] = pa.array((field - 1).astype(np.int8), kind, mask=field == 0)
        hand_rows = np.array(self.hands["rows"], dtype=np.int64)
        starts = np.cumsum(hand_rows) - hand_rows
        arrays["seq"] = pa.array((np.arange(n) - np.repeat(starts, hand_rows) + 1).astype(np.int16), pa.int16())
        hand_of_row = np.repeat(np.arange(len(hand_rows)), hand_rows)
        for name in ("log_row", "honba", "kyotaku"):
            arrays[name] = pa.array(np.array(self.hands[name], dtype=np.int64)[hand_of_row].astype(np.int16))
        arrays["round"] = pa.DictionaryArray.from_arrays(
            pa.array(np.array(self.hands["round"], dtype=np.uint8)[hand_of_row], pa.uint8()), _DICTIONARIES["round"],
            ordered=True)
        game_rows = np.array(self.games["rows"], dtype=np.int64)
        game_of_row = pa.array(np.repeat(np.arange(len(game_rows)), game_rows))
        for name in ("game_id", "log_file"):
            arrays[name] = pa.array(self.games[name], pa.large_string()).take(game_of_row)
        seat = (codes >> 18) & 7
        player_index = np.repeat(np.arange(len(game_rows)) * 4, game_rows) + (seat - 1).clip(0)
        arrays["player"] = pa.array(self.names, pa.large_string()).take(pa.array(player_index, mask=seat == 0))
        lengths = np.zeros(n, np.int64)
        lengths[self.tiles_rows] = self.tiles_lengths
        offsets = np.concatenate([[0], np.cumsum(lengths)])
        no_tiles = np.ones(n, bool)
        no_tiles[self.tiles_rows] = False
        values = pa.DictionaryArray.from_arrays(pa.array(self.tiles_flat, pa.uint8()), _DICTIONARIES["tiles"],
                                                ordered=True)
        arrays["tiles"] = pa.LargeListArray.from_arrays(pa.array(offsets), values,
                                                        type=ARROW_SCHEMA.field("tiles").type, mask=pa.array(no_tiles))
        deltas = np.zeros((n, 4), np.int64)
        no_delta = np.ones((n, 4), bool)
        if self.delta_rows:
            given = np.array([0 if d is None else d for d in self.deltas], np.int64).reshape(-1, 4)
            deltas[self.delta_rows] = given
            no_delta[self.delta_rows] = np.array([d is None for d in self.deltas]).reshape(-1, 4)
        for s in range(4):
            arrays[f"delta_{s}"] = pa.array(deltas[:, s].astype(np.int32), pa.int32(), mask=no_delta[:, s])
        return pa.Table.from_arrays([arrays[name] for name in PLAYED_SCHEMA.names], schema=PLAYED_SCHEMA)


EventColumns = _Columns  # the rows of a batch, for the log tables of games (.tables_from_games)
_DICTIONARIES = {"round": pa.array(ROUNDS, pa.large_string()), "event": pa.array(EVENTS, pa.large_string()),
                 "tile": pa.array(TILES, pa.large_string()), "tiles": pa.array(TILES, pa.large_string())}


def game_events(game: Game, gid: str, out: _Columns) -> int:
    """Append the rows of every hand of ``game`` to ``out``; the number of rows."""
    names: list[str | None] = list(seat_names(game.names))
    for s, name in enumerate(names):
        if name.startswith(ANONYMOUS):  # as the hand records name them: a different person in every game
            names[s] = f"{ANONYMOUS}@{gid}#{s}"
    if game.players == 3:
        names[3] = None
    codes = out.codes
    append = codes.append
    tile_bits, seat_bits, giri_bits = _TILE_BITS, _SEAT_BITS, _GIRI_BITS
    ev_draw, ev_discard, ev_declared, ev_accepted, ev_dora, ev_kita, ev_haipai = (
        _event_bits(e) for e in ("draw", "discard", "riichi_declared", "riichi_accepted", "dora", "kita", "haipai"))
    hands = out.hands
    first = len(codes)
    if len(game.kyokus) > INT16_MAX or any(not 0 <= x <= INT16_MAX for k in game.kyokus for x in (k.honba, k.kyotaku)):
        raise ValueError(f"a counter beyond the events table's Int16 (at most {INT16_MAX:,})")
    for n, k in enumerate(game.kyokus):
        start = len(codes)
        wall = wall_draws(k.players)
        discards = [0, 0, 0, 0]
        accepted: list[int] = []
        for s in range(k.players):
            out.tiles_rows.append(len(codes))
            out.tiles_lengths.append(len(k.haipai[s]))
            out.tiles_flat.extend(sorted(_TILE_INDEX[t] for t in k.haipai[s]))
            append(ev_haipai | seat_bits[s] | wall | 1 << _TURN_SHIFT)
        for indicator in k.dora:
            append(ev_dora | tile_bits[indicator] | wall)
        last_draw = last_discard = last_play = None
        last_turn = 0
        for ev in k.events:
            typ = ev[0]
            if typ == "draw":
                s = ev[1]
                wall -= 1
                last_turn = discards[s] + 1
                append(ev_draw | seat_bits[s] | tile_bits[ev[2]] | wall | (last_turn + 1) << _TURN_SHIFT)
                last_draw = last_play = ev
            elif typ == "discard":
                s = ev[1]
                if ev[3]:
                    append(ev_declared | seat_bits[s] | wall | (discards[s] + 2) << _TURN_SHIFT)
                last_turn = discards[s] = discards[s] + 1
                append(ev_discard | seat_bits[s] | tile_bits[ev[2]] | wall | (last_turn + 1) << _TURN_SHIFT
                       | giri_bits[ev[4] if len(ev) > 4 else None])
                last_discard = last_play = ev
            elif typ == "call":
                _, s, meld, tiles, called, frm = ev[:6]
                out.tiles_rows.append(len(codes))
                out.tiles_lengths.append(len(tiles))
                out.tiles_flat.extend(sorted(_TILE_INDEX[t] for t in tiles))
                append(_event_bits(meld) | seat_bits[s] | tile_bits[called] | wall
                       | (0 if meld in ("kakan", "ankan") else _FROM_BITS[frm]) | (discards[s] + 2) << _TURN_SHIFT)
                last_play = ev
            elif typ == "kita":
                s = ev[1]
                append(ev_kita | seat_bits[s] | tile_bits[ev[2]] | wall | (discards[s] + 2) << _TURN_SHIFT)
                last_play = ev
            elif typ == "reach":
                s = ev[1]
                accepted.append(s)
                append(ev_accepted | seat_bits[s] | wall | (discards[s] + 1) << _TURN_SHIFT)
            elif typ == "dora":
                append(ev_dora | tile_bits[ev[1]] | wall)
        outcomes = list(k.outcomes)
        if outcomes and outcomes[0].result == "ron":
            loser = outcomes[0].loser
            outcomes.sort(key=lambda o: (o.winner - loser) % 4)
        for i, o in enumerate(outcomes):
            out.delta_rows.append(len(codes))
            out.deltas.extend(o.deltas[s] - (1000 * accepted.count(s) if i == 0 else 0) if s < k.players else None
                              for s in range(4))
            code = _event_bits(_OUTCOME_EVENT[o.result]) | wall
            turn = last_turn
            if o.result == "ron":
                code |= seat_bits[o.winner] | _FROM_BITS[o.loser]
                if last_play is not None and last_play[0] in ("call", "kita"):  # a kan or north robbed
                    code |= tile_bits[last_play[4] if last_play[0] == "call" else last_play[2]]
                    turn = discards[last_play[1]] + 1
                elif last_discard is not None:
                    code |= tile_bits[last_discard[2]]
            elif o.result == "tsumo":
                code |= seat_bits[o.winner] | (tile_bits[last_draw[2]] if last_draw is not None else 0)
                turn = discards[o.winner] + 1
            append(code | (turn + 1) << _TURN_SHIFT)
        for name, value in (("log_row", n + 1), ("round", _ROUND_INDEX[k.round]), ("honba", k.honba),
                            ("kyotaku", k.kyotaku), ("rows", len(codes) - start)):
            hands[name].append(value)
    total = len(codes) - first
    out.games["game_id"].append(gid)
    out.games["log_file"].append(game.file)
    out.games["rows"].append(total)
    out.names.extend(names)
    return total


def events_batch(files: list[Path], max_bytes: int = DEFAULT_MAX_LOG_BYTES):
    """Per file (game id, digest, rows, notes, error), and the events of every file that reads as one Arrow
    table (the runner drops the rows of a game met before)."""
    out = _Columns()
    outcomes = []
    for f in files:
        game, gid, digest, error = read_game(f, "auto", max_bytes)
        if game is None:
            outcomes.append((gid, digest, 0, [], error))
            continue
        mark = out.mark()
        try:
            rows = game_events(game, gid, out)
        except (KeyError, IndexError, TypeError, ValueError) as exc:  # a model no importer should give
            out.truncate(mark)
            outcomes.append((gid, digest, 0, [], f"cannot export ({type(exc).__name__}: {str(exc)[:200]})"))
            continue
        outcomes.append((gid, digest, rows, [tuple(note) for note in game.notes], None))
    return outcomes, out.table()


class EventsOutput(TableOutput):
    """The events table's Parquet file: each batch gains the columns derived from its play (``shanten``, from
    the seats' hands replayed as columns by :mod:`analyzer.play.state`) as it is appended. With ``seats``, the
    batches' ``hand_seats`` tables (:func:`analyzer.play.seats.hand_seats`, without ``start_score``: that
    needs the scored hand records) are written there too, from the same replay, the events file's SHA-256 in
    its metadata (:data:`EVENTS_DIGEST`): what a score run reads instead of replaying the events again, where
    the digest says the events are those it was made from (:func:`seats_of`).

    Batches of fewer than :data:`ROWS_PER_REPLAY` rows (a few dozen games read a game at a time) wait for the
    next, in order, and are replayed together: the replay's Polars runs cost about as much for 32 games as for
    256."""

    def __init__(self, path: str | Path, seats: str | Path | None = None) -> None:
        super().__init__(path, ARROW_SCHEMA)
        self.seats = None if seats is None else TableOutput(seats, SEATS_ARROW_SCHEMA)
        self.waiting: list[pa.Table] = []

    def open(self) -> None:
        super().open()
        if self.seats is not None:
            self.seats.open()

    def write(self, table: pa.Table) -> int:
        if table.num_rows:
            self.waiting.append(table)
            if sum(t.num_rows for t in self.waiting) >= ROWS_PER_REPLAY:
                self._replay_waiting()
        return table.num_rows

    def _replay_waiting(self) -> None:
        if not self.waiting:
            return
        table = pa.concat_tables(self.waiting)
        self.waiting = []
        frame = pl.from_arrow(table)
        states = seat_states(frame)
        table = table.append_column(ARROW_SCHEMA.field("shanten"), shanten_column(frame, states).to_arrow())
        if self.seats is not None:  # the batches hold whole games
            self.seats.write(hand_seats(frame, states=states).to_arrow())
        super().write(table)

    def close(self) -> None:
        self._replay_waiting()
        super().close()

    def commit(self) -> None:
        if self.seats is None:
            return super().commit()
        self.close()
        with writing(self.path):  # the events file read back for its digest
            self.seats.writer.add_key_value_metadata({EVENTS_DIGEST: file_digest(self.staged)})
        self.seats.commit()  # first: hand_seats beside other events do not match them, and are not read
        self.files.put_in_place([self.path.name])

    def abort(self) -> None:
        self.waiting = []
        super().abort()
        if self.seats is not None:
            self.seats.abort()


def file_digest(path: str | Path) -> str:
    """The SHA-256 of a file's bytes, as hex."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def seats_beside(events: str | Path) -> Path:
    """Where the ``hand_seats`` of an events file are written and looked for: ``NAME.events.parquet`` →
    ``NAME.hand_seats.parquet`` (another name: its stem + :data:`SEATS_SUFFIX`)."""
    path = Path(events)
    stem = path.name[:-len(".events.parquet")] if path.name.endswith(".events.parquet") else path.stem
    return path.with_name(stem + SEATS_SUFFIX)


def seats_of(events: str | Path) -> str | None:
    """The ``hand_seats`` file beside the events file ``events`` (:func:`seats_beside`) when it was made from
    these very events (its :data:`EVENTS_DIGEST` is their SHA-256) and has the table's columns; else None."""
    seats = seats_beside(events)
    try:
        footer = pq.read_metadata(seats)
        made_from = (footer.metadata or {}).get(EVENTS_DIGEST.encode(), b"").decode()
        complete = set(footer.schema.names) >= set(SEATS_COLUMNS)
        return str(seats) if made_from and complete and made_from == file_digest(events) else None
    except (OSError, pa.ArrowException):
        return None
