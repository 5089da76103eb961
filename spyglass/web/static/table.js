// A seat's live page: one WebSocket, messages carry only this seat's view.
const params = new URLSearchParams(location.search);
const TABLE = location.pathname.split("/").pop();
const TOKEN = params.get("token") || "";
let ws = null, S = null, seq = 0, picked = new Set();

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${TABLE}?token=${encodeURIComponent(TOKEN)}`);
  ws.onmessage = ev => {
    const m = JSON.parse(ev.data);
    if (m.type === "error") { document.getElementById("err").textContent = m.message; return; }
    if (m.type === "state") { document.getElementById("err").textContent = ""; S = m; render(); }
  };
  ws.onclose = ev => {
    if (ev.code === 4403) { document.getElementById("status").textContent =
      "This link is not valid (unknown table or wrong token)."; return; }
    document.getElementById("status").textContent = "disconnected — reconnecting…";
    setTimeout(connect, 1000);
  };
}
function act(action) {
  seq = Math.max(seq, S.last_seq) + 1;
  ws.send(JSON.stringify({type: "act", seq, move: S.table.move, action}));
  document.getElementById("actions").innerHTML = "";
  picked = new Set();
}
function label(j) { return S.table.seats[j].label; }
function statusText() {
  const t = S.table;
  if (t.status === "waiting") return "Waiting for every person to open their invite link…";
  if (t.status === "finished") return "The game is over.";
  if (S.your_turn) return "Your turn.";
  return `Waiting for seat ${t.actor} (${label(t.actor)})…`;
}
function render() {
  document.getElementById("title").textContent = `${S.table.title} — you are seat ${S.seat} (${S.you})`;
  document.getElementById("status").textContent = statusText();
  document.getElementById("viewtext").textContent = S.view_text;
  const log = document.getElementById("log"); log.innerHTML = "";
  for (const line of S.log) log.append(el("div", {}, line));
  log.scrollTop = log.scrollHeight;
  const notes = S.table.notes; document.getElementById("notes").hidden = !notes.length;
  document.getElementById("notelist").innerHTML = notes.map(n => `<div>${n.replace(/</g, "&lt;")}</div>`).join("");
  document.getElementById("board").innerHTML = "";
  if (S.details && S.details.kind === "resistance") renderResistance(S.details);
  else renderGeneric();
  renderEnd();
}
function renderGeneric() {
  const a = document.getElementById("actions"); a.innerHTML = "";
  for (const x of S.legal) a.append(el("button", {class: "move", "data-action": x.id, onclick: () => act(x.id)}, x.text));
  if (!S.legal.length) a.append(el("span", {class: "dim"}, statusText()));
}
function renderEnd() {
  if (!S.result) return;
  const board = document.getElementById("board");
  const r = S.result;
  const winners = r.rewards ? r.rewards.map((x, j) => [x, j]).filter(([x]) => x === Math.max(...r.rewards)).map(([, j]) => label(j)) : [];
  const box = el("div", {class: "panel", id: "result"},
    el("h2", {}, "Result"),
    r.error ? el("p", {class: "error"}, r.error) : el("p", {}, `Won by ${winners.join(", ")}.`),
    r.game_id ? el("p", {}, el("a", {href: `/replay/${r.game_id}`, id: "replaylink"}, "Watch the replay, everything revealed →")) : null,
    el("pre", {}, r.state_text));
  board.append(box);
}

// ---- The Resistance ----
function renderResistance(d) {
  const board = document.getElementById("board");
  const roles = S.result ? S.result.roles : null;
  const proposing = S.your_turn && d.phase === "propose";
  // mission track
  const track = el("div", {class: "track"});
  d.missions.forEach((m, i) => {
    const cls = m.team ? (m.sabotaged ? "lost" : "won") : (i + 1 === d.mission && d.phase !== "over" ? "current" : "");
    track.append(el("div", {class: `mission ${cls}`, title: m.team ? `team ${m.team.map(label).join(", ")}` : ""},
      el("div", {class: "size"}, m.size), el("div", {}, m.team ? `${m.fails} fail${m.fails === 1 ? "" : "s"}` : (m.fails_needed > 1 ? "2 fails" : `mission ${i + 1}`))));
  });
  const attempts = el("div", {class: "dim"}, `Mission ${Math.min(d.mission, 5)}, proposal ${d.attempt} of 5 · resistance ${d.res_wins} – spies ${d.spy_wins}`);
  // players
  const players = el("div", {class: "players"});
  for (let j = 0; j < d.n; j++) {
    const spy = roles ? roles[j] === "spy" : (d.spies && d.spies.includes(j));
    const tags = [];
    if (j === d.leader && d.phase !== "over") tags.push(el("span", {class: "badge leader"}, "leader"));
    if (j === S.seat) tags.push(el("span", {class: "badge"}, "you"));
    if (spy) tags.push(el("span", {class: "badge spy"}, "spy"));
    else if (roles || j === S.seat) tags.push(el("span", {class: "badge res"}, "resistance"));
    if (d.team.includes(j)) tags.push(el("span", {class: "badge"}, "on team"));
    const card = el("div", {class: `player${proposing ? " pickable" : ""}${picked.has(j) ? " selected" : ""}${d.team.includes(j) ? " onteam" : ""}${j === S.seat ? " me" : ""}`,
        "data-seat": j},
      el("div", {class: "name"}, `${j} · ${label(j)}`), el("div", {class: "tags"}, tags),
      el("div", {class: "dim"}, S.table.seats[j].kind === "bot" ? "bot" : "person"));
    if (proposing) card.addEventListener("click", () => {
      picked.has(j) ? picked.delete(j) : picked.size < d.team_size && picked.add(j); render(); });
    players.append(card);
  }
  // vote history
  const hist = el("table", {class: "grid", id: "votes"}, el("tr", {}, el("th", {}, "mission"), el("th", {}, "leader"),
    el("th", {}, "team"), el("th", {}, "votes"), el("th", {}, "")));
  for (const p of d.proposals) {
    const votes = p.approve === null ? el("span", {class: "dim"}, "—") :
      el("span", {}, [...Array(d.n).keys()].map(j => el("span", {class: p.approve.includes(j) ? "yes" : "no", title: label(j)},
        `${j}${p.approve.includes(j) ? "✓" : "✗"} `)));
    const ok = p.approve !== null ? (p.approve.length * 2 > d.n ? "approved" : "rejected")
      : (p === d.proposals[d.proposals.length - 1] && d.phase === "vote" ? "voting…" : "forced");
    hist.append(el("tr", {}, el("td", {}, `${p.mission}.${p.attempt}`), el("td", {}, label(p.leader)),
      el("td", {}, p.team.join(", ")), el("td", {}, votes), el("td", {}, ok)));
  }
  let you = d.spy ? `You are a SPY. Spies: ${d.spies.map(label).join(", ")}.` : "You are in the resistance; the spies are hidden.";
  if (roles) you = `The spies were ${roles.map((r, j) => r === "spy" ? label(j) : null).filter(x => x !== null).join(" and ")}.`;
  if (d.winner) board.append(el("div", {class: `banner ${d.winner}`, id: "banner"},
    d.winner === "resistance" ? "The resistance won!" : "The spies won!"));
  board.append(el("div", {class: "panel"}, el("h2", {}, "Mission track"), track, attempts,
    el("p", {}, you)));
  board.append(el("div", {class: "panel"}, el("h2", {}, "Players"), players));
  if (d.proposals.length) board.append(el("div", {class: "panel"}, el("h2", {}, "Proposals and votes"), hist));
  // actions
  const a = document.getElementById("actions"); a.innerHTML = "";
  if (!S.your_turn) {
    let msg = statusText();
    if (d.my_choice) msg += ` You chose: ${d.my_choice}.`;
    a.append(el("span", {class: "dim"}, msg)); return;
  }
  const ids = S.legal.map(x => x.id);
  if (d.phase === "propose") {
    const mask = [...picked].reduce((m, j) => m | (1 << j), 0);
    a.append(el("span", {}, `Click ${d.team_size} players for the team (${picked.size} chosen). `),
      el("button", {class: "primary", id: "propose", disabled: !(picked.size === d.team_size && ids.includes(mask)),
        onclick: () => act(mask)}, "Propose team"));
  } else if (d.phase === "vote") {
    a.append(el("span", {}, `Team ${d.team.map(label).join(", ")}: `),
      el("button", {class: "approve", id: "approve", onclick: () => act(1)}, "Approve"),
      el("button", {class: "reject", id: "reject", onclick: () => act(0)}, "Reject"));
  } else if (d.phase === "mission") {
    a.append(el("button", {class: "card success", id: "success", onclick: () => act(0)}, "SUCCESS"));
    if (ids.includes(1)) a.append(el("button", {class: "card fail", id: "fail", onclick: () => act(1)}, "FAIL"));
  }
}
connect();
