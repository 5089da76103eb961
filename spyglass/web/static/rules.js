// A game's rules (/rules/<game>) or the list of games (/rules): drawn as text from
// /api/rules/<game>, the game's own rules.md cut into blocks (a file of its own: the CSP
// allows no inline script).
const GAME = location.pathname.replace(/^\/rules\/?/, "");
const INFO_LABELS = {"perfect": "perfect information", "imperfect": "hidden information",
                     "hidden roles": "hidden roles"};
function drawBlocks(box, blocks) {
  for (const b of blocks) {
    if (b.h !== undefined) box.append(el("h2", {}, b.h));
    else if (b.p !== undefined) box.append(el("p", {}, b.p));
    else if (b.ul !== undefined) box.append(el("ul", {}, b.ul.map(i => el("li", {}, i))));
  }
}
function dl(box, rows) {
  for (const [term, text] of rows) box.append(el("dt", {}, term), el("dd", {}, text || "—"));
}
(async () => {
  const info = await api("/api/games_info");
  const list = document.getElementById("games");
  for (const g of info.games)
    list.append(el("li", {}, el("a", {href: `/rules/${g.name}`, "aria-current": g.name === GAME ? "page" : null}, g.title)));
  if (!GAME) return;
  let r;
  try { r = await api(`/api/rules/${encodeURIComponent(GAME)}`); }
  catch (e) { document.getElementById("err").textContent = e.message; return; }
  document.title = `${r.title} rules — Spyglass`;
  document.getElementById("title").textContent = `${r.title}: rules`;
  document.getElementById("intro").hidden = true;
  document.getElementById("rules").hidden = false;
  document.getElementById("facts").textContent =
    `${r.players} players · ${INFO_LABELS[r.information] || r.information}`;
  drawBlocks(document.getElementById("text"), r.blocks);
  document.getElementById("play").href = `/?game=${r.name}`;
  document.getElementById("play").textContent = `Play ${r.title}: new table →`;
  if (r.options.length) {
    document.getElementById("optbox").hidden = false;
    dl(document.getElementById("options"), r.options.map(o =>
      [`${o.label} (default ${o.default})`, o.help]));
  }
  dl(document.getElementById("bots"), r.bots.map(b => [b.name, b.help]));
})();
