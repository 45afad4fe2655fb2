"""Mahjong Soul's rooms, ranks and yaku as tables: which room a game was played in and what rules that gives
(:func:`room_from_mode_id`, :func:`room_from_name`, :func:`apply_room_rules`), the level ids of its ranks
(:func:`level_name`) and its fan (yaku) ids (:data:`FAN_NAMES`).

Source of the tables: the game's own configuration as Equim-chan/tensoul ships it (``data.json``:
``desktop.matchmode`` for the rooms, ``level_definition`` for the ranks, ``fan`` for the yaku), read with
tensoul's ``convert.js`` (which field says what).

Rooms. A raw record's head names its room by ``config.meta.mode_id`` (matchmaking: the ranked rooms, the
casual match), ``meta.room_id`` (a friendly room) or ``meta.contest_uid`` (a tournament); ``config.mode.mode``
is the length and player count (1 East, 2 South, 11 and 12 the same with three players). A converted log only
has a display name (``rule.disp``), written in Japanese (``玉の間南喰赤``, tensoul), English (``Jade Room South``,
tensoul's English mode), Chinese (``玉之间四人南``, as the Chinese client and its tools write it) or with the
words in another order (``玉の間四人南``). Every ranked room (Bronze, Silver, Gold, Jade, Throne; East and South;
four and three players) plays open tanyao and red fives, starts at 25,000 (35,000 with three players) and
pays uma 15/5/-5/-15 (15/0/-15) with no oka: the ``majsoul`` and ``majsoul_sanma`` presets. The casual match
(交流の間) plays the same rules. A friendly room or a tournament chooses its own (``mode.detail_rule``:
``dora_count`` red fives, ``init_point`` start, ``fandian`` the points first place needs to end the game,
``have_zimosun`` three-player tsumo loss); what a record does not say is read from its play (see
:func:`apply_room_rules`). A name found nowhere here gets the ranked rooms' rules and a note naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from analyzer.formats.model import Game, Note
from analyzer.formats.tile_text import RED

# (Japanese, English, Chinese simplified, Chinese traditional) names of the rooms, by room number
ROOMS = {
    1: ("銅の間", "Bronze Room", "铜之间", "銅之間"),
    2: ("銀の間", "Silver Room", "银之间", "銀之間"),
    3: ("金の間", "Gold Room", "金之间", "金之間"),
    4: ("玉の間", "Jade Room", "玉之间", "玉之間"),
    6: ("王座の間", "Throne Room", "王座之间", "王座之間"),
    100: ("交流の間", "Casual Match", "休闲普通场", "休閒普通場"),
}
RANKED_ROOMS = (1, 2, 3, 4, 6)
FRIENDLY_NAMES = ("友人戦", "Friendly", "友人场", "友人場")
TOURNAMENT_NAMES = ("大会戦", "Tournament", "Tounament", "比赛场", "比賽場", "大会室")
# matchmode id -> (room, mode): mode 1 East, 2 South, 11 / 12 the same with three players
MODE_IDS = {
    2: (1, 1), 3: (1, 2), 5: (2, 1), 6: (2, 2), 8: (3, 1), 9: (3, 2), 11: (4, 1), 12: (4, 2), 15: (6, 1), 16: (6, 2),
    17: (1, 11), 18: (1, 12), 19: (2, 11), 20: (2, 12), 21: (3, 11), 22: (3, 12), 23: (4, 11), 24: (4, 12),
    25: (6, 11), 26: (6, 12), 29: (100, 1), 30: (100, 2), 31: (100, 11), 32: (100, 12),
}  # fmt: skip

_EAST_WORDS = ("東", "东", "East", "Tonpuu", "tonpuu")
_SOUTH_WORDS = ("南", "South", "半庄", "半荘", "Hanchan", "hanchan")
_SANMA = re.compile(r"^\s*(?:3|三)|三人|三麻|3-Player|3P\b|3人|Sanma|sanma")


@dataclass(frozen=True)
class Room:
    """Where a game was played: ``kind`` ranked | casual | friendly | tournament | unknown; ``name`` the room's
    Japanese name (None for a name not known), ``players`` 3 or 4 and ``length`` tonpuu | hanchan when known."""

    kind: str
    name: str | None = None
    players: int | None = None
    length: str | None = None
    said: str | None = None  # the name as the record gives it

    @property
    def display(self) -> str:
        """The room as tensoul writes it (``三玉の間南喰赤``), for the ``room`` column."""
        base = self.name or self.said or ""
        length = {"tonpuu": "東喰", "hanchan": "南喰"}.get(self.length or "", "")
        return ("三" if self.players == 3 else "") + base + length


def _mode(mode) -> tuple[int | None, str | None]:
    if not isinstance(mode, int) or isinstance(mode, bool):
        return None, None
    players = 3 if mode >= 10 else 4
    return players, {1: "tonpuu", 2: "hanchan"}.get(mode % 10)


def room_from_mode_id(mode_id, mode=None) -> Room | None:
    """The matchmaking room of a ``config.meta.mode_id`` (None for an id not in the table); ``mode`` (the
    record's ``config.mode.mode``) is used where it says more."""
    entry = MODE_IDS.get(mode_id) if isinstance(mode_id, int) else None
    if entry is None:
        return None
    room, mode_of_id = entry
    players, length = _mode(mode_of_id)
    kind = "ranked" if room in RANKED_ROOMS else "casual"
    return Room(kind, ROOMS[room][0], players, length)


def room_from_name(text: str) -> Room:
    """The room a display name names, in any of its spellings (see the module docstring)."""
    text = str(text or "").strip()
    players = 3 if _SANMA.search(text) else (4 if re.search(r"四人|四麻|4-Player|4P\b|4人", text) else None)
    length = None
    if any(w in text for w in _SOUTH_WORDS):
        length = "hanchan"
    elif any(w in text for w in _EAST_WORDS):
        length = "tonpuu"
    for number, names in ROOMS.items():
        if any(n in text for n in names):
            kind = "ranked" if number in RANKED_ROOMS else "casual"
            return Room(kind, names[0], players or 4, length, text)  # a name says 三 (3) for three players
    if any(n in text for n in FRIENDLY_NAMES):
        return Room("friendly", "友人戦", players, length, text)
    if any(n in text for n in TOURNAMENT_NAMES):
        return Room("tournament", "大会戦", players, length, text)
    return Room("unknown", None, players, length, text or None)


def is_room_name(text: str) -> bool:
    """Whether ``text`` names a Mahjong Soul room we know (ranked, casual, friendly or tournament)."""
    return room_from_name(text).kind != "unknown"


# level id -> rank name: 1 four players, 2 three; then the rank (1 初心 .. 5 雀聖, 6 魂天, 7 魂天 levels), the star
_RANKS = {1: "初心", 2: "雀士", 3: "雀傑", 4: "雀豪", 5: "雀聖"}


def level_name(level_id) -> str | None:
    """The rank a ``level.id`` is, as Mahjong Soul's Japanese client writes it (``10401`` -> ``雀豪★1``,
    ``10601`` -> ``魂天``, ``20703`` -> ``魂天Lv3``); None for an id not of that shape."""
    if not isinstance(level_id, int) or isinstance(level_id, bool):
        return None
    group, rank, star = level_id // 10000, level_id // 100 % 100, level_id % 100
    if group not in (1, 2):
        return None
    if rank in _RANKS and 1 <= star <= 3:
        return f"{_RANKS[rank]}★{star}"
    if rank == 6 and star == 1:
        return "魂天"
    if rank == 7 and 1 <= star <= 20:
        return f"魂天Lv{star}"
    return None


# fan id -> our yaku name (analyzer.tiles.yaku); dora, red fives and ura to their counts; 34 (抜きドラ, the
# norths set aside) counted with the dora as Tenhou counts them
FAN_NAMES = {
    1: "menzen_tsumo", 2: "riichi", 3: "chankan", 4: "rinshan", 5: "haitei", 6: "houtei", 7: "haku", 8: "hatsu",
    9: "chun", 10: "seat_wind", 11: "round_wind", 12: "tanyao", 13: "iipeikou", 14: "pinfu", 15: "chanta",
    16: "ittsu", 17: "sanshoku", 18: "double_riichi", 19: "sanshoku_doukou", 20: "sankantsu", 21: "toitoi",
    22: "sanankou", 23: "shousangen", 24: "honroutou", 25: "chiitoitsu", 26: "junchan", 27: "honitsu",
    28: "ryanpeikou", 29: "chinitsu", 30: "ippatsu", 31: "dora", 32: "aka", 33: "ura", 34: "dora", 35: "tenhou",
    36: "chiihou", 37: "daisangen", 38: "suuankou", 39: "tsuuiisou", 40: "ryuuiisou", 41: "chinroutou",
    42: "kokushi", 43: "shousuushii", 44: "suukantsu", 45: "chuuren", 47: "junsei_chuuren", 48: "suuankou_tanki",
    49: "kokushi_13", 50: "daisuushii", 59: "renhou",
}  # fmt: skip
FAN_UNKNOWN = {46: "八連荘", 51: "燕返し", 52: "槓振り", 53: "十二落抬", 54: "五門斉", 55: "三連刻", 56: "一色三順",
               57: "一筒摸月", 58: "九筒撈魚", 60: "大車輪", 61: "大竹林", 62: "大数隣", 63: "石の上にも三年",
               64: "大七星"}  # local yaku of event rooms: kept as unknown:NAME


def apply_room_rules(game: Game, room: Room, detail_rule: dict | None = None, aka: bool | None = None) -> None:
    """The rules of ``game`` (its hands and result read) from its room: a ranked room's (or the casual
    match's) always; a friendly room's or a tournament's from ``detail_rule`` where the record has it, else
    from its play (red fives seen, unless ``aka`` says — tensoul writes them —, the West round not played when
    the game ended below the target), said in one note; a room not known gets the ranked rooms' rules and a
    note naming it."""
    game.platform = "majsoul"
    game.kuitan = True  # no Mahjong Soul room plays without open tanyao
    if room.length and not game.game_length:
        game.game_length = room.length
    if room.kind in ("ranked", "casual"):
        game.aka = True
        return
    said: list[str] = []
    rule = detail_rule if isinstance(detail_rule, dict) and detail_rule else None
    if room.kind == "unknown":
        game.aka = True
        said.append(f"{f'room {room.said!r} is not known' if room.said else 'the record names no room'}: scored "
                    "under Mahjong Soul's ranked rules (open tanyao, red fives)")
    elif rule is not None:
        dora_count = rule.get("dora_count")
        if isinstance(dora_count, int) and not isinstance(dora_count, bool):
            game.aka = dora_count > 0
        target = rule.get("fandian")
        if isinstance(target, int) and not isinstance(target, bool) and 0 < target <= 10**6:
            game.rule_options["extension_target"] = target
        if game.players == 3 and rule.get("have_zimosun") is False:
            game.tsumo_loss = "split"
    else:
        game.aka = _red_fives_seen(game) if aka is None else aka
        reds = "as the log says" if aka is not None else "seen" if game.aka else "never seen: none"
        said.append(f"a {room.kind} room's rules are not in the record: read from its play (red fives "
                    f"{reds}, start points {_first_scores(game)})")
    if room.kind != "unknown" and rule is not None:
        return
    if _ended_below_target(game):
        game.rule_options["west_extension"] = False
        said[-1] += "; the game ended after its last round with nobody at the target: no West round"
    game.notes.append(Note("; ".join(said)))


def _red_fives_seen(game: Game) -> bool:
    for k in game.kyokus:
        if any(t >= RED for h in k.haipai for t in h) or any(e[0] == "draw" and e[2] >= RED for e in k.events):
            return True
    return False


def _first_scores(game: Game) -> int | None:
    return game.kyokus[0].scores[0] if game.kyokus else None


def _ended_below_target(game: Game) -> bool:
    """The game ended on the last hand of its length (South 4, East 4; three players South 3, East 3) with
    nobody at the target: a room that plays the West round would have gone on."""
    if not game.kyokus or game.final_scores is None:
        return False
    last = game.kyokus[-1].kyoku
    end = (7 if game.game_length != "tonpuu" else 3) - (1 if game.players == 3 else 0)
    target = game.rule_options.get("extension_target", 40000 if game.players == 3 else 30000)
    finals = game.final_scores[: game.players]
    return last == end and max(finals) < target and min(finals) >= 0
