// The referee's page for a table-mode game: what is awaited, offered as faces, cards and
// options to click (several in a row, a whole deal, sent in one go), the seats' decisions the
// referee types for them, undo (of the last entry or the last step) and corrections with a reason,
// penalties and notes; the referee's own key, which signs every entry the service checks.
(function () {
  "use strict";
  const {$, el, api, reason, store, fragment, follow, picture, who, notice, serial} = P;
  const gameId = location.pathname.split("/")[2];
  const WORDS = 132;  // the table in words, as wide as its columns need (it scrolls in its own box)
  // the organiser's link carries the key once, in the fragment (which no server sees): it is kept in
  // this browser and the address (and this page's entry in the history) loses it at once
  const given = fragment().get("key");
  if (given) { store.set(`referee:${gameId}`, given); history.replaceState(null, "", location.pathname); }
  const token = store.get(`referee:${gameId}`) || store.get("organiser");
  let view = null;          // the last /awaited answer
  let queue = [];           // outcomes clicked, not yet sent: [{say, label, why}]
  let dice = [];            // faces clicked of dice not all clicked yet
  let pending = null;       // a step awaiting confirmation: {text, run}
  let players = {};
  let bots = {};  // the seats the service's bots play
  let zoom = {zoom: null};

  // The referee's own key (spec/SPEC.md §9a): an Ed25519 key made here with WebCrypto (its private
  // half not extractable), kept in this browser beside the seats' keys (seatkey.js's store), its
  // public half registered with the game once (a public RefereeKeyRegistered event). From then on
  // the service takes an entry of the referee only with its signature over
  // canon(["privateer-referee-v1", game id, version, head, seat, decision]), the version and head
  // those the entry was made at: a seat's decision entered for it (its seat), a penalty or a note
  // (seat 0), a correction (seat 0, {referee: "correct", to_version, reason}). The chance outcomes
  // sent are bound by the head the next signed entry names (the service checks no signature of them).
  const KEY_ID = `${gameId}:referee`;
  let held = null;  // this browser's key for this game: {keys, pub (hex)}

  async function heldKey() {
    if (!held) {
      const entry = await SeatKey.read(KEY_ID);
      if (entry) { held = {keys: entry.keys, pub: SeatKey.hex(await crypto.subtle.exportKey("raw", entry.keys.publicKey))}; }
    }
    return held;
  }

  async function makeKey() {
    $("make-key").disabled = true;
    try {
      if (!(await heldKey())) {
        await SeatKey.write({id: KEY_ID, keys: await crypto.subtle.generateKey({name: "Ed25519"}, false, ["sign", "verify"])});
      }
      const r = await api(`/games/${gameId}/referee/key`, {token, method: "POST", body: {public_key: (await heldKey()).pub}});
      if (r.ok) { $("refusal").textContent = ""; } else { fail(r); }
    } finally { $("make-key").disabled = false; await refresh(); }
  }

  // The point an entry is made at: the version shown and the head there.
  const here = () => ({version: view.version, head: view.head});

  // The referee's signature (hex) of ``decision`` for ``seat`` (0: the referee's own) made at ``at``;
  // undefined in a game whose referee registered no key, or when this browser holds another key (the
  // service then refuses the entry and says why).
  async function signed(at, seat, decision) {
    const h = view.referee_key ? await heldKey() : null;
    if (!h || h.pub !== view.referee_key) { return undefined; }
    try {
      const message = SeatKey.canon(["privateer-referee-v1", SeatKey.unhex(gameId), at.version, SeatKey.unhex(at.head),
        seat, decision]);
      return SeatKey.hex(await crypto.subtle.sign({name: "Ed25519"}, h.keys.privateKey, message));
    } catch (e) { return undefined; }  // a decision canon cannot write: sent unsigned, the service says what is wrong
  }

  async function showSigning() {
    const h = await heldKey();
    const mine = Boolean(h) && view.referee_key === h.pub;
    $("signing-status").textContent = !view.table
      ? "This game draws its own chance: its seats decide on their own pages, the referee signs nothing."
      : mine ? "Every entry you make is signed with your key (kept in this browser)."
        : view.referee_key ? "The referee's key is kept in another browser: what you enter here is refused."
          : "What you enter is not signed. Make your key (kept in this browser): the service then takes "
            + "only entries it signs.";
    $("make-key").hidden = !view.table || Boolean(view.referee_key) || view.finished;
    document.body.dataset.signing = mine ? "signed" : view.referee_key ? "elsewhere" : "unsigned";
  }

  function fail(r) {
    $("refusal").textContent = r.status === 409
      ? "Not recorded: the game moved on since this was shown. Here it is again."
      : "Refused: " + reason(r);
  }

  const refresh = serial(load);

  async function load() {
    const then = encodeURIComponent(JSON.stringify(queue.map((q) => q.say)));
    const [aw, pic, words] = await Promise.all([api(`/games/${gameId}/awaited?then=${then}`, {token}),
      api(`/games/${gameId}/picture`, {token}), api(`/games/${gameId}/words?width=${WORDS}`, {token})]);
    if (aw.status === 404) { notice(`There is no game ${gameId} here.`); return; }
    if (!aw.ok) { notice("This page needs the game's referee key (open the referee link the organiser gave you): " + reason(aw)); return; }
    view = aw.body;
    players = view.players || {};
    bots = view.bots || {};
    if (view.refused) { queue = []; $("refusal").textContent = "Not taken: " + view.refused; }
    if (pic.ok) { zoom = picture($("picture"), pic.body, zoom); }
    if (words.ok) { $("words").textContent = words.body.text; }
    $("where").textContent = `turn ${view.turn}, version ${view.version}`;
    await showSigning();
    await showNow();
    showTools();
    document.body.dataset.version = view.version;
  }

  async function showNow() {
    const a = view.awaiting;
    const seatsActing = view.to_act || [];
    if (view.finished) {
      $("status").textContent = "The game is over.";
    } else if (a) {
      $("status").textContent = `Awaited: ${describe(a)}`;
    } else if (queue.length) {
      $("status").textContent = "Nothing more is awaited after these: send them.";
    } else if (seatsActing.length) {
      $("status").textContent = "To act: " + seatsActing.map((s) => who(s, players, bots)).join(", ") +
        (view.table ? "" : " (on their own pages: this game draws its own dice and cards)");
    } else {
      $("status").textContent = "Nothing to do now.";
    }
    showAwaited(a);
    $("outcomes").hidden = queue.length === 0;
    // what is queued, by what it was for ("deal to seat 1: admiral · blue 1 …", as each hand lies on
    // the table); it is sent in the order it was clicked
    const groups = new Map();
    for (const q of queue) {
      if (!groups.has(q.why)) { groups.set(q.why, []); }
      groups.get(q.why).push(q.label);
    }
    $("queue").replaceChildren(...[...groups].map(([why, labels]) =>
      el("div", {text: (why ? why + ": " : "") + labels.join(" · ")})));
    $("send").textContent = queue.length === 1 ? "Send 1 outcome" : `Send ${queue.length} outcomes`;
    const box = $("decisions");
    box.replaceChildren();
    let state = view.finished ? "finished" : a || queue.length ? "chance" : "decide";
    if (view.table && !a && !queue.length && !view.finished) {  // at a table the referee types the seats' choices
      for (const s of seatsActing) {
        const r = await api(`/games/${gameId}/choices?seat=${s}`, {token});
        if (!r.ok) { continue; }
        const ch = r.body;
        const at = here();
        box.append(el("h2", {text: `${who(s, players, bots)} chooses`}),
          el("div", {class: "choices", "data-seat": s}, ...ch.choices.map((c) => el("button", {type: "button",
            class: "choice", "data-n": c.n, onclick: () => ask(`${who(s, players, bots)}: ${c.text}`, async () =>
              api(`/games/${gameId}/decisions`, {token, method: "POST", headers: {"Idempotency-Key": P.key()},
                body: {decision: c.decision, expected_version: at.version, seat: s,
                  referee_signature: await signed(at, s, c.decision)}}))}, c.text))));
      }
    }
    document.body.dataset.state = state;
  }

  function describe(a) {
    const why = a.why ? ` (${a.why})` : "";
    if (a.kind === "dice") { return `${a.n} ${a.n > 1 ? "dice" : "die"} of ${a.sides}${why}`; }
    if (a.kind === "card") { return `a card from ${String(a.deck).replaceAll("_", " ")}${why}`; }
    if (a.kind === "pick") { return `one of the options${why}`; }
    return `${a.kind}${why}`;
  }

  function showAwaited(a) {
    const box = $("awaited");
    box.replaceChildren();
    if (!a) { return; }
    if (a.kind === "dice") {
      const named = Object.fromEntries(Object.entries(a.faces || {}).map(([k, v]) => [v, k]));
      const row = el("div", {class: "choices faces"});
      for (let f = 1; f <= a.sides; f++) {
        const label = named[f] ? `${f} ${named[f]}` : String(f);
        row.append(el("button", {type: "button", "data-face": f, onclick: () => face(a.n, f, label)}, label));
      }
      const so = dice.length ? ` (so far: ${dice.map((d) => d.label).join(" ")})` : "";
      box.append(el("p", {class: "hint", text: a.n > 1 ? `click ${a.n} faces, one per die${so}` : "click the face"}), row);
    } else if (a.kind === "card") {
      const row = el("div", {class: "choices cards"});
      for (const c of a.left) {
        row.append(el("button", {type: "button", "data-card": String(c.say), onclick: () => click(c.say, c.name)},
          c.name, c.copies > 1 ? el("small", {text: ` ×${c.copies}`}) : null));
      }
      box.append(el("p", {class: "hint", text: `${a.left.length} kinds of card left`}), row);
    } else if (a.kind === "pick") {
      box.append(el("div", {class: "choices"}, ...a.options.map((o) => {
        const label = typeof o === "object" ? JSON.stringify(o) : String(o);
        return el("button", {type: "button", "data-option": label, onclick: () => click(o, label)}, label);
      })));
    } else if (a.kind === "shuffle") {
      box.append(el("p", {class: "hint", text: "enter the deck's order card by card (tools chance)"}));
    }
  }

  // several dice are one outcome: their faces are gathered, then queued together
  function face(n, f, label) {
    if (n === 1) { click(f, label); return; }
    dice.push({f, label});
    if (dice.length < n) { showAwaited(view.awaiting); return; }
    const all = dice;
    dice = [];
    click(all.map((d) => d.f), all.map((d) => d.label).join(" "));
  }

  function click(say, label) {
    queue.push({say, label, why: (view.awaiting && view.awaiting.why) || ""});
    $("refusal").textContent = "";
    refresh();
  }

  function ask(text, run) {
    pending = {text, run};
    $("confirm-text").textContent = text;
    $("confirm").hidden = false;
    $("refusal").textContent = "";
  }

  function cancel() { pending = null; $("confirm").hidden = true; }

  async function confirmed() {
    if (!pending) { return; }
    const p = pending;
    $("confirm-yes").disabled = true;
    try {
      const r = await p.run();
      cancel();
      if (!r.ok) { fail(r); } else { $("refusal").textContent = ""; }
    } finally { $("confirm-yes").disabled = false; await refresh(); }
  }

  async function sendQueue() {
    // taken off the queue as it is sent: a refresh while it is on its way (the game's stream says it
    // was appended) must not ask what is awaited after outcomes already entered
    const sent = queue;
    queue = [];
    const r = await api(`/games/${gameId}/chance`, {token, method: "POST", headers: {"Idempotency-Key": P.key()},
      body: {words: sent.map((q) => q.say), expected_version: view.version}});
    if (r.ok) { $("refusal").textContent = ""; } else { fail(r); if (r.status === 409) { queue = sent.concat(queue); } }
    await refresh();
  }

  function showTools() {
    $("undo").disabled = view.undo_to === null || view.finished;
    const last = view.entered.length ? view.entered[view.entered.length - 1] : null;
    $("undo-entry").disabled = last === null || view.finished;
    $("undo-entry").title = last === null ? "No outcome entered in this step"
      : `Take back "${last.said}": the step awaits it again`;
    const at = here();
    $("penalties").replaceChildren(...view.referee.map((d) => el("button", {type: "button", class: "danger",
      onclick: () => ask(d.text, async () => api(`/games/${gameId}/referee`, {token, method: "POST",
        headers: {"Idempotency-Key": P.key()}, body: {decision: d.decision, expected_version: at.version,
          referee_signature: await signed(at, 0, d.decision)}}))}, d.text)));
  }

  // typed text as the service keeps it (NFC, trimmed: service/kernel/text.py), so that it is what is signed
  const typed = (id) => $(id).value.normalize("NFC").trim();

  // a correction's signature: of {referee: "correct", to_version, reason}, the version kept
  const signedCorrection = (at, toVersion, why) => signed(at, 0, {referee: "correct", to_version: toVersion, reason: why});

  function correction(toVersion) {
    const why = typed("reason");
    if (!why) { $("refusal").textContent = "Say why (the reason goes on the record)."; $("reason").focus(); return; }
    const at = here();
    ask(`Take back every step after version ${toVersion}: ${why}`, async () => api(`/games/${gameId}/corrections`,
      {token, method: "POST", body: {to_version: toVersion, reason: why, expected_version: at.version,
        referee_signature: await signedCorrection(at, toVersion, why)}}));
  }

  function undoEntry() {
    const why = typed("reason");
    if (!why) { $("refusal").textContent = "Say why (the reason goes on the record)."; $("reason").focus(); return; }
    const last = view.entered[view.entered.length - 1];
    const at = here();
    ask(`Take back the last entry, "${last.said}": ${why}`,
      async () => api(`/games/${gameId}/corrections`,
        {token, method: "POST", body: {outcomes: 1, reason: why, expected_version: at.version,
          referee_signature: await signedCorrection(at, last.to_version, why)}}));
  }

  const reader = P.logReader(gameId, token);

  async function log() {
    const events = await reader.more();
    $("log").replaceChildren(...events.slice(-25).reverse().map((e) => el("li",
      {text: `v${e.version} · t${e.turn} · ${e.text}`})));
  }

  $("confirm-yes").onclick = confirmed;
  $("confirm-no").onclick = cancel;
  $("send").onclick = sendQueue;
  $("unclick").onclick = () => { dice = []; queue.pop(); refresh(); };
  $("clear").onclick = () => { dice = []; queue = []; refresh(); };
  $("undo").onclick = () => correction(view.undo_to);
  $("undo-entry").onclick = undoEntry;
  $("correct").onclick = () => correction(Number($("to-version").value));
  $("make-key").onclick = makeKey;
  $("add-note").onclick = () => {
    const text = typed("note");
    if (!text) { return; }
    const at = here();
    ask(`Note on the record: ${text}`, async () => {
      const decision = {referee: "note", text};
      const r = await api(`/games/${gameId}/referee`, {token, method: "POST", headers: {"Idempotency-Key": P.key()},
        body: {decision, expected_version: at.version, referee_signature: await signed(at, 0, decision)}});
      if (r.ok) { $("note").value = ""; }
      return r;
    });
  };
  $("viewer-link").href = `/games/${gameId}/view#as=referee`;  // as the referee sees it (the key stays here)
  if (!token) { notice("This page needs the game's referee key: open the referee link the organiser gave you."); return; }
  refresh().then(log);
  follow(gameId, token, () => { refresh(); log(); });
})();
