/* The table code (web/tablecode.py): shown with its QR code on the New tab of an admitted device;
   another gets a Join button and form (opened too by app.js's "tablecode:needed", or a wrong ?code=). */
"use strict";
(() => {
  const q = (s) => document.querySelector(s);
  const make = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    e.append(...kids);
    return e;
  };
  const btn = make("button", { class: "small", type: "button", id: "join-btn", hidden: "" }, "Join");
  const input = make("input", { name: "code", autocomplete: "off", size: "8", placeholder: "6 letters or digits" });
  const said = make("p", { class: "hint bad" });
  const form = make("form", { id: "join", class: "panel", hidden: "" }, make("label", {}, "Table code ", input),
    " ", make("button", { class: "primary" }, "Join"),
    make("p", { class: "hint tc-how" }), said);
  const words = make("p", { class: "tc-code" }), link = make("p", { class: "hint tc-link" });
  const qr = make("img", { class: "tc-qr", alt: "QR code of the table's link", loading: "lazy" });
  const panel = make("section", { id: "table-code", class: "panel", hidden: "" },
    make("h2", {}, "Table code"), words, qr, link);
  q("header").append(btn);
  q("#unlock").after(form);
  q("#new").prepend(panel);
  const get = async (path) => (await fetch(path)).json();

  async function refresh() {
    const s = await get("/api/code");
    btn.hidden = s.admitted; panel.hidden = !s.admitted;
    if (s.admitted) {
      form.hidden = true;
      words.textContent = s.code;
      qr.src = "/api/code.svg";
      qr.hidden = !s.reachable;
      link.textContent = s.reachable ? `Scan to join, or open ${s.address} and enter the code.`
        : "Phones cannot join: this table listens on this computer only. Start it with make run HOST=0.0.0.0 (or crib serve --host 0.0.0.0).";
      if (s.joined) joined("Joined by the link");
    }
    return s;
  }
  const pinSet = () => document.body.dataset.pin === "set";
  function joined(words) {
    const t = q("#toast");
    t.textContent = `${words}: this phone can change the game` + (pinSet() ? " once unlocked with the table PIN" : "");
    t.className = ""; t.hidden = false;
    setTimeout(() => { t.hidden = true; }, 4000);
    if (pinSet() && document.body.dataset.unlocked !== "yes") q("#unlock").hidden = false;
  }
  function open(message) {
    form.hidden = false;
    q(".tc-how").textContent = pinSet()
      ? "Anyone can watch. To change the game: first Join with the table code (ask a player), then Unlock with the table PIN."
      : "Anyone can watch; to change the game, ask a player for the table code.";
    said.textContent = message;
    input.focus();
  }
  async function send(code, csrf) {
    const res = await fetch("/api/code", { method: "POST", body: JSON.stringify({ code }),
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf } });
    const data = await res.json();
    return data.need === "csrf" && !send.again ? (send.again = true, send(code, (await get("/api/session")).csrf)) : data;
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = await send(input.value, q('meta[name="csrf-token"]').content);
    if (!r.admitted) return open(r.error);
    input.value = said.textContent = "";
    await refresh();
    joined("Joined");
  });
  btn.addEventListener("click", () => open(""));
  document.addEventListener("tablecode:needed", () => open(""));
  // the server took a right ?code= out of the address: one still here was wrong
  const params = new URLSearchParams(location.search), linked = params.has("code");
  params.delete("code");
  if (linked) history.replaceState(null, "", location.pathname + (`${params}` ? `?${params}` : "") + location.hash);
  refresh().then((s) => linked && !s.admitted && open("That link's code is not this table's."));
})();
