"""The outside bots without their extras: a clear refusal naming the extra, which is both
an ImportError and a ValueError (so the command line and the web app refuse the spec
with that message instead of failing). Runs with or without the packages installed."""

from __future__ import annotations

import sys

import pytest

from spyglass.agents import registry
from spyglass.agents.base import MissingExtra


@pytest.mark.parametrize("name, module, extra", [
    ("rlcard_ddz_rule", "rlcard.games.doudizhu.utils", "outside"),
    ("openspiel_ismcts", "pyspiel", "crosscheck"),
])
def test_missing_extra_is_named(monkeypatch, name, module, extra):
    monkeypatch.setitem(sys.modules, module, None)  # import of it now fails
    with pytest.raises(MissingExtra, match=extra) as info:
        registry.make(name)
    assert isinstance(info.value, ValueError) and isinstance(info.value, ImportError)
