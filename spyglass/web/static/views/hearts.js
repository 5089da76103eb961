// Hearts: the shared card table (views/cards.js) with each seat's points this deal.
window.VIEWS = window.VIEWS || {};
VIEWS.hearts = (S, d, act) => drawTricks(S, d, act, {
  scoreText: j => `${d.points[j]} pt`,
  info: `Deal ${d.deal} · hearts ${d.broken ? "broken" : "not broken"} · tricks taken: ${
    [0, 1, 2, 3].map(j => `${j === S.seat ? "you" : S.table.seats[j].label} ${d.tricks[j]}`).join(", ")}`,
  handTitle: d.phase === "pass" ? "Your hand — choose a card to pass" : "Your hand — play a card"});
