/* Cribbage Companion page, the camera: the Camera tab (live snapshot, zones to drag, flagged
   readings to settle) and the "camera lost" banner on every tab. Loaded after app.js (its
   helpers: $, el, api, send, toast, render, app, S, cardLabel) only when the table has a camera.
   Updates come over the live stream (event: camera); while the page polls, so does this. */
"use strict";

const cam = {
  status: null, zones: null, dirty: false, drag: null,
  timer: null, loading: false, url: null, aspect: null,
};
const MIN_ZONE = 0.05;  // a zone is at least 5% of the frame each way
const TRACKER_TEXT = {
  "watching": "Watching the table",
  "hand over the table": "A hand is over the table: waiting",
  "waiting for a confirmation": "Waiting for a confirmation",
  "paused": "Paused",
};

function camTabShown() { return !$("#camera").hidden && document.visibilityState === "visible"; }

async function camLoad() {
  try { camUpdate(await api("GET", "/api/camera")); }
  catch (e) { if (e.status === 404) camUpdate(null); }
}

function camUpdate(st) {
  cam.status = st;
  $('#tabs a[data-tab="camera"]').hidden = !st;
  const banner = $("#cam-banner");
  const lost = !!st && st.state === "lost";
  banner.hidden = !lost;
  if (lost) {
    banner.textContent = `Camera lost: ${st.error || "no picture"} — retrying` +
      (st.retries ? ` (${st.retries})` : "") + "; play by hand meanwhile.";
  }
  if (!st) return;
  $("#cam-tracker").textContent = TRACKER_TEXT[st.tracker] || st.tracker || "–";
  const bits = [`Camera ${st.state}`, st.source];
  if (typeof st.fps === "number") bits.push(`${st.fps.toFixed(1)} fps`);
  if (st.frames) bits.push(`${st.frames} frames`);
  if (st.game) bits.push(`game ${st.game}`);
  $("#cam-state").textContent = bits.filter(Boolean).join(" · ");
  const note = $("#cam-note");
  note.hidden = !["ended", "stopped"].includes(st.state);
  note.textContent = st.state === "ended" ? "The camera's video has ended: nothing more will be read."
    : "The camera is stopped.";
  if (!cam.dirty && !cam.drag && st.zones) { cam.zones = clone(st.zones); drawZones(); }
  else for (const label of $$("#cam-zones .zone")) $(".label", label).textContent = zoneLabel(label.dataset.zone);
  renderFlagged(st.flagged || []);
  camSnap();
}
function clone(x) { return JSON.parse(JSON.stringify(x)); }

/* ---------- the snapshot: one at a time, at most two a second, only while the tab is seen ---------- */
async function camSnap() {
  if (cam.timer || cam.loading || !cam.status || !camTabShown()) return;
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
  const name = app.state ? S.name(app.state, key) : key;
  return name && name !== key ? name : `Player ${key.charCodeAt(0) - 64}`;  // no game: its place at the table
}
function placeZone(box, r) {
  box.style.left = `${r[0] * 100}%`; box.style.top = `${r[1] * 100}%`;
  box.style.width = `${(r[2] - r[0]) * 100}%`; box.style.height = `${(r[3] - r[1]) * 100}%`;
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
  if (r) { cam.zones = r; cam.dirty = false; drawZones(); toast("Zones saved"); }
});
$("#cam-reset").addEventListener("click", async () => {
  const r = await send("GET", "/api/camera/zones");
  if (r) { cam.zones = r; cam.dirty = false; drawZones(); }
});

/* ---------- flagged readings: accept, fix the card, or not a card ---------- */
function renderFlagged(flags) {
  $("#cam-flagged-wrap").hidden = !flags.length;
  $("#cam-flagged").replaceChildren(...flags.map((f) => {
    const read = (f.event && f.event.card) || f.card || null;
    const buttons = [];
    if (f.event && read) buttons.push(el("button", { type: "button", class: "primary", "data-action": "accept", "data-card": read,
      onclick: () => resolveFlag(f, "accept") }, `Accept ${cardLabel(read)}`));
    for (const c of f.likely || []) {
      if (c === read && f.event) continue;
      buttons.push(el("button", { type: "button", "data-action": "fix", "data-card": c,
        onclick: () => resolveFlag(f, "fix", c) }, `It's ${cardLabel(c)}`));
    }
    buttons.push(el("button", { type: "button", class: "ghost", "data-action": "dismiss",
      onclick: () => resolveFlag(f, "dismiss") }, "Not a card"));
    const where = f.zone === "centre" || !f.zone ? "centre" : zoneLabel(f.zone);
    const sure = typeof f.confidence === "number" ? `, ${Math.round(f.confidence * 100)}% sure` : "";
    return el("li", { "data-flag": f.id },
      f.crop ? el("img", { class: "crop", alt: "what the camera saw", width: 96, height: 128,
        src: `/api/camera/crops/${encodeURIComponent(String(f.crop).split("/").pop())}` }) : null,
      el("div", {},
        el("b", {}, read ? `${cardLabel(read)}?` : "Unreadable card"), ` ${where}, frame ${f.frame}${sure}`,
        el("p", { class: "hint" }, f.reason || ""),
        el("div", { class: "row" }, ...buttons)));
  }));
}
async function resolveFlag(f, action, card) {
  const body = { action };
  if (card) body.card = card;
  const r = await send("POST", `/api/camera/flagged/${f.id}`, body);
  if (!r) return;
  if (r.state && r.state.game && r.state.game === app.gameId) render(r.state);
  toast(action === "dismiss" ? "Dropped: not a card" : `Recorded ${cardLabel(card || (f.event && f.event.card) || f.card)}`);
  camLoad();
}

/* ---------- start ---------- */
app.onCamera = camUpdate;
app.onLive = camLoad;  // the stream (re)opened: catch up on what it missed
window.addEventListener("hashchange", () => { if (location.hash === "#camera") camSnap(); });
document.addEventListener("visibilitychange", camSnap);
setInterval(() => { if (!app.es && document.visibilityState === "visible") camLoad(); }, 2000);  // polling
camLoad();
