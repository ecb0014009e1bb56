# The README's commands: `make run` and `make test`. Everything lives in .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
RUN_STAMP := $(VENV)/.installed-run

.PHONY: test bench run venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(RUN_STAMP): requirements.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e . || $(BIN)/pip install --quiet --no-deps -e .
	touch $@

$(STAMP): requirements.txt requirements-dev.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e . || $(BIN)/pip install --quiet --no-deps -e .
	touch $@ $(RUN_STAMP)

venv: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m bench

run: $(RUN_STAMP)
	@echo "make run arrives with the HTTP API (issue 5)."

clean:
	rm -rf $(VENV)
