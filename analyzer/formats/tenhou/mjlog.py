"""Tenhou mjlog XML (``<mjloggm>``) to the shared game model (see :mod:`analyzer.formats.model`)."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

from analyzer.formats.identity import TENHOU_LOG_ID, content_digest, is_tenhou_log_id
from analyzer.formats.model import Game, Kyoku, LogError, Outcome
from analyzer.formats.tile_text import NORTH, RED
from analyzer.formats.tenhou.yaku_names import LIMITS, TENHOU_YAKU_IDS

_DRAW = {"T": 0, "U": 1, "V": 2, "W": 3}
_DISCARD = {"D": 0, "E": 1, "F": 2, "G": 3}
_ABORTS = {"yao9", "reach4", "ron3", "kan4", "kaze4"}
# GO type bits: 0x01 vs humans, 0x02 no red fives, 0x04 no open tanyao, 0x08 hanchan, 0x10 three players,
# 0x20 tokujou, 0x40 fast, 0x80 joukyuu. Higher bits (0x100 and up) and csrule: special lobbies (.lobby).


def _ints(text: str | None) -> list[int]:
    return list(map(int, text.split(","))) if text else []


def _meld(m: int, who: int) -> tuple[str, list[int], int, int]:
    """Decode Tenhou's bit-packed meld: (kind, tile ids, called tile id, from seat)."""
    frm = (who + (m & 3)) % 4
    if m & 0x4:  # chi
        base_called = m >> 10
        called = base_called % 3
        base = base_called // 3
        base = (base // 7) * 9 + base % 7
        tiles = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        return "chi", tiles, tiles[called], frm
    if m & 0x18:  # pon (0x08) or kakan (0x10)
        unused = (m >> 5) & 3
        base_called = m >> 9
        called = base_called % 3
        base = base_called // 3
        pon = [base * 4 + i for i in range(4) if i != unused]
        if m & 0x8:
            return "pon", pon, pon[called], frm
        return "kakan", pon + [base * 4 + unused], base * 4 + unused, frm
    if m & 0x20:  # nukidora: a north set aside (three players), handled by the callers
        return "kita", [m >> 8], m >> 8, who
    tile = m >> 8
    tiles = [(tile // 4) * 4 + i for i in range(4)]
    if m & 3 == 0:
        return "ankan", tiles, tile, who
    return "minkan", tiles, tile, frm


def _tenhou_order(mk: str, tids: list[int], called: int) -> list[int]:
    """A call's tile ids in the order tenhou.net/6 JSON writes them (see :mod:`.model`), the called tile last:
    a chi's, pon's or open kan's other tiles by tile, a red five after the other fives; a closed kan's copies
    1-3, then copy 0 (a red five); a kakan's pon, then the added tile."""
    if mk in ("chi", "pon", "minkan"):
        return sorted((t for t in tids if t != called), key=_red_last) + [called]
    if mk == "ankan":
        return tids[1:] + tids[:1]
    return tids


def _red_last(tid: int) -> tuple[int, bool]:
    return tid >> 2, tid in (16, 52, 88)


_NAME = re.compile(r"([A-Za-z]+)(?=[\s/>])")
_SPACED_PLAY = re.compile(r"([TUVWDEFG])(\d+)\s*/>")
_ATTR = re.compile(r'([\w:.-]+)\s*=\s*"([^"]*)"')


def _attrs(text: str) -> dict[str, str]:
    a = dict(_ATTR.findall(text))
    if "&" in text:  # XML character references (names are %-encoded, so this is rare)
        a = {k: html.unescape(v) for k, v in a.items()}
    return a


# What XML allows around the root element besides whitespace: comments and processing instructions (the XML
# declaration is one). A document type declaration is not read: DTDs and their entities are refused.
_MISC = re.compile(r"\s*(?:<!--(?P<comment>.*?)-->|<\?.*?\?>)", re.S)
_MISC_TO_END = re.compile(r"(?:\s+|<!--.*?-->|<\?.*?\?>)*\Z", re.S)
_ROOT_END = "</mjloggm>"
_COMMENT = re.compile(r"<!--.*?-->", re.S)
# a Tenhou log id a tool wrote into a comment before the root, as viewers' addresses have it: ``/0/?log=<id>``
_LOG_ID_IN_COMMENT = re.compile(r"\blog=(" + TENHOU_LOG_ID.pattern + ")")


def split_prolog(text: str) -> tuple[str, str | None]:
    """The log from its root element to its end tag, and the Tenhou log id a comment before the root names
    (``<!-- /0/?log=2017060214gm-00a9-0000-40a46a1c ... -->``), else None. A byte order mark, whitespace, comments
    and processing instructions before and after the root are legal XML and left out, and so are comments
    inside it; a ``<!DOCTYPE`` is refused (no DTD or entity is ever read)."""
    pos, log_id = 0, None
    text = text.lstrip("\ufeff")
    while (m := _MISC.match(text, pos)) is not None:
        found = _LOG_ID_IN_COMMENT.search(m["comment"] or "")
        if found is not None and log_id is None:
            log_id = found.group(1)
        pos = m.end()
    body = text[pos:].lstrip()
    if body.startswith("<!DOCTYPE"):
        raise LogError("refused: a document type declaration (<!DOCTYPE ...>) before the root element; DTDs and "
                       "entities are not read")
    end = body.rfind(_ROOT_END)
    if end >= 0 and _MISC_TO_END.match(body, end + len(_ROOT_END)):
        body = body[: end + len(_ROOT_END)]
    if "<!--" in body:  # a comment inside the log is no data, whatever it holds (``<!-- <T12/> -->``)
        body = _COMMENT.sub("", body)
    return body, log_id


def _tags(text: str) -> list[str]:
    """The text of every tag (``T12/>``, ``INIT seed=... />``, ``/mjloggm>``), in order: a split on ``<``, far
    cheaper than a parser or a regex over the whole log; a tag that cannot be read is an error, not skipped.
    ``text`` starts at the root element (:func:`split_prolog`)."""
    body = text.strip()
    if not body.startswith("<mjloggm") or not _NAME.match(body, 1):
        name = _NAME.match(body, 1) if body.startswith("<") else None
        raise LogError(f"not an mjlog file: root element <{name.group(1) if name else '?'}>")
    if not body.endswith("</mjloggm>"):
        raise LogError("not well-formed mjlog XML: the log is cut short (no closing </mjloggm>)")
    return body.split("<")[1:]


def parse_mjlog(text: str, file: str) -> Game:
    body, commented_id = split_prolog(text)
    tags = _tags(body)
    game = Game(file=file, ref=None, names=[])
    aka = True
    tile_of = _TILE_RED  # tile id -> tile, as the GO tag's red-five bit says

    def tiles(ids: list[int]) -> list[int]:
        if ids and (min(ids) < 0 or max(ids) > 135):
            raise LogError(f"a tile id outside 0-135 ({min(ids)}..{max(ids)})")
        return [tile_of[t] for t in ids]

    def tile(tid: int) -> int:
        return tiles([tid])[0]

    kyoku: Kyoku | None = None
    events: list[tuple] = []
    pending_riichi: set[int] = set()
    rinshan = [False] * 4
    started = False
    plays = _PLAYS_RED if aka else _PLAYS_PLAIN
    special = False  # a seat is due a rinshan draw or a riichi discard: the next play tags need a look
    giri = None  # the discard tag that throws the tile just drawn (the same tile id): a tsumogiri
    for text in tags:
        ev = plays.get(text)
        if ev is None:
            if text[-1:] != ">":
                text = text.rstrip()
                ev = plays.get(text)
            if ev is None and text[-2:] == "/>" and text[0] in _SEAT and text[1:2].isdigit():
                play = _SPACED_PLAY.fullmatch(text)  # <T12 />, or a tile id out of range
                if play is None or int(play.group(2)) > 135:
                    raise LogError(f"bad tile id {text[1:-2].strip()} in <{text}")
                text = play.group(1) + play.group(2) + "/>"
                ev = plays[text]
            elif ev is None and text[-1:] != ">":
                raise LogError(f"not well-formed mjlog XML: a tag that cannot be read (<{text[:40]})")
        if ev is not None:  # a draw or a discard: most of a log, a precomputed event
            if kyoku is None:
                raise LogError(f"<{text[:-2].strip()}> before any <INIT>")
            if ev[0] == "draw":
                giri = _GIRI[text]
            else:
                if text == giri:
                    ev = ("discard", ev[1], ev[2], False, True)
                giri = None
            if special:
                s = ev[1]
                if ev[0] == "draw":
                    if rinshan[s]:
                        ev = ("draw", s, ev[2], True)
                        rinshan[s] = False
                elif s in pending_riichi:
                    pending_riichi.discard(s)
                    ev = ("discard", s, ev[2], True, ev[4])
                special = bool(pending_riichi) or True in rinshan
            events.append(ev)
            continue
        if text[0] in "/?!":  # a closing tag, the XML declaration, a comment
            continue
        name = _NAME.match(text)
        if name is None:
            raise LogError(f"not well-formed mjlog XML: a tag that cannot be read (<{text[:40]})")
        tag, attr_text = name.group(1), text[name.end() :]
        a = _attrs(attr_text)
        if tag == "SHUFFLE":
            game.ref = a.get("ref") or None
        elif tag == "GO":
            t = _int(a.get("type", "169"), "GO type")
            game.players = 3 if t & 0x10 else 4
            game.lobby_type, game.custom_rules = t, a.get("csrule")  # special lobbies: .lobby
            aka = not t & 0x02
            plays = _PLAYS_RED if aka else _PLAYS_PLAIN
            tile_of = _TILE_RED if aka else _TILE_PLAIN
            game.aka = aka
            game.kuitan = not t & 0x04
            game.game_length = "hanchan" if t & 0x08 else "tonpuu"
            game.lobby = int(a["lobby"]) if a.get("lobby", "").isdigit() else None
        elif tag == "UN":
            if "n0" in a and not game.names:
                game.names = [unquote(a.get(f"n{i}", "")) for i in range(4)]
                game.dan = a["dan"].split(",") if "dan" in a else None
                game.rate = a["rate"].split(",") if "rate" in a else None
                if not game.names[3] and game.players == 4:
                    raise LogError("a fourth player is missing in a four-player game (GO type without bit 0x10)")
        elif tag == "INIT":
            started = True
            seed = _ints(a.get("seed"))
            ten = _ints(a.get("ten"))
            if len(seed) < 6 or len(ten) != 4:
                raise LogError("malformed <INIT>: seed/ten")
            hands = [_ints(a.get(f"hai{i}")) for i in range(4)]
            if (not hands[3]) != (game.players == 3):
                raise LogError(f"<INIT> deals {'no' if not hands[3] else 'a'} fourth hand in a "
                               f"{game.players}-player game")
            if not 0 <= seed[5] <= 135 or any(h and (min(h) < 0 or max(h) > 135) for h in hands):
                raise LogError("malformed <INIT>: a tile id outside 0-135")
            events = []
            kyoku = Kyoku(
                kyoku=seed[0],
                honba=seed[1],
                kyotaku=seed[2],
                scores=[x * 100 for x in ten],
                haipai=[tiles(sorted(h, key=_red_last)) for h in hands],  # as tenhou.net/6 lists them
                dora=[tile(seed[5])],
                events=events,
                players=game.players,
            )
            if int(a.get("oya", seed[0] % 4)) != seed[0] % 4:
                raise LogError(f"<INIT> dealer {a.get('oya')} does not match kyoku {seed[0]}")
            game.kyokus.append(kyoku)
            pending_riichi = set()
            rinshan = [False] * 4
            special = False
        elif tag == "N":
            if kyoku is None:
                raise LogError("<N> before any <INIT>")
            who = _seat(a.get("who"))
            mk, tids, called, frm = _meld(_int(a.get("m"), "meld code"), who)
            giri = None
            if mk == "kita":
                if game.players != 3 or tile(called) != NORTH:
                    raise LogError("a north set aside (nukidora) outside a three-player game, or not a north")
                events.append(("kita", who, tile(called)))
                rinshan[who] = special = True  # the replacement comes from the dead wall
                continue
            events.append(("call", who, mk, tiles(_tenhou_order(mk, tids, called)), tile(called), frm))
            if mk in ("minkan", "kakan", "ankan"):
                rinshan[who] = special = True
        elif tag == "REACH":
            if kyoku is None:
                raise LogError("<REACH> before any <INIT>")
            who, step = _seat(a.get("who")), a.get("step")
            if step == "1":
                pending_riichi.add(who)
                special = True
            elif step == "2":
                events.append(("reach", who))
        elif tag == "DORA":
            if kyoku is None:
                raise LogError("<DORA> before any <INIT>")
            events.append(("dora", tile(_int(a.get("hai"), "dora tile"))))
        elif tag == "AGARI":
            if kyoku is None:
                raise LogError("<AGARI> before any <INIT>")
            kyoku.outcomes.append(_agari(a, tiles))
            _owari(game, a)
        elif tag == "RYUUKYOKU":
            if kyoku is None:
                raise LogError("<RYUUKYOKU> before any <INIT>")
            kyoku.outcomes.append(_ryuukyoku(a))
            _owari(game, a)
        # TAIKYOKU, BYE, later UN (reconnects) and unknown tags carry nothing we need
    if not started:
        raise LogError("no hands (<INIT>) in the log")
    if commented_id is not None and not is_tenhou_log_id(game.ref):  # the SHUFFLE ref comes first
        game.ref = commented_id
    if len(body) != len(text.strip()):  # a log is its root element: a copy with a comment added is the same game
        game.digest = content_digest(body.encode("utf-8"))
    if len(game.names) != 4:
        game.names = ["", "", "", ""]
    return game


_PLAY_TAGS = frozenset({"TAIKYOKU", "BYE"})
_SEAT = {**_DRAW, **_DISCARD}
_TILE_PLAIN = [tid >> 2 for tid in range(136)]
_TILE_RED = [RED + (tid >> 2) if tid in (16, 52, 88) else tid >> 2 for tid in range(136)]
# every draw and discard tag there can be (8 letters x 136 tile ids), with its event: one lookup per tag
_PLAYS_PLAIN, _PLAYS_RED = (
    {f"{letter}{tid}/>": ("draw", seat, tiles[tid], False) if letter in _DRAW
     else ("discard", seat, tiles[tid], False, False)
     for letter, seat in _SEAT.items() for tid in range(136)}
    for tiles in (_TILE_PLAIN, _TILE_RED)
)
_GIRI = {f"{draw}{tid}/>": f"{'DEFG'[seat]}{tid}/>" for draw, seat in _DRAW.items() for tid in range(136)}


def _int(text: str | None, what: str) -> int:
    if text is None:
        raise LogError(f"missing {what}")
    return int(text)


def _seat(text: str | None) -> int:
    seat = _int(text, "seat")
    if not 0 <= seat <= 3:
        raise LogError(f"bad seat {text}")
    return seat


def _deltas(a: dict) -> list[int]:
    """The score changes of ``sc=``: 4 score/change pairs, then in a chip lobby 4 chip/change pairs (not points)."""
    sc = _ints(a.get("sc"))
    if len(sc) not in (8, 16):
        raise LogError("malformed sc= (expected 4 score/delta pairs, and 4 chip pairs in a chip lobby)")
    return [sc[2 * i + 1] * 100 for i in range(4)]


def _owari(game: Game, a: dict) -> None:
    if "owari" in a:
        vals = a["owari"].split(",")
        if len(vals) < 8:
            raise LogError("malformed owari=")
        game.final_scores = [int(vals[2 * i]) * 100 for i in range(4)]
        game.final_points = [float(vals[2 * i + 1]) for i in range(4)]
        if len(vals) >= 16:  # a chip lobby: the chips each seat ended with, after the points
            game.final_chips = [int(vals[8 + 2 * i]) for i in range(4)]
        game.ratio = a.get("ratio")


def _agari(a: dict, tiles) -> Outcome:
    who, frm = _seat(a.get("who")), _seat(a.get("fromWho"))
    melds = [_meld(m, who) for m in _ints(a.get("m"))]
    ten = _ints(a.get("ten"))
    o = Outcome(
        result="tsumo" if who == frm else "ron",
        deltas=_deltas(a),
        winner=who,
        loser=None if who == frm else frm,
        pao=_seat(a["paoWho"]) if "paoWho" in a else None,
        fu=ten[0],
        points=ten[1],
        limit=LIMITS.get(ten[2]) if len(ten) > 2 else None,
        dora_indicators=tiles(_ints(a.get("doraHai"))),
        ura_indicators=tiles(_ints(a.get("doraHaiUra"))) if "doraHaiUra" in a else None,
        hand=tiles(_ints(a.get("hai"))),
        win_tile=tiles([int(a["machi"])])[0],
        melds=[(mk, tiles(tids)) for mk, tids, _, _ in melds if mk != "kita"],
        kita=sum(mk == "kita" for mk, _, _, _ in melds),
    )
    if "yakuman" in a:
        for yid in _ints(a["yakuman"]):
            o.add_yakuman(TENHOU_YAKU_IDS[yid])
        o.han = None
    else:
        pairs = _ints(a.get("yaku"))
        han = 0
        for yid, h in zip(pairs[::2], pairs[1::2]):
            han += h
            o.add_recorded_yaku(TENHOU_YAKU_IDS[yid], h)
        o.han = han
    return o


def _ryuukyoku(a: dict) -> Outcome:
    typ = a.get("type")
    if typ in _ABORTS:
        result = "abort"
    elif typ == "nm":
        result = "nagashi"
    elif typ is None:
        result = "draw"
    else:
        raise LogError(f"unknown RYUUKYOKU type {typ!r}")
    tenpai = [s for s in range(4) if f"hai{s}" in a]
    return Outcome(result=result, deltas=_deltas(a), tenpai=tenpai if result in ("draw", "nagashi") else None,
                   abort=typ if result == "abort" else None)
