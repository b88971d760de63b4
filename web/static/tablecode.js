/* The table code (web/tablecode.py): a device needs it once to change the game.
   A device already admitted sees the code in words and as a QR code at the top of the New tab;
   any other gets a Join button in the header and a form for the code, opened too when a change
   is refused for want of it (app.js sends "tablecode:needed"). A ?code= link that was not this
   table's is said here. Plain JavaScript, nothing loaded from outside. */
"use strict";
(() => {
  const q = (sel) => document.querySelector(sel);
  function make(tag, attrs = {}, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) if (v !== false) e.setAttribute(k, v === true ? "" : v);
    e.append(...kids);
    return e;
  }

  const joinBtn = make("button", { id: "join-btn", class: "small", type: "button", hidden: true }, "Join");
  const input = make("input", { name: "code", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", maxlength: "12", size: "8", placeholder: "6 letters" });
  const said = make("p", { class: "hint bad", "aria-live": "polite", hidden: true });
  const form = make("form", { id: "join", class: "panel", hidden: true },
    make("label", {}, "Table code ", input), " ", make("button", { class: "primary" }, "Join"),
    make("p", { class: "hint" }, "Anyone can watch. To change the game, a phone needs the table's code once: "
      + "ask a player (it is on their New tab, with a QR code to scan)."),
    said);
  const codeWords = make("p", { class: "tc-code", "aria-label": "table code" });
  const qr = make("img", { class: "tc-qr", alt: "QR code: the table's address with its code", width: "232",
    height: "232", loading: "lazy" });
  const link = make("p", { class: "hint tc-link" });
  const panel = make("section", { id: "table-code", class: "panel", hidden: true },
    make("h2", {}, "Table code"), codeWords, qr, link);

  const header = q("header"), unlock = q("#unlock"), newTab = q("#new");
  if (header) header.append(joinBtn);
  if (unlock) unlock.after(form); else document.body.prepend(form);
  if (newTab) newTab.prepend(panel);

  let csrf = (q('meta[name="csrf-token"]') || {}).content || "";

  async function getJson(path) {
    const res = await fetch(path, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    return res.json();
  }

  async function refresh() {
    const s = await getJson("/api/code");
    joinBtn.hidden = s.admitted;
    if (s.admitted) form.hidden = true;
    panel.hidden = !s.admitted;
    if (!s.admitted) return s;
    codeWords.textContent = s.code;
    if (!qr.getAttribute("src")) qr.src = "/api/code.svg";
    link.textContent = (s.here ? `Phones scan this to join, or open ${s.address} and enter the code.`
      : `Another phone scans this to join, or opens ${s.address} and enters the code.`)
      + " Anyone with it can change the game.";
    return s;
  }

  function open(message) {
    form.hidden = false;
    said.hidden = !message; said.textContent = message || "";
    form.scrollIntoView({ block: "nearest" });
    input.focus();
  }

  async function send(code, retried = false) {
    const res = await fetch("/api/code", {
      method: "POST", credentials: "same-origin",
      headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ code }),
    });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (res.status === 403 && data && data.need === "csrf" && !retried) {
      csrf = (await getJson("/api/session")).csrf;
      return send(code, true);
    }
    return { ok: res.ok, data };
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = await send(input.value);
    if (!r.ok) { open((r.data && r.data.error) || "That did not work: try again."); return; }
    input.value = ""; said.hidden = true;
    await refresh();
    const t = q("#toast");
    if (t) { t.textContent = "Joined: this phone can change the game"; t.className = ""; t.hidden = false;
      setTimeout(() => { t.hidden = true; }, 3000); }
  });
  joinBtn.addEventListener("click", () => open(""));
  document.addEventListener("tablecode:needed", () => open(""));

  // a ?code= link (the QR code) that was right was taken out of the address by the server; one
  // still here was not this table's code
  const params = new URLSearchParams(location.search);
  const linked = params.has("code");
  if (linked) {
    params.delete("code");
    history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : "") + location.hash);
  }
  refresh().then((s) => { if (linked && !s.admitted) open("That link's code is not this table's: ask a player for it."); })
    .catch(() => {});
})();
