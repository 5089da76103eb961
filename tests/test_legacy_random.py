"""A 2012 bot's private ``random`` stream (spyglass.resistance.compat.legacy_random): the fast path
(the module's functions bound to the bot's own generator) and the state-copying path
(used while a bot module holds ``from random import ...``) draw the same numbers, and
neither touches the caller's global stream."""

from __future__ import annotations

import random

from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.compat import legacy_random as L

BODY = '''
from player import Bot
{imports}


class {name}(Bot):
    def select(self, players, count):
        return [self] + {sample}([p for p in players if p != self], count - 1)

    def vote(self, team):
        return self.game.tries == 5 or {rand}() < 0.6

    def sabotage(self):
        return {choice}([True, False, True])
'''


def _write(tmp_path, name, from_import):
    if from_import:
        text = BODY.format(imports="from random import choice, random as rnd, sample",
                           name=name, sample="sample", rand="rnd", choice="choice")
    else:
        text = BODY.format(imports="import random", name=name, sample="random.sample",
                           rand="random.random", choice="random.choice")
    path = tmp_path / f"{name.lower()}.py"
    path.write_text(text)
    return str(path)


def _events(spec, seed):
    result = play_game([spec] * 5, seed=seed, isolate="none")  # in this process
    assert result.error is None, result.error
    record = result.to_record()
    return record["roles"], record["events"]


def test_fast_and_copying_paths_draw_the_same_numbers(tmp_path):
    plain = _write(tmp_path, "Plain", from_import=False)
    random.seed(12345)
    outer = random.getstate()
    fast = [_events(plain, s) for s in range(6)]
    assert random.getstate() == outer  # the caller's global stream is untouched
    if not L._scan[1]:  # no bot module had bound the global generator's functions
        binder = _write(tmp_path, "Binder", from_import=True)
        bound = [_events(binder, s) for s in range(6)]
        assert L._scan[1]  # now the state-copying path is in use ...
        assert [_events(plain, s) for s in range(6)] == fast  # ... with the same draws
        assert bound == fast  # and the from-import bot draws them too
    assert random.getstate() == outer


def test_a_call_puts_back_whatever_functions_it_found(monkeypatch):
    """The usual case puts back the module's own functions; a caller's replacement (a
    test's mock, an outer stream) is put back as it was, not the module's originals."""
    stream = L.new_state(7)
    drawn = L.call_in_stream(stream, lambda: random.random())
    assert drawn == random.Random(7).random()
    assert all(getattr(random, n) is f for n, f in zip(L._BOUND, L._PRISTINE, strict=True))

    def mock():
        return 0.25

    monkeypatch.setattr(random, "random", mock)
    L.call_in_stream(stream, lambda: random.random())
    assert random.random is mock
    assert random.choice is L._PRISTINE_FUNCS["choice"]
