"""Which known column an unknown column name was probably meant to be: the rule behind ``column 'richi' is not
used — did you mean 'riichi'?``.

A name is compared with each known name (both *normalised*: lower case, camelCase split, any run of spaces,
dashes, dots or slashes made one ``_``, no ``_`` at either end). It is a near miss of a known name when, in this
order:

1. the two are equal once normalised (``Final Score``, ``final-score``, ``finalScore``), or once ``_`` is taken
   out too (``gameid``, ``wintile``);
2. one is the other's plural (``winners``, ``penalties``);
3. it is one of the known aliases (:data:`ALIASES`: ``fan`` for ``han``, ``reach`` for ``riichi``, …);
4. it is within the edit distance the known name's length allows (deletions, insertions, substitutions and
   swaps of two neighbouring letters each count 1):

   * 7 characters or more (``kyotaku``, ``final_score``): at most 2, where the part that differs is 3
     characters or more (two changes that rewrite a short word, ``recorded_by`` of ``recorded_fu``, do not
     count);
   * 5 or 6 (``honba``, ``riichi``, ``result``): at most 1;
   * 4 or fewer (``fu``, ``han``, ``ura``, ``seat``, ``date``): one *slip of the keyboard* only — a letter left
     out (``fu`` → ``f``), two letters swapped (``hna``), a letter doubled (``hann``, ``fuu``), or a letter
     typed with or instead of a key next to it on a QWERTY keyboard (``hsn``, ``fi``). Any other single change
     of a short name makes an ordinary word (``url``, ``man``, ``data``, ``pay``), not a typo.

   A few common column names that are near a known name by chance (:data:`ORDINARY_WORDS`: ``rate``,
   ``season``) are never near misses by distance.

The closest known name wins (a smaller distance first, then the order of the known names). Everything here is
about names only: no data is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

# An alias is a name for a known column in another vocabulary (Japanese, Chinese, a platform's log): normalised
# alias -> the column. Only aliases of columns of the kind of file being read apply.
ALIASES = {
    # hand records
    "fan": "han",
    "reach": "riichi",
    "riichi_sticks": "kyotaku",
    "kyoutaku": "kyotaku",
    "deposits": "kyotaku",
    "counters": "honba",
    "repeat": "honba",
    "repeats": "honba",
    "kyoku": "round",
    "outcome": "result",
    "discarder": "loser",
    "deal_in": "loser",
    "dealt_in": "loser",
    "houjuu": "loser",
    "dora_indicators": "dora",
    "uradora": "ura",
    "ura_dora_indicators": "ura",
    "liable": "pao",
    "nukidora": "kita",
    "tempai": "tenpai",
    "hanchan": "game_id",
    "game": "game_id",
    # game-level sheets
    "score": "final_score",
    "final": "final_score",
    "end_score": "final_score",
    "name": "player",
    "player_name": "player",
    "wind": "seat",
    "seat_wind": "seat",
    "place": "recorded_place",
    "rank": "recorded_place",
    "game_points": "recorded_points",
    "leftover": "leftover_sticks",
    "sticks": "leftover_sticks",
}

# Common column names within the distance of a known name by chance (a player's rating, a league's season):
# never a near miss by distance (rule 4).
ORDINARY_WORDS = frozenset({"rate", "season", "version", "played", "plays", "lower"})

# Rows of a QWERTY keyboard and how far each is shifted right of the one above (in key widths).
_KEY_ROWS = (("1234567890", 0.0), ("qwertyuiop", 0.5), ("asdfghjkl", 0.75), ("zxcvbnm", 1.25))
_KEY_AT = {key: (row, col + shift) for row, (keys, shift) in enumerate(_KEY_ROWS) for col, key in enumerate(keys)}


def keys_next_to(a: str, b: str) -> bool:
    """Whether keys ``a`` and ``b`` touch on a QWERTY keyboard (beside each other, or above and below)."""
    if a not in _KEY_AT or b not in _KEY_AT or a == b:
        return False
    (row_a, x_a), (row_b, x_b) = _KEY_AT[a], _KEY_AT[b]
    if row_a == row_b:
        return abs(x_a - x_b) == 1
    return abs(row_a - row_b) == 1 and abs(x_a - x_b) <= 0.75


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[\s\-./\\_]+")


def normalise(name: str) -> str:
    """``name`` lower-cased with camelCase split and every run of separators one ``_`` (none at the ends)."""
    return _SEPARATORS.sub("_", _CAMEL.sub("_", name.strip())).strip("_").lower()


def singular(name: str) -> str:
    """``name`` without an English plural ending (``penalties`` → ``penalty``, ``winners`` → ``winner``)."""
    if name.endswith("ies") and len(name) > 4:
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss") and len(name) > 2:
        return name[:-1]
    return name


def distance(a: str, b: str, limit: int | None = None) -> int:
    """Edit distance of ``a`` and ``b`` where swapping two neighbouring characters counts 1 (optimal string
    alignment); with ``limit``, any distance above it is given as ``limit + 1`` (found sooner)."""
    start = 0  # a common prefix and suffix change nothing
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    if start:  # keep one character before, for a swap across the cut
        start -= 1
    a, b = a[start:len(a) - end], b[start:len(b) - end]
    cap = max(len(a), len(b)) if limit is None else limit + 1
    if abs(len(a) - len(b)) >= cap:
        return cap
    band = cap  # cells farther than this from the diagonal cost more than the cap: left at the cap
    previous2: list[int] = []
    previous = [min(j, cap) for j in range(len(b) + 1)]
    for i, ca in enumerate(a, start=1):
        current = [min(i, cap)] + [cap] * len(b)
        for j in range(max(1, i - band), min(len(b), i + band) + 1):
            cb = b[j - 1]
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current[j] = min(value, cap)
        if min(current) >= cap:
            return cap
        previous2, previous = previous, current
    return min(previous[-1], cap)


def is_slip(typed: str, known: str) -> bool:
    """Whether ``typed`` is ``known`` with one slip of the keyboard: a character left out, two neighbours swapped,
    one doubled, or one typed with (or instead of) a key next to it."""
    if len(typed) == len(known) - 1:  # one left out
        return any(known[:i] + known[i + 1:] == typed for i in range(len(known)))
    if len(typed) == len(known) + 1:  # one typed too many: doubled, or a key next to its neighbour
        for i in range(len(typed)):
            if typed[:i] + typed[i + 1:] == known:
                extra, around = typed[i], known[max(i - 1, 0):i + 1]
                if any(extra == c or keys_next_to(extra, c) for c in around):
                    return True
        return False
    if len(typed) != len(known):
        return False
    changed = [i for i in range(len(known)) if typed[i] != known[i]]
    if len(changed) == 1:
        return keys_next_to(typed[changed[0]], known[changed[0]])
    return (len(changed) == 2 and changed[1] == changed[0] + 1
            and typed[changed[0]] == known[changed[1]] and typed[changed[1]] == known[changed[0]])


MAX_DISTANCE = 2


def allowed_distance(known: str) -> int:
    """The largest edit distance at which a name is a near miss of ``known`` (see the module doc)."""
    return MAX_DISTANCE if len(known) >= 7 else 1


def _close(typed: str, known: str) -> int | None:
    """The edit distance of a near miss of ``known`` by distance (rule 4), or None."""
    if abs(len(typed) - len(known)) > allowed_distance(known):
        return None
    d = distance(typed, known, allowed_distance(known))
    if d > allowed_distance(known):
        return None
    if len(known) <= 4 and not is_slip(typed, known):
        return None
    if d == 2 and len(changed_part(typed, known)) < 3:  # `recorded_by` is not `recorded_fu`
        return None
    return d


def changed_part(typed: str, known: str) -> str:
    """What of ``known`` differs from ``typed``: ``known`` without the start and end the two share."""
    start = 0
    while start < min(len(typed), len(known)) and typed[start] == known[start]:
        start += 1
    end = 0
    while end < min(len(typed), len(known)) - start and typed[-1 - end] == known[-1 - end]:
        end += 1
    return known[start:len(known) - end]


def suggestion(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` is a near miss of (see the module doc), or None; a name that is itself known
    (normalised or as written) is no one's near miss."""
    forms = _forms(tuple(known))
    typed = normalise(name)
    if not typed or name in forms.known:
        return None
    if typed in forms.by_form:
        return forms.by_form[typed]
    squeezed = typed.replace("_", "")
    if squeezed in forms.by_squeezed:
        return forms.by_squeezed[squeezed]
    if singular(typed) in forms.by_form:
        return forms.by_form[singular(typed)]
    if typed in forms.by_singular:
        return forms.by_singular[typed]
    if typed in ALIASES and ALIASES[typed] in forms.known:
        return ALIASES[typed]
    if typed in ORDINARY_WORDS:
        return None
    found = _nearest(typed, forms)
    as_typed = name.strip().lower()  # the separators at the ends kept: `open_` is one slip from `open_0`
    return found if found is not None or as_typed == typed else _nearest(as_typed, forms)


def _nearest(typed: str, forms: _Forms) -> str | None:
    """The known name nearest ``typed`` by edit distance (rule 4), or None."""
    best: tuple[int, int] | None = None
    found = None
    tried: set[int] = set()
    # the known names sharing a name with one character left out first: any within distance 1 is among them
    for most in range(1, MAX_DISTANCE + 1):
        candidates = {order for piece in _deletions(typed, most) for order in forms.by_deletion.get(piece, ())}
        for order in sorted(candidates - tried):
            form, k = forms.ordered[order]
            d = _close(typed, form)
            if d is not None and (best is None or (d, order) < best):
                best, found = (d, order), k
        if best is not None and best[0] <= most:
            break
        tried |= candidates
    return found


def _deletions(text: str, most: int) -> set[str]:
    """``text`` with up to ``most`` characters left out (itself included): two names within edit distance
    ``most`` share one of these (swaps included), so the known names to compare are found by lookup."""
    found, edge = {text}, {text}
    for _ in range(most):
        edge = {t[:i] + t[i + 1:] for t in edge for i in range(len(t))}
        found |= edge
    return found


@dataclass(frozen=True)
class _Forms:
    known: frozenset[str]
    by_form: dict[str, str]  # normalised -> known name (the first of the known names that gives it)
    by_squeezed: dict[str, str]  # normalised without "_"
    by_singular: dict[str, str]  # the singular of a plural known name
    ordered: list[tuple[str, str]]  # (normalised, known name) in the order of the known names
    by_deletion: dict[str, list[int]]  # a normalised name with up to MAX_DISTANCE characters left out -> orders


@lru_cache(maxsize=16)
def _forms(known: tuple[str, ...]) -> _Forms:
    by_form: dict[str, str] = {}
    for k in known:
        by_form.setdefault(normalise(k), k)
    by_squeezed: dict[str, str] = {}
    by_singular: dict[str, str] = {}
    for form, k in by_form.items():
        by_squeezed.setdefault(form.replace("_", ""), k)
        if singular(form) != form:
            by_singular.setdefault(singular(form), k)
    ordered = list(by_form.items())
    by_deletion: dict[str, list[int]] = {}
    for order, (form, _) in enumerate(ordered):
        for piece in _deletions(form, MAX_DISTANCE):
            by_deletion.setdefault(piece, []).append(order)
    return _Forms(frozenset(known), by_form, by_squeezed, by_singular, ordered, by_deletion)
