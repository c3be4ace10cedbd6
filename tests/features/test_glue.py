"""Glue: the reader's glued numbers, in the in-browser kernel (the glue's runtime, an add-on).

A page's hidden cell glues a number with ``myst_nb.glue``; in the reader's
browser the kernel's stand-in (docs/_features/glue/runtime.py) sends the page
the value's text in each format the page shows it in, as myst-nb writes it at
build time.  The kernel is started as the worker starts it (browser_kernel.py).
"""

from __future__ import annotations

from types import ModuleType

from browser_kernel import run


def test_glue_sends_the_value_in_every_format_the_page_shows_it_in(kernel: ModuleType) -> None:
    glued = "from myst_nb import glue\nglue('loss', 0.123456789, display=False)"
    page, result = run(kernel, glued, apart=True)
    assert result["ok"], result["error"]
    assert page.addons == [("glue", {"key": "loss", "texts": {".4f": "0.1235", ".1e": "1.2e-01"}})]
    assert page.displays == []


def test_a_format_the_value_does_not_fit_is_left_out_and_the_rest_sent(kernel: ModuleType) -> None:
    glued = "glue('loss', 'not a number', display=False)\nglue('steps', 30)"
    page, _ = run(kernel, glued, apart=True)
    assert page.addons[0] == ("glue", {"key": "loss", "texts": {}})
    assert page.addons[1] == ("glue", {"key": "steps", "texts": {"": "30", "d": "30"}})
    assert page.displays == [{"text/plain": "30"}]  # display=True shows it, as myst-nb does


def test_glue_texts_are_the_texts_the_download_writes(kernel: ModuleType) -> None:
    from book_runtime.features.glue.runtime import glue_texts
    from executed_notebooks.download import format_glued

    for value in (0.5, -1.25e-7, 41, "Intel", 2.0):
        texts = glue_texts("loss", value)
        plain = repr(value)
        assert texts == {spec: format_glued(plain, spec) for spec in texts}
