// Scotland Yard drawn as its map: the 199 stations where the printed board has them
// (spyglass/games/scotlandyard/positions.txt), taxi, bus, underground and ferry lines,
// the detectives on their stations, Mr X only in his own view; the stations Mr X may be
// on (the seekers' constraint set) on request. Click a marked station, then the ticket
// to go there with (Tab and Enter work too); "double" and "pass" are buttons. On a
// phone the map scrolls sideways. Mr X's travel log and everyone's tickets below it.
window.VIEWS = window.VIEWS || {};
VIEWS.scotlandyard = (() => {
  let picked = null, key = "", showPossible = false;
  const R = 17;
  return (S, d, act) => {
    const k = `${S.table.move}`;
    if (k !== key) { key = k; picked = null; }
    const moves = S.legal.filter(x => x.to !== undefined);
    const dests = new Map();
    for (const m of moves) dests.set(m.to, [...(dests.get(m.to) || []), m]);
    if (picked !== null && !dests.has(picked)) picked = null;
    const {xy, edges, edge_names} = d.map;
    const det = new Map(d.detectives.map(x => [x.at, x]));
    const poss = new Set(showPossible ? d.possible : []);
    const svg = svgEl("svg", {viewBox: "0 0 1640 1230", class: "symap", role: "group",
      "aria-label": `The map of London's 199 stations${d.mrx_at ? `; you, Mr X, are at ${d.mrx_at}` : ""}; ${d.detectives.map(x => `${x.colour} at ${x.at}`).join(", ")}`});
    const lines = svgEl("g", {"aria-hidden": "true"});
    for (const [a, b, t] of edges) {
      const [x1, y1] = xy[a - 1], [x2, y2] = xy[b - 1];
      lines.append(svgEl("line", {x1: x1 + 20, y1: y1 + 20, x2: x2 + 20, y2: y2 + 20, class: `edge ${edge_names[t]}`}));
    }
    svg.append(lines);
    xy.forEach(([x, y], i) => {
      const st = i + 1, ms = dests.get(st), dt = det.get(st);
      const cls = `station${ms ? " playable dest" : ""}${picked === st ? " picked" : ""}${poss.has(st) ? " possible" : ""}${d.mrx_at === st ? " mrx" : ""}${dt ? ` det ${dt.colour}` : ""}`;
      const g = svgEl("g", {class: cls, "data-station": st});
      if (ms) g.setAttribute("aria-label", `station ${st}: by ${ms.map(m => m.ticket).join(" or ")}${poss.has(st) ? "; Mr X may be here" : ""}`);
      else g.setAttribute("aria-hidden", "true");
      g.append(svgEl("circle", {cx: x + 20, cy: y + 20, r: dt || d.mrx_at === st ? R + 5 : R}));
      g.append(svgEl("text", {x: x + 20, y: y + 26, "text-anchor": "middle"}, st));
      if (ms) pressable(g, () => { picked = picked === st ? null : st; render(); focusSel(`#board .station[data-station="${st}"]`); }, picked === st);
      svg.append(g);
    });
    const wrap = el("div", {class: "symapwrap", tabindex: 0, role: "region", "aria-label": "The map (scrolls sideways on a narrow screen)"}, svg);
    const toggle = el("button", {class: "toggle", id: "possible", "aria-pressed": String(showPossible),
      onclick: () => { showPossible = !showPossible; render(); focusSel("#possible"); }},
      `${showPossible ? "Hide" : "Show"} where Mr X may be (${d.possible.length} station${d.possible.length === 1 ? "" : "s"})`);
    const board = document.getElementById("board");
    board.append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`},
      el("h2", {}, `You are ${d.you} · Mr X has moved ${d.log.length} of ${d.rounds} times`),
      el("p", {}, toggle, " ", el("span", {class: "dim"}, d.mrx_at ? `You are at ${d.mrx_at} (a yellow ring).` : d.last_seen ? `Mr X last surfaced at ${d.last_seen}.` : "Mr X has not surfaced yet.")),
      showPossible ? el("p", {class: "dim", id: "possiblelist"}, `Mr X may be at: ${d.possible.join(", ")}`) : null,
      wrap));
    // The log: one box per move of Mr X's, the surfacing moves marked.
    const log = el("ol", {class: "sylog", "aria-label": "Mr X's travel log"});
    for (let m = 1; m <= d.rounds; m++) {
      const e = d.log[m - 1], surf = d.surfacing.includes(m);
      log.append(el("li", {class: `${surf ? "surf" : ""}${e ? "" : " empty"}`},
        `${m}: ${e ? `${e.ticket}${e.double ? " (double)" : ""}${e.seen ? ` → ${e.seen}` : ""}` : surf ? "surfaces" : "—"}`));
    }
    const tk = t => Object.entries(t).map(([n, c]) => `${n} ${c}`).join(", ");
    const dets = el("ul", {class: "plain"}, d.detectives.map(x => el("li", {class: d.to_move === x.d ? "acting" : ""},
      `${x.colour}${d.to_move === x.d ? " ◀" : ""} at ${x.at}: ${tk(x.tickets)}`)));
    board.append(el("div", {class: "panel"}, el("h2", {}, "Mr X's log and the tickets"), log,
      el("p", {}, `Mr X${d.to_move === 0 ? " ◀" : ""}: ${tk(d.mrx_tickets)}`), dets));
    const acts = document.getElementById("actions"); acts.innerHTML = "";
    if (!S.your_turn) { acts.append(el("span", {class: "dim"}, statusText())); return; }
    acts.append(el("span", {class: "dim"}, picked !== null ? `To ${picked} by:`
      : moves.length ? `Move ${d.piece === "Mr X" ? "" : `${d.piece} `}from ${d.from}${d.double ? " (double move)" : ""}: click a marked station (or Tab to it and press Enter).` : ""));
    if (picked !== null)
      for (const m of dests.get(picked))
        acts.append(el("button", {class: `primary play ticket ${m.ticket}`, "data-action": m.id, onclick: () => act(m.id)}, `${m.ticket[0].toUpperCase()}${m.ticket.slice(1)} to ${picked}`));
    for (const x of S.legal) if (x.to === undefined)
      acts.append(el("button", {class: "move", "data-action": x.id, onclick: () => act(x.id)}, x.text === "double" ? "Play a double move" : x.text));
  };
})();
