// Mini Dou Di Zhu: the shared climbing-game table (views/cards.js), two seats.
window.VIEWS = window.VIEWS || {};
VIEWS.minidoudizhu = (S, d, act) => drawClimb(S, d, act, {
  title: "The table", seatText: j => `${d.sizes[j]} cards`,
  info: d.to_beat ? `To beat: ${d.to_beat.what}, higher.` : d.phase === "play" ? "A new round: any move leads." : ""});
