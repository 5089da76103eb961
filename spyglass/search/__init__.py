"""The tree searches (numba-compiled loops over the games' kernels)."""

from spyglass.search.compile_notice import install as _install_compile_notice
from spyglass.search.inline_copy import install as _install_inline_copy

_install_inline_copy()  # before any loop compiles: see spyglass.search.inline_copy
_install_compile_notice()  # a first run that compiles says so: see spyglass.search.compile_notice
