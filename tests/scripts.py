"""Running Python in a fresh interpreter, as a user would: the tests' one way to run a script.

:func:`run_python` runs this virtual environment's Python on a script (or
``-c`` code) and returns what it printed; matplotlib draws to files there
(``MPLBACKEND=Agg``).  :func:`run_example` runs a script of ``examples/``,
and :func:`import_example` (:func:`import_tool`) imports one of ``examples/``
(``tools/``), to call its functions in this process.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

#: What the ``example_run`` fixture gives: a function from an example's name
#: to what its default run printed and the folder it wrote to.
ExampleRun = Callable[[str], tuple[str, Path]]


def run_python(
    *args: str,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
    returncode: int | None = 0,
    timeout: float = 900,
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in a fresh interpreter; by default it must exit 0.

    Parameters
    ----------
    args : str
        What follows ``python`` on the command line.
    cwd : pathlib.Path, default the repository
        Where it runs.
    env : dict, optional
        Variables to set on top of this process's.
    returncode : int or None, default 0
        The exit code it must end with (None: any).
    timeout : float, default 900
        Seconds before it is stopped (the slowest script, a 100-step moons run,
        takes well under a minute on an idle machine).
    """
    result = subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env={**os.environ, "MPLBACKEND": "Agg", **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if returncode is not None and result.returncode != returncode:
        raise AssertionError(
            f"python {' '.join(args)[:200]} exited with {result.returncode}:\n{result.stderr}"
        )
    return result


def run_example(name: str, *options: str) -> str:
    """``python examples/NAME.py OPTIONS``: what it printed (it must exit 0)."""
    return run_python(str(EXAMPLES / f"{name}.py"), *options).stdout


def printed_values(stdout: str) -> dict[str, str]:
    """A script's ``name: value`` lines, as a dict."""
    fields = {}
    for line in stdout.splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            fields[key] = value
    return fields


def import_example(name: str) -> ModuleType:
    """The module ``examples/NAME.py`` (or ``_common``), imported into this process."""
    return _import_from(EXAMPLES, name)


def import_tool(name: str) -> ModuleType:
    """The module ``tools/NAME.py``, imported into this process."""
    return _import_from(ROOT / "tools", name)


def _import_from(folder: Path, name: str) -> ModuleType:
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))
