// Checkers drawn as its board from your side (Black: rows 8..1 from the top, moving up;
// White: the board turned round): click one of
// your pieces that can move, then the square it goes to; a chained capture goes on from
// the piece that must continue (picked for you). Keyboard: Tab to a square, Enter.
window.VIEWS = window.VIEWS || {};
VIEWS.checkers = (() => {
  const picker = piecePicker();
  return (S, d, act) => {
    const P = picker(S), {sources, from} = P, dests = new Map(P.dests.map(x => [x.to, x]));
    const name = sq => `${"abcdefgh"[sq % 8]}${8 - Math.floor(sq / 8)}`;
    const piece = (colour, king) => (x, y, C) => svgEl("g", {},
      svgEl("circle", {cx: x, cy: y, r: C * 0.36, class: `disc ${colour}`}),
      king ? svgEl("text", {x, y: y + 7, "text-anchor": "middle", class: `crown ${colour}`}, "K") : null);
    const pick = sq => () => { P.pick(sq); render(); focusSel(`#board .cell[data-square="${name(sq)}"]`); };
    const svg = gridBoard({cols: 8, rows: 8, act, C: 48, rowName: r => 8 - r, flip: d.you === "white",
      label: `Checkers board; you play ${d.you}${from !== null ? `; ${name(from)} picked` : ""}`,
      square: a => {
        const colour = d.black.includes(a) ? "black" : d.white.includes(a) ? "white" : null;
        const king = d.kings.includes(a), dark = (Math.floor(a / 8) + a % 8) % 2 === 1;
        if (colour) {
          const mine = colour === d.you, movable = mine && sources.includes(a);
          return {words: `${colour} ${king ? "king" : "man"}${movable ? (from === a ? ", picked" : ", can move") : ""}`,
            draw: piece(colour, king), playable: movable && sources.length > 1,
            cls: `${dark ? "dark" : "light"}${movable ? " src" : ""}${from === a ? " picked" : ""}`,
            press: pick(a), pressed: from === a};
        }
        const m = dests.get(a);
        if (m) return {words: `empty; move ${name(m.from)} here${m.jump ? ", capturing" : ""}`,
          playable: true, cls: "dark hint dest", press: () => act(m.id)};
        return {words: dark ? "empty" : "light square", cls: dark ? "dark" : "light"};
      }});
    const count = c => d[c].length;
    document.getElementById("board").append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`},
      el("h2", {}, `Black ${count("black")} – White ${count("white")}; you are ${d.you}`), svg,
      el("div", {class: "dim"}, `${d.quiet} of ${d.quiet_limit} moves without a capture (a draw at ${d.quiet_limit}); captures are forced.`)));
    const acts = document.getElementById("actions"); acts.innerHTML = "";
    acts.append(el("span", {class: "dim"}, !S.your_turn ? statusText()
      : d.chain !== null ? `Go on capturing with ${name(d.chain)}: click a marked square.`
      : from === null ? "Click one of your pieces that can move (or Tab to it and press Enter)."
      : `Click where ${name(from)} goes (a marked square), or another piece.`));
  };
})();
