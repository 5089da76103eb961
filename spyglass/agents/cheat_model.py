"""The predictive model of Cheat claims: was the opponent's last claim false?

Bitan & Kraus 2018, §4.7: features computed from the information state of the player who
must answer a claim, a Random Forest with balanced classes, evaluated so that it never
trains on the player whose claims it predicts. The paper names some features: the
claimant's #caught / #cheats up to the last Call-Cheat, its #Take-a-Card / #rounds, and
the rounds played; response time, which it found useful, is not in our logs. The rest
(:data:`FEATURES`) are what a careful player looks at: how many of the claimed rank it
can see itself (a claim of more than the unseen copies is surely false), the claim's
size, the pile, the claimant's hand and record.

:func:`claim_features` needs only the answering seat's view and the moves it observed
(``(actor, observation key)`` pairs), so the same function serves the PMGA agent at play
time and the training data built from game records (:mod:`spyglass.experiments.cheat_model`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

FEATURES = (
    "claim_cards", "unseen_of_rank", "impossible", "my_cards_of_rank", "known_with_claimant",
    "claimant_hand", "my_hand", "pile", "deck", "round", "repeat",
    "claimant_caught", "caught_on_rank", "caught_per_call", "claimant_takes_per_round",
    "claimant_claims", "my_calls", "claims_since_call", "claimant_lies_caught_share",
    "hand_ratio", "last_card",
)


def claim_features(view: np.ndarray, claimant: int, history: list[tuple[int, int]]
                   ) -> np.ndarray:
    """The features (:data:`FEATURES`) of the claimant's last claim, as seen by the other
    seat (``view`` right after the claim, ``history`` its observed moves so far)."""
    from spyglass.games.cheat import kernel as K

    v = view
    me = 1 - claimant
    ref = int(v[K.V_REF])
    k = int(v[K.V_LAST_K])
    mine = int(v[K.V_HAND + ref]) + int(v[K.V_PILE + ref])
    unseen = 4 - mine - (1 if int(v[K.V_STARTER]) == ref else 0)
    takes = claims = since_call = 0
    for actor, obs in history:
        if obs & K.OBS_CALL:
            since_call = 0
        elif actor == claimant and obs == K.OBS_TAKE_OPP:
            takes += 1
        elif actor == claimant and K.OBS_CLAIM_OPP <= obs < K.OBS_TAKE_OWN:
            claims += 1
            since_call += 1
    rounds = max(int(v[K.V_ROUND]), 1)
    caught = int(v[K.V_CAUGHT_N + claimant])
    my_calls = int(v[K.V_CALLS + me])
    opp_hand = int(v[K.V_OPP_HAND])
    my_hand = int(v[K.V_HAND:K.V_HAND + 13].sum())
    return np.array([
        k, unseen, float(k > unseen), mine, int(v[K.V_KNOWN + ref]),
        opp_hand, my_hand,
        int(v[K.V_PILE:K.V_PILE + 13].sum()) + int(v[K.V_OPP_PILE]),
        int(v[K.V_DECK_N]), rounds, int(v[K.V_REPEAT]),
        caught, (int(v[K.V_CAUGHT + claimant]) >> ref) & 1,
        caught / max(my_calls, 1), takes / rounds, claims, my_calls, since_call,
        caught / max(claims, 1), opp_hand / max(my_hand, 1), float(opp_hand == 0),
    ], dtype=np.float64)


def make_forest(seed: int, trees: int = 200):
    """The classifier: a Random Forest with balanced class weights (§4.7)."""
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(n_estimators=trees, class_weight="balanced",
                                  min_samples_leaf=3, random_state=seed, n_jobs=1)


def cross_validate(x: np.ndarray, y: np.ndarray, groups: np.ndarray, seed: int,
                   folds: int = 5, trees: int = 200) -> dict:
    """Grouped k-fold: each fold holds out whole players (never trains on the claimant it
    predicts). Returns AUC, TPR and TNR (threshold ½ on the balanced forest's
    probability; "positive" = a false claim) and the fold count."""
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import GroupKFold

    n_groups = len(set(groups.tolist()))
    if n_groups < 2:
        raise ValueError("cross-validation needs claims by at least 2 players")
    if len(set(y.tolist())) < 2:
        raise ValueError("the claims are all true or all false: nothing to learn")
    folds = min(folds, n_groups)
    prob = np.zeros(len(y))
    for train, test in GroupKFold(n_splits=folds).split(x, y, groups):
        model = make_forest(seed, trees).fit(x[train], y[train])
        prob[test] = model.predict_proba(x[test])[:, list(model.classes_).index(1)] \
            if 1 in model.classes_ else 0.0
    pred = prob >= 0.5
    pos, neg = y == 1, y == 0
    return {"auc": float(roc_auc_score(y, prob)), "tpr": float(pred[pos].mean()),
            "tnr": float((~pred[neg]).mean()), "folds": folds, "claims": int(len(y)),
            "false_share": float(pos.mean()), "players": n_groups}


def train(x: np.ndarray, y: np.ndarray, seed: int, trees: int = 200):
    """The final model, on every claim."""
    return make_forest(seed, trees).fit(x, y)


def save_model(model, path: str | Path, meta: dict) -> None:
    import joblib

    joblib.dump({"format": "spyglass-cheat-model", "features": FEATURES, "model": model,
                 "meta": meta}, path)


def load_model(path: str | Path):
    """A model saved by :func:`save_model` (a ValueError for anything else)."""
    import joblib

    p = Path(path)
    if not p.is_file():
        raise ValueError(f"no model file {str(p)!r}")
    try:
        obj = joblib.load(p)
    except Exception as e:  # noqa: BLE001 - any unreadable file is the same user error
        raise ValueError(f"{str(p)!r} is not a Cheat model file: {e}") from None
    if not isinstance(obj, dict) or obj.get("format") != "spyglass-cheat-model":
        raise ValueError(f"{str(p)!r} is not a Cheat model file")
    if tuple(obj["features"]) != FEATURES:
        raise ValueError(f"{str(p)!r} was trained on other features; retrain it")
    return obj["model"]
