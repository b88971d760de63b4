/* Cribbage Companion page: the History tab (past games, the match tally, the score chart, the
   coach's review of the discards), fetched when the tab first opens. Uses app.js's helpers. */
(() => {
"use strict";
const { $, S, api, app, cardEl, cardsWords, el, send, tenths, viewGame } = window.Crib;

async function loadHistory() {
  const d = await send("GET", "/api/games");
  if (!d) return;
  const t = d.tally || {};
  $("#tally").textContent = Object.keys(t).length ? "Match tally (game points; a skunk counts 2): " + Object.entries(t).map(([k, v]) => `${k} ${v}`).join(", ") : "No finished games yet.";
  app.latest = d.latest;
  $("#games").replaceChildren(...d.games.map((g) => el("li", { "data-game": g.game_id },
    el("div", {}, el("b", {}, `#${g.game_id} `), `${g.line || (g.players || []).join(" v ")} `,
      g.winner ? `— ${g.winner_name || g.winner} won ${finalScore(g)}${g.skunk ? (g.skunk === "double" ? " (double skunk)" : " (skunk)") : ""}`
        : `— in progress ${finalScore(g)}`),
    g.created ? el("div", { class: "hint" }, new Date(g.created).toLocaleString()) : null,
    el("div", { class: "given" }),
    el("div", { class: "row" },
      el("button", { type: "button", onclick: () => showChart(g.game_id, true) }, "Chart"),
      el("button", { type: "button", onclick: () => viewGame(g.game_id === d.latest ? null : g.game_id) }, "View")))));
  if (app.chart) showChart(app.chart);  // the open chart stays under its game
  loadReviews(d.games.slice(0, REVIEWED_GAMES).map((g) => g.game_id));
}
/* the coach's review (GET /api/games/<id>/review): per player the expected points given away by
   the discards of the deals whose hands were entered; Review opens it deal by deal */
const REVIEWED_GAMES = 20;  // the newest games reviewed when the list opens, one at a time
async function loadReviews(ids) {
  for (const id of ids) {
    let r;
    try { r = await api("GET", `/api/games/${id}/review`); } catch (e) { continue; }
    const li = $(`#games li[data-game="${id}"]`);
    if (li) knownDiscards(id, li, r);
    if (!li || !r.deals.length) continue;
    li.querySelector(".given").textContent = "Given away by the discards (expected): "
      + r.players.filter((p) => p.deals).map((p) => `${p.name} ${tenths(p.given_away)}`).join(", ");
    li.querySelector(".row").append(
      el("button", { type: "button", class: "review-btn", onclick: () => showReview(id, r) }, "Review"));
  }
}
/* deals whose cards dealt were not entered (a camera game): what is known, each player's kept
   hand (counted in the show) and the crib, said as it is; the throws apart need My six */
async function knownDiscards(id, li, r) {
  const reviewed = new Set(r.deals.map((d) => d.deal));
  let d;
  try { d = await api("GET", `/api/games/${id}`); } catch (e) { return; }
  const s = d.state;
  const lines = (s.history || []).filter((h) => !reviewed.has(h.deal) && !h.misdeal && (h.shows || []).length)
    .map((h) => {
      const kept = h.shows.filter((sh) => !sh.crib).map((sh) => `${S.name(s, sh.seat)} kept ${cardsWords(sh.cards)}`);
      const crib = h.shows.find((sh) => sh.crib);
      return `Deal ${h.deal}: ${kept.join(", ")}${crib ? `; the crib held ${cardsWords(crib.cards)}` : ""}.`;
    });
  if (!lines.length) return;
  li.append(el("details", { class: "known" }, el("summary", {}, `What is known of ${lines.length === 1 ? "a deal" : `${lines.length} deals`} not reviewed`),
    ...lines.map((t) => el("p", {}, t)),
    el("p", { class: "hint" }, "Who threw which crib cards is not known, so the discards cannot be judged: "
      + `enter each player's cards dealt (My ${window.Crib.NUMBER_WORDS[S.dealt(s)] || "cards"}, as the Play tab's button says) `
      + "and the ones thrown on the Play tab before the starter.")));
}
function showReview(id, r) {
  const box = $("#review");
  const name = (seat) => (r.players.find((p) => p.seat === seat) || {}).name || seat;
  const cards = (list) => list.flatMap((c, i) => (i ? [" ", cardEl(c)] : [cardEl(c)]));
  box.replaceChildren(
    el("h2", {}, `Game ${id}: the discards`),
    el("p", { class: "hint" }, "Given away: the best choice's expected total less the kept cards' (hand ± crib, "
      + "exact over every starter and crib)."),
    el("p", { class: "review-total" }, r.players.filter((p) => p.deals)
      .map((p) => `${p.name} ${tenths(p.given_away)} over ${p.deals} deal${p.deals === 1 ? "" : "s"}`).join(" · ")),
    el("ol", { class: "review-deals" }, ...r.deals.map((d) => el("li", { "data-deal": d.deal },
      el("b", {}, `Deal ${d.deal}`), `, ${name(d.dealer)} deals`,
      el("ul", {}, ...Object.entries(d.seats).map(([seat, v]) => el("li", { "data-seat": seat },
        `${name(seat)} kept `, ...cards(v.kept), " threw ", ...cards(v.discards),
        tenths(v.given_away) !== "0.0"
          ? el("div", {}, `gave away ${tenths(v.given_away)}: the best was keep `, ...cards(v.best.keep),
            `, ${tenths(v.best.total)} against ${tenths(v.total)}`)
          : el("div", { class: "best" }, v.given_away > 0.005 ? "as good as the best" : "the best choice"))))))));
  box.hidden = false;
  box.scrollIntoView({ block: "start" });
}
function finalScore(g) {
  // each side's own score, in seat order (the order of g.line)
  return g.score || Object.values(g.scores || {}).join("–");
}
/* the score chart opens under its own game's row, in view, and follows that game while it is
   played (app.onState: each new state of the game the page shows) */
async function showChart(id, tapped) {
  const li = $(`#games li[data-game="${id}"]`);
  app.chart = li ? id : null;
  const box = app.chartBox || (app.chartBox = el("div", { id: "chart-wrap", class: "chart-box" }));
  if (!li) { box.remove(); return; }
  if (box.parentNode !== li) { box.replaceChildren(); li.append(box); }
  const res = await fetch(`/api/games/${id}/chart.svg`);
  if (!res.ok || app.chart !== id) return;
  box.innerHTML = `<h2>Game ${id}</h2>` + (await res.text());
  if (tapped) box.scrollIntoView({ block: "nearest" });
}
app.onState = () => {
  if (app.chart && app.chart === app.gameId && !$("#history").hidden) {
    clearTimeout(app.chartTimer); app.chartTimer = setTimeout(() => showChart(app.chart), 200);
  }
};
loadHistory();

window.Crib.loadHistory = loadHistory;  // app.js: the tab opened again
})();
