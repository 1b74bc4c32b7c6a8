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

LINT := $(BIN)/ruff check advisor ui tests bench tools && $(BIN)/mypy
lint: $(TEST_STAMP)
	$(LINT)

# Headless: Qt's offscreen platform, no display needed. Four pytest processes side by side on the two cores: each of
# the two halves that ran before spent ~40 % of its time waiting (loopback servers, subprocesses, designed timeouts)
# with its core idle (docs/testing.md has the figures and how they were measured). Two processes run tests/core as
# on a headless GPU server, with Qt, pyqtgraph and ui/ absent (tests/conftest.py); two run everything else with Qt,
# offscreen. Each file runs in exactly one process (tests/core/test_make_test_split.py), and the files are split so
# that each process takes about as long alone (160-200 s), the compute-heavy ones beside those that mostly wait. The output of each follows when all are done;
# any failing fails the target.
PYTEST := QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider
QT_FREE_PYTEST := ADVISOR_TESTS_WITHOUT_QT=1 $(PYTEST) -p no:pytest-qt -W ignore::pytest.PytestConfigWarning
# Five robustness files that mostly wait (bounds, timeouts, stop signals: ~75 s of wall, ~4 s of CPU) and need no Qt.
# They ran Qt-free beside QT_FREE_SECOND until session 33; they now run in the Qt process of tests/ui (see below).
WAITING_ROBUSTNESS := tests/robustness/test_bounds.py tests/robustness/test_rate_duration.py \
                      tests/robustness/test_store_faults.py tests/robustness/test_stop_signals.py \
                      tests/robustness/test_rate_limit.py
# Qt-free, second process: the tests/core files that benchmark loopback servers and subprocesses, which mostly wait.
# Each of the four alone (2026-12-05, load ~2): Qt-free first 128 s wall / 130 s CPU (before the five robustness
# files joined it: ~70 s of wall, 4 s of CPU), second 237 s / 50 s (with those files); with Qt first 174 s / 89 s,
# second 161 s / 77 s. The five moved so that no part waits much longer alone than the others. The CI replay of
# 6b98bc8 (idle 2-core machine, the four side by side): first 299 s, second 181 s, with Qt 226 s and 239 s, so the
# five waiting robustness files went back beside the second's waiting files (~75 s of wall, ~4 s of CPU).
# The replay of 2f76c6c (364 / 287 / 286 / 300 s): the first computes without a pause (~296 s of CPU alone at load
# ~9) while the second mostly waits (~67 s of CPU), so four CPU-bound files of predictor and `advisor calc` CLI runs
# (~29 s of CPU, no plan cache shared with the first's plan files) moved to the second (session 22, docs/testing.md).
# The replay of a4bea630 (648 / 432 / 493 / 485 s): ~500 tests later the first was 216 s behind the second, so the
# predictor accuracy test (one test, 38 s of CPU: the simulator over every row of bench/predictor_accuracy.csv) and
# seven files of `advisor calc` runs (SGLang pools and ratios, the likely range, speculative decoding: ~13 s of CPU)
# moved to the second too; none reads the plan files' caches (session 27, docs/measurements/2026-12-06-test-time-27.md).
# The replay of cbd1b814 (650 / 622 / 581 / 578 s): four processes on two cores, so the wall is ~the suite's CPU / 2
# and moving files no longer helps; that CPU is the planner's simulator (Qt-free) and window builds and PDF layout
# (with Qt), and a run-wide cache shared by the four would save ~1 % of it (session 28,
# docs/measurements/2026-12-06-test-time-28.md).
# The replays of 308 / 403 / 273 / 283 s and 393 / 459 / 333 / 352 s (Qt-free first, second, tests/ui, rest): the
# second the slowest by 70-100 s both times, tests/ui the quickest. Measured on the loaded shared box (load 5-16,
# CI=true, per-test getrusage): the second 192.9 s of CPU, its five waiting robustness files 7.4 s of CPU but 120 s of
# its 1,407 s of test wall, so they moved to tests/ui's process (WAITING_ROBUSTNESS; session 33, docs/testing.md).
QT_FREE_SECOND := $(sort $(wildcard tests/core/test_ab_*.py tests/core/test_bench_*.py tests/core/test_telemetry_*.py \
                    tests/core/test_sim_server.py tests/core/test_sim_launcher.py tests/core/test_input_sim_server.py \
                    tests/core/test_quality_judge.py tests/core/test_runner_virtual_clock.py \
                    tests/core/test_sim_predict.py tests/core/test_cli_calc.py tests/core/test_unknown_architecture.py \
                    tests/core/test_scheduler_cost.py tests/core/test_predictor_accuracy_bench.py tests/core/test_sglang_*.py \
                    tests/core/test_likely_range28.py tests/core/test_speculative*28.py))
# With Qt, second process: the wizard's and the window shell's files (~40 s of CPU) beside the other tests/robustness
# files (mostly waiting on hostile servers), tests/dist and tests/interop; the first runs the rest of tests/ui and
# WAITING_ROBUSTNESS.
UI_SECOND := $(sort $(wildcard tests/ui/test_wizard*.py tests/ui/test_shell*.py))
UI_FIRST := $(filter-out $(UI_SECOND),$(sort $(wildcard tests/ui/test_*.py)))
# Lint runs beside the four, at the lowest priority (nice 19): its ~10 s of CPU (mypy from an empty cache) go into
# the moments a core is idle (a process waiting, the first ones done), instead of ~10 s before any test starts.
# PYTHONDONTWRITEBYTECODE unset: a shell that sets it (this project's CI box does) would make every `advisor`
# subprocess a test starts compile the modules it imports from source again (~0.35 s of CPU a `plan`, ~0.1 s a
# `calc`, measured session 32); unset, the first import writes __pycache__ (git-ignored) and the rest reuse it.
test: $(TEST_STAMP)
	@unset PYTHONDONTWRITEBYTECODE; logs=$$(mktemp -d); \
	nice -n 19 sh -c '$(LINT)' >$$logs/lint 2>&1 & lint=$$!; \
	$(QT_FREE_PYTEST) tests/core $(addprefix --ignore=,$(QT_FREE_SECOND)) >$$logs/core 2>&1 & core=$$!; \
	$(QT_FREE_PYTEST) $(QT_FREE_SECOND) >$$logs/core2 2>&1 & core2=$$!; \
	$(PYTEST) tests/ui $(WAITING_ROBUSTNESS) $(addprefix --ignore=,$(UI_SECOND)) >$$logs/ui 2>&1 & ui=$$!; \
	$(PYTEST) $(addprefix --ignore=,tests/core $(WAITING_ROBUSTNESS) $(UI_FIRST)) >$$logs/rest 2>&1; rest=$$?; \
	wait $$core; core_rc=$$?; wait $$core2; core2_rc=$$?; wait $$ui; ui_rc=$$?; wait $$lint; lint_rc=$$?; \
	echo "== lint: ruff, mypy"; cat $$logs/lint; \
	echo "== tests/core but QT_FREE_SECOND (Qt absent)"; cat $$logs/core; \
	echo "== QT_FREE_SECOND: the loopback and subprocess files of tests/core (Qt absent)"; cat $$logs/core2; \
	echo "== tests/ui but the wizard's and the shell's files, and $(WAITING_ROBUSTNESS)"; cat $$logs/ui; \
	echo "== every other test: the wizard's, the shell's, tests/robustness, tests/dist, … (with Qt)"; cat $$logs/rest; rm -rf $$logs; \
	echo "== exit: lint $$lint_rc, tests/core $$core_rc, QT_FREE_SECOND $$core2_rc, tests/ui $$ui_rc, the others $$rest"; \
	test $$lint_rc -eq 0 -a $$core_rc -eq 0 -a $$core2_rc -eq 0 -a $$ui_rc -eq 0 -a $$rest -eq 0

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
