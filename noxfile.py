"""Automation for micrograd: tests, lint, docs, benchmarks, browser checks.

Each session installs what it needs into its own virtualenv, so a fresh
machine with only Python needs ``python -m pip install nox`` and nothing else.
"""

from __future__ import annotations

from pathlib import Path

import nox

nox.options.default_venv_backend = "venv"
nox.options.sessions = ["lint", "tests"]

ROOT = Path(__file__).parent
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"
HTML = BUILD / "html"


@nox.session
def tests(session: nox.Session) -> None:
    """Run the test suite with a coverage report."""
    session.install("-e", ".[test]")
    session.run(
        "pytest",
        "--cov=micrograd",
        "--cov-report=term",
        *session.posargs,
    )


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check, ruff format --check, and mypy on src/."""
    session.install("-e", ".[lint]")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy")
