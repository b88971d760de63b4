/* Cribbage Companion page, the camera on every tab: the Camera tab's link, the "camera lost"
   banner (lost, retrying; or failed, off until fixed) and the camera's status (the stream's event: camera; polling, GET /api/camera every
   2 s). The Camera tab's camera.js is fetched when the tab first opens. Loaded after app.js
   (window.Crib) only when the table has a camera. */
(() => {
"use strict";
const { $, el, api, app, loadScript } = window.Crib;

const camWatch = { status: null, show: null, pushed: 0 };  // show: camera.js's renderer, once loaded

function camWatchUpdate(st) {
  camWatch.status = st;
  $('#tabs a[data-tab="camera"]').hidden = !st;
  const banner = $("#cam-banner");
  const lost = !!st && st.state === "lost", failed = !!st && st.state === "failed";
  banner.hidden = !lost && !failed;
  if (lost) {
    banner.textContent = `Camera lost: ${st.error || "no picture"} — retrying` +
      (st.retries ? ` (${st.retries})` : "") + "; play by hand meanwhile.";
  }
  // failed in a way retrying cannot mend (picamera2 will not import): its fix, then a restart
  if (failed) banner.textContent = `Camera off: ${st.error || "it failed"}; play by hand.`;
  // a game the camera started at a deal it saw: said on every tab through its first deal
  const s = st && st.started, g = app.state;
  let note = $("#cam-started");
  if (s && !note) banner.after(note = el("p", { id: "cam-started", class: "panel", role: "status" }));
  if (note) {
    note.hidden = !s || (g && g.game === s.game && g.deal > 1);
    note.replaceChildren(...(note.hidden ? [] : [`${s.say} `, el("a", { href: "#new" }, "Name the players")]));
  }
  if (camWatch.show) camWatch.show(st);
}
async function camWatchLoad() {
  const pushed = camWatch.pushed;  // a status the stream pushes meanwhile is newer than this answer
  try {
    const st = await api("GET", "/api/camera");
    if (camWatch.pushed === pushed) camWatchUpdate(st);
  } catch (e) { if (e.status === 404) camWatchUpdate(null); }
}
function camWatchPushed(st) {
  camWatch.pushed += 1;
  camWatchUpdate(st);
}
function camWatchTab() {
  if (location.hash === "#camera") loadScript($("#camera").dataset.script);
}

app.onCamera = camWatchPushed;
app.onLive = camWatchLoad;  // the stream (re)opened: catch up on what it missed
window.addEventListener("hashchange", camWatchTab);
setInterval(() => { if (!app.es && document.visibilityState === "visible") camWatchLoad(); }, 2000);  // polling
camWatchLoad();
camWatchTab();

Object.assign(window.Crib, { camWatch, camWatchLoad });  // for camera.js
})();
