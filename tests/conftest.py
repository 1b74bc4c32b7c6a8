"""Test-wide settings: headless Qt, and no test ever touches the user's real settings or data."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import gc  # noqa: E402
import itertools  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
from importlib.abc import MetaPathFinder  # noqa: E402

# `make test` starts tests/core as a background job of a non-interactive shell, which starts it with SIGINT ignored;
# an ignored signal is inherited through exec, so every `advisor bench` a test starts would ignore the Ctrl+C the
# test sends it. A handler (not an ignore) is reset to the default at exec: the children get Ctrl+C as a user's do.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

import pytest  # noqa: E402
from hypothesis import settings as _hypothesis_settings  # noqa: E402

# CI (`CI=true bash .ci/run`) draws the property tests' examples from a fixed seed, so a landing never passes or
# fails by the luck of a random draw; a developer's run keeps drawing anew (and keeps what it found in
# .hypothesis/). Cases a random draw found are pinned with @example where they were found.
_hypothesis_settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    _hypothesis_settings.load_profile("ci")

# `make test` runs tests/core as a headless GPU server would: with Qt, pyqtgraph and the UI package absent (the
# core must work without them). An import of any of them fails as a missing module does.
QT_FREE_PACKAGES = frozenset({"PySide6", "shiboken6", "pyqtgraph", "ui", "pytestqt"})


class _AbsentQt(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in QT_FREE_PACKAGES:
            raise ModuleNotFoundError(f"No module named {name!r} (tests/core runs without Qt)", name=name)
        return None


_QT_ABSENT = os.environ.get("ADVISOR_TESTS_WITHOUT_QT") == "1"
if _QT_ABSENT:
    sys.meta_path.insert(0, _AbsentQt())
    # Fewer collections while a test runs: each test's garbage is collected when it is torn down (below), so a
    # generation-0 pass every 700 allocations mostly walks live plan objects to free nothing. 20,000 / 50 / 1,000:
    # the collector's time on the two big plan files 1.14–1.21 → 0.48–0.53 s, 3,429 → 446 collections
    # (docs/measurements/2026-12-06-test-time-26.md). The simulator holds the collector off by itself.
    gc.set_threshold(20_000, 50, 1_000)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """Where Qt is absent, once a test is torn down: collect its garbage, then freeze what survives (modules, the
    session's plan and level caches, the catalogs, module-scoped fixtures) out of later collections, as the Qt
    processes do after every test (tests/ui/conftest.py). The session's caches grow to most of the heap, and each
    full collection walked all of it: 71 of them took 17.8 s of the Qt-free first process's ~280 s of CPU (gc
    callbacks, at load ~10; docs/measurements/2026-12-05-test-time-24.md). After a freeze a collection walks only
    what the test made; a collection of nothing new costs ~0.1 µs. What is frozen is never collected, so a frozen
    object that later becomes cyclic garbage stays in memory: peak memory was unchanged (480 MB on 1,045 tests)."""
    yield
    if _QT_ABSENT:
        gc.collect()
        gc.freeze()


@pytest.fixture(scope="session")
def _user_dirs_root(tmp_path_factory):
    """Where the user directories of tests that do not ask for ``tmp_path`` go (one numbered folder per test)."""
    return tmp_path_factory.mktemp("user-dirs", numbered=False)


_user_dirs_made = itertools.count()


@pytest.fixture(autouse=True)
def _isolated_user_dirs(request, _user_dirs_root, monkeypatch):
    """Point every platformdirs location (config, data, cache, state, log) at a folder of this test's own: under
    ``tmp_path`` when the test uses it (a test may look there), else a fresh numbered folder of the session's. Not
    ``tmp_path`` for every test: pytest makes it by numbering a folder and re-pointing a symlink, ~1 ms of CPU and
    up to ~6 ms of wall a test on a busy disk, over the 6,400 tests of tests/core (docs/testing.md, session 22).

    The numbered folder is only named, not made: nothing but the environment knows its path, and whatever writes
    there makes its folder first (``advisor.paths`` does; so do pip, fontconfig and the Hugging Face caches). Six
    folders made for each of ~8,000 tests, and removed again when pytest prunes old runs, cost ~1.5 ms of CPU a test
    (docs/testing.md, session 23). A test with ``tmp_path`` still finds the folders made there."""
    if "tmp_path" in request.fixturenames or "tmpdir" in request.fixturenames:
        base, make = request.getfixturevalue("tmp_path"), True
    else:
        base, make = _user_dirs_root / str(next(_user_dirs_made)), False
    home = base / "home"
    for var, sub in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ):
        path = home / sub
        if make:
            path.mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv(var, str(path))
    monkeypatch.setenv("ADVISOR_HOME", str(home / "advisor"))
    yield


@pytest.fixture(scope="session", autouse=True)
def _plan_levels_kept_for_the_session():
    """The planner keeps every predictor level this session simulates, not the app's last 512
    (tests/support/plan_caches.py says why and how the cold path is still tested)."""
    from tests.support.plan_caches import keep_levels_for_the_session

    keep_levels_for_the_session()


@pytest.fixture
def cold_plan_caches():
    """The planner's caches empty for this test (a cold plan), the session's put back afterwards."""
    from tests.support.plan_caches import caches_set_aside

    with caches_set_aside():
        yield


@pytest.fixture(autouse=True)
def _english_by_default():
    """Each test starts in English; tests that need Chinese switch explicitly."""
    from advisor import i18n

    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture(autouse=True)
def _plans_before_ovs44(request):
    """A file marked ``pytestmark = pytest.mark.before_ovs44`` pins machinery whose example plans (q05, q13, q34,
    q37, q25) review 35's overseas-node rules now plan otherwise: its plans are made as before them
    (``tests.support.planned.before_ovs44``); tests/core/test_ovs44.py pins the rules. One fixture here instead of a
    copy in each such file (duplicates --change, session 42)."""
    if request.node.get_closest_marker("before_ovs44") is None:
        yield
        return
    from tests.support.planned import before_ovs44

    with before_ovs44():
        yield


@pytest.fixture
def benchmark_page(qtbot, tmp_path):
    """The real Benchmark page, shown, storing its runs in a database under tmp_path; stopped afterwards.
    (Here, not in tests/ui/conftest.py, because the opt-in tests/interop use it too.)"""
    from ui.pages.benchmark import BenchmarkPage
    from ui.workers import TaskRunner

    runner = TaskRunner()
    p = BenchmarkPage(runner, db_path=tmp_path / "bench.sqlite3")
    qtbot.addWidget(p)
    p.resize(1300, 850)
    p.show()
    yield p
    p.stop()
    runner.shutdown()


@pytest.fixture
def at_loose_tpot():
    """Plans made in the test assume P99 ≤ 100 ms a token for a public chat with no TPOT target, as before s36-chat50
    (``tests.support.planned.loose_tpot`` says which tests take it and why)."""
    from tests.support.planned import loose_tpot

    with loose_tpot():
        yield
