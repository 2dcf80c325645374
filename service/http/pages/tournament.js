// The organiser's page of a tournament: create one; register players; seat each round (each table
// played by people through seat links, by bots, at a physical table, or by hand); watch the tables;
// enter a hand-played table's result; close the round; the standings now and as each round closed.
(function () {
  "use strict";
  const {$, el, api, reason, store, serial} = P;
  const HOW = {people: "people, through seat links", bots: "bots (the service plays)",
               table: "at a table (a referee enters dice and cards)", hand: "by hand (result entered here)"};
  let token = store.get("organiser");
  const tid = (location.pathname.match(/^\/tournament\/([0-9a-f]{6,32})$/) || [])[1] || "";
  let view = null;
  const opened = {};  // the tables whose hand-result form is open

  function refuse(r) { $("refusal").textContent = r ? reason(r) : ""; }
  const kept = (round, table) => `tournament:${tid}:${round}:${table}`;

  async function act(path, body) {  // an organiser's command; the page shows the tournament after it
    refuse(null);
    const r = await api(`/tournaments/${tid}${path}`, {token, method: "POST", body: body || {}});
    if (!r.ok) { refuse(r); return null; }
    await load();
    return r.body;
  }

  function standings(rows, settings) {
    const tbs = settings.tiebreaks;
    const said = {opponents: "opp.", score: "VP", openskill: "rating"};
    const head = el("tr", {}, ...["#", "player", "points", "played", ...tbs.map((t) => said[t])].map((h) => el("th", {text: h})));
    return [head, ...rows.map((r) => el("tr", {"data-player": r.player},
      el("td", {text: String(r.rank)}),
      el("td", {}, el("a", {href: `/tournament/${tid}/player?name=${encodeURIComponent(r.player)}`,
                            text: r.player + (r.dropped ? " (dropped)" : "")})),
      el("td", {text: String(r.points)}), el("td", {text: String(r.played)}),
      ...tbs.map((t) => el("td", {text: t === "openskill" ? (r[t] / 100).toFixed(2) : String(r[t])}))))];
  }

  function handForm(rnd, t) {  // a table played without the service: places and a reason, on the record
    const inputs = t.players.map((p, i) => el("label", {}, `${p} `,
      el("input", {type: "number", min: "1", max: String(t.players.length), value: String(i + 1),
                   "data-place": p})));
    const why = el("input", {type: "text", maxlength: "500", "data-reason": "", placeholder: "why by hand",
                             value: t.mode ? "" : "played without the service"});
    const form = el("form", {class: "hand"}, el("p", {class: "hint", text: "Places (1 first; equal places share):"}),
      ...inputs, el("label", {}, "Reason ", why), el("button", {type: "submit", text: "Enter the result"}));
    form.onsubmit = async (e) => {
      e.preventDefault();
      const places = {};
      for (const i of inputs) { const x = i.querySelector("input"); places[x.dataset.place] = Number(x.value); }
      await act(`/tables/${t.table}/result`, {places, reason: why.value.trim()});
    };
    return form;
  }

  function table(rnd, t) {
    const links = JSON.parse(store.get(kept(rnd.round, t.table)) || "null");
    const game = t.game;
    let state = "no game: played by hand";
    if (t.game_id) {
      state = !game ? "played" : game.finished ? "finished"
        : game.turn ? `playing (turn ${game.turn})` : "its seats being taken";
    }
    if (t.result) { state = t.result.game_id ? "result from its game" : "result by hand: " + t.result.reason; }
    const box = el("article", {"data-table": String(t.table), "data-done": t.result ? "yes" : "no"},
      el("h3", {text: `Table ${t.table}`}),
      el("ol", {}, ...t.players.map((p) => el("li", {},
        p + (t.result ? ` — ${t.result.places[p]}. (${t.result.points[p]} point${t.result.points[p] === 1 ? "" : "s"})` : "")))),
      el("p", {class: "hint", "data-state": "", text: state}));
    if (t.game_id) {
      box.append(el("p", {}, el("a", {href: `/games/${t.game_id}/view`, text: "watch its game"}),
        ...(t.mode === "table" ? [" · ", el("a", {href: `/referee/${t.game_id}`, text: "referee it (dice and cards)"})] : [])));
    }
    if (links && links.length && !t.result) {
      box.append(el("p", {class: "hint", text: "Seat links (each takes its seat once):"}),
        ...links.map((l) => el("label", {class: "seat-link"}, `seat ${l.seat} (${l.player}) `,
          el("input", {class: "link", readonly: "", "data-link": `${t.table}:${l.seat}`, value: location.origin + l.path}))));
    }
    if (!t.result && !rnd.closed) {
      if (game && game.finished) {
        const b = el("button", {type: "button", text: "Record its result"});
        b.onclick = () => act(`/tables/${t.table}/result`, {});
        box.append(b);
      }
      const open = el("details", {}, el("summary", {text: "Enter its result by hand"}), handForm(rnd, t));
      open.ontoggle = () => { opened[t.table] = open.open; };  // kept open across the page's refreshes
      if (opened[t.table]) { open.open = true; }
      box.append(open);
    }
    return box;
  }

  function show() {
    const v = view;
    document.title = `privateer — ${v.name || "a tournament"}`;
    const said = `, round ${v.round} of ${v.settings.rounds}` + (v.finished ? " (finished)" : "");
    $("title").textContent = `${v.name || "Tournament"}: ${v.settings.game.replaceAll("-", " ")}${said}`;
    P.gameTitle(v.settings.game).then((t) => { $("title").textContent = `${v.name || "Tournament"}: ${t}${said}`; });
    for (const id of ["round-box", "players-box", "standings-box"]) { $(id).hidden = false; }
    $("players").replaceChildren(...v.players.map((p) => {
      const li = el("li", {"data-player": p.player}, el("a", {href: `/tournament/${tid}/player?name=${encodeURIComponent(p.player)}`, text: p.player}),
        p.dropped ? " (dropped)" : (p.from_round > 1 ? ` (from round ${p.from_round})` : ""));
      if (!p.dropped && !v.finished) {
        const b = el("button", {type: "button", class: "danger", text: "drop"});
        b.onclick = () => act("/drop", {player: p.player, reason: "dropped on the organiser's page"});
        li.append(" ", b);
      }
      return li;
    }));
    const rnd = v.rounds.length ? v.rounds[v.rounds.length - 1] : null;
    $("round-title").textContent = rnd ? `Round ${rnd.round}` + (rnd.closed ? " (closed)" : "") : "No round yet";
    $("seat").hidden = !v.next.includes("seat");
    $("close").hidden = !(rnd && !rnd.closed);
    $("finish").hidden = !v.next.includes("finish");
    const nxt = v.next_round;
    $("seat-how").replaceChildren();
    if (nxt) {
      $("seat").textContent = `Seat round ${nxt.round}`;
      $("round-hint").textContent = `Round ${nxt.round}: ${nxt.tables.length} tables of ${nxt.tables.join(", ")}`
        + (nxt.byes ? `, ${nxt.byes} bye(s)` : "") + ". How is each table played?";
      $("seat-how").append(...nxt.tables.map((size, i) => el("label", {}, `table ${i + 1} (${size}) `,
        el("select", {"data-how": String(i + 1)}, ...Object.entries(HOW).map(([k, said]) => el("option", {value: k, text: said}))))));
    } else {
      $("round-hint").textContent = rnd && !rnd.closed ? "Results come from each table's game when it finishes "
        + "(closing the round records them), or by hand." : "";
    }
    $("tables").replaceChildren(...(rnd ? rnd.tables.map((t) => table(rnd, t)) : []),
      ...(rnd && rnd.byes.length ? [el("p", {class: "hint", text: "bye: " + rnd.byes.join(", ")})] : []));
    const pick = $("standings-round");
    const chosen = pick.value;
    pick.replaceChildren(el("option", {value: "", text: "they stand now"}),
      ...v.rounds.filter((r) => r.closed).map((r) => el("option", {value: String(r.round), text: `round ${r.round} closed them`})));
    pick.value = [...pick.options].some((o) => o.value === chosen) ? chosen : "";
    const rows = pick.value ? v.rounds[Number(pick.value) - 1].standings : v.standings;
    $("standings").replaceChildren(...standings(rows, v.settings));
    // the tables of the open round still waiting for a game to finish or a result (a test waits on it)
    document.body.dataset.waiting = String(rnd && !rnd.closed ? rnd.tables.filter((t) => !t.result
      && !(t.game && t.game.finished)).length : 0);
    document.body.dataset.round = String(v.round);
    document.body.dataset.version = String(v.version);
    document.body.dataset.state = rnd && !rnd.closed ? "playing" : (v.finished ? "finished" : "between");
  }

  const load = serial(async function () {
    const r = await api(`/tournaments/${tid}`);
    if (!r.ok) { P.notice("No such tournament: " + reason(r)); return; }
    view = r.body;
    show();
  });

  async function seat() {
    const tables = {};
    for (const s of $("seat-how").querySelectorAll("select")) { tables[s.dataset.how] = s.value; }
    const seated = await act("/rounds", {tables});
    if (!seated) { return; }
    for (const t of seated.tables) {  // the seat links are given once: kept in this browser
      if (t.links && t.links.length) { store.set(kept(seated.round, t.table), JSON.stringify(t.links)); }
      if (t.referee_key) { store.set(`referee:${t.game_id}`, t.referee_key); }
    }
    await load();
  }

  async function start() {
    $("key").value = token;
    $("key-form").onsubmit = (e) => { e.preventDefault(); token = $("key").value.trim(); store.set("organiser", token); };
    if (!tid) {
      $("new").hidden = false;
      const kinds = await api("/rules");
      if (kinds.ok) { $("game").replaceChildren(...kinds.body.map((k) => el("option", {value: k.game, text: k.title}))); }
      const list = await api("/tournaments");
      if (list.ok) {
        $("list").replaceChildren(...list.body.map((t) => el("li", {}, el("a", {href: `/tournament/${t.tournament_id}`,
          text: `${t.name || t.tournament_id.slice(0, 8)}: round ${t.round}${t.finished ? ", finished" : ""}`}))));
      }
      $("create").onsubmit = async (e) => {
        e.preventDefault();
        refuse(null);
        const body = {game: $("game").value, table: Number($("table").value), rounds: Number($("rounds").value),
                      points: $("points").value.trim(), tiebreaks: $("tiebreaks").value.trim() || "none",
                      name: $("name").value.trim()};
        const r = await api("/tournaments", {token, method: "POST", body});
        if (!r.ok) { refuse(r); return; }
        location.assign(`/tournament/${r.body.tournament_id}`);
      };
      document.body.dataset.ready = "yes";
      document.body.dataset.state = "new";
      return;
    }
    $("register").onsubmit = async (e) => {
      e.preventDefault();
      const name = $("player").value.trim();
      if (!name) { return; }
      if (await act("/players", {player: name})) { $("player").value = ""; $("player").focus(); }
    };
    $("seat").onclick = seat;
    $("close").onclick = () => act("/close");
    $("finish").onclick = () => act("/finish");
    $("standings-round").onchange = show;
    await load();
    document.body.dataset.ready = "yes";
    // live: read again every 2 s, unless the organiser is typing (a result by hand, a name)
    setInterval(() => { if (!document.querySelector("details[open], #player:focus")) { load(); } }, 2000);
  }

  start();
})();
