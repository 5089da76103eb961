// A seat's live page: one WebSocket, messages carry only this seat's view.
const params = new URLSearchParams(location.search);
const TABLE = location.pathname.split("/").pop();
const TOKEN = params.get("token") || "";
const WATCH = params.get("watch") === "1";  // a spectator: public information only
let ws = null, S = null, seq = 0, picked = new Set();

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(WATCH ? `${proto}://${location.host}/ws/${TABLE}?watch=1`
                          : `${proto}://${location.host}/ws/${TABLE}?token=${encodeURIComponent(TOKEN)}`);
  ws.onmessage = ev => {
    const m = JSON.parse(ev.data);
    if (m.type === "error") { document.getElementById("err").textContent = m.message; return; }
    if (m.type === "state") { document.getElementById("err").textContent = ""; S = m; render(); }
  };
  ws.onclose = ev => {
    // The server closed this socket on purpose: say why and do not retry.
    const why = {4403: "This link is not valid (unknown table or wrong token).",
                 4429: "Too many connections to this seat or from this browser; close other tabs and reload.",
                 4400: "The page sent a message the server does not accept; reload the page.",
                 1003: "The page sent a message the server does not accept; reload the page.",
                 1009: "The page sent a message that is too long; reload the page."}[ev.code];
    if (why) { document.getElementById("status").textContent = why + (ev.reason ? ` (${ev.reason})` : "");
               return; }
    if (S && (S.table.status === "finished" || S.table.status === "cancelled")) return;
    document.getElementById("status").textContent = "disconnected — reconnecting…";
    setTimeout(connect, 1000);
  };
}
function act(action) {
  seq = Math.max(seq, S.last_seq) + 1;
  ws.send(JSON.stringify({type: "act", seq, move: S.table.move, action}));
  document.getElementById("actions").innerHTML = "";
  // The drawn board stops offering moves at once (no second move before the reply).
  for (const e of document.querySelectorAll("#board .playable, #board .pickable")) {
    e.classList.remove("playable", "pickable");
    if (e.tagName === "BUTTON") e.disabled = true;
  }
  picked = new Set();
}
document.getElementById("sound").checked = localStorage.getItem("spyglass.sound") === "1";
document.getElementById("sound").addEventListener("change", ev => {
  localStorage.setItem("spyglass.sound", ev.target.checked ? "1" : "0"); if (ev.target.checked) beep(); });
function label(j) { return j >= 0 && S.table.seats[j] ? S.table.seats[j].label : `seat ${j}`; }
function statusText() {
  const t = S.table;
  if (t.status === "waiting") {
    const absent = t.seats.filter(s => s.kind === "human" && !s.joined).map(s => s.label);
    return `Waiting for ${absent.join(", ") || "the game to start"} to open their invite link…`;
  }
  if (t.status === "finished") return S.result ? `The game is over. ${S.result.text || ""}` : "The game is over.";
  if (t.status === "cancelled") return "This table was cancelled (by its creator, or nobody started it in time).";
  if (S.your_turn) return "Your turn.";
  if (t.actor < 0) return "The game is ending…";  // the last moves are played, bots finish
  if (t.away_left !== null && t.away_left !== undefined) {  // the person to move has left
    const s = Math.ceil(t.away_left), when = s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
    return `Waiting for ${label(t.actor)} (seat ${t.actor}), who has no page open: a bot plays the seat in ${when} unless they come back.`;
  }
  return `Waiting for ${label(t.actor)} (seat ${t.actor})…`;
}
// Observation texts name seats by number ("seat 2"; Mini Dou Di Zhu's "player 1") or by
// the game's own words for them (Hearts's "South": the game's seat_names); the panels
// use names.
function named(line) {
  const seatOf = n => (S.table.seats[n] ? S.table.seats[n].label : null);
  line = line.replace(/\b([Ss]eat|[Pp]layer) (\d+)\b/g, (m, s, j) => seatOf(+j) || m);
  const words = S.table.seat_words || [];
  if (!words.length) return line;
  return line.replace(new RegExp(`\\b(${words.join("|")})\\b`, "g"), m => seatOf(words.indexOf(m)) || m);
}
// The move clock: counted down here from the seconds left when the state was sent.
let clockUntil = null;
function renderClock() {
  const box = document.getElementById("clock"), t = S.table;
  if (t.clock === null || t.clock === undefined || t.status !== "playing") { box.hidden = true; clockUntil = null; return; }
  box.hidden = false;
  clockUntil = t.seconds_left === null ? null : Date.now() + 1000 * t.seconds_left;
  tickClock();
}
function tickClock() {
  const box = document.getElementById("clock"), t = S && S.table;
  if (!t || box.hidden) return;
  if (clockUntil === null) { box.textContent = `Clock: ${t.clock}s a move (+${t.grace}s grace), then a bot plays the seat.`; return; }
  const left = Math.max(0, Math.round((clockUntil - Date.now()) / 1000));
  const who = S.your_turn ? "you have" : `${label(t.actor)} has`;
  box.textContent = `${who} ${left}s left for this move (a bot plays the seat after that)`;
  box.classList.toggle("low", left <= 10);
}
setInterval(tickClock, 500);
let wasTurn = false;
function signalTurn() {
  const mine = !!S.your_turn;
  document.title = (mine ? "● Your turn — " : "") + `${S.table.title} — Spyglass`;
  document.getElementById("status").classList.toggle("myturn", mine);
  document.getElementById("actionbar").classList.toggle("myturn", mine);
  document.getElementById("actionbar").classList.toggle("hasmoves", !!document.querySelector("#actions button"));
  if (mine && !wasTurn && document.getElementById("sound").checked) beep();
  wasTurn = mine;
}
let audio = null;
function beep() {
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 660; g.gain.value = 0.08; o.connect(g); g.connect(audio.destination);
    o.start(); o.stop(audio.currentTime + 0.15);
  } catch (e) { /* no audio: the title and highlight still say it */ }
}
function renderSeats() {
  const bar = document.getElementById("seatbar"); bar.innerHTML = "";
  for (const s of S.table.seats) {
    const bits = [s.label, s.kind === "bot" ? "bot" : "person"];
    if (s.seat === S.seat) bits.push("you");
    if (s.kind === "human" && !s.joined && S.table.status === "waiting") bits.push("not here yet");
    if (s.replaced) bits.push("replaced");
    const acting = S.table.status === "playing" && S.table.actor === s.seat;
    if (acting) bits.push("to move");
    bar.append(el("li", {class: `${acting ? "actor" : ""}${s.seat === S.seat ? " me" : ""}${s.kind === "human" && !s.joined ? " absent" : ""}`,
      "aria-current": acting ? "true" : null, "data-seat": s.seat}, `${s.seat} · ${bits.join(" · ")}`));
  }
}
// What each bot at the table is (a bot is named by its spec, e.g. moismcts:iterations=2000).
function renderBotsAbout() {
  const box = document.getElementById("botsabout"), seen = new Map();
  for (const s of S.table.seats) if (s.kind === "bot" && s.about) {
    const name = s.label.split("#")[0].split(":")[0];
    if (!seen.has(name)) seen.set(name, s.about);
  }
  box.hidden = !seen.size;
  box.textContent = [...seen].map(([n, a]) => `${n}: ${a}`).join(" · ");
}
function renderWaiting() {
  const box = document.getElementById("waiting"), body = document.getElementById("waitbody");
  const creator = creatorOf(TABLE);
  const show = S.table.status === "waiting" || (creator && S.table.status === "playing" && S.table.move === 0);
  box.hidden = !show;
  if (!show) return;
  body.innerHTML = "";
  if (creator && creator.invites) {
    body.append(el("p", {}, "Invite links — send each person their own; they are kept in this browser:"));
    for (const inv of creator.invites) {
      const url = location.origin + inv.url;
      const field = el("input", {value: url, readonly: true, "aria-label": `invite link for seat ${inv.seat} (${inv.name})`, class: "invite"});
      const copy = el("button", {class: "copy", "data-seat": inv.seat, onclick: () => copyText(url, copy)}, "Copy");
      body.append(el("div", {class: "invite-row"}, el("span", {}, `seat ${inv.seat} (${inv.name})`), field, copy));
    }
  }
  if (S.table.status === "waiting") {
    const start = el("button", {class: "primary", id: "startnow", onclick: async () => {
      try { await api(`/api/tables/${TABLE}/start`, {token: TOKEN}); }
      catch (e) { document.getElementById("err").textContent = e.message; } }}, "Start now");
    body.append(el("p", {}, start, " ", el("span", {class: "dim"},
      "starts without waiting; the game waits for a missing person at their turn")));
  }
}
// Chat: shown as text (never HTML); spectators' lines reach spectators only.
function renderChat() {
  const box = document.getElementById("chatlog");
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  box.innerHTML = "";
  for (const c of S.chat || [])
    box.append(el("div", {class: c.to === "spectators" ? "dim" : ""},
      el("b", {}, c.seat === null ? "spectator" : c.name), `: ${c.text}`));
  if (atEnd) box.scrollTop = box.scrollHeight;
  document.getElementById("chatnote").textContent = S.spectator
    ? "Spectators read the players' chat; the players never read the spectators'."
    : "Everyone at the table and every spectator reads this chat; it is kept with the game's record.";
}
document.getElementById("chatform").addEventListener("submit", ev => {
  ev.preventDefault();
  const input = document.getElementById("chatinput");
  const text = input.value.trim();
  if (!text || !ws || ws.readyState !== 1) return;
  ws.send(JSON.stringify({type: "chat", text}));
  input.value = "";
});
function renderWatch() {
  document.getElementById("title").textContent = `${S.table.title} — watching`;
  document.getElementById("status").textContent = statusText();
  for (const id of ["actionbar", "viewbox", "sound"]) document.getElementById(id).hidden = true;
  document.getElementById("sound").parentElement.hidden = true;
  const log = document.getElementById("log"); log.innerHTML = "";
  for (const line of S.log) log.append(el("div", {}, line));
  log.scrollTop = log.scrollHeight;
  const nl = document.getElementById("notelist"); nl.innerHTML = "";
  for (const n of S.table.notes) nl.append(el("div", {}, n));
  document.getElementById("notes").hidden = !S.table.notes.length;
  renderSeats();
  renderBotsAbout();
  renderChat();
  document.getElementById("board").innerHTML = "";
  renderEnd();
  document.title = `${S.table.title} (watching) — Spyglass`;
}
function renderRulesLink() {
  const a = document.getElementById("ruleslink");
  a.href = `/rules/${S.table.game}`; a.textContent = `Rules of ${S.table.title}`;
}
function render() {
  renderRulesLink();
  if (S.spectator) { renderWatch(); return; }
  document.getElementById("title").textContent = `${S.table.title} — you are ${S.you} (seat ${S.seat})`;
  document.getElementById("status").textContent = statusText();
  document.getElementById("viewtext").textContent = S.view_text;
  const log = document.getElementById("log"); log.innerHTML = "";
  for (const line of S.log) log.append(el("div", {}, named(line)));
  log.scrollTop = log.scrollHeight;
  const notes = [...S.table.notes];
  if (S.table.seed !== null && S.table.seed !== undefined)
    notes.unshift(`The table's creator chose the seed ${S.table.seed}, which fixes the deal: every seat is shown it.`);
  if (!S.table.rated) notes.push(`This game will not be rated: ${S.table.unrated.join("; ")}.`);
  document.getElementById("notes").hidden = !notes.length;
  const nl = document.getElementById("notelist"); nl.innerHTML = "";
  for (const n of notes) nl.append(el("div", {}, n));
  renderSeats();
  renderBotsAbout();
  renderClock();
  renderChat();
  renderWaiting();
  document.getElementById("board").innerHTML = "";
  const drawn = !!S.details;
  if (!drawn && !viewboxTouched) document.getElementById("viewbox").open = true;
  if (S.details && S.details.kind === "resistance") renderResistance(S.details);
  else if (S.details && S.details.kind === "cheat") renderCheat(S.details);
  else if (S.details && window.VIEWS && VIEWS[S.details.kind]) VIEWS[S.details.kind](S, S.details, act);
  else renderGeneric();
  renderEnd();
  document.getElementById("actionbar").hidden = S.table.status === "finished" || S.table.status === "cancelled";
  signalTurn();
}
let viewboxTouched = false;
document.getElementById("viewbox").addEventListener("toggle", () => { viewboxTouched = true; });
function renderGeneric() {
  const a = document.getElementById("actions"); a.innerHTML = "";
  for (const x of S.legal) a.append(el("button", {class: "move", "data-action": x.id, onclick: () => act(x.id)}, x.text));
  if (!S.legal.length) a.append(el("span", {class: "dim"}, statusText()));
}
function renderEnd() {
  if (!S.result) return;
  const board = document.getElementById("board");
  const r = S.result;
  if (!(S.details && S.details.winner !== undefined && S.details.winner !== null) && !r.error)
    board.prepend(el("div", {class: `banner ${r.outcome}`, id: "banner"}, r.text));
  const box = el("div", {class: "panel", id: "result"},
    el("h2", {}, "Result"),
    r.error ? el("p", {class: "error"}, r.error) : el("p", {id: "outcome"}, r.text),
    r.game_id ? el("p", {}, el("a", {href: `/replay/${r.game_id}`, id: "replaylink"}, "Watch the replay, everything revealed →")) : null,
    S.spectator ? null : rematchControl(),
    el("pre", {}, r.state_text));
  board.append(box);
}

// Re-rendering replaces the elements: keep the keyboard's place.
function focusSel(sel) { const e = document.querySelector(sel); if (e) e.focus(); }

function rematchControl() {
  if (S.rematch) return el("p", {}, el("a", {href: S.rematch, id: "rematchlink", class: "primary"}, "Play the rematch: same seats, new deal →"));
  const b = el("button", {class: "primary", id: "rematch", onclick: async () => {
    b.disabled = true;
    try { const r = await api(`/api/tables/${TABLE}/rematch`, {token: TOKEN}); location.href = r.url; }
    catch (e) { document.getElementById("status").textContent = e.message; b.disabled = false; } }},
    "Rematch: same seats, new deal");
  return el("p", {}, b);
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
    const card = el("div", {class: `player${proposing ? " pickable" : ""}${picked.has(j) ? " selected" : ""}${d.team.includes(j) ? " onteam" : ""}${j === S.seat ? " me" : ""}${S.table.actor === j ? " turn" : ""}`,
        "data-seat": j},
      el("div", {class: "name"}, `${j} · ${label(j)}`), el("div", {class: "tags"}, tags),
      el("div", {class: "dim"}, S.table.seats[j].kind === "bot" ? "bot" : "person"));
    if (proposing) pressable(card, () => {
      picked.has(j) ? picked.delete(j) : picked.size < d.team_size && picked.add(j); render();
      focusSel(`.player.pickable[data-seat="${j}"]`); }, picked.has(j));
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
    (d.winner === "resistance" ? "The resistance won!" : "The spies won!") + (S.result ? ` ${S.result.text}` : "")));
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

// ---- Cheat ----
let handKey = "";
function claimId(d, dir, ranks) {
  // The rules' claim id (spyglass.games.cheat.game.claim_id); the server checks it.
  const rs = [...ranks].sort((a, b) => a - b);
  const code = rs.reduce((c, r, i) => c + r * 13 ** (3 - i), 0);
  return d.claim0 + (dir * 4 + rs.length - 1) * d.block + code;
}
function renderCheat(d) {
  const board = document.getElementById("board");
  const key = d.hand.join(",");
  if (key !== handKey) { picked = new Set(); handKey = key; }
  const me = S.seat, opp = d.opponent, names = d.names;
  const who = j => (j === me ? "You" : label(j));
  if (d.winner !== null) board.append(el("div", {class: `banner ${d.winner === me ? "resistance" : d.winner === "draw" ? "" : "spies"}`, id: "banner"},
    d.winner === "draw" ? "A draw." : d.winner === me ? "You won!" : `${label(d.winner)} won.`));
  // The table: opponent, pile, reference rank, deck.
  const backs = el("div", {class: "backs"}); for (let i = 0; i < Math.min(d.opp_hand, 26); i++) backs.append(el("div", {class: "back"}));
  const oppBox = el("div", {class: `seatbox${d.to_move === opp ? " turn" : ""}`, id: "opponent"},
    el("div", {class: "name"}, `${opp} · ${label(opp)}${d.to_move === opp ? " — to move" : ""}`),
    el("div", {}, el("b", {id: "opp-count"}, d.opp_hand), ` card${d.opp_hand === 1 ? "" : "s"} in hand`), backs,
    d.opp_known.length ? el("div", {class: "dim"}, `known to hold: ${d.opp_known.map(r => names[r]).join(" ")}`) : null,
    el("div", {class: "dim"}, `calls ${d.calls[opp]} (${d.calls_ok[opp]} caught a lie) · caught lying ${d.caught[opp]}×`));
  const pile = el("div", {class: "pile", id: "pile"}, el("div", {class: "pilestack"}, el("div", {class: "count"}, d.pile)),
    el("div", {}, `card${d.pile === 1 ? "" : "s"} on the pile`),
    d.my_pile.length ? el("div", {class: "dim"}, `yours among them: ${d.my_pile.map(r => names[r]).join(" ")}`) : null);
  const last = d.last_claim ? `${who(d.last_claim.by)} claimed ${d.last_claim.count} × ${names[d.last_claim.rank]}` : "no claim on the pile";
  const refBox = el("div", {class: "refbox", id: "claimrank"},
    el("div", {class: "dim"}, "claimed rank"), el("div", {class: "bigrank"}, names[d.ref]),
    el("div", {}, last),
    el("div", {class: "dim"}, `next claim: ${names[d.up]} (up) or ${names[d.down]} (down)`));
  const deck = el("div", {class: "refbox"}, el("div", {class: "dim"}, "deck"), el("div", {class: "bigrank"}, d.deck),
    el("div", {class: "dim"}, `starter card ${names[d.starter]} (out of play)`),
    el("div", {class: "dim"}, `round ${d.round} of ${d.max_rounds}`));
  board.append(el("div", {class: "panel"}, el("h2", {}, "The table"),
    el("div", {class: "row cheatrow"}, oppBox, pile, refBox, deck)));
  // Your hand.
  const mine = el("div", {class: "hand", id: "hand"});
  d.hand.forEach((r, i) => {
    const c = el("div", {class: `pcard${picked.has(i) ? " selected" : ""}${d.can_claim ? " pickable" : ""}`,
      "data-i": i, "data-rank": names[r]}, el("span", {}, names[r]));
    if (d.can_claim) pressable(c, () => {
      picked.has(i) ? picked.delete(i) : picked.size < d.max_claim && picked.add(i); render();
      focusSel(`.pcard.pickable[data-i="${i}"]`); }, picked.has(i));
    c.setAttribute("aria-label", `${names[r]}${picked.has(i) ? ", chosen" : ""}`);
    mine.append(c);
  });
  board.append(el("div", {class: `panel${d.to_move === me ? " myturn" : ""}`, id: "mine"},
    el("h2", {}, `Your hand — ${d.hand.length} card${d.hand.length === 1 ? "" : "s"}${d.to_move === me && d.winner === null ? " — your turn" : ""}`), mine,
    el("div", {class: "dim"}, `your calls ${d.calls[me]} (${d.calls_ok[me]} caught a lie) · caught lying ${d.caught[me]}×`)));
  // Claims history.
  if (d.claims.length) {
    const hist = el("table", {class: "grid", id: "claims"}, el("tr", {}, ["#", "who", "claim", "cards put down", "called?"].map(h => el("th", {}, h))));
    for (const c of [...d.claims].reverse()) {
      let called = el("span", {class: "dim"}, "—");
      if (c.called_by !== null) called = el("span", {class: c.truth ? "yes" : "no"},
        `${who(c.called_by)} called: ${c.truth ? "true" : "a lie"} — ${who(c.taker)} took the pile (${c.pile.map(r => names[r]).join(" ")})`);
      hist.append(el("tr", {}, el("td", {}, c.n), el("td", {}, who(c.by)),
        el("td", {}, `${c.count} × ${names[c.rank]} (${c.direction})`),
        el("td", {}, c.cards ? `${c.cards.map(r => names[r]).join(" ")}${c.cards.some(r => r !== c.rank) ? " (a bluff)" : ""}`
          : el("span", {class: "dim"}, "face down")), el("td", {}, called)));
    }
    board.append(el("div", {class: "panel"}, el("h2", {}, "Claims, newest first"), el("div", {class: "scroll"}, hist)));
  }
  // Your move.
  const a = document.getElementById("actions"); a.innerHTML = "";
  if (!S.your_turn) { a.append(el("span", {class: "dim"}, statusText())); return; }
  const ids = S.legal.map(x => x.id);
  if (d.forced) a.append(el("span", {}, `${label(opp)} played its last cards: you must check the claim. `));
  if (d.can_claim) {
    const ranks = [...picked].map(i => d.hand[i]), n = ranks.length;
    const ok = n >= 1 && n <= d.max_claim;
    a.append(el("span", {}, n ? `${n} card${n === 1 ? "" : "s"} chosen: ` : "Click 1–4 cards, then claim: "),
      el("button", {class: "primary", id: "claim-up", disabled: !ok, onclick: () => act(claimId(d, 0, ranks))},
        `Claim ${n || "N"} × ${names[d.up]} (up)`),
      el("button", {class: "primary", id: "claim-down", disabled: !ok, onclick: () => act(claimId(d, 1, ranks))},
        `Claim ${n || "N"} × ${names[d.down]} (down)`));
  }
  if (ids.includes(1)) a.append(el("button", {id: "take", onclick: () => act(1)}, "Take a card"));
  if (ids.includes(0)) a.append(el("button", {class: "reject", id: "call", onclick: () => act(0)}, "Call Cheat!"));
}
connect();
