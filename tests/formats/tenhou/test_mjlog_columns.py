"""The columnar mjlog reader (analyzer.formats.tenhou.mjlog_columns) gives exactly the log tables of the
per-game reader (analyzer.formats.tenhou.mjlog through tables_from_games.tables_of_games, the oracle): on every
shared and test mjlog, on hand-written logs of every kind of tag and every rule the per-game reader has, and on
random damage to a log; a file it refuses reads through the per-game reader (its reason, or its tables)."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from conftest import SHARED, SHARED_HINT, SHARED_LOGS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from analyzer.formats.columns_read import unreadable_reason
from analyzer.formats.files import expand_paths
from analyzer.formats.parse import read_game
from analyzer.formats.tables_from_games import tables_of_games
from analyzer.formats.tenhou.mjlog import _meld
from analyzer.formats.tenhou.mjlog_columns import read_mjlog_tables
from analyzer.formats.tenhou.mjlog_columns_codes import KITA, MELD_NAMES, meld_columns

TESTS = Path(__file__).resolve().parents[2]
TEST_LOGS = [p for p in sorted((TESTS / "data").rglob("*")) if p.suffix in (".mjlog", ".xml")]
PAIRS = SHARED / "data" / "pairs" / "mjx-mjlog"


def oracle(files: list[Path]):
    """The per-game reader's tables and, per file, (game number, game id, digest, reason not read)."""
    games, ids, reads = [], [], []
    for f in files:
        game, gid, digest, error = read_game(Path(f), "tenhou")
        if game is not None:
            try:
                tables_of_games([game], [gid])
            except (ValueError, IndexError, KeyError, TypeError) as exc:  # as the events export
                game, error = None, unreadable_reason(game, exc)
        reads.append((len(games) if game is not None else None, gid, digest, error))
        if game is not None:
            games.append(game)
            ids.append(gid)
    return (tables_of_games(games, ids) if games else None), reads


def assert_as_oracle(files: list[Path]) -> list[bool]:
    """The columns' tables and reads equal the oracle's; returns per file whether the columns read it."""
    tables, reads = read_mjlog_tables(files)
    expected, expected_reads = oracle(files)
    assert [(r.game, r.game_id, r.digest, r.error) for r in reads] == expected_reads
    tables.check_schemas()
    for name in ("games", "hands", "events", "outcomes"):
        got = getattr(tables, name)
        if expected is None:
            assert got.height == 0, name
        else:
            assert_frame_equal(got, getattr(expected, name), check_exact=True)
    return [r.columns for r in reads]


# --- hand-written logs ---------------------------------------------------------------------------------------

def chi(kind: int, called: int, copies=(0, 0, 0)) -> int:
    """Tenhou's meld code of a chi of kinds kind..kind+2 (within a suit), the called tile the ``called``-th."""
    base = (kind // 9) * 7 + kind % 9
    return (base * 3 + called) << 10 | 0x4 | copies[0] << 3 | copies[1] << 5 | copies[2] << 7 | 3


def pon(kind: int, called: int, unused: int = 3, frm: int = 1, added: bool = False) -> int:
    return (kind * 3 + called) << 9 | (0x10 if added else 0x8) | unused << 5 | frm


def kan(tid: int, frm: int = 0) -> int:  # frm 0: a closed kan
    return tid << 8 | frm


def kita(tid: int) -> int:
    return tid << 8 | 0x20


DEAL = ["0,1,2,4,5,6,8,9,10,12,13,14,16", "36,37,38,40,41,42,44,45,46,48,49,50,52",
        "72,73,74,76,77,78,80,81,82,84,85,86,88", "108,109,110,112,113,114,116,117,118,120,121,122,124"]
HEAD = ('<mjloggm ver="2.3"><SHUFFLE seed="mt19937ar,x==" ref=""/><GO type="169" lobby="0"/>'
        '<UN n0="%41%6F%69" n1="Ben" n2="%E5%AF%82" n3="Dan" dan="11,12,13,14" rate="1600.00,1700,1800.5,1900" '
        'sx="M,F,F,M"/><TAIKYOKU oya="0"/>')


def init(kyoku: int = 0, honba: int = 0, sticks: int = 0, deal=DEAL, dora: int = 130, extra: str = "") -> str:
    hands = "".join(f' hai{s}="{deal[s]}"' for s in range(len(deal)))
    return f'<INIT seed="{kyoku},{honba},{sticks},3,4,{dora}" ten="250,250,250,250" oya="{kyoku % 4}"{hands}{extra}/>'


HAND_1 = (init() + "<T132/><D132/><U133/><E133/><V134/><F134/><W17/>"
          f'<N who="0" m="{pon(4, 0, unused=0, frm=3)}" /><D0/>'  # seat 0 pons 5m (ids 17..19, 16 the red one left)
          f'<U3/><REACH who="1" step="1"/><E3/><REACH who="1" ten="250,240,250,250" step="2"/>'
          f'<V125/><F125/><W126/><G126/><T19/><N who="0" m="{pon(4, 0, unused=0, frm=3, added=True)}" /><DORA hai="131" />'
          '<T135/><D135/><U15/><E15/>'
          '<AGARI ba="0,1" hai="36,37,38,40,41,42,44,45,46,48,49,50,52,53" machi="53" ten="40,7700,0" '
          'yaku="1,1,53,0,54,1" doraHai="130,131" doraHaiUra="100,101" who="1" fromWho="1" '
          'sc="250,-27,240,87,250,-20,250,-20" />')
HAND_2 = (init(1, 1) + f'<U60/><E60/><V61/><N who="3" m="{chi(18, 1, (0, 1, 2))}" /><G108/>'
          f'<T62/><N who="0" m="{kan(62, 1)}" /><T63/><DORA hai="64" /><D63/><U92/><N who="1" m="{kan(92)}" />'
          '<U93/><E93/>'
          '<AGARI ba="1,0" hai="72,73,74,76,77,78,80,81,82,84,85,86,93,88" machi="93" ten="30,1000,0" yaku="8,1" '
          'doraHai="130" who="2" fromWho="1" sc="250,0,250,-13,250,13,250,0" />'
          '<AGARI ba="0,0" hai="108,109,110,112,113,114,116,117,118,120,121,122,93,124" machi="93" ten="30,2000,1" '
          'yakuman="39" doraHai="130" who="3" fromWho="1" sc="250,0,237,-20,263,0,250,20" paoWho="0" />')
HAND_3 = (init(2, 0) + "<V20/><F20/><W21/><G21/><T22/><D22/><U23/><E23/>"
          '<RYUUKYOKU ba="0,0" sc="250,10,237,-10,283,10,270,-10" hai0="0,1,2" hai2="72,73" '
          'owari="260,-14.0,227,-27.3,293,39.3,220,2.0" />')
BASE = HEAD + HAND_1 + HAND_2 + HAND_3 + "</mjloggm>"
SANMA = ('<mjloggm ver="2.3"><GO type="185" lobby="0"/><UN n0="A" n1="B" n2="C" n3="" dan="1,2,3,0" '
         'rate="1500,1500,1500,1500" sx="M,M,M,C"/>'
         + init(deal=DEAL[:3], extra=' hai3=""') + f'<T120/><N who="0" m="{kita(120)}" /><T121/><D121/><U122/>'
         + f'<E122/><V123/><N who="2" m="{kita(123)}" /><V30/><F30/><T31/><D31/>'
         '<AGARI ba="0,0" hai="0,1,2,4,5,6,8,9,10,12,13,14,16,32" m="30752" machi="32" ten="30,2000,1" yaku="0,1,52,1" '
         'doraHai="130" who="0" fromWho="0" sc="350,40,340,-20,350,-20,0,0" owari="390,19.0,320,-8.0,330,-11.0,0,0" />'
         "</mjloggm>")

# (name, how the log is changed, whether the columns read it: False when the per-game reader must)
CASES = [
    ("base", lambda t: t, True),
    ("three players, norths set aside", lambda t: SANMA, True),
    ("no red fives (GO bit 0x02)", lambda t: t.replace('type="169"', 'type="171"'), True),
    ("hanchan off, kuitan off", lambda t: t.replace('type="169"', 'type="1"'), True),
    ("special lobby and custom rules", lambda t: t.replace('type="169" lobby="0"', 'type="257" csrule="0F,1,,,30000,30000"'), True),
    ("attributes in another order", lambda t: t.replace('<N who="0" m=', '<N  m="4104" who="0" x=').replace(
        ' m="4104" who="0" x="4104"', ' m="0" who="0" m="4104"'), True),
    ("an unknown attribute and tag", lambda t: t.replace("<TAIKYOKU", '<FOO a="1"/><TAIKYOKU'), True),
    ("a key twice: the last", lambda t: t.replace('<DORA hai="131" />', '<DORA hai="1" hai="131"/>'), True),
    ("newline after tags", lambda t: t.replace("/>", "/>\n"), False),
    ("an XML declaration and comment", lambda t: '\ufeff<?xml version="1.0"?>\n<!-- log=2019050417gm-0029-0000-4f2a8622 -->' + t, True),
    ("a comment inside", lambda t: t.replace("<TAIKYOKU", "<!-- <T1/> --><TAIKYOKU"), False),
    ("a comment that looks like tags", lambda t: t.replace("<TAIKYOKU", "<!--><T1/></x--><TAIKYOKU"), False),
    ("a tag named like a deal marker", lambda t: t.replace("<TAIKYOKU", "<H0/><TAIKYOKU"), False),
    ("a log id in SHUFFLE", lambda t: t.replace('ref=""', 'ref="2019050417gm-0029-0000-4f2a8622"'), True),
    ("a character reference", lambda t: t.replace('n1="Ben"', 'n1="B&amp;n"'), False),
    ("names as raw UTF-8", lambda t: t.replace('n1="Ben"', 'n1="ベン"'), True),
    ("a name %-encoded in part", lambda t: t.replace('n1="Ben"', 'n1="B%65n"'), False),
    ("a name not UTF-8", lambda t: t.replace('n1="Ben"', 'n1="%FF%FE"'), False),
    ("two players of one name", lambda t: t.replace('n1="Ben"', 'n1="Dan"'), False),
    ("a name with spaces", lambda t: t.replace('n1="Ben"', 'n1=" Ben"'), False),
    ("blank names", lambda t: t.replace('n1="Ben"', 'n1=""').replace('n0="%41%6F%69"', 'n0=""'), True),
    ("no fourth player", lambda t: t.replace('n3="Dan"', 'n3=""'), False),
    ("no UN", lambda t: t.replace(t[t.index("<UN"):t.index("<TAIKYOKU")], ""), True),
    ("no GO", lambda t: t.replace('<GO type="169" lobby="0"/>', ""), False),
    ("two GO", lambda t: t.replace("<TAIKYOKU", '<GO type="169"/><TAIKYOKU'), False),
    ("a lobby not a number", lambda t: t.replace('lobby="0"', 'lobby="L1"'), True),
    ("a tile id beyond 135", lambda t: t.replace("<T132/>", "<T136/>"), False),
    ("a spaced play tag", lambda t: t.replace("<T132/>", "<T132 />"), False),
    ("a play tag with a leading zero", lambda t: t.replace("<T132/>", "<T0132/>"), False),
    ("a draw before INIT", lambda t: t.replace("<TAIKYOKU", "<T1/><TAIKYOKU"), False),
    ("no INIT", lambda t: HEAD + "</mjloggm>", False),
    ("cut short", lambda t: t[: t.index("<INIT", 500)], False),
    ("not an mjlog", lambda t: '{"title": [], "log": []}', False),
    ("riichi declared apart from its discard", lambda t: t.replace('step="1"/><E3/>', 'step="1"/><DORA hai="1"/><E3/>'), False),
    ("play after the result", lambda t: t.replace('sc="250,-27,240,87,250,-20,250,-20" />', 'sc="250,-27,240,87,250,-20,250,-20" /><T7/>'), False),
    ("two rons in the other order", lambda t: t.replace('who="2" fromWho="1"', 'who="0" fromWho="1"'), False),
    ("an unknown draw type", lambda t: t.replace('<RYUUKYOKU ba="0,0"', '<RYUUKYOKU type="zz" ba="0,0"'), False),
    ("an abortive draw", lambda t: t.replace('<RYUUKYOKU ba="0,0"', '<RYUUKYOKU type="yao9" ba="0,0"'), True),
    ("nagashi mangan", lambda t: t.replace('<RYUUKYOKU ba="0,0"', '<RYUUKYOKU type="nm" ba="0,0"'), True),
    ("a yaku id beyond the table", lambda t: t.replace('yaku="8,1"', 'yaku="99,1"'), False),
    ("a yaku id counted from the end", lambda t: t.replace('yaku="8,1"', 'yaku="-1,1"'), False),
    ("an odd yaku list", lambda t: t.replace('yaku="8,1"', 'yaku="8,1,9"'), False),
    ("a chip lobby's sc", lambda t: t.replace('sc="250,10,237,-10,283,10,270,-10"', 'sc="250,10,237,-10,283,10,270,-10,1,1,2,2,3,3,4,4"'), True),
    ("chips in owari", lambda t: t.replace('owari="260,-14.0,227,-27.3,293,39.3,220,2.0"', 'owari="260,-14.0,227,-27.3,293,39.3,220,2.0,5,1,-5,1,3,1,-3,1" ratio="0,1"'), True),
    ("a short owari", lambda t: t.replace('owari="260,-14.0,227,-27.3,293,39.3,220,2.0"', 'owari="260,-14.0"'), False),
    ("a bad sc", lambda t: t.replace('sc="250,0,250,-13,250,13,250,0"', 'sc="250,0,250"'), False),
    ("an INIT with chips and a shuffle", lambda t: t.replace(' oya="0" hai0', ' chip="0,0,0,0" oya="0" hai0', 1), True),
    ("a dealer other than the seed's", lambda t: t.replace('oya="1"', 'oya="2"'), False),
    ("a deal of twelve", lambda t: t.replace('hai0="0,1,2,4,5,6,8,9,10,12,13,14,16"', 'hai0="0,1,2,4,5,6,8,9,10,12,13,14"', 1), False),
    ("honba beyond the events' Int16", lambda t: t.replace('seed="1,1,0', 'seed="1,40000,0'), False),
    ("a score beyond check_magnitudes", lambda t: t.replace('ten="250,250,250,250"', 'ten="99999999,250,250,250"', 1), False),
    ("a north outside three players", lambda t: t.replace(f'm="{kan(92)}"', f'm="{kita(120)}"'), False),
    ("a tsumo on no draw", lambda t: t.replace("<U15/><E15/><AGARI", "<AGARI"), True),
]


@pytest.mark.parametrize("name, change, columnar", CASES, ids=[c[0] for c in CASES])
def test_a_log_reads_as_the_per_game_reader_reads_it(tmp_path, name, change, columnar):
    path = tmp_path / "game.mjlog"
    path.write_text(change(BASE), encoding="utf-8")
    assert assert_as_oracle([path]) == [columnar]


def test_a_batch_of_logs_read_by_both_readers_numbers_its_games_in_file_order(tmp_path):
    files = []
    for i, (name, change, _) in enumerate(CASES):
        files.append(tmp_path / f"{i:02d}.mjlog")
        files[-1].write_text(change(BASE), encoding="utf-8")
    gz = tmp_path / "sanma.mjlog.gz"
    gz.write_bytes(gzip.compress(SANMA.encode()))
    files += [gz, tmp_path / "missing.mjlog", tmp_path / "00.mjlog"]  # a missing file, a copy
    read = assert_as_oracle(files)
    assert any(read) and not all(read)


def test_meld_codes_decode_as_the_per_game_reader_decodes_them():
    codes = np.arange(1 << 16)
    frame = pl.DataFrame({"m": codes, "who": codes % 4}).with_columns(**meld_columns(pl.col("m"), pl.col("who")))
    expected = [_meld(int(m), int(m) % 4) for m in codes]
    kinds = {v: k for k, v in MELD_NAMES.items()} | {"kita": KITA}
    assert frame["meld"].to_list() == [kinds[kind] for kind, _, _, _ in expected]
    assert frame["called"].to_list() == [called for _, _, called, _ in expected]
    assert frame["frm"].to_list() == [frm for _, _, _, frm in expected]
    tiles = frame.select(pl.concat_list(f"t{i}" for i in range(4)).list.drop_nulls()).to_series().to_list()
    assert tiles == [t for _, t, _, _ in expected]


TAGS = st.sampled_from(["<T5/>", "<D5/>", "<N who=\"1\" m=\"4104\" />", '<REACH who="0" step="1"/>',
                        '<REACH who="0" step="2"/>', '<DORA hai="7" />', "<U3/>", '<AGARI ba="0,0" hai="1" '
                        'machi="1" ten="30,1000,0" yaku="1,1" doraHai="5" who="0" fromWho="2" sc="1,2,3,4,5,6,7,8" />'])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(0, len(BASE) - 1), length=st.integers(0, 12), insert=TAGS, how=st.sampled_from(
    ["delete", "insert", "digit", "space", "quote"]))
def test_damage_to_a_log_is_read_as_the_per_game_reader_reads_it(tmp_path, cut, length, insert, how):
    """Whatever is broken or unusual, the columns' result is the per-game reader's (its tables, or its reason)."""
    at = BASE.rfind("<", 0, cut + 1) if how == "insert" else cut
    changed = {"delete": BASE[:cut] + BASE[cut + length:], "insert": BASE[:at] + insert + BASE[at:],
               "digit": BASE[:cut] + str(length % 10) + BASE[cut + 1:], "space": BASE[:cut] + " " + BASE[cut:],
               "quote": BASE[:cut] + '"' + BASE[cut:]}[how]
    path = tmp_path / "damaged.mjlog"
    path.write_text(changed, encoding="utf-8")
    assert_as_oracle([path])


def test_every_test_mjlog_reads_as_the_per_game_reader_reads_it():
    assert all(assert_as_oracle(TEST_LOGS))


@pytest.mark.skipif(not SHARED_LOGS.is_dir(), reason=f"shared logs not found at {SHARED_LOGS} ({SHARED_HINT})")
def test_every_shared_mjlog_reads_as_the_per_game_reader_reads_it():
    files = expand_paths([SHARED_LOGS / "mjlog"])[0] + (expand_paths([PAIRS])[0] if PAIRS.is_dir() else [])
    assert len(files) > 50
    assert all(assert_as_oracle(files))  # every one by the columns, none left to the per-game reader


def test_an_empty_batch_gives_the_empty_tables():
    tables, reads = read_mjlog_tables([])
    tables.check_schemas()
    assert reads == [] and all(getattr(tables, name).height == 0 for name in ("games", "hands", "events", "outcomes"))
