"""Step 4, "nn": ``Neuron``, ``Layer``, ``MLP`` and ``parameters()`` on the reader's own ``Value``.

A case seeds ``random``, builds the reader's network, runs it forward and
backward, and compares the output and every parameter's gradient with
micrograd's network of the same shape holding the reader's own weights.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from micrograd import Value

from .core import Case
from .core import Exercise
from .core import Failure
from .core import Finding
from .core import Mistake
from .core import Namespace
from .core import attempt
from .core import attempt_error
from .core import first_difference
from .core import same
from .core import show
from .engine_cases import as_float
from .engine_cases import number
from .engine_cases import short
from .reference import Net
from .reference import micrograds_draw

#: The step's folder of code (steps/nn/) and its id in the track.
STEP = "nn"

HINTS = (
    'A neuron is the formula of the page "The neuron": tanh of its weights times the '
    "inputs, plus its bias. A layer is a list of neurons that read the same inputs, and an "
    "MLP a list of layers, each reading the outputs of the one before.",
    "`Neuron.__init__`: `self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]` and "
    "`self.b = Value(0.0)`. Its call adds `wi * xi` to the bias, one input at a time, and "
    "returns the sum's `.tanh()`.",
    "parameters() is every Value that training may move: a neuron's weights *and* its bias; "
    "a layer's is the list of its neurons' parameters, an MLP's its layers', in order.",
    "A layer of one neuron returns its Value alone (so that `model(x)` is one Value for a "
    "network with one output), but the next layer reads a list: in `MLP.__call__`, "
    "`out = layer(x)` and then `x = out if isinstance(out, list) else [out]`; return `out`.",
)


# -- each method alone -------------------------------------------------------------------------
#
# Step 4's methods alone: each class's ``__init__``, ``parameters()`` and ``__call__``, in turn.
#
# The probes of a class go in the order in which its methods depend on each
# other, so that the first to fail is the method that is wrong:
#
# - ``__init__`` is seen through the random numbers it draws: after
#   ``random.seed(s)``, making the network must draw exactly the numbers
#   micrograd's draws (one ``random.uniform(-1, 1)`` per weight, none for a
#   bias), which the generator's state after it tells without reading any of
#   the reader's attributes;
# - ``parameters()`` must list that many Values of the reader's own, holding
#   those numbers (a neuron's weights and then its bias, neuron by neuron,
#   layer by layer): the same numbers in another order is ``parameters()``'s
#   mistake, other numbers ``__init__``'s;
# - ``__call__`` must give the output of micrograd's network holding the
#   reader's weights, and its backward pass every parameter's gradient.

#: The seed of every probe, and the inputs of the probes' forward passes.
SEED = 7
X = (0.5, -1.0, 2.0)

#: The networks the probes make, by kind.
NETS = {
    "Neuron": (Net("Neuron", (3,)),),
    "Layer": (Net("Layer", (3, 2)), Net("Layer", (3, 1))),
    "MLP": (Net("MLP", (3, 4, 4, 1)), Net("MLP", (3, 1, 2))),
}


def _draws(state: Any, limit: int = 64) -> int | None:
    """How many ``random.uniform`` draws after ``random.seed(SEED)`` lead to ``state``; or None."""
    random.seed(SEED)
    for count in range(limit + 1):
        if random.getstate() == state:
            return count
        random.uniform(-1, 1)
    return None


def _seeded(net: Net) -> str:
    return f"`random.seed({SEED}); model = {net.constructor}`"


def init_problem(net: Net, names: Namespace) -> str | None:
    """``__init__``: the draws, then (through parameters()) the numbers drawn."""
    net.seeded(names, SEED)
    state = random.getstate()  # what the reader's network drew
    _, after = micrograds_draw(net, SEED)
    if state != after:
        count = _draws(state)
        drew = "drew other random numbers" if count is None else f"drew {count} random numbers"
        return (
            f"{_seeded(net)} {drew}; expected {net.weight_count} (one "
            f"random.uniform(-1, 1) per weight, in order, and none for a bias: each bias "
            "starts at Value(0.0))"
        )
    return None


def _listed(net: Net, names: Namespace, seed: int = SEED) -> tuple[Any, list[Any] | str]:
    """The reader's ``net`` drawn after ``random.seed(seed)``, and its parameters() as a list,
    or what is wrong with them."""
    model = net.seeded(names, seed)
    found = model.parameters()
    try:
        params = list(found)
    except TypeError:
        return model, f"{_seeded(net)}, then `model.parameters()`, gave {found!r}: not a list"
    count = net.weight_count + net.bias_count
    gave = f"`model.parameters()` with model = {net.constructor}"
    if len(params) != count:
        biases = "bias" if net.bias_count == 1 else "biases"
        return model, (
            f"{gave} gave {len(params)} Values{_which_count(net, len(params))}; expected "
            f"{count}: {net.weight_count} weights and {net.bias_count} {biases}"
        )
    strangers = [p for p in params if not isinstance(p, names["Value"])]
    if strangers:
        return model, f"{gave} holds {strangers[0]!r}, which is not one of your Values"
    if len({id(p) for p in params}) != len(params):
        return model, f"{gave} lists a Value twice; expected each weight and each bias once"
    return model, params


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


def _held(net: Net, names: Namespace) -> tuple[list[Any], list[float]] | str:
    """The numbers the reader's parameters hold and micrograd's, or what is wrong with them."""
    params = _listed(net, names)[1]
    if isinstance(params, str):
        return params
    return [as_float(p.data) for p in params], list(micrograds_draw(net, SEED)[0])


def parameters_problem(net: Net, names: Namespace) -> str | None:
    """``parameters()``: how many, of what, and in micrograd's order."""
    held = _held(net, names)
    if isinstance(held, str):
        return held
    got, want = held
    if sorted(map(str, got)) != sorted(map(str, want)) or same(got, want):
        return None
    first = first_difference(got, want)
    return (
        f"`model.parameters()` with model = {net.constructor} lists the right Values in "
        f"another order: its item {first} holds {show(got[first])}, which is not "
        f"{net.parameter_name(first)} ({show(want[first])}). The order is each neuron's "
        "weights and then its bias, neuron by neuron, layer by layer (training and the "
        "book's tables read them in that order)"
    )


def numbers_problem(net: Net, names: Namespace) -> str | None:
    """``__init__`` again: the numbers the parameters hold are the ones drawn (and 0 for a bias)."""
    held = _held(net, names)
    if isinstance(held, str) or sorted(map(str, held[0])) == sorted(map(str, held[1])):
        return None  # a wrong parameters() is its own probe's to say
    got, want = held
    first = first_difference(got, want)
    return (
        f"{_seeded(net)} gave {net.parameter_name(first)} = {show(got[first])}; expected "
        f"{show(want[first])} (each weight Value(random.uniform(-1, 1)), drawn in order, "
        "and each bias Value(0.0))"
    )


def call_problem(
    net: Net,
    names: Namespace,
    value_inputs: bool = False,
    seed: int = SEED,
    x: tuple[float, ...] = X,
) -> str | None:
    """``__call__``: micrograd's output from the reader's weights, and every gradient after it
    (its parameters() first: the reader's weights are read from them).

    A hidden case is this probe on another network, seed and input.
    """
    model, params = _listed(net, names, seed)
    if isinstance(params, str):
        return params
    reference = net.build([p.data for p in params])
    x = x[: net.sizes[0]]
    theirs_x = [Value(v) for v in x]
    mine_x: list[Any] = [names["Value"](v) for v in x] if value_inputs else []
    out = model(mine_x if value_inputs else list(x))
    want = reference(theirs_x)
    call = f"`model({_inputs(x, value_inputs)})` with model = {net.constructor}"
    shape = _shape(out, want, names["Value"])
    if shape is not None:
        return f"{call} returned {shape}"
    mine, theirs = (list(out), want) if isinstance(want, list) else ([out], [want])
    for i, (m, t) in enumerate(zip(mine, theirs, strict=True)):
        if not same(as_float(m.data), t.data):
            where = "out.data" if len(theirs) == 1 else f"out[{i}].data"
            return (
                f"{call} gave {where} = {show(as_float(m.data), t.data)}; expected "
                f"{show(t.data, as_float(m.data))} (micrograd's {net.kind} with your weights)"
            )
    sum(mine[1:], mine[0]).backward()  # the sum of the outputs: each one's gradient is 1
    sum(theirs[1:], theirs[0]).backward()
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


def _inputs(x: tuple[float, ...], value_inputs: bool) -> str:
    written = "Value({})" if value_inputs else "{}"
    return "[" + ", ".join(written.format(short(v)) for v in x) + "]"


def _shape(got: Any, want: Any, value: type) -> str | None:
    """What is wrong with the shape of the output ``got``, and with what a list of outputs
    holds; None if nothing."""
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


def _probe(part: str, net: Net, then: str, run: Callable[[Net, Namespace], str | None]) -> Case:
    return Case(net.code(SEED, then), lambda names: run(net, names), part=part)


def _probes(kind: str) -> list[Case]:
    nets = NETS[kind]
    drew = "print(random.random())"
    found = [_probe(f"{kind}.__init__", net, drew, init_problem) for net in nets]
    listed = "print([p.data for p in model.parameters()])"
    for net in nets:
        found.append(_probe(f"{kind}.parameters", net, listed, parameters_problem))
        found.append(_probe(f"{kind}.__init__", net, listed, numbers_problem))
    x = X[: nets[0].sizes[0]]
    called = f"print(model({_inputs(x, False)}))"
    found += [_probe(f"{kind}.__call__", net, called, call_problem) for net in nets]
    if kind == "Neuron":
        backward = f"x = {_inputs(x, True)}\nout = model(x)\nout.backward()\nprint(x[0].grad)"
        with_values = functools.partial(call_problem, value_inputs=True)
        found.append(_probe("Neuron.__call__", nets[0], backward, with_values))
    return found


#: The network zero_grad() is probed on, and the gradients it is given first (each its own).
ZERO_GRAD_NET = Net("MLP", (3, 2, 1))
_GRADS = "for i, p in enumerate(model.parameters()):\n    p.grad = 0.5 + i"


def zero_grad_problem(net: Net, names: Namespace) -> str | None:
    """``zero_grad()``: every parameter's gradient 0.0, and every number as it was.

    Training calls it before each backward(); a zero_grad that resets something
    else passes every forward pass, and only the training loop would show it.
    """
    model = net.seeded(names, SEED)
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
ZERO_GRAD_PROBE = Case(
    ZERO_GRAD_NET.code(
        SEED,
        f"{_GRADS}\nmodel.zero_grad()\nprint([(p.data, p.grad) for p in model.parameters()])",
    ),
    lambda names: zero_grad_problem(ZERO_GRAD_NET, names),
    part="Module.zero_grad",
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


def _case(rng: random.Random, kind: str, sizes: tuple[int, ...], value_inputs: bool) -> Case:
    """A hidden case: the probe of ``__call__`` on another network, and a seed and an input
    drawn from ``rng``."""
    net, seed = Net(kind, sizes), rng.randrange(1000)
    x = tuple(number(rng, -2, 2) for _ in range(sizes[0]))
    out = "out" if net.layers[-1][1] == 1 else "sum(out)"
    then = f"out = model({_inputs(x, value_inputs)})\n{out}.backward()"
    return Case(net.code(seed, then), lambda names: call_problem(net, names, value_inputs, seed, x))


def _cases(rng: random.Random) -> tuple[Case, ...]:
    shapes = [
        ("Neuron", (3,), False),
        ("Neuron", (1,), False),
        ("Neuron", (4,), True),
        ("Layer", (3, 4), False),
        ("Layer", (2, 1), False),
        ("MLP", (3, 4, 4, 1), False),
        ("MLP", (2, 3, 2), False),
        ("MLP", (3, 1, 2), False),
        ("MLP", (2, 3, 1, 1), False),
        ("MLP", (4, 2, 3, 1), True),
        ("MLP", (1, 2, 1), False),
    ]
    return tuple(_case(rng, kind, sizes, values) for kind, sizes, values in shapes)


# -- the known mistakes ------------------------------------------------------------------------


def _no_bias(namespace: Namespace) -> Finding | None:
    net = Net("MLP", (3, 4, 4, 1))  # the page's network, drawn after random.seed(1)
    params = attempt(lambda names: net.seeded(names, 1).parameters(), namespace)
    if params is None or len(params) != net.weight_count:
        return None
    counts = {"weights": net.weight_count, "biases": net.bias_count}
    fields = {"net": net.constructor, "total": net.weight_count + net.bias_count, **counts}
    return Finding(net.code(1, "print(len(model.parameters()))"), fields=fields)


def _run(net: Net, x: list[float], seed: int) -> Callable[[Namespace], tuple[Any, Any]]:
    """A probe: the reader's ``net`` drawn after ``random.seed(seed)``, and its output on x."""

    def look(names: Namespace) -> tuple[Any, Any]:
        model = net.seeded(names, seed)
        return model, model(list(x))

    return look


def _output_with(net: Net, weights: list[float], hidden: str, output: str) -> Any:
    """The output on ``X`` of micrograd's ``net`` holding ``weights``, with these activations."""
    out = net.build(weights, hidden, output)(list(X))
    return [o.data for o in out] if isinstance(out, list) else out.data


def _activations(net: Net, hidden: str, output: str) -> Callable[[Namespace], Finding | None]:
    """A detector: the reader's ``net`` gives on ``X`` what micrograd's gives with these
    activations (``"tanh"`` or ``"linear"``, of the hidden layers and of the output layer),
    where tanh in every neuron gives another output."""

    def detect(namespace: Namespace) -> Finding | None:
        made = attempt(_run(net, list(X), 2), namespace)
        if made is None:
            return None
        model, out = made
        got = [o.data for o in out] if isinstance(out, (list, tuple)) else out.data
        weights = [p.data for p in model.parameters()]
        if len(weights) != net.weight_count + net.bias_count:
            return None  # parameters() is wrong: its own probe says how
        wrong = _output_with(net, weights, hidden, output)
        right = _output_with(net, weights, "tanh", "tanh")
        if not same(got, wrong) or same(wrong, right):
            return None
        code = net.code(2, f"print(model({list(X)}))")
        fields = {"model": net.constructor, "x": list(X), "got": show(got), "right": show(right)}
        return Finding(code, fields=fields)

    return detect


_HIDDEN_ONE = Net("MLP", (2, 1, 2)).code(3, "out = model([0.5, -1.0])")
_OUTPUT_ONE = Net("MLP", (2, 3, 1)).code(3, "out = model([0.5, -1.0])")


def _one_neuron_layer(namespace: Namespace) -> Finding | None:
    error = attempt_error(_run(Net("MLP", (2, 1, 2)), [0.5, -1.0], 3), namespace)
    # Only a one-neuron hidden layer may raise: the same network two neurons wide must run.
    wider = attempt_error(_run(Net("MLP", (2, 2, 2)), [0.5, -1.0], 3), namespace)
    if isinstance(error, TypeError) and wider is None:
        return Finding(_HIDDEN_ONE, fields={"error": error})
    made = attempt(_run(Net("MLP", (2, 3, 1)), [0.5, -1.0], 3), namespace)
    if made is None:
        return None
    _, out = made
    if not (isinstance(out, (list, tuple)) and len(out) == 1):
        return None
    return Finding(_OUTPUT_ONE, says="listed")


MISTAKES = (
    # A detector: the message shows the mistake on the page's network, numbers no probe of a
    # neuron sees.
    Mistake.known(STEP, "no-bias", _no_bias),
    # A detector: the message shows w · x + b itself beside its tanh, numbers the probe does
    # not compute.
    Mistake.known(STEP, "no-tanh", _activations(Net("Neuron", (3,)), "linear", "linear")),
    # A detector: made in any of three methods; the message sets the output against its tanh.
    Mistake.known(STEP, "last-layer-linear", _activations(Net("MLP", (3, 4, 1)), "tanh", "linear")),
    # A detector: made in MLP.__call__ or Layer.__call__, on any network with a one-neuron layer.
    Mistake.known(STEP, "one-neuron-layer", _one_neuron_layer),
    Mistake.known(STEP, "zero-grad-resets-data"),
)


def _ready(namespace: Namespace) -> str | None:
    for name in ("Neuron", "Layer", "MLP"):
        if not isinstance(namespace.get(name), type):
            return f"There is no `{name}` yet: run the cell of step 4."
    if not hasattr(namespace.get("Value"), "backward"):
        return "Your Value has no backward() yet: run the cells of steps 1 to 3."
    return None


#: The track's step 4.
EXERCISE = Exercise(
    STEP,
    "Neuron, Layer, MLP",
    HINTS,
    "41\nValue True\n",  # what example.py prints
    _cases(random.Random(1004)),
    MISTAKES,
    _ready,
    builds_on=("value", "rules", "backward"),
    probes=PROBES,
    parts=PARTS,
)
