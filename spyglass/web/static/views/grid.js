// A square board drawn in SVG, shared by the board games' views: columns a.., rows
// named by `rowName` (1.. from the top unless the game says otherwise), each square
// described by the game's view module (its words for screen readers, what is drawn in
// it, whether it is a legal move); a legal square is played by clicking it or by Tab
// and Enter. A square may carry its own `press` (a first click that picks a piece) and
// `pressed` (that piece is picked). `flip` turns the board round (the second player's
// side at the bottom); squares keep their names.
function gridBoard({cols, rows, label, square, act, C = 56, rowName = r => r + 1, flip = false}) {
  const P = 24, at = (i, n) => (flip ? n - 1 - i : i);
  const svg = svgEl("svg", {viewBox: `0 0 ${P + cols * C + 4} ${P + rows * C + 4}`, class: "boardsvg",
    role: "group", "aria-label": label, style: `max-width:${Math.min(520, P + cols * C + 4)}px`});
  for (let c = 0; c < cols; c++)
    svg.append(svgEl("text", {x: P + at(c, cols) * C + C / 2, y: 16, "text-anchor": "middle", "aria-hidden": "true"}, String.fromCharCode(97 + c)));
  for (const r of [...Array(rows).keys()].map(i => at(i, rows))) {  // Tab order: top to bottom as drawn
    svg.append(svgEl("text", {x: 8, y: P + at(r, rows) * C + C / 2 + 4, "aria-hidden": "true"}, rowName(r)));
    for (const c of [...Array(cols).keys()].map(i => at(i, cols))) {
      const a = r * cols + c, name = `${String.fromCharCode(97 + c)}${rowName(r)}`, sq = square(a);
      const x = P + at(c, cols) * C, y = P + at(r, rows) * C;
      const cell = svgEl("g", {role: "img", "aria-label": `${name}: ${sq.words}${sq.playable ? ", playable" : ""}`,
        "data-action": sq.playable && !sq.press ? a : null, "data-square": name,
        class: `cell${sq.playable ? " playable" : ""}${sq.cls ? " " + sq.cls : ""}`});
      cell.append(svgEl("rect", {x, y, width: C - 4, height: C - 4, rx: 6}));
      if (sq.draw) cell.append(sq.draw(x + (C - 4) / 2, y + (C - 4) / 2, C));
      if (sq.playable) pressable(cell, sq.press || (() => act(a)), sq.pressed);
      svg.append(cell);
    }
  }
  return svg;
}

// Pick a piece, then its target (Checkers, Backgammon): the legal moves that carry
// `from` and `to`, the pieces that can move, the piece picked (kept while the page is
// redrawn for the same move; picked for you when only one piece can move) and the moves
// from it. `pick(p)` picks p, or unpicks it.
function piecePicker() {
  let from = null, key = "";
  return S => {
    const moves = S.legal.filter(x => x.from !== undefined);
    if (`${S.table.move}` !== key) { key = `${S.table.move}`; from = null; }
    const sources = [...new Set(moves.map(x => x.from))];
    if (sources.length === 1) from = sources[0];
    return {moves, sources, from, dests: moves.filter(x => x.from === from),
            pick: p => { from = from === p ? null : p; }};
  };
}
