"""Shared pytest configuration: Hypothesis profiles, test order, the torch guard, shared fixtures.

Hypothesis profiles
-------------------
``ci`` (loaded by default) is deterministic: ``derandomize=True`` makes every run
try the same examples, so a green CI stays green and a red one stays red.
``ci-other-python`` is ``ci`` with a quarter of its examples (50 a test): nox
loads it in the test sessions of the Pythons other than ``noxfile.TORCH_PYTHON``,
where the same properties were checked on 200 examples; there they check that
the engine's code does on that interpreter what it does on the other, which
fewer examples show.  ``dev`` explores new random examples on every run, with
more of them; choose it with ``HYPOTHESIS_PROFILE=dev python -m nox -s tests``
(a profile set so is used on every Python).

PyTorch and microgpt tests
--------------------------
Tests marked ``torch`` compare with PyTorch.  nox runs them in one test
session and deselects them (``-m "not torch"``) in the others; they are never
skipped.  Tests marked ``microgpt`` compare with microgpt's model as published
(strands-microgpt), which every test session installs.  A run that selects
either where its package is not installed stops before any test runs, with an
error that says so.

Tests marked ``slow`` and ``no_cover``
--------------------------------------
A test marked ``slow`` runs first (see :func:`pytest_collection_modifyitems`).
pytest-cov leaves a test marked ``no_cover`` untraced (it is slow and adds no coverage);
:func:`pytest_runtest_call` makes sure of it on pytest-xdist's workers too.

Fixtures
--------
``original`` is the original micrograd 0.1.0, loaded from its verbatim files
(``original.py``); ``neuron`` builds the lecture's labelled neuron
(``labelled_neuron.py``); ``dot_program`` puts a ``dot`` on PATH (``_dot.py``);
``close_figures`` closes the matplotlib figures a test opened;
``example_run`` runs an example script with its default settings once;
``kernel`` is the book's in-browser kernel, started in CPython as the worker
starts it (``browser_kernel.py``).

The mutation test's table
-------------------------
:func:`pytest_terminal_summary` prints, at the end of a run that judged the
checker's mutants (``checks/test_checker_mutants.py``), their table per step, and
writes it to ``artifacts/mutants/`` (``mutant_report.py``).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _dot import dot_on_path
from browser_kernel import started_kernel
from hypothesis import HealthCheck, settings
from labelled_neuron import Neuron, build_neuron
from original import load_original
from scripts import ExampleRun, run_example

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=200,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci-other-python", settings.get_profile("ci"), max_examples=50)
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=1000,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


#: The tests' markers for what the package does not depend on: (the module, how to get it).
NEEDED = {
    "torch": ("torch", "Install torch==2.13.0 (nox -s tests-3.11 does)"),
    "microgpt": (
        "strands_microgpt",
        "Install pyproject.toml's microgpt group with --no-deps (every nox tests session does)",
    ),
}


@pytest.hookimpl(trylast=True)  # after -m has deselected what it deselects
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the tests marked ``slow`` first; stop a run that needs a package where it is missing.

    pytest-xdist hands out the tests in this order (after the groups that share
    a page run), so a slow test starts early, beside the others, instead of
    being the last one the run waits for.  The sort keeps the order otherwise.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    for marker, (module, install) in NEEDED.items():
        selected = [item.nodeid for item in items if item.get_closest_marker(marker)]
        if selected and importlib.util.find_spec(module) is None:
            raise pytest.UsageError(
                f"{len(selected)} selected tests need {module}, which is not installed "
                f"(first: {selected[0]}). {install}, "
                f'or deselect them with -m "not {marker}".'
            )


@pytest.hookimpl(wrapper=True, trylast=True)  # inside pytest-cov's own pause for no_cover
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Run a test marked ``no_cover`` with no tracer at all, on an xdist worker too.

    pytest-cov pauses its coverage for such a test.  On an xdist worker, though,
    it has started two: it reads ``--dist`` from the command line the worker was
    given and starts the controller's coverage too, before the worker's own.
    Pausing the worker's resumes the other one, so the test ran traced (the
    moons page: 159 s in a worker, 20 s in a single process).
    """
    if item.get_closest_marker("no_cover") is None:
        return (yield)
    tracer = sys.gettrace()
    sys.settrace(None)
    try:
        return (yield)
    finally:
        sys.settrace(tracer)


@pytest.fixture
def recursion_limit_kept() -> Iterator[None]:
    """A wrong solution of the track run as a cell may raise the recursion limit, as the
    page's would: what one test's wrong code set is not the next test's page."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)


@pytest.fixture
def close_figures() -> Iterator[None]:
    """Close every matplotlib figure a test opened (``usefixtures("close_figures")``)."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.fixture(scope="module")
def dot_program(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A working ``dot`` on PATH (Graphviz, or graphviz-pure behind a shim)."""
    with dot_on_path(tmp_path_factory.mktemp("dot")) as program:
        yield program


@pytest.fixture(scope="session")
def original() -> types.SimpleNamespace:
    """The original micrograd 0.1.0 (engine and nn), from its verbatim files (original.py)."""
    return load_original()


@pytest.fixture
def neuron() -> Callable[..., Neuron]:
    """Builds the lecture's labelled neuron afresh: ``neuron()``, or ``neuron(backward=True)``."""
    return build_neuron


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    yield from started_kernel(monkeypatch)


@pytest.fixture(scope="session")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> ExampleRun:
    """Runs ``examples/NAME.py`` with its default settings, once a session: (its output, --out).

    The tests that read a default run (the moons demo takes 100 training steps)
    share it; under pytest-xdist they share it by running in one ``xdist_group``.
    """
    runs: dict[str, tuple[str, Path]] = {}

    def run(name: str) -> tuple[str, Path]:
        if name not in runs:
            out = tmp_path_factory.mktemp(name)
            runs[name] = (run_example(name, "--quiet", "--out", str(out)), out)
        return runs[name]

    return run


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The mutation test's table (checks/test_checker_mutants.py), when the run judged mutants."""
    from mutant_report import summary

    summary(terminalreporter)
