"""mjlog XML with what XML allows before and after its root element (a byte order mark, the XML declaration,
comments, processing instructions, blank lines) imports as the plain log; a Tenhou log id written in such a
comment identifies the game; a document type declaration stays refused.

The fixture ``tests/data/mjlog/commented_chankan.mjlog`` (written by ``compose.py`` there) starts as archives'
copies do: ``<!-- /0/?log=2017060214gm-00a9-0000-40a46a1c&tw=0 … -->`` before ``<mjloggm>``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.formats.tenhou.mjlog import parse_mjlog, split_prolog
from analyzer.formats.model import LogError
from analyzer.formats.read import read_tenhou

DATA = Path(__file__).resolve().parents[2] / "data" / "mjlog"
COMMENTED = DATA / "commented_chankan.mjlog"
LOG_ID = "2017060214gm-00a9-0000-40a46a1c"


def _root() -> str:
    """The fixture's log from its root element to its end tag, nothing around it."""
    text = COMMENTED.read_text(encoding="utf-8-sig")
    return text[text.index("<mjloggm") : text.index("</mjloggm>") + len("</mjloggm>")]


@pytest.mark.parametrize(
    "before, after",
    [
        ("", ""),
        ("\ufeff", "\n"),
        ('<?xml version="1.0" encoding="UTF-8"?>\n', ""),
        ("\n\n  \n", "\n\n"),
        ("<!-- saved by a viewer -->\n", "<!-- end -->"),
        ("<?xml version='1.0'?><?xml-stylesheet href='x.xsl'?>\n<!-- a -->\n<!-- b\n spans lines -->\n", " \n"),
        ("<!-- a comment with <tags> & > inside -->", "<?pi after?>\n"),
    ],
)
def test_anything_legal_around_the_root_imports_as_the_plain_log(tmp_path, before, after):
    (tmp_path / "plain.mjlog").write_text(_root(), encoding="utf-8")
    (tmp_path / "wrapped.mjlog").write_text(before + _root() + after, encoding="utf-8")
    plain, problems = read_tenhou([tmp_path / "plain.mjlog"])
    wrapped, wrapped_problems = read_tenhou([tmp_path / "wrapped.mjlog"])
    assert problems == wrapped_problems == []
    assert wrapped.drop("log_file").equals(plain.drop("log_file"))
    assert plain.height == 1


def test_a_log_id_in_a_leading_comment_is_the_game_id(tmp_path):
    hands, problems = read_tenhou([COMMENTED])
    assert problems == []
    assert hands["game_id"].to_list() == [LOG_ID]
    assert hands["played_at"][0].year == 2017  # the id's date, as for any Tenhou id


@pytest.mark.parametrize(
    "comment, file_name, expected",
    [
        # the comment's id comes before the file's name: it is the log's own content
        (f"<!-- /0/?log={LOG_ID}&tw=2 -->", "2019010100gm-00a9-0000-4f2a8622.mjlog", LOG_ID),
        # a comment without a log id, or with something else: the file's name, then the content's hash
        ("<!-- downloaded 2024-01-01 -->", "2019010100gm-00a9-0000-4f2a8622.mjlog", "2019010100gm-00a9-0000-4f2a8622"),
        ("<!-- log=not-an-id -->", "game.mjlog", None),
        # only the first comment's id counts; a private lobby's id has more lobby digits
        ("<!-- log=2019040114gm-0009-10011-0a1b2c3d --><!-- log=2017060214gm-00a9-0000-ffffffff -->", "game.mjlog",
         "2019040114gm-0009-10011-0a1b2c3d"),
    ],
)
def test_where_the_game_id_comes_from(tmp_path, comment, file_name, expected):
    (tmp_path / file_name).write_text(comment + "\n" + _root(), encoding="utf-8")
    hands, problems = read_tenhou([tmp_path / file_name])
    assert problems == []
    game_id = hands["game_id"][0]
    assert game_id == expected if expected else game_id.startswith("log-")


def test_the_shuffle_ref_comes_before_a_commented_id(tmp_path):
    own = "2020020202gm-00a9-0000-12345678"
    text = _root().replace('<SHUFFLE seed="" ref=""/>', f'<SHUFFLE seed="" ref="{own}"/>')
    (tmp_path / "g.mjlog").write_text(f"<!-- log={LOG_ID} -->" + text, encoding="utf-8")
    hands, _ = read_tenhou([tmp_path / "g.mjlog"])
    assert hands["game_id"][0] == own


@pytest.mark.parametrize(
    "text, words",
    [
        ('<?xml version="1.0"?>\n<!DOCTYPE mjloggm SYSTEM "mjlog.dtd">\n<mjloggm ver="2.3"></mjloggm>',
         "DTDs and entities are not read"),
        ("<!-- a comment --><!DOCTYPE x [<!ENTITY a 'b'>]><mjloggm>&a;</mjloggm>", "DTDs and entities are not read"),
        ("<!-- only a comment -->", "not an mjlog file"),
        ("<!-- unclosed comment <mjloggm></mjloggm>", "not an mjlog file"),
        ("<mjloggm ver=\"2.3\"><GO type=\"169\"/></mjloggm><!-- ok --> trailing text", "cut short"),
    ],
)
def test_what_stays_refused(text, words):
    with pytest.raises(LogError, match=words):
        parse_mjlog(text, "x.mjlog")


def test_a_comment_inside_the_log_is_no_data(tmp_path):
    root = _root()
    first_draw = root.index("<T")
    (tmp_path / "plain.mjlog").write_text(root, encoding="utf-8")
    (tmp_path / "inside.mjlog").write_text(root[:first_draw] + "<!-- not a draw: <T12/> -->" + root[first_draw:],
                                           encoding="utf-8")
    plain, _ = read_tenhou([tmp_path / "plain.mjlog"])
    inside, problems = read_tenhou([tmp_path / "inside.mjlog"])
    assert problems == [] and inside.drop("log_file", "game_id").equals(plain.drop("log_file", "game_id"))


def test_split_prolog_returns_the_root_and_the_first_commented_id():
    body, log_id = split_prolog(f"\ufeff<?xml version='1.0'?>\n<!-- x /0/?log={LOG_ID}&tw=1 -->\n<mjloggm/>"
                                "</mjloggm>\n<!-- after -->\n")
    assert body == "<mjloggm/></mjloggm>" and log_id == LOG_ID
    assert split_prolog("<mjloggm></mjloggm>") == ("<mjloggm></mjloggm>", None)
