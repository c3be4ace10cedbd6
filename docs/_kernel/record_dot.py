"""IPython start-up file for the docs build's kernel (installed by docs/_ext/executed_notebooks).

Every graphviz drawing a cell displays (``draw_dot``, ``draw_mlp``) gets its
DOT source recorded in the output's metadata, ``{"text/vnd.graphviz":
{"dot": source}}``, next to the SVG the page shows (as metadata, not as an
output of its own, which the page would have to render).  The browser tests
compare this DOT with the DOT the same cell makes in the reader's browser.
"""


def _record_graphviz_dot() -> None:
    from IPython import get_ipython
    from IPython.core.formatters import BaseFormatter
    from traitlets import ObjectName, Unicode

    shell = get_ipython()
    if shell is None:
        return

    class DotFormatter(BaseFormatter):  # type: ignore[misc]
        """No output of its own; the DOT source of a graphviz graph as metadata."""

        format_type = Unicode("text/vnd.graphviz")
        _return_type = (type(None), str)  # its data is always None: (None, metadata)
        # Objects of other types have no such method, so get no DOT (not their repr).
        print_method = ObjectName("_repr_graphviz_dot_")

    formatter = DotFormatter(parent=shell.display_formatter)
    # By name, so that graphviz is not imported before a page imports it; every
    # graphviz graph class (Graph, Digraph, Source) derives from JupyterIntegration.
    formatter.for_type_by_name(
        "graphviz.jupyter_integration",
        "JupyterIntegration",
        lambda graph: (None, {"dot": graph.source}),
    )
    shell.display_formatter.formatters[formatter.format_type] = formatter


_record_graphviz_dot()
del _record_graphviz_dot
