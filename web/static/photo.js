/* Cribbage Companion page, the Photo tab: read the cards in a photo of a hand (every card read is
   kept: the six dealt, or a hand and its starter), fix them by tapping, choose the starter (any
   card not in the hand) and count the hand or crib right under the Count button; with no starter,
   the count for each possible one (POST /api/count/starters). Loaded by app.js when the tab first
   opens (the tab stays blank until then), and uses app.js's helpers ($, el, api, send, toast,
   render, showChanges, app, S, SUITS, RANKS, NUMBER_WORDS, cardLabel, cardEl, buildPicker).
   With the cards dealt (six, or five in a game that deals five), "Which to throw?" ranks the
   discards for the dealer or the pone (POST /api/discard), each with why in words. */
(() => {
"use strict";
const { $, $$, NUMBER_WORDS, S, api, app, buildPicker, cardEl, cardLabel, el, render, send, showChanges, tenths, toast } = window.Crib;

app.photo = { slots: [], sel: null, name: null, starter: null };
const PHOTO_MAX_TAPPED = 6;   // cards tapped in by hand: at most the six dealt
const COUNTING_MS = 250;      // "Counting…" shows at least this long, so every press is seen
const DEALS_FIVE = ["five-card", "three-player", "four-player"];  // the games that deal five
const ADVICE_TOP = 5;         // the discards shown, best first

/* ---------- a photo: chosen, read, refused ---------- */
function clearPhoto(message = "") {
  // a new photo starts afresh: nothing of the last one (picture, cards, count) stays on screen
  Object.assign(app.photo, { slots: [], sel: null, name: null, starter: null, read: null });
  const view = $("#photo-view");
  view.hidden = true;
  view.replaceChildren();
  $("#photo-result").replaceChildren();
  $("#photo-advice").replaceChildren();
  $("#photo-msg").textContent = message;
  renderPhotoCards();
}
$("#photo-file").addEventListener("change", (ev) => {
  const file = ev.target.files[0];
  clearPhoto(file ? "Read cards reads this photo." : "");
});
$("#photo-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const file = $("#photo-file").files[0];
  if (!file) return toast("Choose a photo first", true);
  const fd = new FormData();
  fd.append("photo", file);
  clearPhoto("Reading…");
  let r;
  try { r = await api("POST", "/api/photos", fd); } catch (e) {
    clearPhoto(`This photo was not read: ${e.message}`);
    toast(e.message, true);
    return;
  }
  app.photo.name = r.photo;
  const reading = r.reading;
  const cards = reading ? (reading.cards || []) : [];
  const unread = reading && Array.isArray(reading.unreadable) ? reading.unreadable : [];
  $("#photo-msg").textContent = r.message || (reading ? readWords(cards.length, unread.length) : "");
  showPhoto(r, cards, unread);
  // every card read, none dropped, in photo order (left to right, as they lie)
  app.photo.slots = inPhotoOrder(cards).map((c) => c.card);
  app.photo.read = r.message ? null : cards.length;
  // the starter is the card lying apart from the hand, when the reader saw one (vision.hand)
  app.photo.starter = (reading && reading.starter_apart) || null;
  renderPhotoCards();
});
function inPhotoOrder(cards) {
  const x = (c) => (c.center ? c.center[0] : Infinity);
  return cards.slice().sort((a, b) => x(a) - x(b));
}
/* once cards were tapped in or taken out, the words say the cards there are, not those read */
function slotsWords() {
  const n = app.photo.slots.length, read = app.photo.read;
  if (read === null || read === undefined || n === read) return null;
  const changed = n > read ? `${n - read} added` : `${read - n} taken out`;
  return `${n} card${n === 1 ? "" : "s"} (${read} read, ${changed})`
    + (n === 6 ? ": choose the two to throw, or the starter and four." : ": tap one to fix it.");
}
function readWords(n, unread) {
  const ringed = unread ? ` ${unread} more could not be read (ringed): tap ${unread === 1 ? "it" : "them"} in.` : "";
  if (n === 6) return `6 cards: choose the two to throw, or the starter and four (tap a card, then Take out).${ringed}`;
  if (n > 6) {
    return `${n} cards: more than a hand and its starter, or the six dealt. All are shown: take out the `
      + `ones not in the hand (tap a card, then Take out).${ringed}`;
  }
  if (!n) return unread ? `No card read: ${unread} could not be read (ringed); tap the cards in below.`
    : "No card read: tap the cards in below.";
  return `Read ${n} card${n === 1 ? "" : "s"}` + (unread ? `, ${unread} unreadable (ringed)` : "")
    + ". Check them; tap one to fix it.";
}
function showPhoto(r, cards, unread) {
  const view = $("#photo-view");
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
  for (const u of unread) {
    if (!u.center) continue;
    const ring = document.createElementNS(ns, "circle");
    ring.setAttribute("cx", u.center[0]); ring.setAttribute("cy", u.center[1]);
    ring.setAttribute("r", Math.max(r.width, r.height) / 30);
    ring.setAttribute("class", "unreadable");
    svg.append(ring);
  }
  view.replaceChildren(img, svg);
  view.hidden = false;
}

/* ---------- the cards: tap one to replace it or take it out, + to add ---------- */
function renderPhotoCards() {
  const { slots, sel } = app.photo;
  const items = slots.map((c, i) => {
    const red = c[1] === "H" || c[1] === "D";
    return el("button", { type: "button", class: `card ${red ? "red" : ""} ${sel === i ? "sel" : ""}`, "data-card": c,
      "aria-pressed": sel === i ? "true" : "false",
      onclick: () => { app.photo.sel = app.photo.sel === i ? null : i; renderPhotoCards(); } }, cardLabel(c));
  });
  if (slots.length < PHOTO_MAX_TAPPED) {
    items.push(el("button", { type: "button", class: `card empty ${sel === slots.length ? "sel" : ""}`,
      "aria-label": "add a card", onclick: () => { app.photo.sel = slots.length; renderPhotoCards(); } }, "+"));
  }
  $("#photo-cards").replaceChildren(...items);
  const now = slotsWords();
  if (now) $("#photo-msg").textContent = now;
  const remove = $("#photo-remove");
  remove.hidden = sel === null || sel >= slots.length;
  if (!remove.hidden) remove.textContent = `Take out ${cardLabel(slots[sel])}`;
  renderStarters();
  renderThrow();
}
function renderStarters() {
  // any card may be the starter: the photo's first (one of them, when a hand and its starter
  // were photographed together), then the rest of the pack
  const slots = app.photo.slots;
  const rest = [];
  for (const suit of window.Crib.SUITS) for (const rank of window.Crib.RANKS) if (!slots.includes(rank + suit)) rest.push(rank + suit);
  const option = (c) => el("option", { value: c }, cardLabel(c));
  const st = $("#photo-starter");
  const groups = [el("option", { value: "" }, "not known: count each")];
  if (slots.length) groups.push(el("optgroup", { label: "In the photo" }, ...slots.map(option)));
  groups.push(el("optgroup", { label: slots.length ? "Not in the photo" : "The pack" }, ...rest.map(option)));
  st.replaceChildren(...groups);
  st.value = defaultStarter(slots);
}
function defaultStarter(slots) {
  // the player's choice or the card lying apart; else the game's starter when it is in the photo,
  // or, in the show, when the photo is a hand alone; else none (Count then shows each)
  if (app.photo.starter !== null) return app.photo.starter;
  const s = app.state, turned = s && s.starter;
  if (turned && slots.includes(turned)) return turned;
  if (turned && s.phase === "show" && slots.length >= 3 && slots.length <= 4) return turned;
  return "";
}
$("#photo-starter").addEventListener("change", (ev) => { app.photo.starter = ev.target.value; });
$("#photo-remove").addEventListener("click", () => {
  const { slots, sel } = app.photo;
  if (sel === null || sel >= slots.length) return;
  const [gone] = slots.splice(sel, 1);
  if (app.photo.starter === gone) app.photo.starter = null;
  app.photo.sel = null;
  renderPhotoCards();
});
function photoPick(name) {
  const slots = app.photo.slots;
  const i = app.photo.sel === null ? slots.length : app.photo.sel;
  if (slots.includes(name)) return toast(`${cardLabel(name)} is already there`, true);
  if (i >= PHOTO_MAX_TAPPED) return toast("Six cards at most: the six dealt, or four and the starter", true);
  if (app.photo.starter !== null && app.photo.starter === slots[i]) app.photo.starter = name;  // a misread starter
  slots[i] = name;
  app.photo.sel = null;
  renderPhotoCards();
}

/* ---------- counting: right under the button, redrawn on every press ---------- */
function notAHand(slots, starter, crib) {
  // what cannot be counted, in words (null when it can be)
  const hand = slots.filter((c) => c !== starter);
  const need = crib ? "a crib is four cards" : "a hand is four cards (three in the five-card game)";
  const n = hand.length;
  if (!starter && n > 5) {
    return `${n} cards: a hand is four cards and the starter. Choose the starter, and take out the `
      + `${n === 6 ? "two thrown to the crib" : "cards not in the hand"} (tap a card, then Take out).`;
  }
  if (starter && n > 4) {
    return `${n} cards besides the starter: a hand is four cards. Take out the `
      + `${n === 6 ? "two thrown to the crib" : "cards not in the hand"} (tap a card, then Take out).`;
  }
  if (n < (crib ? 4 : 3)) return `${n ? `Only ${NUMBER_WORDS[n] || n}` : "No"} card${n === 1 ? "" : "s"}: ${need}. Tap them in below.`;
  return null;
}
async function photoCount() {
  const out = $("#photo-result");
  const starter = $("#photo-starter").value, crib = $("#photo-crib").checked;
  const slots = app.photo.slots.slice();
  const hand = slots.filter((c) => c !== starter);
  out.replaceChildren(el("p", { class: "hint counting" }, "Counting…"));
  const words = notAHand(slots, starter, crib);
  const pause = new Promise((resolve) => setTimeout(resolve, COUNTING_MS));
  let shown;
  try {
    const asked = words ? null
      : starter ? api("POST", "/api/count", { hand, starter, crib })
        : api("POST", "/api/count/starters", { cards: slots, crib });
    const [r] = await Promise.all([asked, pause]);
    shown = words ? el("p", { class: "bad" }, words)
      : starter ? countShown(r, hand, starter) : eachStarterShown(r, hand, crib);
  } catch (e) {
    await pause;
    shown = el("p", { class: "bad" }, e.message);
  }
  out.replaceChildren(el("div", { class: "fresh" }, shown));
  bringIntoView(out);
}
function countShown(r, hand, starter) {
  return el("div", {},
    el("p", {}, el("b", {}, `${r.total}: `), r.spoken || "nineteen (no points)"),
    el("ul", {}, ...(r.items || []).map((i) => el("li", {}, `${i.text || i.kind} — ${(i.cards || []).map(cardLabel).join(" ")}: ${i.points}`))),
    recordButton(hand, starter));
}
function eachStarterShown(r, hand, crib) {
  const what = crib ? "the crib" : "the hand";
  const head = r.starters_from === "cards"
    ? `No starter chosen: ${what} with each of the five as the starter`
    : `No starter chosen: ${what} ${hand.map(cardLabel).join(" ")} with each possible starter`;
  return el("div", {},
    el("p", {}, head, el("span", { class: "hint" }, " (tap a starter for the full count)")),
    el("table", { class: "starters" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Points"), el("th", { scope: "col" }, "Starter"))),
      el("tbody", {}, ...(r.groups || []).map((g) => el("tr", { "data-points": g.total },
        el("th", { scope: "row" }, String(g.total)),
        el("td", {}, ...g.starters.map((c) => starterButton(c))))))));
}
function starterButton(card) {
  // a starter in the table counts the hand with it in full
  const b = cardEl(card);
  return el("button", { type: "button", class: b.className, "data-card": card,
    "aria-label": `count with ${cardLabel(card)} as the starter`, onclick: () => {
      app.photo.starter = card;
      $("#photo-starter").value = card;
      photoCount();
    } }, cardLabel(card));
}
function bringIntoView(box) {
  // on screen below the sticky header: the top of the count first, then as much of it as fits
  const top = $("#tabs").getBoundingClientRect().bottom + 8;
  const r = box.getBoundingClientRect();
  if (r.top < top) window.scrollBy(0, r.top - top);
  else if (r.bottom > window.innerHeight) window.scrollBy(0, Math.min(r.bottom - window.innerHeight + 8, r.top - top));
}
$("#photo-count").addEventListener("click", photoCount);
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

/* ---------- which to throw: the discards ranked for the dealer or the pone ---------- */
function dealtVariant(slots) {
  // six cards are the six-card deal; five are a deal only in a game that deals five (else a hand
  // and its starter)
  const variant = app.state && app.state.variant;
  if (slots.length === 6) return "six-card";
  if (slots.length === 5 && DEALS_FIVE.includes(variant)) return variant;
  return null;
}
function renderThrow() {
  const variant = dealtVariant(app.photo.slots);
  const row = $("#photo-throw");
  row.hidden = variant === null;
  const shown = $("#photo-advice");
  if (variant === null || shown.dataset.cards !== app.photo.slots.join(" ")) {
    shown.replaceChildren();
    delete shown.dataset.cards;
    for (const b of $$("#photo-throw button")) b.classList.remove("on");
  }
}
async function photoThrow(role) {
  const slots = app.photo.slots.slice(), variant = dealtVariant(slots);
  if (variant === null) return;
  const out = $("#photo-advice");
  for (const b of $$("#photo-throw button")) b.classList.toggle("on", b.dataset.role === role);
  out.replaceChildren(el("p", { class: "hint counting" }, "Ranking the discards…"));
  let shown;
  try {
    const r = await api("POST", "/api/discard", { dealt: slots, role, variant, top: ADVICE_TOP });
    shown = adviceShown(r);
  } catch (e) {
    shown = el("p", { class: "bad" }, e.message);
  }
  out.dataset.cards = slots.join(" ");
  out.replaceChildren(el("div", { class: "fresh" }, shown));
  bringIntoView(out);
}
function spaced(cards) {
  // the cards drawn, a space between them (read aloud and copied as "2♥ 9♠")
  return cards.flatMap((c, i) => (i ? [" ", cardEl(c)] : [cardEl(c)]));
}
function adviceShown(r) {
  const seat = r.role === "dealer" ? "the crib is yours, total = hand + crib"
    : "the crib is your opponent's, total = hand − crib";
  const figure = tenths;  // one decimal, as every view (app.js)
  return el("div", {},
    el("p", {}, el("b", {}, `Best ${r.options.length} of ${r.choices} ways to throw`)),
    el("p", { class: "hint" }, `As ${r.role}: ${seat}.`),
    el("ol", { class: "discards" }, ...r.options.map((o) => el("li", { "data-throw": o.discard.join(" ") },
      el("p", { class: "throw" }, "Throw ", ...spaced(o.discard), " keep ", ...spaced(o.keep)),
      el("p", { class: "figures" },
        el("span", {}, "hand ", el("b", {}, figure(o.hand))), " ",
        el("span", {}, "crib ", el("b", {}, figure(o.crib))), " ",
        el("span", { class: "total" }, "total ", el("b", {}, figure(o.total)))),
      el("p", { class: "why hint" }, o.why)))));
}
$("#photo-throw").addEventListener("click", (ev) => {
  const b = ev.target.closest("button[data-role]");
  if (b) photoThrow(b.dataset.role);
});

/* ---------- start ---------- */
buildPicker($("#photo-picker"), photoPick);
renderPhotoCards();
$("#photo-body").hidden = false;

window.Crib.renderPhotoCards = renderPhotoCards;  // read by the browser tests
})();
