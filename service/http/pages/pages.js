// What every page shares: the API with a credential, elements, the live stream, the picture.
// Credentials travel as an Authorization header (never in a URL a server logs) and are kept
// in this browser's localStorage, one per game and role.
const P = (function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "onclick") { e.onclick = v; } else if (k === "text") { e.textContent = v; } else { e.setAttribute(k, v); }
    }
    for (const k of kids) { if (k !== null && k !== undefined) { e.append(k); } }
    return e;
  }

  // {ok, status, body}; body is the JSON answer (an error: {error, reason}) or text
  async function api(path, opts) {
    const o = opts || {};
    const headers = Object.assign({}, o.headers || {});
    if (o.token) { headers["Authorization"] = "Bearer " + o.token; }
    let body;
    if (o.body !== undefined) { headers["Content-Type"] = "application/json"; body = JSON.stringify(o.body); }
    const r = await fetch(path, {method: o.method || "GET", headers, body});
    const type = r.headers.get("content-type") || "";
    const answer = type.includes("json") ? await r.json() : await r.text();
    return {ok: r.ok, status: r.status, body: answer};
  }

  function reason(answer) {
    const b = answer.body;
    return (b && b.reason) ? b.reason : ("the service answered " + answer.status);
  }

  const store = {
    get: (k) => localStorage.getItem("privateer:" + k) || "",
    set: (k, v) => localStorage.setItem("privateer:" + k, v),
    drop: (k) => localStorage.removeItem("privateer:" + k),
  };

  function fragment() { return new URLSearchParams(location.hash.slice(1)); }

  // Follow a game's stream: onChange(status) after each batch the caller may see; reconnects
  // from the last version seen until the game is finished or stop().
  function follow(gameId, token, onChange) {
    let after = 0;
    return sse(() => `/games/${gameId}/stream?after=${after}&timeout=300`, token, (kind, st) => {
      if (kind !== "status" && kind !== "end") { return true; }
      after = st.version;
      onChange(st);
      return !(kind === "end" && st.finished);
    });
  }

  // Read Server-Sent Events (with fetch: the credential goes as a header) from ``where`` (a path,
  // or a function giving it at each opening), calling onEvent(kind, data) for each; opened again
  // after an end or a failure until stop() or until onEvent returns false.
  function sse(where, token, onEvent) {
    let running = true;
    let controller = null;
    (async function loop() {
      while (running) {
        controller = new AbortController();
        try {
          const headers = token ? {"Authorization": "Bearer " + token} : {};
          const r = await fetch(typeof where === "function" ? where() : where, {headers, signal: controller.signal});
          if (!r.ok) { await pause(2000); continue; }
          const reader = r.body.getReader();
          const decoder = new TextDecoder();
          let buffer = "";
          for (;;) {
            const {value, done} = await reader.read();
            if (done) { break; }
            buffer += decoder.decode(value, {stream: true});
            let cut;
            while ((cut = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const kind = (block.match(/^event: (.*)$/m) || [])[1];
              const data = (block.match(/^data: (.*)$/m) || [])[1];
              if (kind && onEvent(kind, JSON.parse(data)) === false) { running = false; }
            }
          }
        } catch (err) {
          if (!running) { return; }
          await pause(1000);
        }
      }
    })();
    return () => { running = false; if (controller) { controller.abort(); } };
  }

  function pause(ms) { return new Promise((ok) => setTimeout(ok, ms)); }

  // The table's picture (SVG) at a size people can read: on a narrow screen it keeps at least
  // 85% of its drawn size and scrolls; − / + / fit change the zoom.
  function picture(box, svgText, state) {
    const s = state || {zoom: null};
    box.innerHTML = svgText;
    const svg = box.querySelector("svg");
    if (!svg) { return s; }
    const natural = Number(svg.getAttribute("width")) || 900;
    svg.removeAttribute("height");
    const fit = Math.min(1.25, (box.clientWidth - 2) / natural);
    if (s.zoom === null || s.auto) { s.zoom = Math.max(0.85, Math.min(1, fit)); s.auto = true; }
    svg.style.width = Math.round(natural * s.zoom) + "px";
    svg.style.height = "auto";
    if (!s.bar) {
      s.bar = el("div", {class: "zoom"},
        el("button", {type: "button", title: "smaller", "aria-label": "zoom out",
                      onclick: () => { s.auto = false; s.zoom = Math.max(0.3, s.zoom / 1.25); picture(box, box.innerHTML, s); }}, "−"),
        el("button", {type: "button", title: "larger", "aria-label": "zoom in",
                      onclick: () => { s.auto = false; s.zoom = Math.min(3, s.zoom * 1.25); picture(box, box.innerHTML, s); }}, "+"),
        el("button", {type: "button", title: "the whole picture in the width",
                      onclick: () => { s.auto = false; s.zoom = (box.clientWidth - 2) / natural; picture(box, box.innerHTML, s); }}, "fit"),
        el("span", {class: "hint", text: "scroll to see all of it"}));
      box.before(s.bar);
      // a window made wider or narrower: the picture's size follows, until a person zooms
      window.addEventListener("resize", () => { if (s.auto) { picture(box, box.innerHTML, s); } });
    }
    return s;
  }

  // The events the caller may see, read from where the last read ended (all again after a
  // correction, which marks earlier events retracted): {events, more: () => Promise<events>}
  function logReader(gameId, token) {
    let events = [];
    let last = Promise.resolve(events);
    async function read() {
      let after = events.length ? events[events.length - 1].version : 0;
      for (;;) {
        const r = await api(`/games/${gameId}/log?after=${after}&limit=1000`, {token});
        if (!r.ok) { break; }
        if (r.body.events.some((e) => e.type === "Corrected") && after > 0) { events = []; after = 0; continue; }
        events = events.concat(r.body.events);
        if (r.body.next_after === null) { break; }
        after = r.body.next_after;
      }
      return events;
    }
    // one read at a time: two reads at once would both append what follows the same version
    const more = () => (last = last.then(read, read));
    return {more};
  }

  // a seat in words: its player's name, or, for a seat the service's bot plays (status `bots`,
  // read from how the seat was taken, never from a name), the bot's name and that it is a bot
  function who(seat, players, bots) {
    const bot = bots && bots[String(seat)];
    if (bot) { return `seat ${seat} (${bot}, a bot)`; }
    const name = players && players[String(seat)];
    return name ? `seat ${seat} (${name})` : `seat ${seat}`;
  }

  // An analysis (GET /games/{id}/analysis) as a table: each decision in words, its estimated
  // win rate and mean score, and the playouts behind them; the one played most is marked.
  function weighed(box, a) {
    const most = Math.max(...a.decisions.map((d) => d.playouts));
    const pct = (x) => x === null ? "–" : Math.round(100 * x) + "%";
    box.replaceChildren(
      el("p", {class: "hint", text: `seat ${a.seat}, turn ${a.turn} (event ${a.version}): ${a.playouts} playouts, seed ${a.seed}`}),
      el("table", {class: "weighed"},
        el("tr", {}, ...["decision", "win rate", "mean score", "playouts"].map((h) => el("th", {text: h}))),
        ...a.decisions.map((d) => el("tr", {class: d.playouts === most ? "best" : ""},
          el("td", {text: d.said}), el("td", {text: pct(d.win_rate)}),
          el("td", {text: d.mean_score === null ? "–" : d.mean_score.toFixed(1)}), el("td", {text: String(d.playouts)})))));
    box.dataset.done = "yes";
  }

  function notice(text) {  // the page's whole content replaced by one line (no game, no key)
    document.querySelector("main").replaceChildren(el("p", {class: "notice", text}));
    document.body.dataset.state = "notice";
  }

  function serial(load) {  // load() never runs twice at once; asked meanwhile, it runs once more after
    let busy = false, again = false;
    return async function () {
      if (busy) { again = true; return; }
      busy = true;
      try { do { again = false; await load(); } while (again); } finally { busy = false; }
    };
  }

  // a game by its title as the rules give it ("The Kaiser's Pirates"), not its id: GET /rules, read once
  let titles = null;
  async function gameTitle(game) {
    if (!titles) { titles = api("/rules").then((r) => Object.fromEntries(r.ok ? r.body.map((k) => [k.game, k.title]) : [])); }
    return (await titles)[game] || String(game).replaceAll("-", " ");
  }

  function key() {  // an Idempotency-Key: one per choice confirmed
    return (crypto.randomUUID && crypto.randomUUID()) || (Date.now() + "-" + Math.random());
  }

  return {$, el, api, reason, store, fragment, follow, sse, picture, who, key, pause, logReader, weighed, notice, serial,
          gameTitle};
})();
