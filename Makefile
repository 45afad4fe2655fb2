# Quick start: `make run` scores sample_logs/ into out/; `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,dask]'
	touch $(STAMP) $@

run: $(STAMP)
	$(BIN)/analyzer score sample_logs/csv -o out --report out/report.html

# The report's browser tests need Debian's chromium: installed here when missing and we may (root with apt-get);
# quietly, and never failing the target (the tests skip with a reason without it).
test: $(TEST_STAMP)
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		{ apt-get install -y -qq chromium >/dev/null 2>&1 || \
		  { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1; }; }; } || true
	$(BIN)/python -m pytest

bench: $(TEST_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,dask,bench]'
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) out
