"""Complete hands and tenpai, on tile kinds (0-33, :mod:`.tile_text`): what a draw's tenpai list is derived
from when the log does not show the hands, and what the tests check replayed winning hands with."""

from __future__ import annotations

from collections import Counter

from analyzer.formats.tile_text import TERMINAL_HONOUR, kind


def _standard(counts: list[int], sets: int) -> bool:
    """``counts`` (34) holds exactly ``sets`` sets plus one pair."""

    def sets_only(c: list[int], start: int) -> bool:
        i = start
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            return True
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c, i)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            ok = sets_only(c, i)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
            if ok:
                return True
        return False

    for p in range(34):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = sets_only(counts, 0)
            counts[p] += 2
            if ok:
                return True
    return False


def is_complete(concealed_kinds: list[int]) -> bool:
    """A complete hand (the concealed part; melds are already sets): standard, seven pairs or kokushi."""
    counts = [0] * 34
    for k in concealed_kinds:
        counts[k] += 1
    n = len(concealed_kinds)
    if n % 3 != 2:
        return False
    if n == 14:
        if sum(1 for c in counts if c == 2) == 7:
            return True
        orphans = [counts[k] for k in sorted(TERMINAL_HONOUR)]
        if all(orphans) and sum(orphans) == 14:
            return True
    return _standard(counts, (n - 2) // 3)


def is_tenpai(concealed: list[int], melds: list[tuple[str, list[int]]]) -> bool:
    """Tenhou tenpai: some tile completes the hand, and it is not a wait on a tile the player holds all four of."""
    kinds = [kind(t) for t in concealed]
    own = Counter(kinds)
    for _, tiles in melds:
        own.update(kind(t) for t in tiles)
    for k in range(34):
        if own[k] >= 4:
            continue
        if is_complete(kinds + [k]):
            return True
    return False

