// The lobby: open seats to take, games to watch (a file of its own: the CSP allows no inline script).
const nameBox = document.getElementById("name");
nameBox.value = localStorage.getItem("spyglass.name") || "";
nameBox.addEventListener("change", () => localStorage.setItem("spyglass.name", nameBox.value.trim()));
function seatsText(t) {
  return t.seats.map(s => s.free ? "open seat" : `${s.label}${s.kind === "bot" ? " (bot)" : ""}`).join(", ");
}
async function join(t, button) {
  const err = document.getElementById("err"); err.textContent = "";
  const name = nameBox.value.trim();
  if (!name) { err.textContent = "Type your name first."; nameBox.focus(); return; }
  localStorage.setItem("spyglass.name", name);
  button.disabled = true;
  try { const r = await api(`/api/tables/${t.id}/join`, {name}); location.href = r.url; }
  catch (e) { err.textContent = e.message; button.disabled = false; refresh(); }
}
function fill(id, rows, head, row) {
  const tab = document.getElementById(id); tab.innerHTML = "";
  document.getElementById(`${id}-none`).hidden = rows.length > 0;
  if (!rows.length) return;
  tab.append(el("tr", {}, head.map(h => el("th", {scope: "col"}, h))));
  for (const t of rows) tab.append(row(t));
}
async function refresh() {
  let L;
  try { L = await api("/api/lobby"); } catch (e) { document.getElementById("err").textContent = e.message; return; }
  fill("open", L.open, ["game", "seats", "free", ""], t => {
    const free = t.seats.filter(s => s.free).length;
    const b = el("button", {class: "primary join", "data-table": t.id}, "Join");
    b.addEventListener("click", () => join(t, b));
    return el("tr", {}, el("td", {}, t.title), el("td", {}, seatsText(t)), el("td", {}, free), el("td", {}, b));
  });
  fill("playing", L.playing, ["game", "players", "move", ""], t =>
    el("tr", {}, el("td", {}, t.title), el("td", {}, seatsText(t)), el("td", {}, t.move),
      el("td", {}, el("a", {href: `/table/${t.id}?watch=1`, class: "watch", "aria-label": `watch ${t.title}: ${seatsText(t)}`}, "Watch"))));
}
refresh();
setInterval(refresh, 5000);
