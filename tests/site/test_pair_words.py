"""The prose's words about a stepper pair's sides: the ``pair`` role (docs/_ext/pair_words.py).

The role writes the words for side by side and keeps those for the switch with them,
for the page's runner, whose layouts (docs/_features/steppers/steppers.js) it names.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from docutils.core import publish_doctree
from docutils.parsers.rst import roles
from pair_words import LAYOUTS, WORDS, _role, pair_words, words_attributes

PAIR_LAYOUT_JS = Path(__file__).parents[2] / "docs" / "_features" / "steppers" / "steppers.js"


@pytest.fixture
def pair_role() -> None:
    roles.register_local_role("pair", _role)


def test_each_word_has_its_wording_for_every_layout_the_runner_names() -> None:
    returned = set(re.findall(r'\? "(\w+)" : "(\w+)"', PAIR_LAYOUT_JS.read_text("utf-8"))[0])
    assert returned == set(LAYOUTS)
    for which, words in WORDS.items():
        assert set(words) == set(LAYOUTS), which
        assert all(words.values()), which


def test_the_role_writes_the_side_by_side_words_and_keeps_the_switchs_ones(
    pair_role: None,
) -> None:
    doctree = publish_doctree("The engine's :pair:`first`, breadth first :pair:`second`.")
    found = list(doctree.findall(pair_words))
    assert [(node["which"], node.astext()) for node in found] == [
        ("first", "on the left"),
        ("second", "on the right"),
    ]
    assert words_attributes("first") == 'data-beside="on the left" data-switch="shown first"'


def test_a_word_the_table_has_not_fails_at_its_sentence(pair_role: None) -> None:
    doctree = publish_doctree(
        "Breadth first :pair:`right`.", settings_overrides={"report_level": 5}
    )
    messages = [m.astext() for m in doctree.findall(lambda n: n.tagname == "system_message")]
    assert any("the pair role names one of together, first, second" in m for m in messages)
    assert not list(doctree.findall(pair_words))
