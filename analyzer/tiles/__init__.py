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
* :mod:`.features` - (1) parse (melds: one dictionary lookup over the list's elements), (2) hand features:
  meld sums, counts, problem checks, yakuhai / flush / terminal flags, dora, and everything a standard reading
  shares (hand-level yaku mask and han, fu of the melds and the pair, the wait context).  :mod:`.readings` -
  one reading to han, fu, yakuman, list keys: a standard reading adds its three suits' packed split words
  (``SPLIT0..2``: chi/pon bits and counts laid out so the words simply add), reads the win suit's wait flags
  with one gather (``WAITFLAGS``) and everything the wait choice implies (wait code, pinfu, fu, fu key,
  shanpon ron) with one gather on a small context key.  :mod:`.columns` - scratch-column helpers.
  :mod:`.score` - the pipeline: every hand is scored with its first split (no payment: it only ranks
  readings); at most one suit of a hand has several splits, so only those hands (~1%) plus the chiitoitsu and
  kokushi shapes (~3.5%) are exploded into all their readings on a side branch, priced, reduced to the best
  per hand and joined back on a narrow frame.  Inside a split the wait is chosen in closed form: pinfu
  ryanmen > kanchan > penchan > tanki > other ryanmen > shanpon (a shanpon by ron opens that triplet for fu
  and ankou counts).  The best reading has the highest payment (``analyzer.scoring.points``), then yakuman
  over kazoe, han, fu.  The scoring works on a narrow copy of the inputs and every ``.cache()`` holds only the
  columns read after it; the pass-through columns are put back with a horizontal concat at the end.
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

Speed (2-core machine shared with other work, 1M generated hands, one ``collect()``, ``python -m
benchmarks.tiles --n 1000000 --sample 2000``): about 225-250k hands/s end to end from the MPSZ strings (first
use included: ~0.5 s of table building and ~0.25 s of query planning per collect), of which the parse phase
alone runs at ~1M hands/s and the rest ("score from codes") at ~300-330k hands/s; ~70-95x the pure-Python
``mahjong`` package end to end from our rows (its figure includes building its objects), ~60-75x against its
``estimate_hand_value`` alone.  Still far from the 2M/s target.  In interleaved same-machine runs the changes
of this layout (packed split words, hand-level reading parts, payments only for several readings, narrow
caches, one meld lookup) cut CPU time by ~10-15% against the previous layout.  Where the time goes
(micro-benchmarks on 1M rows): string operations cost 20-280 ms each (``replace_many`` ~280, ``find`` ~65,
``replace_all`` ~100, regex ``contains`` ~70, ``replace_strict`` 50-70, a ``when/then`` copy of a string
column ~50), integer arithmetic and small-table gathers 2-8 ms each; the parse and dora strings are now
about half of the CPU time, hand features and readings the other half.  More speed needs integer-coded input
(or far fewer string passes), and fewer integer operations per hand.
"""

from analyzer.tiles.score import score_tiles

__all__ = ["score_tiles"]
