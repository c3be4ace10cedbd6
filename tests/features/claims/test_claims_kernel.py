"""Claims in the reader's browser: the in-browser kernel's ``claim``, an add-on.

A page's hidden cell states a claim; in the reader's browser the kernel sends
it to the page, with whether it holds for the reader's run and what it is
about (docs/_features/claims/runtime.py).  The kernel is started as the
worker starts it (browser_kernel.py).
"""

from __future__ import annotations

from types import ModuleType

from browser_kernel import run


def test_a_claim_goes_to_the_page_with_whether_it_holds_for_the_readers_run(
    kernel: ModuleType,
) -> None:
    run(kernel, "x2 = 1.0")
    page, result = run(kernel, "claim('x2_is_zero', x2 == 0, about=f'x2 = {x2}')", apart=True)
    assert result["ok"], result["error"]
    sent = {"key": "x2_is_zero", "holds": False, "otherwise": True, "about": "x2 = 1.0"}
    sent["anyInput"] = False
    assert page.addons == [("claim", sent)]


def test_a_claim_stated_wrong_is_the_cells_own_exception(kernel: ModuleType) -> None:
    page, result = run(kernel, "claim('loss falls', True)", apart=True)
    assert not result["ok"]
    assert "ValueError: a claim's key is a name" in result["error"]
    assert page.addons == []
