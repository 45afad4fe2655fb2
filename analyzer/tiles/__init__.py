"""Tile scoring: yaku, han, fu and dora of winning hands given as tiles, as pure Polars expressions.

``score_tiles(lf, rules)`` adds ``yaku``, ``han``, ``fu``, ``fu_detail``, ``yakuman``, ``dora_count``,
``ura_dora``, ``aka_dora``, ``wait`` and ``tile_problem`` to a LazyFrame of hand records (columns ``hand``,
``melds``, ``win_tile``, ``dora``, ``ura``, the situation flags, ``_is_tsumo``, ``_is_riichi``,
``_seat_wind``, ``_round_wind``, ``_winner_is_dealer``); every other column passes through untouched and
the row order is kept.  No per-row Python (no UDFs, no row loops): only expressions, lookups into small
precomputed tables and a few joins on narrow frames.  Measurements behind the design:
/work/shared/reference/VECTORISED.md.

Modules
-------
* :mod:`.notation` - MPSZ strings to numbers.  For canonical hands (suits in m p s z order, each once) four
  literal ``str.find`` give each suit's digit count, the letters are dropped, the whole hand is read with
  one ``str.to_integer`` and each suit is cut out of that number; a suit's number has 5-digit chunks that
  index ``DIG5``/``DIG32``, giving a base-5 code (``sum c_i 5**i``, the decomposition
  key) and a base-32 code (one 5-bit count per tile: tile counts, dora, fifth copies, flush/terminal
  tests by bit masks).  Other spellings (``333s77s555p``) take a regex path on a column that is null for the
  canonical rows, so they cost nothing on the others.  Melds are looked up whole in a dictionary of the 472
  well-formed meld strings (``chi:406s`` ...) giving ``1 + kind*34 + tile`` (+ red fives).
* :mod:`.tables` - ``data/suit_decomp.npz`` (built by ``scripts/build_tile_tables.py``, 80 kB) holds the
  21,743 decomposable suit shapes and their 23,533 splits into sequences / triplets / pair, each with
  sequence and triplet bit masks, counts of simple/terminal triplets, iipeikou count, an "every group
  holds a 1 or 9" flag and the wait masks (ranks that complete a sequence as ryanmen / kanchan /
  penchan).  At first use (about 0.2 s) they are scattered into one packed Int32 per 5**9 code
  (``SUITSTAT``: number of splits, first split, chuuren / chiitoitsu / kokushi shape), and small honour and
  meld tables are built.  Lookups are ``pl.lit(Series).gather(idx)``.
* :mod:`.features` - (1) parse, (2) hand features: meld sums, counts, problem checks, yakuhai / flush /
  terminal flags, dora.  :mod:`.readings` - one reading to han, fu, yakuman, payment, list keys.
  :mod:`.columns` - scratch-column helpers.  :mod:`.score` - the pipeline: every hand is scored with its
  first split; at most one suit of a hand has several splits, so only those hands (~1%) plus the chiitoitsu and kokushi shapes (~3.5%) are
  exploded into their other readings on a side branch, reduced to the best per hand and joined back on a
  narrow frame.  Inside a split the wait is chosen in closed form: pinfu ryanmen > kanchan > penchan >
  tanki > other ryanmen > shanpon (a shanpon by ron opens that triplet for fu and ankou counts).  The best
  reading has the highest payment (``analyzer.scoring.points``), then yakuman over kazoe, han, fu.
* :mod:`.yaku` - names and han (closed/open); a reading's yaku are a bit mask, han and yakuman counts come
  from mask lookups.  :mod:`.fu` - fu reasons (named constants) and a packed fu key.  The ``yaku`` and
  ``fu_detail`` list columns are built once per distinct key (cross join with the item tables) and
  joined back.
* :mod:`.dora` - the first dora / ura indicator inline; kan dora and further ura indicators on a sparse
  exploded branch.  Ura only with riichi, red fives from the hand and the meld ids.

Problem codes (``tile_problem``), first that applies: ``bad_notation``, ``bad_meld``, ``tile_count``,
``fifth_copy``, ``win_tile_not_in_hand``, ``not_complete``, ``no_yaku``.  Such rows keep null han / fu /
yakuman / yaku / fu_detail / dora columns (``wait`` is kept for ``no_yaku``).  Rows with a null ``hand``
are not scored (all new columns null).

Speed (2-core shared machine, 1M generated hands, one ``collect()``, ``python -m benchmarks.tiles --n
1000000``): about 240-300k hands/s with either engine, ~70x the pure-Python ``mahjong`` package, well
short of the 2M/s target.  Time splits roughly evenly between reading the strings (find / to_integer /
chunk lookups / meld dictionary), the hand features and dora, the readings, and the output lists.  The
pipeline is ~1,000 column operations per hand at ~3 ns each; more speed needs fewer operations per hand
(e.g. integer-coded input instead of MPSZ strings, or a compiled expression plugin / numba kernel over the
same tables).
"""

from analyzer.tiles.score import score_tiles

__all__ = ["score_tiles"]
