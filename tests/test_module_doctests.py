"""The examples in the docstrings of ``micrograd.engine`` and ``micrograd.nn`` run and hold."""

from __future__ import annotations

import doctest
import random
import types

import pytest

import micrograd.engine
import micrograd.nn


@pytest.mark.parametrize("module", [micrograd.engine, micrograd.nn], ids=lambda m: m.__name__)
def test_module_docstring_examples_pass(module: types.ModuleType) -> None:
    state = random.getstate()  # the examples seed the global generator; leave it as it was
    try:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    finally:
        random.setstate(state)
    assert result.failed == 0
    assert result.attempted > 0
