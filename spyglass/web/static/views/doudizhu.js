// Dou Di Zhu: the shared climbing-game table (views/cards.js), three seats, the landlord
// and the kitty.
window.VIEWS = window.VIEWS || {};
VIEWS.doudizhu = (S, d, act) => drawClimb(S, d, act, {
  title: d.phase === "bid" ? `The auction — high bid ${d.bid}` : "The table",
  seatText: j => `${d.landlord === j ? "landlord, " : d.landlord !== null ? "peasant, " : ""}${d.sizes[j]} cards`,
  info: [d.landlord === null ? (d.faceup !== null ? `Face-up card ${d.names[d.faceup]}: its holder bid first.` : "")
           : `Kitty (shown to all): ${d.kitty.map(r => d.names[r]).join(" ")}.`,
         d.to_beat ? `To beat: a ${d.to_beat.what}.` : d.phase === "play" && !d.kickers_due ? "A new round: any move leads." : "",
         d.kickers_due ? `Kickers still due: ${d.kickers_due}.` : ""].filter(x => x).join(" ")});
