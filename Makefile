# Every target installs what it needs first, so each one works on a fresh machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test bench lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot $(ARGS)

test: $(STAMP)
	$(PY) -m ruff check solver bot tests
	$(PY) -m mypy solver bot
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) tests/bench/run_all.py

lint: $(STAMP)
	$(PY) -m ruff check solver bot tests
	$(PY) -m mypy solver bot

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
