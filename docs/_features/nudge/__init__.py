"""Nudge: the reader moves an input of a small graph and sees its output follow the gradient.

A page marks a graph as nudgeable after the cell that builds it
(:mod:`.directive`, the ``nudge`` directive, and the sentence paper shows); the
page's control (``nudge.js``, styled by ``nudge.css``) turns a drag, an arrow key
or a typed value into a request, and :mod:`.runtime` computes every number it
shows: the forward pass again with micrograd's operations, the measured change
beside ``grad × Δx``, and the gradient step.
"""

from .. import Feature

#: What the core needs from this feature (the registry, book_runtime.features).
FEATURE = Feature("nudge", with_its_page=True, sphinx=("directive",))
