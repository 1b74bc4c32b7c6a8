# The README's two commands: `make run` and `make test`. Both (re)create .venv and install the project.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench interop dist clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Reinstall when the dependency list changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/advisor gui

lint: $(STAMP)
	$(BIN)/ruff check advisor ui tests bench tools

# Headless: Qt's offscreen platform, no display needed.
test: $(STAMP) lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider

bench: $(STAMP)
	for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# Opt-in (not CI): a real llama.cpp server on 127.0.0.1 with a tiny random-weight model; see tools/interop/.
interop: $(STAMP)
	bash tools/interop/run.sh

# Wheel + sdist into dist/, then install the wheel into a fresh virtualenv away from the checkout and use it.
dist: $(STAMP)
	$(BIN)/python tools/dist_smoke.py --out dist

clean:
	rm -rf $(VENV) .interop .pytest_cache .ruff_cache build dist *.egg-info
