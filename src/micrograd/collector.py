"""An opt-in pause of CPython's cyclic garbage collector, for a whole training loop.

Nothing in micrograd pauses the collector by itself: after any call into the
package, the collector is as the caller left it.  A graph of :class:`Value`
nodes has no reference cycles, so reference counting frees it; while a
training step's graph is alive, though, the collector scans it again and
again and finds nothing to free.  A caller who wants those scans gone for a
stretch of code says so, as with ``torch.no_grad()``:

.. code-block:: python

    with paused_gc():
        for step in range(100):
            ...

The docs page "Why it's fast" measures what it saves.
"""

from __future__ import annotations

__all__ = ["paused_gc"]

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Keep CPython's cyclic garbage collector off inside a ``with`` block.

    On exit, also when the block raises, the collector is switched back on
    if it was on at the start; if it was already off, it stays off.  Blocks
    can nest.  Reference counting still frees everything that is not in a
    reference cycle (all of micrograd's graphs) while the collector is off;
    only cyclic garbage made inside the block waits for the next collection.

    Examples
    --------
    >>> import gc
    >>> with paused_gc():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
