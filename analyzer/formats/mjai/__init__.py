"""mjai JSON lines (Mortal, akochan, mjai-reviewer): read and written."""
