"""What a CSV file's bytes are (analyzer.io.csv_text): binary data or garbage named ``.csv`` is one line naming
the file with none of its bytes; a ragged line is named by its line number; ``.tsv`` files are read; UTF-16 and
Shift-JIS (cp932) files — Japanese Excel's — are read, and a file in another encoding is refused, naming it and
how to convert it."""

from __future__ import annotations

import warnings
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import analyzer
from analyzer import InputError
from analyzer.cli import main

SHEET = Path(__file__).parents[1] / "data" / "sheet_ema.csv"
TEXT = SHEET.read_text()


def _cli_error(path: Path, tmp_path: Path) -> str:
    """The one line ``score`` prints for ``path``, after checking it exits 2 and writes nothing."""
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["score", str(path), "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert not out.exists()
    return lines[0]


def _players(path: Path) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sorted(analyzer.score(path).games["player"].to_list())


BINARY = "it holds binary data (control bytes, not text)"


@pytest.mark.parametrize(("content", "why"), [
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, BINARY),  # an image named .csv
    (bytes((i * 7919 + 13) % 256 for i in range(3000)), BINARY),  # noise
    (b"PK\x03\x04" + b"\x00\x14\x00\x06\x00" * 300,  # a zip: an .xlsx renamed .csv
     'it is a zip archive (an Excel workbook? save it as "CSV UTF-8")'),
], ids=["png", "noise", "zip"])
def test_binary_data_named_csv_is_one_line_naming_the_file(tmp_path, content, why):
    path = tmp_path / "results.csv"
    path.write_bytes(content)
    line = _cli_error(path, tmp_path)
    assert line == f"error: {path} is not a CSV file: {why}"
    with pytest.raises(InputError, match="is not a CSV file"):
        analyzer.score(path)


def test_garbage_text_is_named_without_echoing_it(tmp_path):
    """Text with control characters in its first line, or a first line of 2 KB of junk, is not echoed."""
    junk = "".join(chr(33 + (i * 31) % 90) for i in range(2000))
    path = tmp_path / "notes.csv"
    path.write_text("\x01\x02junk\x7f " + junk + "\nmore\n")
    assert _cli_error(path, tmp_path) == (f"error: {path} is not a CSV file: control characters in its first line "
                                          "(a CSV file starts with its header line)")
    words = "".join(chr(97 + (i * 7) % 26) for i in range(2000))  # one "column name" of 2 KB
    path.write_text(words + "\n" + words + "\n")
    line = _cli_error(path, tmp_path)
    assert line.startswith(f"error: no column 'game_id' in {path} (its columns: ")
    assert len(line) < 200 + len(str(path)), line  # a column name of 2 KB is cut short


def test_a_stray_carriage_return_in_the_header_is_no_internal_error(tmp_path):
    path = tmp_path / "old.csv"
    path.write_bytes(b'game_id,"a\rb\n')
    line = _cli_error(path, tmp_path)
    assert str(path) in line and "internal error" not in line


def test_a_ragged_line_is_named_by_its_line_number(tmp_path):
    lines = TEXT.splitlines()
    lines[3] += ",extra,more"  # line 4 (the header is line 1)
    path = tmp_path / "ragged.csv"
    path.write_text("\n".join(lines) + "\n")
    line = _cli_error(path, tmp_path)
    assert line.startswith(f"error: cannot read {path} (read as comma-separated; line 4 has 12 fields, the "
                           "header 10)"), line


def test_a_ragged_line_after_a_quoted_line_break_is_named_by_its_own_line(tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text('game_id,player,final_score\nG1,"Ana\nSato",41200\nG1,Ben,28900,1\n')
    assert "line 4 has 4 fields, the header 3" in _cli_error(path, tmp_path)


def test_tsv_files_are_read_as_tab_separated(tmp_path):
    path = tmp_path / "results.tsv"
    path.write_text(TEXT.replace(",", "\t"))
    assert _players(path) == _players(SHEET)
    directory = tmp_path / "sheets"
    directory.mkdir()
    (directory / "results.tsv").write_text(TEXT.replace(",", "\t"))
    assert _players(directory) == _players(SHEET)  # found in a directory too


def test_other_suffixes_are_refused_naming_the_ones_read(tmp_path):
    path = tmp_path / "results.txt"
    path.write_text(TEXT)
    assert _cli_error(path, tmp_path) == f"error: {path}: unsupported file type (expected .csv, .tsv or .parquet)"


JAPANESE = TEXT.replace("Ana", "佐藤").replace("Ben", "鈴木さん").replace("Red Dragons", "赤ドラゴンズ")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_files_are_read(tmp_path, encoding):
    path = tmp_path / "results.csv"
    path.write_bytes(JAPANESE.encode(encoding))  # "utf-16" with a byte-order mark, the others without
    utf8 = tmp_path / "utf8.csv"
    utf8.write_text(JAPANESE, encoding="utf-8")
    assert _players(path) == _players(utf8)
    tabs = tmp_path / "unicode.tsv"  # Excel's "Unicode Text": UTF-16, tab-separated
    tabs.write_bytes(JAPANESE.replace(",", "\t").encode(encoding))
    assert _players(tabs) == _players(utf8)


def test_shift_jis_files_are_read_and_said_once(tmp_path):
    path = tmp_path / "results.csv"
    path.write_bytes(JAPANESE.encode("cp932"))
    with pytest.warns(UserWarning, match=r"^read .*results.csv as Shift-JIS \(cp932\) text, not UTF-8$"):
        result = analyzer.score(path)
    assert sorted(result.games["player"].to_list()) == ["Cho", "Dai", "佐藤", "鈴木さん"]
    run = CliRunner().invoke(main, ["score", str(path), "-o", str(tmp_path / "out"), "--format", "csv"])
    assert run.exit_code == 0, run.output
    assert run.output.count("Shift-JIS") == 1, run.output
    players = pl.read_csv(tmp_path / "out" / "players.csv")
    assert {"佐藤", "鈴木さん"} <= set(players["player"].to_list())


def test_a_shift_jis_file_whose_start_is_ascii_is_refused_naming_the_line(tmp_path):
    """The encoding is told from the file's start (its first 64 KiB): a file whose Japanese comes later is read
    as UTF-8, and refused naming the first line that is not, what it probably is and how to convert it."""
    rows = TEXT.splitlines()
    text = "\n".join([rows[0], *(rows[1:] * 2000), rows[1].replace("Ana", "佐藤")]) + "\n"
    path = tmp_path / "results.csv"
    path.write_bytes(text.encode("cp932"))
    with pytest.raises(InputError) as error:
        analyzer.score(path)
    message = str(error.value)
    assert "line 8002" in message and "Shift-JIS" in message and "iconv -f CP932 -t UTF-8" in message, message


def test_a_file_in_another_encoding_is_refused_saying_how_to_convert_it(tmp_path):
    path = tmp_path / "results.csv"
    path.write_bytes(TEXT.replace("Ana", "José").replace("Ben", "Müller").encode("cp1252"))
    line = _cli_error(path, tmp_path)
    assert line == (f"error: {path} is not UTF-8 text (line 2, byte 0xe9; Windows-1252?): save it as \"CSV UTF-8\" "
                    f"or convert it: iconv -f CP1252 -t UTF-8 {path.name} > utf8-{path.name}")


def test_european_text_is_not_taken_for_shift_jis(tmp_path):
    """``O’Brien`` or ``Pétur`` in Windows-1252 would decode as Shift-JIS too, into a kanji between Latin
    letters: refused, not read as Japanese."""
    for name in ("O’Brien", "Pétur"):
        path = tmp_path / "results.csv"
        path.write_bytes(TEXT.replace("Ana", name).encode("cp1252"))
        with pytest.raises(InputError, match="is not UTF-8 text"):
            analyzer.score(path)
