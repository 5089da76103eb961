// Card games drawn as themselves, shared by the card games' views: the table (each seat
// round it, the cards in play in front of their seat), the hand as buttons in suit (or
// rank) order. Two families use it: trick-taking games (drawTricks: views/hearts.js,
// views/spades.js; a card is {id (its action id), rank (0 = 2 .. 12 = ace), suit (0
// clubs, 1 diamonds, 2 hearts, 3 spades)}, the legal cards played by clicking or Enter on
// the card itself) and climbing games (drawClimb: views/doudizhu.js,
// views/minidoudizhu.js; a card is a rank, suits do not matter, and a move is several
// cards picked in the hand then played).
const cardTable = (() => {
  // Where each seat sits, by its place after you (0 you, at the bottom) for 2-4 seats.
  const XY = [[127, 150], [30, 85], [127, 18], [224, 85]], NAMEXY = [[150, 250], [10, 70], [150, 12], [290, 70]];
  const slot = (n, p) => (n === 4 ? p : n === 3 ? [0, 1, 3][p] : [0, 2][p]);
  // A card; in a fan (`corner`) its face is in the top-left corner, which stays in view.
  function cardSvg({face, red}, x, y, note, corner) {
    return svgEl("g", {transform: `translate(${x},${y})`, class: "svgcard"},
      svgEl("rect", {width: 46, height: 66, rx: 6, fill: "#f4f1ea", stroke: "#c9c3b5"}),
      svgEl("text", corner ? {x: 3, y: 20, class: `corner ${red ? "red" : "black"}`}
                           : {x: 23, y: 40, "text-anchor": "middle", class: red ? "red" : "black"}, face),
      note ? svgEl("text", {x: 23, y: 82, "text-anchor": "middle", class: "note"}, note) : null);
  }
  // The table: `n` seats round it (you at the bottom); `seatText(j)` under each name,
  // `inPlay(j)` the cards ({face, red}) in front of seat j and a note under them.
  function tableSvg(S, n, {label, seatText, inPlay, acting}) {
    const me = S.seat, pos = j => slot(n, (j - me + n) % n);
    const svg = svgEl("svg", {viewBox: "0 0 300 260", class: "trick", role: "img", "aria-label": label});
    svg.append(svgEl("rect", {x: 0, y: 0, width: 300, height: 260, rx: 14, class: "felt"}));
    for (let j = 0; j < n; j++) {
      const p = pos(j), [x, y] = NAMEXY[p], act = acting === j, anchor = p === 1 ? "start" : p === 3 ? "end" : "middle";
      const name = `${j === me ? "you" : S.table.seats[j].label}${act ? " ◀" : ""}`, cls = act ? "seatname acting" : "seatname";
      if (p % 2) {  // a side seat: its name over its score, so that two sides never meet
        svg.append(svgEl("text", {x, y: y - 14, "text-anchor": anchor, class: cls}, name.length > 20 ? name.slice(0, 19) + "…" : name));
        svg.append(svgEl("text", {x, y, "text-anchor": anchor, class: cls}, seatText(j)));
      } else svg.append(svgEl("text", {x, y, "text-anchor": anchor, class: cls}, `${name.replace(" ◀", "")} · ${seatText(j)}${act ? " ◀" : ""}`));
      const {cards, note, words} = inPlay(j) || {};
      if (words && !(cards && cards.length)) {
        const [cx, cy] = XY[p];
        svg.append(svgEl("text", {x: cx + 23, y: cy + 38, "text-anchor": "middle", class: "note"}, words));
      }
      if (!cards || !cards.length) continue;
      const [cx, cy] = XY[p], room = p % 2 ? 110 : 220;  // a fan of several cards fits its side
      const step = cards.length > 1 ? Math.min(18, (room - 46) / (cards.length - 1)) : 0;
      const x0 = Math.max(2, Math.min(252 - step * (cards.length - 1), cx + 23 - (46 + step * (cards.length - 1)) / 2));
      cards.forEach((c, i) => svg.append(cardSvg(c, x0 + step * i, cy, i === cards.length - 1 ? note : "", cards.length > 1)));
    }
    return svg;
  }
  return {cardSvg, tableSvg};
})();

const drawTricks = (() => {
  const RANKS = "23456789TJQKA", SYM = "♣♦♥♠", NAME = ["clubs", "diamonds", "hearts", "spades"];
  const RANKNAME = {T: "10", J: "jack", Q: "queen", K: "king", A: "ace"};
  const ORDER = [0, 1, 3, 2];  // ♣ ♦ ♠ ♥: black and red alternate
  const rank = c => RANKS[c.rank], suit = c => c.suit, red = c => suit(c) === 1 || suit(c) === 2;
  const face = c => `${rank(c) === "T" ? "10" : rank(c)}${SYM[suit(c)]}`;
  const spoken = c => `${RANKNAME[rank(c)] || rank(c)} of ${NAME[suit(c)]}`;
  return (S, d, act, {scoreText, info, handTitle}) => {
    const board = document.getElementById("board");
    const svg = cardTable.tableSvg(S, 4, {acting: d.to_move, seatText: scoreText,
      label: d.trick.length ? `Trick: ${d.trick.map(t => `${S.table.seats[t.seat].label} ${spoken(t.card)}`).join(", ")}; ${S.table.seats[d.leader].label} led`
                            : "No card on the table",
      inPlay: j => { const t = d.trick.find(t => t.seat === j);
        return t ? {cards: [{face: face(t.card), red: red(t.card)}], note: j === d.leader ? "led" : ""} : null; }});
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

// Climbing games (Dou Di Zhu and its mini version): pick cards in your hand (click, or
// Tab and Enter/Space), and the moves those exact cards make appear as buttons; a move
// that waits for kickers is followed by picking the kicker cards the same way. `d`:
// names (rank letters), hand (ranks, low to high), sizes, landlord, plays (each seat's
// move in the round in play), to_move, to_beat, kickers_due; each legal move carries its
// cards (server-side: spyglass/web/views.py).
const drawClimb = (() => {
  let picked = [], key = "";
  const JOKER = {B: "black joker", R: "red joker"};
  return (S, d, act, {title, seatText, info}) => {
    const k = `${S.table.move}|${d.hand.join(",")}`;
    if (k !== key) { key = k; picked = []; }
    const n = d.n, me = S.seat, names = d.names;
    const joker = r => names[r] === "B" || names[r] === "R";
    const cardOf = r => ({face: joker(r) ? "JK" : names[r] === "T" ? "10" : names[r], red: names[r] === "R"});
    const spoken = r => JOKER[names[r]] || (names[r] === "T" ? "10" : names[r]);
    const said = rs => rs.map(spoken).join(" ");
    const who = j => (j === me ? "you" : S.table.seats[j].label);
    const svg = cardTable.tableSvg(S, n, {acting: d.to_move, seatText,
      label: `The round in play: ${[...Array(n).keys()].map(j => `${who(j)} ${d.plays[j] ? (d.plays[j].pass ? "passed" : said(d.plays[j].cards)) : "no move yet"}`).join("; ")}`,
      inPlay: j => { const p = d.plays[j];
        return !p ? null : p.pass ? {words: "pass"} : {cards: p.cards.map(cardOf), note: !d.to_beat && d.phase === "play" ? "last round"
          : d.to_beat && d.to_beat.by === j ? "to beat" : ""}; }});
    const board = document.getElementById("board");
    board.append(el("div", {class: "panel"}, el("h2", {}, title), svg, el("div", {class: "dim"}, info)));
    // The hand, low to high; a card is a toggle while it is your move.
    const mine = S.your_turn && S.legal.some(x => x.cards);
    const hand = el("div", {class: "hand", id: "hand", role: "group", "aria-label": "Your hand"});
    d.hand.forEach((r, i) => {
      const on = picked.includes(i);
      const b = el("button", {class: `pcard hcard ${names[r] === "R" ? "red" : "black"}${mine ? " pickable" : ""}${on ? " selected" : ""}`,
        "data-i": i, "data-rank": names[r], disabled: !mine, "aria-pressed": mine ? String(on) : null,
        "aria-label": spoken(r), onclick: () => {
          picked = on ? picked.filter(x => x !== i) : [...picked, i]; render();
          focusSel(`#hand .hcard[data-i="${i}"]`); }}, cardOf(r).face);
      hand.append(b);
    });
    board.append(el("div", {class: `panel${S.your_turn ? " myturn" : ""}`},
      el("h2", {id: "handtitle"}, !S.your_turn ? "Your hand" : d.kickers_due ? `Your hand — pick a kicker (${d.kickers_due} to add)` : "Your hand — pick cards, then play them"),
      hand));
    // The moves the picked cards make (exactly those cards), and the moves with no card.
    const a = document.getElementById("actions"); a.innerHTML = "";
    if (!S.your_turn) { a.append(el("span", {class: "dim"}, statusText())); return; }
    const sel = picked.map(i => d.hand[i]).sort((x, y) => x - y).join(",");
    const fits = S.legal.filter(x => x.cards && x.cards.length && [...x.cards].sort((p, q) => p - q).join(",") === sel);
    a.append(el("span", {class: "dim"}, !picked.length ? (mine ? "Pick cards in your hand (click, or Tab and Enter)." : "")
      : fits.length ? `${said(picked.map(i => d.hand[i]))}:` : `${said(picked.map(i => d.hand[i]))} is not a move you can make now.`));
    for (const x of fits)
      a.append(el("button", {class: "primary play", "data-action": x.id, onclick: () => act(x.id)},
        x.kicker ? `Add ${said(x.cards)}` : `Play ${said(x.cards)}${x.kickers ? `, then add ${x.kickers} ${x.kicker_kind} kicker${x.kickers > 1 ? "s" : ""}` : ""}`));
    for (const x of S.legal) if (!x.cards)  // pass, bids
      a.append(el("button", {class: "move", "data-action": x.id, onclick: () => act(x.id)}, x.text));
  };
})();
