"""The error every input mistake is: one clear line, raised before anything is written."""

from __future__ import annotations


class InputError(Exception):
    """Input that cannot be read at all (missing file, unknown format, unreadable content, a missing column)."""
