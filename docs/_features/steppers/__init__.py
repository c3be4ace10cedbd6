"""Steppers: backward() one step at a time, on the page.

:class:`micrograd.viz.stepper.BackwardStepper` and ``StepperPair`` draw every frame
when the page is built (or in the reader's browser, by the worker): without
JavaScript the frames show one under the other.  ``steppers.js`` is their front
end on the page: each stepper's controller (the frame it shows, its drawings fitted
to the window, the whole graph on a phone), and a pair's layout from the column's
width.  It loads with a page that has a stepper; predict mode (``predict``) drives
a stepper through its controller.  Their rules are in the site's
``micrograd-figures.css``, with the figures'.
"""

from .. import Feature

#: What the core needs from this feature (the registry, book_runtime.features).
FEATURE = Feature("steppers", with_its_page=True)
