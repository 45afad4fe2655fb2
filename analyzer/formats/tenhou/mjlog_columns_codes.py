"""What the columnar mjlog reader (:mod:`.mjlog_columns`) decodes with integer arithmetic, and how it builds
its list columns: tile ids, meld codes, and Arrow arrays from offsets.

* tile ids 0-135 (``id // 4`` the kind; ids 16, 52 and 88 the red fives where the game has them) into the
  index of the tile Enum (:data:`analyzer.formats.log_tables.TILE`): :func:`tile_index`;
* Tenhou's bit-packed meld code (``<N m=…>``, ``<AGARI m=…>``) into its kind, tile ids, called tile and the
  seat it was called from: :func:`meld_columns` (the rules of :func:`analyzer.formats.tenhou.mjlog._meld`);
* list columns from flat values and lengths (Arrow offsets, no list built per row): :func:`lists`, and a
  Polars series of a log table's type from an Arrow array: :func:`series`.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import polars as pl
import pyarrow as pa

from analyzer.formats.events import EVENTS, TILES
from analyzer.formats.log_tables import EVENTS as EVENT_SCHEMA
from analyzer.formats.log_tables import TILE

TILE_VALUES = pl.Series("tile", TILES, dtype=TILE)
EVENT = {name: i for i, name in enumerate(EVENTS)}
RED_IDS = (16, 52, 88)
NORTH_IDS = (120, 121, 122, 123)
CHI, PON, MINKAN, KAKAN, ANKAN, KITA = (EVENT[k] for k in ("chi", "pon", "minkan", "kakan", "ankan", "kita"))
MELD_NAMES = {CHI: "chi", PON: "pon", MINKAN: "minkan", KAKAN: "kakan", ANKAN: "ankan"}


def tile_index(tid: pl.Expr, aka: pl.Expr | bool) -> pl.Expr:
    """The tile Enum's index of tile id ``tid`` (0-135): the kind, a red five apart where ``aka``."""
    kind = tid // 4
    plain = kind + pl.min_horizontal(kind // 9, pl.lit(3))
    red = tid.is_in(RED_IDS) & aka
    return pl.when(red).then((kind // 9) * 10 + 9).otherwise(plain).cast(pl.Int16)


def _tile_table() -> np.ndarray:
    """:func:`tile_index` of every tile id with red fives (0-135), then without them (136-271)."""
    tids = np.arange(136)
    kind = tids // 4
    plain = kind + np.minimum(kind // 9, 3)
    red = np.where(np.isin(tids, RED_IDS), (kind // 9) * 10 + 9, plain)
    return np.concatenate([red, plain]).astype(np.uint8)


TILE_TABLE = _tile_table()  # by tile id with red fives, then 136 + tile id without


def tile_index_array(tids: np.ndarray, aka: np.ndarray) -> np.ndarray:
    """:func:`tile_index` of an array of tile ids 0-135 (``aka`` per id, broadcast): a look-up."""
    return TILE_TABLE[tids + np.where(aka, 0, 136)]


def meld_columns(m: pl.Expr, who: pl.Expr) -> dict[str, pl.Expr]:
    """A meld code's ``meld`` (the events' chi, pon, minkan, kakan, ankan or kita number), tile ids ``t0``..``t3``
    in the per-game model's order (``t3`` null for a chi or pon, ``t1``.. null for a north set aside),
    ``called`` (the called, added or set-aside tile id) and ``frm`` (the seat it came from; the caller for a
    closed kan and a north). ``m`` is a code of 0 or more (a negative one is refused before)."""
    bit = [(m // (1 << b)) % 2 == 1 for b in range(6)]
    chi, pon = bit[2], ~bit[2] & bit[3]
    kakan = ~bit[2] & ~bit[3] & bit[4]
    kita = ~bit[2] & ~bit[3] & ~bit[4] & bit[5]
    closed = ~bit[2] & ~bit[3] & ~bit[4] & ~bit[5] & (m % 4 == 0)
    meld = (pl.when(chi).then(CHI).when(pon).then(PON).when(kakan).then(KAKAN).when(kita).then(KITA)
            .when(closed).then(ANKAN).otherwise(MINKAN))
    # chi: the called tile's place and the lowest kind, then each tile's copy
    chi_called = m // 1024
    chi_base = chi_called // 3
    chi_base = (chi_base // 7) * 9 + chi_base % 7
    chi_tiles = [(chi_base + i) * 4 + (m // (8 << (2 * i))) % 4 for i in range(3)]
    # pon and kakan: the copy left out of the pon, the called tile's place and the kind
    unused = (m // 32) % 4
    pon_called = m // 512
    pon_base = (pon_called // 3) * 4
    pon_tiles = [pon_base + j + (unused <= j).cast(pl.Int64) for j in range(3)]
    kan_tile = m // 256
    kan_tiles = [(kan_tile // 4) * 4 + j for j in range(4)]

    def pick(i: int) -> pl.Expr:
        return (pl.when(chi).then(chi_tiles[i] if i < 3 else None)
                .when(pon).then(pon_tiles[i] if i < 3 else None)
                .when(kakan).then(pon_tiles[i] if i < 3 else pon_base + unused)
                .when(kita).then(kan_tile if i == 0 else None)
                .otherwise(kan_tiles[i]))

    def chosen(tiles: list[pl.Expr], place: pl.Expr) -> pl.Expr:
        return pl.when(place == 0).then(tiles[0]).when(place == 1).then(tiles[1]).otherwise(tiles[2])

    called = (pl.when(chi).then(chosen(chi_tiles, chi_called % 3))
              .when(pon).then(chosen(pon_tiles, pon_called % 3))
              .when(kakan).then(pon_base + unused).otherwise(kan_tile))
    frm = pl.when(kita | closed).then(who).otherwise((who + m % 4) % 4)
    return {"meld": meld.cast(pl.Int8), **{f"t{i}": pick(i) for i in range(4)}, "called": called,
            "frm": frm.cast(pl.Int8)}


@cache
def arrow_field(dtype: pl.DataType) -> pa.Field:
    """The Arrow field Polars writes a column of ``dtype`` as (an Enum's categories in its metadata)."""
    return pl.DataFrame(schema={"x": dtype}).to_arrow().schema.field("x")


def series(array: pa.Array, dtype: pl.DataType, name: str) -> pl.Series:
    """An Arrow array of ``dtype``'s Arrow type (:func:`arrow_field`) as a Polars series of ``dtype``."""
    field = arrow_field(dtype).with_name(name)
    return pl.from_arrow(pa.table([array], schema=pa.schema([field]))).to_series()


def enum_array(codes: np.ndarray, dtype: pl.DataType, valid: np.ndarray | None = None) -> pa.Array:
    """Dictionary codes (the Enum's indices) as the Arrow array of an Enum column of ``dtype``."""
    kind = arrow_field(dtype).type
    indices = pa.array(codes.astype(np.uint8 if kind.index_type == pa.uint8() else np.uint32, copy=False),
                       kind.index_type, mask=None if valid is None else ~valid)
    return pa.DictionaryArray.from_arrays(indices, pa.array(dtype.categories.to_list(), kind.value_type),
                                          ordered=kind.ordered)


def lists(values: pa.Array, lengths: np.ndarray, dtype: pl.DataType, valid: np.ndarray | None = None) -> pa.Array:
    """``values`` (flat, in row order) as a list array of ``dtype`` (a ``pl.List``) with ``lengths[i]`` values in
    row ``i``; null where ``valid`` is False."""
    offsets = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return pa.LargeListArray.from_arrays(pa.array(offsets), values, type=arrow_field(dtype).type,
                                         mask=None if valid is None else pa.array(~valid))


def fill(length: int, positions: np.ndarray, values: np.ndarray, dtype=np.int64) -> tuple[np.ndarray, np.ndarray]:
    """(values at ``positions`` of an array of ``length``, the mask of the positions set): a sparse column."""
    full = np.zeros(length, dtype)
    full[positions] = values
    valid = np.zeros(length, bool)
    valid[positions] = True
    return full, valid


def _bitmap(n: int, rows: np.ndarray) -> pa.Buffer:
    """The Arrow validity bitmap of ``n`` rows valid at ``rows`` only."""
    valid = np.zeros(n, bool)
    valid[rows] = True
    return pa.py_buffer(np.packbits(valid, bitorder="little"))


def play_arrays(rows: dict[str, np.ndarray], numbers: np.ndarray, per_hand: dict[str, np.ndarray],
                kyoku: np.ndarray, tsumogiri: np.ndarray) -> dict[str, pa.Array]:
    """The events table's columns read off the play rows kept (:func:`.mjlog_columns_play.kept_rows`): ``game``
    (``numbers``: each file's game number), the hand's ``log_row``, ``honba`` and ``kyotaku`` (``per_hand``,
    Int16 by hand) and ``round`` (``kyoku`` by hand), ``seq``, ``turn``, ``seat``, ``event``, ``from_seat``,
    ``wall_left`` and ``tsumogiri`` (-1 none, 0, 1 by row); a reader adds ``tile``, ``tiles`` and the deltas."""
    hand, seat = rows["hand"], rows["seat"]
    return {
        "game": pa.array(numbers[rows["file"]]),
        **{name: pa.array(values[hand]) for name, values in per_hand.items()},
        "round": enum_array((kyoku % 16).astype(np.uint8)[hand], EVENT_SCHEMA["round"]),
        "seq": pa.array(rows["seq"]),
        "turn": pa.array(rows["turn"], mask=rows["turn"] < 0),
        "seat": pa.array(seat, mask=seat < 0),
        "event": enum_array(rows["ev"], EVENT_SCHEMA["event"]),
        "from_seat": pa.array(rows["frm"], mask=rows["frm"] < 0),
        "tsumogiri": pa.array(tsumogiri == 1, mask=tsumogiri < 0),
        "wall_left": pa.array(rows["wall_left"]),
    }


def events_frame(arrays: dict[str, pa.Array], file: np.ndarray, seat: np.ndarray, names: pl.Series,
                 game_ids: list[str], log_files: list[str]) -> pl.DataFrame:
    """The events table (:data:`analyzer.formats.log_tables.EVENTS`) of its columns as Arrow arrays, with each
    row's game id and log file by its file's number (``file``) and its player by file and seat (``names``
    indexed ``file * 4 + seat``; none where ``seat`` is -1). The texts are gathered as Polars strings: views of
    the few texts, not copies."""
    fields = [arrow_field(dtype).with_name(name) for name, dtype in EVENT_SCHEMA.items() if name in arrays]
    frame = pl.from_arrow(pa.Table.from_arrays([arrays[f.name] for f in fields], schema=pa.schema(fields)))
    at_file = pl.Series(file)
    unseated = seat < 0
    player = names.gather(pl.Series(file.astype(np.int64) * 4 + np.where(unseated, 0, seat)))
    return frame.with_columns(
        game_id=pl.Series(game_ids, dtype=pl.String).gather(at_file),
        log_file=pl.Series(log_files, dtype=pl.String).gather(at_file),
        player=player.set(pl.Series(unseated), None) if unseated.any() else player,
    ).select(list(EVENT_SCHEMA))


def outcome_deltas(n: int, e: dict[str, np.ndarray], recorded: list[np.ndarray], four: np.ndarray
                   ) -> dict[str, pa.Array]:
    """The events table's ``delta_0``..``delta_3`` of ``n`` rows: at the outcome rows (``e["out"]``) as
    ``recorded`` (per seat, an array by outcome row), less the riichi sticks put down in the hand
    (``e["sticks"]``) for its first outcome (``e["first"]``); null for seat 3 where not ``four`` players and on
    every other row (one validity bitmap for all)."""
    out = e["out"]
    valid = [_bitmap(n, out)] * 3 + [_bitmap(n, out[four]) if not four.all() else None]
    deltas = {}
    for s in range(4):
        full = np.zeros(n, np.int32)
        full[out] = recorded[s] - np.where(e["first"], 1000 * e["sticks"][:, s], 0)
        deltas[f"delta_{s}"] = pa.Array.from_buffers(pa.int32(), n, [valid[s] or valid[0], pa.py_buffer(full)])
    return deltas


def event_tiles(n: int, deal_pos: np.ndarray, dealt: np.ndarray, call_pos: np.ndarray, call_tiles: np.ndarray,
                call_lengths: np.ndarray) -> pa.Array:
    """The events table's ``tiles`` column of ``n`` rows: the thirteen tile indices of ``dealt`` (deals x 13)
    at the deal rows ``deal_pos``, the first ``call_lengths`` of ``call_tiles`` (calls x 4) at the call rows
    ``call_pos``, null elsewhere."""
    lengths = np.zeros(n, np.int64)
    lengths[deal_pos] = 13
    lengths[call_pos] = call_lengths
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = np.zeros(int(offsets[-1]), np.uint8)
    flat[(offsets[deal_pos][:, None] + np.arange(13)).reshape(-1)] = dealt.reshape(-1)
    place = offsets[call_pos][:, None] + np.arange(4)
    used = np.arange(4) < call_lengths[:, None]
    flat[place[used]] = call_tiles[used]
    return lists(enum_array(flat, TILE), lengths, pl.List(TILE), lengths > 0)
