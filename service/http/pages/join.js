// An invitation as a link: /join/GAME/SEAT#code=...&player=... (the code in the fragment, which
// no server logs). Opening it takes the seat (naming the player), keeps the seat's token in
// this browser and leads to the seat's page. A name in the link joins at once.
// Before the setup the seat also adds its own entropy to the game's seed. Once seated, this
// browser makes the seat's own signing key and registers its public half (seatkey.js).
(function () {
  "use strict";
  const {$, api, reason, store} = P;
  const parts = location.pathname.split("/");
  const gameId = parts[2];
  const seat = Number(parts[3]);
  // the invitation's code (and name) are taken from the link once and kept for this tab: the
  // address, and this page's entry in the history, lose them at once
  const kept = `privateer:invitation:${gameId}:${seat}`;
  if (location.hash) {
    sessionStorage.setItem(kept, location.hash.slice(1));
    history.replaceState(null, "", location.pathname);
  }
  const f = new URLSearchParams(sessionStorage.getItem(kept) || "");
  const code = f.get("code") || "";
  const play = `/play/${gameId}/${seat}`;

  function go() { location.replace(play); }

  // before the game's setup draws any chance, the seat mixes its own randomness into the game's
  // seed (the service README's "Seats' entropy"): 32 bytes from this browser
  function entropy() {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function join(player) {
    $("take").disabled = true;
    const body = {code, player};
    const st = await api(`/games/${gameId}`);
    if (st.ok && !st.body.started && !st.body.table) { body.entropy = entropy(); }
    const r = await api(`/games/${gameId}/seats/${seat}/join`, {method: "POST", body});
    if (r.ok) {
      store.set(`seat:${gameId}:${seat}`, r.body.token);
      sessionStorage.removeItem(kept);  // the code is used up
      // the seat's own signing key, made and kept here (seatkey.js); the seat's page makes it
      // again if this fails
      try { await SeatKey.ensure(gameId, seat, r.body.token, true); } catch (err) { /* the seat's page retries */ }
      go();
      return;
    }
    $("take").disabled = false;
    $("refusal").textContent = r.status === 409
      ? "This seat is already taken. If it is yours, open the game on the device you joined from."
      : "Could not take the seat: " + reason(r);
  }

  if (store.get(`seat:${gameId}:${seat}`)) { go(); return; }
  $("what").textContent = `Seat ${seat} of game ${gameId.slice(0, 8)}`;
  $("player").value = f.get("player") || "";
  $("form").onsubmit = (e) => { e.preventDefault(); join($("player").value.trim()); };
  if (!code) { $("refusal").textContent = "This link holds no invitation code: ask the organiser for yours."; return; }
  api(`/games/${gameId}`).then(async (st) => {
    if (st.ok) { $("title").textContent = `${await P.gameTitle(st.body.game)}${st.body.name ? " — " + st.body.name : ""}`; }
  });
  if (f.get("player")) { join(f.get("player")); }
})();
