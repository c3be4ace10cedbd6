"""The book's runtime: the Python that runs a page's cells, in the reader's browser and at build.

One package, shipped to the browser as one wheel beside micrograd's (the worker
imports :mod:`book_runtime.kernel`), installed editable for the build and the
tests.  Standard library and ``micrograd`` only:

* :mod:`.kernel`: runs a page's cells in one namespace, as a notebook kernel would;
* :mod:`.cell_names`: what a cell's code defines, reads and imports;
* :mod:`.snippets`: which cells a cell needs, and the cell as a script that runs by itself;
* :mod:`.output_kinds`: what kind an output is (a drawing, a figure, a stepper...);
* :mod:`.inline_markup`: the runner's texts' inline Markdown, as HTML and as plain words;
* the kernel's add-ons (:func:`.kernel.addons`): the charts' live training curve,
  :mod:`book_runtime.features.charts.runtime`, the track's
  Check, :mod:`book_runtime.features.track.runtime`, ``claim``, a sentence's truth
  as a value, for the build and the browser, :mod:`book_runtime.features.claims.runtime`,
  and ``myst_nb.glue``, with a glued value's text as myst-nb writes it,
  :mod:`book_runtime.features.glue.runtime`;
* :mod:`.checks`: the hidden checks of "Build your own micrograd", each step's code
  as files (``checks/steps/<step>/``), which the track's Check runs;
* :mod:`.features`: each reader-facing feature's folder (docs/_features), its
  runtime beside its directive, script and style.
"""
