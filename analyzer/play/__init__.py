"""How each player plays, from the events of every game: the seats' concealed tiles after every event, their
shanten and waits (:mod:`analyzer.tiles.shanten`)."""
