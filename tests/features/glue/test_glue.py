"""Glue: the reader's glued numbers, in the in-browser kernel (the glue's runtime, an add-on).

A page's hidden cell glues a number with ``myst_nb.glue``; in the reader's
browser the kernel's stand-in (docs/_features/glue/runtime.py) sends the page
the value's text in each format the page shows it in, as myst-nb writes it at
build time: its ``format_glued`` formats exactly as myst-nb's own function does.
The kernel is started as the worker starts it (browser_kernel.py).
"""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from book_runtime.features.glue.runtime import format_glued
from browser_kernel import run
from myst_nb.core.variables import format_plain_text


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


#: Every format spec the pages paste numbers with (and a few more of the same grammar).
GLUE_SPECS = ["s", ",", "+.0f", "+.3f", ".0f", ".1f", ".2f", ".3f", ".4f", ".6f", ".1e", ".1%"]


def glue_values() -> list[str]:
    """Values as a cell's glue sends them (their text/plain): ties, signs, sizes, ints, text."""
    pick = random.Random(16)
    floats = [0.0, -0.0, 0.125, -0.125, 0.375, 2.5, 9.995, 99.95, 1e-7, 5e-324, 1e300, 0.010978]
    floats += [pick.uniform(-10, 10) for _ in range(150)]
    floats += [pick.uniform(-1, 1) * 10 ** pick.randint(-12, 12) for _ in range(150)]
    floats += [round(pick.uniform(0, 10), 3) for _ in range(100)]
    ints = [0, -5, 22, 1234567, 20000, -33]
    return [repr(x) for x in [*floats, *ints]] + ["'Intel Xeon'", "'2026-11-30'"]


def test_the_kernel_formats_a_readers_number_exactly_as_myst_nb_formats_the_builds() -> None:
    """The glue's format_glued (the kernel's, and the download's) against myst-nb's own function."""
    compared = 0
    for plain in glue_values():
        for spec in GLUE_SPECS:
            try:
                expected = format_plain_text(plain, spec)
            except ValueError as error:  # a string with a number's spec: the build fails too
                with pytest.raises(ValueError, match=str(error)):
                    format_glued(plain, spec)
                continue
            assert format_glued(plain, spec) == expected, (plain, spec)
            compared += 1
    assert compared > 5_000
