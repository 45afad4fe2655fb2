"""The codes of a Riichi City record (see :mod:`.read`): its tiles, event and action types, the ways a hand ends.

Sources: cht33/RiichiCity-to-Tenhou-Log-Parser (``convert.py``: ``zxid_to_thid``, the event and action types),
slqy123/riichicitymax (``consts.py``: ``CARD2MJAI``) and 0num4/paifu-playground (``riichicity/Types/commonConsts.py``:
``EMjReplayEventType``, ``EMjActionType``, ``EMjGameEndType``, ``EMjLiZhiType``).
"""

from __future__ import annotations

from analyzer.formats.model import LogError
from analyzer.formats.tile_text import RED

# tile codes: the low nibble the number, the high nibble the suit (0 pinzu, 1 souzu, 2 manzu; 3-9 the honours
# East .. red dragon, each ``x1``), 0x100 a red five
_SUIT_KINDS = {0: 9, 1: 18, 2: 0}
TILES = {high << 4 | n: base + n - 1 for high, base in _SUIT_KINDS.items() for n in range(1, 10)}
TILES |= {(3 + i) << 4 | 1: 27 + i for i in range(7)}
TILES |= {0x100 | high << 4 | 5: RED + base + 4 for high, base in _SUIT_KINDS.items()}
WINDS = {0x31: 0, 0x41: 1, 0x51: 2, 0x61: 3}
DEAL, DRAW, ACTION, HAND_END, GAME_END, KAN_DORA = 1, 2, 4, 5, 6, 7
READ = frozenset((DEAL, DRAW, ACTION, HAND_END, GAME_END, KAN_DORA))
CHI, PON, MINKAN, RON, ANKAN, KAKAN, TSUMO, DISCARD, NUKI = (2, 3, 4), 5, 6, 7, 8, 9, 10, 11, 13
OPEN_RIICHI_TYPES = (3, 4)  # li_zhi_type: 3 open riichi, 4 open double riichi
EXHAUSTIVE = 7
ABORTS = {2: "kaze4", 3: "kan4", 4: "reach4", 5: "ron3", 6: "yao9", 1002: "kaze4", 1004: "reach4"}
NOT_READ_ENDS = {8: "a vote to end it", 9: "a false win (chombo)", 10: "a false tenpai at the draw",
                 11: "a forced end (a time-out)"}


def whole_number(data: dict, key: str, default: int | None = None) -> int:
    """``data[key]``, which must be a whole number (``default`` when it is left out)."""
    value = data.get(key, default)
    if value.__class__ is not int:
        raise LogError(f"{key} is {value!r}, not a whole number")
    return value
