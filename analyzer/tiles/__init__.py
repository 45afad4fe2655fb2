"""Tile scoring: yaku, han, fu and dora of winning hands given as tiles, as pure Polars expressions.

Design (see /work/shared/reference/VECTORISED.md for the measurements behind it):

* **Parsing** (:mod:`.notation`): each suit's digits are pulled out of the MPSZ string with ``str.extract``;
  ``str.to_integer`` and 5-digit chunk lookups turn them into a base-5 code (``sum c_i 5**i``, the
  decomposition key) and a base-32 code (one 5-bit count per tile, used for counts, dora, validity).
  Melds add their own base-32 contributions, so the whole hand's counts are known without 34 columns.
* **Tables** (:mod:`.tables`): ``data/suit_decomp.npz`` (built by ``scripts/build_tile_tables.py``) lists the
  21,743 decomposable suit shapes and their 23,533 splits into sequences / triplets / pair, with precomputed
  sequence and triplet bit masks, outside flag, iipeikou count and the wait masks (ranks that make a
  ryanmen / kanchan / penchan).  At import they are scattered into dense arrays over all 5**9 codes and
  read with ``pl.lit(Series).gather(code)``.  Honours (5**7 codes), chiitoitsu, kokushi and chuuren shapes
  are small numpy tables built at import.
* **Readings** (:mod:`.score`): at most one suit of a hand has several splits, so every hand is scored with
  its first split and only the ~1% of ambiguous hands are exploded over the others (group_by row id, max).
  The wait inside a split is chosen in closed form: pinfu ryanmen > kanchan > penchan > tanki > other
  ryanmen > shanpon (a shanpon ron makes that triplet open).  Chiitoitsu and kokushi are alternative
  readings per hand; the best reading has the highest payment (``analyzer.scoring.points``), then yakuman,
  han, fu.
* **Yaku and fu** (:mod:`.yaku`, :mod:`.fu`): bit-mask algebra over sequence/triplet masks.  The
  ``yaku`` and ``fu_detail`` list columns are built once per distinct packed key and joined back.
* **Dora** (:mod:`.dora`): indicators are normalised to one tile per digit and counted against the
  base-32 counts.
"""

from analyzer.tiles.score import score_tiles

__all__ = ["score_tiles"]
