// The organiser's page: create a game (game, seats, options as the rules name them, players,
// tournament, table mode, printed cards, a stated position to start from), the invitation links to hand out,
// games in progress, standings; printed-card catalogs loaded from a file (POST /catalogs).
(function () {
  "use strict";
  const {$, el, api, reason, store, sse} = P;
  let token = store.get("organiser");
  let kinds = [];
  let loaded = [];  // the catalogs loaded (GET /catalogs)
  let finished = null;  // how many games of the list had finished when it was last read
  // the standings' columns, as /standings shows them (service/http/pages.py COLUMNS)
  const rate = (r) => (r.played ? `${Math.round(100 * r.win_share / r.played)}%` : "-");
  const STANDINGS = [["rank", (r) => r.rank], ["player", (r) => r.player], ["played", (r) => r.played],
    ["wins", (r) => r.wins], ["win rate", rate], ["rating", (r) => Number(r.rating).toFixed(2)],
    ["points", (r) => r.points], ["avg", (r) => r.avg_points], ["best", (r) => r.best]];

  function kind() { return kinds.find((k) => k.game === $("game").value); }
  function titled(game) { return (kinds.find((k) => k.game === game) || {title: game.replaceAll("-", " ")}).title; }

  function seatRow(k, seat) {
    const name = el("input", {type: "text", maxlength: "200", "data-seat": seat});
    const by = el("select", {"data-seat": seat, "aria-label": `who plays seat ${seat}`},
      el("option", {value: ""}, "a person"), ...(k.bots || []).map((b) => el("option", {value: b}, `bot: ${b}`)));
    by.onchange = () => { name.disabled = by.value !== ""; name.placeholder = by.value ? `${by.value} (bot)` : ""; };
    by.onchange();
    return el("div", {class: "seat-row"}, el("label", {}, `seat ${seat} `, name), " ", by);
  }

  function catalogChoices() {
    const game = $("game").value, had = $("catalog").value;
    const mine = loaded.filter((c) => c.game === game);
    $("catalog").replaceChildren(el("option", {value: ""}, "built-in values"),
      ...mine.map((c) => el("option", {value: c.digest}, `${c.name || "unnamed"} (loaded ${c.created.slice(0, 10)})`)));
    $("catalog").value = mine.some((c) => c.digest === had) ? had : "";
  }

  async function catalogs() {
    if (!token) { return; }
    const r = await api("/catalogs", {token});
    if (r.ok) { loaded = r.body; catalogChoices(); }
  }

  async function loadCatalog(e) {
    e.preventDefault();
    $("catalog-refusal").textContent = ""; $("catalog-said").textContent = "";
    const file = $("catalog-file").files[0];
    if (!file) { $("catalog-refusal").textContent = "Choose the catalog's file first."; return; }
    let catalog;
    try { catalog = JSON.parse(await file.text()); } catch (err) {
      $("catalog-refusal").textContent = `Not loaded: ${file.name} is not JSON (${err.message})`; return;
    }
    const game = $("catalog-game").value;
    const r = await api("/catalogs", {token, method: "POST", body: {game, name: $("catalog-name").value.trim(), catalog}});
    if (!r.ok) { $("catalog-refusal").textContent = `Not loaded: ${reason(r)}`; return; }
    const title = (kinds.find((k) => k.game === game) || {title: game}).title;
    $("catalog-said").textContent = `Loaded for ${title}: ${r.body.name || "unnamed"}. ` +
      "Choose it under Cards when you create a game.";
    await catalogs();
  }

  function fields() {
    const k = kind();
    if (!k) { return; }
    catalogChoices();
    const typed = $("seats").value.trim();
    if (typed === "" && $("players").children.length) { return; }  // being typed: the rows wait for a number
    const seats = Math.max(k.min_seats, Math.min(k.max_seats, Number(typed) || k.min_seats));
    $("seats").min = k.min_seats; $("seats").max = k.max_seats;
    // the rows already there stay as they are (a name being typed keeps its field and its focus):
    // rows are only added or taken away at the end
    const rows = $("players");
    while (rows.children.length > seats) { rows.lastElementChild.remove(); }
    for (let i = rows.children.length; i < seats; i++) { rows.append(seatRow(k, i + 1)); }
    if (rows.dataset.game === k.game) { return; }  // the same game: its bots and options stand
    rows.dataset.game = k.game;
    for (const by of rows.querySelectorAll("select")) {  // another game: its bots
      const had = by.value;
      by.replaceChildren(el("option", {value: ""}, "a person"), ...(k.bots || []).map((b) => el("option", {value: b}, `bot: ${b}`)));
      by.value = (k.bots || []).includes(had) ? had : "";
      by.onchange();
    }
    const kept = Object.fromEntries([...$("options").querySelectorAll("input")].map((i) => [i.dataset.option, i.value]));
    $("options").replaceChildren(...Object.entries(k.options).map(([name, hint]) => el("label", {},
      `${name} `, el("input", {type: "text", "data-option": name, value: kept[name] || "", placeholder: "default"}),
      el("span", {class: "hint", text: " " + hint}))));
    if (!Object.keys(k.options).length) { $("options").append(el("span", {class: "hint", text: "none"})); }
  }

  async function create(e) {
    e.preventDefault();
    $("refusal").textContent = "";
    const players = {}, options = {}, bots = {};
    for (const s of $("players").querySelectorAll("select")) { if (s.value) { bots[s.dataset.seat] = s.value; } }
    for (const i of $("players").querySelectorAll("input")) {
      if (i.value.trim() && !bots[i.dataset.seat]) { players[i.dataset.seat] = i.value.trim(); }
    }
    for (const i of $("options").querySelectorAll("input")) { if (i.value.trim()) { options[i.dataset.option] = i.value.trim(); } }
    const table = $("table").checked;
    const body = {game: $("game").value, seats: Number($("seats").value), table, options, players,
                  name: $("name").value.trim(), tournament: $("tournament").value.trim(), wait_for_seats: !table};
    if ($("catalog").value) { body.catalog = $("catalog").value; }
    const stated = $("position").value.trim();
    if (stated) {  // a stated position is laid at creation: the game does not wait for its seats
      try { body.position = JSON.parse(stated); } catch (err) { $("refusal").textContent = "Not created: the position is not JSON (" + err.message + ")"; return; }
      body.wait_for_seats = false;
    }
    const r = await api("/games", {token, method: "POST", body});
    if (!r.ok) { $("refusal").textContent = "Not created: " + reason(r); return; }
    const gid = r.body.game_id;
    const links = [];
    const played = [];
    for (let s = 1; s <= body.seats; s++) {
      if (bots[s]) {  // a bot takes its seat at once (POST /games/{id}/seats/{n}/bot); the service plays its turns
        const sat = await api(`/games/${gid}/seats/${s}/bot`, {token, method: "POST", body: {bot: bots[s]}});
        if (!sat.ok) { $("refusal").textContent = `The bot for seat ${s} was refused: ` + reason(sat); return; }
        played.push(el("li", {"data-bot": s, text: `seat ${s}: ${bots[s]} (bot), played by the service`}));
        continue;
      }
      const inv = await api(`/games/${gid}/invitations`, {token, method: "POST", body: {seat: s, player: players[s] || ""}});
      if (!inv.ok) { $("refusal").textContent = "Invitation refused: " + reason(inv); return; }
      const f = new URLSearchParams({code: inv.body.code});
      if (players[s]) { f.set("player", players[s]); }
      links.push({label: `seat ${s}${players[s] ? " (" + players[s] + ")" : ""}`, url: `${location.origin}/join/${gid}/${s}#${f}`});
    }
    links.push({label: "referee", url: `${location.origin}/referee/${gid}#key=${encodeURIComponent(r.body.referee_key)}`});
    links.push({label: "spectators (replay)", url: `${location.origin}/games/${gid}/view`});
    $("made").hidden = false;
    $("links").replaceChildren(el("li", {text: `${titled(body.game)} ${body.name} — ${gid}`}),
      ...links.map((l) => {
        const input = el("input", {class: "link", type: "text", readonly: "", value: l.url, "data-link": l.label});
        return el("li", {}, el("strong", {text: l.label + " "}),
          el("button", {type: "button", onclick: () => copy(input)}, "copy"), input);
      }), ...played);
    games();
  }

  async function copy(input) {
    input.select();
    try { await navigator.clipboard.writeText(input.value); } catch (err) { document.execCommand("copy"); }
  }

  async function games() {
    const r = await api("/games", {token});
    if (r.ok) { showGames(r.body); }
  }

  function showGames(all) {
    const done = all.filter((g) => g.finished).length;
    if (finished !== null && done !== finished) { standings(); }  // a game ended: its standings count now
    finished = done;
    const rows = all.filter((g) => !g.finished).slice(-50).reverse();
    $("games").replaceChildren(el("tr", {}, ...["game", "turn", "seats", ""].map((h) => el("th", {text: h}))),
      ...rows.map((g) => el("tr", {"data-game": g.game_id},
        el("td", {}, el("strong", {text: titled(g.game) + (g.table_mode ? " (table)" : "")}),
          g.name ? el("div", {text: g.name}) : null, g.tournament ? el("div", {class: "hint", text: g.tournament}) : null),
        el("td", {text: String(g.turn ?? "")}), el("td", {text: String(g.seats)}),
        el("td", {class: "links-cell"}, el("a", {href: `/games/${g.game_id}/view`}, "replay"), " ",
          el("a", {href: `/referee/${g.game_id}`}, "referee")))));
    if (!rows.length) { $("games").replaceChildren(el("tr", {}, el("td", {text: "none"}))); }
    document.body.dataset.games = String(all.length);
  }

  // the games list, live: GET /streams/games sends it at once and again at each change (a turn,
  // a game ended: then the standings are read again); with the organiser key once it is kept
  let unfollow = null;
  function live() {
    if (unfollow) { unfollow(); }
    unfollow = sse("/streams/games?timeout=600", token, (kind, data) => { if (kind === "games") { showGames(data); } return true; });
  }

  async function standings() {
    const t = $("standings-of").value.trim();
    const r = await api("/standings" + (t ? "?tournament=" + encodeURIComponent(t) : ""));
    if (!r.ok) { $("standings").textContent = reason(r); return; }
    const groups = new Map();
    for (const row of r.body) {
      const k = `${row.tournament || "(no tournament)"} — ${titled(row.game)}`;
      if (!groups.has(k)) { groups.set(k, []); }
      groups.get(k).push(row);
    }
    if (!groups.size) { $("standings").replaceChildren(el("p", {class: "hint", text: "No finished games with named players yet."})); return; }
    const out = [];
    for (const [title, rows] of groups) {
      out.push(el("h3", {text: title}), el("div", {class: "table-wrap"}, el("table", {class: "standings"},
        el("tr", {}, ...STANDINGS.map(([c]) => el("th", {text: c}))),
        ...rows.map((row) => el("tr", {}, ...STANDINGS.map(([, f]) => el("td", {text: String(f(row) ?? "")})))))));
    }
    $("standings").replaceChildren(...out);
  }

  $("key").value = token;
  $("key-form").onsubmit = (e) => { e.preventDefault(); token = $("key").value.trim(); store.set("organiser", token); live(); catalogs(); };
  $("game").onchange = fields;
  $("seats").onchange = fields;
  $("seats").oninput = fields;
  $("create").onsubmit = create;
  $("catalog-form").onsubmit = loadCatalog;
  $("standings-of").onchange = standings;
  api("/rules").then((r) => {
    kinds = r.body;
    $("game").replaceChildren(...kinds.map((k) => el("option", {value: k.game}, k.title)));
    $("catalog-game").replaceChildren(...kinds.map((k) => el("option", {value: k.game}, k.title)));
    fields();
    catalogs();
    live();        // the games and the standings name each game by its title: read once the titles are
    standings();
    document.body.dataset.ready = "yes";
  });
})();
