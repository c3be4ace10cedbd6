"""The book's in-browser kernel (book_runtime.kernel), started in CPython as worker.js starts it.

The ``kernel`` fixture (conftest.py) is :func:`started_kernel`; :func:`run` runs a
cell as the worker does and gives what the page would receive (:class:`Page`).
The kernel's own tests (site/test_browser_kernel.py) and its add-ons' (the features'
tests, tests/features/) share them.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

RUNNER = Path(__file__).resolve().parent.parent / "docs" / "_static" / "runner"
MIME_TYPES: dict[str, str] = json.loads((RUNNER / "mime_types.json").read_text(encoding="utf-8"))


class Page:
    """What the page receives from a cell's run: printed text, displays, add-on messages."""

    def __init__(self) -> None:
        self.streams: list[tuple[str, str]] = []
        self.displays: list[dict[str, str]] = []
        self.addons: list[tuple[str, dict[str, Any]]] = []

    def stream(self, name: str, text: str) -> None:
        self.streams.append((name, text))

    def display(self, bundle: str) -> None:
        self.displays.append(json.loads(bundle))

    def addon(self, name: str, fields: str) -> None:
        self.addons.append((name, json.loads(fields)))

    def printed(self) -> str:
        """What the run printed to stdout, its pieces joined."""
        return "".join(text for name, text in self.streams if name == "stdout")


#: The modules the kernel installs, or imports of the runtime: the fixture puts them back.
KERNEL_MODULES = ("IPython", "IPython.display", "myst_nb")
RUNTIME_MODULES = (
    "cell_names",
    "kernel",
    "features.charts.runtime",
    "features.claims.runtime",
    "features.glue.runtime",
    "features.track.runtime",
)


def _on_its_package(name: str) -> tuple[ModuleType, str]:
    """The package of module ``name`` and the attribute its import sets there."""
    package, _, attribute = name.rpartition(".")
    return importlib.import_module(package), attribute


def started_kernel(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The kernel, started as worker.js starts it (the interpreter put back afterwards):
    the ``kernel`` fixture (conftest.py)."""
    for name in ("stdout", "stderr"):
        monkeypatch.setattr(sys, name, getattr(sys, name))
    runtime = [f"book_runtime.{name}" for name in RUNTIME_MODULES]
    names = (*KERNEL_MODULES, *runtime)
    before = {name: sys.modules.get(name) for name in names}
    attributes = {name: getattr(*_on_its_package(name), None) for name in runtime}
    for name in names:
        sys.modules.pop(name, None)
    try:
        module = importlib.import_module("book_runtime.kernel")
        formats = {"loss": [".4f", ".1e"], "name": ["s"], "steps": ["", "d"]}
        module.start(json.dumps(MIME_TYPES), json.dumps(formats))
        yield module
    finally:
        for name, found in before.items():
            if found is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = found
        for name, attribute in attributes.items():
            package, on_it = _on_its_package(name)
            if attribute is None:
                vars(package).pop(on_it, None)
            else:
                setattr(package, on_it, attribute)


def run(
    kernel: ModuleType, code: str, *, apart: bool = False, watch: Sequence[str] = ()
) -> tuple[Page, dict[str, Any]]:
    """Run a cell as the worker does; what it prints goes where the kernel sends it.

    ``apart``: a cell the build hides (the manifest's ``apart``, as the worker passes it).
    """
    page = Page()
    # pytest puts its own sys.stdout back before each test: the cell gets the kernel's.
    streams = (kernel._CellStream("stdout"), kernel._CellStream("stderr"))
    with contextlib.redirect_stdout(streams[0]), contextlib.redirect_stderr(streams[1]):
        found = kernel.run_cell(code, "<cell 1>", page, json.dumps(list(watch)), apart)
    return page, json.loads(found)
