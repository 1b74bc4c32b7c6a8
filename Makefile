# The README's commands: `make run`, `make test`, `make dist`. Each (re)creates .venv and installs what it needs:
# `run` only the app (what a user needs), the others the app plus the test tools (pytest, ruff, build).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
APP_STAMP  := $(VENV)/.installed-app
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test test-eval lint bench interop dist clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Reinstall when the dependency list changes.
$(APP_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $(APP_STAMP)

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(APP_STAMP) $(TEST_STAMP)

run: $(APP_STAMP)
	$(BIN)/advisor gui

lint: $(TEST_STAMP)
	$(BIN)/ruff check advisor ui tests bench tools
	$(BIN)/mypy

# Headless: Qt's offscreen platform, no display needed. Two pytest processes side by side (one per core), split so
# both end at about the same time (docs/testing.md says how it was measured): tests/core as on a headless GPU server,
# with Qt, pyqtgraph and ui/ absent (tests/conftest.py), and every other test (the app's pages, tests/robustness, the
# wheel, interop) with Qt. Each file runs in exactly one of the two. Measured 2026-12-04 (session 14), both halves
# side by side on a 2-core machine with little other load: Qt-free 471 s wall / 200 s CPU, the rest 436 s / 174 s
# (before its page fixtures and between-test collection were made cheaper: 541 s / 303 s). The Qt-free output
# follows when both are done; either failing fails the target.
PYTEST := QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider
# Five Qt-free robustness files that mostly wait (bounds, timeouts, stop signals: ~75 s of wall, ~4 s of CPU) run in
# the Qt-free half since session 15 made that half ~55 s shorter: measured per file in docs/testing.md.
QT_FREE_TESTS := tests/core tests/robustness/test_bounds.py tests/robustness/test_rate_duration.py \
                 tests/robustness/test_store_faults.py tests/robustness/test_stop_signals.py \
                 tests/robustness/test_rate_limit.py
test: $(TEST_STAMP) lint
	@log=$$(mktemp); \
	ADVISOR_TESTS_WITHOUT_QT=1 $(PYTEST) -p no:pytest-qt -W ignore::pytest.PytestConfigWarning $(QT_FREE_TESTS) >$$log 2>&1 & core=$$!; \
	$(PYTEST) $(addprefix --ignore=,$(QT_FREE_TESTS)); rest=$$?; \
	wait $$core; core_rc=$$?; \
	echo "== $(QT_FREE_TESTS) (Qt absent)"; cat $$log; rm -f $$log; \
	echo "== exit: Qt-free tests $$core_rc, other tests $$rest"; \
	test $$core_rc -eq 0 -a $$rest -eq 0

# The EvalScope path of the quantization A/B (the optional [eval] extra: EvalScope with transformers, datasets and
# pandas, ~1.5 GB, no torch) in a virtual environment of its own, so `make test` stays fast and its .venv stays what
# a user without the extra has. ADVISOR_REQUIRE_EVAL=1 turns the tests' "extra missing" skip into a failure.
# .ci/run runs it after `make test`; docs/testing.md has its install and run times.
EVAL_VENV  ?= .venv-eval
EVAL_BIN   := $(EVAL_VENV)/bin
EVAL_STAMP := $(EVAL_VENV)/.installed-eval
EVAL_TESTS := tests/core/test_ab_evalscope.py tests/ui/test_ab_quality.py::test_sample_size_hint_follows_the_drop \
              tests/ui/test_ab_task_dataset.py::test_the_page_runs_a_task_from_a_local_dataset_with_evalscope

$(EVAL_BIN)/python:
	$(PYTHON) -m venv $(EVAL_VENV)
	$(EVAL_BIN)/python -m pip install -q --upgrade pip

$(EVAL_STAMP): pyproject.toml | $(EVAL_BIN)/python
	$(EVAL_BIN)/python -m pip install -q -e '.[test,eval]'
	touch $(EVAL_STAMP)

test-eval: $(EVAL_STAMP)
	ADVISOR_REQUIRE_EVAL=1 QT_QPA_PLATFORM=offscreen $(EVAL_BIN)/python -m pytest -q -p no:cacheprovider -rs $(EVAL_TESTS)

bench: $(TEST_STAMP)
	for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# Opt-in (not CI): a real llama.cpp server on 127.0.0.1 with a tiny random-weight model; see tools/interop/.
interop: $(TEST_STAMP)
	bash tools/interop/run.sh

# Wheel + sdist into dist/, then install the wheel with the README's pipx line, away from the checkout, and use it.
dist: $(TEST_STAMP)
	$(BIN)/python tools/dist_smoke.py --out dist

clean:
	rm -rf $(VENV) $(EVAL_VENV) .interop .pytest_cache .ruff_cache build dist *.egg-info
