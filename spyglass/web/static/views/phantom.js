// Phantom (m,n,k) drawn as its board: your marks, the opponent's marks you found (refused
// squares), the rest unknown; a legal square is played on the board.
window.VIEWS = window.VIEWS || {};
VIEWS.phantom = (S, d, act) => {
  const legal = new Set(S.legal.map(x => x.id));
  const mark = (t, cls) => (x, y) => svgEl("text", {x, y: y + 10, "text-anchor": "middle", class: `mark ${cls}`}, t);
  const svg = gridBoard({cols: d.m, rows: d.n, act, label: `${d.m} by ${d.n} board; you play ${d.mark}`,
    square: a => d.own.includes(a) ? {words: `your ${d.mark}`, draw: mark(d.mark, "mine")}
      : d.refused.includes(a) ? {words: `${d.other}, found when refused`, draw: mark(d.other, "theirs"), cls: "refused"}
      : {words: "unknown", playable: legal.has(a)}});
  document.getElementById("board").append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`},
    el("h2", {}, `Board — ${d.k} in a row wins; you are ${d.mark}`), svg,
    el("div", {class: "dim"}, `${d.other} has ${d.opp_count} mark${d.opp_count === 1 ? "" : "s"}; you have found ${d.refused.length}. A refused square is marked ${d.other} and costs you nothing but the try.`)));
  const acts = document.getElementById("actions"); acts.innerHTML = "";
  acts.append(el("span", {class: "dim"}, S.your_turn ? "Click a square on the board (or Tab to it and press Enter)." : statusText()));
};
