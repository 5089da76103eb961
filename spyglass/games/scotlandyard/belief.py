"""The propagation step of belief inference on Scotland Yard (Whitehouse 2014, §7.3).

In multiple-tree ISMCTS with inference (Algorithm 7) a player's belief φ over
determinizations is updated in two steps: a game-specific *propagation* step that maps the
belief before a move to the prior after it, then the game-independent inference step
(eq. 2). In Scotland Yard a determinization is Mr X's station, which his moves change;
the thesis propagates φ "by considering all actions in the partially observable move m to
be equally likely" (§7.3, Example 2). :func:`propagate` is that step for every move the
seekers observe, the hard constraints included (a station a detective searched, a
surfacing, a ``pass``). Beliefs are arrays indexed by station (index 0 unused).
"""

from __future__ import annotations

import numpy as np

from spyglass.games.scotlandyard import kernel as K
from spyglass.games.scotlandyard.board import N_STATIONS


def propagate(phi: np.ndarray, view: np.ndarray, obs: int) -> np.ndarray:
    """The belief over Mr X's station after the move the seekers saw as ``obs``.

    ``phi``: the belief before the move (``N_STATIONS + 1`` weights, index = station);
    ``view``: a seeker's view *before* the move; ``obs``: the seekers' observation key.
    Mr X's hidden move with ticket ``t`` from station ``u`` spreads ``phi[u]`` equally over
    his legal moves with ``t`` from ``u``; a move seen whole (a surfacing, a capture) puts
    all weight on its station; a detective's move removes its station; ``double`` keeps
    the stations he can move from and ``pass`` those he cannot. The result is normalised;
    all zeros if ``phi`` gave no weight to any station consistent with the move.
    """
    phi = np.asarray(phi, dtype=np.float64)
    if phi.shape != (N_STATIONS + 1,):
        raise ValueError(f"phi must have {N_STATIONS + 1} entries (index = station)")
    s = np.asarray(view[:K.STATE_SIZE], dtype=np.int64).copy()
    out = np.zeros_like(phi)
    obs = int(obs)
    if obs >= K.OBS_HIDDEN or int(s[K.TURN]) == 0:
        if obs >= K.OBS_HIDDEN:
            ticket = obs - K.OBS_HIDDEN
            wanted = None
        else:
            ticket, wanted = None, obs - 1
        buf = np.empty(K.MAX_LEGAL, dtype=np.int64)
        for u in np.flatnonzero(phi):
            s[K.MRX_POS] = u
            legal = buf[:K.legal_actions(s, buf)].tolist()
            if wanted is not None:  # double, pass or a surfacing move: seen whole
                if wanted in legal:
                    if wanted >= K.N_MOVE_IDS:
                        out[u] += phi[u]
                    else:
                        out[wanted % N_STATIONS + 1] += phi[u]
                continue
            moves = [a for a in legal if a < K.N_MOVE_IDS and a // N_STATIONS == ticket]
            for a in moves:
                out[a % N_STATIONS + 1] += phi[u] / len(moves)
    else:
        rest = (obs - 1) % K.OBS_DETECTIVE
        station = rest % K.OBS_CAPTURE % N_STATIONS + 1
        if rest >= K.OBS_CAPTURE:
            out[station] = 1.0
        else:
            out[:] = phi
            out[station] = 0.0
    total = out.sum()
    return out / total if total > 0 else out
