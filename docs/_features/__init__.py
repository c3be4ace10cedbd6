"""The book's reader-facing features, one folder (and one package) each.

A feature's folder holds everything of it: ``directive.py``, the Sphinx extension
that marks it in a page (``docs/conf.py`` lists it; it never ships to the
browser); ``runtime.py``, the Python that runs in the reader's browser and the
build (it ships in the runtime's wheel, as ``book_runtime.features.<name>``);
``<name>.js``, the runner's add-on (bundled with the runner, its own chunk);
``<name>.css``, its rules (shipped inside the runner's stylesheet).  The book's
runtime (``docs/_runtime/pyproject.toml``) maps this folder to
``book_runtime.features``.

This package is the features' registry: :data:`NAMES` is its one list, and each
feature's ``__init__.py`` declares, as ``FEATURE`` (a :class:`Feature`), what the
core needs from it.  The core (the in-browser kernel, the build's runner
extension) asks :func:`registry` and names no feature (tests/features checks it).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

#: Every feature, by its folder's name: the one list.  A kernel add-on starts in this order.
NAMES = ("claims", "glue", "nudge", "predict", "steppers", "track")


@dataclass(frozen=True)
class Feature:
    """What the core needs from a feature's folder (its ``__init__.py``'s ``FEATURE``).

    ``kernel_addon``: its ``runtime.py`` is an add-on of the in-browser kernel, imported
    when the kernel starts (``book_runtime.kernel``).  ``with_its_page``: its page module
    (``<name>.js``) loads with a page that has what it serves, not with a first Run.
    """

    name: str
    kernel_addon: bool = False
    with_its_page: bool = False

    @property
    def runtime(self) -> str:
        """Its runtime's module, as the kernel imports it."""
        return f"{__name__}.{self.name}.runtime"

    @property
    def page_module(self) -> str:
        """Its page module's file name, as the runner's bundle names it."""
        return f"{self.name}.js"


def registry() -> tuple[Feature, ...]:
    """Each feature's declaration, in :data:`NAMES`' order."""
    found = []
    for name in NAMES:
        feature = importlib.import_module(f"{__name__}.{name}").FEATURE
        if not isinstance(feature, Feature) or feature.name != name:
            raise TypeError(f"{__name__}.{name}.FEATURE must be Feature({name!r}, ...)")
        found.append(feature)
    return tuple(found)
