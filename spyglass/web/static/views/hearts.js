// Hearts drawn as itself: the trick on the table (who led it), the hand by suit in suit
// colours, the legal cards played by clicking (or Enter) on the card itself.
window.VIEWS = window.VIEWS || {};
(() => {
  const RANKS = "23456789TJQKA", SYM = "♣♦♥♠", NAME = ["clubs", "diamonds", "hearts", "spades"];
  const RANKNAME = {T: "10", J: "jack", Q: "queen", K: "king", A: "ace"};
  const ORDER = [0, 1, 3, 2];  // ♣ ♦ ♠ ♥: black and red alternate
  const rank = c => RANKS[c >> 2], suit = c => c & 3, red = c => suit(c) === 1 || suit(c) === 2;
  const face = c => `${rank(c) === "T" ? "10" : rank(c)}${SYM[suit(c)]}`;
  const spoken = c => `${RANKNAME[rank(c)] || rank(c)} of ${NAME[suit(c)]}`;
  function cardSvg(c, x, y, note) {
    return svgEl("g", {transform: `translate(${x},${y})`, class: "svgcard"},
      svgEl("rect", {width: 46, height: 66, rx: 6, fill: "#f4f1ea", stroke: "#c9c3b5"}),
      svgEl("text", {x: 23, y: 40, "text-anchor": "middle", class: red(c) ? "red" : "black"}, face(c)),
      note ? svgEl("text", {x: 23, y: 82, "text-anchor": "middle", class: "note"}, note) : null);
  }
  VIEWS.hearts = (S, d, act) => {
    const board = document.getElementById("board"), me = S.seat;
    const pos = j => (j - me + 4) % 4;  // 0 me (bottom), 1 left, 2 across, 3 right
    const XY = [[127, 150], [30, 85], [127, 18], [224, 85]], NAMEXY = [[150, 250], [10, 70], [150, 12], [290, 70]];
    const svg = svgEl("svg", {viewBox: "0 0 300 260", class: "trick", role: "img",
      "aria-label": d.trick.length ? `Trick: ${d.trick.map(t => `${S.table.seats[t.seat].label} ${spoken(t.card)}`).join(", ")}; ${S.table.seats[d.leader].label} led`
                                   : "No card on the table"});
    svg.append(svgEl("rect", {x: 0, y: 0, width: 300, height: 260, rx: 14, class: "felt"}));
    for (let j = 0; j < 4; j++) {
      const [x, y] = NAMEXY[pos(j)], acting = d.to_move === j;
      svg.append(svgEl("text", {x, y, "text-anchor": pos(j) === 1 ? "start" : pos(j) === 3 ? "end" : "middle",
        class: acting ? "seatname acting" : "seatname"}, `${j === me ? "you" : S.table.seats[j].label} · ${d.points[j]} pt${acting ? " ◀" : ""}`));
    }
    for (const t of d.trick) { const [x, y] = XY[pos(t.seat)]; svg.append(cardSvg(t.card, x, y, t.seat === d.leader ? "led" : "")); }
    const info = el("div", {class: "dim"}, `Deal ${d.deal} · hearts ${d.broken ? "broken" : "not broken"} · tricks taken: ${
      [0, 1, 2, 3].map(j => `${j === me ? "you" : S.table.seats[j].label} ${d.tricks[j]}`).join(", ")}`);
    board.append(el("div", {class: "panel"}, el("h2", {}, d.phase === "pass" ? "Passing" : "The table"), svg, info));
    // The hand, by suit; legal cards are buttons.
    const legal = new Map(S.legal.map(x => [x.id, x]));
    const hand = el("div", {class: "hand", id: "hand", role: "group", "aria-label": "Your hand"});
    for (const s of ORDER) {
      const cards = d.hand.filter(c => suit(c) === s).sort((a, b) => b - a);
      if (!cards.length) continue;
      const group = el("div", {class: "suitgroup", role: "group", "aria-label": NAME[s]});
      for (const c of cards) {
        const ok = legal.has(c);
        group.append(el("button", {class: `pcard hcard ${red(c) ? "red" : "black"}${ok ? " pickable" : ""}`, "data-action": c,
          disabled: !ok, "aria-label": spoken(c) + (ok ? "" : ", not playable now"), onclick: () => act(c)}, face(c)));
      }
      hand.append(group);
    }
    const extra = [];
    if (d.passed.length) extra.push(`you passed ${d.passed.map(face).join(" ")}`);
    if (d.received.length) extra.push(`you received ${d.received.map(face).join(" ")}`);
    board.append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`},
      el("h2", {}, S.your_turn ? (d.phase === "pass" ? "Your hand — choose a card to pass" : "Your hand — play a card") : "Your hand"),
      hand, extra.length ? el("div", {class: "dim"}, extra.join(" · ")) : null));
    const a = document.getElementById("actions"); a.innerHTML = "";
    a.append(el("span", {class: "dim"}, S.your_turn ? "Click a card in your hand (or Tab to it and press Enter)." : statusText()));
    for (const x of S.legal) if (!d.hand.includes(x.id))  // anything that is not a card
      a.append(el("button", {class: "move", "data-action": x.id, onclick: () => act(x.id)}, x.text));
  };
})();
