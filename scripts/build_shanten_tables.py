"""Build the shanten tables shipped in ``analyzer/tiles/data/shanten_tables.npz`` (see
:mod:`analyzer.tiles.shanten`): for every count vector of a number suit, of the honours and of three-player
manzu, the fewest tiles to add for k sets (0-4) with or without the pair.

Run: ``.venv/bin/python scripts/build_shanten_tables.py`` (about 4 s).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.tiles.shanten import TABLES, build_tables

OUT = Path(__file__).resolve().parents[1] / "analyzer" / "tiles" / TABLES

if __name__ == "__main__":
    np.savez_compressed(OUT, **build_tables())
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")
