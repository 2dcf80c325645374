// The organiser's page: create a game (game, seats, options as the rules name them, players,
// tournament, table mode, a stated position to start from), the invitation links to hand out, games in progress, standings.
(function () {
  "use strict";
  const {$, el, api, reason, store} = P;
  let token = store.get("organiser");
  let kinds = [];

  function kind() { return kinds.find((k) => k.game === $("game").value); }

  function fields() {
    const k = kind();
    if (!k) { return; }
    const seats = Math.max(k.min_seats, Math.min(k.max_seats, Number($("seats").value) || k.min_seats));
    $("seats").min = k.min_seats; $("seats").max = k.max_seats;
    const names = [...$("players").querySelectorAll("input")].map((i) => i.value);
    const players = [...$("players").querySelectorAll("select")].map((s) => s.value);
    $("players").replaceChildren(...Array.from({length: seats}, (_, i) => {
      const name = el("input", {type: "text", maxlength: "200", "data-seat": i + 1, value: names[i] || ""});
      const by = el("select", {"data-seat": i + 1, "aria-label": `who plays seat ${i + 1}`},
        el("option", {value: ""}, "a person"),
        ...(k.bots || []).map((b) => el("option", {value: b}, `bot: ${b}`)));
      by.value = (k.bots || []).includes(players[i]) ? players[i] : "";
      const sync = () => { name.disabled = by.value !== ""; name.placeholder = by.value ? `${by.value} (bot)` : ""; };
      by.onchange = sync;
      sync();
      return el("div", {class: "seat-row"}, el("label", {}, `seat ${i + 1} `, name), " ", by);
    }));
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
    $("links").replaceChildren(el("li", {text: `${body.game.replaceAll("-", " ")} ${body.name} — ${gid}`}),
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
    if (!r.ok) { return; }
    const rows = r.body.filter((g) => !g.finished).slice(-50).reverse();
    $("games").replaceChildren(el("tr", {}, ...["game", "name", "tournament", "turn", "seats", ""].map((h) => el("th", {text: h}))),
      ...rows.map((g) => el("tr", {"data-game": g.game_id},
        el("td", {text: g.game.replaceAll("-", " ") + (g.table_mode ? " (table)" : "")}), el("td", {text: g.name || ""}),
        el("td", {text: g.tournament || ""}), el("td", {text: String(g.turn ?? "")}), el("td", {text: String(g.seats)}),
        el("td", {}, el("a", {href: `/games/${g.game_id}/view`}, "replay"), " ",
          el("a", {href: `/referee/${g.game_id}`}, "referee")))));
    if (!rows.length) { $("games").replaceChildren(el("tr", {}, el("td", {text: "none"}))); }
  }

  async function standings() {
    const t = $("standings-of").value.trim();
    const r = await api("/standings" + (t ? "?tournament=" + encodeURIComponent(t) : ""));
    if (!r.ok) { $("standings").textContent = reason(r); return; }
    const groups = new Map();
    for (const row of r.body) {
      const k = `${row.tournament || "(no tournament)"} — ${row.game}`;
      if (!groups.has(k)) { groups.set(k, []); }
      groups.get(k).push(row);
    }
    if (!groups.size) { $("standings").replaceChildren(el("p", {class: "hint", text: "No finished games with named players yet."})); return; }
    const out = [];
    for (const [title, rows] of groups) {
      const cols = Object.keys(rows[0]).filter((c) => c !== "tournament" && c !== "game");
      out.push(el("h3", {text: title}), el("div", {class: "table-wrap"}, el("table", {class: "standings"},
        el("tr", {}, ...cols.map((c) => el("th", {text: c.replaceAll("_", " ")}))),
        ...rows.map((row) => el("tr", {}, ...cols.map((c) => el("td", {text: String(row[c] ?? "")})))))));
    }
    $("standings").replaceChildren(...out);
  }

  $("key").value = token;
  $("key-form").onsubmit = (e) => { e.preventDefault(); token = $("key").value.trim(); store.set("organiser", token); games(); };
  $("game").onchange = fields;
  $("seats").onchange = fields;
  $("seats").oninput = fields;
  $("create").onsubmit = create;
  $("standings-of").onchange = standings;
  api("/rules").then((r) => {
    kinds = r.body;
    $("game").replaceChildren(...kinds.map((k) => el("option", {value: k.game}, k.title)));
    fields();
    document.body.dataset.ready = "yes";
  });
  games();
  standings();
  setInterval(() => { if (!document.hidden) { games(); standings(); } }, 15000);
})();
