"""IPython start-up file for the docs build's kernel (installed by docs/_ext/executed_notebooks).

A picture a cell displays gets what it was drawn from recorded in the
output's metadata, next to the SVG the page shows (as metadata, not as an
output of its own, which the page would have to render):

* every graphviz drawing (``draw_dot``, ``draw_mlp``): its DOT source, as
  ``{"text/vnd.graphviz": {"dot": source}}``;
* every matplotlib figure that :func:`micrograd.chart.show` drew
  (``log.plot()``, ``plot_moons``, ``plot_decision_boundary``,
  ``show(chart)``): its charts' description, as
  ``{"application/vnd.micrograd.chart+json": {"json": description}}``, the
  JSON the same cell displays in the reader's browser, where the page draws
  it.

The browser tests compare these with what the same cell makes in the
reader's browser.
"""


def _record_sources() -> None:
    from IPython import get_ipython
    from IPython.core.formatters import BaseFormatter
    from traitlets import ObjectName, Unicode

    shell = get_ipython()
    if shell is None:
        return

    def record(mime: str, method: str, module: str, name: str, source: object) -> None:
        """Give objects of ``module.name`` (and its subclasses) ``source(obj)`` as metadata."""

        class SourceFormatter(BaseFormatter):  # type: ignore[misc]
            """No output of its own; what a picture was drawn from, as metadata."""

            format_type = Unicode(mime)
            _return_type = (type(None), str)  # its data is always None: (None, metadata)
            # Objects of other types have no such method, so get nothing (not their repr).
            print_method = ObjectName(method)

        formatter = SourceFormatter(parent=shell.display_formatter)
        # By name, so that the module is not imported before a page imports it.
        formatter.for_type_by_name(module, name, source)
        shell.display_formatter.formatters[mime] = formatter

    def chart(figure: object) -> tuple[None, dict[str, str]] | None:
        described = getattr(figure, "micrograd_chart", None)
        return (None, {"json": described}) if isinstance(described, str) else None

    # Every graphviz graph class (Graph, Digraph, Source) derives from JupyterIntegration.
    record(
        "text/vnd.graphviz",
        "_repr_graphviz_dot_",
        "graphviz.jupyter_integration",
        "JupyterIntegration",
        lambda graph: (None, {"dot": graph.source}),
    )
    # Figure's base class, because setting InlineBackend.figure_formats (every page's
    # setup does) takes Figure's own printer out of every formatter.
    record(
        "application/vnd.micrograd.chart+json",
        "_repr_micrograd_chart_",
        "matplotlib.figure",
        "FigureBase",
        chart,
    )


_record_sources()
del _record_sources
