# Set-up and everyday commands. `make run` and `make test` work on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TRAIN_STAMP := $(VENV)/.train-installed
BENCH_STAMP := bench/.venv/.installed

.PHONY: run test lint typecheck unit bench install clean web-deps loadtest

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q --upgrade pip
	$(PY) -m pip install --disable-pip-version-check -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# The [train] extra (sb3-contrib, torch, matplotlib) for examples/train_gin.py, whose smoke
# run is part of the tests. torch is pinned to 2.13.0, the CPU build (about 30 s to install
# from the local wheel; anything unpinned pulls a multi-GB CUDA build).
$(TRAIN_STAMP): $(STAMP)
	$(PY) -m pip install --disable-pip-version-check -q -e '.[test,train]'
	touch $(TRAIN_STAMP)

# The web client's Preact and htm, and its linters (ESLint, TypeScript), from the npm
# registry as locked in package-lock.json.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@

# Browser tests drive Debian's Chromium (never a downloaded build).
/usr/bin/chromium:
	apt-get update -q && apt-get install -y -q chromium

web-deps: node_modules/.package-lock.json /usr/bin/chromium

run: $(STAMP) node_modules/.package-lock.json
	$(VENV)/bin/deadwood-knock serve

# The web client's JavaScript: ESLint (eslint.config.mjs) and TypeScript checking the
# modules' JSDoc types (tsconfig.json; the service worker's scope in tsconfig.sw.json).
lint: $(STAMP) node_modules/.package-lock.json
	$(VENV)/bin/ruff check src tests examples bench
	$(VENV)/bin/ruff format --check src tests examples bench
	node_modules/.bin/eslint .
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.sw.json

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP) $(TRAIN_STAMP) web-deps $(BENCH_STAMP)
	$(VENV)/bin/pytest

test: lint typecheck unit

# The peers live in their own environment, bench/.venv, so they never touch .venv.
# The tests use it too: they check our evaluators agree with the peers on the same hands.
$(BENCH_STAMP): pyproject.toml bench/requirements.txt
	test -x bench/.venv/bin/python || $(PYTHON) -m venv bench/.venv
	bench/.venv/bin/python -m pip install --disable-pip-version-check -q -e '.[rl]' -r bench/requirements.txt
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	bench/.venv/bin/python bench/run.py

# The server under load (bench/loadtest.py): players against greedy bots, one table row each.
# LOAD_DB=postgresql+asyncpg://… for PostgreSQL; LOAD_REDIS=redis://… with LOAD_PROCESSES=2
# (several addresses) or LOAD_WORKERS=2 (serve --workers 2, one address).
LOAD_PLAYERS ?= 100
LOAD_THINK ?= 0
LOAD_SECONDS ?= 30
LOAD_PROCESSES ?= 1
LOAD_WORKERS ?= 1
LOAD_DB ?=
LOAD_REDIS ?=
loadtest: $(STAMP) node_modules/.package-lock.json
	$(PY) bench/loadtest.py --players $(LOAD_PLAYERS) --think $(LOAD_THINK) \
		--seconds $(LOAD_SECONDS) --processes $(LOAD_PROCESSES) --workers $(LOAD_WORKERS) \
		$(if $(LOAD_DB),--database-url $(LOAD_DB)) $(if $(LOAD_REDIS),--redis-url $(LOAD_REDIS))

clean:
	rm -rf $(VENV) bench/.venv .mypy_cache .pytest_cache .ruff_cache
