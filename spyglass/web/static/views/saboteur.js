// Saboteur drawn as its tunnel grid (row 1 at the top; the start on b4, the three goals
// face down on j2, j4, j6 unless turned up, or marked with what you saw by a map) and
// your hand with the tunnel shapes drawn. Pick a card in your hand (click, or Tab and
// Enter), then a marked cell on the grid (a tunnel card, "Turn it round" for the other
// way up; a rockfall; a map on a goal) or a player (broken tools and repairs), or
// discard it face down. The shared board is grid.js's gridBoard.
window.VIEWS = window.VIEWS || {};
VIEWS.saboteur = (() => {
  let picked = null, rot = 0, key = "";
  const SIDES = ["north", "east", "south", "west"];
  const opens = e => SIDES.filter((_, i) => e >> i & 1).join(", ");
  // A tunnel drawn in a box of `size` centred on x, y: a passage runs to each opening; a
  // dead end stops short of the middle (a rock).
  function tunnel(edges, dead, x, y, size) {
    const g = svgEl("g", {"aria-hidden": "true"}), h = size / 2;
    const to = [[0, -h], [h, 0], [0, h], [-h, 0]];
    to.forEach(([dx, dy], i) => { if (edges >> i & 1) {
      const f = dead ? 0.45 : 1;
      g.append(svgEl("line", {x1: x + dx * (dead ? 1 : 0), y1: y + dy * (dead ? 1 : 0), x2: x + dx * (dead ? 1 - f : 1) , y2: y + dy * (dead ? 1 - f : 1), class: "tun"}));
    } });
    if (dead) g.append(svgEl("rect", {x: x - size * 0.12, y: y - size * 0.12, width: size * 0.24, height: size * 0.24, class: "rock"}));
    return g;
  }
  const tunnelWords = (edges, dead) => `${dead ? "dead end" : "tunnel"} open ${opens(edges)}`;
  return (S, d, act) => {
    const k = `${S.table.move}|${d.hand.map(c => c.card).join(",")}`;
    if (k !== key) { key = k; picked = null; rot = 0; }
    const who = q => (q === S.seat ? "you" : S.table.seats[q].label);
    const card = picked === null ? null : d.hand[picked];
    const mine = S.your_turn && S.legal.length > 0;
    const moves = card ? S.legal.filter(x => x.card === card.card) : [];
    const rots = [...new Set(moves.filter(x => x.rot !== undefined).map(x => x.rot))];
    if (rots.length === 1) rot = rots[0];
    const onCell = new Map(moves.filter(x => x.cell !== undefined && (x.rot === undefined || x.rot === rot)).map(x => [x.cell, x]));
    const name = a => `${String.fromCharCode(97 + a % d.cols)}${Math.floor(a / d.cols) + 1}`;
    const svg = gridBoard({cols: d.cols, rows: d.rows, act, C: 50,
      label: `The tunnel grid${card ? `; ${card.name} picked` : ""}`,
      square: a => {
        const c = d.cells[a], m = onCell.get(a);
        const base = !c ? {words: "empty"}
          : c.kind === "start" ? {words: "the start (a crossroads)", cls: "start",
              draw: (x, y, C) => svgEl("g", {}, tunnel(15, false, x, y, C - 4), svgEl("text", {x, y: y + 5, "text-anchor": "middle", class: "cellmark"}, "S"))}
          : c.kind === "goal" ? (c.up
              ? {words: `goal turned up: ${c.name}`, cls: c.card === 0 ? "gold" : "goal",
                 draw: (x, y, C) => svgEl("g", {}, tunnel(c.edges, false, x, y, C - 4), svgEl("text", {x, y: y + 5, "text-anchor": "middle", class: "cellmark"}, c.card === 0 ? "G" : "o"))}
              : {words: `goal face down${c.name ? `; you saw: ${c.name}` : ""}`, cls: "goal facedown",
                 draw: (x, y) => svgEl("text", {x, y: y + 5, "text-anchor": "middle", class: "cellmark"}, c.name ? (c.card === 0 ? "gold" : "stone") : "?")})
          : {words: `${tunnelWords(c.edges, c.dead)}${c.cut ? ", cut off from the start" : ""}`, cls: c.cut ? "cut" : "",
             draw: (x, y, C) => tunnel(c.edges, c.dead, x, y, C - 4)};
        if (!m) return base;
        const what = m.card === 25 ? "rockfall here" : m.card === 26 ? "look at this goal" : `put ${tunnelWords(m.edges, card.dead)} here`;
        return {...base, words: `${base.words}; ${what}`, playable: true, cls: `${base.cls || ""} dest`, press: () => act(m.id)};
      }});
    // The players: cards in hand, broken tools, goals looked at.
    const seats = el("ul", {class: "plain", id: "sabseats"});
    d.seats.forEach((q, j) => seats.append(el("li", {class: d.to_move === j ? "acting" : ""},
      `${who(j)}${d.to_move === j ? " ◀" : ""}: ${q.cards} card${q.cards === 1 ? "" : "s"}`,
      q.broken.length ? `, broken ${q.broken.join(", ")}` : ", tools whole",
      q.looked.length ? `, looked at ${q.looked.join(" ")}` : "", q.discarded ? `, ${q.discarded} discarded` : "")));
    const board = document.getElementById("board");
    board.append(el("div", {class: "panel"}, el("h2", {}, `You are a ${d.role}`), svg,
      el("div", {class: "dim"}, `Stock: ${d.stock} cards. S the start, ? a goal face down (gold or stone: what your map showed you), G the gold, o a stone; a grey tunnel is cut off from the start.`),
      seats));
    // The hand; a card is a toggle while it is your move.
    const hand = el("div", {class: "hand", id: "hand", role: "group", "aria-label": "Your hand"});
    d.hand.forEach((c, i) => {
      const on = picked === i;
      const face = c.edges !== null
        ? svgEl("svg", {viewBox: "0 0 40 56", width: 40, height: 56, "aria-hidden": "true", class: "tuncard"}, tunnel(c.edges, c.dead, 20, 28, 36))
        : el("span", {class: "actname"}, c.name.replace("-", " "));
      hand.append(el("button", {class: `pcard hcard sab${mine ? " pickable" : ""}${on ? " selected" : ""}`, "data-i": i,
        "data-card": c.card, disabled: !mine, "aria-pressed": mine ? String(on) : null,
        "aria-label": c.edges !== null ? tunnelWords(c.edges, c.dead) : c.name.replace("-", " "),
        onclick: () => { picked = on ? null : i; rot = 0; render(); focusSel(`#hand .hcard[data-i="${i}"]`); }}, face));
    });
    board.append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`},
      el("h2", {id: "handtitle"}, S.your_turn ? "Your hand — pick a card, then where it goes" : "Your hand"), hand));
    const acts = document.getElementById("actions"); acts.innerHTML = "";
    if (!S.your_turn) { acts.append(el("span", {class: "dim"}, statusText())); return; }
    if (!card) { acts.append(el("span", {class: "dim"}, "Pick a card in your hand (click, or Tab to it and press Enter).")); return; }
    acts.append(el("span", {class: "dim"}, onCell.size ? `${card.name}: click a marked cell on the grid (or Tab to it and press Enter).`
      : moves.some(x => x.target !== undefined) ? `${card.name}: choose a player.` : `${card.name} cannot be played now; you may discard it.`));
    if (rots.length > 1)
      acts.append(el("button", {class: "move rotate", id: "rotate", onclick: () => { rot = 1 - rot; render(); focusSel("#rotate"); }},
        `Turn it round (now open ${opens(moves.find(x => x.rot === rot).edges)})`));
    for (const x of moves) if (x.target !== undefined)
      acts.append(el("button", {class: "primary play", "data-action": x.id, onclick: () => act(x.id)},
        `${x.card <= 18 ? "Break" : "Repair"} ${who(x.target) === "you" ? "your" : `${who(x.target)}'s`} ${x.tool}`));
    for (const x of moves) if (x.discard)
      acts.append(el("button", {class: "move discard", "data-action": x.id, onclick: () => act(x.id)}, "Discard it face down (a pass)"));
  };
})();
