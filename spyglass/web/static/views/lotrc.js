// LOTR: The Confrontation drawn as its board: the 4x4 diamond of regions from the Shire
// to Mordor (your home at the bottom), your characters by name (marked "seen" when the
// opponent knows where they are), the opponent's pieces as "?" unless you have
// identified them (then named, marked ✓; the thesis's interface did this, Whitehouse
// 2014, §6.3.2). Click one of your characters that can move, then a marked region (the
// shared piecePicker of grid.js); in the setup, pick the character for the region to
// fill; a retreat is a marked region too. Combat cards and the other decisions are
// buttons. Keyboard: Tab, Enter.
window.VIEWS = window.VIEWS || {};
VIEWS.lotrc = (() => {
  const picker = piecePicker();
  const W = 124, H = 80, DX = 64, DY = 86, PAD = 6;
  const SHORT = {"Flying Nazgul": "Nazgul", "Witch King": "Witch K.", "Black Rider": "Rider", "Cave Troll": "Troll"};
  const short = n => SHORT[n] || n;
  return (S, d, act) => {
    const P = picker(S), {sources, from, dests} = P;
    const light = d.side === "Light";
    // A region's pieces: yours two to a line, theirs three to a line; the homes at the
    // ends of the diamond grow outwards when they hold more than fits (the setup).
    const drawRow = g => (light ? 6 - g.row : g.row);
    const mineAt = g => d.own.filter(c => c.region === g.r);
    const tagsAt = g => [...g.known.map(n => `✓${short(n)}`), ...Array(Math.max(0, g.theirs - g.known.length)).fill("?")];
    const need = g => 19 + Math.ceil(mineAt(g).length / 2) * 20 + Math.ceil(tagsAt(g).length / 3) * 15 + 4;
    const grow = row => Math.max(0, ...d.regions.filter(g => drawRow(g) === row).map(g => need(g) - H));
    const top = grow(0), bottom = grow(6);
    const at = g => { const r = drawRow(g), y = PAD + top + r * DY;
      return {x: PAD + (g.col + 3) * DX, y: r === 0 ? y - top : y, h: H + (r === 0 ? top : r === 6 ? bottom : 0)}; };
    const svg = svgEl("svg", {viewBox: `0 0 ${2 * PAD + 6 * DX + W} ${2 * PAD + top + 6 * DY + H + bottom}`, class: "lotrboard", role: "group",
      "aria-label": `The board from the Shire to Mordor; you are ${d.side}, your home at the bottom${from !== null ? `; ${d.own[from].name} picked` : ""}`});
    const pick = i => () => { P.pick(i); render(); focusSel(`#board .piece[data-char="${i}"]`); };
    for (const g of d.regions) {
      const {x, y, h} = at(g), dest = dests.find(m => m.to === g.r) || S.legal.find(m => m.retreat === g.r);
      const mine = mineAt(g), tags = tagsAt(g);
      const theirs = `${g.theirs ? `${g.theirs} of ${d.other}'s` : ""}${g.known.length ? ` (identified: ${g.known.join(", ")})` : ""}`;
      const words = `${g.name}: ${mine.length ? `yours ${mine.map(c => c.name).join(", ")}` : "none of yours"}${theirs ? `; ${theirs}` : ""}`;
      const reg = svgEl("g", {class: `region${dest ? " playable dest" : ""}${g.r === 0 || g.r === 15 ? " home" : ""}`, "data-region": g.name,
        role: "img", "aria-label": !dest ? words : dest.retreat !== undefined ? `${words}; retreat here` : `${words}; move ${d.own[from].name} here`});
      reg.append(svgEl("rect", {x, y, width: W, height: h, rx: 8}));
      reg.append(svgEl("text", {x: x + W / 2, y: y + 13, "text-anchor": "middle", class: "regname", "aria-hidden": "true"}, g.name));
      if (dest) pressable(reg, () => act(dest.id));
      svg.append(reg);
      // Their pieces, under yours: named when identified, "?" otherwise.
      for (let i = 0; i < tags.length; i += 3)
        svg.append(svgEl("text", {x: x + W / 2, y: y + 19 + Math.ceil(mine.length / 2) * 20 + 12 + (i / 3) * 15,
          "text-anchor": "middle", class: "theirs", "aria-hidden": "true"}, tags.slice(i, i + 3).join(" ")));
      // Yours: two to a line.
      mine.forEach((c, k) => {
        const px = x + 4 + (k % 2) * (W / 2 - 2), py = y + 19 + Math.floor(k / 2) * 20, src = sources.includes(c.i);
        const pc = svgEl("g", {class: `piece${src ? " src" : ""}${from === c.i ? " picked" : ""}${src && sources.length > 1 ? " playable" : ""}`,
          "data-char": c.i, role: "img", "aria-label": `${c.name}, strength ${c.strength}${c.known ? ", the opponent knows it is here" : ""}${src ? (from === c.i ? ", picked" : ", can move") : ""}`});
        pc.append(svgEl("rect", {x: px, y: py, width: W / 2 - 6, height: 18, rx: 8}));
        pc.append(svgEl("text", {x: px + (W / 2 - 6) / 2, y: py + 13.5, "text-anchor": "middle", "aria-hidden": "true"}, `${short(c.name)}${c.known ? "•" : ""}`));
        if (src && sources.length > 1) pressable(pc, pick(c.i), from === c.i);
        svg.append(pc);
      });
    }
    const board = document.getElementById("board");
    board.append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`},
      el("h2", {}, `You are ${d.side} · turn ${d.turn}`), svg,
      el("div", {class: "dim"}, `• the opponent knows where this character is; ? an unknown ${d.other} piece; ✓ one you have identified. Light wins when Frodo reaches Mordor; Dark when Frodo falls or ${d.shire_win} Dark characters stand in the Shire.`),
      d.defeated.length ? el("div", {class: "dim"}, `Defeated: ${d.defeated.join(", ")}`) : null));
    const c = d.combat;
    board.append(el("div", {class: "panel"}, el("h2", {}, c ? `Combat in ${c.region}: ${c.attacker} attacks ${c.defender}` : "Combat cards"),
      c ? el("p", {}, `Your card: ${c.my_card || "not chosen yet"}; ${d.other}'s: ${c.their_card || (c.their_chosen ? "chosen, face down" : "not chosen yet")}`) : null,
      el("p", {}, `Your cards: ${d.hand.join(", ") || "none"}`), el("p", {class: "dim"}, `${d.other}'s cards: ${d.their_hand.join(", ") || "none"}`)));
    const acts = document.getElementById("actions"); acts.innerHTML = "";
    acts.append(el("span", {class: "dim"}, !S.your_turn ? statusText()
      : d.placing ? `Setup: click the character to put in ${d.placing}, then ${d.placing}.`
      : sources.length ? (from === null ? "Click one of your characters that can move (or Tab to it and press Enter)."
        : `Click where ${d.own[from].name} goes (a marked region), or another character.`)
      : S.legal.some(x => x.card !== undefined) ? "Choose your combat card:"
      : S.legal.some(x => x.retreat !== undefined) ? "Click a marked region to retreat there, or:" : "Choose:"));
    for (const x of S.legal) if (x.from === undefined && x.retreat === undefined)
      acts.append(el("button", {class: `move${x.card !== undefined ? " card" : ""}`, "data-action": x.id, onclick: () => act(x.id)},
        x.card !== undefined ? `Play ${x.text.slice(5)}` : x.text.replace(">", " to ")));
  };
})();
