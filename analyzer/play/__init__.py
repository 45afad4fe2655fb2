"""How each player plays, from the events of every game: the seats' concealed tiles after every event as suit
codes (:mod:`.state`), their shanten and waits (:mod:`.suits`, on the tables of :mod:`analyzer.tiles.shanten`),
and each hand and seat's facts of play (:mod:`.seats`, :mod:`.riichi`)."""
