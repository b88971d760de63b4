/* Cribbage Companion page: the New tab's form (players, sides, the dealer, muggins and counting),
   fetched when the tab first opens. Uses app.js's helpers; app.js keeps the form greyed until now. */
(() => {
"use strict";
const { $, $$, app, el, send, started, session } = window.Crib;
const f = $("#new-form");

function renderPlayerFields() {
  // seats, sides and the usual target from the engine's variant; a side's colour by its first seat
  const v = app.variants[f.variant.value];
  if (!v) return;
  const names = app.names;  // the engine's list (Ann, Bob, ...), as the demo and crib track name players
  const kids = [];
  v.seats.forEach((seat, i) => {
    // players by their place at the table (the camera's seats go round from the bottom edge)
    kids.push(el("label", {}, `Player ${i + 1}`, el("input", { name: "player", value: names[i] || `Player ${i + 1}`, maxlength: 24, required: true })));
    const side = v.sides.findIndex((d) => d.seats[0] === seat);
    if (side >= 0) kids.push(el("input", { type: "color", name: "colour", value: app.colours[side] || "#ffffff", "aria-label": `player ${i + 1}'s colour` }));
    kids.push(el("br"));
  });
  $("#players").replaceChildren(...kids);
  f.target.value = String(v.target);
  renderPartners();
}
function renderPartners() {
  // partners: the engine's sides, by name ("Ann & Cat v Bob & Dan"); the dealer to choose, by name
  const out = $("#partners");
  const v = app.variants[f.variant.value];
  if (!v) return;
  const name = {}, was = f.dealer.value;
  $$('input[name="player"]', f).forEach((i, k) => { name[v.seats[k]] = i.value.trim() || `Player ${k + 1}`; });
  f.dealer.replaceChildren(el("option", { value: "" }, "Cut at the table"),
    ...v.seats.map((seat) => el("option", { value: seat }, name[seat])));
  f.dealer.value = v.seats.includes(was) ? was : "";
  out.hidden = !v.partners;
  out.textContent = out.hidden ? "" : "Partners: " + v.sides.map((d) => d.seats.map((seat) => name[seat]).join(" & ")).join(" v ");
}
f.variant.addEventListener("change", renderPlayerFields);
$("#players").addEventListener("input", renderPartners);
// muggins needs claim counting: choosing it picks claims, choosing automatic counting drops it
f.muggins.addEventListener("change", (ev) => { if (ev.target.checked) f.counting.value = "claim"; });
f.counting.addEventListener("change", (ev) => { if (ev.target.value === "auto") f.muggins.checked = false; });
f.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const body = {
    variant: f.variant.value, target: Number(f.target.value),
    players: $$('input[name="player"]', f).map((i) => i.value.trim()),
    colours: $$('input[name="colour"]', f).map((i) => i.value),
    muggins: f.muggins.checked, counting: f.counting.value,
  };
  const r = await send("POST", "/api/games", body);
  if (!r) return;
  const d = f.dealer.value && await send("POST", `/api/games/${r.game_id}/events`, { type: "dealer", seat: f.dealer.value });
  started(d ? { game_id: r.game_id, state: d.state } : r);
});
// the session's variants fill the form (it may still be on its way when the tab opens at once)
session.then(() => {
  for (const c of f.elements) c.disabled = false;
  renderPlayerFields();
});
})();
