"""The examples of docs/pettingzoo.md and docs/openspiel.md, run as doctests."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("page, needs", [("pettingzoo.md", "pettingzoo"),
                                         ("openspiel.md", "pyspiel")])
def test_ecosystem_page_examples_run(page, needs):
    pytest.importorskip(needs, reason=f"{needs} is not installed (docs/{page} needs it)")
    result = doctest.testfile(str(DOCS / page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, result
