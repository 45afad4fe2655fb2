"""The ruleset: every option that changes a score or a game result, in one place.

A rule that is not a field of :class:`Rules` does not exist anywhere else in the code. Presets are plain TOML
files in ``analyzer/core/presets/`` (each cites its sources); a user's TOML file may start from a preset with
``preset = "NAME"`` and override any option.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from analyzer.core.uma_values import MAX_POINTS, floating_uma, uma_row, uma_text


class RulesError(ValueError):
    """A ruleset name, file or option value that cannot be used."""


def _opt(default: Any, doc: str, choices: tuple | None = None) -> Any:
    return field(default=default, metadata={"doc": doc, "choices": choices})


@dataclass(frozen=True)
class Rules:
    """One ruleset. Every option is documented beside its default; ``analyzer rules show NAME`` prints them."""

    name: str = _opt("custom", "Name shown in reports.")

    # --- Players -------------------------------------------------------------------------------------
    players: int = _opt(
        4,
        "Players at the table: 4, or 3 (sanma: seats 0-2, rounds E1-E3, S1-S3, ..., no seat 3, the 2-8 of "
        "characters removed, no chi, north tiles set aside as dora).",
        (3, 4),
    )
    tsumo_loss: str = _opt(
        "lost",
        "Three players, a tsumo: the share the missing fourth player would pay is 'lost' (tsumo-zon: each of the "
        "two payers pays what they would at a four-player table) or 'split' (north-bisection: the missing "
        "non-dealer share, base points x1 for a non-dealer winner or x2 for the dealer, is halved, rounded up to "
        "100 and added to each payer's share). Four players: not used.",
        ("lost", "split"),
    )

    # --- Points and game result -------------------------------------------------------------------
    start_points: int = _opt(25000, "Points each player starts with.")
    return_points: int = _opt(
        30000,
        "Target ('return') points: game points are (final - return)/1000; the difference to start_points, "
        "times the number of players, is the oka paid to first place.",
    )
    uma: tuple[float, ...] = _opt(
        (20.0, 10.0, -10.0, -20.0), "Uma for places 1-4 (1-3 with three players), in game points."
    )
    floating_uma: tuple[tuple[float, ...], ...] = _opt(
        (),
        "Uma that depends on how many players finish below return_points (their final score, leftover sticks "
        "included): one row of places 1-4 (1-3) for each count 0-4 (0-3), in order; used instead of uma when "
        "given (Tenhou's custom lobbies, riichi.wiki 'Oka and uma': floating uma). Spec form: rows of uma, "
        "'15/5/-5/-15,35/-5/-10/-20,...'; empty: none.",
    )
    tie_rule: str = _opt(
        "seat",
        "Equal final scores: 'seat' ranks by initial seat (East-1 dealer first); 'split' shares the place "
        "(both get the better one) and splits uma and oka evenly.",
        ("seat", "split"),
    )
    leftover_sticks: str = _opt(
        "first",
        "Riichi sticks still on the table at game end: 'first' go to first place (split between players "
        "sharing first, each share floored to 100), 'lost' vanish.",
        ("first", "lost"),
    )
    game_points_rounding: str = _opt(
        "exact",
        "'exact' keeps (final - return)/1000 as is; 'tenth' rounds game points to 0.1; 'tenhou' rounds the "
        "score of places 2-4 to 1000 (a remainder of 500 or less goes down) and gives first place the negative "
        "sum of the others.",
        ("exact", "tenth", "tenhou"),
    )

    # --- Game end ----------------------------------------------------------------------------------
    game_length: str = _opt("hanchan", "Rounds played: 'hanchan' (East and South, to S4) or 'east' (to E4).",
                            ("hanchan", "east"))
    tobi: str = _opt(
        "off",
        "Bust: the game ends at once when a score drops 'below_zero' (exactly zero plays on), at 'zero_or_below', "
        "or never ('off').",
        ("off", "below_zero", "zero_or_below"),
    )
    west_extension: bool = _opt(
        False,
        "When nobody has extension_target after the last round, play goes on into the next wind (sudden death: "
        "the game ends after the first hand that leaves someone at extension_target or more and passes the deal, "
        "or where the dealer keeps it as top with extension_target or more, as in the last round; at the latest "
        "after four more rounds).",
    )
    extension_target: int = _opt(
        30000, "With west_extension: the points someone needs for the game to end after its last round, and the "
        "all-last dealer to stop. Not return_points: Mahjong Soul counts game points from 25000, ends at 30000."
    )
    last_dealer_stop: str = _opt(
        "none",
        "The all-last dealer who is top (with extension_target or more under west_extension; every extension hand "
        "is all-last) ends the game after winning ('agari': agari-yame), also after being tenpai at a draw "
        "('agari_tenpai': tenpai-yame), or plays on ('none').",
        ("none", "agari", "agari_tenpai"),
    )

    # --- Hand value --------------------------------------------------------------------------------
    limits: str = _opt(
        "standard",
        "'standard': base points fu x 2^(2+han) capped at mangan (2000), then the han limits; 'aotenjou': no cap "
        "and no limit names, base points fu x 2^(2+han) for every hand, each yakuman counted as 13 han on top of "
        "the hand's other han (riichi.wiki 'Aotenjou'; the English source 003: 'Yakuman are scored as 13-han "
        "yaku'); kiriage, kazoe and the yakuman options do not apply.",
        ("standard", "aotenjou"),
    )
    payment_rounding: int = _opt(
        100,
        "Each payment is rounded up to a multiple of this: 100 as usual; 1 pays base points x 1, 2, 4 or 6 "
        "exactly, as the aotenjou sources quote their examples (5 han 30 fu ron: 15,360).",
        (1, 100),
    )
    kiriage: bool = _opt(False, "Kiriage mangan: 4 han 30 fu and 3 han 60 fu are paid as mangan.")
    kazoe: str = _opt(
        "yakuman",
        "13+ han without yakuman: 'yakuman' (kazoe yakuman, never more than one) or 'sanbaiman'.",
        ("yakuman", "sanbaiman"),
    )
    yakuman_stacking: bool = _opt(True, "Several yakuman in one hand add up; if off a hand is worth one yakuman.")
    yakuman_max: int = _opt(6, "Cap on the number of yakuman a hand is paid for when they stack.")
    double_yakuman: bool = _opt(
        False,
        "Kokushi 13-wait, suuankou tanki, junsei chuuren and daisuushii count as two yakuman.",
    )
    honba_value: int = _opt(
        300, "Honba per counter on a ron; on a tsumo each payer pays an equal part of it (a third with four "
        "players, a half with three)."
    )
    riichi_deposit: int = _opt(1000, "Value of one riichi stick.")
    noten_total: int = _opt(3000, "Noten payments at an exhaustive draw, split between tenpai and noten players.")

    # --- Multiple ron ------------------------------------------------------------------------------
    multi_ron: str = _opt(
        "allowed",
        "'allowed': every winner is paid; 'atamahane': only the winner nearest the discarder in turn order "
        "(head bump); further winners are flagged and paid nothing.",
        ("allowed", "atamahane"),
    )
    triple_ron: str = _opt(
        "allowed",
        "'allowed': a triple ron is scored; 'abort': it is an abortive draw (a recorded triple ron is flagged).",
        ("allowed", "abort"),
    )
    multi_ron_honba: str = _opt(
        "nearest",
        "Honba in a multiple ron: 'nearest' winner from the discarder only, or 'each' winner.",
        ("nearest", "each"),
    )
    multi_ron_sticks: str = _opt(
        "nearest",
        "Riichi sticks in a multiple ron: 'nearest' winner takes all, or 'own_back' (each winner takes back "
        "the stick they put out this hand, the nearest winner takes the rest).",
        ("nearest", "own_back"),
    )

    # --- Draws -------------------------------------------------------------------------------------
    abortive_draws: bool = _opt(True, "Abortive draws exist (an 'abort' row is otherwise flagged).")
    nagashi: bool = _opt(True, "Nagashi mangan exists: paid as a mangan tsumo without honba, no noten payments.")

    # --- Liability (pao) ---------------------------------------------------------------------------
    pao_scope: str = _opt(
        "all",
        "What the liable player covers: 'all' of the hand (Tenhou) or only 'pao_yakuman', the yakuman that "
        "caused liability (Mahjong Soul; the rest is paid normally).",
        ("all", "pao_yakuman"),
    )
    pao_honba_payer: str = _opt(
        "liable",
        "Who pays honba on a pao ron: the 'liable' player or the 'discarder'.",
        ("liable", "discarder"),
    )

    # --- Chombo ------------------------------------------------------------------------------------
    chombo_payment: str = _opt(
        "none",
        "Table payment for a chombo: 'reverse_mangan' (a dealer pays 4000 to each; a non-dealer pays 4000 to "
        "the dealer and 2000 to the others) or 'none'.",
        ("none", "reverse_mangan"),
    )
    chombo_penalty: float = _opt(0.0, "Game points deducted per chombo after uma.")

    # --- Tile scoring (hands given as tiles) -------------------------------------------------------
    open_tanyao: bool = _opt(True, "Kuitan: tanyao counts in an open hand.")
    aka_dora: bool = _opt(True, "Red fives count as dora.")
    ura_dora: bool = _opt(True, "Ura dora count (for a riichi winner).")
    kan_dora: bool = _opt(True, "Further dora indicators (kan dora) count.")
    double_wind_pair_fu: int = _opt(4, "Fu for a pair of a wind that is both seat and round wind.", (2, 4))
    pinfu_tsumo_fu: bool = _opt(
        False, "Count the 2 tsumo fu on a pinfu tsumo (30 fu instead of 20), as some sources do."
    )
    rinshan_tsumo_fu: bool = _opt(True, "A rinshan kaihou win gets the 2 tsumo fu.")
    renhou: str = _opt(
        "none",
        "Renhou (ron before one's first draw): 'none', 'mangan' (a limit of mangan, or the hand if higher), "
        "or 'yakuman'.",
        ("none", "mangan", "yakuman"),
    )

    source: str = _opt("", "Where the preset's values come from.")

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            choices = f.metadata.get("choices")
            value = getattr(self, f.name)
            if choices is not None and value not in choices:
                raise RulesError(f"rule {f.name!r} must be one of {', '.join(map(str, choices))}; got {value!r}")
        if len(self.uma) != self.players:
            raise RulesError(
                f"rule 'uma' needs {self.players} values (places 1-{self.players}); got {list(self.uma)!r}"
            )
        if self.floating_uma and (len(self.floating_uma) != self.players + 1
                                  or any(len(row) != self.players for row in self.floating_uma)):
            raise RulesError(f"rule 'floating_uma' needs {self.players + 1} rows of {self.players} numbers")
        if self.yakuman_max < 1:
            raise RulesError("rule 'yakuman_max' must be at least 1")

    # --- derived values ----------------------------------------------------------------------------
    @property
    def oka(self) -> float:
        """Oka paid to first place, in game points."""
        return self.players * (self.return_points - self.start_points) / 1000

    @property
    def seats(self) -> range:
        """The seats at the table: 0-3, or 0-2 with three players."""
        return range(self.players)

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some options changed (unknown names raise :class:`RulesError`)."""
        return _build(dataclasses.asdict(self) | changes, where="override")

    def table(self) -> list[tuple[str, str, str]]:
        """(option, value, documentation) for every option, in declaration order."""
        rows = []
        for f in dataclasses.fields(self):
            doc = f.metadata.get("doc", "")
            if f.metadata.get("choices"):
                doc += f" [{' | '.join(map(str, f.metadata['choices']))}]"
            rows.append((f.name, _format_value(getattr(self, f.name)), doc))
        return rows


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value == ():  # floating_uma not set
        return "none"
    if isinstance(value, tuple) and isinstance(value[0], tuple):  # floating_uma: a row per count below
        return "; ".join(f"{below} below: {uma_text(row)}" for below, row in enumerate(value))
    if isinstance(value, tuple):
        return ", ".join(f"{v:g}" for v in value)
    return str(value)


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def _build(options: dict[str, Any], where: str) -> Rules:
    unknown = sorted(set(options) - set(_FIELDS))
    if unknown:
        raise RulesError(f"{where}: unknown rule option(s) {', '.join(unknown)}")
    values = dict(options)
    players = values.get("players", _FIELDS["players"].default)
    try:
        if "uma" in values:
            values["uma"] = uma_row(values["uma"], players)
        if "floating_uma" in values:
            values["floating_uma"] = floating_uma(values["floating_uma"], players)
    except ValueError as exc:
        raise RulesError(f"{where}: {exc}") from None
    for key, value in values.items():
        expected = type(_FIELDS[key].default)
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            values[key] = float(value)
        elif expected is not tuple and (
            not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool)
        ):  # true is not a number
            raise RulesError(f"{where}: rule {key!r} must be {_KINDS.get(expected, expected.__name__)}; got {value!r}")
    for key, value in values.items():
        numbers = value if isinstance(value, tuple) else (value,)
        if any(isinstance(v, (int, float)) and not isinstance(v, bool) and not math.isfinite(v) for v in numbers):
            raise RulesError(f"{where}: rule {key!r} must be a finite number; got {value!r}")
        if key in NON_NEGATIVE and not 0 <= value <= MAX_POINTS:
            raise RulesError(f"{where}: rule {key!r} must be between 0 and {MAX_POINTS:,}; got {value!r}")
    return Rules(**values)


_KINDS = {int: "a whole number", float: "a number", bool: "true or false", str: "text"}
# Numeric options that are amounts: never negative, and far below what would overflow a payment.
NON_NEGATIVE = {"start_points", "return_points", "extension_target", "yakuman_max", "honba_value", "riichi_deposit",
                "noten_total", "chombo_penalty", "double_wind_pair_fu"}


def preset_names() -> list[str]:
    """Names of the shipped presets."""
    return sorted(p.name[:-5] for p in resources.files("analyzer.core.presets").iterdir() if p.name.endswith(".toml"))


def preset_name(name: str) -> str:
    """The shipped preset ``name`` names, whatever its case (``Tenhou`` is ``tenhou``); unknown names as given."""
    folded = name.strip().lower()
    return folded if folded in preset_names() else name


def _read_preset(name: str) -> dict[str, Any]:
    name = preset_name(name)
    if name not in preset_names():  # only the packaged files, whatever the name holds ('../x', '[/]')
        raise RulesError(f"unknown ruleset {name!r}; presets are: {', '.join(preset_names())}")
    path = resources.files("analyzer.core.presets") / f"{name}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    base = data.pop("preset", None)  # a preset may start from another one (aotenjou from tenhou)
    if base is not None:
        if base == name or not isinstance(base, str):
            raise RulesError(f"preset {name}: 'preset' must name another preset")
        data = _read_preset(base) | data
    return data


def preset(name: str) -> Rules:
    """A shipped preset by name, in any case (see :func:`preset_names`)."""
    name = preset_name(name)
    return _build(_read_preset(name) | {"name": name}, where=f"preset {name}")


def from_toml(path: str | Path) -> Rules:
    """A ruleset from a TOML file: optional ``preset = "NAME"`` to start from, then any overrides."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RulesError(f"cannot read rules file {path}: {exc.strerror}") from exc
    except UnicodeDecodeError:
        raise RulesError(f"rules file {path} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"rules file {path} is not valid TOML: {exc}") from exc
    if not isinstance(data.get("preset", ""), str):
        raise RulesError(f"rules file {path}: preset must be the name of a preset")
    base = data.pop("preset", None)
    options = _read_preset(base) | {"name": base} if base else {}
    return _build(options | {"name": path.stem} | data, where=f"rules file {path}")


def _parse_value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def from_spec(spec: str) -> Rules:
    """A ruleset from a compact spec: a preset name, then ``;option=value`` overrides.

    This is the form the ``rules`` column of imported logs uses, e.g. ``tenhou;open_tanyao=false``.
    """
    name, *overrides = [part.strip() for part in spec.split(";")]
    options: dict[str, Any] = {}
    for item in overrides:
        key, sep, value = item.partition("=")
        if not sep:
            raise RulesError(f"rules spec {spec!r}: expected option=value, got {item!r}")
        if key.strip() in ("name", "source"):
            raise RulesError(f"rules spec {spec!r}: {key.strip()!r} is not a rule option")
        options[key.strip()] = _parse_value(value.strip())
    base = preset(name)
    if not options:
        return base
    head = spec.partition(";")[0]  # named as the preset is, whatever the case of the spec: Tenhou;aka_dora=false
    return base.replace(**options, name=spec if head.strip() == base.name else base.name + spec[len(head):])


def load_rules(spec: "str | Path | Rules | None", default: str = "tenhou") -> Rules:
    """A ruleset from a preset name or spec, a TOML path, an existing Rules, or None (the default preset)."""
    if isinstance(spec, Rules):
        return spec
    if spec is None:
        return preset(default)
    text = str(spec)
    if text.endswith(".toml") or Path(text).is_file():
        return from_toml(text)
    return from_spec(text)
