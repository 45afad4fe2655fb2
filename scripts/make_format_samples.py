"""Write the sample game logs of every format under sample_logs/, for users to try the importers on.

    .venv/bin/python scripts/make_format_samples.py            # (re)write them
    .venv/bin/python scripts/make_format_samples.py --check    # exit 1 if a file differs from what it would write

Every game is hand-made for this project (so ours to ship), composed tile by tile by the fixture composers of
the test suite (``tests/data/<format>/compose.py``: each hand's value is worked out there), which this script
runs and writes here, so the samples and the tests' fixtures are one source:

* ``sample_logs/mjlog/yakuman_bust.mjlog``: Tenhou's XML (mjlog), one hand: the East-1 dealer's triple
  yakuman tsumo busts the other three and ends the game;
* ``sample_logs/tensoul/majsoul_east.json``: a four-player east-only Mahjong Soul game (Gold Room) as tensoul
  converts it to tenhou.net/6 JSON, six hands;
* ``sample_logs/tensoul/majsoul_sanma.json``: a three-player Mahjong Soul game (Gold Room, a north set aside),
  the same way;
* ``sample_logs/mjai/mortal_style.json``: an mjai log (one JSON event a line, as Mortal writes them), four
  hands of East 1: four winds, a draw, a double ron, a robbed kan. The log stops there, so it is a fragment.

The Tenhou JSON sample (``sample_logs/tenhou/sample_tonpuu.json``) has its own script,
``scripts/make_tenhou_sample.py``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"


def _composer(fmt: str):
    path = ROOT / "tests" / "data" / fmt / "compose.py"
    spec = importlib.util.spec_from_file_location(f"_compose_{fmt}", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT))  # the composers import analyzer from the checkout
    sys.modules[spec.name] = module  # their dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def samples() -> dict[Path, str]:
    """Each sample file (relative to sample_logs/) and its text, exactly as the composers write them."""
    mjlog, majsoul, mjai = _composer("mjlog"), _composer("majsoul"), _composer("mjai")

    def tensoul(game: dict) -> str:
        return json.dumps(game, ensure_ascii=False, separators=(",", ":")) + "\n"

    return {
        Path("mjlog/yakuman_bust.mjlog"): mjlog.triple_yakuman(),
        Path("tensoul/majsoul_east.json"): tensoul(majsoul.east_game()),
        Path("tensoul/majsoul_sanma.json"): tensoul(majsoul.sanma_game()),
        Path("mjai/mortal_style.json"): "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in mjai.mortal_style()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare: exit 1 if a file differs")
    args = parser.parse_args(argv)
    stale = []
    for relative, text in samples().items():
        path = SAMPLES / relative
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path.relative_to(ROOT)))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(path.suffix + ".tmp")
        temp.write_text(text, encoding="utf-8")
        temp.replace(path)
        print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("differ from what scripts/make_format_samples.py writes: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
