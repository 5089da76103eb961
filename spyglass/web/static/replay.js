// Step through a finished game with everything revealed; plot recorded bot beliefs.
const GAME_ID = location.pathname.split("/").pop();
let R = null, step = 0;
// No reds: red marks the spies in the suspicion plots.
const COLORS = ["#3b82f6", "#30a46c", "#f5b942", "#a855f7", "#06b6d4", "#84cc16", "#94a3b8", "#7dd3fc", "#fde68a", "#c4b5fd"];

function show(i) {
  step = Math.max(0, Math.min(R.steps.length - 1, i));
  const s = R.steps[step];
  document.getElementById("slider").value = step;
  document.getElementById("steptext").textContent = `move ${step} of ${R.steps.length - 1}: ${s.text}`;
  document.getElementById("state").textContent = s.state_text;
  history.replaceState(null, "", `?step=${step}`);
  const res = document.getElementById("res"); res.innerHTML = "";
  if (s.details) res.append(resistancePanel(s.details));
  const chat = (R.chat || []).filter(c => c.move <= step), box = document.getElementById("chatlog");
  document.getElementById("chatpanel").hidden = !(R.chat || []).length;
  box.innerHTML = "";
  for (const c of chat) box.append(el("div", {class: c.to === "spectators" ? "dim" : ""},
    el("b", {}, c.seat === null ? "spectator" : c.name), ` (move ${c.move}): ${c.text}`));
}
function resistancePanel(d) {
  const track = el("div", {class: "track"});
  d.missions.forEach((m, i) => track.append(el("div", {class: `mission ${m.team ? (m.sabotaged ? "lost" : "won") : ""}`},
    el("div", {class: "size"}, m.size), el("div", {}, m.team ? `${m.fails} fail${m.fails === 1 ? "" : "s"}` : `mission ${i + 1}`))));
  const players = el("div", {class: "players"});
  R.agents.forEach((a, j) => players.append(el("div", {class: `player${d.team.includes(j) ? " onteam" : ""}`},
    el("div", {class: "name"}, `${j} · ${a}`),
    el("div", {class: "tags"}, el("span", {class: `badge ${R.roles[j] === "spy" ? "spy" : "res"}`}, R.roles[j]),
      j === d.leader && d.phase !== "over" ? el("span", {class: "badge leader"}, "leader") : null))));
  const hist = el("table", {class: "grid"}, el("tr", {}, ["mission", "leader", "team", "approved by", ""].map(h => el("th", {}, h))));
  for (const p of d.proposals) hist.append(el("tr", {}, el("td", {}, `${p.mission}.${p.attempt}`), el("td", {}, R.agents[p.leader]),
    el("td", {}, p.team.join(", ")), el("td", {}, p.approve === null ? "—" : p.approve.join(", ")),
    el("td", {}, proposalOutcome(p, d))));
  return el("div", {class: "panel"}, el("h2", {}, `Mission ${Math.min(d.mission, 5)}, proposal ${d.attempt} · resistance ${d.res_wins} – spies ${d.spy_wins}`),
    track, players, d.proposals.length ? hist : null);
}
function proposalOutcome(p, d) {
  if (p.approve !== null) return p.approve.length * 2 > d.n ? "approved" : "rejected";
  return p === d.proposals[d.proposals.length - 1] && d.phase === "vote" ? "voting…" : "forced";
}
function linePlot(title, series, ymax = 1) {
  const W = 520, H = 200, L = 36, B = 22;
  const n = Math.max(2, ...series.map(s => s.values.length));
  const x = i => L + (W - L - 10) * i / (n - 1), y = v => H - B - (H - B - 10) * v / ymax;
  const ns = "http://www.w3.org/2000/svg", svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", W); svg.setAttribute("height", H + 20);
  svg.setAttribute("viewBox", `0 0 ${W} ${H + 20}`);  // scaled down on a phone (style.css)
  const add = (tag, attrs, text) => { const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text) e.textContent = text; svg.append(e); };
  add("rect", {x: L, y: 10, width: W - L - 10, height: H - B - 10, fill: "#0b1118", stroke: "#2a3746"});
  for (const v of [0, 0.5, 1]) add("text", {x: 4, y: y(v * ymax) + 4}, (v * ymax).toFixed(1));
  add("text", {x: L, y: H + 2}, "event (proposal / vote / mission) →");
  series.forEach((s, k) => {
    const pts = s.values.map((v, i) => v === null ? null : `${x(i)},${y(v)}`).filter(Boolean).join(" ");
    add("polyline", {points: pts, fill: "none", stroke: s.color || COLORS[k % COLORS.length], "stroke-width": 2});
    add("text", {x: W - 150, y: 24 + 13 * k, fill: s.color || COLORS[k % COLORS.length], style: `fill:${s.color || COLORS[k % COLORS.length]}`}, s.name);
  });
  return el("div", {class: "plot"}, el("div", {class: "dim"}, title), svg);
}
function plots() {
  if (!R.beliefs.length) return;
  document.getElementById("beliefs").hidden = false;
  const box = document.getElementById("plots");
  box.append(linePlot("P(true spies)", R.beliefs.map((b, k) => ({name: `seat ${b.seat} ${b.agent}`, values: b.truth}))));
  for (const b of R.beliefs) {
    const series = R.agents.map((a, j) => ({name: `${j} ${R.roles[j] === "spy" ? "(spy)" : ""}`,
      color: R.roles[j] === "spy" ? "#e5484d" : COLORS[j % COLORS.length],
      values: b.suspicion.map(m => m ? m[j] : null)})).filter((_, j) => j !== b.seat);
    box.append(linePlot(`suspicion of seat ${b.seat} (${b.agent})`, series));
  }
}
(async () => {
  try { R = await api(`/api/games/${GAME_ID}/replay`); }
  catch (e) { document.getElementById("title").textContent = e.message; return; }
  document.getElementById("title").textContent = `${R.title} — replay`;
  const rules = document.getElementById("ruleslink");
  rules.href = `/rules/${R.game}`; rules.textContent = `Rules of ${R.title}`;
  document.getElementById("who").textContent = R.agents.map((a, j) => `${j}: ${a} (${R.roles[j] || "-"}, reward ${R.rewards ? R.rewards[j] : "-"})`).join(" · ");
  const sl = document.getElementById("slider"); sl.max = R.steps.length - 1;
  sl.addEventListener("input", () => show(+sl.value));
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(step - 1);
  document.getElementById("next").onclick = () => show(step + 1);
  document.getElementById("last").onclick = () => show(R.steps.length - 1);
  document.getElementById("share").onclick = () => navigator.clipboard && navigator.clipboard.writeText(location.href);
  document.addEventListener("keydown", e => { if (e.key === "ArrowRight") show(step + 1); if (e.key === "ArrowLeft") show(step - 1); });
  plots();
  show(+(new URLSearchParams(location.search).get("step") || 0));
})();
