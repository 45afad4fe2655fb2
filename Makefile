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

test: $(TEST_STAMP)
	$(BIN)/python -m pytest

bench: $(TEST_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,dask,bench]'
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) out
