# Every target installs what it needs first, so each one works on a fresh machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# a second environment with the solver alone (no python-telegram-bot): tests/solver must pass there
SOLVER_VENV := .venv-solver

.PHONY: run test browser test-fast test-solver-alone bench lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# the compiled core (solver/native): the install builds it, so a change to its sources reinstalls
NATIVE := setup.py $(wildcard solver/native/*.c solver/native/*.h)

$(STAMP): pyproject.toml deploy/constraints.txt $(NATIVE) | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[bot,dev]' --constraint deploy/constraints.txt
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot $(ARGS)

test: $(STAMP) browser
	$(PY) -m ruff check solver bot tests bench
	$(PY) -m mypy solver bot
	$(PY) -m pytest

# Debian's chromium and its chromedriver, for the Mini App's browser test
# (tests/e2e/test_webapp_browser.py): installed with apt when missing (CI runs as root)
browser:
	@test -x /usr/bin/chromium -a -x /usr/bin/chromedriver || \
		{ apt-get update && apt-get install -y --no-install-recommends chromium chromium-driver; }

# the inner loop: everything but the tests marked slow, the second backend (PostgreSQL) and the
# real bot process (tests/e2e),
# spread over the CPUs; `make test` still runs it all
test-fast: $(STAMP)
	$(PY) -m ruff check solver bot tests bench
	$(PY) -m pytest -m "not slow" -k "not postgres" -n auto tests/solver tests/bot tests/demo tests/deploy

test-solver-alone:
	rm -rf $(SOLVER_VENV)
	$(PYTHON) -m venv $(SOLVER_VENV)
	$(SOLVER_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(SOLVER_VENV)/bin/python -m pip install --quiet -e '.[solver-test]'
	$(SOLVER_VENV)/bin/python -c "import importlib.util as u, sys; \
		sys.exit('python-telegram-bot is installed' if u.find_spec('telegram') else 0)"
	$(SOLVER_VENV)/bin/python -m pytest -p no:cacheprovider -W ignore::pytest.PytestConfigWarning tests/solver

bench: $(STAMP)
	$(PY) bench/run_all.py $(ARGS)

lint: $(STAMP)
	$(PY) -m ruff check solver bot tests bench
	$(PY) -m mypy solver bot

clean:
	rm -rf $(VENV) $(SOLVER_VENV) .pytest_cache .mypy_cache .ruff_cache
