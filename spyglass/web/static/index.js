// The index page (a file of its own: the CSP allows no inline script).
let INFO = null;
function gameInfo() { return INFO.games.find(g => g.name === document.getElementById("game").value); }
function seatRow(j) {
  const kind = el("select", {"data-seat": j, class: "kind"},
    el("option", {value: "human"}, "person"), el("option", {value: "open"}, "open seat (anyone in the lobby)"),
    el("option", {value: "bot"}, "bot"));
  const name = el("input", {class: "name", value: j === 0 ? "me" : `player ${j}`, size: 14});
  const bot = el("input", {class: "bot", list: "botnames", size: 28,
    value: gameInfo().best});  // the game's recommended agent (spyglass bots --game G --best)
  // What the chosen bot is, in the registry's own words (spyglass bots --game G).
  const help = el("span", {class: "hint bothelp", id: `bothelp-${j}`, "aria-live": "polite"});
  const describe = () => {
    const name = bot.value.split(":")[0].trim().toLowerCase(), text = gameInfo().bot_help[name];
    help.textContent = text === undefined ? (name ? `no bot named ${name} for this game` : "") : (text || name);
  };
  kind.value = j === 0 ? "human" : "bot";
  const sync = () => { name.hidden = kind.value !== "human"; bot.hidden = help.hidden = kind.value !== "bot"; };
  kind.setAttribute("aria-label", `seat ${j}: who plays`); name.setAttribute("aria-label", `seat ${j}: name`);
  bot.setAttribute("aria-label", `seat ${j}: bot`); bot.setAttribute("aria-describedby", help.id);
  bot.addEventListener("input", describe); describe();
  kind.addEventListener("change", sync); sync();
  return el("tr", {}, el("td", {}, `seat ${j}`), el("td", {}, kind), el("td", {}, name, bot, help));
}
function redraw() {
  const g = gameInfo(), p = document.getElementById("players");
  const keep = +p.value;
  p.innerHTML = "";
  for (let n = g.min_players; n <= g.max_players; n++) p.append(el("option", {value: n}, n));
  if (keep >= g.min_players && keep <= g.max_players) p.value = keep;
  const opts = document.getElementById("options"); opts.innerHTML = "";
  for (const o of g.options) {
    const input = o.choices.length ? el("select", {"data-opt": o.name}, o.choices.map(c => el("option", {value: c}, c)))
                                   : el("input", {"data-opt": o.name, value: o.default, size: 4});
    input.value = o.default;
    // Human names for options (fifth_rejection -> "fifth rejection"); the game's help shown.
    const hint = el("span", {class: "hint", id: `opthelp-${o.name}`}, o.help);
    input.setAttribute("aria-describedby", hint.id);
    opts.append(el("label", {class: "opt"}, `${o.name.replace(/_/g, " ")} `, input, hint));
  }
  document.getElementById("optbox").hidden = !g.options.length;
  const rules = document.getElementById("ruleslink");
  rules.href = `/rules/${g.name}`; rules.textContent = `How ${g.title} is played, and its bots`;
  document.getElementById("botnames").innerHTML = "";
  for (const b of g.bots) document.getElementById("botnames").append(el("option", {value: b, label: g.bot_help[b] || b}));
  seats();
}
function seats() {
  const t = document.getElementById("seats"); t.innerHTML = "";
  for (let j = 0; j < +document.getElementById("players").value; j++) t.append(seatRow(j));
}
async function create() {
  const err = document.getElementById("err"); err.textContent = "";
  const options = {};
  for (const o of document.querySelectorAll("[data-opt]")) {
    const v = o.value; options[o.dataset.opt] = /^-?\d+$/.test(v) ? +v : v; }
  const seatsOut = [...document.querySelectorAll("#seats tr")].map(tr => {
    const kind = tr.querySelector(".kind").value;
    if (kind === "open") return {kind: "human", open: true};
    return kind === "human" ? {kind, name: tr.querySelector(".name").value}
                            : {kind, bot: tr.querySelector(".bot").value}; });
  const body = {game: gameInfo().name, options, seats: seatsOut};
  const seed = document.getElementById("seed").value.trim(); if (seed) body.seed = +seed;
  const clock = document.getElementById("clock").value.trim(); if (clock) body.clock = +clock;
  try {
    const r = await api("/api/tables", body);
    // Kept in this browser, so the table page can show the links again (with copy buttons).
    if (r.invites.length) try {
      localStorage.setItem(`spyglass.creator.${r.table.id}`, JSON.stringify({invites: r.invites, cancel_token: r.cancel_token}));
    } catch (e) { /* storage full or off: the links are still shown below */ }
    const links = document.getElementById("links"); links.innerHTML = "";
    document.getElementById("invites").hidden = false;
    if (!r.invites.length && body.seats.some(s => s.open)) links.append(el("p", {}, "Every person's seat is open: the table is in the ",
      el("a", {href: "/lobby"}, "Lobby"), " until people take them."));
    else if (!r.invites.length) links.append(el("p", {}, "Bots only: the game is being played; it will be in ",
      el("a", {href: "/games"}, "Games"), " when it ends."));
    for (const inv of r.invites) {
      const url = location.origin + inv.url;
      const copy = el("button", {class: "copy", onclick: () => copyText(url, copy)}, "Copy");
      links.append(el("p", {class: "invite-row"}, `seat ${inv.seat} (${inv.name}): `, el("a", {href: inv.url, class: "invite"}, url), copy));
    }
    if (r.invites.length) {
      const cancel = el("button", {onclick: async () => {
        try { await api(`/api/tables/${r.table.id}/cancel`, {token: r.cancel_token});
              links.append(el("p", {class: "dim"}, "The table was cancelled.")); cancel.disabled = true; }
        catch (e) { err.textContent = e.message; } }}, "Cancel this table");
      links.append(el("p", {class: "dim"}, "A table nobody starts expires; until then you may ", cancel));
    }
    if (r.invites.length === 1) location.href = r.invites[0].url;
  } catch (e) { err.textContent = e.message; }
}
(async () => {
  INFO = await api("/api/games_info");
  const g = document.getElementById("game");
  for (const x of INFO.games) g.append(el("option", {value: x.name}, x.title));
  // /?game=hearts (the rules page's "play it" link) chooses the game.
  const wanted = new URLSearchParams(location.search).get("game");
  if (INFO.games.some(x => x.name === wanted)) g.value = wanted;
  g.addEventListener("change", redraw);
  document.getElementById("players").addEventListener("change", seats);
  document.getElementById("create").addEventListener("click", create);
  redraw();
})();
