"""The book's reader-facing features, one folder (and one package) each.

A feature's folder holds everything of it: ``directive.py``, the Sphinx extension
that marks it in a page (``docs/conf.py`` lists it; it never ships to the
browser); ``runtime.py``, the Python that runs in the reader's browser and the
build (it ships in the runtime's wheel, as ``book_runtime.features.<name>``);
``<name>.js``, the runner's add-on (bundled with the runner, its own chunk);
``<name>.css``, its rules (shipped inside the runner's stylesheet).  The book's
runtime (``docs/_runtime/pyproject.toml``) maps this folder to
``book_runtime.features``.
"""
