"""Predict, then see: the questions a stepper asks the reader before each rule runs.

In predict mode (docs/_features/predict/predict.js), a stepper stops before each
frame in which a node's rule runs and asks, for each input of the rule, what
its ``grad`` will be once the rule has run; then it shows the frame.  This
module makes those questions from the stepper's data
(:meth:`micrograd.viz.stepper.Stepper.to_json`, whose frames carry each step's
numbers: the node's grad, and each input's local derivative, grad before and
after, and final grad).  Every number comes from that data, which the
engine's own rules made; this module only says them in words.

For each question it gives the answer, the tolerance within which an answer
is *close*, the explanation by the rule and the numbers ("The local derivative
of ``a * b`` with respect to ``a`` is ``b`` = -3.0, times ``c.grad`` 1.0:
-3.0": in words, not ``d(a * b)/da``, which stutters for a node named ``d``),
and the known misconceptions
that would give another number, each with its own words:

- ``swapped``: for a product, the input's own value used where the other
  input's goes;
- ``forgot-out-grad``: the local derivative alone, not times the node's grad;
- ``assigned``: the rule's share alone, as if the rule set the grad with
  ``=`` where an input already held a share from another user;
- ``too-early``: the grad the input ends with, once all of its users have
  run, given before they all have;
- ``incomplete-out-grad`` (in another order than the engine's): the rule
  run with the node's grad as ``backward()`` leaves it, where this order runs
  the rule before all of the node's users have added to it.

The page compares the reader's number with these (predict.js); the
build and the browser's kernel both attach the questions to the stepper's
HTML (:func:`markup`), so the page has the same data either way.  The texts
are the runner's inline Markdown (code spans), with their HTML beside them
(:mod:`book_runtime.inline_markup`).
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Callable
from typing import Any

from book_runtime.inline_markup import inline_html, inline_text

from micrograd.viz.labels import operand

#: An answer this near the number (after rounding to what a reader types) is right.
EXACT = 5e-4
#: An answer within this fraction of the number (at least this much) is close.
CLOSE = 0.05
#: The class of the ``<script type="application/json">`` that follows a stepper's HTML.
DATA_CLASS = "mg-predict-data"


def number(x: float) -> str:
    """A number as the questions say it: at most 4 decimals, ``-3.0``, ``0.7071``."""
    rounded = round(float(x), 4)
    return repr(rounded + 0.0)  # + 0.0: -0.0 is said 0.0


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=EXACT)


def _grad(name: str) -> str:
    """```x2.grad```, or ```(x2*w2).grad``` (the stepper's captions write it so too)."""
    return f"`{operand(name)}.grad`"


#: How a rule's local derivative for input ``k`` is made, in the rule's own terms, by the
#: node's operation: from the inputs' names, the node's name and ``k``.
_LOCAL_WORDS: dict[str, Callable[[list[str], str, int], str]] = {
    "+": lambda names, node, k: "1",
    "-": lambda names, node, k: "1" if k == 0 else "-1",
    "*": lambda names, node, k: f"2·`{names[0]}`" if len(names) == 1 else f"`{names[1 - k]}`",
    "/": lambda names, node, k: f"1/`{names[1]}`" if k == 0 else f"-`{names[0]}`/`{names[1]}`²",
    "neg": lambda names, node, k: "-1",
    "tanh": lambda names, node, k: f"1 - `{node}`²",
    "exp": lambda names, node, k: f"`{node}` itself",
    "log": lambda names, node, k: f"1/`{names[k]}`",
    "sigmoid": lambda names, node, k: f"`{node}`·(1 - `{node}`)",
    "ReLU": lambda names, node, k: f"1 where `{names[k]}` > 0, else 0",
}


def _local_words(step: dict[str, Any], k: int) -> str:
    """How the rule's local derivative for input ``k`` is made, in the rule's own terms."""
    op, names = step["op"], [share["name"] for share in step["inputs"]]
    if op.startswith("**"):
        exponent = op[2:]
        return f"{exponent}·`{names[k]}`^({exponent} - 1)"
    if op not in _LOCAL_WORDS or (op == "/" and len(names) != 2):
        return "the rule's local derivative"
    return _LOCAL_WORDS[op](names, step["node"], k)


def _local_value(step: dict[str, Any], k: int, local: float) -> str:
    """The local derivative in the rule's terms, then its value (``w1 = -3.0``); a constant
    (``1``, ``-1``) is its value already, and is said once."""
    words = _local_words(step, k)
    try:
        constant = float(words) == local
    except ValueError:
        constant = False
    return words if constant else f"{words} = {number(local)}"


def _words(text: str) -> dict[str, str]:
    return {"html": inline_html(text), "text": inline_text(text)}


def _ask(step: dict[str, Any], k: int) -> dict[str, Any]:
    """The question about input ``k`` of one step: its answer, explanation and misconceptions."""
    share = step["inputs"][k]
    node, grad = step["node"], step["grad"]
    x, before, after, local = share["name"], share["before"], share["after"], share["local"]
    added = after - before
    explain = (
        f"The local derivative of `{step['formula']}` with respect to `{x}` is "
        f"{_local_value(step, k, local)}, "
        f"times {_grad(node)} {number(grad)}: {number(local * grad)}."
    )
    if not _same(before, 0.0):
        explain += (
            f" Added to the {number(before)} {_grad(x)} already held (`+=`): {number(after)}."
        )
    mistakes: list[dict[str, Any]] = []

    def mistake(kind: str, value: float, text: str) -> None:
        taken = [after] + [m["value"] for m in mistakes]
        if math.isfinite(value) and not any(_same(value, v) for v in taken):
            mistakes.append({"kind": kind, "value": value, **_words(text)})

    inputs = step["inputs"]
    if step["op"] == "*" and len(inputs) == 2:
        other = inputs[1 - k]
        mistake(
            "swapped",
            before + share["data"] * grad,
            f"That uses `{x}`'s own value, {number(share['data'])}. In `{step['formula']}`, "
            f"the local derivative with respect to `{x}` is the *other* input, "
            f"`{other['name']}`.",
        )
    mistake(
        "forgot-out-grad",
        before + local,
        f"That is the local derivative alone, {number(local)}. The chain rule multiplies it "
        f"by {_grad(node)}, {number(grad)}: {number(local * grad)}.",
    )
    if not _same(before, 0.0):
        mistake(
            "assigned",
            added,
            f"That is this rule's share alone, as if it set {_grad(x)} with `=`. "
            f"`{x}` has another user, whose rule already gave it {number(before)}: "
            f"gradients add up (`+=`), {number(before)} + {number(added)} = {number(after)}.",
        )
    if not step["engine_order"] and not _same(step["final"], grad):
        mistake(
            "incomplete-out-grad",
            before + local * step["final"],
            f"That uses {_grad(node)} as `backward()` leaves it, {number(step['final'])}. "
            f"In this order `{node}`'s rule runs before all of `{node}`'s users have run: "
            f"{_grad(node)} is only {number(grad)} here, so the rule passes "
            f"{number(local)} × {number(grad)}.",
        )
    if not _same(share["final"], after):
        mistake(
            "too-early",
            share["final"],
            f"That is {_grad(x)} once every user of `{x}` has run, {number(share['final'])}. "
            f"Not all of them have run yet: after this rule it holds {number(after)}.",
        )
    return {
        "input": x,
        "grad": inline_text(_grad(x)),
        "want": after,
        "answer": number(after),
        "close": max(CLOSE, CLOSE * abs(after)),
        "question": _words(f"{_grad(x)} after `{node}`'s rule?"),
        "explain": _words(explain),
        "mistakes": mistakes,
    }


def _finite(step: dict[str, Any]) -> bool:
    shares = step["inputs"]
    values = [step["grad"], step["final"]]
    values += [s[k] for s in shares for k in ("local", "before", "after", "final")]
    return all(math.isfinite(v) for v in values)


def _side(data: dict[str, Any]) -> int | None:
    """Which side of a pair the questions are about: the one run in another order, if any."""
    if "titles" not in data:
        return None
    for frame in data["frames"]:
        for s, side in enumerate(frame["sides"]):
            if side.get("step") and not side["step"]["engine_order"]:
                return s
    return 0


def questions(data: dict[str, Any] | str) -> dict[str, Any]:
    """The questions of one stepper, frame by frame, from its ``to_json()``.

    Returns
    -------
    dict
        ``frames``: for each frame, None or ``{"node", "lead", "asks"}`` (the
        questions asked before that frame is shown); ``side``: the pair's side
        they are about (None for a single stepper), with ``title``;
        ``exact``: the tolerance of a right answer.
    """
    stepper: dict[str, Any] = json.loads(data) if isinstance(data, str) else data
    side = _side(stepper)
    title = stepper["titles"][side] if side is not None else None
    frames: list[dict[str, Any] | None] = []
    for frame in stepper["frames"]:
        step = (frame["sides"][side] if side is not None else frame).get("step")
        if not step or not _finite(step):  # an overflowed graph: nothing to predict there
            frames.append(None)
            continue
        node = step["node"]
        made = f"`{node} = {step['formula']}`" if step["formula"] != node else f"`{node}`"
        lead = f"Predict: {made} is about to run its rule ({step['op']})"
        lead += f" in {title}." if title else "."
        asks = [_ask(step, k) for k in range(len(step["inputs"]))]
        frames.append({"node": node, "lead": _words(lead), "asks": asks})
    return {"side": side, "title": title, "exact": EXACT, "frames": frames}


def markup(data: dict[str, Any] | str) -> str:
    """The questions as the JSON script element that follows the stepper's HTML on the page."""
    text = json.dumps(questions(data), sort_keys=True, allow_nan=False)
    # JSON inside <script>: "</" would end the element early.
    text = text.replace("</", "<\\/")
    return f'<script type="application/json" class="{html.escape(DATA_CLASS)}">{text}</script>\n'
