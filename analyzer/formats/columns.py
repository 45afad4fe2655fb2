"""The columns of the imported hand records: :data:`COLUMNS` (their dtypes) and what each holds, as
:func:`analyzer.formats.read.read_tenhou` and :func:`~analyzer.formats.read.read_mjai` write them.

Output: one row per outcome, in play order (files in sorted path order). A multiple ron is one row per
winner, adjacent, in turn order from the discarder; a (rare) double nagashi mangan is one row per winner.

======================== ==============================================================================
game_id                  stable (:mod:`.identity`): the Tenhou log id the log carries (JSON ``ref``, mjlog
                         SHUFFLE ``ref``) or a Mahjong Soul game's record id (tensoul's ``ref``,
                         ``231014-84c11a6f-b3f7-4363-966e-25f37886cfbf``), else one a comment before an mjlog's
                         root names (``log=…``), else the one the file is named after
                         (``2010112714gm-00a9-0000-d497e395``), else ``log-`` + 16 hex digits hashing the log's
                         content; a game met again in the same import (same content, or same id) is imported
                         once, from the first file, the copy (or another version: same id, other plays)
                         reported
log_file                 the log the row comes from: its path as the import was given it (a folder given is
                         joined with the file's path inside it), so that every finding can name its file
log_row                  the row's hand in that file, counted from 1 (the n-th INIT of an mjlog, kyoku of a
                         tenhou.net/6 log, start_kyoku of an mjai log): the rows of a multiple ron share it
round                    ``E1``..``E4``, ``S1``.., ``W1``..: round wind + hand number; the dealer is seat n-1
honba                    counters at the start of the hand, as recorded
kyotaku                  riichi sticks on the table at the start of the hand, as recorded
player_0..player_3       names in initial seating (seat 0 = East in E1); duplicates are made unique within the
                         game with a suffix `` (2)``, `` (3)``; an anonymous player (``NoName`` or no name) is
                         ``NoName@<game_id>#<seat>``: a different person in every game; a Mahjong Soul player
                         whose account id the log gives (``playerMapping``) is ``nickname#account_id``
result                   ron | tsumo | draw (exhaustive) | nagashi (nagashi mangan) | abort (abortive draw:
                         nine terminals, four riichi, triple ron, four kans, four winds)
winner                   seat number as a string "0".."3" (ron, tsumo, nagashi); else null
loser                    ron: the discarder's seat; else null
pao                      the liable seat (Tenhou paoWho / the JSON pao field), else null
riichi                   List[String]: seats that declared riichi in this hand and whose stick was accepted
                         (Tenhou REACH step 2; a riichi discard that is ronned puts out no stick)
tenpai                   List[String]: draw / nagashi rows: seats tenpai at the end (mjlog: the hands shown;
                         JSON: the seats receiving noten money, else from the final hands); else null
hand                     ron / tsumo: concealed tiles including the winning tile, sorted MPSZ
                         (``123m406p789s1122z``, ``0`` = red five, honours 1-7z = E S W N white green red)
melds                    ron / tsumo: List[String] of the winner's melds in call order: ``chi:345p``,
                         ``pon:777z``, ``minkan:9999s``, ``kakan:5555p``, ``ankan:1111z`` (red five ``0``)
kita                     three-player ron / tsumo: north tiles the winner set aside (nukidora) in the hand, from
                         the replay (mjlog meld bit 0x20, JSON ``"f44"``); null with four players
win_tile                 ron / tsumo: the winning tile (``8p``; ``0p`` for the red five)
dora                     dora indicators in order (main indicator, then kan dora), each tile written with its
                         suit (``3m7z``); win rows: as recorded with the win, other rows: revealed by then
ura                      ura dora indicators likewise, only on win rows of a riichi winner where the log shows them
ippatsu, double_riichi,  Boolean situation flags of the winner, derived from the sequence of play (draws,
haitei, houtei, rinshan, discards, calls, kans, riichi), not from the recorded yaku; null on non-win rows:
chankan, tenhou,         ippatsu: riichi stick accepted and no call (by anyone) and no own discard since the
chiihou, renhou          riichi discard; double_riichi: riichi on one's first discard before any call;
                         haitei: tsumo on the 70th draw of the hand (live + rinshan draws) that is not a rinshan
                         draw; houtei: ron on the discard after the 70th draw; rinshan: tsumo on the replacement
                         draw after one's kan; chankan: ron on an added kan (or on a closed kan: kokushi);
                         tenhou / chiihou: dealer / non-dealer tsumo on the first draw with no call before it;
                         renhou: ron before one's first draw with no call before it
recorded_han             han including dora as recorded (null for yakuman hands)
recorded_fu              fu as recorded (mjlog always; JSON only where the value string shows it)
recorded_points          the hand's value without honba and sticks: the ron payment or the tsumo total
                         (nagashi: the winner's recorded gain); null when the log omits the value
recorded_limit           mangan | haneman | baiman | sanbaiman | yakuman (incl. kazoe) | null
recorded_yaku            List[String] of canonical yaku names (see ``yaku_names.TENHOU_YAKU_IDS``); dora, ura
                         and red fives are counted in the next three columns instead; an unrecognised name is
                         kept as ``unknown:NAME`` and reported as a problem
recorded_dora,           han from dora, ura dora, red fives
recorded_ura_dora,
recorded_aka_dora
recorded_yakuman         number of yakuman (0 when none; kazoe yakuman is 0 with recorded_limit yakuman)
recorded_delta_0..3      score change of each seat in this row as recorded, INCLUDING the -1000 riichi deposit
                         of each riichi declarer (booked on the hand's first row): for every hand, start scores
                         + the sum of its rows' deltas = the next hand's start scores
recorded_final_0..3      game's last row only: final raw score as recorded (mjlog owari, JSON ``sc``), else null
recorded_game_points_0..3 game's last row only: final game points (uma and oka included) as recorded
recorded_chips_0..3      game's last row only, a chip (祝儀) lobby's game: the chips each seat ended with, as
                         recorded (mjlog ``owari`` after the points); paid apart from the points, never mixed in
recorded_rank_points_0..3 game's last row only, a Mahjong Soul raw record: the rank points each seat's level
                         gained or lost in the game, as the server gave them (``grading_score``); ``check``
                         compares them with the tables of :mod:`analyzer.ratings.majsoul_points`
settlement               game's last row only, when its recorded game points fit no rule we know (a private
                         lobby's own uma, a bust bonus): how it is scored, in words (:mod:`.settlement`); the
                         spec's ``uma`` then gives the recorded points, and ``check`` lists this as a note
rules_note               game's last row only, a special lobby's game (mjlog GO type bits above 0xFF, custom
                         ``csrule``): what its lobby's rules give and what of them is not reproduced, in words
                         (:mod:`.lobby`); ``check`` lists it as a note (``lobby_rules``)
rules                    ruleset spec for :func:`analyzer.core.rules.from_spec`: ``tenhou`` (three players:
                         ``tenhou_sanma``; a Mahjong Soul game ``majsoul`` / ``majsoul_sanma``), plus
                         ``;aka_dora=false`` when the game has no red fives and ``;open_tanyao=false`` when it
                         has no open tanyao (mjlog GO type bits 0x02 / 0x04; JSON ``rule.aka*`` / ``rule.disp``),
                         ``;game_length=east``, ``;start_points=N``, a special lobby's settlement (:mod:`.lobby`)
                         and the game-point rounding and uma its recorded result shows (:mod:`.settlement`)
game_length              hanchan | tonpuu (mjlog GO bit 0x08; JSON room name), null when unknown
lobby                    Tenhou lobby number (mjlog GO lobby, JSON ``lobby``), null when absent; Mahjong Soul:
                         the friendly room's or tournament's number when the log gives one
room                     Mahjong Soul: the room as the log names it (``rule.disp``: ``金の間南喰赤``,
                         ``友人戦東喰赤``, ``3玉の間南喰赤``; a raw record's as tensoul would name it); null for
                         Tenhou games (see ``lobby``) and a room not known
dan_0..dan_3             Tenhou rank index 0-20 of each seat at the time of the game (mjlog ``UN dan``, JSON
                         ``dan`` names): 0 新人 (new), 1-9 9級..1級 (kyu), 10-19 初段..十段 (1st-10th dan), 20
                         天鳳 (Tenhou-i); null when the log has none
rate_0..rate_3           Tenhou rating R of each seat at the time of the game (mjlog ``UN rate``, JSON ``rate``)
played_at                Datetime (Asia/Tokyo): the hour the game started, from the Tenhou log id's leading
                         ``YYYYMMDDHH`` (Japan time, as Tenhou's ids are); a Mahjong Soul raw record: the
                         second it started (its head's ``start_time``); null when neither says it
platform_rank_0..3       a platform's own rank of each seat as its log writes it, where it is not Tenhou's dan
                         (Mahjong Soul: ``雀士★2``, ``魂天Lv3``; their ``dan_*`` and ``rate_*`` stay null)
riichi_turn_0..3         per seat (0-3 as in ``delta_0..3``): the seat's discard number of its riichi
                         declaration, null without one; a declaration whose stick was not accepted (the
                         declaring tile was ronned) still counts as declared
calls_0..3               per seat: chi, pon, open kan and added kan declared in the hand (a closed kan is not
                         a call; an added kan robbed by chankan is: it was declared, the log has it)
open_0..3                per seat: the hand had an open meld at its end (a closed kan does not open it)
turn                     the turn the hand ended on, counted as a seat's own discards (its n-th discard is on
                         turn n, a draw starts turn discards + 1): the discarder's turn for a ron and for an
                         exhaustive draw, the drawing seat's for a tsumo or nine terminals, the kan caller's
                         for a chankan. Tenpai at a draw stays in one place: the ``tenpai`` list
======================== ==============================================================================
"""

from __future__ import annotations

import polars as pl

from analyzer.formats.identity import IDENTITY_COLUMNS
from analyzer.formats.replay import FLAG_NAMES

_STR_LIST = pl.List(pl.String)
COLUMNS: dict[str, pl.DataType] = {
    "game_id": pl.String,
    "log_file": pl.String,
    "log_row": pl.Int64,
    "round": pl.String,
    "honba": pl.Int64,
    "kyotaku": pl.Int64,
    **{f"player_{s}": pl.String for s in range(4)},
    "result": pl.String,
    "winner": pl.String,
    "loser": pl.String,
    "pao": pl.String,
    "riichi": _STR_LIST,
    "tenpai": _STR_LIST,
    "hand": pl.String,
    "melds": _STR_LIST,
    "kita": pl.Int64,
    "win_tile": pl.String,
    "dora": pl.String,
    "ura": pl.String,
    **{name: pl.Boolean for name in FLAG_NAMES},
    "recorded_han": pl.Int64,
    "recorded_fu": pl.Int64,
    "recorded_points": pl.Int64,
    "recorded_limit": pl.String,
    "recorded_yaku": _STR_LIST,
    "recorded_dora": pl.Int64,
    "recorded_ura_dora": pl.Int64,
    "recorded_aka_dora": pl.Int64,
    "recorded_yakuman": pl.Int64,
    **{f"recorded_delta_{s}": pl.Int64 for s in range(4)},
    **{f"recorded_final_{s}": pl.Int64 for s in range(4)},
    **{f"recorded_game_points_{s}": pl.Float64 for s in range(4)},
    **{f"recorded_chips_{s}": pl.Int64 for s in range(4)},
    **{f"recorded_rank_points_{s}": pl.Int64 for s in range(4)},
    "settlement": pl.String,
    "rules_note": pl.String,
    "rules": pl.String,
    "game_length": pl.String,
    "lobby": pl.Int64,
    "room": pl.String,
    **{f"riichi_turn_{s}": pl.Int64 for s in range(4)},
    **{f"calls_{s}": pl.Int64 for s in range(4)},
    **{f"open_{s}": pl.Boolean for s in range(4)},
    "turn": pl.Int64,
    **IDENTITY_COLUMNS,
}
