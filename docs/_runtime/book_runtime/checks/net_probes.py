"""Step 4's methods alone: each class's ``__init__``, ``parameters()`` and ``__call__``, in turn.

The probes of a class go in the order in which its methods depend on each
other, so that the first to fail is the method that is wrong:

- ``__init__`` is seen through the random numbers it draws: after
  ``random.seed(s)``, making the network must draw exactly the numbers
  micrograd's draws (one ``random.uniform(-1, 1)`` per weight, none for a
  bias), which the generator's state after it tells without reading any of
  the reader's attributes;
- ``parameters()`` must list that many Values of the reader's own, holding
  those numbers (a neuron's weights and then its bias, neuron by neuron,
  layer by layer): the same numbers in another order is ``parameters()``'s
  mistake, other numbers ``__init__``'s;
- ``__call__`` must give the output of micrograd's network holding the
  reader's weights, and its backward pass every parameter's gradient.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from collections.abc import Sequence
from typing import Any

from book_runtime.checks.core import Failure
from book_runtime.checks.core import Namespace
from book_runtime.checks.core import Probe
from book_runtime.checks.core import same
from book_runtime.checks.core import show
from book_runtime.checks.probes import as_float
from book_runtime.checks.reference import Net
from book_runtime.checks.reference import outputs
from book_runtime.checks.reference import total
from micrograd import Value

#: The seed of every probe, and the inputs of the probes' forward passes.
SEED = 7
X = (0.5, -1.0, 2.0)

#: The networks the probes make, by kind.
NETS = {
    "Neuron": (Net("Neuron", (3,)),),
    "Layer": (Net("Layer", (3, 2)), Net("Layer", (3, 1))),
    "MLP": (Net("MLP", (3, 4, 4, 1)), Net("MLP", (3, 1, 2))),
}


def _micrograds(net: Net) -> tuple[list[float], Any]:
    """micrograd's draw of ``net`` after ``random.seed(SEED)``: its numbers, and the state after."""
    random.seed(SEED)
    model = net._make("tanh", "tanh")
    return [p.data for p in model.parameters()], random.getstate()


def _draws(state: Any, limit: int = 64) -> int | None:
    """How many ``random.uniform`` draws after ``random.seed(SEED)`` lead to ``state``; or None."""
    random.seed(SEED)
    for count in range(limit + 1):
        if random.getstate() == state:
            return count
        random.uniform(-1, 1)
    return None


def _made(net: Net, names: Namespace) -> tuple[Any, Any]:
    """The reader's ``net`` after ``random.seed(SEED)``, and the generator's state after it."""
    random.seed(SEED)
    model = net.make(names)
    return model, random.getstate()


def _seeded(net: Net) -> str:
    return f"`random.seed({SEED}); model = {net.constructor}`"


def init_problem(net: Net, names: Namespace) -> str | None:
    """``__init__``: the draws, then (through parameters()) the numbers drawn."""
    _, state = _made(net, names)
    _, after = _micrograds(net)
    if state != after:
        count = _draws(state)
        drew = "drew other random numbers" if count is None else f"drew {count} random numbers"
        return (
            f"{_seeded(net)} {drew}; expected {net.weight_count} (one "
            f"random.uniform(-1, 1) per weight, in order, and none for a bias: each bias "
            "starts at Value(0.0))"
        )
    return None


def _parameters(net: Net, names: Namespace) -> tuple[list[Any] | None, str | None]:
    """The reader's parameters() of ``net`` as a list, or what is wrong with them."""
    model, _ = _made(net, names)
    found = model.parameters()
    try:
        params = list(found)
    except TypeError:
        return None, f"{_seeded(net)}, then `model.parameters()`, gave {found!r}: not a list"
    value = names["Value"]
    count = net.weight_count + net.bias_count
    if len(params) != count:
        what = _which_count(net, len(params))
        return None, (
            f"`model.parameters()` with model = {net.constructor} gave {len(params)} Values"
            f"{what}; expected {count}: {net.weight_count} weights and {net.bias_count} "
            f"{'bias' if net.bias_count == 1 else 'biases'}"
        )
    strangers = [p for p in params if not isinstance(p, value)]
    if strangers:
        return None, (
            f"`model.parameters()` with model = {net.constructor} holds {strangers[0]!r}, "
            "which is not one of your Values"
        )
    if len({id(p) for p in params}) != len(params):
        return None, (
            f"`model.parameters()` with model = {net.constructor} lists a Value twice; "
            "expected each weight and each bias once"
        )
    return params, None


def _which_count(net: Net, count: int) -> str:
    """What a wrong number of parameters may be: the weights alone, or the first part only."""
    if count == net.weight_count:
        return " (the weights alone)"
    layers = net.layers
    if net.kind == "Layer" and count == layers[0][0] + 1:
        return " (the first neuron's only)"
    if net.kind == "MLP" and count == layers[0][1] * (layers[0][0] + 1):
        return " (the first layer's only)"
    return ""


def parameters_problem(net: Net, names: Namespace) -> str | None:
    """``parameters()``: how many, of what, and in micrograd's order."""
    params, problem = _parameters(net, names)
    if problem is not None or params is None:
        return problem
    got = [as_float(p.data) for p in params]
    want, _ = _micrograds(net)
    if sorted(map(str, got)) == sorted(map(str, want)) and not same(got, want):
        first = next(i for i, (g, w) in enumerate(zip(got, want, strict=True)) if not same(g, w))
        return (
            f"`model.parameters()` with model = {net.constructor} lists the right Values in "
            f"another order: its item {first} holds {show(got[first])}, which is not "
            f"{net.parameter_name(first)} ({show(want[first])}). The order is each neuron's "
            "weights and then its bias, neuron by neuron, layer by layer (training and the "
            "book's tables read them in that order)"
        )
    return None


def numbers_problem(net: Net, names: Namespace) -> str | None:
    """``__init__`` again: the numbers the parameters hold are the ones drawn (and 0 for a bias)."""
    params, _ = _parameters(net, names)
    if params is None:
        return None
    got = [as_float(p.data) for p in params]
    want, _ = _micrograds(net)
    if sorted(map(str, got)) != sorted(map(str, want)):
        first = next(i for i, (g, w) in enumerate(zip(got, want, strict=True)) if not same(g, w))
        return (
            f"{_seeded(net)} gave {net.parameter_name(first)} = {show(got[first])}; expected "
            f"{show(want[first])} (each weight Value(random.uniform(-1, 1)), drawn in order, "
            "and each bias Value(0.0))"
        )
    return None


def call_problem(net: Net, names: Namespace, value_inputs: bool = False) -> str | None:
    """``__call__``: micrograd's output from the reader's weights, and every gradient after it."""
    model, _ = _made(net, names)
    params = list(model.parameters())
    reference = net.build([p.data for p in params])
    theirs_x = [Value(v) for v in X[: net.sizes[0]]]
    mine_x: list[Any] = [names["Value"](v) for v in X[: net.sizes[0]]] if value_inputs else []
    out = model(mine_x if value_inputs else list(X[: net.sizes[0]]))
    want = outputs(reference, theirs_x)
    call = f"`model({_inputs(net, value_inputs)})` with model = {net.constructor}"
    shape = _shape(out, want, names["Value"])
    if shape is not None:
        return f"{call} returned {shape}"
    mine = [out] if not isinstance(want, list) else list(out)
    theirs = [want] if not isinstance(want, list) else want
    for i, (m, t) in enumerate(zip(mine, theirs, strict=True)):
        if not same(as_float(m.data), t.data):
            where = "out.data" if len(theirs) == 1 else f"out[{i}].data"
            return (
                f"{call} gave {where} = {show(as_float(m.data), t.data)}; expected "
                f"{show(t.data, as_float(m.data))} (micrograd's {net.kind} with your weights)"
            )
    _sum(mine).backward()
    total(want).backward()
    for i, (p, r) in enumerate(zip(params, reference.parameters(), strict=True)):
        if not same(as_float(p.grad), r.grad):
            return (
                f"{call}, then backward() of its output, gave the grad of "
                f"{net.parameter_name(i)} = {show(as_float(p.grad), r.grad)}; expected "
                f"{show(r.grad)}: the output must be made from the parameters themselves"
            )
    for i, (v, r) in enumerate(zip(mine_x, theirs_x, strict=False)):
        if not same(as_float(v.grad), r.grad):
            return (
                f"{call}, then backward() of its output, gave x[{i}].grad = "
                f"{show(as_float(v.grad), r.grad)}; expected {show(r.grad)}"
            )
    return None


def _sum(values: Sequence[Any]) -> Any:
    out = values[0]
    for v in values[1:]:
        out = out + v
    return out


def _inputs(net: Net, value_inputs: bool) -> str:
    numbers = X[: net.sizes[0]]
    if value_inputs:
        return "[" + ", ".join(f"Value({v})" for v in numbers) + "]"
    return "[" + ", ".join(str(v) for v in numbers) + "]"


def _shape(got: Any, want: Any, value: type) -> str | None:
    if isinstance(want, list):
        if not isinstance(got, (list, tuple)) or len(got) != len(want):
            return f"{_describe(got, value)}; expected a list of {len(want)} Values"
        if not all(isinstance(g, value) for g in got):
            return f"a list holding {next(g for g in got if not isinstance(g, value))!r}"
        return None
    if not isinstance(got, value):
        alone = "a layer of one neuron gives its Value alone"
        return f"{_describe(got, value)}; expected one Value ({alone})"
    return None


def _describe(x: Any, value: type) -> str:
    if isinstance(x, (list, tuple)):
        return f"a {type(x).__name__} of {len(x)}"
    if isinstance(x, value):
        return "one Value"
    return repr(x)


def _code(net: Net, then: str) -> str:
    return f"import random\n\nrandom.seed({SEED})\nmodel = {net.constructor}\n{then}"


def _probe(part: str, net: Net, then: str, run: Callable[[Net, Namespace], str | None]) -> Probe:
    return Probe(part, _code(net, then), lambda names: run(net, names))


def _probes(kind: str) -> list[Probe]:
    nets = NETS[kind]
    found: list[Probe] = []
    listed = "print([p.data for p in model.parameters()])"
    for net in nets:
        found.append(_probe(f"{kind}.__init__", net, "print(random.random())", init_problem))
    for net in nets:
        found.append(_probe(f"{kind}.parameters", net, listed, parameters_problem))
        found.append(_probe(f"{kind}.__init__", net, listed, numbers_problem))
    x = list(X[: nets[0].sizes[0]])
    for net in nets:
        found.append(_probe(f"{kind}.__call__", net, f"print(model({x}))", call_problem))
    if kind == "Neuron":
        net = nets[0]
        values = "[" + ", ".join(f"Value({v})" for v in x) + "]"
        found.append(
            Probe(
                "Neuron.__call__",
                _code(net, f"x = {values}\nout = model(x)\nout.backward()\nprint(x[0].grad)"),
                lambda names: call_problem(net, names, value_inputs=True),
            )
        )
    return found


#: The network zero_grad() is probed on, and the gradients it is given first (each its own).
ZERO_GRAD_NET = Net("MLP", (3, 2, 1))
_GRADS = "for i, p in enumerate(model.parameters()):\n    p.grad = 0.5 + i"


def zero_grad_problem(net: Net, names: Namespace) -> str | None:
    """``zero_grad()``: every parameter's gradient 0.0, and every number as it was.

    Training calls it before each backward(); a zero_grad that resets something
    else passes every forward pass, and only the training loop would show it.
    """
    model, _ = _made(net, names)
    params = list(model.parameters())
    for i, p in enumerate(params):
        p.grad = 0.5 + i
    start = [as_float(p.data) for p in params]
    model.zero_grad()
    call = f"`model.zero_grad()` with model = {net.constructor}, every p.grad set first"
    for i, p in enumerate(params):
        grad, data = as_float(getattr(p, "grad", None)), as_float(p.data)
        wrong = []
        if not same(grad, 0.0):
            wrong.append(f"a grad of {show(grad)} (expected 0.0)")
        if not same(data, start[i]):
            wrong.append(
                f"the number {show(data)} (expected {show(start[i])}, untouched: zero_grad "
                "resets the gradients, never the numbers)"
            )
        if wrong:
            return Failure(
                f"{call}, left {net.parameter_name(i)} with {' and '.join(wrong)}",
                parameter=net.parameter_name(i),
                grad=show(grad),
                was=show(start[i]),
                data=show(data),
                net=net.constructor,
            )
    return None


def _zero_grad_written(names: Namespace) -> bool:
    return callable(getattr(names.get("MLP"), "zero_grad", None))


#: ``Module.zero_grad``, alone: what every class of step 4 inherits.
ZERO_GRAD_PROBE = Probe(
    "Module.zero_grad",
    _code(
        ZERO_GRAD_NET,
        f"{_GRADS}\nmodel.zero_grad()\nprint([(p.data, p.grad) for p in model.parameters()])",
    ),
    lambda names: zero_grad_problem(ZERO_GRAD_NET, names),
    applies=_zero_grad_written,
)

#: Step 4's probes, class by class: each class's methods before the classes made of it, then
#: the zero_grad() they share.
PROBES = (
    *(probe for kind in ("Neuron", "Layer", "MLP") for probe in _probes(kind)),
    ZERO_GRAD_PROBE,
)

#: The methods the reader writes in step 4, and the zero_grad() the starter gives them.
PARTS = (
    *(
        f"{kind}.{method}"
        for kind in ("Neuron", "Layer", "MLP")
        for method in ("__init__", "__call__", "parameters")
    ),
    "Module.zero_grad",
)
