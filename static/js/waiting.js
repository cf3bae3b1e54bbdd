// An open table's waiting room (gameplay/_waiting.html), live: the seats as
// people take and leave them or computer players fill them, and, once the
// game starts (or the table is given up), the page loads again as the game.
// The server sends the table's state over the game's WebSocket after every
// change; a lost message is repaired by a "sync" every little while, and
// while the socket is down the page polls the state URL instead.
(function () {
  "use strict";
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));
  const root = document.getElementById("waiting");
  if (!root) return;

  const SYNC_MS = 15000; // a lost message costs at most this long
  const POLL_MS = 5000;
  const RECONNECT_MS = 3000;
  let current = JSON.parse(document.getElementById("waiting-state").textContent);
  const mySeat = current.seat; // null: a visitor who may take a seat
  let socket = null;
  let pollTimer = null;
  let leaving = false;

  // ---- transport -------------------------------------------------------
  function connect() {
    if (leaving) return;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + root.dataset.ws);
    socket.onopen = () => { root.classList.remove("offline"); stopPolling(); };
    socket.onmessage = (e) => receive(JSON.parse(e.data));
    socket.onclose = () => {
      socket = null;
      if (leaving) return;
      root.classList.add("offline");
      startPolling();
      setTimeout(connect, RECONNECT_MS);
    };
  }

  function sync() {
    if (leaving) return;
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "sync" }));
      return;
    }
    fetch(root.dataset.stateUrl, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : r.status === 404 ? reload() : null))
      .then((msg) => msg && receive(msg))
      .catch(() => {});
  }

  function startPolling() {
    if (!pollTimer) pollTimer = setInterval(sync, POLL_MS);
  }
  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }
  setInterval(() => { if (document.visibilityState === "visible" && !pollTimer) sync(); }, SYNC_MS);

  function reload() {
    if (leaving) return null;
    leaving = true;
    stopPolling();
    if (socket) socket.close();
    location.reload();
    return null;
  }

  function receive(msg) {
    if (!msg || msg.type !== "state") return;
    // The game started or was given up, or this visitor sat down in another
    // tab: the page the server renders now is the right one.
    if (msg.status !== "open" || msg.seat !== mySeat) { reload(); return; }
    current = msg;
    render();
  }

  // ---- rendering ----------------------------------------------------------
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (v === null || v === undefined || v === false) return;
      if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    });
    (children || []).forEach((c) => c && node.appendChild(typeof c === "string" ? document.createTextNode(c) : c));
    return node;
  }

  function isFree(player) {
    return !player.name && !player.is_bot;
  }

  function partnerOf(player) {
    if (player.team === null || player.team === undefined) return null;
    return current.players.find((p) => p.team === player.team && p.position !== player.position) || null;
  }

  function partnerText(partner) {
    return isFree(partner)
      ? interpolate(gettext("partner: seat %(n)s, still free"), { n: partner.position + 1 }, true)
      : interpolate(gettext("partner: %(who)s"), { who: partner.name }, true);
  }

  // The player's rating in this game (ratings/_rating.html draws the same on the first load).
  function ratingNode(rating) {
    const title = gettext("Rating in this game") + (rating.provisional ? ": " + gettext("provisional") : "");
    const text = interpolate(gettext("rating %(n)s"), { n: rating.value }, true) + (rating.provisional ? "?" : "");
    return el("span", { class: "rating muted", title: title, text: text });
  }

  function seatItem(player) {
    const partner = partnerOf(player);
    return el("li", { "data-position": player.position, class: isFree(player) ? "free" : "taken" }, [
      el("span", { class: "name" }, [isFree(player) ? el("em", { text: gettext("free") }) : player.name]),
      player.rating ? " " : null,
      player.rating ? ratingNode(player.rating) : null,
      partner ? " " : null,
      partner ? el("span", { class: "partner muted", text: partnerText(partner) }) : null,
    ]);
  }

  // In pairs a visitor chooses his seat, and so his partner: one button per free seat.
  function joinButtons(free) {
    const box = root.querySelector(".join-seats");
    if (!box) return;
    box.replaceChildren(...free.map((player) => {
      const partner = partnerOf(player);
      const label = interpolate(gettext("Take seat %(n)s"), { n: player.position + 1 }, true);
      return el("button", { type: "submit", name: "position", value: player.position,
        text: partner ? label + " · " + partnerText(partner) : label });
    }));
  }

  function render() {
    const players = current.players || [];
    const free = players.filter(isFree);
    document.getElementById("waiting-seats").replaceChildren(...players.map(seatItem));
    document.getElementById("waiting-count").textContent = interpolate(ngettext(
      "Waiting for %(n)s more player.", "Waiting for %(n)s more players.", free.length), { n: free.length }, true);
    joinButtons(free);
  }

  render();
  connect();
})();
