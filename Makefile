# Two entry points for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint typecheck pytest bench fmt clean redis-server

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.run-installed

run: $(VENV)/.run-installed
	$(BIN)/resolver serve

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

# Debian's redis-server, for the tests of the shared LLM budget (a real Redis, never a fake).
# CI is a fresh machine where we are root; skipped when already installed.
redis-server:
	@command -v redis-server >/dev/null 2>&1 || { \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server; }

pytest: $(VENV)/.dev-installed redis-server
	$(BIN)/python -m pytest -q

test: lint typecheck pytest

fmt: $(VENV)/.dev-installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Every scenario against the fake LLM (< 5 min on 2 cores). Figures go to the untracked
# benchmarks/results-local/; `make bench BENCH_ARGS=--save` updates the committed
# benchmarks/results/, `BENCH_ARGS=--quick` gives the short runs.
BENCH_ARGS ?=
bench: $(VENV)/.dev-installed
	$(BIN)/python -m benchmarks run all $(BENCH_ARGS)

clean:
	rm -rf $(VENV) build dist .mypy_cache .pytest_cache .ruff_cache
