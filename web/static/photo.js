/* Cribbage Companion page, the Photo tab: read the cards in a photo of a hand, fix them by
   tapping, choose the starter (any card not in the hand) and count the hand or crib; with no
   starter, the count for each possible one. Loaded after app.js (its helpers: $, el, api, send,
   toast, render, showChanges, app, S, cardLabel, cardEl, buildPicker). */
"use strict";

app.photo = { slots: [], sel: null, name: null, starter: null };

$("#photo-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const file = $("#photo-file").files[0];
  if (!file) return toast("Choose a photo first", true);
  const fd = new FormData();
  fd.append("photo", file);
  $("#photo-msg").textContent = "Reading…";
  const r = await send("POST", "/api/photos", fd);
  if (!r) { $("#photo-msg").textContent = ""; return; }
  app.photo.name = r.photo;
  const reading = r.reading;
  const cards = reading ? (reading.cards || []) : [];
  const unread = reading && Array.isArray(reading.unreadable) ? reading.unreadable.length : 0;
  $("#photo-msg").textContent = r.message || (reading
    ? `Read ${cards.length} card${cards.length === 1 ? "" : "s"}` + (unread ? `, ${unread} unreadable (ringed)` : "")
      + (cards.length ? ". Check them; tap one to fix it." : ": tap the cards in below.")
    : "");
  const view = $("#photo-view");
  view.hidden = false;
  const img = el("img", { src: r.url, alt: "your photo", width: r.width, height: r.height });
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${r.width} ${r.height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  for (const c of cards) {
    if (c.quad) {
      const poly = document.createElementNS(ns, "polygon");
      poly.setAttribute("points", c.quad.map((p) => p.join(",")).join(" "));
      svg.append(poly);
    }
    if (c.center) {
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", c.center[0]); t.setAttribute("y", c.center[1]);
      t.setAttribute("font-size", Math.max(r.width, r.height) / 26);
      t.setAttribute("text-anchor", "middle");
      t.textContent = cardLabel(c.card);
      svg.append(t);
    }
  }
  for (const u of (reading && Array.isArray(reading.unreadable)) ? reading.unreadable : []) {
    if (!u.center) continue;
    const ring = document.createElementNS(ns, "circle");
    ring.setAttribute("cx", u.center[0]); ring.setAttribute("cy", u.center[1]);
    ring.setAttribute("r", Math.max(r.width, r.height) / 30);
    ring.setAttribute("class", "unreadable");
    svg.append(ring);
  }
  view.replaceChildren(img, svg);
  app.photo.slots = cards.map((c) => c.card).slice(0, 5);
  // the starter is the card lying apart from the hand, when the reader saw one (vision.hand)
  app.photo.sel = null; app.photo.starter = (reading && reading.starter_apart) || null;
  renderPhotoCards();
});
function renderPhotoCards() {
  const slots = app.photo.slots;
  const box = $("#photo-cards");
  const items = slots.map((c, i) => {
    const e = cardEl(c, app.photo.sel === i ? "sel" : "");
    e.addEventListener("click", () => { app.photo.sel = app.photo.sel === i ? null : i; renderPhotoCards(); });
    return e;
  });
  if (slots.length < 5) items.push(el("span", { class: "card empty", onclick: () => { app.photo.sel = slots.length; renderPhotoCards(); } }, "+"));
  box.replaceChildren(...items);
  const st = $("#photo-starter");
  const gameStarter = app.state && app.state.starter;
  // the card lying apart, else the game's starter if it is in the photo; else the player says
  const want = slots.includes(app.photo.starter) ? app.photo.starter
    : slots.includes(gameStarter) ? gameStarter : "";
  st.replaceChildren(el("option", { value: "" }, "choose…"),
    ...slots.map((c) => el("option", { value: c }, cardLabel(c))));
  st.value = want;
}
$("#photo-starter").addEventListener("change", (ev) => { app.photo.starter = ev.target.value; });
function photoPick(name) {
  const slots = app.photo.slots;
  const i = app.photo.sel === null ? slots.length : app.photo.sel;
  if (slots.includes(name)) return toast(`${cardLabel(name)} is already there`, true);
  if (i >= 5) return toast("Five cards at most: four and the starter", true);
  slots[i] = name;
  app.photo.sel = null;
  renderPhotoCards();
}
$("#photo-count").addEventListener("click", async () => {
  const starter = $("#photo-starter").value;
  if (!starter) return toast("Choose the starter: no card lies apart from the others", true);
  const hand = app.photo.slots.filter((c) => c !== starter);
  const r = await send("POST", "/api/count", { hand, starter, crib: $("#photo-crib").checked });
  if (!r) return;
  $("#photo-result").replaceChildren(
    el("p", {}, el("b", {}, `${r.total}: `), r.spoken || "nineteen (nothing)"),
    el("ul", {}, ...(r.items || []).map((i) => el("li", {}, `${i.text || i.kind} — ${(i.cards || []).map(cardLabel).join(" ")}: ${i.points}`))),
    recordButton(hand, starter) || "");
});
function recordButton(hand, starter) {
  // in the show, the counted hand can go straight into the game for whoever counts next
  const s = app.state;
  if (!s || s.phase !== "show" || !s.next || s.starter !== starter) return null;
  const crib = s.next === "crib";
  const ev = crib ? { type: "crib", cards: hand } : { type: "show", seat: s.next, cards: hand };
  const label = crib ? `Record as ${S.name(s, s.dealer)}'s crib` : `Record as ${S.name(s, s.next)}'s hand`;
  return el("button", { type: "button", id: "photo-record", class: "primary", onclick: async () => {
    const r = await send("POST", `/api/games/${app.gameId}/events`, ev);
    if (r) { render(r.state); showChanges(r.changed, "Recorded"); $("#photo-record").remove(); }
  } }, label);
}

/* ---------- start ---------- */
buildPicker($("#photo-picker"), photoPick);
renderPhotoCards();
