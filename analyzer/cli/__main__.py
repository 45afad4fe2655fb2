"""``python -m analyzer.cli`` (the benchmarks run the command line this way)."""

from analyzer.cli import main

main()
