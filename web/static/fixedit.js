/* Cribbage Companion page: the Fix tab's edit dialog (correct one event: its player, card(s) or
   claim, with a preview of what changes), fetched when the Fix tab first opens. Uses app.js's helpers. */
(() => {
"use strict";
const { $, $$, S, api, app, cardEl, el, loadEvents, render, send, showChanges } = window.Crib;

function openEdit(e) {
  const fix = e.event.type === "correct";
  const ev = fix ? e.event.with : e.event;
  const dlg = $("#edit");
  dlg.dataset.id = fix ? e.event.event : e.id;
  app.editing = ev;
  $("#edit-id").textContent = `#${dlg.dataset.id}`;
  $("#edit-what").textContent = e.said || "";
  $("#edit-seat").value = ev.seat || "";
  $("#edit-seat").disabled = !ev.seat;
  $("#edit-seat-l").hidden = !ev.seat;  // a starter or the crib has no player to change
  const many = Array.isArray(ev.cards);
  $("#edit-cards-l").hidden = !("card" in ev || many);
  $("#edit-picker").hidden = $("#edit-cards-l").hidden;
  $("#edit-cards").value = many ? ev.cards.join(" ") : "";  // one card: tap or type the right one
  renderEditPicked();
  $("#edit-claim").value = ev.claim === undefined ? "" : ev.claim;
  $("#edit-claim-l").hidden = ev.claim === undefined;
  $("#edit-preview").textContent = "";
  dlg.showModal();
}
/* the edit dialog's picker: a tap replaces the card (one-card events) or adds or drops one */
function editCards() { return $("#edit-cards").value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean); }
function renderEditPicked() {
  const ev = app.editing || {}, now = editCards();
  const was = ev.card ? [el("span", { class: "hint" }, "Now: "), cardEl(ev.card), now.length ? " → " : ""] : [];
  $("#edit-picked").replaceChildren(...was, ...now.map((c) => cardEl(c)));
  // the cards already seen in the game are greyed out, but for the event's own
  const seen = S.seen(app.state);
  for (const c of [].concat(ev.card || [], Array.isArray(ev.cards) ? ev.cards : [])) seen.delete(c);
  for (const b of $$("#edit-picker .pick")) {
    b.classList.toggle("on", now.includes(b.dataset.card));
    b.classList.toggle("seen", seen.has(b.dataset.card));
  }
}
function editPick(name) {
  const ev = app.editing || {};
  let now = editCards();
  if ("card" in ev) now = [name];
  else if (now.includes(name)) now = now.filter((c) => c !== name);
  else now.push(name);
  $("#edit-cards").value = now.join(" ");
  renderEditPicked();
  clearTimeout(app.previewTimer); app.previewTimer = setTimeout(previewEdit, 250);
}
$("#edit-cards").addEventListener("input", renderEditPicked);
function correction() {
  const repl = Object.assign({}, app.editing);
  delete repl.seen;  // a correction is the player's word, not the camera's
  if (repl.seat) repl.seat = $("#edit-seat").value;
  const cards = $("#edit-cards").value.trim();
  if ("card" in repl) repl.card = cards || app.editing.card;  // an empty box keeps the card
  else if ("cards" in repl) repl.cards = cards.split(/[\s,]+/).filter(Boolean);
  const claim = $("#edit-claim").value;
  if (claim !== "") repl.claim = Number(claim);
  return { type: "correct", event: Number($("#edit").dataset.id), with: repl };
}
async function previewEdit() {
  const out = $("#edit-preview");
  try {
    const r = await api("POST", `/api/games/${app.gameId}/preview`, correction());
    const text = (r.changed || []).map((c) => `${S.sideName(app.state, c.seat)} ${c.from} → ${c.to}`).join(", ");
    out.textContent = text ? `This changes: ${text}` : "No score changes.";
    out.className = "hint";
  } catch (e) { out.textContent = e.message; out.className = "hint bad"; }
}
for (const id of ["#edit-seat", "#edit-cards", "#edit-claim"]) {
  $(id).addEventListener("input", () => { clearTimeout(app.previewTimer); app.previewTimer = setTimeout(previewEdit, 250); });
}
$("#edit-form").addEventListener("submit", async (evt) => {
  if (evt.submitter && evt.submitter.value === "cancel") return;
  if (!app.editing) return;
  const fix = correction();
  const target = fix.event;
  const r = await send("POST", `/api/games/${app.gameId}/events`, fix);
  if (r) { render(r.state); showChanges(r.changed, `Corrected #${target}`); loadEvents(); }
});
window.Crib.openEdit = openEdit;  // app.js: an event's Edit button
window.Crib.editPick = editPick;  // app.js builds the dialog's picker with the page's
})();
