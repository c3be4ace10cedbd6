"""The book's reader-facing features, one folder (and one package) each.

A feature's folder holds everything of it: ``directive.py``, the Sphinx extension
that marks it in a page (``docs/conf.py`` lists it; it never ships to the
browser); ``runtime.py``, the Python that runs in the reader's browser and the
build (it ships in the runtime's wheel, as ``book_runtime.features.<name>``);
``<name>.js``, the runner's add-on (bundled with the runner, its own chunk);
``<name>.css``, its rules (shipped inside the runner's stylesheet).  The book's
runtime (``docs/_runtime/pyproject.toml``) maps this folder to
``book_runtime.features``.

This package is the features' registry on the Python side: each folder with an
``__init__.py`` is a feature (:func:`names` finds them), and that ``__init__.py``
declares, as ``FEATURE`` (a :class:`Feature`), what the core needs from it.  The core
(the in-browser kernel, the build's runner extension, ``docs/conf.py``'s extensions)
asks :func:`registry` and names no feature (tests/features checks it).  The one list
of features is the runner's, ``registry.js`` (the bundler needs each page module's
import as a literal path); a test holds the two sides to the same features.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass


@dataclass(frozen=True)
class Feature:
    """What the core needs from a feature's folder (its ``__init__.py``'s ``FEATURE``).

    ``kernel_addon``: its ``runtime.py`` is an add-on of the in-browser kernel, imported
    when the kernel starts (``book_runtime.kernel``).  ``with_its_page``: its page module
    (``<name>.js``) loads with a page that has what it serves, not with a first Run.
    ``sphinx``: its modules that are Sphinx extensions (``directive``, ...), in the
    order the build sets them up (``docs/conf.py``).
    """

    name: str
    kernel_addon: bool = False
    with_its_page: bool = False
    sphinx: tuple[str, ...] = ()

    @property
    def runtime(self) -> str:
        """Its runtime's module, as the kernel imports it."""
        return f"{__name__}.{self.name}.runtime"

    @property
    def page_module(self) -> str:
        """Its page module's file name, as the runner's bundle names it."""
        return f"{self.name}.js"


def names() -> tuple[str, ...]:
    """Every feature, by its folder's name, sorted: a kernel add-on starts in this order."""
    return tuple(sorted(module.name for module in pkgutil.iter_modules(__path__) if module.ispkg))


def registry() -> tuple[Feature, ...]:
    """Each feature's declaration, in :func:`names`' order."""
    found = []
    for name in names():
        feature = importlib.import_module(f"{__name__}.{name}").FEATURE
        if not isinstance(feature, Feature) or feature.name != name:
            raise TypeError(f"{__name__}.{name}.FEATURE must be Feature({name!r}, ...)")
        found.append(feature)
    return tuple(found)


def sphinx_extensions() -> list[str]:
    """The features' Sphinx extensions, as ``docs/conf.py`` lists them: by feature, then
    in each feature's own order."""
    return [f"{__name__}.{f.name}.{module}" for f in registry() for module in f.sphinx]
