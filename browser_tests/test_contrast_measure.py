"""The dark-mode readability measure on pictures whose answer is known."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw
from sitefiles import backing_and_ink, contrast_ratio

PAGE_DARK = (18, 18, 18)  # pydata-sphinx-theme's dark background
LIGHT_BACKING = (206, 214, 221)


def _graph(backing: tuple[int, int, int]) -> Image.Image:
    """A little 'graph' in black ink: a node box, an edge and a label."""
    image = Image.new("RGB", (200, 80), backing)
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, 80, 40), outline=(0, 0, 0), fill=(238, 238, 238))
    draw.line((80, 25, 150, 25), fill=(0, 0, 0), width=2)
    draw.text((160, 20), "L", fill=(0, 0, 0))
    return image


def test_contrast_ratio_matches_wcag_extremes() -> None:
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((119, 119, 119), (119, 119, 119)) == pytest.approx(1.0)
    # WCAG's own example: #777 on white is just under 4.5:1.
    assert contrast_ratio((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)


def test_black_ink_on_a_transparent_graph_over_the_dark_page_is_unreadable() -> None:
    backing, ink, ratio = backing_and_ink(_graph(PAGE_DARK))
    assert backing == PAGE_DARK
    assert ink == (0, 0, 0)
    assert ratio < 4.5


def test_black_ink_on_a_light_backing_is_readable() -> None:
    backing, ink, ratio = backing_and_ink(_graph(LIGHT_BACKING))
    assert backing == LIGHT_BACKING
    assert ink == (0, 0, 0)
    assert ratio > 4.5
