// The games page (a file of its own: the CSP allows no inline script).
async function load() {
  const q = new URLSearchParams();
  for (const k of ["game", "player", "kind"]) { const v = document.getElementById(k).value; if (v) q.set(k, v); }
  document.getElementById("export").href = "/api/export.jsonl" + (q.get("game") ? `?game=${q.get("game")}` : "");
  const r = await api("/api/games?" + q);
  const t = document.getElementById("list"); t.innerHTML = "";
  t.append(el("tr", {}, ["when (UTC)", "game", "players", "outcome", ""].map(h => el("th", {}, h))));
  for (const g of r.games) t.append(el("tr", {}, el("td", {}, g.when), el("td", {}, g.game),
    el("td", {}, g.seats.map(s => `${s.name}${s.role ? " (" + s.role + ")" : ""}`).join(", ")),
    el("td", {}, g.outcome), el("td", {}, el("a", {href: `/replay/${g.id}`}, "replay"))));
  if (!r.games.length) t.append(el("tr", {}, el("td", {}, "no games yet")));
}
(async () => {
  const info = await api("/api/games_info");
  for (const g of info.games) document.getElementById("game").append(el("option", {value: g.name}, g.title));
  document.getElementById("go").addEventListener("click", load); load();
})();
