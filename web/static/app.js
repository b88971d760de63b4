/* Cribbage Companion page: the live table, play by hand, fixes, history, new game (the Photo tab
   is photo.js, loaded when the tab opens; the Camera tab camera.js).
   Plain JavaScript, no libraries, nothing loaded from outside. Everything goes through /api.
   Each page script keeps its names in one function; shared ones go on window.Crib. */
(() => {
"use strict";

const $ = (sel, el = document) => el.querySelector(sel);
const $$ = (sel, el = document) => Array.from(el.querySelectorAll(sel));
let RANKS = "", SUITS = "", SUIT_SYM = {};  // the engine's card alphabet (GET /api/session: cards)
const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six"];
/* the engine's phases as players say them (never the phase's internal name) */
const PHASE_WORDS = { cut: "Dealer?", deal: "Starter", play: "Play", show: "Counting", over: "Game over" };

const app = {
  csrf: $('meta[name="csrf-token"]').content,
  gameId: Number(document.body.dataset.game) || null,
  follow: !document.body.dataset.game,   // follow the latest game unless a game page was opened
  state: null, events: [], boardKey: null, es: null, pollTimer: null, lastJson: "",
  seat: null, act: "play", picked: [], refused: false,
  variants: {}, colours: [], names: [],  // the engine's variants, peg colours and default names (GET /api/session)
};

/* ---------- helpers ---------- */
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k.nodeType ? k : String(k));
  return e;
}
function cardLabel(name) {
  if (!name) return "–";
  const r = name[0] === "T" ? "10" : name[0];
  return r + (SUIT_SYM[name[1]] || name[1]);
}
function cardEl(name, extra = "") {
  const red = name && (name[1] === "H" || name[1] === "D");
  return el("span", { class: `card ${red ? "red" : ""} ${extra}`, "data-card": name || "" }, cardLabel(name));
}
function toast(msg, bad = false) {
  const t = $("#toast");
  t.textContent = msg; t.className = bad ? "bad" : ""; t.hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { t.hidden = true; }, bad ? 6000 : 3000);
}
async function api(method, path, body, retried = false) {
  const opts = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (method !== "GET") opts.headers["X-CSRF-Token"] = app.csrf;
  if (body instanceof FormData) opts.body = body;
  else if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (res.ok) return data;
  if (res.status === 403 && data && data.need === "csrf" && !retried) {
    await refreshSession();
    return api(method, path, body, true);
  }
  if (res.status === 403 && data && data.need === "pin") showUnlock(true);
  if (res.status === 403 && data && data.need === "code") document.dispatchEvent(new Event("tablecode:needed"));
  const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
  err.status = res.status; err.data = data;
  throw err;
}
async function send(method, path, body) {
  try { return await api(method, path, body); } catch (e) { toast(e.message, true); return null; }
}
async function refreshSession() {
  const s = await api("GET", "/api/session");
  app.csrf = s.csrf;
  app.variants = s.variants || {}; app.colours = s.colours || []; app.names = s.names || [];
  const c = s.cards || {};
  RANKS = c.ranks || RANKS; SUITS = c.suits || SUITS;
  SUIT_SYM = Object.fromEntries([...SUITS].map((k, i) => [k, (c.symbols || "")[i] || k]));
  document.body.dataset.pin = s.pin;
  document.body.dataset.unlocked = s.unlocked ? "yes" : "no";
  showUnlock(false);
  return s;
}

/* ---------- reading the state (docs/game.md) ---------- */
const S = {
  players: (s) => (s && s.players) || [],
  sides: (s) => ((s && s.sides) || []).map((d) => ({ id: d.id, name: d.name, seats: d.seats || [d.id], colour: d.colour })),
  name: (s, seat) => { const p = S.players(s).find((q) => q.seat === seat); return p ? p.name : seat; },
  // a side id ("A", or "AC" for a partnership) as the table says it: "Ann & Cat"
  sideName: (s, id) => { const d = S.sides(s).find((q) => q.id === id); return d ? d.name : S.name(s, id); },
  winnerText: (s) => {
    if (!s || !s.winner) return "";
    const skunk = s.skunk ? ` (${s.skunk === "double" ? "double skunk" : "skunk"})` : "";
    return `${s.winner_name || S.sideName(s, s.winner)} wins${skunk}`;
  },
  sideOf: (s, seat) => S.sides(s).find((d) => d.seats.includes(seat)) || null,
  score: (s, side) => ((s && s.scores) || {})[side] || 0,
  pegs: (s, side) => { const p = ((s && s.pegs) || {})[side]; if (!p) return { front: 0, back: 0 }; return Array.isArray(p) ? { front: p[0], back: p[1] } : p; },
  target: (s) => (s && s.target) || 121,
  kept: (s) => ((s && app.variants[s.variant]) || {}).kept,
  // each player throws two in a game of two, one in a game of three or four; dealt = kept + thrown
  thrown: (s) => (S.players(s).length > 2 ? 1 : 2),
  dealt: (s) => (S.kept(s) || 4) + S.thrown(s),
  claims: (s) => !!(s && s.settings && s.settings.counting === "claim"),
  // who cuts for deal next (the engine's cutting): every player, after a tie only those tied
  cutters: (s) => S.players(s).filter((p) => !s.cutting || !s.cutting.length || s.cutting.includes(p.seat)),
  seen: (s) => {
    const seen = new Set();
    if (!s) return seen;
    if (s.starter) seen.add(s.starter);
    for (const p of s.plays || []) seen.add(p.card);
    for (const c of (s.crib && s.crib.known) || []) seen.add(c);
    for (const h of Object.values(s.hands || {})) for (const c of (h.kept || []).concat(h.laid || [])) seen.add(c);
    return seen;
  },
  nextText: (s) => {
    if (!s) return "";
    if (s.phase === "over") return `Game over: ${S.winnerText(s)}.`;
    const cut = s.cut_said ? s.cut_said + " " : "";
    if (s.phase === "cut" || !s.dealer) {
      const who = S.cutters(s).map((p) => p.name).join(", then ");
      return `${cut}Next: choose the dealer: cut for deal (each player's card: ${who}; the lower deals) or tap Dealer.`;
    }
    if (s.phase === "deal") {
      return `${cut}Next: turn the starter (${S.name(s, s.dealer)} deals). For the deal review on History `
        + `(optional, before the starter): each player's ${NUMBER_WORDS[S.dealt(s)]} dealt (My ${NUMBER_WORDS[S.dealt(s)]}) `
        + `and the ${NUMBER_WORDS[S.thrown(s)]} thrown (Thrown).`;
    }
    if (s.phase === "play") return s.next ? `Next: ${S.name(s, s.next)} to play (count ${s.count}).` : "";
    if (s.phase === "show") {
      if (s.next === "crib") return `Next: ${S.name(s, s.dealer)}'s crib: pick the cards of the crib, with the starter turned, and Send.`;
      if (!s.next) return "";
      const who = S.name(s, s.next), n = S.kept(s);
      const laid = ((s.hands || {})[s.next] || {}).laid || [];
      if (laid.length === n) {
        return `Next: ${who} counts the hand: the ${NUMBER_WORDS[n]} cards ${who} laid, with the starter. `
          + "Send to count them, or pick the cards if they differ.";
      }
      return `Next: ${who} counts the hand: pick its ${NUMBER_WORDS[n]} cards and Send.`;
    }
    return "";
  },
  actFor: (s) => {
    if (!s) return "play";
    if (s.phase === "cut" || !s.dealer) return "cut";
    if (s.phase === "deal") return "starter";
    if (s.phase === "show") return s.next === "crib" ? "crib" : "show";
    return "play";
  },
};

/* ---------- tabs ---------- */
function showTab() {
  const tab = (location.hash || "#table").slice(1);
  if (tab !== app.tab) { app.tab = tab; window.scrollTo(0, 0); }  // a tab opens at its top, names in view
  for (const sec of $$("section.tab")) sec.hidden = sec.id !== tab;
  for (const a of $$("#tabs a")) a.classList.toggle("on", a.dataset.tab === tab);
  if (tab === "history") window.Crib.loadHistory ? window.Crib.loadHistory() : loadScript($("#history").dataset.script);
  if (tab === "fix") { loadEvents(); loadScript($("#fix").dataset.script); }
  if (tab === "photo" || tab === "new") loadScript($(`#${tab}`).dataset.script);
}
function loadScript(src) {
  // a tab's own script (the Photo tab's photo.js), fetched when the tab first opens, not with the table;
  // the promise keeps its word once the script ran
  let s = src && $(`script[src="${src}"]`);
  if (src && !s) {
    s = el("script", { src });
    s.ran = new Promise((ok) => s.addEventListener("load", ok));
    document.body.append(s);
  }
  return (s && s.ran) || Promise.resolve();
}
window.addEventListener("hashchange", showTab);

/* ---------- PIN ---------- */
function showUnlock(force) {
  const locked = document.body.dataset.pin === "set" && document.body.dataset.unlocked !== "yes";
  $("#lock-btn").hidden = !locked;
  $("#unlock").hidden = !(locked && force);
  $("#pin-first").hidden = document.body.dataset.pin !== "unset";
}
$("#lock-btn").addEventListener("click", () => { $("#unlock").hidden = false; $("#unlock input").focus(); });
$("#unlock").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const r = await send("POST", "/api/unlock", { pin: ev.target.pin.value });
  if (r) { ev.target.pin.value = ""; await refreshSession(); toast("Unlocked"); }
});
$("#pin-first").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const r = await send("POST", "/api/pin", { pin: ev.target.pin.value });
  if (r) { await refreshSession(); toast("PIN set"); }
});
$("#no-pin").addEventListener("click", async () => {
  const r = await send("POST", "/api/pin", { pin: null });
  if (r) { await refreshSession(); toast("No PIN: anyone at the table can change the game"); }
});

/* ---------- live updates: server-sent events, polling when they fail ---------- */
function connect() {
  if (app.es) app.es.close();
  if (!window.EventSource) return startPolling();
  const url = "/api/stream" + (app.gameId ? `?game=${app.gameId}` : "");
  const es = new EventSource(url);
  app.es = es;
  let opened = false;
  es.onopen = () => { opened = true; setLive("on"); stopPolling(); if (app.onLive) app.onLive(); };
  es.addEventListener("state", (m) => {
    const d = JSON.parse(m.data);
    if (d.game_id === app.gameId) render(d.state);
  });
  es.addEventListener("games", (m) => {
    const d = JSON.parse(m.data);
    if (app.follow && d.latest !== app.gameId) { app.gameId = d.latest; loadGame().then(connect); }
  });
  es.addEventListener("leds", refreshLeds);
  es.addEventListener("camera", (m) => { if (app.onCamera) app.onCamera(JSON.parse(m.data)); });
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED || !opened) {
      es.close(); app.es = null; startPolling();
      setTimeout(() => { if (!app.es) connect(); }, 30000);
    } else setLive("");
  };
}
function setLive(mode) {
  const l = $("#live");
  l.className = "live " + mode;
  l.textContent = mode === "on" ? "live" : mode === "poll" ? "polling" : "…";
}
function startPolling() {
  setLive("poll");
  if (app.pollTimer) return;
  app.pollTimer = setInterval(async () => {
    try {
      if (app.follow) {
        const g = await api("GET", "/api/games");
        if (g.latest && g.latest !== app.gameId) { app.gameId = g.latest; }
      }
      if (app.gameId) {
        const d = await api("GET", `/api/games/${app.gameId}`);
        if (render(d.state)) setTimeout(refreshLeds, 300);  // the LEDs draw just after a change
      }
    } catch (e) { setLive(""); }
  }, 1000);
}
function stopPolling() { clearInterval(app.pollTimer); app.pollTimer = null; }

function refreshLeds() {
  // the LEDs show the newest game; an old game on the page has no LED picture
  if (document.body.dataset.leds !== "sim" || !app.follow) { $("#leds-fig").hidden = true; return; }
  $("#leds").src = "/api/leds.png?t=" + Date.now();
}
$("#leds").addEventListener("load", () => { $("#leds-fig").hidden = !app.follow; });
$("#leds").addEventListener("error", () => { $("#leds-fig").hidden = true; });

/* ---------- the table ---------- */
async function loadGame() {
  if (!app.gameId) {
    try { const d = await api("GET", "/api/games/latest"); app.gameId = d.game_id; render(d.state); }
    catch (e) { $("#no-game").hidden = false; }
    return;
  }
  const d = await send("GET", `/api/games/${app.gameId}`);
  if (d) render(d.state);
}

function ensureBoard(s) {
  // one drawing per board shape; pegs are placed from the newest state once it is there
  const tracks = S.sides(s).length === 3 ? 3 : 2, target = S.target(s);
  const key = `${tracks}-${target}`;
  if (app.boardKey !== key || !app.boardReady) {
    app.boardKey = key;
    app.boardReady = fetch(`/api/board.svg?tracks=${tracks}&target=${target}`)
      .then((res) => (res.ok ? res.text() : ""))
      .then((svg) => { if (app.boardKey === key && svg) $("#board-wrap").innerHTML = svg; })
      .catch(() => { app.boardReady = null; });
  }
  return app.boardReady;
}
function holeFor(svg, score) {
  const laps = Number(svg.dataset.laps), per = Number(svg.dataset.perLap);
  const target = Number(svg.dataset.target), game = Number(svg.dataset.gameHole);
  if (score <= 0) return 0;
  if (score >= target && target > per) return game;
  if (laps === 1) return Math.min(score, game);
  return ((score - 1) % per) + 1;
}
function placePegs(s) {
  const svg = $("#board-wrap svg");
  if (!svg) return;
  S.sides(s).forEach((side, track) => {
    const pegs = S.pegs(s, side.id);
    for (const which of ["front", "back"]) {
      const peg = svg.querySelector(`#peg-${"ABC"[track]}-${which}`);
      const hole = svg.querySelector(`#h${track}-${holeFor(svg, pegs[which] || 0)}`);
      if (!peg || !hole) continue;
      peg.setAttribute("cx", hole.getAttribute("cx"));
      peg.setAttribute("cy", hole.getAttribute("cy"));
      peg.setAttribute("fill", side.colour || "#fff");
      peg.dataset.score = pegs[which] || 0;
    }
  });
}

function render(s) {
  if (!s) return false;
  // answers can cross on the network: never go back to an older state of the same game
  if (app.state && app.state.game === s.game && s.events < app.state.events) return false;
  const json = JSON.stringify(s);
  if (json === app.lastJson) return false;
  app.lastJson = json;
  const phaseChanged = !app.state || app.state.phase !== s.phase || app.state.deal !== s.deal;
  app.state = s;
  if (phaseChanged) { app.act = S.actFor(s); app.picked = []; app.refused = false; }
  $("#no-game").hidden = true;
  document.title = S.sides(s).map((d) => `${d.name} ${S.score(s, d.id)}`).join(" · ") + " — Cribbage";
  const viewing = $("#viewing");
  viewing.hidden = app.follow;
  viewing.replaceChildren(app.follow ? "" : `Viewing game ${app.gameId} (not the latest). `,
    app.follow ? "" : el("button", { type: "button", class: "small", onclick: () => viewGame(null) }, "Back to the latest"));

  const scores = $("#scores");
  scores.replaceChildren(...S.sides(s).map((side) => {
    const tags = [];
    if (s.dealer && side.seats.includes(s.dealer)) tags.push("dealer");
    if (s.next && side.seats.includes(s.next)) tags.push(s.phase === "show" ? "to count" : "to play");
    const card = el("div", { class: "score", "data-side": side.id },
      el("div", { class: "name" }, side.name),
      tags.length ? el("span", { class: "tag" }, tags.join(" · ")) : null,
      el("div", { class: "pts" }, S.score(s, side.id)));
    card.style.background = side.colour || "#374151";
    return card;
  }));
  $("#spoken").textContent = s.said || "";
  $("#cut-said").hidden = !s.cut_said;
  $("#cut-said").textContent = s.cut_said || "";
  renderAside(s);
  renderCounted(s);
  $("#phase").textContent = PHASE_WORDS[s.phase] || "–";
  $("#dealer").textContent = s.dealer ? S.name(s, s.dealer) : "–";
  $("#starter").replaceChildren(s.starter ? cardEl(s.starter) : "–");
  $("#count").textContent = s.count === undefined || s.count === null ? "–" : s.count;
  $("#series").replaceChildren(...seriesEls(s));
  // the Play tab: the scores, and the count and cards of the series
  $("#play-board").replaceChildren(...S.sides(s).map((d) => {
    const b = el("b", { class: "chip", "data-side": d.id }, `${d.name} ${S.score(s, d.id)}`);
    b.style.borderColor = d.colour || "";
    return b;
  }), s.phase === "play" ? el("span", { class: "hint" }, `count ${s.count}`) : "", ...seriesEls(s));
  renderMuggins(s);
  const w = $("#winner");
  w.hidden = !s.winner;
  w.replaceChildren(el("span", { class: "says" }, S.winnerText(s)), " ", rematchBtn());
  ensureBoard(s).then(() => placePegs(app.state));
  renderSeats(s);
  renderPicker();
  if (!$("#fix").hidden) loadEvents();
  if (app.onState) app.onState(s);
  return true;
}

/* each card of the series with who laid it (the newest play of that card) */
function seriesEls(s) {
  return (s.series || []).map((c) => {
    const card = typeof c === "string" ? c : c.card, p = (s.plays || []).filter((q) => q.card === card).pop();
    const who = p ? S.name(s, p.seat) : "";  // a long name cut short under its card (in full as its title)
    return el("span", { class: "laid" }, cardEl(card),
      p ? el("small", { title: who }, who.length > 8 ? `${who.slice(0, 7)}…` : who) : "");
  });
}
/* the end of a game: the same players, variant and settings, a new game */
function rematchBtn() {
  return el("button", { type: "button", class: "primary rematch", onclick: async () => {
    const r = await send("POST", "/api/games", app.state.settings);
    if (r) started(r);
  } }, "Rematch");
}
function renderMuggins(s) {
  // on the Table, and on the Play tab where the next count is typed (sending it ends the chance)
  const chances = Array.isArray(s.muggins) ? s.muggins : [];
  for (const box of [$("#muggins"), $("#play-muggins")]) {
    box.hidden = !chances.length;
    // while an opponent may still call it, nothing says what was missed: spotting it is the game
    box.replaceChildren(...chances.map((m) => {
      const callers = m.callers || S.players(s).map((p) => p.seat).filter((seat) => seat !== m.seat);
      const what = m.what === "crib" ? "the crib" : "the hand";
      return el("div", { class: "chance" },
        el("p", {}, `${S.name(s, m.seat)} claimed ${m.claimed} for ${what}. Missed anything? An opponent may call `
          + "Muggins! now: the chance passes when the next count is sent."),
        ...callers.map((seat) => el("button", { "data-muggins": seat, onclick: () => callMuggins(seat, m.event) }, `Muggins! (${S.name(s, seat)})`)));
    }));
  }
  // once the window closed (called, or the game moved on): only what was missed
  const open = new Set(chances.map((m) => `${m.seat}-${m.what === "crib"}`));
  const missed = (s.shows || []).filter((sh) => sh.missed > 0 && !open.has(`${sh.seat}-${!!sh.crib}`));
  const note = $("#missed");
  note.hidden = !missed.length;
  note.textContent = missed.map((sh) => `${S.name(s, sh.seat)}'s ${sh.crib ? "crib" : "hand"}: ${sh.missed} missed `
    + `(claimed ${sh.claimed} of ${sh.total})`).join(" · ");
  mugginsPassed(s, chances);
}
/* the Play tab says when a chance for muggins passed uncalled (the next count was sent) */
function mugginsPassed(s, chances) {
  const key = (m) => `${s.game}-${m.event}`, open = new Set(chances.map(key));
  const called = (s.last || []).some((a) => a.kind === "muggins");
  for (const m of app.mugginsOpen || []) {
    if (open.has(key(m)) || called || m.game !== s.game) continue;
    app.mugginsPassed = `The chance for muggins passed when the next count was sent: ${S.name(s, m.seat)}'s `
      + `${m.what === "crib" ? "crib" : "hand"}: ${m.points} missed (claimed ${m.claimed} of ${m.total})`;
  }
  if (s.phase === "play" || s.phase === "cut") app.mugginsPassed = "";  // a new deal's play: long gone
  app.mugginsOpen = chances.map((m) => ({ ...m, game: s.game }));
  const note = $("#play-missed");
  note.textContent = app.mugginsPassed || "";
  note.hidden = !app.mugginsPassed;
}
function renderCounted(s) {
  // the API's counted (web/counted.py)
  const c = s.counted, box = $("#counted");
  box.hidden = !c;
  if (!c) return;
  $("h2", box).textContent = c.title;
  const claimed = c.claimed !== null && c.claimed !== undefined && !c.open
    ? ` · claimed ${c.claimed}${c.missed ? ` (${c.missed} missed)` : ""}` : "";
  $(".with", box).textContent = `${c.deal ? `Deal ${c.deal}, ` : ""}with the starter ${cardLabel(c.starter)}: `
    + (c.cards || []).map(cardLabel).join(" ") + claimed;
  $("ul", box).replaceChildren(...(c.items || []).map((i) => el("li", { "data-kind": i.kind }, i.text)));
}
function renderAside(s) {
  // the API's aside (web/words.py)
  for (const box of [$("#aside"), $("#fix-aside")]) {
    const a = s.aside;
    box.hidden = !a;
    if (!a) { box.replaceChildren(); continue; }
    box.replaceChildren(el("h2", {}, "Set aside by a correction"),
      el("ul", {}, ...a.goes.map((g) => el("li", {}, g))), el("p", {}, a.check));
  }
}
async function callMuggins(seat, eventId) {
  const ev = { type: "muggins", seat };
  if (eventId) ev.event = eventId;
  const r = await send("POST", `/api/games/${app.gameId}/events`, ev);
  if (r) { render(r.state); toast(`Muggins called by ${S.name(r.state, seat)}`); }
}

/* ---------- play by hand ---------- */
function renderSeats(s) {
  const box = $("#seat-pick");
  const seats = S.players(s).map((p) => p.seat);
  if (s.next !== app.lastNext) { app.lastNext = s.next; if (s.next && s.next !== "crib") app.seat = s.next; }
  if (!app.seat || !seats.includes(app.seat)) app.seat = (s.next !== "crib" && s.next) || seats[0] || null;
  box.replaceChildren(...S.players(s).map((p) => el("button", {
    class: p.seat === app.seat ? "on" : "", "data-seat": p.seat,
    onclick: () => { app.seat = p.seat; renderSeats(app.state); },
  }, p.name)));
  $("#next").textContent = S.nextText(s);
  if (s.winner) $("#next").append(" ", rematchBtn());
  $("#claim-row").hidden = !(S.claims(s) && ["show", "crib"].includes(app.act));
  $("#penalty-row").hidden = app.act !== "misdeal";
  for (const b of $$("#actions .deal-only")) b.hidden = s.phase !== "deal";
  $('#actions button[data-act="hand"]').textContent = `My ${NUMBER_WORDS[S.dealt(s)] || "cards"}`;
  $("#penalty-to").textContent = s.pone ? `points to ${S.name(s, s.pone)} (the pone)` : "points to the pone";
  const sel = $("#adjust-seat"), editSel = $("#edit-seat");
  for (const box2 of [sel, editSel]) {
    const current = box2.value;
    box2.replaceChildren(...S.players(s).map((p) => el("option", { value: p.seat }, p.name)));
    if (current) box2.value = current;
  }
}
function maxPicked() {
  if (app.act === "play" || app.act === "starter") return 1;
  if (app.act === "hand") return S.dealt(app.state);
  if (app.act === "discard") return S.thrown(app.state);
  if (["go", "dealer", "misdeal", "new-deal"].includes(app.act)) return 0;
  if (app.act === "cut") return S.cutters(app.state).length;
  return app.act === "crib" ? ((app.state && app.state.crib) || {}).size : S.kept(app.state);
}
function buildPicker(box, onPick) {
  // one tap a card; a suit's sign ends its second row on a phone (app.css)
  const cells = [];
  for (const suit of SUITS) {
    for (const rank of RANKS) {
      const name = rank + suit;
      cells.push(el("button", { type: "button", class: `pick ${"HD".includes(suit) ? "red" : ""}`, "data-card": name, onclick: () => onPick(name) }, cardLabel(name)));
    }
    cells.push(el("span", { class: `suit-tag ${"HD".includes(suit) ? "red" : ""}`, "aria-hidden": "true" }, SUIT_SYM[suit]));
  }
  box.replaceChildren(...cells);
}
function renderPicker() {
  const seen = S.seen(app.state);
  const s = app.state;
  if (s && s.phase === "show" && app.act === "show" && app.seat) {
    // counting a hand: the cards this seat laid in the play are the hand, not cards to avoid
    for (const c of ((s.hands || {})[app.seat] || {}).laid || []) seen.delete(c);
    for (const c of ((s.hands || {})[app.seat] || {}).kept || []) seen.delete(c);
  }
  if (s && app.act === "play" && app.seat) {  // the player's own hand, entered with My six, is still to lay
    const h = (s.hands || {})[app.seat] || {};
    for (const c of h.kept || []) if (!(h.laid || []).includes(c)) seen.delete(c);
  }
  if (s && app.act === "discard" && app.seat) {  // throwing: from the cards dealt to this player
    for (const c of ((s.hands || {})[app.seat] || {}).dealt || []) seen.delete(c);
  }
  for (const b of $$("#picker .pick")) {
    b.classList.toggle("seen", seen.has(b.dataset.card));
    b.classList.toggle("on", app.picked.includes(b.dataset.card));
  }
  // a cut: each player's card, in seat order
  const picked = app.act === "cut" && s
    ? S.cutters(s).map((p, i) => el("span", { class: `card cut ${app.picked[i] ? "" : "empty"}`, "data-card": app.picked[i] || "" },
      `${p.name} ${app.picked[i] ? cardLabel(app.picked[i]) : "?"}`))
    : app.picked.map((c) => cardEl(c));
  $("#picked").replaceChildren(...picked,
    ...(app.refused && app.picked.length ? [el("span", { class: "hint still" }, "Still picked: fix them or Send again")] : []));
  for (const b of $$("#actions button")) b.classList.toggle("on", b.dataset.act === app.act);
}
function pick(name) {
  const cap = maxPicked();
  app.refused = false;
  if (app.picked.includes(name)) app.picked = app.picked.filter((c) => c !== name);
  else if (cap === 1) app.picked = [name];
  else if (app.picked.length < cap) app.picked.push(name);
  renderPicker();
}
$("#actions").addEventListener("click", (ev) => {
  const b = ev.target.closest("button");
  if (!b) return;
  // picks belong to one action: a new action starts with none (a refused Send keeps them only
  // for a retry of the same action)
  if (b.dataset.act !== app.act) { app.picked = []; app.refused = false; }
  app.act = b.dataset.act;
  renderPicker(); renderSeats(app.state || {});
});
$("#clear").addEventListener("click", () => { app.picked = []; app.refused = false; renderPicker(); });
$("#claim-row").addEventListener("click", (ev) => {
  const b = ev.target.closest("button[data-claim]");
  if (!b) return;
  const now = Number($("#claim").value || 0) + Number(b.dataset.claim);
  $("#claim").value = Math.max(0, Math.min(29, now));
});
async function undoLast() {
  // the server undoes at once the last event this phone sent; another (the camera's, another
  // phone's) it names, and the page asks before undoing it
  if (!app.gameId) return;
  const path = `/api/games/${app.gameId}/events`;
  let r;
  try { r = await api("POST", path, { type: "undo" }); } catch (e) {
    const about = e.status === 409 && e.data && e.data.undo;
    if (!about) return toast(e.message, true);
    if (!confirm(`Undo #${about.event} ${about.said}? It was not sent from this phone.`)) return;
    r = await send("POST", path, { type: "undo", expect: about.event });
  }
  if (!r) return;
  render(r.state); loadEvents();
  const text = (r.changed || []).map((c) => `${S.sideName(app.state, c.seat)} ${c.from} → ${c.to}`).join(", ");
  const said = `Undid: ${r.undid ? r.undid.said : "the last event"} (${text || "no score changed"})`;
  $("#changed").textContent = $("#play-said").textContent = said;
  toast(said);
}
$("#undo").addEventListener("click", undoLast);
$("#fix-undo").addEventListener("click", undoLast);
$("#send").addEventListener("click", async () => {
  if (!app.gameId) return toast("Start a game first", true);
  const ev = { type: app.act };
  if (!["starter", "crib", "cut", "misdeal", "new-deal"].includes(app.act)) ev.seat = app.seat;
  if (app.act === "new-deal") ev.dealer = app.seat;
  if (app.act === "misdeal") ev.penalty = Number($("#penalty").value || 0);
  if (app.act === "cut") ev.cards = Object.fromEntries(app.picked.map((c, i) => [S.cutters(app.state)[i].seat, c]));
  if (app.act === "go" && !ev.seat) return toast("Tap who says go", true);
  if (app.act === "play" || app.act === "starter") {
    if (app.picked.length !== 1) return toast("Tap one card", true);
    ev.card = app.picked[0];
  } else if (app.act === "show" || app.act === "crib") {
    if (app.picked.length) ev.cards = app.picked.slice();
  } else if (app.act === "hand" || app.act === "discard") {
    const n = maxPicked(), what = app.act === "hand" ? "dealt to" : "thrown by";
    if (!ev.seat) return toast("Tap whose cards they are", true);
    if (app.picked.length !== n) return toast(`Tap the ${NUMBER_WORDS[n]} cards ${what} ${S.name(app.state, ev.seat)}`, true);
    ev.cards = app.picked.slice();
  }
  const claim = $("#claim").value;
  if (!$("#claim-row").hidden && claim !== "") ev.claim = Number(claim);
  const r = await send("POST", `/api/games/${app.gameId}/events`, ev);
  if (!r) { app.refused = true; renderPicker(); return; }
  if (r) {
    app.picked = []; app.refused = false; $("#claim").value = "";
    const sent = ev.type;
    app.act = S.actFor(r.state);
    if (sent === "hand") app.act = "discard";  // my six: now the two thrown, for the same player
    if (r.state.next && r.state.next !== "crib") app.seat = r.state.next;
    render(r.state); renderPicker();
    showChanges(r.changed, "Recorded");
    $("#play-info").scrollIntoView({ block: "nearest" });  // what is next, and what was recorded: in view
  }
});
function showChanges(changed, what) {
  const s = app.state;
  const text = (changed || []).map((c) => `${S.sideName(s, c.seat)} ${c.from} → ${c.to}`).join(", ");
  $("#changed").textContent = $("#play-said").textContent = text ? `${what}: ${text}` : `${what}: no score changed`;
  toast(text ? `${what}: ${text}` : what);
}

/* ---------- fixes ---------- */
/* expected points, in every view (History, Review, Photo's Which to throw; the coach's words too): one decimal */
function tenths(x) { return (Math.round(x * 10) / 10).toFixed(1); }
function cardsWords(list) { return (list || []).map(cardLabel).join(" "); }
async function loadEvents() {
  if (!app.gameId) return;
  const d = await send("GET", `/api/games/${app.gameId}/events`);
  if (!d) return;
  app.events = d.events;
  $("#events").replaceChildren(...d.events.slice().reverse().map((e) => {
    const pts = e.points_said;  // as the Table says them: "Dee: thirty-one for two, and game"
    const gone = e.superseded_by ? ` (replaced by ${e.superseded_by})` : e.set_aside ? " · set aside by a correction" : "";
    const base = e.event && e.event.type === "correct" ? e.event.with : e.event;
    const canEdit = !e.superseded_by && base && (base.seat || base.card || base.cards) && e.event.type !== "undo";
    const seen = (base && base.seen) || e.seen || null;  // what the camera saw: {frame, confidence, crop}
    return el("li", { class: e.superseded_by || e.set_aside ? "gone" : "", "data-event": e.id },
      seen && seen.crop ? seenThumb(seen) : null,
      el("span", {}, `#${e.id} ${e.said || ""} `), pts ? el("b", { class: "pts" }, pts) : null,
      // a show counted before one of its cards was corrected where it was laid counts the corrected card
      (e.carried || []).length ? el("div", { class: "carried" }, "counts "
        + e.carried.map((c) => `${cardLabel(c.to)} for ${cardLabel(c.from)}`).join(", ") + ", as corrected in the play") : null,
      el("div", { class: "meta" }, `${e.source || (seen ? "camera" : "?")} · ${e.at ? new Date(e.at).toLocaleTimeString() : ""}${gone}`
        + (seen && typeof seen.confidence === "number" ? ` · ${Math.round(seen.confidence * 100)}% sure` : "")),
      canEdit ? el("button", { type: "button", class: "edit",
        onclick: () => loadScript($("#fix").dataset.script).then(() => window.Crib.openEdit(e)) }, "Edit") : null);
  }));
}
function seenThumb(seen) {
  // the crop the camera read this card from (DATA/crops/NAME.jpg, served by /api/camera/crops)
  const name = String(seen.crop).split("/").pop();
  return el("img", { class: "seen", src: `/api/camera/crops/${encodeURIComponent(name)}`,
    alt: "what the camera saw (tap to enlarge)", title: "tap to enlarge", width: 48, height: 64, loading: "lazy",
    onclick: (ev) => ev.target.classList.toggle("big"), onerror: (ev) => ev.target.remove() });
}
$("#adjust").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = ev.target;
  const r = await send("POST", `/api/games/${app.gameId}/events`, { type: "adjust", seat: f.seat.value, points: Number(f.points.value), reason: f.reason.value });
  if (r) { f.reset(); render(r.state); showChanges(r.changed, "Adjusted"); loadEvents(); }
});

/* ---------- history: history.js, fetched when the tab first opens ---------- */
async function viewGame(id) {
  if (id !== null && id === app.latest) id = null;  // the newest game is followed, not "viewed"
  app.follow = id === null;
  app.gameId = id; app.lastJson = ""; app.state = null;
  await loadGame(); connect(); refreshLeds();
  location.hash = "#table";
}

/* ---------- new game: the form is newgame.js, fetched when the tab first opens ---------- */
function started(r) {
  app.follow = true; app.gameId = r.game_id; app.lastJson = "";
  $("#play-said").textContent = "";
  render(r.state); connect();
  location.hash = "#play";
  toast(`Game ${r.game_id} started`);
}

/* ---------- start ---------- */
showUnlock(false);
// the New form waits, greyed, for newgame.js (fetched when the tab first opens) to take it
for (const c of $("#new-form").elements) c.disabled = true;
if (document.body.dataset.leds === "sim") refreshLeds();
// the session first: the variants it carries say how many cards a hand keeps and fill the New form
// (and the card alphabet the pickers are built from)
const session = refreshSession().catch((e) => toast(e.message, true));
session.then(() => {
  buildPicker($("#picker"), pick); buildPicker($("#edit-picker"), (name) => window.Crib.editPick(name));
  showTab(); return loadGame();
}).then(connect);

/* for the other page scripts: the page's one global */
window.Crib = {
  $, $$, el, api, send, toast, app, S, NUMBER_WORDS, cardLabel, cardEl, cardsWords, tenths,
  buildPicker, loadScript, render, showChanges, viewGame, loadEvents, started, session,
  get RANKS() { return RANKS; }, get SUITS() { return SUITS; },
};
})();
