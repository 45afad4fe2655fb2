"""Tile scoring: yaku, han, fu and dora of winning hands given as tiles, as pure Polars expressions.

``score_tiles(lf, rules)`` adds ``yaku``, ``han``, ``fu``, ``fu_detail``, ``yakuman``, ``dora_count``,
``ura_dora``, ``aka_dora``, ``wait`` and ``tile_problem`` to a LazyFrame of hand records: either the tile text
(``hand``, ``melds``, ``win_tile``, ``dora``, ``ura``), read into tile codes first, or a table that already holds
the tile codes (:mod:`.codes`), plus the situation flags, ``_is_tsumo``, ``_is_riichi``, ``_seat_wind``,
``_round_wind``, ``_winner_is_dealer``; every other column passes through untouched and the row order is kept.
No per-row Python (no UDFs, no row loops): only expressions, lookups into small precomputed tables and a few
joins on narrow frames.  Measurements behind the design: /work/shared/reference/VECTORISED.md.

Modules
-------
* :mod:`.codes` - the tile codes, a few integers per hand (base-32 tile counts per suit, winning tile, meld
  ids, packed dora / ura indicator ids), and ``encode_tiles``, which reads the text into them.
  :mod:`.notation` - the string expressions it uses.  For canonical hands (suits in m p s z order, each once)
  four literal ``str.find`` give each suit's digit count, the letters are dropped, the whole hand is read
  with one ``str.to_integer`` and each suit is cut out of that number; a suit's number has 5-digit chunks that
  index ``DIG32``, giving its base-32 code (one 5-bit count per tile); a red ``0`` stays a zero digit, and
  the suit's reds are its digit count less the tiles counted (no string replace for them).  Other spellings
  (``333s77s555p``) take a regex path on a column that is null for the canonical rows, so they cost nothing
  on the others.  Melds
  are looked up whole in a dictionary of the 472 well-formed meld strings (``chi:406s`` ...) giving
  ``1 + kind*34 + tile`` (+ red fives).  Tile tokens (``8p``) are read by a cast to an Enum of the 37 tokens
  and a gather.  An indicator text of one tile is read whole on every row; longer ones (kan dora, grouped
  digits such as ``14p``) are cut into tokens on a sparse branch.
* :mod:`.tables` - ``data/suit_decomp.npz`` (built by ``scripts/build_tile_tables.py``, 80 kB) holds the
  21,743 decomposable suit shapes and their 23,533 splits into sequences / triplets / pair, each with
  sequence and triplet bit masks, counts of simple/terminal triplets, iipeikou count, an "every group
  holds a 1 or 9" flag and the wait masks (ranks that complete a sequence as ryanmen / kanchan /
  penchan).  At first use (about 0.2 s) they are scattered into one packed Int32 per 5**9 code
  (``SUITSTAT``: number of splits, first split, chuuren / chiitoitsu / kokushi shape), and small honour and
  meld tables are built.  Lookups are ``pl.lit(Series).gather(idx)``.
* :mod:`.features` - (1) decode the tile codes (base-5 table keys from the base-32 counts by three 15-bit
  lookups per suit), (2) hand features: meld sums, counts, problem checks, yakuhai / flush / terminal flags,
  dora (each indicator's dora count read by one wrapping multiply, see ``dora_hits``), and everything a
  standard reading
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
  and ankou counts).  The best reading has the highest payment (``analyzer.points``), then yakuman
  over kazoe, han, fu.  The scoring works on a narrow copy of the inputs and every ``.cache()`` holds only the
  columns read after it; the pass-through columns are put back with a horizontal concat at the end.
* :mod:`.yaku` - names and han (closed/open); a reading's yaku are a bit mask, han and yakuman counts come
  from mask lookups.  :mod:`.fu` - fu reasons (named constants) and a packed fu key.  The ``yaku`` and
  ``fu_detail`` list columns are built once per distinct key (cross join with the item tables) and
  joined back.
* Dora: ura only with riichi, kan dora and kan ura only with ``rules.kan_dora``, red fives from the hand and
  the meld ids.

Problem codes (``tile_problem``), first that applies: ``bad_notation``, ``bad_meld``, ``tile_count``,
``fifth_copy``, ``win_tile_not_in_hand``, ``not_complete``, ``no_yaku``.  Such rows keep null han / fu /
yakuman / yaku / fu_detail / dora columns (``wait`` is kept for ``no_yaku``).  Rows with a null ``hand``
are not scored (all new columns null).

Speed (2-core machine shared with other work; ``python -m benchmarks.tiles --n 1000000 --sample 2000 --repeat
5``, best of 5 after a warm-up, one collect per step; the machine's speed drifts 30-50% over a day).  Latest
run: 1.15M hands/s scoring stored tile codes with every column, 1.90M/s with ``lists=False``, 1.76M/s
encoding text to codes, 0.64M/s end to end from the text; 114x the pure-Python ``mahjong`` package end to end
from our rows, 191x scoring codes against its ``estimate_hand_value`` alone (its own rate swings 2.4k-11k/s
between runs).  Six runs of this scorer: 0.91M-1.16M/s with every column, 1.55M-2.02M/s with
``lists=False``.  The 2M/s target is met without the lists on a quiet run, not with them.

Where the time goes (10^6 stored hands, 2026-11-23, CPU seconds; the wall time is a little over half of it on
two cores): the hand features ~0.7 (per expression: dora and ura with kan dora ~0.05 each, the yaku masks
~0.03 and ~0.02 before they were built in Int32, each suit's decode ~0.015, each 5**9-table gather ~0.009),
the first split ~0.13, the branch of other readings ~0.15, attaching the yaku / fu_detail lists ~0.55 (two
order-keeping joins whose list-of-struct payload is most of the cost: one join carrying an integer instead
takes 0.035 s).  In wall time, one process, 10^6 stored hands: the features 0.26 s, the first split 0.05 s,
the branch of other readings and its join back 0.1 s (0.04-0.06 s of it is the join alone: an empty branch
costs that much), pricing 0.02-0.04 s, the lists 0.25-0.3 s (0.18 s at best with key tables prebuilt; of that
the payload is half: a join carrying an integer key instead is ~0.04 s per list).

What made the difference, measured as same-run A/B with identical output on 10^6 hands: red fives counted
from digit counts instead of a ``"0" -> "5"`` replace, a second ``to_integer`` and ``count_matches`` (encoding
~8% faster, 0.80 -> 0.75 s median); tile tokens by an Enum cast instead of ``replace_strict`` with a dict,
one-tile indicator texts read whole and one branch for the longer dora and ura texts instead of a regex test,
a slice, a cache of the wide frame and a join for each (encoding 0.77 -> 0.64 s median); ``lists=False`` (the
lists used to be built even when not selected: a horizontal concat is never pruned); the best of several
readings returned by an exact as-of join on the row number instead of an order-keeping hash join (its
re-sort cost ~13% of the scorer without lists; the encoder's kan-dora branch likewise, ~15% of encoding); the
branch's rows filtered out of the feature cache once (a filter copies every cached column); Boolean-to-integer
terms as when/then (``columns.where``: a cast to an integer unpacks bits and costs 2-4x); yaku names and fu
reasons as Enums (a quarter off the list joins); han of a mask by three gathers with closed/open as an offset;
kan dora indicators read two per gather per suit; 2**(han+2) in ``base_points`` by a lookup instead of ``pow``.
Session start to end (88fddd0 to this code, same run, median wall): every column 1.31 -> 0.85 s, without lists
1.20 -> 0.55 s, encoding 0.90 -> 0.82 s.

Tried without gain: one explode for every other reading instead of a union of three filtered reads; starting
that branch again from the inputs instead of caching the hand features; chiitoitsu and kokushi scored inline
on every hand; one join on the (yaku key, fu key) pair (93k distinct pairs against 8k of each key); key tables
from one pass over the pairs; the kan dora on a branch of their own (one hand in seven) joined back by an as-of
join (less CPU, no less wall time); Int8 han / fu in the lists (8% off the list joins, a new output type);
streaming chunk sizes from 20k to 200k rows; ``concat_list`` / ``list.eval`` to build the lists (seconds per
10^6 rows); the lists by ``pl.lit(table).gather(index)`` (list-of-struct gathers outside a join run at 0.3-0.7
s per 10^6 rows); the key tables built from the first-split and branch frames instead of a cache of the
values (no gain); the as-of join with ``set_sorted``, ``check_sortedness=False``, ``allow_parallel=False`` or
a left side of the row number alone (no gain); the branch put beside the hands by a horizontal concat and
found by ``search_sorted`` instead of the join (the streaming engine refuses a horizontal concat of unequal
heights), or by ``merge_sorted`` with the other hands (twice the cost of the join); ``base_points`` with the
han limits as a lookup, with ``max_horizontal`` or one when/then (no faster than the chain: that gather costs
~17 ms).  Operation costs on 10^6 rows: ``&`` / ``+`` / compare
~0.5-1.5 ms, ``//`` by a power of two ~3 ms, ``%`` ~4 ms, a when/then ~1 ms, a Boolean cast and multiply ~2
ms, a small-table gather ~3.6 ms, a gather from the 5**9 table ~9-22 ms, ``str.replace_many`` ~170 ms (the
encoder's largest cost; a regex class, chained literal replaces or per-suit slices cost as much or more, and
``extract_groups`` of the four suits ~620 ms); the melds by an Enum cast of the list (no faster).
"""

from analyzer.tiles.score import score_tiles

__all__ = ["score_tiles"]
