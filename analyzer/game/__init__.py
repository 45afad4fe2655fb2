"""The game model over hand rows: replay order, running scores, problem codes, game end, per-game rules and the games table."""
