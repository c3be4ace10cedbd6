"""The mutant generator (``mutants.py``): every operator, a site a mutant, the reader's code only.

On a small sample every operator makes at least one mutant, each mutant's
code differs from the original in exactly its one function, and nothing a
starter gives (a method given verbatim, module-level data) is ever mutated.
Then the same on the track's own steps.
"""

from __future__ import annotations

import ast
import re

import pytest
from book_runtime.features.track.checks import EXERCISES
from mutants import OPERATORS, all_mutants, functions, mutants_of, readers_functions

STARTER = """\
import math

SIZES = [1, 2]


class Value:
    def given(self):
        return 1.0

    def mine(self, other):
        raise NotImplementedError
"""

SOLUTION = '''\
import math

SIZES = [1, 2]


class Value:
    def given(self):
        return 1.0

    def mine(self, other):
        """A docstring, which no operator touches."""
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data - other.data ** 2, (self, other), "-")

        def _backward():
            self.grad += out.grad
            other.grad -= -other.data * out.grad

        out._backward = _backward
        for node in reversed([out]):
            if node not in []:
                out.grad = math.tanh(node.data)
        return [out, self] if True else out

    def also_mine(self):
        return (self, self.data)
'''

#: What each operator must make of the sample, among others (the changed text, unparsed).
EXPECTED = {
    "augassign": "self.grad = out.grad",
    "sign": "self.grad -= out.grad",
    "swap-operands": "2 ** other.data",
    "swap-name": "self.grad += other.grad",
    "drop-grad": "other.grad -= -other.data\n",
    "drop-statement": "def _backward():\n            other.grad -=",
    "not-reversed": "for node in [out]:",
    "membership": "if True:",
    "return": "return (self,)\n",
    "branch": "other = other\n",
    "constant": "other.data ** 3",
}


@pytest.fixture(scope="module")
def sample() -> list:  # type: ignore[type-arg]
    return mutants_of("sample", SOLUTION, STARTER)


def test_each_operator_makes_a_mutant_of_the_sample(sample: list) -> None:  # type: ignore[type-arg]
    assert set(EXPECTED) == set(OPERATORS)
    for operator, text in EXPECTED.items():
        made = [m for m in sample if m.operator == operator]
        assert made, operator
        assert any(text in m.code for m in made), (operator, [m.description for m in made])


def test_more_of_each_operator_on_the_sample(sample: list) -> None:  # type: ignore[type-arg]
    codes = [m.code for m in sample]
    for text in [
        "Value(-other)",  # a minus put before a computed number
        "math.tanh(-node.data)",
        "other.grad -= other.data * out.grad",  # a unary minus removed
        "return None",
        "return out\n",  # a branch of the returned conditional
        "return [out, self]\n",
        "return (self.data,)\n",  # the other element of the returned tuple dropped
        "if False else out",  # a constant True
        "self.data + other.data ** 2",  # binary - to +
    ]:
        assert any(text in code for code in codes), text


def test_a_mutant_changes_one_function_and_differs_from_the_original(
    sample: list,  # type: ignore[type-arg]
) -> None:
    original = {n: ast.dump(f) for n, f in functions(ast.parse(SOLUTION)).items()}
    assert len({m.code for m in sample}) == len(sample), "no two mutants alike"
    for mutant in sample:
        compile(mutant.code, mutant.id, "exec")
        mine = {n: ast.dump(f) for n, f in functions(ast.parse(mutant.code)).items()}
        changed = [n for n in original if mine.get(n) != original[n]]
        assert changed == [mutant.part], mutant.id
    assert {m.part for m in sample} == {"Value.mine", "Value.also_mine"}


def test_a_nested_function_belongs_to_its_method(sample: list) -> None:  # type: ignore[type-arg]
    inner = [m for m in sample if "self.grad = out.grad" in m.code]
    assert inner
    assert {m.part for m in inner} == {"Value.mine"}


def test_the_starters_functions_and_data_are_not_the_readers() -> None:
    assert readers_functions(SOLUTION, STARTER) == ["Value.mine", "Value.also_mine"]
    made = mutants_of("sample", SOLUTION, STARTER)
    for mutant in made:
        tree = ast.parse(mutant.code)
        assert ast.unparse(tree.body[1]) == "SIZES = [1, 2]"
        assert ast.unparse(functions(tree)["Value.given"]).endswith("return 1.0")
    # The docstring is never dropped: dropping it changes nothing.
    assert all('"""A docstring' in m.code or "'A docstring" in m.code for m in made)


def test_mutant_ids_name_step_part_operator_and_number(sample: list) -> None:  # type: ignore[type-arg]
    ids = [m.id for m in sample]
    assert len(set(ids)) == len(ids)
    for mutant in sample:
        step, part, operator, number = mutant.id.split(":")
        assert (step, part, operator) == ("sample", mutant.part, mutant.operator)
        assert int(number) >= 1
        assert re.fullmatch(r"line \d+: `.+` (->|dropped).*", mutant.description)


# -- the track's steps -----------------------------------------------------------------------------

#: What each step's starter gives: never mutated.
GIVEN = {
    "value": {"Value.__repr__"},
    "rules": {"Value.__init__"},
    "nn": {"Module.parameters", "Module.zero_grad"},
}


@pytest.mark.parametrize("step", list(EXERCISES))
def test_only_the_readers_methods_of_a_step_are_mutated(step: str) -> None:
    exercise = EXERCISES[step]
    mine = readers_functions(exercise.solution, exercise.starter)
    assert mine
    assert not GIVEN.get(step, set()) & set(mine)
    made = [m for m in all_mutants() if m.step == step]
    assert {m.part for m in made} == set(mine)
    original = {n: ast.dump(f) for n, f in functions(ast.parse(exercise.solution)).items()}
    top = [
        ast.dump(n) for n in ast.parse(exercise.solution).body if not isinstance(n, ast.ClassDef)
    ]
    for mutant in made:
        tree = ast.parse(mutant.code)
        changed = {n for n, f in functions(tree).items() if ast.dump(f) != original[n]}
        assert changed == {mutant.part}, mutant.id
        # Module-level data (training's xs and ys) and imports stay as they are.
        others = [ast.dump(n) for n in tree.body if not isinstance(n, (ast.ClassDef,))]
        data = [d for d in top if not d.startswith("FunctionDef")]
        assert [d for d in others if not d.startswith("FunctionDef")] == data, mutant.id


def test_the_track_has_mutants_of_every_operator() -> None:
    assert {m.operator for m in all_mutants()} == set(OPERATORS)
