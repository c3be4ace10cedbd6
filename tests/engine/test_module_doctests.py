"""The examples in the docstrings of the package's modules run and hold."""

from __future__ import annotations

import doctest
import random
import types
from pathlib import Path

import pytest
from _dot import dot_on_path

import micrograd.collector
import micrograd.datasets
import micrograd.engine
import micrograd.gpt
import micrograd.nn
import micrograd.training_log
import micrograd.viz.chart
import micrograd.viz.draw
import micrograd.viz.labels
import micrograd.viz.stepper
import micrograd.viz.svg


@pytest.mark.parametrize(
    "module",
    [
        micrograd.engine,
        micrograd.nn,
        micrograd.gpt,
        micrograd.datasets,
        micrograd.collector,
        micrograd.training_log,
        micrograd.viz.labels,
        micrograd.viz.draw,
        micrograd.viz.svg,
        micrograd.viz.stepper,
        micrograd.viz.chart,
    ],
    ids=lambda m: m.__name__,
)
def test_module_docstring_examples_pass(module: types.ModuleType, tmp_path: Path) -> None:
    state = random.getstate()  # the examples seed the global generator; leave it as it was
    try:
        with dot_on_path(tmp_path):  # the drawing examples render with `dot`
            result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    finally:
        random.setstate(state)
    assert result.failed == 0
    assert result.attempted > 0
