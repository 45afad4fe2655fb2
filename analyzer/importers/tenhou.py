"""Import real Tenhou game logs as hand records: :func:`read_tenhou`.

Formats (sniffed from the content, ``.gz`` files are decompressed):

* mjlog XML (``<mjloggm>``), a whole game per file;
* Tenhou JSON (the tenhou.net/6 viewer format): a whole game as one object, or JSON lines each holding some
  kyoku of the same game (the lines of one file are one game).

The same driver reads mjai logs (:func:`read_mjai`, parsed by :mod:`analyzer.importers.mjai`) into the same
columns; what mjai does not record is null there.

Standard Tenhou games are imported, four-player and three-player (mjlog GO type bit 0x10; JSON with seat 3
empty or left out, see :mod:`analyzer.importers.tenhou_json`: seat 3 is then null in every per-seat column and the
rules spec is ``tenhou_sanma``); a special-rule lobby (GO type bits above 0xFF, custom ``csrule``) or a malformed
file becomes an :class:`ImportProblem` and the other files still import. ``read_tenhou`` has no side effects (it only reads the given paths).

Output: one row per outcome, in play order (files in sorted path order). A multiple ron is one row per
winner, adjacent, in turn order from the discarder; a (rare) double nagashi mangan is one row per winner.

======================== ==============================================================================
game_id                  stable (:mod:`.identity`): the Tenhou log id the log carries (JSON ``ref``, mjlog
                         SHUFFLE ``ref``), else the one the file is named after (``2010112714gm-00a9-0000-d497e395``),
                         else ``log-`` + 16 hex digits hashing the log's content; a game met again in the
                         same import (same content, or same Tenhou id) is imported once, the copy reported
round                    ``E1``..``E4``, ``S1``.., ``W1``..: round wind + hand number; the dealer is seat n-1
honba                    counters at the start of the hand, as recorded
kyotaku                  riichi sticks on the table at the start of the hand, as recorded
player_0..player_3       names in initial seating (seat 0 = East in E1); duplicates are made unique within the
                         game with a suffix `` (2)``, `` (3)``; an anonymous player (``NoName`` or no name) is
                         ``NoName@<game_id>#<seat>``: a different person in every game
result                   ron | tsumo | draw (exhaustive) | nagashi (nagashi mangan) | abort (abortive draw:
                         nine terminals, four riichi, triple ron, four kans, four winds)
winner                   seat number as a string "0".."3" (ron, tsumo, nagashi); else null
loser                    ron: the discarder's seat; else null
pao                      the liable seat (Tenhou paoWho / the JSON pao field), else null
riichi                   List[String]: seats that declared riichi in this hand and whose stick was accepted
                         (Tenhou REACH step 2; a riichi discard that is ronned puts out no stick)
tenpai                   List[String]: draw / nagashi rows: seats tenpai at the end (mjlog: the hands shown;
                         JSON: the seats receiving noten money, else from the final hands); else null
hand                     ron / tsumo: concealed tiles including the winning tile, sorted MPSZ
                         (``123m406p789s1122z``, ``0`` = red five, honours 1-7z = E S W N white green red)
melds                    ron / tsumo: List[String] of the winner's melds in call order: ``chi:345p``,
                         ``pon:777z``, ``minkan:9999s``, ``kakan:5555p``, ``ankan:1111z`` (red five ``0``)
kita                     three-player ron / tsumo: north tiles the winner set aside (nukidora) in the hand, from
                         the replay (mjlog meld bit 0x20, JSON ``"f44"``); null with four players
win_tile                 ron / tsumo: the winning tile (``8p``; ``0p`` for the red five)
dora                     dora indicators in order (main indicator, then kan dora), each tile written with its
                         suit (``3m7z``); win rows: as recorded with the win, other rows: revealed by then
ura                      ura dora indicators likewise, only on win rows of a riichi winner where the log shows them
ippatsu, double_riichi,  Boolean situation flags of the winner, derived from the sequence of play (draws,
haitei, houtei, rinshan, discards, calls, kans, riichi), not from the recorded yaku; null on non-win rows:
chankan, tenhou,         ippatsu: riichi stick accepted and no call (by anyone) and no own discard since the
chiihou, renhou          riichi discard; double_riichi: riichi on one's first discard before any call;
                         haitei: tsumo on the 70th draw of the hand (live + rinshan draws) that is not a rinshan
                         draw; houtei: ron on the discard after the 70th draw; rinshan: tsumo on the replacement
                         draw after one's kan; chankan: ron on an added kan (or on a closed kan: kokushi);
                         tenhou / chiihou: dealer / non-dealer tsumo on the first draw with no call before it;
                         renhou: ron before one's first draw with no call before it
recorded_han             han including dora as recorded (null for yakuman hands)
recorded_fu              fu as recorded (mjlog always; JSON only where the value string shows it)
recorded_points          the hand's value without honba and sticks: the ron payment or the tsumo total
                         (nagashi: the winner's recorded gain); null when the log omits the value
recorded_limit           mangan | haneman | baiman | sanbaiman | yakuman (incl. kazoe) | null
recorded_yaku            List[String] of canonical yaku names (see ``_common.TENHOU_YAKU_IDS``); dora, ura
                         and red fives are counted in the next three columns instead; an unrecognised name is
                         kept as ``unknown:NAME`` and reported as a problem
recorded_dora,           han from dora, ura dora, red fives
recorded_ura_dora,
recorded_aka_dora
recorded_yakuman         number of yakuman (0 when none; kazoe yakuman is 0 with recorded_limit yakuman)
recorded_delta_0..3      score change of each seat in this row as recorded, INCLUDING the -1000 riichi deposit
                         of each riichi declarer (booked on the hand's first row): for every hand, start scores
                         + the sum of its rows' deltas = the next hand's start scores
recorded_final_0..3      game's last row only: final raw score as recorded (mjlog owari, JSON ``sc``), else null
recorded_game_points_0..3 game's last row only: final game points (uma and oka included) as recorded
rules                    ruleset spec for :func:`analyzer.rules.from_spec`: ``tenhou`` (three players:
                         ``tenhou_sanma``), plus
                         ``;aka_dora=false`` when the game has no red fives and ``;open_tanyao=false`` when it
                         has no open tanyao (mjlog GO type bits 0x02 / 0x04; JSON ``rule.aka*`` / ``rule.disp``)
game_length              hanchan | tonpuu (mjlog GO bit 0x08; JSON room name), null when unknown
lobby                    Tenhou lobby number (mjlog GO lobby, JSON ``lobby``), null when absent
dan_0..dan_3             Tenhou rank index 0-20 of each seat at the time of the game (mjlog ``UN dan``, JSON
                         ``dan`` names): 0 新人 (new), 1-9 9級..1級 (kyu), 10-19 初段..十段 (1st-10th dan), 20
                         天鳳 (Tenhou-i); null when the log has none
rate_0..rate_3           Tenhou rating R of each seat at the time of the game (mjlog ``UN rate``, JSON ``rate``)
played_at                Datetime (Asia/Tokyo): the hour the game started, from the Tenhou log id's leading
                         ``YYYYMMDDHH`` (Japan time, as Tenhou's ids are); null when the id is not Tenhou's
riichi_turn_0..3         per seat (0-3 as in ``delta_0..3``): the seat's discard number of its riichi
                         declaration, null without one; a declaration whose stick was not accepted (the
                         declaring tile was ronned) still counts as declared
calls_0..3               per seat: chi, pon, open kan and added kan made in the hand (a closed kan is not a
                         call; an added kan robbed by chankan was not made)
open_0..3                per seat: the hand had an open meld at its end (a closed kan does not open it)
turn                     the turn the hand ended on, counted as a seat's own discards (its n-th discard is on
                         turn n, a draw starts turn discards + 1): the discarder's turn for a ron and for an
                         exhaustive draw, the drawing seat's for a tsumo or nine terminals, the kan caller's
                         for a chankan. Tenpai at a draw stays in one place: the ``tenpai`` list
======================== ==============================================================================
"""

from __future__ import annotations

import glob
import os
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Callable

import polars as pl
import pyarrow as pa

from analyzer.importers.replay import (
    FLAG_NAMES,
    Game,
    LogError,
    ImportProblem,
    Kyoku,
    Replay,
    indicators_str,
    is_tenpai,
    meld_str,
    replay,
    tile_str,
    tiles_str,
    wall_draws,
)
from analyzer.importers.files import DEFAULT_MAX_LOG_BYTES, check_magnitudes, read_log_bytes
from analyzer.importers.identity import IDENTITY_COLUMNS, content_digest, game_id, identity_columns, played_at
from analyzer.importers.mjai import parse_mjai
from analyzer.importers.mjlog import parse_mjlog
from analyzer.importers.tenhou_json import parse_json

__all__ = ["ImportProblem", "read_tenhou", "read_mjai", "read_logs", "parse_file", "COLUMNS"]

LOG_SUFFIXES = (".mjlog", ".xml", ".json", ".jsonl")
MJAI_SUFFIXES = (".json", ".jsonl", ".mjson")  # .mjson: gimite's mjai server
FORMATS = {"tenhou": LOG_SUFFIXES, "mjai": MJAI_SUFFIXES}
_STR_LIST = pl.List(pl.String)
COLUMNS: dict[str, pl.DataType] = {
    "game_id": pl.String,
    "round": pl.String,
    "honba": pl.Int64,
    "kyotaku": pl.Int64,
    **{f"player_{s}": pl.String for s in range(4)},
    "result": pl.String,
    "winner": pl.String,
    "loser": pl.String,
    "pao": pl.String,
    "riichi": _STR_LIST,
    "tenpai": _STR_LIST,
    "hand": pl.String,
    "melds": _STR_LIST,
    "kita": pl.Int64,
    "win_tile": pl.String,
    "dora": pl.String,
    "ura": pl.String,
    **{name: pl.Boolean for name in FLAG_NAMES},
    "recorded_han": pl.Int64,
    "recorded_fu": pl.Int64,
    "recorded_points": pl.Int64,
    "recorded_limit": pl.String,
    "recorded_yaku": _STR_LIST,
    "recorded_dora": pl.Int64,
    "recorded_ura_dora": pl.Int64,
    "recorded_aka_dora": pl.Int64,
    "recorded_yakuman": pl.Int64,
    **{f"recorded_delta_{s}": pl.Int64 for s in range(4)},
    **{f"recorded_final_{s}": pl.Int64 for s in range(4)},
    **{f"recorded_game_points_{s}": pl.Float64 for s in range(4)},
    "rules": pl.String,
    "game_length": pl.String,
    "lobby": pl.Int64,
    **{f"riichi_turn_{s}": pl.Int64 for s in range(4)},
    **{f"calls_{s}": pl.Int64 for s in range(4)},
    **{f"open_{s}": pl.Boolean for s in range(4)},
    "turn": pl.Int64,
    **IDENTITY_COLUMNS,
}



def expand_paths(
    paths: list[str | Path], suffixes: tuple[str, ...] = LOG_SUFFIXES
) -> tuple[list[Path], list[ImportProblem]]:
    """Files to read: given files as they are, directories recursively (log suffixes only, ``.gz`` too), globs."""
    files: list[Path] = []
    problems: list[ImportProblem] = []

    def unreadable(exc: OSError) -> None:
        problems.append(ImportProblem(str(exc.filename), f"cannot read the directory: {exc.strerror}"))

    def walk(d: Path) -> None:
        for root, dirs, names in os.walk(d, onerror=unreadable):
            dirs.sort()
            for n in sorted(names):
                base = n[:-3] if n.endswith(".gz") else n
                if base.lower().endswith(suffixes):
                    files.append(Path(root) / n)

    for p in paths:
        text = str(p)
        if Path(text).is_dir():
            walk(Path(text))
        elif os.path.lexists(text):  # a file, or a FIFO, device or broken link that the reader reports
            files.append(Path(text))
        elif glob.has_magic(text):
            matches = sorted(glob.glob(text, recursive=True))
            if not matches:
                problems.append(ImportProblem(text, "the pattern matches no file"))
            for m in matches:
                (walk if Path(m).is_dir() else files.append)(Path(m))
        else:
            problems.append(ImportProblem(text, "no such file or directory"))
    seen: set[Path] = set()
    unique = []
    for f in files:
        try:
            key = f.resolve()
        except (OSError, RuntimeError):  # a symlink loop: the reader reports it
            key = f.absolute()
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique, problems


def parse_file(path: str | Path, log_format: str = "tenhou", max_bytes: int = DEFAULT_MAX_LOG_BYTES) -> Game:
    """One log file into the shared game model (raises ``LogError`` with the problem's reason).

    ``log_format`` is ``tenhou`` (mjlog XML or Tenhou JSON, told apart by content) or ``mjai`` (JSON lines).
    Only a regular file of at most ``max_bytes`` (also once decompressed) is read (:mod:`.files`)."""
    path = Path(path)
    data = read_log_bytes(path, max_bytes)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LogError("not UTF-8 text") from None
    game = _parse_text(text, str(path), log_format)
    check_magnitudes(game)
    game.digest = content_digest(data)
    return game


def _parse_text(text: str, path: str, log_format: str) -> Game:
    if log_format == "mjai":
        return parse_mjai(text, path)
    head = text.lstrip()[:1]
    if head == "<":
        return parse_mjlog(text, path)
    if head in "{[" and head:
        try:
            return parse_json(text, path)
        except LogError:
            if _looks_like_mjai(text):
                raise LogError("an mjai log, not a Tenhou log: import it with `analyzer import mjai`") from None
            raise
    raise LogError("not a Tenhou log (neither mjlog XML nor Tenhou JSON)")


def _looks_like_mjai(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0]
    return first.startswith("{") and '"type"' in first and '"log"' not in first


def read_tenhou(
    paths: list[str | Path], workers: int | None = None, progress: Callable[[int, int, int], None] | None = None,
    max_log_size: int = DEFAULT_MAX_LOG_BYTES,
) -> tuple[pl.DataFrame, list[ImportProblem]]:
    """Read Tenhou logs (files, directories searched recursively, or glob patterns; ``.gz`` allowed).

    Returns the hand records (columns in the module docstring) and the problems: files that did not import
    (malformed, special rules, not a regular file, larger than ``max_log_size`` bytes, also
    once decompressed, another version of a game imported from an earlier file: the same Tenhou log id with
    other content) and caveats about imported games (``imported=True``), among them an exact copy of a game
    (the same content as an earlier file): imported once, the later file skipped.

    ``workers`` processes parse the files in parallel (default: one per core once there are enough files to
    pay for starting them); the result is the same in any case, rows in file order. ``progress(files_done,
    files_total, games_done)`` is called as batches of files are done.
    """
    return read_logs(paths, workers, "tenhou", progress, max_log_size)


def read_mjai(
    paths: list[str | Path], workers: int | None = None, progress: Callable[[int, int, int], None] | None = None,
    max_log_size: int = DEFAULT_MAX_LOG_BYTES,
) -> tuple[pl.DataFrame, list[ImportProblem]]:
    """Read mjai logs (JSON lines, one whole game per file; see :mod:`analyzer.importers.mjai`) like
    :func:`read_tenhou`: the same columns, flags derived the same way; what mjai does not carry is null.
    Directories are searched for ``.json``, ``.jsonl`` and ``.mjson`` files (``.gz`` too)."""
    return read_logs(paths, workers, "mjai", progress, max_log_size)


def read_logs(
    paths: list[str | Path], workers: int | None = None, log_format: str = "tenhou",
    progress: Callable[[int, int, int], None] | None = None, max_log_size: int = DEFAULT_MAX_LOG_BYTES,
) -> tuple[pl.DataFrame, list[ImportProblem]]:
    """Read logs of ``log_format`` (``tenhou`` or ``mjai``) into hand records and problems."""
    if log_format not in FORMATS:
        raise ValueError(f"unknown log format {log_format!r} (known: {', '.join(FORMATS)})")
    files, problems = expand_paths(paths, FORMATS[log_format])
    read = partial(_read_batch, log_format=log_format, max_bytes=max_log_size)
    if workers is None:
        workers = min(os.cpu_count() or 1, 8) if len(files) >= PARALLEL_FROM_FILES else 1
    batches = [files[i : i + BATCH_FILES] for i in range(0, len(files), BATCH_FILES)]
    if workers > 1 and len(batches) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            return _assemble(files, pool.map(read, batches), problems, progress)
    return _assemble(files, map(read, batches), problems, progress)


PARALLEL_FROM_FILES = 200
BATCH_FILES = 32  # files per task: enough to pay for a task, small enough for an even load and a live progress bar


def _read_batch(
    files: list[Path], log_format: str = "tenhou", max_bytes: int = DEFAULT_MAX_LOG_BYTES,
) -> tuple[list[tuple[str, str, int, list[str], str | None]], pa.Table]:
    """Per file (game id, content digest, rows, notes, error), and the columns of the rows of every file that
    imports as an Arrow table, without the columns that depend on the game id. Arrow, not Polars: the workers
    are forked, and Polars' threads do not survive a fork; a table travels to the parent as one buffer."""
    outcomes = []
    columns: dict[str, list] = {name: [] for name in ROW_COLUMNS}
    for f in files:
        gid, digest, rows, notes, error = _read_file(f, log_format, max_bytes)
        outcomes.append((gid, digest, len(rows), notes, error))
        for name, values in columns.items():
            values.extend([row.get(name) for row in rows])
    return outcomes, _table(columns)


ID_COLUMNS = ("game_id", "played_at")  # given per game when the game ids are known
ROW_COLUMNS = [name for name in COLUMNS if name not in ID_COLUMNS]


def _table(columns: dict[str, list]) -> pa.Table:
    """Python lists into Arrow: its converter builds the list columns ~20x faster than Polars' does."""
    return pa.table({name: pa.array(columns[name], type=_ARROW_TYPES[name]) for name in ROW_COLUMNS})


_ARROW_TYPES = {name: pl.Series(dtype=COLUMNS[name]).to_arrow().type for name in ROW_COLUMNS}


def _assemble(files: list[Path], batches, problems: list[ImportProblem], progress) -> tuple[pl.DataFrame, list[ImportProblem]]:
    """Game ids and start times per game, a game met again (the same content or Tenhou log id as an earlier
    file) kept once, anonymous players named after their game."""
    first_file: dict[tuple[str, str], Path] = {}  # ("id", game id) and ("content", digest) -> first file
    ids: list[str] = []
    times: list = []
    frames: list[pl.DataFrame] = []
    done = games = 0
    for outcomes, table in batches:
        keep: list[bool] = []  # per row of the batch: not a copy of an earlier game
        for gid, digest, n_rows, notes, error in outcomes:
            f = files[done]
            done += 1
            if error is not None:
                problems.append(ImportProblem(str(f), error))
                continue
            copy = _copy_of(gid, digest, first_file)
            keep.extend([copy is None] * n_rows)
            if copy is not None:
                earlier, reason, same_content = copy
                problems.append(ImportProblem(str(f), reason, game_id=gid, imported=same_content, same_as=str(earlier)))
                continue
            first_file[("id", gid)] = first_file[("content", digest)] = f
            games += 1
            ids.extend([gid] * n_rows)
            times.extend([played_at(gid)] * n_rows)
            problems.extend(ImportProblem(str(f), note, game_id=gid, imported=True) for note in notes)
        frame = pl.from_arrow(table)
        frames.append(frame if all(keep) else frame.filter(pl.Series(keep, dtype=pl.Boolean)))
        if progress is not None:
            progress(done, len(files), games)
    rows = pl.concat(frames) if frames else pl.DataFrame(schema={name: COLUMNS[name] for name in ROW_COLUMNS})
    game_id = pl.col("game_id")
    hands = rows.with_columns(
        pl.Series("game_id", ids, pl.String), pl.Series("played_at", times, COLUMNS["played_at"])
    ).with_columns(
        # players without a name are different people in every game
        pl.when(pl.col(f"player_{s}").str.starts_with(ANONYMOUS))
        .then(pl.lit(f"{ANONYMOUS}@") + game_id + pl.lit(f"#{s}"))
        .otherwise(pl.col(f"player_{s}"))
        .alias(f"player_{s}")
        for s in range(4)
    )
    return hands.select(list(COLUMNS)), problems


def _copy_of(gid: str, digest: str, first_file: dict[tuple[str, str], Path]) -> tuple[Path, str, bool] | None:
    """(the earlier file, the reason, whether the content is the same) when a game was met before in this
    import. The same content is a copy (nothing lost); the same Tenhou log id with other content (an edited or
    partial log) is a conflict the user should look at: the file is not imported."""
    by_content, by_id = first_file.get(("content", digest)), first_file.get(("id", gid))
    if by_content is not None:
        return by_content, f"the same game as {by_content} (the same content), skipped: imported once", True
    if by_id is not None:
        return by_id, (f"the same Tenhou log id {gid} as {by_id} but other content: not imported "
                       "(the game is imported from the earlier file)"), False
    return None


def _read_file(
    f: Path, log_format: str = "tenhou", max_bytes: int = DEFAULT_MAX_LOG_BYTES
) -> tuple[str, str, list[dict], list[str], str | None]:
    """(game id, content digest, rows, notes, None) for a file that imports, ("", "", [], [], reason) for one
    that does not."""
    try:
        game = parse_file(f, log_format, max_bytes)
        return game_id(game.ref, f, game.digest), game.digest, game_rows(game), list(game.notes), None
    except LogError as exc:
        return "", "", [], [], str(exc)
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python refuses ints of over 4300 digits
            return "", "", [], [], "a number of thousands of digits in the log is not a real value"
        return "", "", [], [], f"malformed log (ValueError: {str(exc)[:200]})"
    except (KeyError, IndexError, TypeError, AttributeError, RecursionError, OverflowError, MemoryError) as exc:
        return "", "", [], [], f"malformed log ({type(exc).__name__}: {str(exc)[:200]})"


ANONYMOUS = "NoName"


def _names(names: list[str]) -> list[str]:
    out: list[str] = []
    for n in names:
        n = n.strip() or ANONYMOUS
        if n in out:
            i = 2
            while f"{n} ({i})" in out or f"{n} ({i})" in names:
                i += 1
            n = f"{n} ({i})"
        out.append(n)
    return out


TENHOU_UMA = (20, 10, -10, -20)
TENHOU_START = 25_000
TENHOU_START_3P = 35_000


def _thousands(score: int) -> int:
    """Tenhou's rounding of a final score to thousands: a remainder of 500 goes away from zero."""
    return (1 if score >= 0 else -1) * ((abs(score) + 500) // 1000)


def _logged_uma(game: Game) -> tuple[float, float, float, float] | None:
    """The uma the log's own result shows: places 2-4 paid (score to thousands) - 30 + uma, so each uma is the
    recorded points minus that; first place is the mirror of last (the symmetric sets Tenhou has used)."""
    if not game.final_scores or not game.final_points:
        return None
    order = sorted(range(4), key=lambda s: (-game.final_scores[s], s))
    uma = [round(game.final_points[s] - (_thousands(game.final_scores[s]) - 30), 1) for s in order[1:]]
    return (-uma[2], *uma)


def _rules(game: Game) -> str:
    """The ruleset spec of a game from what its log says: red fives, open tanyao, game length, the starting
    points of its first hand, and the uma and game-point rounding its recorded result shows (whole numbers up
    to 2020, tenths in newer logs)."""
    spec = "tenhou" if game.players == 4 else "tenhou_sanma"
    if not game.aka:
        spec += ";aka_dora=false"
    if not game.kuitan:
        spec += ";open_tanyao=false"
    if game.game_length == "tonpuu":
        spec += ";game_length=east"
    first = game.kyokus[0] if game.kyokus else None
    start = TENHOU_START if game.players == 4 else TENHOU_START_3P
    scores = first.scores[: game.players] if first is not None else []
    if first is not None and (first.kyoku, first.honba, first.kyotaku) == (0, 0, 0) and len(set(scores)) == 1 \
            and scores[0] != start:  # the first INIT's scores: what the game started from
        spec += f";start_points={scores[0]}"
    if game.final_points and any(p != round(p) for p in game.final_points):
        spec += ";game_points_rounding=tenth"
    elif game.players == 4:
        uma = _logged_uma(game)
        if uma is not None and uma != TENHOU_UMA and uma[1:] in {(5, -5, -10), (10, -10, -20), (15, -15, -30)}:
            spec += ";uma=" + "/".join(f"{u:g}" for u in uma)
    return spec


def _seats(seats) -> list[str]:
    return [str(s) for s in seats]


def game_rows(game: Game) -> list[dict]:
    """All outcome rows of a game (without game_id)."""
    names = _names(game.names)
    if game.players == 3:  # seat 3 is empty: no name, no deltas, no per-seat facts
        names[3] = None
    common = {f"player_{s}": names[s] for s in range(4)}
    common |= {"rules": _rules(game), "game_length": game.game_length, "lobby": game.lobby}
    common |= identity_columns(game.dan, game.rate, game.notes, game.players)
    rows: list[dict] = []
    for n, k in enumerate(game.kyokus):
        if not k.outcomes:
            raise LogError(f"hand {n + 1} ({k.round}) has no result")
        try:
            rows.extend(common | r for r in _kyoku_rows(game, k))
        except LogError as exc:
            raise LogError(f"hand {n + 1} ({k.round}-{k.honba}): {exc}") from None
    if rows and game.final_scores is not None:
        for s in range(game.players):
            rows[-1][f"recorded_final_{s}"] = game.final_scores[s]
            rows[-1][f"recorded_game_points_{s}"] = game.final_points[s] if game.final_points else None
    return rows


def _kyoku_rows(game: Game, k: Kyoku) -> list[dict]:
    rp: Replay = replay(k)
    riichi = _seats(rp.riichi)
    base = {"round": k.round, "honba": k.honba, "kyotaku": k.kyotaku, "riichi": riichi, "turn": rp.turn}
    for s in range(k.players):
        base |= {f"riichi_turn_{s}": rp.riichi_turn[s], f"calls_{s}": rp.calls[s], f"open_{s}": rp.opened[s]}
    rows: list[dict] = []
    outcomes = list(k.outcomes)
    if outcomes[0].result == "ron":
        loser = outcomes[0].loser
        outcomes.sort(key=lambda o: (o.winner - loser) % 4)
    for o in outcomes:
        row = dict(base, result=o.result)
        deltas = list(o.deltas)
        if o.result in ("ron", "tsumo"):
            _win_row(game, k, rp, o, row)
        elif o.result == "nagashi":
            winners = [s for s in rp.nagashi if o.deltas[s] > 0] or rp.nagashi
            if not winners:
                raise LogError("nagashi mangan recorded but no seat discarded only terminals and honours")
            row["tenpai"] = _seats(o.tenpai) if o.tenpai is not None else _tenpai_from_hands(rp)
            for i, w in enumerate(winners):
                r = dict(row, winner=str(w), recorded_points=o.deltas[w])
                r["dora"] = indicators_str(rp.dora)
                r |= _delta_cols(o.deltas if i == 0 else [0, 0, 0, 0], rp.riichi if not rows and i == 0 else [],
                                 k.players)
                rows.append(r)
            continue
        else:
            row["dora"] = indicators_str(rp.dora)
            if o.result == "draw":
                if rp.draws != wall_draws(k.players):
                    raise LogError(f"exhaustive draw after {rp.draws} draws (expected {wall_draws(k.players)})")
                if o.tenpai is not None:
                    row["tenpai"] = _seats(o.tenpai)
                elif o.all_tenpai is not None:
                    row["tenpai"] = _seats(range(k.players)) if o.all_tenpai else []
                elif any(deltas):
                    row["tenpai"] = _seats(s for s in range(k.players) if deltas[s] > 0)
                else:
                    row["tenpai"] = _tenpai_from_hands(rp)
        row |= _delta_cols(deltas, rp.riichi if not rows else [], k.players)
        rows.append(row)
    return rows


def _tenpai_from_hands(rp: Replay) -> list[str]:
    return _seats(s for s in range(4) if s in rp.riichi or is_tenpai(rp.concealed[s], rp.melds[s]))


def _delta_cols(deltas: list[int], riichi: list[int], players: int = 4) -> dict:
    return {f"recorded_delta_{s}": deltas[s] - 1000 * riichi.count(s) for s in range(players)}


def _win_row(game: Game, k: Kyoku, rp: Replay, o, row: dict) -> None:
    w = o.winner
    win_tile = rp.win_tiles[w]
    hand = list(rp.concealed[w]) + ([win_tile] if o.result == "ron" else [])
    if o.hand is not None and sorted(o.hand) != sorted(hand):
        raise LogError(f"replayed winning hand {tiles_str(hand)} differs from the recorded {tiles_str(o.hand)}")
    if o.win_tile is not None and o.win_tile != win_tile:
        raise LogError(f"replayed winning tile {tile_str(win_tile)} differs from the recorded {tile_str(o.win_tile)}")
    if o.melds is not None and _meld_set(o.melds) != _meld_set(rp.melds[w]):
        raise LogError("replayed melds of the winner differ from the recorded ones")
    if k.players == 3 and o.kita and o.kita != rp.kita[w]:
        raise LogError(f"replayed norths set aside ({rp.kita[w]}) differ from the recorded {o.kita}")
    for name in o.yaku:
        if name.startswith("unknown:"):
            game.notes.append(f"{k.round}-{k.honba}: unrecognised yaku name {name[8:]!r} kept as {name!r}")
    row |= {
        "winner": str(w),
        "loser": None if o.loser is None else str(o.loser),
        "pao": None if o.pao is None else str(o.pao),
        "hand": tiles_str(hand),
        "melds": [meld_str(mk, tiles) for mk, tiles in rp.melds[w]],
        "win_tile": tile_str(win_tile),
        "kita": rp.kita[w] if k.players == 3 else None,
        "dora": indicators_str(o.dora_indicators if o.dora_indicators is not None else rp.dora),
        "ura": indicators_str(o.ura_indicators) if o.ura_indicators and w in rp.riichi else None,
        **rp.flags[w],
    }
    if o.has_value:
        row |= {
            "recorded_han": o.han,
            "recorded_fu": o.fu,
            "recorded_points": o.points,
            "recorded_limit": o.limit,
            "recorded_yaku": list(o.yaku),
            "recorded_dora": o.dora,
            "recorded_ura_dora": o.ura,
            "recorded_aka_dora": o.aka,
            "recorded_yakuman": o.yakuman,
        }


def _meld_set(melds: list[tuple[str, list[int]]]) -> list[tuple[str, list[int]]]:
    return sorted((mk, sorted(tiles)) for mk, tiles in melds)


def red_fives(hand: str | None, melds: list[str] | None) -> int:
    """Number of red fives in a row's hand and melds (MPSZ ``0``)."""
    text = (hand or "") + "".join(m.split(":", 1)[1] for m in melds or [])
    return text.count("0")

