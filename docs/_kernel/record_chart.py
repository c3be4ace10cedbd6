"""IPython start-up file for the docs build's kernel (installed by docs/_ext/executed_notebooks).

Every matplotlib figure that :func:`micrograd.chart.show` drew (``log.plot()``,
``plot_moons``, ``plot_decision_boundary``, ``show(chart)``) gets the charts'
description recorded in the output's metadata,
``{"application/vnd.micrograd.chart+json": {"json": description}}``, next to
the SVG the page shows (as metadata, not as an output of its own, which the
page would have to render).  It is the JSON that the same cell displays in
the reader's browser, where the page draws it: the browser tests compare the
two.
"""


def _record_chart_description() -> None:
    from IPython import get_ipython
    from IPython.core.formatters import BaseFormatter
    from traitlets import ObjectName, Unicode

    shell = get_ipython()
    if shell is None:
        return

    class ChartFormatter(BaseFormatter):  # type: ignore[misc]
        """No output of its own; a micrograd figure's chart description as metadata."""

        format_type = Unicode("application/vnd.micrograd.chart+json")
        _return_type = (type(None), str)  # its data is always None: (None, metadata)
        # Objects of other types have no such method, so get no description.
        print_method = ObjectName("_repr_micrograd_chart_")

    def description(figure: object) -> tuple[None, dict[str, str]] | None:
        described = getattr(figure, "micrograd_chart", None)
        return (None, {"json": described}) if isinstance(described, str) else None

    formatter = ChartFormatter(parent=shell.display_formatter)
    # By name, so that matplotlib is not imported before a page imports it; for
    # Figure's base class, because setting InlineBackend.figure_formats (every
    # page's setup does) takes Figure's own printer out of every formatter.
    formatter.for_type_by_name("matplotlib.figure", "FigureBase", description)
    shell.display_formatter.formatters[formatter.format_type] = formatter


_record_chart_description()
del _record_chart_description
