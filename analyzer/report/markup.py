"""Small pieces of markup every part of the page uses: formatted values, section anchors and links to them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape


def fmt_value(value, fmt: str | None) -> str:
    """``value`` as text: ``fmt`` a str.format pattern, ``"%"`` a rate shown in percent, None as it is; a
    missing value is a dash."""
    if value is None:
        return "–"
    if fmt is None:
        return str(value)
    if fmt == "%":
        return f"{100 * value:.1f}%"
    return fmt.format(value)


def anchor(kind: str, name: str) -> str:
    """A stable, safe id for a player's or a game's section."""
    return f"{kind}-" + re.sub(r"[^A-Za-z0-9_-]", lambda m: f"_{ord(m.group()):x}", name)


def link(kind: str, name: str | None) -> str:
    """A link to the section of a player or a game (empty text without a name)."""
    if name is None:
        return ""
    return f'<a href="#{escape(anchor(kind, name))}">{escape(name)}</a>'


@dataclass(frozen=True)
class Sections:
    """The players and games that have a section on the page (None: every one), so that a link is made only
    to a section that is there: a name without one is plain text."""

    players: frozenset[str] | None = None
    games: frozenset[str] | None = None

    def link(self, kind: str, name: str | None) -> str:
        if name is None:
            return ""
        shown = self.players if kind == "player" else self.games
        if shown is not None and name not in shown:
            return f'<span class="unlisted" title="no section on this page">{escape(name)}</span>'
        return link(kind, name)

    def player(self, name: str | None) -> str:
        return self.link("player", name)

    def game(self, name: str | None) -> str:
        return self.link("game", name)


EVERY_SECTION = Sections()
