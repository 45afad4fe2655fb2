"""One table of yaku names for people: every yaku id the tiles, the importers and the dora counts use has an
English and a Japanese name, and the Japanese one is the importers' (Tenhou's) name of the same yaku."""

from __future__ import annotations

from analyzer.formats.tenhou.yaku_names import JA_NAMES, TENHOU_YAKU_IDS
from analyzer.tiles.yaku import NORMAL, YAKUMAN, shown_name
from analyzer.core.yaku_labels import YAKU_LABELS, yaku_label


def test_every_yaku_id_has_a_label():
    ids = {name for name, _, _ in NORMAL} | {shown_name(name) for name, _ in YAKUMAN} | set(TENHOU_YAKU_IDS)
    assert ids - set(YAKU_LABELS) == set()


def test_the_japanese_names_are_the_importers():
    for yaku, (english, japanese) in YAKU_LABELS.items():
        assert english and english[0].isupper()
        # a seat or round wind is named with its wind by Tenhou ("自風 東"): the label leaves the wind out
        assert JA_NAMES.get(japanese) == yaku or any(
            name.startswith(japanese + " ") and target == yaku for name, target in JA_NAMES.items()), yaku


def test_a_label_reads_english_then_japanese():
    assert yaku_label("riichi") == "Riichi (立直)"
    assert yaku_label("yakuhai") == "yakuhai"  # unknown ids stay as they are
