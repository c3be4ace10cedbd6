"""Predict: the reader says a number (or which way it goes) before a run shows it.

Predict mode asks, before each of a stepper's backward steps, for the gradient
the step will give; a prompt in the prose asks for the number (or the
direction) a cell's run will print.  :mod:`.runtime` makes a stepper's
questions from its numbers (each answer, and the misconceptions' numbers, in
the browser and the build); :mod:`.kernel`, a start-up file of the build's
kernel, adds them after each stepper's HTML, as the browser's kernel does;
:mod:`.directive` is the prose's ``predict-run`` and ``predict-claim``
prompts, :mod:`.spoilers` the build's check that nothing below a prompt gives
its answer away before the reader answers (and the page's means of holding it
back), and :mod:`.answers` the printed book's appendix of the questions and
their answers.  The page's side (the switch, judging and the score) is in the
folder's ``predict.js``; ``predict.css`` styles it.
"""

from .. import Feature

#: What the core needs from this feature (the registry, book_runtime.features).
FEATURE = Feature("predict", sphinx=("answers", "directive", "spoilers"))
