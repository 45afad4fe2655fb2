"""The command line: outputs written, counts that add up, exit codes, one-line errors."""

import polars as pl
import pytest
from click.testing import CliRunner

from analyzer.cli import main

SAMPLE = "sample_logs/csv"


def test_score_writes_every_output_and_exits_clean(tmp_path):
    result = CliRunner().invoke(main, ["score", SAMPLE, "-o", str(tmp_path), "--format", "csv"])
    assert result.exit_code == 0, result.output
    for name in ("hands", "games", "players", "rejects"):
        assert (tmp_path / f"{name}.csv").is_file()
    hands = pl.read_csv(tmp_path / "hands.csv")
    assert f"rows read: {hands.height} = scored {hands.height} + rejected 0" in result.output
    assert "Standings" in result.output
    assert not list(tmp_path.glob(".*.tmp"))  # atomic writes leave no temporary files


def test_parquet_and_csv_samples_give_the_same_results(tmp_path):
    runner = CliRunner()
    assert runner.invoke(main, ["score", SAMPLE, "-o", str(tmp_path / "a")]).exit_code == 0
    assert runner.invoke(main, ["score", "sample_logs/parquet", "-o", str(tmp_path / "b")]).exit_code == 0
    a = pl.read_parquet(tmp_path / "a" / "games.parquet")
    b = pl.read_parquet(tmp_path / "b" / "games.parquet")
    assert a.equals(b)


def test_rejected_rows_exit_1_and_are_listed(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,han,fu\n"
        "g,E1,0,A,B,C,D,ron,B,A,3,40\n"
        "g,E2,0,A,B,C,D,ron,Q,A,3,40\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["score", str(bad), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "rows read: 2 = scored 1 + rejected 1" in result.output
    rejects = pl.read_parquet(tmp_path / "out" / "rejects.parquet")
    assert rejects.select("row", "column", "value").row(0) == (2, "winner", "Q")


def test_bad_usage_and_unreadable_input_exit_2_without_traceback(tmp_path):
    runner = CliRunner()
    for args in (
        ["score", str(tmp_path / "missing.csv"), "-o", str(tmp_path)],
        ["score", SAMPLE, "-o", str(tmp_path), "--rules", "no-such-rules"],
        ["score", SAMPLE],
    ):
        result = runner.invoke(main, args)
        assert result.exit_code == 2, args
        assert "Traceback" not in result.output


def test_unreadable_csv_content_is_a_one_line_error(tmp_path):
    broken = tmp_path / "broken.csv"
    broken.write_bytes(b"game_id,round\n\"unterminated,E1\n")
    result = CliRunner().invoke(main, ["score", str(broken), "-o", str(tmp_path / "out")])
    assert result.exit_code in (1, 2)
    assert "Traceback" not in result.output


def test_rules_list_and_show():
    runner = CliRunner()
    listed = runner.invoke(main, ["rules", "list"])
    assert listed.exit_code == 0
    for name in ("tenhou", "majsoul", "ema", "wrc", "mleague"):
        assert name in listed.output
    shown = runner.invoke(main, ["rules", "show", "ema"])
    assert shown.exit_code == 0 and "kiriage" in shown.output and "sanbaiman" in shown.output


def test_rules_from_toml_start_from_a_preset(tmp_path):
    toml = tmp_path / "club.toml"
    toml.write_text('preset = "ema"\numa = [20, 10, -10, -20]\nkiriage = true\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["rules", "show", str(toml)])
    assert result.exit_code == 0
    assert "20, 10, -10, -20" in result.output


def test_import_tenhou_sample_then_score(tmp_path):
    runner = CliRunner()
    imported = runner.invoke(main, ["import", "tenhou", "sample_logs/tenhou", "-o", str(tmp_path / "hands.parquet")])
    assert imported.exit_code == 0, imported.output
    scored = runner.invoke(main, ["score", str(tmp_path / "hands.parquet"), "-o", str(tmp_path / "out")])
    assert scored.exit_code == 0, scored.output
    hands = pl.read_parquet(tmp_path / "out" / "hands.parquet")
    assert hands.filter(pl.col("problems").list.len() > 0).height == 0
    assert all(hands.schema[f"recorded_delta_{s}"] == pl.Int64 for s in range(4))  # the imported type, kept
    recorded = hands.select(f"recorded_delta_{s}" for s in range(4))
    assert hands.select(f"delta_{s}" for s in range(4)).rows() == recorded.rows()


TENHOU_SAMPLE = "sample_logs/tenhou/sample_tonpuu.json"


def test_import_then_check_the_tenhou_sample(tmp_path):
    runner = CliRunner()
    hands = tmp_path / "hands.parquet"
    assert runner.invoke(main, ["import", "tenhou", TENHOU_SAMPLE, "-o", str(hands)]).exit_code == 0
    report = tmp_path / "report.html"
    result = runner.invoke(main, ["check", str(hands), "-o", str(report)])
    assert result.exit_code == 0, result.output
    assert "everything agrees" in result.output and report.is_file()


def test_check_exits_1_on_mismatches_and_2_on_bad_usage(tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        "game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,han,fu,recorded_points\n"
        "g,E1,0,A,B,C,D,ron,B,A,3,40,5200\n"
        "g,E2,0,A,B,C,D,ron,C,A,3,40,3900\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    result = runner.invoke(main, ["check", str(sheet), "-o", str(tmp_path / "report.csv")])
    assert result.exit_code == 1, result.output
    report = pl.read_csv(tmp_path / "report.csv")
    assert report.select("round", "field", "recorded", "computed").rows() == [("E2", "points", 3900, 5200)]
    for args in (["check", str(sheet), "-o", str(tmp_path / "report.txt")], ["check", str(tmp_path / "none.csv")],
                 ["check", str(sheet), "--rules", "nope"]):
        bad = runner.invoke(main, args)
        assert bad.exit_code == 2 and "Traceback" not in bad.output, args


def test_check_the_sample_sheet_with_mistakes():
    result = CliRunner().invoke(main, ["check", "sample_logs/checks/sheet_with_mistakes.csv", "--show", "0"])
    assert result.exit_code == 1
    assert "4 rows, 1 game: 11 mismatches in 1 game; rules: tenhou" in result.output


def test_tiles_encode_then_score_matches_scoring_the_text(tmp_path):
    runner = CliRunner()
    hands = tmp_path / "hands.parquet"
    assert runner.invoke(main, ["import", "tenhou", "sample_logs/tenhou", "-o", str(hands)]).exit_code == 0
    codes = tmp_path / "codes.parquet"
    result = runner.invoke(main, ["tiles", "encode", str(hands), "-o", str(codes), "--drop-text"])
    assert result.exit_code == 0, result.output
    assert "encoded" in result.output and "hand" not in pl.read_parquet_schema(codes)
    assert runner.invoke(main, ["score", str(hands), "-o", str(tmp_path / "text")]).exit_code == 0
    assert runner.invoke(main, ["score", str(codes), "-o", str(tmp_path / "codes")]).exit_code == 0
    columns = ["game_id", "han", "fu", "yakuman", "points", "yaku", "fu_detail", "problems"]
    text = pl.read_parquet(tmp_path / "text" / "hands.parquet").select(columns)
    assert text["yaku"].list.len().sum() > 0
    assert pl.read_parquet(tmp_path / "codes" / "hands.parquet").select(columns).equals(text)


def test_tiles_encode_keeps_unreadable_rows_and_exits_1(tmp_path):
    sheet = tmp_path / "tiles.csv"
    sheet.write_text("hand,win_tile\n123m456p789s11z234s,4s\n123m456p789x11z234s,4s\n")
    codes = tmp_path / "codes.csv"
    result = CliRunner().invoke(main, ["tiles", "encode", str(sheet), "-o", str(codes)])
    assert result.exit_code == 1
    assert "1 row(s) with unreadable tiles: bad_notation" in result.output
    assert pl.read_csv(codes)["tc_error"].to_list() == [0, 1]
    missing = CliRunner().invoke(main, ["tiles", "encode", "sample_logs/csv", "-o", str(codes)])
    assert missing.exit_code == 2 and "no 'hand' column" in missing.output


def test_names_and_messages_are_printed_literally_on_one_line(tmp_path):
    rows = pl.read_csv("sample_logs/csv/round1.csv", infer_schema=False).with_columns(
        pl.col("riichi", "tenpai").str.replace_all(" ", ",")  # the name has a space: lists by comma
    ).with_columns(
        pl.col(c).str.replace("Tanaka", "Bob [pro]") for c in ("player_0", "winner", "loser", "riichi", "tenpai")
    )
    sheet = tmp_path / "[b]odd name.csv"
    rows.write_csv(sheet)
    result = CliRunner().invoke(main, ["score", str(sheet), "-o", str(tmp_path / "out"), "--top", "20"])
    assert result.exit_code == 0, result.output
    assert "Bob [pro]" in result.output  # and the file whose name looks like a glob was read
    missing = CliRunner().invoke(main, ["score", str(tmp_path / ("[bold]" + "x" * 150 + ".csv")), "-o", str(tmp_path / "o")])
    assert missing.exit_code == 2 and "[bold]" in missing.output
    assert len([line for line in missing.output.splitlines() if line.strip()]) == 1


@pytest.mark.parametrize(
    "name, content",
    [
        ("ragged.csv", b"game_id,round,honba\ng1,E1,0\ng1,E2,0,extra,fields\n"),
        ("quote.csv", b'game_id,round,honba\ng1,"E1,0\n'),
        ("latin1.csv", "game_id,round,honba\ng\xe9,E1,0\n".encode("latin-1")),
        ("garbage.parquet", b"PAR1 this is not parquet"),
    ],
)
def test_malformed_files_give_one_line_naming_the_file(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    result = CliRunner().invoke(main, ["score", str(path), "-o", str(tmp_path / "out")])
    assert result.exit_code in (1, 2), result.output
    if result.exit_code == 2:
        assert name in result.output and "Traceback" not in result.output
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1


def test_an_output_that_is_an_input_is_refused(tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_bytes(open("sample_logs/csv/round1.csv", "rb").read())
    before = sheet.read_bytes()
    for args in (["check", str(sheet), "-o", str(sheet)], ["tiles", "encode", str(sheet), "-o", str(sheet)],
                 ["score", str(tmp_path / "hands.csv"), "-o", str(tmp_path), "--format", "csv"]):
        if args[0] == "score":
            (tmp_path / "hands.csv").write_bytes(before)
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2 and "is also an input" in result.output, result.output
    assert sheet.read_bytes() == before


def test_unknown_output_suffix_is_refused(tmp_path):
    result = CliRunner().invoke(main, ["tiles", "encode", "sample_logs/csv", "-o", str(tmp_path / "codes.json")])
    assert result.exit_code == 2 and "codes.json" in result.output
    assert not (tmp_path / "codes.json").exists()


def test_ctrl_c_exits_130_and_writes_nothing(tmp_path, monkeypatch):
    import analyzer.cli.score as cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "score_to", interrupted)
    result = CliRunner().invoke(main, ["score", "sample_logs/csv", "-o", str(tmp_path / "out")])
    assert result.exit_code == 130 and "interrupted" in result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_the_hands_output_scores_again_to_the_same_result(tmp_path):
    first = CliRunner().invoke(main, ["score", "sample_logs/csv", "-o", str(tmp_path / "a"), "--top", "0"])
    assert first.exit_code == 0
    again = CliRunner().invoke(main, ["score", str(tmp_path / "a" / "hands.parquet"), "-o", str(tmp_path / "b"),
                                      "--top", "0"])
    assert again.exit_code == 0, again.output
    a, b = (pl.read_parquet(tmp_path / d / "hands.parquet") for d in ("a", "b"))
    assert b["input_points"].to_list() == a["points"].to_list()  # kept, with its type, under input_*
    for column in ["points", *[f"delta_{s}" for s in range(4)], *[f"score_{s}" for s in range(4)], "problems"]:
        assert b[column].to_list() == a[column].to_list(), column
    assert pl.read_parquet(tmp_path / "b" / "games.parquet").equals(pl.read_parquet(tmp_path / "a" / "games.parquet"))


def test_the_same_file_twice_is_read_once(tmp_path):
    import os

    os.symlink(os.path.abspath("sample_logs/csv/round1.csv"), tmp_path / "link.csv")
    paths = ["sample_logs/csv/round1.csv", os.path.abspath("sample_logs/csv/round1.csv"), str(tmp_path / "link.csv")]
    import analyzer

    assert analyzer.score(paths).hands.height == analyzer.score(paths[0]).hands.height


def test_a_user_column_with_the_internal_prefix_is_kept(tmp_path):
    rows = pl.read_csv("sample_logs/csv/round1.csv", infer_schema=False).with_columns(
        pl.lit("my note").alias("_note"), pl.lit("7").alias("_row"))
    rows.write_csv(tmp_path / "sheet.csv")
    import analyzer

    hands = analyzer.score(tmp_path / "sheet.csv").hands
    assert set(hands["input__note"]) == {"my note"} and set(hands["input__row"]) == {7}  # the type CSV infers
    assert hands["source_row"].to_list() == list(range(1, rows.height + 1))


def test_two_columns_of_one_name_and_odd_parquet_columns_are_one_line_errors_or_rejects(tmp_path):
    (tmp_path / "twice.csv").write_text("game_id,round,honba,honba \ng1,E1,0,1\n")
    result = CliRunner().invoke(main, ["score", str(tmp_path / "twice.csv"), "-o", str(tmp_path / "o1")])
    assert result.exit_code == 2 and "same name" in result.output
    rows = pl.read_csv("sample_logs/csv/round1.csv", infer_schema=False)
    rows.with_columns(pl.col("honba").cast(pl.Binary), pl.lit([[1, 2]]).alias("nested")).write_parquet(
        tmp_path / "odd.parquet"
    )
    odd = CliRunner().invoke(main, ["score", str(tmp_path / "odd.parquet"), "-o", str(tmp_path / "o2")])
    assert odd.exit_code in (0, 1, 2) and "Traceback" not in odd.output
    assert len([line for line in odd.output.splitlines() if line.strip() and "error" in line]) <= 1


def test_an_import_that_imports_nothing_leaves_the_output_alone(tmp_path):
    (tmp_path / "broken.xml").write_text("<mjloggm ver=\"2.3\"><GO type=\"169\"/><INIT")
    output = tmp_path / "hands.parquet"
    output.write_bytes(b"earlier")
    result = CliRunner().invoke(main, ["import", "tenhou", str(tmp_path / "broken.xml"), "-o", str(output)])
    assert result.exit_code == 2 and "not written" in result.output
    assert output.read_bytes() == b"earlier"
    json_out = CliRunner().invoke(main, ["import", "tenhou", str(tmp_path), "-o", str(tmp_path / "log.json")])
    assert json_out.exit_code == 2 and "log.json" in json_out.output
