"""Sphinx extension: each number pasted into the prose says which glued value it shows.

myst-nb's ``{glue:text}`key:format``` role pastes a value a cell glued,
formatted: ``<span class="pasted-text">0.010978</span>``.  This extension
makes that span also name the key and the format spec::

    <span class="pasted-text" data-glue-key="moons_final_loss"
          data-glue-format=".6f">0.010978</span>

so that the page can show the reader's own value there when their run in the
browser recomputes it (``glue.js``; :mod:`.runtime`'s ``glue`` formats the value
with each format the page uses for the key).  A role without a format
(``{glue:text}`key```) pastes with ``s``, as myst-nb does.  Other builders
than HTML see the plain inline text.  The same page gives the same bytes.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes


class glued_number(nodes.inline):
    """Text pasted by ``{glue:text}``, with its key and format spec."""


def _visit_html(translator: Any, node: glued_number) -> None:
    translator.body.append(
        translator.starttag(
            node,
            "span",
            "",
            **{"data-glue-key": node["glue_key"], "data-glue-format": node["glue_format"]},
        )
    )


def _depart_html(translator: Any, node: glued_number) -> None:
    translator.body.append("</span>")


def key_and_format(text: str) -> tuple[str, str]:
    """``"moons_loss0:.4f"`` -> ``("moons_loss0", ".4f")``; no format is ``"s"``, as in myst-nb."""
    key, colon, fmt_spec = text.rpartition(":")
    return (key, fmt_spec) if colon else (fmt_spec, "s")


def _role() -> Any:
    from myst_nb.ext.glue.roles import PasteTextRole

    class PasteNumberRole(PasteTextRole):  # type: ignore[misc]
        """myst-nb's ``glue:text`` role, whose span names the key and the format."""

        def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
            pasted, messages = super().run()
            key, fmt_spec = key_and_format(self.text)
            out: list[nodes.Node] = []
            for node in pasted:
                if isinstance(node, nodes.inline) and "::" not in key:
                    glued = glued_number(node.rawsource, "", *node.children, **node.attributes)
                    glued.source, glued.line = node.source, node.line
                    glued["glue_key"], glued["glue_format"] = key, fmt_spec
                    node = glued
                out.append(node)
            return out, messages

    return PasteNumberRole()


def setup(app: Any) -> dict[str, Any]:
    app.setup_extension("myst_nb")
    app.add_node(glued_number, html=(_visit_html, _depart_html))
    app.add_role_to_domain("glue", "text", _role(), override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
