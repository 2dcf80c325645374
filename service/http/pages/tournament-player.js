// A player's page of a tournament: where they sit now (table, seat, opponents, their game), their
// results round by round, and the standings. Public facts only: a tournament hides nothing, and
// the page holds no credential (a seat's own page is reached through its invitation link).
(function () {
  "use strict";
  const {$, el, api, reason, store, serial} = P;
  const tid = (location.pathname.match(/^\/tournament\/([0-9a-f]{6,32})\/player$/) || [])[1] || "";
  let me = new URLSearchParams(location.search).get("name") || "";

  function now(v) {
    const rnd = v.rounds.length ? v.rounds[v.rounds.length - 1] : null;
    if (!me) { return [el("p", {class: "hint", text: "Choose your name above."})]; }
    if (!rnd) { return [el("p", {text: "Round 1 is not seated yet."})]; }
    if (rnd.byes.includes(me)) { return [el("p", {text: `Round ${rnd.round}: you have a bye.`})]; }
    const t = rnd.tables.find((x) => x.players.includes(me));
    if (!t) { return [el("p", {text: `You do not play in round ${rnd.round}.`})]; }
    const seat = t.players.indexOf(me) + 1;
    const out = [el("p", {"data-where": `${rnd.round}:${t.table}:${seat}`,
      text: `Round ${rnd.round}${rnd.closed ? " (closed)" : ""}: table ${t.table}, seat ${seat}`
        + (seat === 1 ? " (you play first)" : "") + "."}),
      el("p", {text: "At your table: " + t.players.map((p, i) => `${i + 1}. ${p}`).join(", ")})];
    if (t.result) {
      out.push(el("p", {text: `Your result: ${t.result.places[me]}. place, ${t.result.points[me]} points.`}));
    } else if (t.game_id) {
      const mine = store.get(`seat:${t.game_id}:${seat}`);
      out.push(el("p", {}, mine ? el("a", {href: `/play/${t.game_id}/${seat}`, text: "Play your seat"})
        : el("a", {href: `/games/${t.game_id}/view`, text: "Watch your table's game"}),
      mine ? "" : " (your seat link, from the organiser, takes your seat)"));
    } else {
      out.push(el("p", {class: "hint", text: "This table plays without the service: the organiser enters its result."}));
    }
    return out;
  }

  function results(v) {
    const rows = [];
    for (const rnd of v.rounds) {
      if (rnd.byes.includes(me)) { rows.push([rnd.round, "bye", "", String(v.settings.bye)]); continue; }
      const t = rnd.tables.find((x) => x.players.includes(me));
      if (!t) { continue; }
      rows.push([rnd.round, `table ${t.table}: ` + t.players.filter((p) => p !== me).join(", "),
                 t.result ? String(t.result.places[me]) : "…", t.result ? String(t.result.points[me]) : ""]);
    }
    return [el("tr", {}, ...["round", "against", "place", "points"].map((h) => el("th", {text: h}))),
      ...rows.map((r) => el("tr", {"data-round": String(r[0])}, ...r.map((c) => el("td", {text: String(c)}))))];
  }

  function standings(v) {
    const tbs = v.settings.tiebreaks;
    const said = {opponents: "opp.", score: "VP", openskill: "rating"};
    return [el("tr", {}, ...["#", "player", "points", ...tbs.map((t) => said[t])].map((h) => el("th", {text: h}))),
      ...v.standings.map((r) => el("tr", {class: r.player === me ? "you" : "", "data-player": r.player},
        el("td", {text: String(r.rank)}), el("td", {text: r.player + (r.dropped ? " (dropped)" : "")}),
        el("td", {text: String(r.points)}),
        ...tbs.map((t) => el("td", {text: t === "openskill" ? (r[t] / 100).toFixed(2) : String(r[t])}))))];
  }

  const load = serial(async function () {
    const r = await api(`/tournaments/${tid}`);
    if (!r.ok) { P.notice("No such tournament: " + reason(r)); return; }
    const v = r.body;
    $("title").textContent = `${v.name || "Tournament"}: round ${v.round} of ${v.settings.rounds}`;
    const who = $("who");
    if (who.options.length !== v.players.length + 1) {
      who.replaceChildren(el("option", {value: "", text: "…"}), ...v.players.map((p) => el("option", {value: p.player, text: p.player})));
    }
    who.value = me;
    $("now").replaceChildren(...now(v));
    $("results").replaceChildren(...results(v));
    $("standings").replaceChildren(...standings(v));
    document.body.dataset.version = String(v.version);
    document.body.dataset.state = "shown";
  });

  $("who").onchange = () => {
    me = $("who").value;
    history.replaceState(null, "", me ? `?name=${encodeURIComponent(me)}` : location.pathname);
    load();
  };
  load();
  setInterval(load, 3000);
})();
