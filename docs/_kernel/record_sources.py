"""IPython start-up file for the docs build's kernel (installed by docs/_ext/executed_notebooks).

A picture a cell displays gets what it was drawn from recorded in the
output's metadata, next to the SVG or HTML the page shows (as metadata, not
as an output of its own, which the page would have to render):

* every graphviz drawing (``draw_dot``, ``draw_mlp``): its DOT source, as
  ``{<graphviz>: {"dot": source}}``;
* every :class:`micrograd.viz.chart.Figure` (``plot_moons``,
  ``plot_training``, ``Figure(charts)``...): its ``to_json()`` as JSON text,
  as ``{<chart>: {"json": text}}``, the description the reader's browser
  draws the same figure from;
* every :class:`micrograd.viz.stepper.Stepper`: its ``to_json()`` as JSON
  text, as ``{<stepper>: {"json": text}}``, the frames the reader's browser
  lays out.

``<graphviz>``, ``<chart>`` and ``<stepper>`` are the book's MIME types, read
from docs/_static/runner/mime_types.json, the one place that spells them, of
which executed_notebooks puts a copy in the kernel's IPython profile folder
(``profile_dir``).  The browser tests compare these records with what the same
cell makes in the reader's browser.
"""


def _record_sources() -> None:
    import json
    from pathlib import Path

    from IPython import get_ipython
    from IPython.core.formatters import BaseFormatter
    from traitlets import ObjectName, Unicode

    shell = get_ipython()
    if shell is None:
        return
    mime_types = Path(shell.profile_dir.location) / "mime_types.json"
    mime = json.loads(mime_types.read_text(encoding="utf-8"))

    def record(kind: str, module: str, name: str, source: object) -> None:
        """Give objects of ``module.name`` (and its subclasses) ``source(obj)`` as metadata."""

        class SourceFormatter(BaseFormatter):  # type: ignore[misc]
            """No output of its own; what a picture was drawn from, as metadata."""

            format_type = Unicode(mime[kind])
            _return_type = (type(None), str)  # its data is always None: (None, metadata)
            # Objects of other types have no such method, so get nothing (not their repr).
            print_method = ObjectName(f"_repr_{kind}_source_")

        formatter = SourceFormatter(parent=shell.display_formatter)
        # By name, so that the module is not imported before a page imports it; the
        # formatter finds a subclass's printer through the class it derives from.
        formatter.for_type_by_name(module, name, source)
        shell.display_formatter.formatters[mime[kind]] = formatter

    def described(thing: object) -> tuple[None, dict[str, str]]:
        return None, {"json": json.dumps(thing.to_json())}  # type: ignore[attr-defined]

    # Every graphviz graph class (Graph, Digraph, Source) derives from JupyterIntegration.
    record(
        "graphviz",
        "graphviz.jupyter_integration",
        "JupyterIntegration",
        lambda graph: (None, {"dot": graph.source}),
    )
    record("chart", "micrograd.viz.chart", "Figure", described)
    # BackwardStepper and StepperPair derive from Stepper.
    record("stepper", "micrograd.viz.stepper", "Stepper", described)


_record_sources()
del _record_sources
