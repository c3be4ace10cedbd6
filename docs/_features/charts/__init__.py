"""Charts: a figure a cell shows, drawn in the reader's browser, and a training cell's live chart.

There is no matplotlib in the browser: the book's kernel shows a
``micrograd.viz.chart.Figure`` by its description, which the page's module
(``charts.js``) draws with Observable Plot.  While a cell trains, :mod:`.runtime`,
an add-on of the in-browser kernel, sends the chart of every training log as it
grows, and the page draws it under the cell until the run's own chart is shown.
"""

from .. import Feature

#: What the core needs from this feature (the registry, book_runtime.features).
FEATURE = Feature("charts", kernel_addon=True)
