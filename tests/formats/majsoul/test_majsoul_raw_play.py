"""Mahjong Soul's round actions into the game model (``analyzer/formats/majsoul/raw_play.py``): the calls the
composed games do not make (chi, an open kan, an added kan, a closed kan with a red five, the kan dora a later
action reveals), a double ron paid as one sum, read as the shared replay reads them. The rounds are written
here in riichienv's field names (``RawAction`` of ``mjsoul_replay.rs``: ``NewRound`` with ``tiles0..3`` and
``doras``, ``ChiPengGang`` with ``type``, ``tiles``, ``froms``, ``AnGangAddGang`` with one tile)."""

from __future__ import annotations

import pytest

from analyzer.formats.majsoul.raw_play import action_name, read_rounds
from analyzer.formats.model import LogError
from analyzer.formats.replay import replay
from analyzer.formats.tile_text import tile_str, tiles_str


def _new_round(**changes) -> tuple[str, dict]:
    data = {"chang": 0, "ju": 0, "ben": 0, "liqibang": 0, "scores": [25000] * 4, "doras": ["1s"],
            "tiles0": "1m 2m 3m 5p 5p 0p 5p 7s 8s 9s 2z 3z 4z 6z".split(),
            "tiles1": "4m 6m 7m 8m 1z 1z 9p 2p 3p 4p 6s 7s 8s".split(),
            "tiles2": "2m 3m 1z 1p 1p 4s 5s 6s 7z 7z 5z 5z 6p".split(),
            "tiles3": "9p 9p 9p 3m 4m 5m 6m 7m 8m 2s 3s 4s 6p".split()}
    return "NewRound", data | changes


CALLS = [
    _new_round(),
    ("AnGangAddGang", {"seat": 0, "type": 3, "tiles": "5p"}),                      # closed kan, the red 5p in it
    ("DealTile", {"seat": 0, "tile": "9m", "doras": ["1s", "2s"]}),                 # its replacement, a kan dora
    ("DiscardTile", {"seat": 0, "tile": "9m", "moqie": True}),
    ("DealTile", {"seat": 1, "tile": "6s"}),
    ("DiscardTile", {"seat": 1, "tile": "4m", "moqie": False}),
    ("ChiPengGang", {"seat": 2, "type": 0, "tiles": ["2m", "3m", "4m"], "froms": [2, 2, 1]}),
    ("DiscardTile", {"seat": 2, "tile": "1z", "moqie": False}),
    ("ChiPengGang", {"seat": 1, "type": 1, "tiles": ["1z", "1z", "1z"], "froms": [1, 1, 2]}),
    ("DiscardTile", {"seat": 1, "tile": "9p", "moqie": False}),
    ("ChiPengGang", {"seat": 3, "type": 2, "tiles": ["9p", "9p", "9p", "9p"], "froms": [3, 3, 3, 1]}),
    ("DealTile", {"seat": 3, "tile": "8p"}),
    ("DiscardTile", {"seat": 3, "tile": "8p", "moqie": True, "doras": ["1s", "2s", "3s"]}),  # an open kan's dora
    ("DealTile", {"seat": 0, "tile": "7p"}),
    ("DiscardTile", {"seat": 0, "tile": "7p", "moqie": True}),
    ("DealTile", {"seat": 1, "tile": "1z"}),
    ("AnGangAddGang", {"seat": 1, "type": 2, "tiles": "1z", "doras": ["1s", "2s", "3s", "4s"]}),
    ("DealTile", {"seat": 1, "tile": "2s"}),
    ("DiscardTile", {"seat": 1, "tile": "2s", "moqie": True}),
    ("LiuJu", {"type": 4}),
]


def test_every_call_is_read_as_the_replay_reads_it():
    [k] = read_rounds(CALLS)
    rp = replay(k)
    assert [[(mk, tiles_str(t)) for mk, t in melds] for melds in rp.melds] == [
        [("ankan", "0555p")], [("kakan", "1111z")], [("chi", "234m")], [("minkan", "9999p")]]
    assert rp.calls == [0, 2, 1, 1]  # a closed kan is no call; seat 1's pon and its added kan are two
    assert [tile_str(t) for t in rp.dora] == ["1s", "2s", "3s", "4s"]
    draws = [(e[1], tile_str(e[2]), e[3]) for e in k.events if e[0] == "draw"]
    assert draws == [(0, "6z", False), (0, "9m", True), (1, "6s", False), (3, "8p", True), (0, "7p", False),
                     (1, "1z", False), (1, "2s", True)]  # the dealer's 14th tile first; rinshan after each kan
    discards = [(e[1], tile_str(e[2]), e[4]) for e in k.events if e[0] == "discard"]
    assert [d for d in discards if d[2]] == [(0, "9m", True), (3, "8p", True), (0, "7p", True), (1, "2s", True)]
    assert [o.result for o in k.outcomes] == ["abort"]


def test_a_double_ron_is_paid_as_one_sum_split_by_winner():
    """Seat 0's 3p is won by seats 1 (2000) and 2 (3900) with one honba and one stick on the table: the server
    pays -6200 / +3300 / +3900; the honba and the stick go to seat 1, the winner nearest the discarder."""
    actions = [
        _new_round(ben=1, liqibang=1, scores=[25000, 25000, 24000, 25000]),
        ("DiscardTile", {"seat": 0, "tile": "1m", "moqie": False}),
        ("Hule", {"delta_scores": [-6200, 3300, 3900, 0], "hules": [
            {"seat": 2, "zimo": False, "hu_tile": "1m", "count": 3, "fu": 40, "yiman": False, "point_rong": 3900,
             "fans": [{"id": 12, "val": 1}, {"id": 14, "val": 1}, {"id": 31, "val": 1}]},
            {"seat": 1, "zimo": False, "hu_tile": "1m", "count": 2, "fu": 30, "yiman": False, "point_rong": 2000,
             "fans": [{"id": 7, "val": 1}, {"id": 32, "val": 1}]}]}),
    ]
    [k] = read_rounds(actions)
    by_winner = {o.winner: o for o in k.outcomes}
    assert by_winner[1].deltas == [-2300, 3300, 0, 0] and by_winner[2].deltas == [-3900, 0, 3900, 0]
    assert (by_winner[2].han, by_winner[2].fu, by_winner[2].yaku, by_winner[2].dora) == (3, 40, ["tanyao", "pinfu"], 1)
    assert (by_winner[1].yaku, by_winner[1].aka, by_winner[1].points) == (["haku"], 1, 2000)


@pytest.mark.parametrize("hule, expected", [
    # (han, fu, yakuman) -> limit; the double yakuman forms count twice when their val does not say
    ({"count": 4, "fu": 40, "fans": [{"id": 12, "val": 4}]}, ("mangan", 4, 0)),
    ({"count": 4, "fu": 30, "fans": [{"id": 12, "val": 4}]}, (None, 4, 0)),  # no kiriage
    ({"count": 13, "fu": 30, "fans": [{"id": 29, "val": 13}]}, ("yakuman", 13, 0)),  # kazoe
    ({"count": 1, "fu": 40, "yiman": True, "fans": [{"id": 38, "val": 1}]}, ("yakuman", None, 1)),
    ({"count": 2, "fu": 40, "yiman": True, "fans": [{"id": 49, "val": 0}]}, ("yakuman", None, 2)),
    ({"count": 2, "fu": 40, "yiman": True, "fans": [{"id": 37, "val": 1}, {"id": 39, "val": 1}]}, ("yakuman", None, 2)),
])
def test_limits_and_yakuman(hule, expected):
    actions = [_new_round(), ("DiscardTile", {"seat": 0, "tile": "1m"}),
               ("Hule", {"hules": [{"seat": 1, "zimo": False, "hu_tile": "1m", "point_rong": 8000, **hule}]})]
    [k] = read_rounds(actions)
    o = k.outcomes[0]
    assert (o.limit, o.han, o.yakuman) == expected


@pytest.mark.parametrize("name, expected", [
    (".lq.RecordNewRound", "NewRound"), ("RecordDealTile", "DealTile"), ("DiscardTile", "DiscardTile"),
    ("ActionHule", "Hule"), (".lq.RecordSelectGap", "SelectGap"), ("Recorder", "Recorder"),
])
def test_action_names(name, expected):
    assert action_name(name) == expected


@pytest.mark.parametrize("actions, reason", [
    ([("DealTile", {"seat": 0, "tile": "1m"})], "DealTile before the first NewRound"),
    ([_new_round(), ("ChiPengGang", {"seat": 1, "type": 1, "tiles": ["1z", "1z", "1z"], "froms": [1, 1, 0]})],
     "hand 1 (E1): a call where no discard was just made"),
    ([_new_round(), ("DiscardTile", {"seat": 1, "tile": "5s"})], "hand 1 (E1): seat 1 discards a tile it does not hold"),
    ([_new_round(), ("LiuJu", {}), ("DealTile", {"seat": 0, "tile": "1m"})], "hand 1 (E1): DealTile after its result"),
    ([_new_round(), _new_round()], "hand 1 (E1) has no result before the next hand"),
    ([_new_round(tiles0=["1m"] * 13)], "NewRound: the dealer is dealt 14 tiles"),
    ([_new_round(), ("DiscardTile", {"seat": 0, "tile": "1m"}), ("DiscardTile", {"seat": 4, "tile": "1m"})],
     "hand 1 (E1): seat 4 does not play"),
])
def test_broken_rounds(actions, reason):
    with pytest.raises(LogError) as err:
        read_rounds(actions)
    assert str(err.value).startswith(reason)


def test_the_seat_that_fed_the_third_dragon_set_is_liable():
    """Seat 1 pons haku from seat 0, hatsu from seat 2 and chun from seat 3, then wins daisangen by tsumo:
    seat 3 is liable (pao), as tensoul's ``countpao`` reads the calls."""
    actions = [
        _new_round(tiles0="5z 1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p".split(),
                   tiles1="5z 5z 6z 6z 7z 7z 1s 1s 1s 2s 3s 4s 9s".split(),
                   tiles2="6z 1p 2p 3p 4p 5p 6p 7p 8p 9p 2m 3m 4m".split(),
                   tiles3="7z 1m 1m 2s 3s 4s 5s 6s 7s 8s 9s 9p 9p".split()),
        ("DiscardTile", {"seat": 0, "tile": "5z"}),
        ("ChiPengGang", {"seat": 1, "type": 1, "tiles": ["5z", "5z", "5z"], "froms": [1, 1, 0]}),
        ("DiscardTile", {"seat": 1, "tile": "9s"}),
        ("DealTile", {"seat": 2, "tile": "5s"}),
        ("DiscardTile", {"seat": 2, "tile": "6z"}),
        ("ChiPengGang", {"seat": 1, "type": 1, "tiles": ["6z", "6z", "6z"], "froms": [1, 1, 2]}),
        ("DiscardTile", {"seat": 1, "tile": "4s"}),
        ("DealTile", {"seat": 2, "tile": "2p"}),
        ("DiscardTile", {"seat": 2, "tile": "2p", "moqie": True}),
        ("DealTile", {"seat": 3, "tile": "6p"}),
        ("DiscardTile", {"seat": 3, "tile": "7z"}),
        ("ChiPengGang", {"seat": 1, "type": 1, "tiles": ["7z", "7z", "7z"], "froms": [1, 1, 3]}),
        ("DiscardTile", {"seat": 1, "tile": "3s"}),
        ("DealTile", {"seat": 2, "tile": "3p"}),
        ("DiscardTile", {"seat": 2, "tile": "3p", "moqie": True}),
        ("DealTile", {"seat": 3, "tile": "5p"}),
        ("DiscardTile", {"seat": 3, "tile": "5p", "moqie": True}),
        ("DealTile", {"seat": 0, "tile": "1p"}),
        ("DiscardTile", {"seat": 0, "tile": "1p", "moqie": True}),
        ("DealTile", {"seat": 1, "tile": "1s"}),
        ("Hule", {"hules": [{"seat": 1, "zimo": True, "hu_tile": "1s", "count": 1, "fu": 40, "yiman": True,
                             "point_zimo_qin": 16000, "point_zimo_xian": 8000, "fans": [{"id": 37, "val": 1}]}]}),
    ]
    [k] = read_rounds(actions)
    o = k.outcomes[0]
    assert (o.result, o.winner, o.pao, o.yakuman, o.points) == ("tsumo", 1, 3, 1, 32000)


@pytest.mark.parametrize("liuju_type, kind", [(1, "yao9"), (2, "kaze4"), (3, "reach4"), (4, "kan4"), (5, "ron3")])
def test_an_abortive_draw_keeps_its_kind(liuju_type, kind):
    """RecordLiuJu's type is the abort's kind: an export names it (tenhou.net/6 refuses an abort of no kind)."""
    [k] = read_rounds([_new_round(), ("LiuJu", {"type": liuju_type})])
    assert [(o.result, o.abort) for o in k.outcomes] == [("abort", kind)]
