// A seat's page: the table as this seat sees it, whose turn it is, and the decisions open now
// as buttons in words. A choice is confirmed, then sent with an Idempotency-Key, the
// version it was chosen at and the seat's own signature of both (seatkey.js); a refusal says why in one line and the choices are read again.
(function () {
  "use strict";
  const {$, el, api, reason, store, follow, picture, who, notice, serial} = P;
  const parts = location.pathname.split("/");
  const gameId = parts[2];
  const WORDS = 132;  // the table in words, as wide as its columns need (it scrolls in its own box)
  const seat = Number(parts[3]);
  const token = store.get(`seat:${gameId}:${seat}`);
  let shown = null;        // the choices on screen: {version, choices}
  let pending = null;      // the choice awaiting confirmation: {choice, version, key}
  let players = {};
  let bots = {};  // the seats the service's bots play
  let zoom = {zoom: null};

  const refresh = serial(load);

  async function load() {
    const [status, choices, pic, words] = await Promise.all([
      api(`/games/${gameId}`, {token}), api(`/games/${gameId}/choices`, {token}),
      api(`/games/${gameId}/picture`, {token}), api(`/games/${gameId}/words?width=${WORDS}`, {token})]);
    if (status.status === 404) { notice(`There is no game ${gameId} here (or it is not open to you).`); return; }
    if (!status.ok || !choices.ok) { $("refusal").textContent = reason(status.ok ? choices : status); return; }
    const st = status.body, ch = choices.body;
    players = st.players || {};
    bots = st.bots || {};
    $("title").textContent = `${await P.gameTitle(st.game)}${st.name ? " — " + st.name : ""}`;
    $("me").textContent = "you are " + who(seat, players, bots);
    if (pic.ok) { zoom = picture($("picture"), pic.body, zoom); }
    if (words.ok) { $("words").textContent = words.body.text; }
    show(st, ch);
    document.body.dataset.version = ch.version;
  }

  function show(st, ch) {
    const box = $("choices");
    if (pending && pending.version !== ch.version) {
      // the game moved on while the choice waited for its confirmation: it stays open only if
      // the very same decision is offered now (then it goes with the version now shown)
      const same = ch.choices.find((c) => c.text === pending.choice.text &&
                                          JSON.stringify(c.decision) === JSON.stringify(pending.choice.decision));
      if (same) { pending.version = ch.version; pending.choice = same; } else {
        cancel();
        $("refusal").textContent = "The game moved on: that choice is no longer open. Choose again.";
      }
    }
    shown = ch;
    box.replaceChildren();
    let state;
    if (st.finished) {
      const won = (st.winners || []).map((s) => who(s, players, bots)).join(", ");
      $("status").textContent = `The game is over. Won by ${won || "nobody"}.`;
      state = "finished";
    } else if (ch.choices.length) {
      $("status").textContent = ch.to_act.length > 1 ? "Your choice (the others choose at the same time)." : "Your turn: choose.";
      state = "choose";
    } else if (st.awaiting_chance) {
      $("status").textContent = "Waiting for the referee to enter what the table shows.";
      state = "wait";
    } else if (!st.started) {
      $("status").textContent = "Waiting for every seat to join.";
      state = "wait";
    } else {
      const others = (ch.to_act || []).map((s) => who(s, players, bots)).join(", ");
      $("status").textContent = others ? `Waiting for ${others}.` : "Waiting.";
      state = "wait";
    }
    $("status").className = "status" + (state === "choose" ? " yours" : "");
    for (const c of ch.choices) {
      box.append(el("button", {type: "button", class: "choice", "data-n": c.n, onclick: () => ask(c)}, c.text));
    }
    $("filter").hidden = ch.choices.length <= 12;
    $("weigh-now").hidden = state !== "choose";
    filter();
    document.body.dataset.state = state;
  }

  function filter() {
    const q = $("filter").value.trim().toLowerCase();
    for (const b of $("choices").children) { b.hidden = q !== "" && !b.textContent.toLowerCase().includes(q); }
  }

  function ask(choice) {
    pending = {choice, version: shown.version, key: P.key()};
    $("confirm-text").textContent = choice.text;
    $("confirm").hidden = false;
    $("refusal").textContent = "";
    $("confirm-yes").focus();
  }

  function cancel() { pending = null; $("confirm").hidden = true; }

  async function send() {
    if (!pending) { return; }
    const p = pending;
    $("confirm-yes").disabled = true;
    try {
      const body = {decision: p.choice.decision, expected_version: p.version};
      const signature = await SeatKey.sign(gameId, seat, p.version, p.choice.decision);
      if (signature) { body.signature = signature; }  // the seat's own (seatkey.js)
      const r = await api(`/games/${gameId}/decisions`, {token, method: "POST",
        headers: {"Idempotency-Key": p.key}, body});
      cancel();
      $("refusal").textContent = r.ok ? "" :
        (r.status === 409 ? "Not sent: the game moved on since these choices were shown. Here they are again."
                          : "Refused: " + reason(r));
    } catch (err) {
      $("refusal").textContent = "Not sent (no answer from the service): try again.";
    } finally {
      $("confirm-yes").disabled = false;
      await refresh();
    }
  }

  const reader = P.logReader(gameId, token);

  async function log() {
    const events = await reader.more();
    $("log").replaceChildren(...events.slice(-15).reverse().map((e) => el("li", {text: `t${e.turn} · ${e.text}`})));
  }

  // "what were my options?": the seat's decisions just before its last one (or now, on its
  // turn), weighed by the service from what the seat could see (GET /games/{id}/analysis)
  async function weigh(now) {
    const n = Math.max(1, Math.min(2000, Number($("playouts").value) || 200));
    let q = `playouts=${n}`;
    if (!now) {
      const mine = (await reader.more()).filter((e) => e.type === "Decided" && e.data && e.data.seat === seat && !e.retracted);
      if (!mine.length) { $("weigh-status").textContent = "You have not decided anything yet."; return; }
      q += `&before=${mine[mine.length - 1].version}`;
    }
    $("weigh-status").textContent = `Playing the game out ${n} times…`;
    delete $("weighed").dataset.done;
    for (const b of [$("weigh-last"), $("weigh-now")]) { b.disabled = true; }
    try {
      const r = await api(`/games/${gameId}/analysis?${q}`, {token});
      if (!r.ok) { $("weigh-status").textContent = "Not weighed: " + reason(r); $("weighed").replaceChildren(); return; }
      $("weigh-status").textContent = now ? "Your options now:" : "Your options at your last choice:";
      P.weighed($("weighed"), r.body);
    } finally { for (const b of [$("weigh-last"), $("weigh-now")]) { b.disabled = false; } }
  }

  $("weigh-last").onclick = () => weigh(false);
  $("weigh-now").onclick = () => weigh(true);
  $("confirm-yes").onclick = send;
  $("confirm-no").onclick = cancel;
  $("filter").oninput = filter;
  // the replay as this seat sees it: the link names the seat, never its token (the viewer takes
  // the token this browser keeps for it)
  $("viewer-link").href = `/games/${gameId}/view#as=seat:${seat}`;
  if (!token) {
    notice(`This browser holds no seat ${seat} of game ${gameId.slice(0, 8)}: open your invitation link here.`);
    return;
  }
  // the seat's own signing key, made by the join page: registered here if the join page could not
  // (seatkey.js)
  // another device (seatkey.js): this one takes a transfer code, or hands the seat over to one
  $("receive").addEventListener("click", async () => {
    const code = await SeatKey.receive(gameId, seat);
    $("transfer-code").textContent = `transfer code: ${code} (hand the seat over to it on the device that holds it, then open this page again)`;
    $("transfer-code").dataset.code = code;
  });
  $("hand-over").addEventListener("click", async () => {
    const r = await SeatKey.handOver(gameId, seat, token, $("handover-code").value);
    $("device-status").textContent = r.ok ? "handed over: the other device signs for this seat now" : r.reason;
    $("device-status").dataset.done = r.ok ? "yes" : "no";
  });
  SeatKey.ensure(gameId, seat, token, false).then((k) => {
    if (!k.ok) { $("refusal").textContent = "This seat signs with a key another browser keeps: " + k.reason; }
  }).catch(() => { $("refusal").textContent = "This browser cannot make the seat's signing key."; })
    .finally(() => { refresh().then(log); });
  follow(gameId, token, () => { refresh(); log(); });
})();
