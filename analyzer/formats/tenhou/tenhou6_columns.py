"""tenhou.net/6 JSON from the log tables (:mod:`analyzer.formats.log_tables`): byte for byte what
:func:`.tenhou6_write.game_to_tenhou6` writes from the game model (see :mod:`.tenhou6_write` for the layout),
built as columns (:func:`tenhou6_texts`).

A hand is ``[[kyoku, honba, sticks], scores, dora, ura, haipai, draws, discards (per seat), result]``. Every
draw, discard, call and north set aside of the events table is one item of its seat's draws or discards
(an open kan one of each: the call and a ``0``): a draw or discard is one of a few hundred texts, gathered by
its code, a call's string (``c121314``, ``15p1515``, ``151515m15``, ``151515a51``, a kakan its pon's string
with ``k`` and the added tile) is put together. The items, with the rows of each hand's frame around them
(the hand's head and each seat's haipai before its draws, ``],[`` between a seat's draws and discards, the
result after the last seat; the game's head before its first hand and its tail after the last), are put in
the files' order by a counting sort (:func:`file_order`: the items are in play order already, only the lists
they go to are apart); the rows in that order are the files, game after game (:class:`.game_texts.GameTexts`).
The result arrays are :mod:`.tenhou6_columns_result`'s.

A game the model's writer cannot write gets its reason: a seat drawing out of turn (per-seat lists cannot say
it), a kakan without its pon, a hand without a result, an abortive draw of no known kind, a tsumo whose
points are not recorded, final scores of fewer than four seats, a ruleset spec that cannot be worked out.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analyzer.formats.events import TILES
from analyzer.formats.game_texts import (KINDS, TENHOU_CODES, GameTexts, call_others, first_error, json_int,
                                         json_ints, json_value, lookup, run_starts, tile_code, tile_texts)
from analyzer.formats.log_tables import LogTables
from analyzer.formats.mjai.write import EXTENSION
from analyzer.formats.mjai.write_columns import extension_fields, per_seat_json, sorted_tables
from analyzer.formats.tenhou.tenhou6_columns_result import NO_OUTCOME, result_texts
from analyzer.formats.tile_text import RED

HAND_KEY = ("game", "log_row")
FROM_SEAT = {3: 0, 2: 1}  # the called tile's place among the call's tiles by (from - caller) % 4; 1: last
ROW_RANK = 1 << 16  # an error's rank: the hand's number times this, plus the row's seq
AFTER_PLAY = ROW_RANK - 1  # the rank of a hand's result: after its play
AFTER_HANDS = 1 << 40  # after every hand: the game's final scores
CODE_TEXTS = [str(code) for code in TENHOU_CODES]
MODEL_TILES = [str(kind + (RED if name[0] == "0" else 0)) for kind, name in zip(KINDS, TILES)]  # the model's ints
# a draw out of turn: "seat S draws out of turn (seat N" and this
OUT_OF_TURN = (" is next), which tenhou.net/6 cannot say: it keeps each seat's draws in a list of its own, read in "
               "turn order")


def _items() -> list[str]:
    """The text of every draw and discard item by its code (:func:`play_rows`' ``item``)."""
    items = list(CODE_TEXTS)  # 0-36: a draw
    for t, code in enumerate(CODE_TEXTS):  # 37 + (tile * 3 + tsumogiri) * 2 + riichi: a discard
        for giri in range(3):  # 0: not tsumogiri, 1: tsumogiri (60), 2: not said
            shown = "60" if giri == 1 else code
            items += [shown, f'"r{shown}"']
    items += [f'"f{code}"' for code in CODE_TEXTS]  # 259 + tile: a north set aside
    return items + ["0"]  # 296: an open kan's place among the discards


ITEMS = _items()
DISCARD_AT, KITA_AT, KAN_GAP = 37, 259, 296
ITEM_TEXTS = [*ITEMS, *("," + item for item in ITEMS)]  # + len(ITEMS): after another item


def _code(tile: pl.Expr) -> pl.Expr:
    return lookup(CODE_TEXTS, tile_code(tile))


def play_rows(events: pl.LazyFrame) -> pl.DataFrame:
    """The draws, discards, calls and norths set aside of every hand in play order: ``game``, ``log_row``,
    ``seq``, ``event``, ``seat``, ``list`` (the item's list: seat times 2, plus 1 for the discards), ``item``
    (its code in :data:`ITEMS`, null for a call), ``row`` (its place in the events)."""
    event, tile = pl.col("event"), tile_code(pl.col("tile"))
    riichi = (event.shift(1) == "riichi_declared").fill_null(False).cast(pl.Int64)
    giri = pl.when(pl.col("tsumogiri")).then(1).when(~pl.col("tsumogiri")).then(0).otherwise(2)
    item = (pl.when(event == "draw").then(tile).when(event == "discard").then(DISCARD_AT + (tile * 3 + giri) * 2
                                                                              + riichi)
            .when(event == "kita").then(KITA_AT + tile))
    discards = ~event.is_in(["draw", "chi", "pon", "minkan"])
    return (events.with_row_index("row").with_columns(item=item)
            .filter(event.is_in(["draw", "discard", "kita", "chi", "pon", "minkan", "kakan", "ankan"]))
            .select(*HAND_KEY, "seq", "event", "seat", list=pl.col("seat").cast(pl.Int64) * 2 + discards,
                    item="item", row="row").collect())


def file_order(item_hands: np.ndarray, item_lists: np.ndarray, hands: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the items and the frame rows go in the files: (the source row at each place, the place of each
    source row, the hand of each place). The sources are the items (``item_hands``: each one's hand, in play
    order; ``item_lists``: seat times 2, plus 1 for the discards), then the frame rows: slots 0, 2, 4 of seat 0,
    then of seat 1 ..., each for every hand. A counting sort: each hand's places are its frame rows and items in the order of the
    layout (a seat's slot 0, its draws, slot 2, its discards, slot 4), the items of a list in play order."""
    lists = 8
    counts = np.bincount(item_hands * lists + item_lists, minlength=hands * lists).reshape(hands, lists)
    before_list = np.cumsum(counts, axis=1) - counts  # the items of the hand's lists before each list
    size = counts.sum(axis=1) + 3 * 4
    base = np.cumsum(size) - size
    frames_before = 3 * (np.arange(lists) // 2) + 1 + np.arange(lists) % 2  # frame rows before each list
    # an item's place among the items of its list: its place among all items of that list number (a stable
    # sort by the list, a radix sort of small ints), less those of the hands before
    by_list = np.argsort(item_lists.astype(np.uint8), kind="stable")
    in_order = np.empty(len(item_hands), np.int64)
    in_order[by_list] = np.arange(len(item_hands))
    list_starts = np.cumsum(counts.sum(axis=0)) - counts.sum(axis=0)
    earlier = np.cumsum(counts, axis=0) - counts  # the items of each list in the hands before
    rank = in_order - list_starts[item_lists] - earlier[item_hands, item_lists]
    places = np.empty(len(item_hands) + 12 * hands, np.int64)
    places[: len(item_hands)] = (base[item_hands] + frames_before[item_lists]
                                 + before_list[item_hands, item_lists] + rank)
    for seat in range(4):
        for k, items_before in enumerate((before_list[:, 2 * seat], before_list[:, 2 * seat] + counts[:, 2 * seat],
                                          before_list[:, 2 * seat + 1] + counts[:, 2 * seat + 1])):
            at = len(item_hands) + (seat * 3 + k) * hands
            places[at:at + hands] = base + 3 * seat + k + items_before
    source = np.empty_like(places)
    source[places] = np.arange(len(places))
    return source, places, np.repeat(np.arange(hands), size)


def call_texts(events: pl.LazyFrame) -> pl.LazyFrame:
    """One row per call: ``row`` (its place in the events), ``text`` (its string, quoted), and the errors of
    the model's writer: ``no_pon`` (a kakan with no pon of its seat and kind before it), ``bad_from`` (a
    chi, pon or open kan from its own seat), ``missing`` (the tiles do not hold the called tile)."""
    calls = events.with_row_index("row").filter(pl.col("event").is_in(["chi", "pon", "minkan", "kakan", "ankan"]))
    calls = calls.select("row", *HAND_KEY, "seq", "event", "seat", "tile", "tiles", "from_seat")
    calls = calls.join(call_others(calls), on="row", how="left").sort("row")  # a join keeps no order
    event = pl.col("event")
    codes = tile_texts(pl.col("other"), CODE_TEXTS).list.join("")
    relative = (pl.col("from_seat").cast(pl.Int64) - pl.col("seat")) % 4
    at = 2 * pl.when(relative == 1).then(pl.col("other").list.len()).otherwise(
        relative.replace_strict(FROM_SEAT, default=0))
    letter = pl.when(event == "chi").then(pl.lit("c")).when(event == "pon").then(pl.lit("p")).otherwise(pl.lit("m"))
    called = pl.concat_str(letter, _code(pl.col("tile")))
    opened = pl.concat_str(codes.str.slice(0, at), called, codes.str.slice(at))
    sorted_codes = tile_texts(pl.col("tiles"), CODE_TEXTS)
    closed = pl.concat_str(sorted_codes.list.head(3).list.join(""), pl.lit("a"),
                           sorted_codes.list.slice(3).list.join(""))
    kind = lookup(KINDS, tile_code(pl.col("tile")), pl.Int64)
    # a kakan's pon: the last pon of its seat and kind before it (sorted so; "" at a run's start: none)
    group = (*HAND_KEY, "seat", "kind")
    calls = calls.with_columns(text=pl.when(event == "ankan").then(closed).otherwise(opened), kind=kind).sort(
        *group, "row").with_columns(pon=pl.when(event == "pon").then(pl.col("text")).when(run_starts(*group)).then(
            pl.lit("")).forward_fill()).with_columns(pon=pl.when(pl.col("pon") != "").then(pl.col("pon")))
    added = pl.col("pon").str.replace("p", pl.concat_str(pl.lit("k"), _code(pl.col("tile"))), literal=True, n=1)
    return calls.select(
        "row", *HAND_KEY, "seq", "seat", "kind", "tile",
        text=pl.concat_str(pl.lit('"'), pl.when(event == "kakan").then(added).otherwise(pl.col("text")), pl.lit('"')),
        no_pon=(event == "kakan") & pl.col("pon").is_null(),
        bad_from=event.is_in(["chi", "pon", "minkan"]) & (relative == 0),
        missing=event.is_in(["chi", "pon", "minkan"]) & pl.col("missing").fill_null(True))


def out_of_turn(events: pl.LazyFrame, hands: pl.LazyFrame, players: pl.LazyFrame) -> pl.LazyFrame:
    """The draws of a seat whose turn it is not (who draws next: the dealer first, after a discard the next
    seat, after a kan or a north set aside the same seat, after a chi or pon no one): ``game``, ``log_row``,
    ``seq``, ``seat``, ``next``."""
    plays = events.filter(pl.col("event").is_in(["draw", "discard", "chi", "pon", "minkan", "kakan", "ankan",
                                                  "kita"])).select(*HAND_KEY, "seq", "event", "seat")
    same = (pl.col("game").shift(1) == pl.col("game")) & (pl.col("log_row").shift(1) == pl.col("log_row"))
    before, by = pl.col("event").shift(1), pl.col("seat").shift(1).cast(pl.Int64)
    plays = plays.with_columns(first=~same.fill_null(False), before=before, by=by).join(
        players, on="game", how="left").with_columns(
        next=pl.when(pl.col("before") == "discard").then((pl.col("by") + 1) % pl.col("players").cast(pl.Int64))
        .when(pl.col("before").is_in(["minkan", "kakan", "ankan", "kita"])).then(pl.col("by")))
    draws = plays.filter(pl.col("event") == "draw")
    firsts = draws.filter(pl.col("first")).join(hands.select(*HAND_KEY, "kyoku"), on=HAND_KEY, how="left")
    return pl.concat([
        draws.filter(~pl.col("first")).select(*HAND_KEY, "seq", "seat", "next"),
        firsts.select(*HAND_KEY, "seq", "seat", next=pl.col("kyoku").cast(pl.Int64) % 4),
    ]).filter(pl.col("next").is_not_null() & (pl.col("next") != pl.col("seat")))


def hand_frames(tables: LogTables, events: pl.LazyFrame) -> pl.LazyFrame:
    """Per hand ``head``: ``[[kyoku, honba, sticks],scores,dora,ura,``, the dora those shown at the start and
    the kan dora of the play, the ura the first outcome's that has some; ``haipai_0..3``: each seat's tiles
    as JSON (null: no such seat in the hand's list)."""
    hands = tables.hands.lazy()
    shown = hands.select(*HAND_KEY, start=pl.col("players").cast(pl.Int64) + pl.col("dora").list.len())
    kan_dora = (events.filter(pl.col("event") == "dora").select(*HAND_KEY, "seq", "tile")
                .join(shown, on=HAND_KEY, how="left").filter(pl.col("seq") > pl.col("start"))  # after the deals
                .sort(*HAND_KEY, "seq").group_by(HAND_KEY, maintain_order=True).agg(later=pl.col("tile")))
    ura = (tables.outcomes.lazy().filter(pl.col("ura_indicators").list.len() > 0)
           .sort(*HAND_KEY, "outcome").group_by(HAND_KEY, maintain_order=True)
           .agg(ura=pl.col("ura_indicators").first()))

    def codes(tiles: pl.Expr) -> pl.Expr:
        return json_ints(tile_texts(tiles, CODE_TEXTS))

    return hands.join(kan_dora, on=HAND_KEY, how="left").join(ura, on=HAND_KEY, how="left").select(
        *HAND_KEY,
        head=pl.concat_str(pl.lit("[["), pl.col("kyoku").cast(pl.String), pl.lit(","), pl.col("honba").cast(pl.String),
                           pl.lit(","), pl.col("kyotaku").cast(pl.String), pl.lit("],"), json_ints(pl.col("scores")),
                           pl.lit(","), codes(pl.when(pl.col("later").is_null()).then(pl.col("dora"))
                                              .otherwise(pl.concat_list("dora", "later"))),
                           pl.lit(","), codes(pl.col("ura").fill_null(pl.col("dora").list.head(0))), pl.lit(",")),
        **{f"haipai_{s}": codes(pl.col("haipai").list.get(s, null_on_oob=True)) for s in range(4)})


def game_frames(games: pl.DataFrame, hands: pl.DataFrame, outcomes: pl.DataFrame,
                numbers: pl.DataFrame | None) -> pl.DataFrame:
    """Per game ``head`` (the object up to ``"log":[``), ``tail`` (from the end of the log on) and
    ``short_scores``: its final scores or points have fewer than four seats (the model's writer fails there)."""
    kind = pl.col("lobby_type").fill_null(0xA1)  # a log without its lobby type: 鳳
    length = pl.col("game_length").replace_strict({"hanchan": "南", "tonpuu": "東"}, default="",
                                                  return_dtype=pl.String)
    disp = pl.coalesce(pl.col("room"), pl.concat_str(
        pl.when(pl.col("players") == 3).then(pl.lit("三")).otherwise(pl.lit("")),
        (kind & 0xA0).replace_strict({0: "般", 0x80: "上", 0x20: "特", 0xA0: "鳳"}, return_dtype=pl.String),
        length, pl.when(pl.col("kuitan")).then(pl.lit("喰")).otherwise(pl.lit("")),
        pl.when(pl.col("aka")).then(pl.lit("赤")).otherwise(pl.lit("")),
        pl.when((kind & 0x40) != 0).then(pl.lit("速")).otherwise(pl.lit(""))))
    names = pl.concat_list(pl.col("names"), pl.lit(["", "", "", ""], pl.List(pl.String)).list.head(
        (4 - pl.col("names").list.len()).clip(0)))
    points = pl.when(pl.col("final_points").list.len() > 0).then(pl.col("final_points")).otherwise(
        pl.lit([0.0] * 4, pl.List(pl.Float64)))
    whole = pl.element().is_finite() & (pl.element() == pl.element().floor())
    numbers_of = points.list.eval(pl.when(whole).then(pl.element().cast(pl.Int64).cast(pl.String))
                                  .otherwise(json_value(pl.element())))
    scores = pl.col("final_scores").cast(pl.List(pl.String))
    sc = pl.concat_str(pl.lit(',"sc":['), pl.concat_str(
        *[pl.concat_str(scores.list.get(s, null_on_oob=True), pl.lit(","),
                        pl.col("points_text").list.get(s, null_on_oob=True)) for s in range(4)],
        separator=","), pl.lit("]"))
    limit_fu = (outcomes.filter(pl.col("limit").is_not_null() & pl.col("fu").is_not_null())
                .select("game", "log_row", "outcome", item=pl.concat_str(
                    pl.lit("["), (pl.col("log_row").cast(pl.Int64) - 1).cast(pl.String), pl.lit(","),
                    pl.col("outcome").cast(pl.String), pl.lit(","), pl.col("fu").cast(pl.String), pl.lit("]")))
                .sort("game", "log_row", "outcome").group_by("game", maintain_order=True)
                .agg(limit_fu=pl.col("item").str.join(",")))
    frame = pl.concat([games, extension_fields(games, hands, numbers)], how="horizontal").with_columns(
        dan_json=per_seat_json(
        games, "dan", numbers), rate_json=per_seat_json(games, "rate", numbers), points_text=numbers_of).join(
        limit_fu, on="game", how="left", maintain_order="left")
    return frame.select(
        "game",
        head=pl.concat_str(
            pl.lit('{"title":["",""],"name":'), json_value(names), pl.lit(',"rule":{"disp":'), json_value(disp),
            pl.lit(',"aka":'), pl.when(pl.col("aka")).then(pl.lit("1")).otherwise(pl.lit("0")), pl.lit("}"),
            pl.when(pl.col("lobby").is_not_null()).then(pl.concat_str(pl.lit(',"lobby":'), json_int(pl.col("lobby")))),
            pl.when(pl.col("dan").is_not_null()).then(pl.concat_str(pl.lit(',"dan":'), pl.col("dan_json"))),
            pl.when(pl.col("rate").is_not_null()).then(pl.concat_str(pl.lit(',"rate":'), pl.col("rate_json"))),
            pl.lit(',"ref":'), json_value(pl.col("game_id")), pl.lit(',"log":['), ignore_nulls=True),
        tail=pl.concat_str(
            pl.lit("]"), pl.when(pl.col("final_scores").is_not_null()).then(sc), pl.lit(f',"{EXTENSION}":{{'),
            pl.col("fields"),
            pl.when(pl.col("limit_fu").is_not_null()).then(pl.concat_str(pl.lit(',"limit_fu":['), pl.col("limit_fu"),
                                                                          pl.lit("]"))),
            pl.lit("}}\n"), ignore_nulls=True),
        fields_error="fields_error",
        short_scores=pl.col("final_scores").is_not_null() & ((pl.col("final_scores").list.len() < 4)
                                                             | (points.list.len() < 4)))


def _round(kyoku: pl.Expr) -> pl.Expr:
    kyoku = kyoku.cast(pl.Int64)
    return pl.concat_str(lookup(list("ESWN"), kyoku // 4 % 4), (kyoku % 4 + 1).cast(pl.String))


def frame_rows(hands: pl.LazyFrame, heads: pl.LazyFrame, results: pl.LazyFrame, per_game: pl.LazyFrame
               ) -> pl.DataFrame:
    """The rows of the arrays around the items (``text``): slots 0, 2, 4 of seat 0 (slot 0 with the hand's
    head, and the game's before its first hand), then of seat 1 ... (slot 4 of seat 3 with the result, and
    the game's tail after its last hand), each for every hand in the hands table's order."""
    order = hands.select(*HAND_KEY).with_columns(
        game_first=pl.col("game") != pl.col("game").shift(1).fill_null(-1),
        game_last=pl.col("game") != pl.col("game").shift(-1).fill_null(-1))
    frame = (order.join(heads, on=HAND_KEY, how="left").join(results, on=HAND_KEY, how="left")
             .join(per_game, on="game", how="left"))
    opening = pl.concat_str(pl.when(pl.col("game_first")).then(pl.col("head")).otherwise(pl.lit(",")),
                            pl.col("hand_head"))
    closing = pl.concat_str(pl.lit("],"), pl.col("result"), pl.lit("]"),
                            pl.when(pl.col("game_last")).then(pl.col("tail")), ignore_nulls=True)
    rows = []
    for s in range(4):
        haipai = pl.concat_str(pl.lit("["), pl.col(f"haipai_{s}").str.strip_prefix("[").str.strip_suffix("]"),
                               pl.lit("],["))
        rows += [pl.concat_str(opening, haipai) if s == 0 else haipai, pl.lit("],["),
                 closing if s == 3 else pl.lit("],")]
    made = frame.select(*HAND_KEY, *(text.alias(f"text_{i}") for i, text in enumerate(rows))).collect()
    made = made.sort(*HAND_KEY)  # a join keeps no order: the hands table's back
    return pl.concat([made.select(text=f"text_{i}") for i in range(len(rows))])


def tenhou6_texts(tables: LogTables, numbers: pl.DataFrame | None = None) -> GameTexts:
    """The tenhou.net/6 file of every game of ``tables``, byte for byte :func:`.tenhou6_write.game_to_tenhou6`
    written as ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))`` and a newline (see the module
    docstring); ``numbers`` as :func:`.mjai.write_columns.extension_fields` reads it."""
    tables = sorted_tables(tables)
    games, hands_frame = tables.games, tables.hands
    events, hands = tables.events.lazy(), hands_frame.lazy()
    players = games.lazy().select("game", "players")
    per_game = game_frames(games, hands_frame, tables.outcomes, numbers)
    heads = hand_frames(tables, events).rename({"head": "hand_head"})
    results = result_texts(tables.outcomes.lazy(), hands, players).collect().lazy()  # used twice: once made
    calls = call_texts(events).collect().lazy()
    plays = play_rows(events)
    frames = frame_rows(hands, heads, results.select(*HAND_KEY, "result"), per_game.lazy())["text"]
    ordered, row_games = _placed(plays, calls.select("row", "text").collect(), frames, hands_frame)
    errors = _errors(tables, plays.lazy(), hands, players, calls, results, per_game)
    alone = dict(zip(per_game["game"].to_list(),
                     per_game.select(pl.concat_str("head", "tail")).to_series().to_list()))
    return GameTexts.of_rows(ordered, row_games, games, first_error(errors, games), alone)


def _placed(plays: pl.DataFrame, calls: pl.DataFrame, frames: pl.Series, hands: pl.DataFrame
            ) -> tuple[pl.Series, np.ndarray]:
    """The text of every row of the files in order, and each row's game: the items of ``plays`` (an open
    kan's call, then its ``0`` among the discards) and the calls' strings, with ``,`` before an item that
    follows another, and the ``frames`` rows (:func:`frame_rows`) around them (:func:`file_order`)."""
    kan = (plays["event"] == "minkan").to_numpy()
    twice = np.repeat(np.arange(plays.height), 1 + kan)  # an open kan's row twice: the second is its 0
    gap = np.zeros(len(twice), bool)
    gap[1:] = twice[1:] == twice[:-1]
    lists = plays["list"].to_numpy()[twice] + gap  # an open kan (a draw list, even) puts its 0 in the discards
    item = plays["item"].fill_null(-1).to_numpy()[twice]
    item[gap] = KAN_GAP
    keys = hands.select(pl.col("game").cast(pl.Int64) * (1 << 16) + pl.col("log_row")).to_series().to_numpy()
    play_keys = plays.select(pl.col("game").cast(pl.Int64) * (1 << 16) + pl.col("log_row")).to_series()
    item_hands = np.searchsorted(keys, play_keys.to_numpy())[twice]
    source, places, place_hands = file_order(item_hands, lists, hands.height)
    items = len(twice)
    follows = np.zeros(len(source), bool)  # the place before is an item (of the same list: a frame row between)
    follows[1:] = source[:-1] < items
    comma = follows[places[:items]]
    codes = np.full(len(source), -1, np.int64)
    codes[places[:items]] = np.where(item >= 0, item + comma * len(ITEMS), -1)
    text = pl.Series(codes).to_frame("code").select(
        lookup(ITEM_TEXTS, pl.when(pl.col("code") >= 0).then(pl.col("code")))).to_series()
    if calls.height:  # a call's item is the first of its row's
        at = np.searchsorted(plays["row"].to_numpy()[twice], calls["row"].to_numpy())
        with_comma = pl.DataFrame({"comma": comma[at], "text": calls["text"]}).select(pl.concat_str(
            pl.when(pl.col("comma")).then(pl.lit(",")).otherwise(pl.lit("")), pl.col("text"))).to_series()
        text = text.scatter(places[at], with_comma)
    text = text.scatter(places[items:], frames)
    return text, hands["game"].to_numpy()[place_hands]


def _errors(tables: LogTables, events: pl.LazyFrame, hands: pl.LazyFrame, players: pl.LazyFrame,
            calls: pl.LazyFrame, results: pl.LazyFrame, per_game: pl.DataFrame) -> list[pl.DataFrame]:
    """Where the model's writer stops, and why (``game``, ``rank``, ``error``)."""
    def at(row: pl.Expr) -> pl.Expr:
        return pl.col("log_row").cast(pl.Int64) * ROW_RANK + row

    called = calls.filter(pl.col("no_pon") | pl.col("bad_from") | pl.col("missing")).select(
        "game", rank=at(pl.col("seq").cast(pl.Int64)),
        error=pl.when(pl.col("no_pon")).then(pl.concat_str(
            pl.lit("cannot export (KeyError: ("), pl.col("seat").cast(pl.String), pl.lit(", "),
            pl.col("kind").cast(pl.String), pl.lit("))")))
        .when(pl.col("missing")).then(pl.concat_str(pl.lit("cannot export (ValueError: "),
                                                    lookup(MODEL_TILES, tile_code(pl.col("tile"))),
                                                    pl.lit(" is not in list)")))
        .otherwise(pl.lit("cannot export (KeyError: 0)")))
    turn = out_of_turn(events, hands, players).select(
        *HAND_KEY, rank=at(pl.col("seq").cast(pl.Int64)),
        message=pl.concat_str(pl.lit("seat "), pl.col("seat").cast(pl.String), pl.lit(" draws out of turn (seat "),
                              pl.col("next").cast(pl.String), pl.lit(OUT_OF_TURN)))
    resulting = results.filter(pl.col("error").is_not_null())
    logged = pl.concat([turn, resulting.filter(pl.col("in_hand")).select(*HAND_KEY, rank=at(pl.lit(AFTER_PLAY)),
                                                                          message="error")])
    in_hand = logged.join(hands.select(*HAND_KEY, "kyoku", "honba"), on=HAND_KEY).join(
        tables.games.lazy().select("game", "game_id"), on="game").select(
        "game", "rank", error=pl.concat_str(pl.lit("game "), pl.col("game_id"), pl.lit(": hand "),
                                            pl.col("log_row").cast(pl.String), pl.lit(" ("), _round(pl.col("kyoku")),
                                            pl.lit("-"), pl.col("honba").cast(pl.String), pl.lit("): "),
                                            pl.col("message")))
    unpriced = resulting.filter(~pl.col("in_hand")).select("game", rank=at(pl.lit(AFTER_PLAY)), error="error")
    seats = hands.filter(pl.col("haipai").list.len() < 4).select("game", rank=at(pl.lit(AFTER_PLAY - 1)),
                                                                 error=pl.lit(NO_OUTCOME))
    resultless = hands.join(tables.outcomes.lazy(), on=HAND_KEY, how="anti").select(
        "game", rank=at(pl.lit(AFTER_PLAY)), error=pl.lit(NO_OUTCOME))
    fields = per_game.filter(pl.col("fields_error").is_not_null()).select(
        "game", rank=pl.lit(AFTER_HANDS + 1, pl.Int64), error="fields_error")  # game_fields: after the scores
    scores = per_game.filter(pl.col("short_scores")).select("game", rank=pl.lit(AFTER_HANDS, pl.Int64),
                                                            error=pl.lit(NO_OUTCOME))
    return [frame.collect() if isinstance(frame, pl.LazyFrame) else frame
            for frame in (called, in_hand, unpriced, seats, resultless, scores, fields)]
