/* Cribbage Companion page, the Camera tab's Set-up step: crib camera check's checks, live. Each
   check with ✓ or ✗ (or … while it waits for cards to judge), its advice in players' words and a
   small picture of what it means, asked
   of GET /api/camera/checks about once a second while the step is open and the tab is seen, one
   request at a time; the step ends with "Lay one card in front of each player".
   Fetched by camera.js's "Set up the camera" button when it is first pressed (not with the
   page), with its own setup.css. Uses app.js's $, el, api and camera.js's cam, camState. */
(() => {
"use strict";
const { $, api, el } = window.Crib;

const setup = { open: false, timer: null, busy: false, report: null };
const SETUP_EVERY_MS = 1000;
const SETUP_TITLES = {
  light: "Light on the table", focus: "Focus", distance: "Camera height", glare: "Glare",
  flicker: "Flicker", contrast: "Cards against the table", tilt: "Camera straight down",
};
/* the pictures: 48×48, drawn in currentColor (green when the check passes, red when not) */
const CARD = '<rect x="15" y="22" width="18" height="24" rx="2" fill="#fff" stroke="currentColor" stroke-width="2"/>';
const SETUP_ICONS = {
  light: '<path d="M14 4h20l5 10H9z" fill="currentColor"/><path d="M24 15v3M15 17l-2 3M33 17l2 3" ' +
    'stroke="currentColor" stroke-width="2"/>' + CARD,
  focus: '<rect x="10" y="6" width="28" height="36" rx="3" fill="#fff" stroke="currentColor" stroke-width="2"/>' +
    '<text x="14" y="22" font-size="14" font-weight="700" font-family="sans-serif" fill="currentColor">A</text>' +
    '<path d="M4 4h8M4 4v8M44 4h-8M44 4v8M4 44h8M4 44v-8M44 44h-8M44 44v-8" stroke="currentColor" stroke-width="2" fill="none"/>',
  distance: '<rect x="18" y="2" width="12" height="8" rx="1" fill="currentColor"/>' +
    '<path d="M24 12v16M20 16l4-4 4 4M20 24l4 4 4-4" stroke="currentColor" stroke-width="2" fill="none"/>' +
    '<path d="M4 44h40" stroke="currentColor" stroke-width="3"/><rect x="19" y="34" width="10" height="10" fill="#fff" ' +
    'stroke="currentColor" stroke-width="1.5"/>',
  glare: CARD.replace('y="22"', 'y="14"') + '<circle cx="27" cy="22" r="5" fill="#fde68a" stroke="currentColor"/>' +
    '<path d="M6 4l8 8M14 4l-2 8" stroke="currentColor" stroke-width="2"/>',
  flicker: '<circle cx="24" cy="14" r="9" fill="none" stroke="currentColor" stroke-width="2"/>' +
    '<path d="M20 24h8v5h-8z" fill="currentColor"/><path d="M4 36q5-6 10 0t10 0 10 0 10 0M4 44q5-6 10 0t10 0 10 0 10 0" ' +
    'stroke="currentColor" stroke-width="2" fill="none"/>',
  contrast: '<rect x="2" y="8" width="44" height="32" rx="3" fill="#14532d"/>' +
    '<rect x="15" y="12" width="18" height="24" rx="2" fill="#fff" stroke="currentColor" stroke-width="2"/>',
  tilt: '<rect x="18" y="2" width="12" height="8" rx="1" fill="currentColor"/>' +
    '<path d="M24 11v10" stroke="currentColor" stroke-width="2" stroke-dasharray="3 2"/>' +
    '<path d="M17 26h14v18H17z" fill="#fff" stroke="currentColor" stroke-width="2"/>' +
    '<path d="M13 26l4 0M35 26l-4 0" stroke="currentColor" stroke-width="2"/>',
  cards: '<rect x="3" y="26" width="14" height="19" rx="2" fill="#fff" stroke="currentColor" stroke-width="2"/>' +
    '<rect x="31" y="3" width="14" height="19" rx="2" fill="#fff" stroke="currentColor" stroke-width="2"/>' +
    '<path d="M4 13h12M32 36h12" stroke="currentColor" stroke-width="2" stroke-dasharray="2 2"/>',
};
function setupIcon(name) {
  const span = el("span", { class: "setup-pic", "aria-hidden": "true" });
  span.innerHTML = `<svg viewBox="0 0 48 48" width="44" height="44">${SETUP_ICONS[name] || ""}</svg>`;  // constant markup
  return span;
}

function setupBuild() {
  const css = $("#camera").dataset.script.replace(/camera\.js$/, "setup.css");
  if (!$(`link[href="${css}"]`)) document.head.append(el("link", { rel: "stylesheet", href: css }));
  const step = el("section", { id: "cam-setup", class: "panel cam-setup", "aria-labelledby": "setup-h", hidden: true },
    el("h2", { id: "setup-h" }, "Set up the camera"),
    el("p", { id: "setup-verdict", class: "setup-verdict", "aria-live": "polite" }, "Looking at the table…"),
    el("ol", { id: "setup-checks", class: "setup-checks" }),
    el("p", { id: "setup-last", class: "setup-last" }, setupIcon("cards"),
      el("span", { id: "setup-last-mark", class: "setup-mark", role: "img", "aria-label": "to do" }, "→"),
      el("span", {}, el("b", {}, "Lay one card in front of each player"),
        el("span", { id: "setup-cards", class: "hint" }, ""))),
    el("div", { class: "row" }, el("button", { id: "setup-done", type: "button", class: "primary",
      onclick: () => setupToggle(false) }, "Done")));
  $("#cam-setup-open").after(step);
}

function setupVerdict(r) {
  const titles = (list) => list.map((c) => SETUP_TITLES[c.name] || c.name).join(", ").toLowerCase();
  const fix = r.checks.filter((c) => !c.ok), waiting = r.checks.filter((c) => c.waiting);
  if (fix.length) return `Fix before the first deal: ${titles(fix)}`;
  if (!r.cards) return "Now lay the cards: the checks wait for them";
  return waiting.length ? `Still to judge: ${titles(waiting)}` : "Ready to play";
}
/* a check: "yes" passed, "no" to fix, "wait" not judged yet (no card, or a blurred picture) */
function setupOk(c) { return !c.ok ? "no" : c.waiting ? "wait" : "yes"; }
const SETUP_MARKS = { yes: ["✓", "good"], no: ["✗", "to fix"], wait: ["…", "waiting"] };
function setupShow(r) {
  setup.report = r;
  $("#setup-checks").dataset.frame = String(r.frame);  // which frame was checked (the newest then)
  $("#setup-verdict").textContent = setupVerdict(r);
  $("#setup-verdict").dataset.ok = r.ok ? "yes" : r.checks.some((c) => !c.ok) ? "no" : "wait";
  $("#setup-checks").replaceChildren(...r.checks.map((c) => {
    const ok = setupOk(c), [mark, said] = SETUP_MARKS[ok];
    return el("li", { "data-check": c.name, "data-ok": ok }, setupIcon(c.name),
      el("span", { class: "setup-mark", role: "img", "aria-label": said }, mark),
      el("span", {}, el("b", {}, SETUP_TITLES[c.name] || c.name), el("span", { class: "setup-say" }, c.say)));
  }));
  const players = ((window.Crib.camState && window.Crib.camState()) || {}).players;
  const want = Array.isArray(players) && players.length ? players.length : 2;
  const laid = r.read >= want;  // a card read in front of each player, not a shape seen
  $("#setup-last").dataset.ok = laid ? "yes" : "no";
  $("#setup-last-mark").textContent = laid ? "✓" : "→";
  $("#setup-last-mark").setAttribute("aria-label", laid ? "done" : "to do");
  $("#setup-cards").textContent = r.cards
    ? ` — ${r.cards} card${r.cards === 1 ? "" : "s"} seen, ${r.read} read` + (r.read < want ? `: ${want} to read` : "")
    : " — face up, where that player plays: focus, height, glare and tilt are judged on the cards";
}

function setupSeen() { return setup.open && !$("#camera").hidden && document.visibilityState === "visible"; }
async function setupRefresh() {
  if (setup.timer || setup.busy || !setupSeen()) return;
  setup.busy = true;
  const asked = Date.now();
  try {
    setupShow(await api("GET", "/api/camera/checks"));
  } catch (e) {
    const m = e.message || "the camera gives no picture to check yet";  // 409: lost, or no frame yet
    $("#setup-verdict").textContent = m[0].toUpperCase() + m.slice(1);
    $("#setup-verdict").dataset.ok = "no";
  } finally {
    setup.busy = false;
  }
  // once a second from one asking to the next (the answer's own time counted), never two at once
  const wait = Math.max(200, SETUP_EVERY_MS - (Date.now() - asked));
  if (setupSeen()) setup.timer = setTimeout(() => { setup.timer = null; setupRefresh(); }, wait);
}
function setupToggle(open = !setup.open) {
  setup.open = open;
  $("#cam-setup").hidden = !open;
  $("#cam-setup-open").setAttribute("aria-expanded", String(open));
  if (open) setupRefresh();
  else { clearTimeout(setup.timer); setup.timer = null; }
}

setupBuild();
window.addEventListener("hashchange", setupRefresh);
document.addEventListener("visibilitychange", setupRefresh);
setupToggle(true);  // fetched because the button was pressed

window.Crib.setupToggle = setupToggle;  // camera.js: the "Set up the camera" button
})();
