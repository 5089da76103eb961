// The ratings page (a file of its own: the CSP allows no inline script).
async function load() {
  const r = await api("/api/ratings?game=" + document.getElementById("game").value);
  const t = document.getElementById("list"); t.innerHTML = "";
  t.append(el("tr", {}, ["#", "player", "μ − 3σ", "μ", "σ", "games"].map(h => el("th", {}, h))));
  r.ratings.forEach((p, i) => t.append(el("tr", {}, el("td", {}, i + 1), el("td", {}, p.name),
    el("td", {}, p.ordinal.toFixed(2)), el("td", {}, p.mu.toFixed(2)), el("td", {}, p.sigma.toFixed(2)), el("td", {}, p.games))));
  if (!r.ratings.length) t.append(el("tr", {}, el("td", {}, "no rated games yet")));
}
(async () => {
  const info = await api("/api/games_info"), g = document.getElementById("game");
  for (const x of info.games) g.append(el("option", {value: x.name}, x.title));
  g.addEventListener("change", load); load();
})();
