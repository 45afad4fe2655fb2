"""Stable game ids, copies of a game met in one import, and who played when (dan, rate, played_at)."""

from __future__ import annotations

import gzip
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.formats import read_tenhou
from analyzer.formats.identity import dan_index, log_id_from_name, played_at, rate

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_logs" / "tenhou" / "sample_tonpuu.json"
JST = timezone(timedelta(hours=9))
TENHOU_ID = "2019010100gm-00a9-0000-0123abcd"


def _sample(**changes) -> bytes:
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    game.update(changes)
    return json.dumps(game, ensure_ascii=False).encode("utf-8")


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_the_same_game_met_again_in_one_import_is_imported_once(tmp_path):
    data = SAMPLE.read_bytes()
    first = _write(tmp_path / "a" / "game.json", data)
    copies = [
        _write(tmp_path / "b" / "other name.json", data),  # another folder, another name
        _write(tmp_path / "c" / "game.json.gz", gzip.compress(data)),  # compressed
        _write(tmp_path / "d" / "game.json", b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")),  # BOM, CRLF
    ]
    df, problems = read_tenhou([tmp_path])
    assert df.height == 4 and df["game_id"].n_unique() == 1
    assert [Path(p.file) for p in problems] == copies
    for p in problems:
        assert p.imported and p.same_as == str(first) and p.game_id == df["game_id"][0]
        assert p.reason == f"the same game as {first} (the same content), skipped: imported once"


def test_parallel_parsing_finds_the_same_copies(tmp_path):
    data = SAMPLE.read_bytes()
    for n in range(6):
        _write(tmp_path / f"f{n}" / "game.json", data if n % 2 else _sample(name=[f"P{n}", "X", "Y", "Z"]))
    _write(tmp_path / "pipe" / "x.json", b"not json")
    one = read_tenhou([tmp_path], workers=1)
    two = read_tenhou([tmp_path], workers=2, max_log_size=1 << 20)
    assert one[0].equals(two[0]) and one[1] == two[1]
    assert one[0]["game_id"].n_unique() == 4 and sum(p.same_as is not None for p in one[1]) == 2


def test_another_version_of_a_game_is_not_imported_and_said_so(tmp_path):
    _write(tmp_path / "a.json", _sample(ref=TENHOU_ID))
    _write(tmp_path / "b.json", _sample(ref=TENHOU_ID, name=["W", "X", "Y", "Z"]))  # an edited copy of the game
    df, problems = read_tenhou([tmp_path])
    assert df["game_id"].unique().to_list() == [TENHOU_ID] and df["player_0"][0] == "Aoi"
    assert [p.reason for p in problems] == [
        f"the same Tenhou log id {TENHOU_ID} as {tmp_path / 'a.json'} but other content: not imported "
        "(the game is imported from the earlier file)"]
    assert not problems[0].imported  # unlike an exact copy, something may be lost here: exit status 1


def test_a_ref_that_is_not_a_tenhou_log_id_is_not_an_id(tmp_path):
    _write(tmp_path / "a.json", _sample(ref="converted"))
    _write(tmp_path / "b.json", _sample(ref="converted", name=["W", "X", "Y", "Z"]))
    df, problems = read_tenhou([tmp_path])
    assert problems == [] and df["game_id"].n_unique() == 2
    assert df["game_id"].str.starts_with("log-").all() and df["played_at"].null_count() == 8


def test_ids_do_not_depend_on_file_name_folder_or_compression(tmp_path):
    data = SAMPLE.read_bytes()
    one, _ = read_tenhou([_write(tmp_path / "x" / "first.json", data)])
    two, _ = read_tenhou([_write(tmp_path / "y" / "renamed.json.gz", gzip.compress(data))])
    assert one["game_id"].to_list() == two["game_id"].to_list()
    other, _ = read_tenhou([_write(tmp_path / "z" / "first.json", _sample(name=["W", "X", "Y", "Z"]))])
    assert other["game_id"][0] != one["game_id"][0]  # the same name, another game


@pytest.mark.parametrize(
    "name, ref, expected_id",
    [
        (f"{TENHOU_ID}.json", None, TENHOU_ID),  # named after its Tenhou log id
        (f"{TENHOU_ID}&tw=2.json.gz", None, TENHOU_ID),  # Tenhou's download name: the viewer seat is not the id
        ("game.json", TENHOU_ID, TENHOU_ID),  # the id inside the log
        ("2011020417gm-00a9-0000-b67fcaa3.json", TENHOU_ID, TENHOU_ID),  # ... wins over the name
    ],
)
def test_tenhou_log_ids_and_played_at(tmp_path, name, ref, expected_id):
    data = _sample(**({"ref": ref} if ref else {}))
    _write(tmp_path / name, gzip.compress(data) if name.endswith(".gz") else data)
    df, problems = read_tenhou([tmp_path])
    assert problems == []
    assert df["game_id"].unique().to_list() == [expected_id]
    assert df.schema["played_at"] == pl.Datetime("us", "Asia/Tokyo")
    assert df["played_at"].unique().to_list() == [datetime(2019, 1, 1, 0, 0, tzinfo=JST)]
    assert df["played_at"].dt.convert_time_zone("UTC").dt.strftime("%Y-%m-%d %H:%M")[0] == "2018-12-31 15:00"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2019010100gm-00a9-0000-0123abcd", (2019, 1, 1, 0)),
        ("2010112714gm-00a9-0000-d497e395", (2010, 11, 27, 14)),
        ("2019133100gm-00a9-0000-0123abcd", None),  # month 13
        ("2019010124gm-00a9-0000-0123abcd", None),  # hour 24
        ("201901010gm-00a9-0000-0123abcd", None),
        ("log-0123456789abcdef", None),
        (None, None),
    ],
)
def test_played_at_reads_the_hour_of_tenhou_ids(text, expected):
    assert played_at(text) == (datetime(*expected, tzinfo=JST) if expected else None)


def test_file_names_that_are_not_tenhou_ids():
    assert log_id_from_name("2019133100gm-00a9-0000-0123abcd.mjlog") is None  # no such date
    assert log_id_from_name("copy of 2019010100gm-00a9-0000-0123abcd.mjlog") is None
    assert log_id_from_name("2019010100gm-00a9-0000-0123abcd (1).json") is None
    assert log_id_from_name("x/2019010100gm-00a9-0000-0123abcd.xml.gz") == "2019010100gm-00a9-0000-0123abcd"


@pytest.mark.parametrize(
    "value, expected",
    [(0, 0), ("16", 16), (20, 20), ("新人", 0), ("９級", 1), ("9級", 1), ("１級", 9), ("初段", 10), ("四段", 13),
     ("十段", 19), ("天鳳", 20), ("天鳳位", 20), (21, None), (-1, None), ("名人", None), (True, None), (2.5, None)],
)
def test_dan_index(value, expected):
    assert dan_index(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [("2138.12", 2138.12), (1500, 1500.0), (1912.87, 1912.87), ("nan", None), ("inf", None), (-5, None),
     ("x", None), (1e9, None), (False, None)],
)
def test_rate(value, expected):
    assert rate(value) == expected


def test_dan_and_rate_columns_from_a_json_log(tmp_path):
    dans, rates = ["新人", "９級", "初段", "天鳳"], [1500.0, 1612.5, 2001.25, 2398.0]
    _write(tmp_path / "g.json", _sample(dan=dans, rate=rates))
    df, problems = read_tenhou([tmp_path])
    assert problems == []
    assert df.select(f"dan_{s}" for s in range(4)).unique().rows() == [(0, 1, 10, 20)]
    assert df.select(f"rate_{s}" for s in range(4)).unique().rows() == [tuple(rates)]


def test_unreadable_ranks_are_left_empty_and_reported(tmp_path):
    _write(tmp_path / "g.json", _sample(dan=["四段", "名人", "", None], rate=[1800, "fast", 1700, 1600]))
    df, problems = read_tenhou([tmp_path])
    assert df.height == 4
    assert df.select(f"dan_{s}" for s in range(4)).row(0) == (13, None, None, None)
    assert df.select(f"rate_{s}" for s in range(4)).row(0) == (1800.0, None, 1700.0, 1600.0)
    assert [p.reason for p in problems] == [
        "dan of seat 1 ('名人') is not a Tenhou dan: dan_1 left empty",
        "rate of seat 1 ('fast') is not a Tenhou rate: rate_1 left empty",
    ]
    assert all(p.imported for p in problems)


# --- the command line: importing twice, then scoring or checking both imports -------------------------------


@pytest.fixture
def logs(tmp_path) -> Path:
    """A folder of two games: the sample, and an edited copy named after a Tenhou log id."""
    logs = tmp_path / "logs"
    _write(logs / "sample.json", SAMPLE.read_bytes())
    _write(logs / "more" / f"{TENHOU_ID}.json", _sample(name=["W", "X", "Y", "Z"], dan=["四段"] * 4,
                                                       rate=[1800.5, 1700, 1600, 1500]))
    return logs


def test_import_of_a_folder_holding_the_same_log_twice_writes_it_once(tmp_path, logs):
    _write(logs / "again" / "sample copy.json.gz", gzip.compress(SAMPLE.read_bytes()))
    out = tmp_path / "hands.parquet"
    result = CliRunner().invoke(main, ["import", "tenhou", str(logs), "-o", str(out)])
    assert result.exit_code == 0, result.output  # nothing lost: the game is imported once
    gid = pl.read_parquet(out).filter(pl.col("log_file").str.ends_with("sample.json"))["game_id"][0]
    assert f"sample copy.json.gz (game {gid}): the same game as" in result.output  # the file and its game
    assert "imported 2 game(s), 8 row(s)" in result.output
    assert "1 file(s) skipped as the same game as another" in result.output
    assert pl.read_parquet(out)["game_id"].n_unique() == 2


def test_importing_twice_then_scoring_both_rejects_the_copies_as_duplicate_row(tmp_path, logs):
    runner = CliRunner()
    first, second = tmp_path / "first.parquet", tmp_path / "second.parquet"
    for out in (first, second):
        assert runner.invoke(main, ["import", "tenhou", str(logs), "-o", str(out)]).exit_code == 0
    assert pl.read_parquet(first).equals(pl.read_parquet(second))  # the same ids in both runs

    scored = runner.invoke(main, ["score", str(first), str(second), "-o", str(tmp_path / "out")])
    assert scored.exit_code == 1, scored.output
    assert "rows read: 16 = scored 8 + rejected 8" in scored.output
    rejects = pl.read_parquet(tmp_path / "out" / "rejects.parquet")
    assert rejects.height == 8 and set(rejects["file"]) == {str(second)}
    assert rejects["reason"].str.starts_with("duplicate_row: an exact copy of row").all()
    once = runner.invoke(main, ["score", str(first), "-o", str(tmp_path / "once")])
    assert once.exit_code == 0
    players = [pl.read_parquet(tmp_path / d / "players.parquet") for d in ("out", "once")]
    assert players[0].equals(players[1])  # the shared games are paid once
    # the identity columns pass through scoring with their types, the time with its zone
    hands = pl.read_parquet(tmp_path / "out" / "hands.parquet")
    named = hands.filter(pl.col("game_id") == TENHOU_ID)
    assert named.select("played_at", "dan_0", "rate_0").schema == pl.Schema(
        {"played_at": pl.Datetime("us", "Asia/Tokyo"), "dan_0": pl.Int64, "rate_0": pl.Float64})
    assert named.select(pl.col("played_at").cast(pl.String), "dan_0", "rate_0").unique().rows() == [
        ("2019-01-01 00:00:00.000000+09:00", 13, 1800.5)]
    assert hands.filter(pl.col("game_id") != TENHOU_ID)["played_at"].null_count() == 4

    checked = runner.invoke(main, ["check", str(first), str(second), "-o", str(tmp_path / "report.csv")])
    assert checked.exit_code == 1, checked.output
    report = pl.read_csv(tmp_path / "report.csv")
    assert report.height == 8
    assert set(report["field"]) == {"duplicate_row"} and set(report["kind"]) == {"reject"}
    assert report["explanation"].str.starts_with("duplicate_row: ").all()


def test_a_csv_and_a_parquet_import_of_the_same_logs_are_copies(tmp_path, logs):
    runner = CliRunner()
    csv, parquet = tmp_path / "hands.csv", tmp_path / "hands.parquet"
    for out in (csv, parquet):
        assert runner.invoke(main, ["import", "tenhou", str(logs), "-o", str(out)]).exit_code == 0
    assert pl.read_csv(csv).filter(pl.col("game_id") == TENHOU_ID)["played_at"][0] == "2019-01-01 00:00:00.000000+09:00"
    scored = runner.invoke(main, ["score", str(csv), str(parquet), "-o", str(tmp_path / "out")])
    assert scored.exit_code == 1 and "rows read: 16 = scored 8 + rejected 8" in scored.output, scored.output
    rejects = pl.read_parquet(tmp_path / "out" / "rejects.parquet")
    assert rejects["reason"].str.starts_with("duplicate_row: ").all()
