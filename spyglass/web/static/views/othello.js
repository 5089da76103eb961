// Othello drawn as its board: black and white discs, your legal moves marked and played
// on the board; "pass" (when it is the only move) stays a button.
window.VIEWS = window.VIEWS || {};
VIEWS.othello = (S, d, act) => {
  const legal = new Set(S.legal.map(x => x.id));
  const disc = colour => (x, y, C) => svgEl("circle", {cx: x, cy: y, r: C * 0.38, class: `disc ${colour}`});
  const me = d.you;
  const svg = gridBoard({cols: 8, rows: 8, act, C: 48, label: `Othello board; you play ${me}`,
    square: a => d.black.includes(a) ? {words: "black disc", draw: disc("black")}
      : d.white.includes(a) ? {words: "white disc", draw: disc("white")}
      : {words: "empty", playable: legal.has(a), cls: legal.has(a) ? "hint" : ""}});
  document.getElementById("board").append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`},
    el("h2", {}, `Black ${d.black.length} – White ${d.white.length}; you are ${me}`), svg));
  const acts = document.getElementById("actions"); acts.innerHTML = "";
  acts.append(el("span", {class: "dim"}, S.your_turn ? "Click a marked square (or Tab to it and press Enter)." : statusText()));
  for (const x of S.legal) if (x.id >= 64)
    acts.append(el("button", {class: "move", "data-action": x.id, onclick: () => act(x.id)}, x.text));
};
