"""Riichi City (麻雀一番街): its game records read (:mod:`.read`), its rooms' rules (:mod:`.rooms`), its yaku ids."""
