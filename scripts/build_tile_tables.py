"""Build the per-suit decomposition table shipped in ``analyzer/tiles/data/suit_decomp.npz``.

Every count vector of one number suit (9 counts 0..4, key ``code = sum c_i * 5**i``) that splits into
sequences (chi), triplets (pon) and at most one pair gets one row per distinct split.  Columns (one entry per
split, grouped by code, codes ascending):

* ``codes``/``ndec``: the 21,743 decomposable codes and their number of splits (1..4)
* ``chi`` 7 bits (sequence starting at rank i present), ``nchi`` sequences, ``peikou`` pairs of equal sequences
* ``pon`` 9 bits, ``pon_simple``/``pon_term`` triplet counts (ranks 2-8 / 1,9), ``pair`` rank 0-8 or 9 = none
* ``outside`` every group holds a 1 or 9
* ``ryan``/``kan``/``pen`` 9-bit masks: win-tile ranks that complete a sequence as ryanmen / kanchan / penchan

Run: ``.venv/bin/python scripts/build_tile_tables.py`` (about 2 s).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "analyzer" / "tiles" / "data" / "suit_decomp.npz"


def enumerate_splits() -> dict[int, list[tuple]]:
    table: dict[int, set[tuple]] = {}
    for n_chi in range(5):
        for chis in itertools.combinations_with_replacement(range(7), n_chi):
            base = [0] * 9
            for a in chis:
                base[a] += 1
                base[a + 1] += 1
                base[a + 2] += 1
            if max(base) > 4:
                continue
            for n_pon in range(5 - n_chi):
                for pons in itertools.combinations(range(9), n_pon):
                    c1 = base[:]
                    for p in pons:
                        c1[p] += 3
                    if max(c1) > 4:
                        continue
                    for pair in [None, *range(9)]:
                        c2 = c1[:]
                        if pair is not None:
                            c2[pair] += 2
                            if c2[pair] > 4:
                                continue
                        code = sum(c * 5**i for i, c in enumerate(c2))
                        table.setdefault(code, set()).add((chis, pons, pair))
    return {code: sorted(v, key=repr) for code, v in table.items()}


def split_fields(chis: tuple, pons: tuple, pair) -> tuple:
    chi_bits = 0
    ryan = kan = pen = 0
    for a in chis:
        chi_bits |= 1 << a
        kan |= 1 << (a + 1)
        if a <= 5:
            ryan |= 1 << a
        else:
            pen |= 1 << a
        if a >= 1:
            ryan |= 1 << (a + 2)
        else:
            pen |= 1 << (a + 2)
    peikou = sum(chis.count(a) // 2 for a in set(chis))
    pon_bits = sum(1 << p for p in pons)
    pon_term = sum(1 for p in pons if p in (0, 8))
    outside = all(a in (0, 6) for a in chis) and all(p in (0, 8) for p in pons) and pair in (None, 0, 8)
    return (chi_bits, len(chis), peikou, pon_bits, len(pons) - pon_term, pon_term,
            9 if pair is None else pair, int(outside), ryan, kan, pen)


FIELDS = ("chi", "nchi", "peikou", "pon", "pon_simple", "pon_term", "pair", "outside", "ryan", "kan", "pen")


def main() -> None:
    table = enumerate_splits()
    codes = sorted(table)
    rows = [split_fields(*s) for code in codes for s in table[code]]
    arrays = {"codes": np.array(codes, dtype=np.int32), "ndec": np.array([len(table[c]) for c in codes], np.int8)}
    for i, name in enumerate(FIELDS):
        arrays[name] = np.array([r[i] for r in rows], dtype=np.int16)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **arrays)
    print(f"{len(codes)} codes, {len(rows)} splits -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
