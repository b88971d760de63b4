/* Cribbage Companion page, the Camera tab: what the camera expects next and the last card it
   read, flagged readings answered in one tap, the live snapshot with the zones to drag.
   Fetched when the tab first opens; camera-watch.js (on every tab) keeps the camera's status
   and the "camera lost" banner and hands each status here. Uses app.js's helpers ($, el, api,
   send, toast, render, app, S, cardLabel, buildPicker). */
(() => {
"use strict";
const { $, $$, S, api, app, buildPicker, cardLabel, el, loadScript, render, send, toast, camWatch, camWatchLoad } = window.Crib;

const cam = {
  status: null, zones: null, dirty: false, drag: null,
  timer: null, loading: false, url: null, aspect: null,
  flagsKey: "", picking: null, stateJson: null,
  game: null,  // the state of the game the camera follows, when the page shows another (camGame)
};
const MIN_ZONE = 0.05;  // a zone is at least 5% of the frame each way
const HOLD_MS = 2000;   // the tracker's momentary state shows once it has held this long
const TRACKER_TEXT = {
  "watching": "Watching the table",
  "hand over the table": "A hand is over the table",
  "waiting for a confirmation": "Waiting for a confirmation",
  "paused": "Paused",
};

function camTabShown() { return !$("#camera").hidden && document.visibilityState === "visible"; }
function camLoad() { return camWatchLoad(); }
/* the game the camera follows: the one on the page, or (while another game is viewed) its own
   state fetched apart, so zones, flags and the heading name its players, never the viewed game's */
function camState() {
  const g = cam.status && cam.status.game;
  if (!g) return null;
  if (app.state && app.state.game === g) return app.state;
  return cam.game && cam.game.game === g ? cam.game : null;
}
async function camGame(st) {
  const g = st && st.game;
  if (!g || (app.state && app.state.game === g)) { cam.game = null; return; }
  if (cam.game && cam.game.game === g && cam.gameFetched > Date.now() - 3000) return;
  cam.gameFetched = Date.now();
  try {
    const d = await api("GET", `/api/games/${g}`);
    if (cam.status && cam.status.game === g) { cam.game = d.state; cam.flagsKey = ""; camUpdate(cam.status); }
  } catch (e) { /* the status line still says which game */ }
}

/* a value shown only once it has held for `hold` ms (the first one at once), so a hand passing
   over the table does not flip the line every two seconds */
function steady(hold, show) {
  const s = { shown: undefined, pending: undefined, timer: null };
  s.feed = (value) => {
    if (s.shown === undefined || value === s.shown) {
      clearTimeout(s.timer); s.timer = null; s.pending = undefined;
      if (s.shown === undefined) { s.shown = value; show(value); }
      return;
    }
    if (value === s.pending) return;  // already waiting to see whether it holds
    s.pending = value;
    clearTimeout(s.timer);
    s.timer = setTimeout(() => {
      s.timer = null;
      if (s.pending !== value) return;
      s.shown = value; s.pending = undefined; show(value);
    }, hold);
  };
  return s;
}
const trackerLine = steady(HOLD_MS, (t) => { $("#cam-tracker").textContent = TRACKER_TEXT[t] || t || "–"; });

/* ---------- the heading: what the camera waits for, in players' words ---------- */
function expectWords(e) {
  // a thing awaited ("the starter", "Ann's hand") → "Waiting for the starter"; a sentence
  // ("Bob to play", "waiting for the crib", "the game is over") as it is, with a capital
  const thing = (/^(the|a|an) /i.test(e) && !/ (is|are) |:/.test(e)) || /^[^:]*'s (hand|crib)$/.test(e);
  if (thing) return `Waiting for ${e}`;
  return e[0].toUpperCase() + e.slice(1);
}
function expectFromGame(st) {
  // a follower that does not say what it expects: the game's own next step
  const s = camState();
  if (!s) return st && st.game ? "Watching the table" : "Waiting for a game to start";
  const who = (seat) => S.name(s, seat);
  if (s.phase === "over") return "Game over";
  if (s.phase === "cut" || !s.dealer) return "Waiting for the dealer to be chosen";
  if (s.phase === "deal") return "Waiting for the starter";
  if (s.phase === "play") return s.next ? `${who(s.next)} to play` : "Watching the play";
  if (s.phase === "show") {
    if (s.next === "crib") return "Waiting for the crib";
    return s.next ? `Waiting for ${who(s.next)}'s hand` : "Watching the show";
  }
  return "Watching the table";
}
function renderWords(st) {
  const e = st && typeof st.expect === "string" && st.expect.trim();
  // the demo paused for a game started on the page: why, in the server's words
  const paused = st && typeof st.paused === "string" && st.paused.trim();
  $("#cam-expect").textContent = paused || (e ? expectWords(e) : expectFromGame(st));
  const last = st && st.last;
  const l = $("#cam-last");
  l.hidden = !(last && (last.say || last.card));
  l.textContent = l.hidden ? "" : `Last read: ${last.say || cardLabel(last.card)}`;
  renderSeats(st && st.seats);
}
/* the seats found from the cards (crib serve --zones auto, or no zones saved) */
function renderSeats(seats) {
  let p = $("#cam-seats");
  if (!p) { p = el("p", { id: "cam-seats", class: "cam-last" }); $("#cam-last").after(p); }
  p.hidden = !seats;
  if (!seats) return;
  const s = camState();
  const who = (seat) => (s ? S.name(s, seat) : seat);
  p.textContent = seats.settled
    ? `Seats found from the cards: ${Object.entries(seats.edges).map(([seat, edge]) => `${who(seat)} ${edge}`).join(", ")}`
    : "Seats: found from the first card of the play";
}

function camUpdate(st) {
  cam.status = st;
  if (!st) return;
  camGame(st);
  renderWords(st);
  const tracker = $("#cam-tracker");
  tracker.dataset.now = st.tracker || "";
  trackerLine.feed(st.tracker);
  const bits = [`Camera ${st.state}`, st.source];
  if (typeof st.fps === "number") bits.push(`${st.fps.toFixed(1)} fps`);
  if (st.frames) bits.push(`${st.frames} frames`);
  const followed = camState();
  const shown = app.state && app.state.game;
  if (st.game && st.game === shown) bits.push("following this game");
  else if (st.game) bits.push(`following ${followed ? S.sides(followed).map((d) => d.name).join(" v ") : "another game"} (game ${st.game}, not the one shown)`);
  else bits.push("following no game");
  $("#cam-state").textContent = bits.filter(Boolean).join(" · ");
  const note = $("#cam-note");
  note.hidden = !["ended", "stopped", "failed"].includes(st.state);
  note.textContent = st.state === "ended" ? "The camera's video has ended: nothing more will be read."
    : st.state === "failed" ? `The camera is off: ${st.error || "it failed"} (retrying cannot mend it: fix it, then restart crib serve).`
      : "The camera is stopped.";
  if (!cam.dirty && !cam.drag && st.zones) { cam.zones = clone(st.zones); drawZones(); }
  else relabelZones();
  renderFlagged(st.flagged || []);
  camSnap();
}
function clone(x) { return JSON.parse(JSON.stringify(x)); }

/* ---------- the snapshot: one at a time, at most two a second, only while the tab is seen ---------- */
async function camSnap() {
  if (cam.timer || cam.loading || !cam.status) return;
  if (!camTabShown()) { $("#cam-view").dataset.snap = "off"; return; }
  $("#cam-view").dataset.snap = "on";
  cam.loading = true;
  let wait = 500;
  try {
    const res = await fetch(`/api/camera/snapshot.jpg?t=${Date.now()}`, { cache: "no-store", credentials: "same-origin" });
    if (!res.ok) throw new Error(String(res.status));
    const url = URL.createObjectURL(await res.blob());
    const img = $("#cam-img");
    img.onload = () => {
      if (img.naturalWidth && cam.aspect !== img.naturalWidth / img.naturalHeight) {
        cam.aspect = img.naturalWidth / img.naturalHeight;
        $("#cam-view").style.aspectRatio = `${img.naturalWidth} / ${img.naturalHeight}`;
      }
    };
    img.src = url;
    if (cam.url) URL.revokeObjectURL(cam.url);
    cam.url = url;
    $("#cam-noframe").hidden = true;
  } catch (e) {
    $("#cam-noframe").hidden = !!cam.url;
    wait = 2000;
  } finally {
    cam.loading = false;
  }
  // the status too (its frame count), every 2 s while the tab is seen: the stream tells changes only
  // (without the stream camera-watch.js asks every 2 s already)
  if (app.es && Date.now() - (cam.statusAt || 0) >= 2000) { cam.statusAt = Date.now(); camLoad(); }
  cam.timer = setTimeout(() => { cam.timer = null; camSnap(); }, wait);
}

/* ---------- zones: translucent rectangles over the frame, dragged and resized by pointer ---------- */
function zoneKeys() {
  const z = cam.zones || {};
  return [...Object.keys(z.seats || {}).sort(), ...(z.centre ? ["centre"] : [])];  // the centre on top
}
function zoneRect(key) { return key === "centre" ? cam.zones.centre : cam.zones.seats[key]; }
function setZoneRect(key, r) { if (key === "centre") cam.zones.centre = r; else cam.zones.seats[key] = r; }
function zoneLabel(key) {
  if (key === "centre") return "Centre";
  const s = camState();
  const name = s ? S.name(s, key) : key;
  return name && name !== key ? name : `Player ${key.charCodeAt(0) - 64}`;  // no game: its place at the table
}
function labelSide(key, r) {
  // the zone's edge nearest the frame's edge, where the player sits: away from the cards laid
  if (key === "centre") return "top";
  const dx = (r[0] + r[2]) / 2 - 0.5, dy = (r[1] + r[3]) / 2 - 0.5;
  if (Math.abs(dy) >= Math.abs(dx)) return dy >= 0 ? "bottom" : "top";
  return dx < 0 ? "left" : "right";
}
function placeZone(box, r) {
  box.style.left = `${r[0] * 100}%`; box.style.top = `${r[1] * 100}%`;
  box.style.width = `${(r[2] - r[0]) * 100}%`; box.style.height = `${(r[3] - r[1]) * 100}%`;
  const label = $(".label", box);
  if (label) label.className = `label at-${labelSide(box.dataset.zone, r)}`;
}
function drawZones() {
  const keys = cam.zones ? zoneKeys() : [];
  $("#cam-zones").replaceChildren(...keys.map((key, i) => {
    const box = el("div", { class: `zone z${key === "centre" ? "c" : i % 4}`, "data-zone": key },
      el("span", { class: "label" }, zoneLabel(key)),
      el("span", { class: "h tl", "aria-label": `resize ${zoneLabel(key)} from its top left` }),
      el("span", { class: "h br", "aria-label": `resize ${zoneLabel(key)} from its bottom right` }));
    placeZone(box, zoneRect(key));
    return box;
  }));
  $("#cam-save").disabled = !cam.dirty;
}
function relabelZones() {
  for (const box of $$("#cam-zones .zone")) $(".label", box).textContent = zoneLabel(box.dataset.zone);
}
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
$("#cam-zones").addEventListener("pointerdown", (ev) => {
  const box = ev.target.closest(".zone");
  if (!box || !cam.zones) return;
  const area = $("#cam-zones").getBoundingClientRect();
  const mode = ev.target.classList.contains("tl") ? "tl" : ev.target.classList.contains("br") ? "br" : "move";
  cam.drag = { key: box.dataset.zone, mode, id: ev.pointerId, x: ev.clientX, y: ev.clientY,
    w: area.width || 1, h: area.height || 1, start: zoneRect(box.dataset.zone).slice(), box };
  box.classList.add("dragging");
  box.setPointerCapture(ev.pointerId);
  ev.preventDefault();
});
$("#cam-zones").addEventListener("pointermove", (ev) => {
  const d = cam.drag;
  if (!d || ev.pointerId !== d.id) return;
  const s = d.start, r = s.slice();
  const dx = (ev.clientX - d.x) / d.w, dy = (ev.clientY - d.y) / d.h;
  if (d.mode === "move") {
    const mx = clamp(dx, -s[0], 1 - s[2]), my = clamp(dy, -s[1], 1 - s[3]);
    r[0] = s[0] + mx; r[2] = s[2] + mx; r[1] = s[1] + my; r[3] = s[3] + my;
  } else if (d.mode === "tl") {
    r[0] = clamp(s[0] + dx, 0, s[2] - MIN_ZONE); r[1] = clamp(s[1] + dy, 0, s[3] - MIN_ZONE);
  } else {
    r[2] = clamp(s[2] + dx, s[0] + MIN_ZONE, 1); r[3] = clamp(s[3] + dy, s[1] + MIN_ZONE, 1);
  }
  setZoneRect(d.key, r.map((v) => Math.round(v * 10000) / 10000));
  placeZone(d.box, zoneRect(d.key));
  if (!cam.dirty) { cam.dirty = true; $("#cam-save").disabled = false; }
});
function endDrag(ev) {
  if (!cam.drag || ev.pointerId !== cam.drag.id) return;
  cam.drag.box.classList.remove("dragging");
  cam.drag = null;
}
$("#cam-zones").addEventListener("pointerup", endDrag);
$("#cam-zones").addEventListener("pointercancel", endDrag);
$("#cam-save").addEventListener("click", async () => {
  const r = await send("PUT", "/api/camera/zones", cam.zones);
  if (!r) return;
  cam.dirty = false;
  if (r.in_use === false) {
    // zones for another size of table: kept for it, the game in progress keeps its own
    const z = await send("GET", "/api/camera/zones");
    if (z) cam.zones = z;
    drawZones();
    toast(`Zones kept for a table of ${r.players}; this game keeps its zones`);
    return;
  }
  cam.zones = { players: r.players, centre: r.centre, seats: r.seats };
  drawZones();
  toast("Zones saved");
});
$("#cam-reset").addEventListener("click", async () => {
  const r = await send("GET", "/api/camera/zones");
  if (r) { cam.zones = r; cam.dirty = false; drawZones(); }
});

/* ---------- flagged readings: the follower's words and one-tap answers ---------- */
function whereWords(zone) {
  if (zone === "centre") return "in the centre";
  return zone ? `in ${zoneLabel(zone)}'s row` : "outside the zones";
}
function reasonWords(reason) {
  // the follower's reason, with names for seat letters ("a card laid in A's zone")
  return String(reason || "").replace(/\b([A-D])'s zone\b/g, (_, k) => `${zoneLabel(k)}'s row`);
}
function flagSay(f) {
  if (f.say) return f.say;
  const kind = f.kind || (f.event && f.event.type) || "play";
  const read = f.card ? cardLabel(f.card) : null;
  const where = whereWords(f.zone);
  if (kind === "crib-all") return `The crib ${(f.likely || []).map(cardLabel).join(" ")}: is it right?`;
  if (kind === "starter") return read ? `${read} ${where}: is it the starter?` : `A card ${where} I can't read: the starter?`;
  if (kind === "crib") return read ? `${read} in the crib?` : "A card of the crib I can't read";
  if (!f.event && f.zone !== "centre" && f.zone) return read ? `${read} ${where}: whose is it?` : `A card ${where} I can't read`;
  if (!f.event) return read ? `${read} laid ${where}: whose is it?` : `A card laid ${where}: whose is it?`;
  return read ? `${read} ${where}?` : `A card ${where} I can't read`;
}
function flagChoices(f) {
  // the follower's one-tap answers; without them, the page's own from the reading
  let choices = Array.isArray(f.choices) ? f.choices.filter((c) => c && c.action && c.label) : null;
  if (!choices || !choices.length) {
    choices = [];
    const kind = f.kind || (f.event && f.event.type) || "play";
    if (f.event && f.card) {
      choices.push({ label: `Accept ${cardLabel(f.card)}${kind === "starter" ? " as the starter" : ""}`, action: "accept" });
    }
    for (const c of f.likely || []) {
      if (c === f.card && f.event) continue;
      if (f.event) choices.push({ label: `It's ${cardLabel(c)}`, action: "fix", card: c });
    }
  }
  // always a way to name another card, and to say it is no card at all
  if (!choices.some((c) => c.action === "fix" && !c.card && !c.seat)) choices.push({ label: "Another card…", action: "fix" });
  if (!choices.some((c) => c.action === "dismiss")) choices.push({ label: "Not a card", action: "dismiss" });
  return choices;
}
function renderFlagged(flags) {
  const names = S.players(camState()).map((p) => `${p.seat}=${p.name}`).join(",");
  const key = JSON.stringify([flags, names]);
  if (key === cam.flagsKey) return;  // the same flags: leave the buttons (and an open picker) alone
  cam.flagsKey = key;
  if (cam.picking && !flags.some((f) => f.id === cam.picking.id)) cam.picking = null;
  $("#cam-flagged-wrap").hidden = !flags.length;
  $("#cam-flagged").replaceChildren(...flags.map((f) => {
    const choices = flagChoices(f);
    let primary = false;
    const buttons = choices.map((c, i) => {
      const first = c.action === "accept" && !primary;
      if (first) primary = true;
      return el("button", { type: "button", class: first ? "primary" : c.action === "dismiss" ? "ghost" : "",
        "data-action": c.action, "data-card": c.card || null, "data-seat": c.seat || null, "data-choice": i,
        "aria-expanded": c.action === "fix" && !c.card
          ? String(!!cam.picking && cam.picking.id === f.id && cam.picking.index === i) : null,
        onclick: () => choose(f, c, i) }, c.label);
    });
    const sure = typeof f.confidence === "number" && f.confidence > 0 ? `${Math.round(f.confidence * 100)}% sure` : "";
    // the reason, unless it only asks again what the follower's words ask ("whose is it?")
    const reason = f.say && /\?$/.test(String(f.reason || "")) ? "" : reasonWords(f.reason);
    const hint = [reason, sure].filter(Boolean).join(", ");
    const picker = el("div", { class: "picker cam-picker", role: "group", "aria-label": "the card it is" });
    showPicker(picker, f);
    return el("li", { "data-flag": f.id },
      f.crop ? el("img", { class: "crop", alt: "what the camera saw", width: 96, height: 128,
        src: `/api/camera/crops/${encodeURIComponent(String(f.crop).split("/").pop())}` }) : null,
      el("div", {},
        el("b", { class: "say" }, flagSay(f)),
        hint ? el("p", { class: "hint" }, hint) : null,
        el("div", { class: "row" }, ...buttons)),
      picker);
  }));
}
function showPicker(picker, f) {
  if (cam.picking && cam.picking.id === f.id) {
    if (!picker.children.length) buildPicker(picker, (card) => resolveFlag(f, cam.picking.choice, card));
    const seen = S.seen(camState());
    for (const b of $$(".pick", picker)) b.classList.toggle("seen", seen.has(b.dataset.card));
    picker.hidden = false;
  } else picker.hidden = true;
}
function choose(f, choice, index) {
  if (choice.action === "fix" && !choice.card) {  // name the card: the picker opens (or closes) in place
    const open = !(cam.picking && cam.picking.id === f.id && cam.picking.index === index);
    cam.picking = open ? { id: f.id, choice, index } : null;
    for (const li of $$("#cam-flagged li")) {
      const mine = li.dataset.flag === String(f.id);
      for (const b of $$("button[aria-expanded]", li)) {
        b.setAttribute("aria-expanded", String(open && mine && b.dataset.choice === String(index)));
      }
      showPicker($(".cam-picker", li), mine ? f : { id: null });
    }
    return;
  }
  resolveFlag(f, choice);
}
async function resolveFlag(f, choice, picked) {
  const body = { action: choice.action };
  const card = picked || choice.card;
  if (card && choice.action !== "dismiss") body.card = card;
  if (choice.seat) body.seat = choice.seat;
  const r = await send("POST", `/api/camera/flagged/${f.id}`, body);
  if (!r) return;
  cam.picking = null;
  if (r.state && r.state.game && r.state.game === app.gameId) render(r.state);
  const named = card || f.card || (f.event && f.event.card);
  toast(choice.action === "dismiss" ? "Dropped: not a card"
    : `Recorded ${named ? cardLabel(named) : "it"}${choice.seat ? ` for ${zoneLabel(choice.seat)}` : ""}`);
  camLoad();
}

/* ---------- start ---------- */
/* the Set-up step (the camera checks, live): setup.js and setup.css, fetched when first pressed */
$("#cam-expect").before(el("button", { id: "cam-setup-open", type: "button", class: "ghost", "aria-expanded": "false",
  onclick: () => (window.Crib.setupToggle ? window.Crib.setupToggle()
    : loadScript($("#camera").dataset.script.replace(/camera\.js$/, "setup.js"))) }, "Set up the camera"));
camWatch.show = camUpdate;
window.addEventListener("hashchange", () => { if (location.hash === "#camera") camSnap(); });
document.addEventListener("visibilitychange", camSnap);
setInterval(() => {  // the game moved on (names, whose turn): the words follow, while the tab is seen
  if (!cam.status || !camTabShown() || app.lastJson === cam.stateJson) return;
  cam.stateJson = app.lastJson;
  renderWords(cam.status);
  relabelZones();
  renderFlagged(cam.status.flagged || []);
}, 1000);
if (camWatch.status) camUpdate(camWatch.status); else camLoad();

Object.assign(window.Crib, { cam, camState });  // setup.js: the game the camera follows (cam: read by the browser tests)
})();
