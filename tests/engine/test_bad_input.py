"""Bad input gets a clear TypeError / ValueError / ZeroDivisionError that says what was wrong.

Validation never relies on ``assert`` (which ``python -O`` strips): the last test
runs every case again in a ``python -O`` subprocess.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from scripts import run_python

from micrograd.engine import Value, new_node
from micrograd.nn import MLP, Layer, Neuron

# (expression, exception type, regex the message must match); each expression is
# evaluated with Value, Neuron, Layer and MLP in scope, here and under `python -O`.
Case = tuple[str, type[Exception], str]

ENGINE_CASES: list[Case] = [
    ("Value('3')", TypeError, r"str"),
    ("Value(None)", TypeError, r"NoneType"),
    ("Value(1 + 2j)", TypeError, r"complex"),
    ("Value(Value(1))", TypeError, r"Value"),
    ("Value([1.0])", TypeError, r"list"),
    ("Value(3.0) ** Value(2)", TypeError, r"Value"),
    ("Value(3.0) ** '2'", TypeError, r"str"),
    ("Value(3.0) ** None", TypeError, r"NoneType"),
    ("Value(3.0) ** 1j", TypeError, r"complex"),
    ("Value(3.0) + 'a'", TypeError, r"'Value' and 'str'"),
    ("'a' + Value(3.0)", TypeError, r"Value"),
    ("Value(3.0) * None", TypeError, r"'Value' and 'NoneType'"),
    ("None * Value(3.0)", TypeError, r"NoneType"),
    ("None + Value(3.0)", TypeError, r"NoneType"),
    ("Value(3.0) - 'a'", TypeError, r"'Value' and 'str'"),
    ("'a' - Value(3.0)", TypeError, r"'str' and 'Value'"),
    ("Value(3.0) / [1]", TypeError, r"'Value' and 'list'"),
    ("[1] / Value(3.0)", TypeError, r"'list' and 'Value'"),
    ("Value(-1).log()", ValueError, r"log.*positive.*-1\.0"),
    ("Value(0).log()", ValueError, r"log.*positive.*0\.0"),
    ("Value(-8) ** 0.5", ValueError, r"-8\.0.*0\.5.*not a real"),
    ("Value(1) / Value(0)", ZeroDivisionError, r"division"),
    ("Value(1) / 0", ZeroDivisionError, r"division"),
    ("1 / Value(0)", ZeroDivisionError, r"division"),
    ("Value(0) ** (-1)", ZeroDivisionError, r"negative power"),
    ("Value(1e6).exp()", OverflowError, r"exp"),
    ("new_node(1.0, 'f', rule, 2.0)", TypeError, r"new_node: input a must be a Value, got 2\.0"),
    ("new_node(1.0, 'f', rule, Value(1), 'b')", TypeError, r"input b must be a Value, got 'b'"),
    ("new_node(1.0, 'f', None, Value(1))", TypeError, r"rule must be a function.*None"),
    ("new_node('1', 'f', rule, Value(1))", TypeError, r"real number.*str"),
    ("Value(1.0, (Value(1), 2.0))", ValueError, r"_children.*\['Value', 'float'\]"),
]

NN_CASES: list[Case] = [
    ("Neuron(0)", ValueError, r"nin must be at least 1, got 0"),
    ("Neuron(-2)", ValueError, r"nin must be at least 1"),
    ("Neuron('3')", TypeError, r"nin must be an int.*str"),
    ("Neuron(2.0)", TypeError, r"nin must be an int.*float"),
    ("Neuron(True)", TypeError, r"nin must be an int.*bool"),
    ("Neuron(2, activation='bogus')", ValueError, r"unknown activation 'bogus'"),
    ("Layer(2, 0)", ValueError, r"nout must be at least 1"),
    ("MLP(2, 16)", TypeError, r"nouts must be a list.*16"),
    ("MLP(2, '16')", TypeError, r"nouts must be a list"),
    ("MLP(2, [])", ValueError, r"nouts must name at least one layer"),
    ("MLP(0, [1])", ValueError, r"nin must be at least 1"),
    ("MLP(2, [16, 0, 1])", ValueError, r"nout must be at least 1"),
    ("MLP(2, [16, '1'])", TypeError, r"must be an int.*str"),
    ("MLP(2, [4, 1], activation='bogus')", ValueError, r"unknown activation 'bogus'"),
    ("MLP(2, [4, 1], output_activation='bogus')", ValueError, r"unknown activation 'bogus'"),
    ("MLP(2, [1], activation='bogus')", ValueError, r"unknown activation 'bogus'"),
    ("MLP(2, [3, 1])([1.0])", ValueError, r"2 inputs, got 1"),
    ("MLP(2, [3, 1])([1.0, 2.0, 3.0])", ValueError, r"2 inputs, got 3"),
    ("Neuron(3)([1.0, 2.0])", ValueError, r"3 inputs, got 2"),
    ("Layer(2, 4)([])", ValueError, r"2 inputs, got 0"),
]

ALL_CASES = ENGINE_CASES + NN_CASES


def rule(out: Value) -> None:
    """A backward rule for the new_node cases."""


NAMESPACE = {
    "Value": Value,
    "Neuron": Neuron,
    "Layer": Layer,
    "MLP": MLP,
    "new_node": new_node,
    "rule": rule,
}


@pytest.mark.parametrize(
    ("expression", "error", "message"), ALL_CASES, ids=[c[0] for c in ALL_CASES]
)
def test_bad_input_raises_a_clear_error(
    expression: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        eval(expression, dict(NAMESPACE))


def test_a_failed_operation_builds_no_node_and_leaves_inputs_alone() -> None:
    a = Value(-1.0)
    with pytest.raises(ValueError, match="log"):
        a.log()
    assert (a.data, a.grad, a._prev) == (-1.0, 0.0, ())


# The same cases, run by `python -O` (asserts stripped): each must still raise the same
# exception type.
UNDER_O_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from micrograd.engine import Value, new_node
    from micrograd.nn import MLP, Layer, Neuron

    def rule(out):
        pass

    assert False, "this line proves asserts are stripped"
    results = {}
    for expression in json.loads(sys.argv[1]):
        try:
            eval(expression)
        except Exception as error:
            results[expression] = type(error).__name__
        else:
            results[expression] = "no error"
    print(json.dumps(results))
    """
)


def test_validation_does_not_rely_on_assert_under_python_dash_o() -> None:
    expressions = [case[0] for case in ALL_CASES]
    result = run_python("-O", "-c", UNDER_O_SCRIPT, json.dumps(expressions))
    results = json.loads(result.stdout)
    expected = {case[0]: case[1].__name__ for case in ALL_CASES}
    assert results == expected
