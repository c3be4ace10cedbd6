"""IPython start-up file for the docs build's kernel: a stepper's questions follow its HTML.

A stepper (:mod:`micrograd.viz.stepper`) shows itself as HTML; in the book it is
followed by the questions predict mode asks (:func:`book_runtime.features.predict.runtime.markup`),
as the browser's kernel does for a stepper the reader's run makes (stepper_layout.js).
"""


def _install_predictions() -> None:
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return

    def stepper_html(stepper):
        from book_runtime.features.predict.runtime import markup

        return stepper.to_html() + markup(stepper.to_json())

    formatter = shell.display_formatter.formatters["text/html"]
    formatter.for_type_by_name("micrograd.viz.stepper", "Stepper", stepper_html)


_install_predictions()
del _install_predictions
