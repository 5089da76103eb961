// Trick-taking card games drawn as themselves (shared by views/hearts.js and
// views/spades.js): the trick on the table (who led it), the hand by suit in suit
// colours, the legal cards played by clicking (or Enter) on the card itself. A card is
// {id (its action id), rank (0 = 2 .. 12 = ace), suit (0 clubs, 1 diamonds, 2 hearts, 3 spades)}.
const drawTricks = (() => {
  const RANKS = "23456789TJQKA", SYM = "♣♦♥♠", NAME = ["clubs", "diamonds", "hearts", "spades"];
  const RANKNAME = {T: "10", J: "jack", Q: "queen", K: "king", A: "ace"};
  const ORDER = [0, 1, 3, 2];  // ♣ ♦ ♠ ♥: black and red alternate
  const rank = c => RANKS[c.rank], suit = c => c.suit, red = c => suit(c) === 1 || suit(c) === 2;
  const face = c => `${rank(c) === "T" ? "10" : rank(c)}${SYM[suit(c)]}`;
  const spoken = c => `${RANKNAME[rank(c)] || rank(c)} of ${NAME[suit(c)]}`;
  function cardSvg(c, x, y, note) {
    return svgEl("g", {transform: `translate(${x},${y})`, class: "svgcard"},
      svgEl("rect", {width: 46, height: 66, rx: 6, fill: "#f4f1ea", stroke: "#c9c3b5"}),
      svgEl("text", {x: 23, y: 40, "text-anchor": "middle", class: red(c) ? "red" : "black"}, face(c)),
      note ? svgEl("text", {x: 23, y: 82, "text-anchor": "middle", class: "note"}, note) : null);
  }
  return (S, d, act, {scoreText, info, handTitle}) => {
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
        class: acting ? "seatname acting" : "seatname"}, `${j === me ? "you" : S.table.seats[j].label} · ${scoreText(j)}${acting ? " ◀" : ""}`));
    }
    for (const t of d.trick) { const [x, y] = XY[pos(t.seat)]; svg.append(cardSvg(t.card, x, y, t.seat === d.leader ? "led" : "")); }
    board.append(el("div", {class: "panel"}, el("h2", {}, "The table"), svg, el("div", {class: "dim"}, info)));
    // The hand, by suit; legal cards are buttons.
    const legal = new Map(S.legal.map(x => [x.id, x]));
    const hand = el("div", {class: "hand", id: "hand", role: "group", "aria-label": "Your hand"});
    for (const s of ORDER) {
      const cards = d.hand.filter(c => suit(c) === s).sort((a, b) => b.rank - a.rank);
      if (!cards.length) continue;
      const group = el("div", {class: "suitgroup", role: "group", "aria-label": NAME[s]});
      for (const c of cards) {
        const ok = legal.has(c.id);
        group.append(el("button", {class: `pcard hcard ${red(c) ? "red" : "black"}${ok ? " pickable" : ""}`, "data-action": c.id,
          disabled: !ok, "aria-label": spoken(c) + (ok ? "" : ", not playable now"), onclick: () => act(c.id)}, face(c)));
      }
      hand.append(group);
    }
    const extra = [];
    if (d.passed && d.passed.length) extra.push(`you passed ${d.passed.map(face).join(" ")}`);
    if (d.received && d.received.length) extra.push(`you received ${d.received.map(face).join(" ")}`);
    board.append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`},
      el("h2", {}, S.your_turn ? handTitle : "Your hand"),
      hand, extra.length ? el("div", {class: "dim"}, extra.join(" · ")) : null));
    const a = document.getElementById("actions"); a.innerHTML = "";
    const held = new Set(d.hand.map(c => c.id));
    a.append(el("span", {class: "dim"}, !S.your_turn ? statusText() : S.legal.some(x => held.has(x.id))
      ? "Click a card in your hand (or Tab to it and press Enter)." : ""));
    for (const x of S.legal) if (!held.has(x.id))  // anything that is not a card (a bid)
      a.append(el("button", {class: "move", "data-action": x.id, onclick: () => act(x.id)}, x.text));
  };
})();
