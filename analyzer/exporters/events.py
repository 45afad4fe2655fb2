"""The events table: one row per event of every hand, built in the export workers from the game model.

Rows of a hand, in play order (``seq`` from 1): the four (three) ``haipai`` rows, a ``dora`` row per indicator
shown at the start, then every draw, discard, call, north set aside, riichi declaration and acceptance and new
kan dora as the log records them, and last the hand's outcome rows: ``ron`` (one per winner, in turn order from
the discarder, as the hand records' rows), ``tsumo``, ``exhaustive_draw`` (nagashi mangan included) or
``abort``. The columns are described in ``docs/outputs.md`` (:data:`SCHEMA`).

Per game the rows are Python lists (one loop over the events, as the importers' replay); per batch of files
they become one Arrow table with the exact types of :data:`SCHEMA` (dictionary codes for the Enum columns),
which the runner appends to the Parquet file as it is.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow as pa

from analyzer.exporters.run import read_game
from analyzer.importers.files import DEFAULT_MAX_LOG_BYTES
from analyzer.importers.model import Game, wall_draws
from analyzer.importers.rows import ANONYMOUS, _names
from analyzer.importers.tile_text import RED, tile_str

EVENTS = ("haipai", "draw", "discard", "chi", "pon", "minkan", "kakan", "ankan", "kita", "riichi_declared",
          "riichi_accepted", "dora", "ron", "tsumo", "exhaustive_draw", "abort")
ROUNDS = tuple(f"{wind}{n}" for wind in "ESWN" for n in range(1, 5))
# by kind, a red five after its suit's nine: 1m..9m 0m 1p..9p 0p 1s..9s 0s 1z..7z
TILE_CODES = [*range(9), RED + 4, *range(9, 18), RED + 13, *range(18, 27), RED + 22, *range(27, 34)]
TILES = tuple(tile_str(t) for t in TILE_CODES)

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
})
ARROW_SCHEMA: pa.Schema = pl.DataFrame(schema=SCHEMA).to_arrow().schema

_TILE_INDEX = {t: i for i, t in enumerate(TILE_CODES)}
_EVENT_INDEX = {e: i for i, e in enumerate(EVENTS)}
_ROUND_INDEX = {r: i for i, r in enumerate(ROUNDS)}
_OUTCOME_EVENT = {"ron": "ron", "tsumo": "tsumo", "draw": "exhaustive_draw", "nagashi": "exhaustive_draw",
                  "abort": "abort"}
_PER_ROW = ("seq", "turn", "seat", "player", "event", "tile", "from_seat", "tsumogiri", "wall_left",
            "delta_0", "delta_1", "delta_2", "delta_3")
_PER_HAND = ("log_row", "round", "honba", "kyotaku")


class _Columns:
    """The columns of a batch as Python lists (Enum columns as dictionary codes, ``tiles`` flat + offsets)."""

    def __init__(self) -> None:
        self.lists: dict[str, list] = {name: [] for name in (*_PER_ROW, *_PER_HAND, "game_id", "log_file")}
        self.tiles_flat: list[int] = []
        self.tiles_offsets: list[int] = [0]
        self.tiles_valid: list[bool] = []

    def table(self) -> pa.Table:
        arrays = []
        for name, arrow_field in zip(ARROW_SCHEMA.names, ARROW_SCHEMA):
            kind = arrow_field.type
            if name == "tiles":
                values = pa.DictionaryArray.from_arrays(pa.array(self.tiles_flat, kind.value_type.index_type),
                                                        _DICTIONARIES["tiles"], ordered=True)
                offsets = pa.array(self.tiles_offsets, pa.int64())
                mask = pa.array([not v for v in self.tiles_valid], pa.bool_())
                arrays.append(pa.LargeListArray.from_arrays(offsets, values, type=kind, mask=mask))
            elif pa.types.is_dictionary(kind):
                arrays.append(pa.DictionaryArray.from_arrays(pa.array(self.lists[name], kind.index_type),
                                                             _DICTIONARIES[name], ordered=True))
            else:
                arrays.append(pa.array(self.lists[name], kind))
        return pa.Table.from_arrays(arrays, schema=ARROW_SCHEMA)


_DICTIONARIES = {"round": pa.array(ROUNDS, pa.large_string()), "event": pa.array(EVENTS, pa.large_string()),
                 "tile": pa.array(TILES, pa.large_string()), "tiles": pa.array(TILES, pa.large_string())}


def game_events(game: Game, gid: str, out: _Columns) -> int:
    """Append the rows of every hand of ``game`` to ``out``; the number of rows."""
    names: list[str | None] = list(_names(game.names))
    for s, name in enumerate(names):
        if name.startswith(ANONYMOUS):  # as the hand records name them: a different person in every game
            names[s] = f"{ANONYMOUS}@{gid}#{s}"
    if game.players == 3:
        names[3] = None
    cols = out.lists
    seq, turn_col, seat_col, player, event, tile_col = (cols[n] for n in _PER_ROW[:6])
    from_col, tsumogiri_col, wall_col, d0, d1, d2, d3 = (cols[n] for n in _PER_ROW[6:])
    tiles_flat, tiles_offsets, tiles_valid = out.tiles_flat, out.tiles_offsets, out.tiles_valid
    ev_draw, ev_discard, ev_declared, ev_accepted, ev_dora, ev_kita = (
        _EVENT_INDEX[e] for e in ("draw", "discard", "riichi_declared", "riichi_accepted", "dora", "kita"))
    tile_index = _TILE_INDEX
    total = 0

    def row(s, ev, t, tiles, frm, tsumogiri, wall, turn, deltas=None):
        seq.append(len(seq) - start + 1)
        turn_col.append(turn)
        seat_col.append(s)
        player.append(None if s is None else names[s])
        event.append(ev)
        tile_col.append(None if t is None else tile_index[t])
        if tiles is None:
            tiles_valid.append(False)
        else:
            tiles_flat.extend([tile_index[x] for x in tiles])
            tiles_valid.append(True)
        tiles_offsets.append(len(tiles_flat))
        from_col.append(frm)
        tsumogiri_col.append(tsumogiri)
        wall_col.append(wall)
        for column, value in zip((d0, d1, d2, d3), deltas or (None, None, None, None)):
            column.append(value)

    for n, k in enumerate(game.kyokus):
        start = len(seq)
        wall = wall_draws(k.players)
        discards = [0, 0, 0, 0]
        accepted: list[int] = []
        for s in range(k.players):
            row(s, _EVENT_INDEX["haipai"], None, sorted(k.haipai[s], key=_TILE_INDEX.__getitem__), None, None,
                wall, 0)
        for indicator in k.dora:
            row(None, ev_dora, indicator, None, None, None, wall, None)
        last_draw = last_discard = last_play = None
        last_turn = 0
        for ev in k.events:
            typ = ev[0]
            if typ == "draw":
                s = ev[1]
                wall -= 1
                last_turn = discards[s] + 1
                row(s, ev_draw, ev[2], None, None, None, wall, last_turn)
                last_draw = last_play = ev
            elif typ == "discard":
                s = ev[1]
                if ev[3]:
                    row(s, ev_declared, None, None, None, None, wall, discards[s] + 1)
                discards[s] += 1
                last_turn = discards[s]
                row(s, ev_discard, ev[2], None, None, ev[4] if len(ev) > 4 else None, wall, last_turn)
                last_discard = last_play = ev
            elif typ == "call":
                _, s, meld, tiles, called, frm = ev[:6]
                row(s, _EVENT_INDEX[meld], called, sorted(tiles, key=_TILE_INDEX.__getitem__),
                    None if meld in ("kakan", "ankan") else frm, None, wall, discards[s] + 1)
                last_play = ev
            elif typ == "kita":
                s = ev[1]
                row(s, ev_kita, ev[2], None, None, None, wall, discards[s] + 1)
                last_play = ev
            elif typ == "reach":
                s = ev[1]
                accepted.append(s)
                row(s, ev_accepted, None, None, None, None, wall, discards[s])
            elif typ == "dora":
                row(None, ev_dora, ev[1], None, None, None, wall, None)
        outcomes = list(k.outcomes)
        if outcomes and outcomes[0].result == "ron":
            loser = outcomes[0].loser
            outcomes.sort(key=lambda o: (o.winner - loser) % 4)
        for i, o in enumerate(outcomes):
            deltas = [o.deltas[s] - (1000 * accepted.count(s) if i == 0 else 0) if s < k.players else None
                      for s in range(4)]
            turn, t, frm, s = last_turn, None, None, None
            if o.result == "ron":
                s, frm = o.winner, o.loser
                if last_play is not None and last_play[0] in ("call", "kita"):  # a kan or north robbed
                    t = last_play[4] if last_play[0] == "call" else last_play[2]
                    turn = discards[last_play[1]] + 1
                elif last_discard is not None:
                    t = last_discard[2]
            elif o.result == "tsumo":
                s = o.winner
                t = last_draw[2] if last_draw is not None else None
                turn = discards[s] + 1
            row(s, _EVENT_INDEX[_OUTCOME_EVENT[o.result]], t, None, frm, None, wall, turn, deltas)
        rows = len(seq) - start
        total += rows
        for name, value in (("log_row", n + 1), ("round", _ROUND_INDEX[k.round]), ("honba", k.honba),
                            ("kyotaku", k.kyotaku)):
            cols[name].extend([value] * rows)
    cols["game_id"].extend([gid] * total)
    cols["log_file"].extend([game.file] * total)
    return total


def events_batch(files: list[Path], max_bytes: int = DEFAULT_MAX_LOG_BYTES):
    """Per file (game id, digest, rows, notes, error), and the events of every file that reads as one Arrow
    table (the runner drops the rows of a game met before)."""
    out = _Columns()
    outcomes = []
    for f in files:
        game, gid, digest, error = read_game(f, max_bytes)
        if game is None:
            outcomes.append((gid, digest, 0, [], error))
            continue
        mark = {name: len(values) for name, values in out.lists.items()}
        flat, offsets = len(out.tiles_flat), len(out.tiles_offsets)
        try:
            rows = game_events(game, gid, out)
        except (KeyError, IndexError, TypeError, ValueError) as exc:  # a model no importer should give
            for name, values in out.lists.items():
                del values[mark[name]:]
            del out.tiles_flat[flat:], out.tiles_offsets[offsets:], out.tiles_valid[offsets - 1:]
            outcomes.append((gid, digest, 0, [], f"cannot export ({type(exc).__name__}: {str(exc)[:200]})"))
            continue
        outcomes.append((gid, digest, rows, [tuple(note) for note in game.notes], None))
    return outcomes, out.table()
