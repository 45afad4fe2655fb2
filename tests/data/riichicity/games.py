"""The Riichi City games of this folder, hand by hand, and their writing (run: python tests/data/riichicity/games.py).

Composed for this project (no public record may be copied): see ``compose.py`` for how a hand is played and
written. Values worked by hand under the ranked rules (riichi.wiki "Riichi City"; kiriage mangan): four players
25,000 / 30,000 with uma 30/10/-10/-30 and oka 20, honba 300, noten 3,000; three players 35,000 / 40,000 with
20/0/-20 and oka 15, honba 200, noten 2,000, tsumo loss. ``score`` is (final - start)/100 + the place's uma and
oka, in tenths.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from analyzer.formats.model import Game  # noqa: E402
from tests.data.riichicity.compose import Play, record_of  # noqa: E402

EAST_KEY, SANMA_KEY = "cq3k9u2ai08a0i7c5tg0", "cq3kb61ai08a0i7c6p10"


def east_4p() -> tuple[Game, str]:
    hands = []
    # E1-0: seat 1 draws haku and lets it go, seat 2 pons it and lets 1z go; seat 1 lets a 5p go, seat 2 chis it
    # (67p) and lets 9m go: 234m 4(0)6s 7s + haku pon + 567p, waiting on 7s alone, which seat 3 lets go.
    # Haku 1 + red five 1 = 2 han; 20 + open honour pon 4 + single wait 2 = 26 -> 30 fu: 2,000.
    p = Play(4, 0, 0, 0, [25000] * 4, dora="9p", hands={2: "55z234m67p40s6s7s1z9m"}, protect="7s5z5p", seed=1)
    p.discard(0)
    p.turn(1, draw="5z", discard="5z")
    p.call(2, "pon", "55z")
    p.discard(2, "1z")
    p.fill(1)
    p.turn(1, draw="5p", discard="5p")
    p.call(2, "chi", "67p")
    p.discard(2, "9m")
    p.turn(3, draw="7s", discard="7s")
    hands.append(p.win("ron", 2, 2, 30, 2000, [("haku", 1)], {2: 2000, 3: -2000}, aka=1))
    # E2-0 (dealer 1): seat 0 draws its fourth 9m, declares a closed kan (kan dora 8p), lets the replacement go
    # with riichi, and wins by tsumo on 5m two turns later: riichi 1 + menzen tsumo 1 = 2 han; 20 + tsumo 2 +
    # closed terminal kan 32 = 54 -> 60 fu: 1,000 / 2,000 (4,000), and its own stick back.
    p = Play(4, 1, 0, 0, [25000, 25000, 27000, 23000], dora="1s", ura="4z6z",
             hands={0: "999m234p567s34m77p"}, protect="2m5m9m", seed=2)
    p.discard(1)
    p.fill(0)
    p.turn(0)
    p.fill(0)
    p.draw(0, "9m")
    p.ankan(0, "9999m")
    p.kan_dora("8p")
    p.draw(0, rinshan=True)
    p.discard(0, riichi=True)
    p.fill(0)
    p.turn(0)
    p.fill(0)
    p.draw(0, "5m")
    hands.append(p.win("tsumo", 0, 2, 60, 4000, [("riichi", 1), ("menzen_tsumo", 1)],
                       {0: 5000, 1: -2000, 2: -1000, 3: -1000}))
    # E3-0 (dealer 2): seat 1 declares riichi waiting on 6z alone, the dealer is tenpai on 9s alone, the wall runs
    # out: 1,500 from each noten seat to each tenpai seat; seat 1's stick stays on the table.
    p = Play(4, 2, 0, 0, [29000, 23000, 26000, 22000], dora="2z",
             hands={1: "123m456m789p234s6z", 2: "234p567p234s678s9s"}, protect="6z9s", seed=3)
    p.discard(2)
    p.fill(1)
    p.turn(1)
    p.fill(1)
    p.turn(1, riichi=True)
    p.exhaust()
    hands.append(p.drawn_out([1, 2], {0: -1500, 1: 1500, 2: 1500, 3: -1500}))
    # E3-1 (honba 1, one stick): seat 3 pons seat 0's chun and lets 1z go, draws the fourth chun and adds it to
    # the pon (kan dora 5z), lets the replacement go and rons seat 0's 4s (2m / 4s). Chun 1 han; 20 + open honour
    # kan 16 + the 4s pon won on 2 = 38 -> 40 fu: 1,300, + 300 honba + 1,000 the stick.
    p = Play(4, 2, 1, 1, [27500, 23500, 27500, 20500], dora="9s", hands={3: "77z345p678s22m44s1z"},
             protect="2m4s7z", seed=4)
    p.discard(2)
    p.turn(3)
    p.turn(0, draw="7z", discard="7z")
    p.call(3, "pon", "77z")
    p.discard(3, "1z")
    p.fill(3)
    p.draw(3, "7z")
    p.kakan(3, "7z")
    p.kan_dora("5z")
    p.draw(3, rinshan=True)
    p.discard(3)
    p.turn(0, draw="4s", discard="4s")
    hands.append(p.win("ron", 3, 1, 40, 1300, [("chun", 1)], {3: 2600, 0: -1600}))
    # E4-0 (dealer 3): seat 2 declares riichi on 3s4s and rons seat 1's red 5s: riichi, pinfu, tanyao and the red
    # five: 4 han 30 fu, a mangan by kiriage: 8,000 and its own stick back. Seat 2 ends at 35,500: the game ends.
    p = Play(4, 3, 0, 0, [25900, 23500, 27500, 23100], dora="1z", ura="3z", hands={2: "234m567p34s678s66p"},
             protect="2s5s", seed=5)
    p.discard(3)
    p.fill(2)
    p.turn(2)
    p.fill(2)
    p.turn(2, riichi=True)
    p.fill(2)
    p.turn(2)
    p.fill(1)
    p.turn(1, draw="0s", discard="0s")
    hands.append(p.win("ron", 2, 4, 30, 8000, [("riichi", 1), ("pinfu", 1), ("tanyao", 1)], {2: 9000, 1: -8000},
                       aka=1, limit="mangan"))
    game = Game(file="", ref=None, names=["Aoi", "Botan", "Chika", "Daichi"], kyokus=hands,
                final_scores=[25900, 15500, 35500, 23100], final_points=[5.9, -44.5, 55.5, -16.9])
    return game, EAST_KEY


def sanma_east() -> tuple[Game, str]:
    hands = []
    # E1-0: the dealer's 14th tile is a north: it sets it aside, lets the replacement go, declares riichi a turn
    # later (3p4p) and wins by tsumo on 5p: riichi, menzen tsumo, the north = 3 han; 20 + tsumo 2 + a closed
    # terminal pon 8 = 30 fu: 2,000 from each of the two others (tsumo loss), its own stick back.
    p = Play(3, 0, 0, 0, [35000] * 3, dora="9s", ura="8s", hands={0: "111p234s678s99m34p"}, first="4z",
             protect="2p5p", seed=6)
    p.kita(0)
    p.draw(0, rinshan=True)
    p.discard(0)
    p.fill(0)
    p.turn(0, riichi=True)
    p.fill(0)
    p.turn(0)
    p.fill(0)
    p.draw(0, "5p")
    hands.append(p.win("tsumo", 0, 3, 30, 4000, [("riichi", 1), ("menzen_tsumo", 1)], {0: 5000, 1: -2000, 2: -2000},
                       kita=1))
    # E1-1: the dealer lets its 14th tile, hatsu, go; seat 2 pons it, lets 3z go and rons the dealer's 1m
    # (5s / 1m): hatsu 1 han; 20 + open honour pon 4 + the 1m pon won on 4 = 28 -> 30 fu: 1,000 + 200 honba.
    p = Play(3, 0, 1, 0, [39000, 33000, 33000], dora="4p", hands={2: "66z123p789s55s11m3z"}, first="6z",
             protect="5s1m", seed=7)
    p.discard(0)
    p.call(2, "pon", "66z")
    p.discard(2, "3z")
    p.turn(0)
    p.fill(0)
    p.turn(0, draw="1m", discard="1m")
    hands.append(p.win("ron", 2, 1, 30, 1000, [("hatsu", 1)], {2: 1200, 0: -1200}))
    # E2-0 (dealer 1): seat 0 is tenpai on 7z alone, the wall runs out: 1,000 from each of the others.
    p = Play(3, 1, 0, 0, [37800, 33000, 34200], dora="1z", hands={0: "123p456p789p123s7z"}, protect="7z", seed=8)
    p.discard(1)
    p.exhaust()
    hands.append(p.drawn_out([0], {0: 2000, 1: -1000, 2: -1000}))
    # E3-1 (dealer 2; honba 1 after the draw): seat 0 declares riichi on 3s4s and rons seat 1's 2s: riichi and
    # pinfu, 2 han 30 fu: 2,000 + 200 honba, its own stick back. Seat 0 ends at 42,000: the game ends.
    p = Play(3, 2, 1, 0, [39800, 32000, 33200], dora="7z", ura="1z", hands={0: "234p567s678p99m34s"},
             protect="2s5s", seed=9)
    p.discard(2)
    p.turn(0)
    p.fill(0)
    p.turn(0, riichi=True)
    p.fill(0)
    p.turn(0)
    p.turn(1, draw="2s", discard="2s")
    hands.append(p.win("ron", 0, 2, 30, 2000, [("riichi", 1), ("pinfu", 1)], {0: 3200, 1: -2200}))
    game = Game(file="", ref=None, names=["Emi", "Fuji", "Gin", ""], kyokus=hands, players=3,
                final_scores=[42000, 29800, 33200, 0], final_points=[37.0, -30.2, -6.8, 0.0])
    return game, SANMA_KEY


def main() -> None:
    for name, (game, key) in {"east_4p.json": east_4p(), "sanma_east.json": sanma_east()}.items():
        text = json.dumps(record_of(game, key), ensure_ascii=False, indent=1)
        (HERE / name).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
