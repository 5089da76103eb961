"""The ``enhance=`` grammar: an ICARUS combination as text, compiled to two small arrays.

Whitehouse 2014, ch. 8 writes every enhancement as an ICARUS (records, information,
initial information, policy α, capture ξ, backpropagation ω; Definition 12) and combines
them with three operators (§8.2.4). The grammar names them::

    combination := [tree ">"] playout | tree ">"
    tree        := "base" | "rave" | "amaf" | mix       (policy at selection/expansion nodes)
    playout     := mix                                  (policy at simulation nodes)
    mix         := term ("+" term)*                     (linear combination, Spec 6 / COMB+-4)
    term        := [weight "*"] name
    name        := "random" | "mast" | "mast-gibbs" | "mast-egreedy" | "mast-roulette"
                 | "mast-ucb" | "tomast" (tree-only MAST, Gibbs) | "lgr" | "lgrf"
                 | "nast" (N = 2) | "nast<N>" (any N >= 1) | "epic"

``a>b`` is the sequential combination a ▷ b (Spec 6): ``a``'s policy at selection and
expansion nodes, ``b``'s at simulation nodes. Without ``>``, a combination is the
baseline ▷ mix, except that ``rave`` and ``amaf`` (tree policies: their records are tree
nodes) go before the ``>``: ``rave+mast`` is RAVE ▷ MAST. ``rave`` is the maxilinear
combination λ·AMAF ⊕ (1-λ)·baseline with λ = √(k/(3n+k)), k = 250 (eq. 8.2-8.3);
``amaf`` is AMAF alone (λ = 1). ``mix`` weights default to equal (Table 8.1's ½(·+·));
``0.3*mast+0.7*epic`` gives them. The empty string (or ``base``) is the baseline (Spec
1): the agent then runs the unchanged UCT / MO-ISMCTS loop. The sixteen combinations of
Table 8.1 are in :data:`TABLE_8_1`.

Parameters (§8.5: c = 0.7 for the baseline and EPIC, k = 250, τ = 1; ε = 0.2 for
ε-greedy MAST; c = 0.7 for MAST-UCB1 and NAST) are the defaults of :class:`Tuning`.

**Named departures** from the thesis's specifications are settings too, declared once in
:data:`DEPARTURES` (agents take them as ``amaf_capture=`` and ``epic_avail=``); each
defaults to the thesis's behaviour (docs/icarus.md, "Departures from the thesis"):

* ``amaf_capture``: ``selection`` (AMAF-6: the records under the *selection nodes* of
  the descent, the nodes whose legal actions all have a child) or ``tree`` (ours before
  2026-11-28: every tree node where a choice was made, the expansion node included).
  Both credit a record when its action is played at the choice or later (j > i with i
  the node's depth, j the move's 1-based index). AMAF-6 as printed indexes the record
  ⟨a1..a_{i-1}, a_j⟩ but the node ⟨a1..a_i⟩ and lets i start at 0; we read it with the
  node's own index throughout (record ⟨a1..a_i, a_j⟩ under the selection node
  ⟨a1..a_i⟩), the reading under which the move chosen at a node is credited there, as
  §3.2.3 ("not just at the point when that action was played") and Gelly and Silver's
  RAVE, which §8.2.4 follows, have it.
* ``epic_avail``: ``all`` (EPIC-7: every record starts at (0, 0, 0) and counts each time
  it was available, so a record is made at its first availability or visit, whichever
  comes first) or ``visited`` (ours before 2026-11-28: made at its first visit, its
  availability counted from then on, so a record first visited late has a smaller m).
  Both live in the same fixed table; ``all`` fills it sooner (docs/icarus.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

# Tree kinds (cfg[TREE]).
TREE_BASE, TREE_RAVE, TREE_AMAF, TREE_MIX = 0, 1, 2, 3
# Policy kinds (components of a mix).
RANDOM, MAST, LGR, NAST, EPIC = 0, 1, 2, 3, 4
# MAST policies.
GIBBS, EGREEDY, ROULETTE, UCB = 0, 1, 2, 3

# AMAF-6's capture (cfg[C_AMAF_CAPTURE]): selection nodes only (the thesis's), or every
# tree node with a choice, the expansion node included (a named departure).
AMAF_SELECTION, AMAF_TREE = 0, 1
# EPIC-7's availability (cfg[C_EPIC_AVAIL]): every record from the search's start (the
# thesis's), or only records already visited (a named departure).
EPIC_AVAIL_ALL, EPIC_AVAIL_VISITED = 0, 1
#: The named departures: setting -> {choice: cfg value}; the first choice is the thesis's.
DEPARTURES = {
    "amaf_capture": {"selection": AMAF_SELECTION, "tree": AMAF_TREE},
    "epic_avail": {"all": EPIC_AVAIL_ALL, "visited": EPIC_AVAIL_VISITED},
}

MAX_TERMS = 8
# cfg layout (int64).
(C_TREE, C_N_TREE, C_N_SIM, C_MAST_POLICY, C_TO_MAST, C_LGR_FORGET, C_NAST_N, C_USES_MAST,
 C_USES_LGR, C_USES_NAST, C_USES_EPIC, C_USES_AMAF, C_CAPTURE_PLAYOUT, C_AMAF_CAPTURE,
 C_EPIC_AVAIL) = range(15)
C_TREE_TERMS = 16  # cfg[16 : 16 + MAX_TERMS]: the tree mix's policy kinds
C_SIM_TERMS = 16 + MAX_TERMS
CFG_SIZE = 16 + 2 * MAX_TERMS
# fcfg layout (float64).
F_RAVE_K, F_TAU, F_EPS, F_C_MAST, F_C_NAST, F_C_EPIC, F_C_AMAF = range(7)
F_TREE_W = 8
F_SIM_W = 8 + MAX_TERMS
FCFG_SIZE = 8 + 2 * MAX_TERMS

#: Table 8.1 (Whitehouse 2014): the sixteen combinations by their abbreviated names.
TABLE_8_1 = {
    "-": "", "E": "epic", "R": "rave", "ER": "rave>epic",
    "M": "mast", "EM": "mast+epic", "RM": "rave>mast", "ERM": "rave>mast+epic",
    "L": "lgrf", "EL": "lgrf+epic", "RL": "rave>lgrf", "ERL": "rave>lgrf+epic",
    "ML": "mast+lgrf", "EML": "mast+lgrf+epic", "RML": "rave>mast+lgrf",
    "ERML": "rave>mast+lgrf+epic",
}

_MAST_NAMES = {"mast": GIBBS, "mast-gibbs": GIBBS, "mast-egreedy": EGREEDY,
               "mast-roulette": ROULETTE, "mast-ucb": UCB, "tomast": GIBBS}
_TERM = re.compile(r"^(?:(\d+(?:\.\d*)?|\.\d+)\*)?([a-z][a-z0-9-]*)$")


@dataclass(frozen=True)
class Tuning:
    """The enhancements' constants (Whitehouse 2014, §8.5 and §8.2.3) and the named
    departures (:data:`DEPARTURES`; their defaults are the thesis's)."""

    rave_k: float = 250.0
    tau: float = 1.0
    epsilon: float = 0.2
    c_mast: float = 0.7
    c_nast: float = 0.7
    c_epic: float = 0.7
    c_amaf: float = 0.7
    amaf_capture: str = next(iter(DEPARTURES["amaf_capture"]))  # the thesis's
    epic_avail: str = next(iter(DEPARTURES["epic_avail"]))  # the thesis's


@dataclass(frozen=True)
class Combination:
    """A parsed ``enhance=`` string: ``cfg`` (int64) and ``fcfg`` (float64) for the loops."""

    text: str
    cfg: np.ndarray
    fcfg: np.ndarray

    @property
    def is_baseline(self) -> bool:
        return bool(self.cfg[C_TREE] == TREE_BASE and self.cfg[C_N_SIM] == 1
                    and self.cfg[C_SIM_TERMS] == RANDOM)

    @property
    def uses_epic(self) -> bool:
        return bool(self.cfg[C_USES_EPIC])

    @property
    def nast_n(self) -> int:
        return int(self.cfg[C_NAST_N])


def _terms(text: str, where: str) -> list[tuple[float, str]]:
    out = []
    for raw in text.split("+"):
        m = _TERM.match(raw.strip())
        if not m:
            raise ValueError(f"enhance: cannot read {raw.strip()!r} in the {where} part "
                             "(expected [weight*]name, e.g. mast or 0.5*epic)")
        out.append((float(m.group(1)) if m.group(1) else 1.0, m.group(2)))
    if len(out) > MAX_TERMS:
        raise ValueError(f"enhance: at most {MAX_TERMS} terms in the {where} part")
    return out


def parse(text: str, tuning: Tuning = Tuning()) -> Combination:
    """Read an ``enhance=`` string (grammar in the module docstring); ValueError if bad."""
    if not isinstance(text, str):
        raise TypeError(f"enhance must be a string, not {text!r}")
    key = text.strip()
    t = (TABLE_8_1[key] if key in TABLE_8_1 else key).lower().replace(" ", "")
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    fcfg = np.zeros(FCFG_SIZE, dtype=np.float64)
    fcfg[F_RAVE_K], fcfg[F_TAU], fcfg[F_EPS] = tuning.rave_k, tuning.tau, tuning.epsilon
    fcfg[F_C_MAST], fcfg[F_C_NAST] = tuning.c_mast, tuning.c_nast
    fcfg[F_C_EPIC], fcfg[F_C_AMAF] = tuning.c_epic, tuning.c_amaf
    for name, choices in DEPARTURES.items():
        if getattr(tuning, name) not in choices:
            raise ValueError(f"{name} must be one of {', '.join(choices)}, "
                             f"not {getattr(tuning, name)!r}")
    cfg[C_AMAF_CAPTURE] = DEPARTURES["amaf_capture"][tuning.amaf_capture]
    cfg[C_EPIC_AVAIL] = DEPARTURES["epic_avail"][tuning.epic_avail]
    if t.count(">") > 1:
        raise ValueError(f"enhance: at most one '>' (tree > playout) in {text!r}")
    tree_text, _, sim_text = t.rpartition(">") if ">" in t else ("", "", t)
    tree_terms = _terms(tree_text, "tree") if tree_text else []
    sim_terms = _terms(sim_text, "playout") if sim_text else []
    if ">" not in t:  # rave/amaf written without '>' belong to the tree
        tree_terms = [x for x in sim_terms if x[1] in ("rave", "amaf", "base")]
        sim_terms = [x for x in sim_terms if x[1] not in ("rave", "amaf", "base")]
    tree_names = [n for _, n in tree_terms]
    if any(n in ("rave", "amaf", "base") for n in tree_names) and len(tree_terms) > 1:
        raise ValueError("enhance: base, rave and amaf stand alone before '>' (maxilinear "
                         f"RAVE is built in); got {tree_text or t!r}")
    if "rave" in [n for _, n in sim_terms] or "amaf" in [n for _, n in sim_terms] \
            or "base" in [n for _, n in sim_terms]:
        raise ValueError("enhance: rave, amaf and base are tree policies (their records are "
                         "tree nodes): write them before '>'")
    mast_policy, nast_n = -1, 0

    def kind_of(name: str) -> int:
        nonlocal mast_policy, nast_n
        if name == "random":
            return RANDOM
        if name in _MAST_NAMES:
            pol = _MAST_NAMES[name]
            if mast_policy not in (-1, pol):
                raise ValueError("enhance: one MAST policy per combination")
            mast_policy = pol
            if name == "tomast":
                cfg[C_TO_MAST] = 1
            return MAST
        if name in ("lgr", "lgrf"):
            if cfg[C_USES_LGR] and bool(cfg[C_LGR_FORGET]) != (name == "lgrf"):
                raise ValueError("enhance: lgr and lgrf share one reply table; use one")
            cfg[C_LGR_FORGET] = name == "lgrf"
            cfg[C_USES_LGR] = 1
            return LGR
        m = re.fullmatch(r"nast(\d*)", name)
        if m:
            n = int(m.group(1)) if m.group(1) else 2
            if n < 1:
                raise ValueError("enhance: NAST's N-gram length must be >= 1")
            if nast_n not in (0, n):
                raise ValueError("enhance: one NAST length per combination")
            nast_n = n
            return NAST
        if name == "epic":
            cfg[C_USES_EPIC] = 1
            return EPIC
        raise ValueError(f"enhance: unknown enhancement {name!r}; known: random, mast, "
                         "mast-gibbs, mast-egreedy, mast-roulette, mast-ucb, tomast, lgr, "
                         "lgrf, nast, nast<N>, epic, rave, amaf, base")

    if not tree_terms or tree_names == ["base"]:
        cfg[C_TREE] = TREE_BASE
    elif tree_names == ["rave"]:
        cfg[C_TREE] = TREE_RAVE
        cfg[C_USES_AMAF] = 1
    elif tree_names == ["amaf"]:
        cfg[C_TREE] = TREE_AMAF
        cfg[C_USES_AMAF] = 1
    else:
        cfg[C_TREE] = TREE_MIX
        cfg[C_N_TREE] = len(tree_terms)
        for i, (w, name) in enumerate(tree_terms):
            cfg[C_TREE_TERMS + i] = kind_of(name)
            fcfg[F_TREE_W + i] = w
    if not sim_terms:
        sim_terms = [(1.0, "random")]
    cfg[C_N_SIM] = len(sim_terms)
    for i, (w, name) in enumerate(sim_terms):
        cfg[C_SIM_TERMS + i] = kind_of(name)
        fcfg[F_SIM_W + i] = w
    for where, n in (("tree", int(cfg[C_N_TREE])), ("playout", len(sim_terms))):
        ws = fcfg[(F_TREE_W if where == "tree" else F_SIM_W):][:n]
        if n and ws.sum() <= 0:
            raise ValueError(f"enhance: the {where} weights must not all be zero")
    cfg[C_MAST_POLICY] = max(mast_policy, 0)
    cfg[C_USES_MAST] = mast_policy >= 0
    cfg[C_NAST_N] = nast_n
    cfg[C_USES_NAST] = nast_n > 0
    # The playout's moves must be recorded when anything captures them.
    cfg[C_CAPTURE_PLAYOUT] = int(bool(cfg[C_USES_MAST] and not cfg[C_TO_MAST])
                                 or cfg[C_USES_LGR] or cfg[C_USES_NAST] or cfg[C_USES_EPIC]
                                 or cfg[C_USES_AMAF])
    return Combination(text, cfg, fcfg)
