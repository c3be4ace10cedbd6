"""The book's patches of myst-nb and jupyter-cache (docs/_ext/executed_notebooks/patches.py).

Also the one myst-parser function the book stands in for (``patches.RELIED_ON``).

Each wraps an upstream function written for one version of its source: these
tests fail, naming the function and what the patch relies on, as soon as an
installed myst-nb or jupyter-cache has changed one of them, before any build.
"""

from __future__ import annotations

import inspect

import cell_manifest
from executed_notebooks import patches


def test_every_patched_function_is_upstream_as_the_patch_was_written_for() -> None:
    changes = patches.upstream_changes()
    assert not changes, "myst-nb or jupyter-cache changed under the book's patches:\n" + "\n".join(
        changes
    )


def test_execution_still_takes_record_timing() -> None:
    for patch in patches.PATCHES:
        if patch.name == "single_nb_execution":
            assert "record_timing" in inspect.signature(patches.upstream(patch)).parameters


def test_the_patches_apply_once_and_keep_the_upstream_function() -> None:
    owners = [patches._owner_and_name(patch) for patch in patches.PATCHES]
    before = [getattr(owner, name) for owner, name in owners]
    try:
        patches.apply()
        patches.apply()
        for patch, (owner, name), original in zip(patches.PATCHES, owners, before, strict=True):
            wrapper = getattr(owner, name)
            assert getattr(wrapper, patches.WRAPPED, False), patch.name
            assert patches.upstream(patch) is getattr(original, "__wrapped__", original)
            assert wrapper.__wrapped__ is patches.upstream(patch), "wrapped once, not twice"
        assert not patches.upstream_changes()
    finally:
        for (owner, name), original in zip(owners, before, strict=True):
            setattr(owner, name, original)


def test_the_cell_visitor_stands_in_for_the_functions_whose_source_is_recorded() -> None:
    recorded = [patches.upstream(patch) for patch in patches.RELIED_ON]
    assert cell_manifest.visit_container_html in recorded
    assert cell_manifest.depart_container_html in recorded
