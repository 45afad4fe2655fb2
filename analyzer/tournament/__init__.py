"""Tournaments: game-level score sheets, standings, sessions and teams."""
