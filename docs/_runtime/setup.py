"""The runtime's packages: ``book_runtime``, and each feature's folder under
``book_runtime.features`` (``../_features``), found here, so that a new feature's
folder needs no line in ``pyproject.toml`` (which keeps everything else)."""

from pathlib import Path

from setuptools import setup

FEATURES = Path(__file__).resolve().parent.parent / "_features"


def feature_packages() -> list[str]:
    """``book_runtime.features`` and every package under it (a folder with ``__init__.py``)."""
    found = sorted(
        "book_runtime.features." + ".".join(init.parent.relative_to(FEATURES).parts)
        for init in FEATURES.rglob("__init__.py")
        if init.parent != FEATURES
    )
    return ["book_runtime.features", *found]


setup(packages=["book_runtime", *feature_packages()])
