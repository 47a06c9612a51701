# Set-up and everyday commands (CONTRACT.md). Works on a bare Debian machine
# with Python 3.11+: system libraries for Qt come from scripts/system-deps.sh.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: install run serve test fuzz lint bench screenshots translations clean dist dist-test

$(STAMP): pyproject.toml scripts/system-deps.sh
	@bash scripts/system-deps.sh
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install -q --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
	@$(PY) -m pip install -q -e '.[test]' 2>&1 | grep -v "^WARNING: Location" || true
	@$(PY) -c "import PySide6, fastapi, sqlalchemy, qasync" || (echo "install failed" >&2; exit 1)
	@touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) -m app --demo

serve: install
	$(PY) -m app serve --demo --host 127.0.0.1 --port 8000

# Tests run in TEST_WORKERS processes (pytest-xdist, an idle worker steals queued tests): each test
# has its own database and server, and one process is bound to one core by Python's GIL.
# Three on two cores: the server, subprocess and Qt tests wait on each other often enough.
TEST_WORKERS ?= 3
PYTEST := QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist worksteal --durations=15

test: install
	$(PYTEST)
	@# With a PostgreSQL server (.ci/run starts one), the server tests run again on it, but for
	@# those decided before the database is reached (parsing, validation, the API document), and
	@# the searches, whose PostgreSQL path (ILIKE) differs from SQLite's (FTS5), and the platform side of each module's sync.
	@if [ -n "$$PLATFORM_TEST_POSTGRES_URL" ]; then \
		echo "server tests on PostgreSQL:"; \
		PLATFORM_TEST_BACKEND=postgres $(PYTEST) tests/api -m "not dialect_free" \
			tests/services/docs tests/services/support/test_support_search.py tests/sync/modules; \
	fi

# Schemathesis in depth, by hand and before a release (not part of make test): every phase, the
# stateful one following links it infers between operations (a made record's id into its reads,
# updates and deletes), FUZZ_EXAMPLES examples per operation, fuzzing and stateful runs going on
# for FUZZ_SECONDS. One process: the server and schemathesis's two workers share the two cores.
FUZZ_EXAMPLES ?= 20
FUZZ_SECONDS ?= 900
fuzz: install
	SCHEMATHESIS_PHASES=examples,coverage,fuzzing,stateful SCHEMATHESIS_MAX_EXAMPLES=$(FUZZ_EXAMPLES) \
	SCHEMATHESIS_MAX_TIME=$(FUZZ_SECONDS) QT_QPA_PLATFORM=offscreen \
		$(PY) -m pytest -q -s -p no:cacheprovider tests/api/test_openapi.py -k schemathesis

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy app views api services local_db
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(PY) scripts/check_module_imports.py

bench: install
	@# Plain scripts that print their figures (not part of make test's pass/fail).
	@for f in tests/bench/bench_*.py; do \
		echo "== $$f"; QT_QPA_PLATFORM=offscreen $(PY) $$f || exit 1; \
	done

screenshots: install
	@for w in login $$($(PY) -m views.workspaces) records:upgrade; do \
		QT_QPA_PLATFORM=offscreen $(PY) -m app screenshot --workspace $$w --out docs/screenshots/$$(echo $$w | tr : -).png || exit 1; \
	done

# The desktop's translations (docs/i18n.md): lupdate each views/i18n/<lang>/<package>.ts from the
# code (translations kept), then lrelease it to the .qm the app loads (committed).
translations: install
	$(PY) -m views.i18n update

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# The desktop for stations without Python: a one-folder PyInstaller build in dist/platform-station/
# (run dist/platform-station/platform-station; about 350 MB). PyInstaller comes from the `dist` extra.
dist: install
	$(PY) -m pip install -q $$($(PY) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['dist'])")
	$(VENV)/bin/pyinstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller packaging/platform-station.spec

# The built binary under Xvfb: --demo, sign in, a wedge scanner's scan, quit (tests/dist/).
dist-test: dist
	PLATFORM_DIST_TEST=1 QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider tests/dist
