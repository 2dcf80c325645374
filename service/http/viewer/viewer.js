// The replay viewer: the picture of the table at any event, the events, step and jump,
// a seat's perspective (with that seat's token), live while the game runs, and a seat's
// options at the point shown, weighed ("what were my options?").
// Everything comes from the service's own API, with the caller's credentials: a seat
// sees its own numbering and what it may see, a spectator the public view.
(function () {
  "use strict";
  const gameId = location.pathname.split("/")[2];
  const params = new URLSearchParams(location.search);
  const $ = (id) => document.getElementById(id);
  const kept = "privateer-token-" + gameId;  // the credential this tab views with (sessionStorage)
  // Whose view: `#as=seat:N` (the seat's page's link) or `#as=referee` (the referee's page's) take
  // the credential this browser keeps for that page; a token given in the fragment (`#token=...`, an
  // old link) is taken once. Either way the address, and this page's entry in the history, lose
  // the fragment at once, and the credential travels only as a header.
  const fragment = new URLSearchParams(location.hash.slice(1));
  const as = fragment.get("as") || "";
  const mine = as.startsWith("seat:") ? localStorage.getItem(`privateer:seat:${gameId}:${as.slice(5)}`)
    : as === "referee" ? (localStorage.getItem(`privateer:referee:${gameId}`) || localStorage.getItem("privateer:organiser"))
    : fragment.get("token");
  if (mine) { sessionStorage.setItem(kept, mine); }
  if (location.hash) { history.replaceState(null, "", location.pathname + location.search); }
  let token = sessionStorage.getItem(kept) || "";
  let events = [];      // in the caller's numbering: {version, turn, type, text}
  let current = 0;      // the event shown (caller's numbering)
  let shownBoard = null;  // the board shown: whose view it is (viewer, seat)
  let seats = 0;
  let zoom = null;        // the picture's size as a person chose it (null: as the screen's width has it)
  let over = false;       // the game is finished (then anyone may ask for a seat's options, where allowed)

  function headers() { return token ? {"Authorization": "Bearer " + token} : {}; }

  async function api(path) {
    const r = await fetch(path, {headers: headers()});
    const body = r.headers.get("content-type") && r.headers.get("content-type").includes("json")
      ? await r.json() : await r.text();
    if (!r.ok) { throw new Error((body && body.reason) || ("HTTP " + r.status)); }
    return body;
  }

  function say(text) { $("error").textContent = text || ""; }

  async function loadEvents() {
    events = [];
    let after = 0;
    for (;;) {
      const page = await api(`/games/${gameId}/log?after=${after}&limit=1000`);
      events.push(...page.events);
      if (page.next_after === null) { break; }
      after = page.next_after;
    }
    const list = $("events");
    list.innerHTML = "";
    for (const e of events) {
      const li = document.createElement("li");
      li.dataset.version = e.version;
      li.textContent = `${e.version} · t${e.turn} · ${e.text}`;
      li.onclick = () => show({event: e.version});
      list.appendChild(li);
    }
  }

  async function show(where) {
    say("");
    const q = where.turn !== undefined ? `to_turn=${where.turn}` : `to_event=${Math.max(1, where.event)}`;
    try {
      const [board, picture] = await Promise.all([
        api(`/games/${gameId}/replay?${q}`), api(`/games/${gameId}/picture?${q}`)]);
      current = board.version;
      shownBoard = board;
      weighFor(board);
      $("picture").innerHTML = picture;
      readable($("picture").querySelector("svg"));
      $("board-json").textContent = JSON.stringify({game_id: board.game_id, version: board.version,
        turn: board.turn, finished: board.finished, to_act: board.to_act, board: board.board});
      $("position").textContent = `event ${board.version} of ${events.length}, turn ${board.turn}`;
      $("turn").value = board.turn;
      for (const li of $("events").children) {
        const v = Number(li.dataset.version);
        li.className = v === current ? "current" : (v > current ? "after" : "");
        if (v === current) { li.scrollIntoView({block: "nearest"}); }
      }
      document.body.dataset.version = board.version;
      document.body.dataset.turn = board.turn;
      document.body.dataset.ready = "yes";
      const url = new URL(location.href);
      url.search = where.turn !== undefined ? `?turn=${where.turn}` : `?event=${board.version}`;
      history.replaceState(null, "", url);
    } catch (err) { say(err.message); }
  }

  function readable(svg) {
    // on a narrow screen the picture keeps 85% of its drawn size and scrolls (viewer.css); once a
    // person zooms (− + fit), the size they chose, scrolled inside its frame
    if (!svg) { return; }
    const natural = Number(svg.getAttribute("width")) || 900;
    if (zoom !== null) {
      svg.style.maxWidth = "none";
      svg.style.width = Math.round(natural * zoom) + "px";
      return;
    }
    if (window.innerWidth >= 900) { return; }
    svg.style.width = Math.round(natural * 0.85) + "px";
  }

  function zoomBy(f) {
    const svg = $("picture").querySelector("svg");
    if (!svg) { return; }
    const natural = Number(svg.getAttribute("width")) || 900;
    const now = zoom !== null ? zoom : svg.getBoundingClientRect().width / natural;
    zoom = f === "fit" ? ($("picture").clientWidth - 2) / natural : Math.max(0.3, Math.min(3, now * f));
    readable(svg);
  }

  async function live() {
    // the live stream (Server-Sent Events) read with fetch, so the token travels as a header
    while ($("live").checked) {
      try {
        const r = await fetch(`/games/${gameId}/stream?after=${events.length}&timeout=60`, {headers: headers()});
        const reader = r.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const {value, done} = await reader.read();
          if (done || !$("live").checked) { break; }
          buffer += decoder.decode(value, {stream: true});
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (block.includes("event: game-event")) {
              const atEnd = current === events.length;
              await loadEvents();
              if (atEnd) { await show({event: events.length}); }
            }
          }
        }
      } catch (err) { say(err.message); await new Promise((ok) => setTimeout(ok, 1000)); }
    }
  }

  // "what were my options?": the decisions of a seat at the point shown (just before it, when
  // the event shown is that seat's decision), each with its estimated win rate, from the seat's
  // own information (GET /games/{id}/analysis: a seat for itself, the referee for any seat,
  // anyone once the game is over)
  function weighFor(board) {
    const own = board.viewer === "seat";
    $("weigh-seat-label").hidden = own;
    $("options").hidden = board.viewer === "spectator" && !over;  // before the end: the seats' and the referee's
    if ($("weigh-seat").options.length !== seats) {
      $("weigh-seat").replaceChildren(...Array.from({length: seats}, (_, i) => new Option(`seat ${i + 1}`, String(i + 1))));
    }
  }

  async function weigh() {
    const seat = shownBoard && shownBoard.viewer === "seat" ? shownBoard.seat : Number($("weigh-seat").value);
    const n = Math.max(1, Math.min(2000, Number($("weigh-playouts").value) || 200));
    const e = events.find((x) => x.version === current);
    const decided = e && e.type === "Decided" && e.data && e.data.seat === seat;
    const q = `seat=${seat}&playouts=${n}&` + (decided ? `before=${current}` : `at_event=${current}`);
    $("weigh-status").textContent = `seat ${seat}: playing the game out ${n} times…`;
    $("weighed").replaceChildren();
    delete $("weighed").dataset.done;
    $("weigh").disabled = true;
    try {
      const a = await api(`/games/${gameId}/analysis?${q}`);
      $("weigh-status").textContent = decided ? `seat ${seat}'s options just before this decision:`
                                              : `seat ${seat}'s options after event ${current}:`;
      const most = Math.max(...a.decisions.map((d) => d.playouts));
      const pct = (x) => x === null ? "–" : Math.round(100 * x) + "%";
      const row = (cells, tag, cls) => {
        const tr = document.createElement("tr");
        if (cls) { tr.className = cls; }
        for (const c of cells) { const td = document.createElement(tag); td.textContent = c; tr.appendChild(td); }
        return tr;
      };
      const table = document.createElement("table");
      table.appendChild(row(["decision", "win rate", "mean score", "playouts"], "th"));
      for (const d of a.decisions) {
        table.appendChild(row([d.said, pct(d.win_rate), d.mean_score === null ? "–" : d.mean_score.toFixed(1),
                               String(d.playouts)], "td", d.playouts === most ? "best" : ""));
      }
      const note = document.createElement("p");
      note.className = "hint";
      note.textContent = `turn ${a.turn}, seat ${a.seat}'s event ${a.version}: ${a.playouts} playouts, seed ${a.seed}`;
      $("weighed").replaceChildren(note, table);
      $("weighed").dataset.done = "yes";
    } catch (err) { $("weigh-status").textContent = "Not weighed: " + err.message; }
    finally { $("weigh").disabled = false; }
  }

  async function start() {
    $("who").value = token ? "token" : "";
    $("token").hidden = !token;
    $("token").value = token;
    try {
      const status = await api(`/games/${gameId}`);
      const kinds = await api("/rules").catch(() => []);   // the game by its title, not its id
      const title = (kinds.find((k) => k.game === status.game) || {title: status.game.replaceAll("-", " ")}).title;
      $("title").textContent = `${title}${status.name ? " — " + status.name : ""} · ${gameId.slice(0, 8)}`;
      seats = status.seats;
      over = status.finished;
      await loadEvents();
    } catch (err) { say(err.message); return; }
    if (params.has("turn")) { await show({turn: Number(params.get("turn"))}); }
    else if (params.has("event")) { await show({event: Number(params.get("event"))}); }
    else { await show({event: events.length}); }
  }

  $("weigh").onclick = weigh;
  $("zoom-in").onclick = () => zoomBy(1.25);
  $("zoom-out").onclick = () => zoomBy(0.8);
  $("zoom-fit").onclick = () => zoomBy("fit");
  $("first").onclick = () => show({event: 1});
  $("back").onclick = () => show({event: current - 1});
  $("forward").onclick = () => show({event: Math.min(events.length, current + 1)});
  $("last").onclick = () => show({event: events.length});
  $("go").onclick = () => show({turn: Number($("turn").value)});
  $("live").onchange = () => { if ($("live").checked) { live(); } };
  $("who").onchange = () => { $("token").hidden = $("who").value !== "token"; if (!$("who").value) { token = ""; sessionStorage.removeItem(kept); start(); } };
  $("token").onchange = () => { token = $("token").value.trim(); sessionStorage.setItem(kept, token); start(); };
  // the keyboard steps through the replay: ← one event back, → one on, Home the start, End the latest
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) { return; }
    const step = {ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last"}[e.key];
    if (step) { e.preventDefault(); $(step).click(); }
  });
  start();
})();
