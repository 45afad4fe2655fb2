"""`python -m benchmarks`: run every benchmark with its default size."""

from benchmarks import scale, tiles

if __name__ == "__main__":
    tiles.main([])
    tiles.main(["--e2e"])
    scale.main([])
