"""`python -m benchmarks`: run every benchmark with its default size."""

from benchmarks import tiles

if __name__ == "__main__":
    tiles.main([])
