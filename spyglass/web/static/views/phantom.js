// Phantom (m,n,k) drawn as its board: your marks, the opponent's marks you found (refused
// squares), the rest unknown; a legal square is played by clicking it (or Enter).
window.VIEWS = window.VIEWS || {};
VIEWS.phantom = (S, d, act) => {
  const board = document.getElementById("board"), C = 56, P = 24;
  const legal = new Map(S.legal.map(x => [x.id, x]));
  const svg = svgEl("svg", {viewBox: `0 0 ${P + d.m * C + 4} ${P + d.n * C + 4}`, class: "boardsvg", role: "group",
    "aria-label": `${d.m} by ${d.n} board; you play ${d.mark}`});
  for (let c = 0; c < d.m; c++) svg.append(svgEl("text", {x: P + c * C + C / 2, y: 16, "text-anchor": "middle", "aria-hidden": "true"}, String.fromCharCode(97 + c)));
  for (let r = 0; r < d.n; r++) {
    const row = svgEl("g", {});
    row.append(svgEl("text", {x: 8, y: P + r * C + C / 2 + 4, "aria-hidden": "true"}, r + 1));
    for (let c = 0; c < d.m; c++) {
      const a = r * d.m + c, name = `${String.fromCharCode(97 + c)}${r + 1}`;
      const mine = d.own.includes(a), found = d.refused.includes(a), ok = legal.has(a);
      const what = mine ? `your ${d.mark}` : found ? `${d.other}, found when refused` : "unknown";
      const cell = svgEl("g", {role: "img", "aria-label": `${name}: ${what}${ok ? ", playable" : ""}`, "data-action": ok ? a : null,
        class: `cell${ok ? " playable" : ""}${found ? " refused" : ""}`});
      cell.append(svgEl("rect", {x: P + c * C, y: P + r * C, width: C - 4, height: C - 4, rx: 6}));
      if (mine || found) cell.append(svgEl("text", {x: P + c * C + C / 2 - 2, y: P + r * C + C / 2 + 8, "text-anchor": "middle",
        class: mine ? "mark mine" : "mark theirs"}, mine ? d.mark : d.other));
      if (ok) pressable(cell, () => act(a));
      row.append(cell);
    }
    svg.append(row);
  }
  board.append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`}, el("h2", {}, `Board — ${d.k} in a row wins; you are ${d.mark}`),
    svg, el("div", {class: "dim"}, `${d.other} has ${d.opp_count} mark${d.opp_count === 1 ? "" : "s"}; you have found ${d.refused.length}. A refused square is marked ${d.other} and costs you nothing but the try.`)));
  const acts = document.getElementById("actions"); acts.innerHTML = "";
  acts.append(el("span", {class: "dim"}, S.your_turn ? "Click a square on the board (or Tab to it and press Enter)." : statusText()));
};
