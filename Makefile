# pasyans — every target creates the virtual environment from pyproject.toml when missing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint i18n bench bench-server bench-web vendor-web clean

$(BIN)/activate: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	@# -qq: errors only. The editable install of a package whose parts live elsewhere
	@# (server.web = web/, server.rules = docs/games/) makes setuptools print a boxed
	@# note that is no warning ("careful with folders named like your package").
	$(BIN)/pip install -qq -e '.[dev]'
	touch $(BIN)/activate

$(VENV): $(BIN)/activate

run: $(VENV)
	$(BIN)/pasyans-server serve

# Three worker processes, a test file each at a time (its module fixtures stay whole):
# tests spend about a third of their time waiting on servers, sockets, subprocesses
# and paced clients, so a third worker fills the two cores' idle time (measured quiet
# on this 2-core machine: 3 m 17 s with -n 2, 2 m 38 s with -n 3;
# docs/history/performance-rounds.md).
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE,
# set on this machine): without it every worker compiles the project and rewrites every
# test module's asserts again, and so does every server a test starts (a fifth of the
# suite's CPU: 2 m 47 s against 3 m 19 s, docs/history/performance-rounds.md).
test: $(VENV)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n 3 --dist loadfile

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
