# The README's two commands, `make run` and `make test`, and `make docs`. Everything lives in .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
RUN_STAMP := $(VENV)/.installed-run
# Test-only JavaScript (axe-core for tests/edh_service/test_accessibility.py), pinned by package-lock.json.
NODE_STAMP := node_modules/.installed

.PHONY: test test-compiled compiled clean-compiled bench run venv clean peer-venv docs i18n

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(RUN_STAMP): requirements.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

$(STAMP): requirements.txt requirements-dev.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@ $(RUN_STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

venv: $(STAMP)

test: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m pytest

# The engine as `pip install .` builds it where a C compiler is: validator/ (and the pipeline) compiled by mypyc
# (the package's build backend, scripts/build_backend.py, run as a program), here in place
# beside its source, so the suite and everything run from this tree use it (`/readyz` says
# "engine": "compiled"). The editable install stays plain Python; a stale build fails the
# suite at once (tests/conftest.py). `make clean-compiled` removes it.
BUILD_BACKEND := scripts/build_backend.py
ENGINE_SOURCES := $(shell find validator -name '*.py') edh_service/pipeline.py $(BUILD_BACKEND) pyproject.toml
COMPILED_STAMP := build/.compiled-in-place
compiled: $(COMPILED_STAMP)
$(COMPILED_STAMP): $(ENGINE_SOURCES) | $(STAMP)
	$(BIN)/python -m scripts.build_backend --quiet build_ext --inplace
	@$(BIN)/python -c 'from validator import ENGINE; assert ENGINE == "compiled", ENGINE' \
	  || { echo "make compiled: the build gave no compiled engine (no C compiler or Python headers?)"; exit 2; }
	@# a change that leaves mypyc's C as it was (a docstring) relinks nothing: the library is current all the same
	touch validator/compiled__mypyc*.so
	mkdir -p build && touch $@

test-compiled: compiled $(NODE_STAMP)
	$(BIN)/python -m pytest

clean-compiled:
	find validator edh_service -name '*.so' -delete
	rm -f ./*__mypyc*.so $(COMPILED_STAMP)
	rm -rf build/temp.* build/lib.*

# The documentation site (mkdocs.yml): the tables generated from the code rewritten first
# (scripts/gen_docs.py), then built with --strict into site/, so a broken link fails.
docs: $(STAMP)
	$(BIN)/python -m scripts.gen_docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# The catalogs (edh_service/i18n): every text extracted (babel.cfg) into messages.pot, each
# language's .po updated from it (new texts empty, for translators), then compiled to .mo.
I18N := edh_service/i18n/translations
I18N_LANGS := es de fr it pt ja ko ru zh_Hans zh_Hant
i18n: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg -k msg -k nmsg:1,2 -k Term --no-location --sort-output \
	  --add-comments=Translators: --project=edh-deck-validator -o $(I18N)/messages.pot .
	@for lang in $(I18N_LANGS); do \
	  if [ -f $(I18N)/$$lang/LC_MESSAGES/messages.po ]; then \
	    $(BIN)/pybabel -q update --no-fuzzy-matching --ignore-obsolete -i $(I18N)/messages.pot -d $(I18N) -l $$lang; \
	  else $(BIN)/pybabel -q init -i $(I18N)/messages.pot -d $(I18N) -l $$lang; fi; \
	done
	$(BIN)/pybabel -q compile -d $(I18N)

# wrk drives the HTTP benchmarks: installed with apt-get as .ci/run installs what pip cannot
# (root and apt-get only; elsewhere the HTTP rows are skipped with a one-line message).
bench: $(STAMP)
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  echo "make bench: installing wrk (apt-get)" && export DEBIAN_FRONTEND=noninteractive && \
	  apt-get update -qq && apt-get install -y -qq wrk >/dev/null; } || true
	@$(MAKE) --no-print-directory peer-venv >/dev/null 2>&1 || echo "make bench: no Python 3.12+ for the peer's venv; its rows are skipped"
	@$(MAKE) --no-print-directory compiled >/dev/null 2>&1 || echo "make bench: no compiled engine (no C compiler?); the figures are plain Python's"
	$(BIN)/python -m bench

# The fastest peer, timed beside us by bench/bench_peer.py: mtg-mcp-server in its own venv
# (it needs Python 3.12 or newer: PEER_BASE_PYTHON, else python3.12/python3.13 on PATH or pyenv's).
PEER_VENV := .venv-peer
peer-venv: $(PEER_VENV)/.installed
$(PEER_VENV)/.installed: bench/peer-requirements.txt
	@base=""; for candidate in $${PEER_BASE_PYTHON:-} python3.13 python3.12 $$HOME/.pyenv/versions/3.1[23]*/bin/python; do \
	  if "$$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then base=$$candidate; break; fi; \
	done; \
	[ -n "$$base" ] || { echo "peer-venv: no Python 3.12+ found (set PEER_BASE_PYTHON)"; exit 2; }; \
	$$base -m venv $(PEER_VENV) && $(PEER_VENV)/bin/pip install --quiet -r bench/peer-requirements.txt && touch $@

# Card data first. CARD_DATA_FILE=PATH (a Scryfall bulk file: no internet needed) is imported
# into an empty store; otherwise Scryfall is asked whether its file is newer (a progress bar
# on a terminal; the names in other languages, a 390 MB file, are left to the service's
# background sync so they never delay it). If Scryfall can't be reached, `cards sync` says
# what to do and the service starts anyway: 503 with Retry-After until card data is
# loaded, retrying in the background. PORT (8000), HOST, WEB_CONCURRENCY: see
# edh_service/serving/gunicorn_conf.py.
CARD_DATA_FILE ?=
run: $(RUN_STAMP)
	@offline=$$($(BIN)/python -m edh_service.config CARD_DATA_OFFLINE) || exit 2; \
	if [ -n "$(CARD_DATA_FILE)" ]; then $(BIN)/cards import --if-empty "$(CARD_DATA_FILE)" || exit 2; \
	elif [ "$$offline" = true ]; then echo "make run: CARD_DATA_OFFLINE is set; not syncing card data"; \
	else $(BIN)/cards sync --no-names || echo "make run: card data sync failed (above); serving anyway"; fi
	@# A person reads these logs: plain text unless LOG_FORMAT says otherwise (Docker: JSON).
	LOG_FORMAT=$${LOG_FORMAT:-text} exec $(BIN)/gunicorn --config python:edh_service.serving.gunicorn_conf edh_service.serving.wsgi:app

clean: clean-compiled
	rm -rf $(VENV) node_modules site .mypy_cache
