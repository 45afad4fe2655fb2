"""What a Tenhou lobby's custom rules say (``csrule``: mjlog ``GO csrule="…"``, or a tenhou.net/6 JSON log's
``rule`` given as a list of the same fields): :func:`read_csrule`, the rule options it gives and, by name, every
field it holds that is not decoded here.

The fields are comma-separated; the layout below is what the sources show, each field by its number (1-based):

============ ==================================================================================================
field 1, 2   hexadecimal switches (``0FE0BF0B``, ``0000001F`` in the one log we have): not decoded
field 5      the points everyone starts with (``start_points``)
field 6      the return points (``return_points``)
fields 22-36 the uma table: five rows of three numbers, the uma of places 2, 3 and 4 when 0, 1, 2, 3 or 4
             players finish below the return points; first place takes minus the sum of the others' uma.
             Three players: rows 0-3, places 2 and 3 (a row's third number empty or 0)
any other    not decoded (field 7, ``30000`` in the one log we have, among them)
============ ==================================================================================================

Sources, each for what it shows:

* dnovikoff/tenhou's ``log/test_data/newattr2023.xml`` (also the project's shared log of that name): a game of a
  Tenhou-hosted lobby, ``csrule="0FE0BF0B,0000001F,,,30000,30000,30000,,…,,5,-5,-15,5,-5,-15,5,-5,-15,5,-5,-15,
  5,-5,-15,,,,"``, everyone starting with 30,000, its recorded game points (``owari``) those of 30,000 returned
  at 30,000, uma +15/+5/-5/-15, tied places sharing their uma (two seats tied at 30,700 get +10.7 each);
* the rules that lobby states (Equim-chan/mjai-reviewer issue 161, the "ronron" lobby on Tenhou: 30,000 points
  returned at 30,000, uma +15/+5/-5/-15, tied players sharing the uma of their places);
* riichi.wiki, "Oka and uma", section "Floating uma": the uma of a place may depend on how many players are
  above and below the target score, first or last place taking what keeps the sum at zero, as a Tenhou log
  linked there shows; the issue this reader was written for (the project's issue 41) gives the table's rows by
  the number of players below the return points and first place's uma as what the others' leave.

Tenhou's own description of the lobby rule fields was looked for (the corpora of public documentation, pages,
code and issues the project can search: "tenhou csrule", "天鳳 個室 ルール csrule", "tenhou lobby rule flags",
"天鳳 大会ロビー 拡張ルール" and others) and not found, so the switches of fields 1 and 2 (red fives, open
tanyao, nagashi mangan, the renchan and game-end rules among them, by the issue) are not decoded: a game whose
``csrule`` holds them is scored under the rules its log type and Tenhou's rules give, and the note says which
fields were not read. A field's value is never taken for a default: what is not decoded is named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from analyzer.core.uma_values import MAX_POINTS, uma_text

START, RETURN = 4, 5  # 0-based: fields 5 and 6
UMA_TABLE = 21  # 0-based: field 22, the first of 5 rows x 3
UMA_ROWS, UMA_COLUMNS = 5, 3


@dataclass(frozen=True)
class CustomRules:
    """What a ``csrule`` gives: rule options (as :meth:`Rules.replace` takes them), what was read (text) and
    what was not (text, each field by number and value)."""

    options: dict = field(default_factory=dict)
    read: list[str] = field(default_factory=list)
    undecoded: list[str] = field(default_factory=list)


def csrule_fields(rule: list) -> str:
    """A tenhou.net/6 JSON log's ``rule`` list as the ``csrule`` text it stands for: numbers as written, an empty
    or null entry empty, true/false as 1/0, anything else as its JSON text (then named as not decoded)."""
    return ",".join(_field_text(v) for v in rule)


def _field_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = value if isinstance(value, (str, int, float)) else json.dumps(value, ensure_ascii=False)
    return str(text).replace(",", ";")  # a field holds no comma: one would shift the fields after it


def _number(text: str) -> int | None:
    """A whole number a rule can take (at most ``MAX_POINTS`` either way), else None."""
    try:
        value = int(text)
    except ValueError:
        return None
    return value if abs(value) <= MAX_POINTS else None


def read_csrule(text: str, players: int, first_hand_start: int | None = None) -> CustomRules:
    """The options of a ``csrule`` (see the module docstring) for a game of ``players``; ``first_hand_start``:
    the points the log's first hand starts with when it is the game's first (the start points are then already
    in the game's spec and are not given again unless the ``csrule`` says otherwise)."""
    fields = [f.strip() for f in text.split(",")]
    options: dict = {}
    read: list[str] = []
    used: set[int] = set()
    start = _number(fields[START]) if START < len(fields) else None
    if start is not None and 0 <= start:
        used.add(START)
        read.append(f"start_points {start}")
        if start != first_hand_start:
            options["start_points"] = start
    back = _number(fields[RETURN]) if RETURN < len(fields) else None
    if back is not None and 0 <= back:
        used.add(RETURN)
        read.append(f"return_points {back}")
        options["return_points"] = back
    uma, said = _uma_table(fields, players)
    if uma is not None:
        used.update(range(UMA_TABLE, UMA_TABLE + UMA_ROWS * UMA_COLUMNS))
        options |= uma
        options["tie_rule"] = "split"  # as the one lobby whose rules we know states (module docstring)
        read += [said, "tie_rule split"]
    undecoded = [f"field {i + 1} {v}" for i, v in enumerate(fields) if v and i not in used]
    return CustomRules(options, read, undecoded)


def _uma_table(fields: list[str], players: int) -> tuple[dict | None, str]:
    """The uma options of the table (fields 22-36) and what was read, as text; (None, "") when the table is
    empty or not complete for ``players`` (its fields are then named as not decoded)."""
    cells = [fields[i] if i < len(fields) else "" for i in range(UMA_TABLE, UMA_TABLE + UMA_ROWS * UMA_COLUMNS)]
    if not any(cells):
        return None, ""
    rows = [cells[r * UMA_COLUMNS: (r + 1) * UMA_COLUMNS] for r in range(players + 1)]
    # three players: each row's place-4 number and the row of four below mean nothing; they must say nothing
    unused = [c for r in rows for c in r[players - 1:]] + cells[(players + 1) * UMA_COLUMNS:]
    places = [[_number(c) if c else None for c in r[: players - 1]] for r in rows]
    if any(None in r for r in places) or any(c not in ("", "0") for c in unused):
        return None, ""
    full = [(float(-sum(r)), *map(float, r)) for r in places]
    if any(abs(u) > MAX_POINTS for r in full for u in r):
        return None, ""
    if all(r == full[0] for r in full):
        return {"uma": full[0]}, f"uma {uma_text(full[0])} (every row of its uma table)"
    text = ", ".join(f"{below} below: {uma_text(r)}" for below, r in enumerate(full))
    return {"floating_uma": tuple(full)}, f"floating_uma ({text})"
