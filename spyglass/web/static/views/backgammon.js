// Backgammon drawn as its board from your side (your points 1-24, your home board at
// the bottom right, your checkers light): click a checker you can move (a point, or the
// bar), then the point it goes to or the bear-off tray; the dice and how many checker
// moves are left are on the board. Keyboard: Tab to a point, Enter.
window.VIEWS = window.VIEWS || {};
VIEWS.backgammon = (() => {
  const picker = piecePicker();
  const PW = 26, BAR = 30, L = 4, TOP = 20, BOT = 280, MID = 150, TRAY = 4 + 12 * PW + BAR + 8;
  const px = q => { const i = q >= 13 ? q - 13 : 12 - q; return L + i * PW + (i >= 6 ? BAR : 0); };
  const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
  function stack(n, x, top, cls) {  // n checkers from a point's base; a number beyond five
    const g = svgEl("g", {"aria-hidden": "true"});
    for (let k = 0; k < Math.min(n, 5); k++)
      g.append(svgEl("circle", {cx: x, cy: top ? TOP + 11 + 22 * k : BOT - 11 - 22 * k, r: 10.5, class: `disc ${cls}`}));
    if (n > 5) g.append(svgEl("text", {x, y: (top ? TOP + 11 + 88 : BOT - 11 - 88) + 4, "text-anchor": "middle", class: `count ${cls}`}, n));
    return g;
  }
  return (S, d, act) => {
    const P = picker(S), {moves, sources, from, dests} = P;
    const where = q => (q === 25 ? "the bar" : `point ${q}`);
    const pick = q => () => { P.pick(q); render(); focusSel(`#board [data-point="${q}"]`); };
    const svg = svgEl("svg", {viewBox: `0 0 ${TRAY + 48} 300`, class: "bgboard", role: "group",
      "aria-label": `Backgammon board from your side; you are ${d.you}, moving from 24 down to 1${from !== null ? `; ${where(from)} picked` : ""}`});
    svg.append(svgEl("rect", {x: 0, y: 0, width: TRAY + 48, height: 300, rx: 10, class: "felt"}));
    svg.append(svgEl("rect", {x: L + 6 * PW, y: 4, width: BAR, height: 292, class: "barstrip"}));
    for (let q = 1; q <= 24; q++) {
      const x = px(q), top = q >= 13, n = d.points[q - 1], dest = dests.find(m => m.to === q);
      const src = sources.includes(q), playable = (src && sources.length > 1) || !!dest;
      const words = n > 0 ? `${plural(n, "checker")} of yours` : n < 0 ? `${plural(-n, "checker")} of ${d.other}'s` : "empty";
      const g = svgEl("g", {class: `point${playable ? " playable" : ""}${src ? " src" : ""}${dest ? " dest" : ""}${from === q ? " picked" : ""}`,
        "data-point": q, role: "img",
        "aria-label": `point ${q}: ${words}${dest ? `; move ${where(from)} here with the ${dest.die}` : src ? (from === q ? ", picked" : ", can move") : ""}`});
      g.append(svgEl("polygon", {points: top ? `${x},${TOP} ${x + PW},${TOP} ${x + PW / 2},${TOP + 112}` : `${x},${BOT} ${x + PW},${BOT} ${x + PW / 2},${BOT - 112}`,
        class: `tri ${q % 2 ? "odd" : "even"}`}));
      g.append(svgEl("text", {x: x + PW / 2, y: top ? 14 : 294, "text-anchor": "middle", class: "ptnum", "aria-hidden": "true"}, q));
      if (n) g.append(stack(Math.abs(n), x + PW / 2, top, n > 0 ? "mine" : "theirs"));
      if (dest) g.append(svgEl("circle", {cx: x + PW / 2, cy: top ? TOP + 100 : BOT - 100, r: 5, class: "target"}));
      if (playable) pressable(g, dest ? () => act(dest.id) : pick(q), dest ? undefined : from === q);
      svg.append(g);
    }
    // The bar: yours at the bottom half (you enter at the top right, your 24-19), theirs above.
    const bx = L + 6 * PW + BAR / 2, barSrc = sources.includes(25);
    const bar = svgEl("g", {class: `point barpt${barSrc && sources.length > 1 ? " playable" : ""}${barSrc ? " src" : ""}${from === 25 ? " picked" : ""}`,
      "data-point": 25, role: "img", "aria-label": `the bar: ${d.bar[0]} of yours, ${d.bar[1]} of ${d.other}'s${barSrc ? ", enter from here" : ""}`});
    bar.append(svgEl("rect", {x: bx - BAR / 2, y: MID + 6, width: BAR, height: BOT - MID - 10, fill: "transparent"}));
    for (let i = 0; i < d.bar[0]; i++) bar.append(svgEl("circle", {cx: bx, cy: MID + 22 + 22 * Math.min(i, 4), r: 10.5, class: "disc mine"}));
    for (let i = 0; i < d.bar[1]; i++) bar.append(svgEl("circle", {cx: bx, cy: MID - 22 - 22 * Math.min(i, 4), r: 10.5, class: "disc theirs"}));
    if (barSrc && sources.length > 1) pressable(bar, pick(25), from === 25);
    svg.append(bar);
    // The bear-off tray: one target per die that bears the picked checker off.
    svg.append(svgEl("text", {x: TRAY + 20, y: 40, "text-anchor": "middle", class: "ptnum"}, `off ${d.off[1]}`));
    svg.append(svgEl("text", {x: TRAY + 20, y: 54, "text-anchor": "middle", class: "ptnum"}, d.other));
    svg.append(svgEl("text", {x: TRAY + 20, y: 268, "text-anchor": "middle", class: "ptnum"}, `off ${d.off[0]}`));
    svg.append(svgEl("text", {x: TRAY + 20, y: 282, "text-anchor": "middle", class: "ptnum"}, "you"));
    dests.filter(m => m.to === 0).forEach((m, i) => {
      const g = svgEl("g", {class: "point offpt playable dest", "data-point": `off${m.die}`, role: "img",
        "aria-label": `bear ${where(m.from)} off with the ${m.die}`});
      g.append(svgEl("rect", {x: TRAY + 2, y: 170 + 36 * i, width: 36, height: 30, rx: 6}));
      g.append(svgEl("text", {x: TRAY + 20, y: 190 + 36 * i, "text-anchor": "middle"}, `off ${m.die}`));
      pressable(g, () => act(m.id));
      svg.append(g);
    });
    // The dice of the turn in play, and the moves left.
    if (d.dice.length) {
      const dice = d.dice[0] === d.dice[1] ? [d.dice[0]] : d.dice;
      const who = d.to_move === S.seat ? "your" : `${d.other}'s`;
      const dz = svgEl("g", {role: "img", "aria-label": `${who} dice ${d.dice.join("-")}; ${plural(d.left, "checker move")} left this turn`});
      dice.forEach((v, i) => {
        const x = L + 6 * PW + BAR + 40 + 40 * i, used = (i === 0 ? d.uses[0] : d.uses[1]) === 0;
        dz.append(svgEl("rect", {x, y: MID - 15, width: 30, height: 30, rx: 6, class: `die${used ? " used" : ""}`}));
        dz.append(svgEl("text", {x: x + 15, y: MID + 7, "text-anchor": "middle", class: "dietext"}, v));
      });
      dz.append(svgEl("text", {x: L + 6 * PW + BAR + 130, y: MID + 5, class: "ptnum"},
        d.dice[0] === d.dice[1] ? `doubles: ${d.uses[0]} left` : `${plural(d.left, "move")} left`));
      svg.append(dz);
    }
    document.getElementById("board").append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`},
      el("h2", {}, `You are ${d.you} (light) · borne off: you ${d.off[0]}, ${d.other} ${d.off[1]}`), svg,
      el("div", {class: "dim"}, `Roll ${d.turn} of ${d.max_turns} (a draw after the last).`)));
    const acts = document.getElementById("actions"); acts.innerHTML = "";
    acts.append(el("span", {class: "dim"}, !S.your_turn ? statusText()
      : !moves.length ? "No die can be played." : from === null
      ? "Click a checker you can move (or Tab to its point and press Enter)."
      : `Click where the checker on ${where(from)} goes (a marked point or the tray).`));
    for (const x of S.legal) if (x.from === undefined)
      acts.append(el("button", {class: "move", "data-action": x.id, onclick: () => act(x.id)}, x.text));
  };
})();
