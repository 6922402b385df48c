# paperscope: two commands for a new user: `make demo` and `make test`.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DB ?= demo-library.db
HOST ?= 127.0.0.1
PORT ?= 8000
export PAPERSCOPE_DB := $(abspath $(DB))

.PHONY: demo install ingest-examples serve test test-fast bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test,cluster,postgres,mcp]'
	touch $@

install: $(VENV)/.installed

ingest-examples: install
	$(BIN)/paperscope ingest examples/lists examples/proceedings
	$(BIN)/paperscope stats

## demo: set up, ingest the bundled example lists and serve the web UI
demo: ingest-examples
	$(BIN)/paperscope serve --host $(HOST) --port $(PORT)

## test: unit, integration and browser tests (installs Debian chromium when missing)
test: install
	bash scripts/ensure-chromium.sh
	PAPERSCOPE_TEST_POSTGRES=required $(BIN)/python -m pytest -q

test-fast: install
	$(BIN)/python -m pytest -q -m "not browser and not slow"

bench: install
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) $(DB) $(DB)-wal $(DB)-shm test-artifacts
