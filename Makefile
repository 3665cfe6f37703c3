# pasyans — every target creates the virtual environment from requirements.txt when missing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint lock upgrade i18n bench bench-server bench-web vendor-web clean

# .venv is made afresh from requirements.txt whenever the lock or pyproject.toml changes:
# every package at the exact version and hash the lock names (pip --require-hashes
# refuses anything else, a dependency missing from the lock included), then this
# project itself, editable, built by the locked setuptools without fetching anything.
$(BIN)/activate: pyproject.toml requirements.txt
	rm -rf $(VENV)
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -qq --require-hashes -r requirements.txt
	@# -qq: errors only. The editable install of a package whose parts live elsewhere
	@# (server.web = web/, server.rules = docs/games/) makes setuptools print a boxed
	@# note that is no warning ("careful with folders named like your package").
	$(BIN)/pip install -qq --no-deps --no-build-isolation -e .
	touch $(BIN)/activate

$(VENV): $(BIN)/activate

run: $(VENV)
	$(BIN)/pasyans-server serve

# Four worker processes, a test file each at a time (its module fixtures stay whole;
# tests/cluster and tests/races a directory each, for their shared deployment), the
# longest first (tests/durations.json; tests/conftest.py): tests spend more than a third
# of their time waiting on servers, browsers, sockets and paced clients, so workers
# beyond the two cores fill the idle time (measured quiet on this 2-core machine,
# 2026-12-07: 4 m 47 s with -n 3, 4 m 22 s with -n 4; docs/performance.md).
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE,
# set on this machine): without it every worker compiles the project and rewrites every
# test module's asserts again, and so does every server a test starts (a fifth of the
# suite's CPU: 2 m 47 s against 3 m 19 s, docs/history/performance-rounds.md).
test: $(VENV)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n 4 --dist loadfile --no-loadscope-reorder

LINTED := server client protocol tests bench deploy tools

# the catalogues (docs/i18n.md): the sources' new messages into every language's .po,
# then each compiled to .mo (Python) and web/i18n/LANG.json (the web client); the
# compiled files are committed, and tests/i18n checks they agree with the sources
i18n: $(VENV)
	$(BIN)/python -m tools.i18n extract
	$(BIN)/python -m tools.i18n

lint: $(VENV)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy $(LINTED)

# requirements.txt, resolved again by uv (itself locked) from pyproject.toml's ranges and
# tools/lock.in, for every platform and every Python the project supports (>= 3.11).
# `make lock` keeps each pin that still fits (after pyproject.toml changed); `make upgrade`
# takes the newest release of everything within the ranges, and
# `make lock LOCK_FLAGS='--upgrade-package redis'` one package. Then `make lint test`.
LOCK_FLAGS ?=
lock: $(VENV)
	$(BIN)/uv pip compile pyproject.toml tools/lock.in --extra dev --universal \
		--python-version 3.11 --generate-hashes --custom-compile-command 'make lock' \
		--quiet $(LOCK_FLAGS) -o requirements.txt

upgrade:
	$(MAKE) lock LOCK_FLAGS=--upgrade

bench: $(VENV)
	$(BIN)/python -m bench.engine

bench-server: $(VENV)
	$(BIN)/python -m bench.load_server

bench-web: $(VENV)
	$(BIN)/python -m bench.web

# the web client's vendored libraries, again from their npm tarballs (needs npm and node)
vendor-web:
	tools/vendor-web.sh

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
