"""Bit counting for card masks: the CPU's popcount and trailing-zero count when compiled.

A hand is a 52-bit mask, and the rules count and index its bits at every move. Numba
does not turn the portable shift-and-add popcount into the ``popcnt`` instruction, and
that alone made random Hearts playouts ~1.5x slower. So :func:`popcount`,
:func:`lowest_index` and :func:`highest_index` are plain Python functions (what runs under
``NUMBA_DISABLE_JIT=1``) with numba overloads that emit LLVM's ``ctpop``/``cttz``/``ctlz``
intrinsics (what runs compiled). Both give the same results for masks below 2**63.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic, overload


def popcount(x: int) -> int:
    """Number of set bits of a non-negative int below 2**63 (no overflow uncompiled)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


def lowest_index(x: int) -> int:
    """Index of the lowest set bit of ``x`` (> 0)."""
    return popcount((x & -x) - 1)


def highest_index(x: int) -> int:
    """Index of the highest set bit of ``x`` (0 < x < 2**63)."""
    return int(x).bit_length() - 1


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.int64), codegen


@intrinsic
def _ctlz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.int64), codegen


@overload(popcount, jit_options={"cache": True}, inline="always")
def _popcount_compiled(x):
    def impl(x):
        return _ctpop(x)
    return impl


@overload(lowest_index, jit_options={"cache": True}, inline="always")
def _lowest_index_compiled(x):
    def impl(x):
        return _cttz(x)
    return impl


@overload(highest_index, jit_options={"cache": True}, inline="always")
def _highest_index_compiled(x):
    def impl(x):
        return 63 - _ctlz(x)
    return impl
