"""The Pythons the benchmarks compare with this package: each in a virtual environment of its own.

* the original micrograd 0.1.0 from PyPI, with ``torch==2.13.0`` (the CPU build: the
  one pip finds on this machine) for the PyTorch side;
* this package as it was at a git revision (``--before REV``), not editable, as a user
  gets it.

Each has what the cases need besides its micrograd (:data:`DEPENDENCIES`).  The
environments are made once and kept; pip installs only what is missing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

#: What every side has besides its micrograd: the cases' data sets.
DEPENDENCIES = ("numpy>=1.24", "scikit-learn>=1.3")
ROOT = Path(__file__).resolve().parents[1]


def environment(folder: Path, *requirements: str, force: tuple[str, ...] = ()) -> str:
    """The Python of a virtual environment in ``folder`` with ``requirements`` installed.

    ``force`` is installed again, without its dependencies, every time.
    """
    python = folder / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    pip = [str(python), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, *requirements], check=True)
    if force:
        subprocess.run([*pip, "--force-reinstall", "--no-deps", *force], check=True)
    return str(python)


def original(folder: Path) -> str:
    """A Python with the original micrograd 0.1.0 and PyTorch."""
    return environment(folder, "micrograd==0.1.0", "torch==2.13.0", *DEPENDENCIES)


def package_at(revision: str, folder: Path) -> str:
    """A Python with this package as it was at the git ``revision``."""
    source = folder.with_name(folder.name + "-source")
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    return environment(folder, *DEPENDENCIES, force=(str(source),))


#: microgpt's model as published on PyPI (MIT); only its engine.py is used.  The tests
#: compare with pyproject.toml's ``microgpt`` group, the same pin (test_microgpt.py checks).
MICROGPT = "strands-microgpt==0.1.0"


def microgpt(folder: Path) -> Path:
    """microgpt's ``engine.py``, from :data:`MICROGPT` installed alone in ``folder``.

    ``--no-deps``: the package's ``__init__`` imports an agents framework, which
    ``engine.py`` (standard library only) does not need; nothing imports the package.
    """
    python = folder / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    pip = [str(python), "-m", "pip", "install", "--quiet", "--no-deps", MICROGPT]
    subprocess.run(pip, check=True)
    # find_spec locates the package without running its __init__
    where = "import importlib.util as u; print(u.find_spec('strands_microgpt').origin)"
    origin = subprocess.run(
        [str(python), "-c", where], capture_output=True, text=True, check=True
    ).stdout.strip()
    return Path(origin).with_name("engine.py")
