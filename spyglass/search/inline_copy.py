"""Halve numba's cold compile of the search loops: copy an inlined function's scope once.

Every search loop is inlined into its game's entry point, and inlines the kernel, hooks and
helpers in turn (``@njit(inline="always")``). To inline a function numba copies its IR
(``numba.core.inline_closurecall.InlineWorker.inline_ir``), deep-copying one block at a time
with a fresh memo each; every variable refers to the function's one ``Scope``, which lists
every variable, so each block copies the whole scope again: time (blocks × variables) per
inlined call. Profiled on Phantom's ICARUS SO-ISMCTS entry point (numba 0.68), this copy was
about 60% of the cold compile.

:func:`install` makes the blocks of one function share one memo while ``inline_ir`` copies
them: the copy then shares the scope and its variables between blocks exactly as the
original does (a deep copy of the function as a whole rather than block by block). The code
numba generates is unchanged (the seeded search fingerprints of ``tests/search_identity*``
are the same with and without it); the compile of that entry point takes about half the CPU
time (61.5 s -> 29.9 s). ``SPYGLASS_INLINE_COPY=0`` leaves numba as it is. Applied when
:mod:`spyglass.search` is imported; if a numba version no longer has the function, nothing
is changed.
"""

from __future__ import annotations

import copy
import os

_state: dict = {"memos": None, "installed": False}


class _SharedMemoCopy:
    """Stands in for the :mod:`copy` module inside ``inline_closurecall``: a block copied
    while ``inline_ir`` runs uses the memo of its scope; everything else is :mod:`copy`."""

    def __init__(self, block_type) -> None:
        self.block_type = block_type

    def deepcopy(self, x, memo=None):
        memos = _state["memos"]
        if memo is None and memos is not None and isinstance(x, self.block_type):
            memo = memos.setdefault(id(x.scope), {})
        return copy.deepcopy(x, memo)

    def __getattr__(self, name):
        return getattr(copy, name)


def install() -> bool:
    """Share one copy memo per scope in numba's ``inline_ir``; True if installed."""
    if _state["installed"]:
        return True
    if os.environ.get("SPYGLASS_INLINE_COPY", "1") == "0":
        return False
    try:
        from numba.core import inline_closurecall as icc
        from numba.core import ir
    except ImportError:  # pragma: no cover
        return False
    original = getattr(getattr(icc, "InlineWorker", None), "inline_ir", None)
    if original is None or getattr(icc, "copy", None) is not copy:
        return False

    def inline_ir(self, *args, **kwargs):
        # A fresh set of memos per call: its two copies (the callee, then an unmutated copy
        # of that copy) have different scopes, so they never share a memo.
        saved, _state["memos"] = _state["memos"], {}
        try:
            return original(self, *args, **kwargs)
        finally:
            _state["memos"] = saved

    icc.copy = _SharedMemoCopy(ir.Block)
    icc.InlineWorker.inline_ir = inline_ir
    _state["installed"] = True
    return True
