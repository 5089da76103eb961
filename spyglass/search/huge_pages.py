"""Zeroed numpy arrays backed by memory that asks the kernel for transparent huge pages.

A search tree of a million iterations spans hundreds of megabytes, and its nodes are
reached in no predictable order. With 4 KiB pages almost every such load also misses
the TLB, and in a virtual machine a TLB miss walks two sets of page tables; on the
machine of issue 17 that made a dependent load cost ~1 µs at 64 MB and beyond. 2 MiB
pages cut the page walks by a factor of 512 in reach. Linux gives them to a mapping
that asks with ``madvise(MADV_HUGEPAGE)`` when THP is in "madvise" (or "always") mode,
and only for 2 MiB-aligned ranges, so the arrays here start on a 2 MiB boundary.

Everything degrades to an ordinary ``np.zeros`` when the platform has no ``madvise``
or the request is refused: the results are the same, only slower.
"""

from __future__ import annotations

import mmap

import numpy as np

HUGE_PAGE = 2 << 20
#: Arrays smaller than this are allocated normally (huge pages would only waste memory).
MIN_BYTES = 4 * HUGE_PAGE


def zeros(shape, dtype) -> np.ndarray:
    """A zeroed array of ``shape``/``dtype``; large ones on 2 MiB-aligned, THP-advised memory."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape)) * dtype.itemsize
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if nbytes < MIN_BYTES or advice is None or not hasattr(mmap.mmap, "madvise"):
        return np.zeros(shape, dtype=dtype)
    size = nbytes + HUGE_PAGE  # room to slide the start to a 2 MiB boundary
    try:
        mm = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (OSError, ValueError, AttributeError):
        return np.zeros(shape, dtype=dtype)
    raw = np.frombuffer(mm, dtype=np.uint8)
    offset = (-raw.ctypes.data) % HUGE_PAGE
    try:
        mm.madvise(advice, offset, size - offset - (size - offset) % mmap.PAGESIZE)
    except (OSError, ValueError):
        pass  # THP off or unsupported: plain pages, same contents
    # Anonymous memory is zero-filled; the view keeps the mapping alive.
    return raw[offset: offset + nbytes].view(dtype).reshape(shape)


def huge_pages_mode() -> str:
    """The kernel's THP setting ("always", "madvise", "never") or "unknown"."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled", encoding="ascii") as fh:
            text = fh.read()
    except OSError:
        return "unknown"
    start, end = text.find("["), text.find("]")
    return text[start + 1: end] if 0 <= start < end else "unknown"
