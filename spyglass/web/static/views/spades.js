// Spades: the shared card table (views/cards.js) with each seat's bid and tricks.
window.VIEWS = window.VIEWS || {};
VIEWS.spades = (S, d, act) => drawTricks(S, d, act, {
  scoreText: j => d.bids[j] === null ? "no bid yet" : `bid ${d.bids[j] === 0 ? "nil" : d.bids[j]}, took ${d.tricks[j]}`,
  info: `Round ${d.round} · spades ${d.broken ? "broken" : "not broken"} · score: your team ${d.score[S.seat % 2]} (bags ${d.bags[S.seat % 2]}), the others ${d.score[1 - S.seat % 2]}`,
  handTitle: d.phase === "bid" ? "Your hand — bid how many tricks you will take" : "Your hand — play a card"});
