"""What a batch of mjlogs says about each game as a whole, as columns (for :mod:`.mjlog_columns`): ``GO``
(the lobby's type bits and number, its custom rules), the first ``UN`` naming seat 0 (the names, dan and
rate), the last ``SHUFFLE`` (the Tenhou log id ``ref``); and the players as the events table names them.

As :func:`analyzer.formats.tenhou.mjlog.parse_mjlog` reads them: type bit 0x10 three players, 0x02 no red
fives, 0x04 no open tanyao, 0x08 hanchan; the lobby where it is a number; the names %-decoded as UTF-8; dan
and rate as the comma-split text. Refused here (the per-game reader reads the file): no ``GO`` or two, a ``GO``
after the names or the first hand (the per-game reader would read the tiles before it otherwise), a name that
is %-encoded only in part or not as UTF-8, a fourth name missing in a four-player game, a lobby or type
Python reads otherwise than these columns would (a non-ASCII digit, a number of ten digits).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from analyzer.formats.rows import ANONYMOUS
from analyzer.formats.tenhou.mjlog_columns_tags import with_keys

GO_KEYS = ("type", "lobby", "csrule")
UN_KEYS = ("n0", "n1", "n2", "n3", "dan", "rate")
DEFAULT_TYPE = 169  # GO without type=: as the per-game reader
_HEX = "[0-9A-Fa-f]"
_CONT = f"%[89ABab]{_HEX}"
# %-encoded UTF-8 (RFC 3629's well-formed byte sequences), every byte encoded
_UTF8 = ("^(?:" + "|".join([
    f"%[0-7]{_HEX}", f"%[Cc][2-9A-Fa-f]{_CONT}", f"%[Dd]{_HEX}{_CONT}", f"%[Ee]0%[ABab]{_HEX}{_CONT}",
    f"%[Ee][1-9A-Ca-c]{_CONT}{_CONT}", f"%[Ee][Dd]%[89]{_HEX}{_CONT}", f"%[Ee][EFef]{_CONT}{_CONT}",
    f"%[Ff]0%[9ABab]{_HEX}{_CONT}{_CONT}", f"%[Ff][1-3]{_CONT}{_CONT}{_CONT}", f"%[Ff]4%8{_HEX}{_CONT}{_CONT}",
]) + ")+$")


@dataclass
class GameValues:
    """Per file of the batch (:attr:`frame`: ``file``, ``players``, ``aka``, ``kuitan``, ``game_length``,
    ``lobby``, ``lobby_type``, ``custom_rules``, ``ref``, ``names``, ``dan``, ``rate``), the files refused."""

    frame: pl.DataFrame
    refused: set[int]

    @property
    def players(self) -> np.ndarray:
        return self.frame["players"].to_numpy()

    @property
    def aka(self) -> np.ndarray:
        return self.frame["aka"].to_numpy()


def _first_per_file(frame: pl.DataFrame, last: bool = False) -> pl.DataFrame:
    return frame.unique("file", keep="last" if last else "first", maintain_order=True)


def _names(un: pl.DataFrame) -> tuple[pl.DataFrame, set[int]]:
    """The four names (``n0``..``n3``) of each file's naming ``UN``, decoded (a seat it lacks: ""), and the
    files whose names are not decoded here."""
    long = un.select("file", *(pl.col(f"n{s}") for s in range(4))).unpivot(
        index="file", variable_name="seat", value_name="raw").with_columns(pl.col("raw").fill_null(""))
    encoded = pl.col("raw").str.contains("%", literal=True)
    long = long.with_columns(ok=~encoded | pl.col("raw").str.contains(_UTF8))
    refused = set(long.filter(~pl.col("ok"))["file"].to_list())
    kept = long.filter(~encoded | ~pl.col("ok"))  # as written: a name refused is read by the per-game reader
    decoded = long.filter(encoded & pl.col("ok")).with_columns(
        pl.col("raw").str.replace_all("%", "", literal=True).str.decode("hex").cast(pl.String))
    names = pl.concat([kept, decoded]).with_columns(pl.col("seat").str.slice(1).cast(pl.Int8)).sort("file", "seat")
    return names.group_by("file", maintain_order=True).agg(pl.col("raw").alias("names")), refused


def game_values(go: pl.DataFrame, un: pl.DataFrame, shuffle: pl.DataFrame, files: int,
                first_init: np.ndarray) -> GameValues:
    """The values of each of ``files`` files from its ``GO``, ``UN`` and ``SHUFFLE`` attribute frames;
    ``first_init`` the row ``r`` of each file's first ``INIT`` (-1: none)."""
    go = with_keys(go, GO_KEYS)
    un = with_keys(un, UN_KEYS)
    shuffle = with_keys(shuffle, ("ref",))
    refused: set[int] = set()
    counted = go.group_by("file").len()
    refused |= set(range(files)) - set(go["file"].to_list())
    refused |= set(counted.filter(pl.col("len") > 1)["file"].to_list())
    kind = pl.col("type").fill_null(str(DEFAULT_TYPE))
    lobby = pl.col("lobby")
    go = _first_per_file(go).with_columns(
        ok=kind.str.contains(r"^[0-9]{1,9}$")
        & (lobby.is_null() | ~lobby.str.contains(r"[^\x00-\x7f]") & ~lobby.str.contains(r"^[0-9]{10,}$")),
        lobby_type=kind.cast(pl.Int64, strict=False),
        lobby=pl.when(lobby.str.contains(r"^[0-9]{1,9}$")).then(lobby.cast(pl.Int64, strict=False)),
    )
    refused |= set(go.filter(~pl.col("ok"))["file"].to_list())
    bits = pl.col("lobby_type").fill_null(DEFAULT_TYPE)
    go = go.with_columns(
        players=pl.when((bits // 16) % 2 == 1).then(3).otherwise(4).cast(pl.Int8),
        aka=(bits // 2) % 2 == 0, kuitan=(bits // 4) % 2 == 0,
        game_length=pl.when((bits // 8) % 2 == 1).then(pl.lit("hanchan")).otherwise(pl.lit("tonpuu")),
        custom_rules=pl.col("csrule"),
    )
    naming = _first_per_file(un.filter(pl.col("n0").is_not_null()))
    names, undecoded = _names(naming)
    refused |= undecoded
    # the GO must come before the names and the first hand (what the per-game reader reads after it)
    order = go.select("file", go_r="r").join(naming.select("file", un_r="r"), on="file", how="left")
    order = order.with_columns(init_r=pl.Series(first_init)[order["file"].to_numpy()])
    refused |= set(order.filter((pl.col("un_r") < pl.col("go_r"))
                                | ((pl.col("init_r") >= 0) & (pl.col("init_r") < pl.col("go_r"))))["file"].to_list())
    every = pl.DataFrame({"file": np.arange(files, dtype=np.int32)})
    frame = (every.join(go.select("file", "players", "aka", "kuitan", "game_length", "lobby", "lobby_type",
                                  "custom_rules"), on="file", how="left")
             .join(_first_per_file(shuffle, last=True).select("file", ref=pl.col("ref").replace("", None)),
                   on="file", how="left")
             .join(names, on="file", how="left")
             .join(naming.select("file", dan=pl.col("dan").str.split(","), rate=pl.col("rate").str.split(",")),
                   on="file", how="left")
             .sort("file")
             .with_columns(pl.col("names").fill_null(pl.lit(["", "", "", ""], pl.List(pl.String))),
                           pl.col("players").fill_null(4), pl.col("aka").fill_null(True)))
    # as the per-game reader: a naming UN without a fourth name in a four-player game is an error
    named = pl.col("file").is_in(naming["file"].implode())
    refused |= set(frame.filter(named & (pl.col("names").list.get(3, null_on_oob=True) == "")
                                & (pl.col("players") == 4))["file"].to_list())
    return GameValues(frame, refused)


def players(values: GameValues, game_ids: list[str]) -> tuple[pl.Series, set[int]]:
    """The events table's player of each file and seat (index ``file * 4 + seat``): a blank name NoName, a
    NoName the anonymous player of its game (``NoName@<game id>#<seat>``), seat 3 of three players none; and
    the files whose names the hand records would number or strip (left to the per-game reader)."""
    long = values.frame.select("file", "players", "names").explode("names").with_columns(  # four names a file
        seat=pl.int_range(pl.len(), dtype=pl.Int64) % 4,
        gid=pl.Series(np.repeat(np.array(game_ids, dtype=object), 4), dtype=pl.String))
    shown = pl.when(pl.col("names") == "").then(pl.lit(ANONYMOUS)).otherwise(pl.col("names"))
    long = long.with_columns(shown=shown)
    spaced = long.filter(pl.col("names").str.contains(r"^[\s\x1c-\x1f]|[\s\x1c-\x1f]$"))["file"]
    named = long.filter(~pl.col("shown").str.starts_with(ANONYMOUS))
    twice = named.group_by("file", "shown").len().filter(pl.col("len") > 1)["file"]
    player = (pl.when(pl.col("seat") >= pl.col("players")).then(None)
              .when(pl.col("shown").str.starts_with(ANONYMOUS))
              .then(pl.format("{}@{}#{}", pl.lit(ANONYMOUS), pl.col("gid"), pl.col("seat")))
              .otherwise(pl.col("shown")))
    return long.select(player.alias("player")).to_series(), set(spaced.to_list()) | set(twice.to_list())
