"""The tree searches (numba-compiled loops over the games' kernels)."""

from spyglass.search.inline_copy import install as _install_inline_copy

_install_inline_copy()  # before any loop compiles: see spyglass.search.inline_copy
