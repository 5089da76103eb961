"""RLCard's Dou Di Zhu rule agent through the adapter (spyglass/agents/rlcard_doudizhu.py):
the move mapping on scripted hands, including the ambiguous ``333444555666``
(docs/card-games.md), and seeded games in which it plays only legal moves. Skipped
without the ``outside`` extra (pip package ``rlcard``)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("rlcard", reason="RLCard is not installed (the outside extra)")

from spyglass.agents import registry  # noqa: E402
from spyglass.agents.rlcard_doudizhu import complete_moves, reading, rlcard_tables  # noqa: E402
from spyglass.arena.match import play_match  # noqa: E402
from spyglass.games.doudizhu import kernel as K  # noqa: E402
from spyglass.games.doudizhu import tables as T  # noqa: E402
from spyglass.games.doudizhu.game import DouDiZhu, action_text  # noqa: E402


def _state(own: dict[str, int]) -> np.ndarray:
    """Seat 0 (the landlord, to lead) holds ``own`` (rank letter -> count), 20 cards."""
    hands = np.zeros((3, K.N_RANKS), dtype=np.int64)
    for ch, n in own.items():
        hands[0, T.RANK_CHARS.index(ch)] = n
    assert hands[0].sum() == 20
    rest = [r for r in range(K.N_RANKS)
            for _ in range((4 if r < 13 else 1) - int(hands[0, r]))]
    kitty = np.zeros(K.N_RANKS, dtype=np.int64)
    for i, r in enumerate(rest):
        hands[1 + i % 2, r] += 1
    # from_hands adds the kitty to the landlord: take three of seat 0's cards as the kitty.
    taken = 0
    for r in range(K.N_RANKS):
        while hands[0, r] and taken < 3:
            hands[0, r] -= 1
            kitty[r] += 1
            taken += 1
    return K.from_hands(hands, kitty, 0, 0, 0)


def _view(s: np.ndarray, p: int) -> np.ndarray:
    v = np.zeros(K.VIEW_SIZE, dtype=np.int64)
    K.view(s, p, v)
    return v


def _legal(s: np.ndarray) -> list[int]:
    return [int(K.legal_action(s, i)) for i in range(K.n_legal(s))]


AIRPLANE_HAND = {"3": 3, "4": 3, "5": 3, "6": 3, "9": 1, "T": 1, "J": 1, "Q": 1, "K": 1,
                 "A": 1, "2": 1, "B": 1}


def test_333444555666_maps_to_rlcards_reading():
    """Three of our readings share the cards; RLCard's table reads them as a four-trio
    airplane, and the adapter plays that one (base move, no kickers)."""
    s = _state(AIRPLANE_HAND)
    moves = complete_moves(_view(s, 0), _legal(s))
    seqs = moves["333444555666"]
    texts = sorted(" ".join(action_text(a) for a in seq) for seq in seqs)
    assert texts == ["333444555+sss +6 +6 +6", "333444555666", "444555666+sss +3 +3 +3"]
    card_type, _ = rlcard_tables()
    assert card_type["333444555666"][0][0] == "trio_chain_4"
    chosen = reading("333444555666", seqs, card_type["333444555666"])
    assert [action_text(a) for a in chosen] == ["333444555666"]


def test_kicker_moves_map_both_ways():
    """A trio with a solo is one RLCard string and our base move then its kicker; every
    string the adapter offers is a move RLCard's table knows or one it filters out."""
    s = _state(AIRPLANE_HAND)
    moves = complete_moves(_view(s, 0), _legal(s))
    card_type, _ = rlcard_tables()
    assert [action_text(a) for a in moves["3339"][0]] == ["333+s", "+9"]
    assert card_type["3339"][0][0] == "trio_solo"
    assert "BR" not in moves  # one joker only in this hand
    assert "3" in moves and "34567" not in moves  # no 7 or 8: no chain from 3
    # Every complete move's cards come from the hand.
    hand = _view(s, 0)[K.V_HAND:K.V_HAND + T.N_RANKS]
    for text in moves:
        if text != "pass":
            for ch in set(text):
                assert text.count(ch) <= hand[T.RANK_CHARS.index(ch)], text


def test_trace_reads_our_moves_as_rlcard_strings():
    """Our base move and kickers reach RLCard's trace as one complete move."""
    game = DouDiZhu()
    s = _state(AIRPLANE_HAND)
    agent = registry.make("rlcard_ddz_rule")
    agent.start(game, 1, _view(s, 1), 3)
    legal = {action_text(a): a for a in _legal(s)}
    for text in ("444555666+sss", "+3", "+3", "+3"):
        a = legal[text]
        obs = int(K.observe(s, a, 1))
        K.apply(s, a)
        agent.observe(obs, 0, _view(s, 1))
        legal = {action_text(x): x for x in _legal(s)} if not K.is_terminal(s) else {}
    assert agent.trace == [(0, "333444555666")]


def test_seeded_games_are_legal_and_replay():
    """Seeded games: the referee accepts every move (an illegal one ends the game with an
    error), no decision fell back, and the same seed replays the same game."""
    game = DouDiZhu()
    for seed in (1, 2):
        lineup = ["rlcard_ddz_rule", "doudizhu_rules", "rlcard_ddz_rule"]
        r = play_match(game, lineup, seed=seed)
        assert r.ok, r.error
        for seat in (0, 2):
            assert r.extra[seat]["rlcard_decisions"] > 0
            assert r.extra[seat]["rlcard_fallbacks"] == 0
        again = play_match(game, lineup, seed=seed)
        assert again.actions == r.actions
    r = play_match(game, ["soismcts:iterations=50"] + ["rlcard_ddz_rule"] * 2, seed=3)
    assert r.ok, r.error


def test_refuses_the_auction_and_other_games():
    agent = registry.make("rlcard_ddz_rule")
    game = DouDiZhu(bidding=True)
    s = game.new_state(1)
    with pytest.raises(ValueError, match="bidding"):
        agent.start(game, 0, _view(s, 0), 1)


def test_paired_bench_runs_resumes_and_refuses_other_settings(tmp_path):
    """The one-command comparison (spyglass/bench/doudizhu_vs_rlcard.py) on one deal."""
    from spyglass.bench.doudizhu_vs_rlcard import run, summarize

    out = tmp_path / "dz.jsonl"
    recs = run(out, 1, "soismcts:iterations=30", seed=4)
    recs = run(out, 1, "soismcts:iterations=30", seed=4)  # resumed: nothing replayed
    assert len(recs) == 1
    with pytest.raises(ValueError, match="other settings"):
        run(out, 1, "soismcts:iterations=31", seed=4)
    s = summarize(recs)
    for role in ("landlord", "peasant"):
        assert s[role]["deals"] == 1 and 0.0 <= s[role]["p_holm"] <= 1.0
    # Both seats' baselines come from one all-rule game: one side of it won.
    assert recs[0]["rule_landlord"] != recs[0]["rule_peasant"]
    assert s["rlcard_fallbacks"] == 0
