"""Mahjong Soul: raw game records and tensoul's tenhou.net/6 JSON read, with the rooms, ranks and yaku tables."""
