"""analyzer: batch scoring of Riichi mahjong hand records."""
