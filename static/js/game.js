// The live game page: one WebSocket, full views in, moves out.
// Every server message carries the game's version and the seat's whole
// view, so a lost message costs nothing: the next one (or a "sync") repairs it.
(function () {
  "use strict";
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));
  const root = document.getElementById("table");
  if (!root) return;

  const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
  const RED = { D: true, H: true };
  let current = JSON.parse(document.getElementById("initial-state").textContent);
  let socket = null;
  let pending = null; // the move waiting for its ack
  let pollTimer = null;
  let replacedAtPrivateTable = false;
  const log = [];

  // ---- transport -------------------------------------------------------
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + root.dataset.ws);
    socket.onopen = () => { setConnection(true); stopPolling(); chat.connected(); };
    socket.onmessage = (e) => receive(JSON.parse(e.data));
    socket.onclose = () => {
      setConnection(false);
      pending = null; // its answer is lost with the socket; the resync shows whether it was applied
      socket = null;
      if (replacedAtPrivateTable) return; // nothing more of this table is his to see
      startPolling();
      setTimeout(connect, 3000);
    };
  }

  // "I am on the game page": no "your turn" email while the heartbeat comes.
  setInterval(() => {
    if (document.visibilityState === "visible" && socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "ping" }));
    }
  }, 30000);

  function receive(msg) {
    if (msg.type === "state") {
      if (msg.version < current.version) return; // an older message arrived late
      const gap = msg.version > current.version + 1;
      (msg.events || []).forEach((e) => remember(e, msg));
      current = msg;
      if (pending && msg.version > pending.version) pending = null;
      if (gap) sync(); // ask for everything once more; harmless when up to date
      render();
    } else if (msg.type === "seat_replaced") {
      seatReplaced(msg);
    } else if (msg.type === "pong") {
      // The heartbeat's answer names the game's version: a state message lost on the way shows here.
      if (msg.version > current.version) sync();
    } else if (msg.type === "chat_history") {
      chat.replace(msg.messages);
    } else if (msg.type === "chat") {
      chat.add(msg.message);
    } else if (msg.type === "ack") {
      if (busyTries) showError(""); // the "busy, sending again" note: the move went through
      busyTries = 0;
      if (msg.version > current.version) {
        // The move is in; its new state may come a moment after this answer. The state
        // clears `pending` (above); if it was lost on the way, ask for it.
        const acked = pending;
        setTimeout(() => { if (pending === acked && current.version < msg.version) { pending = null; sync(); render(); } }, 3000);
        return;
      }
      pending = null;
      render();
    } else if (msg.type === "error") {
      if (msg.code === "busy" && pending && (!msg.move_id || msg.move_id === pending.move_id) && retryBusy()) return;
      pending = null;
      busyTries = 0;
      showError(msg.message);
      if (msg.code === "stale" || msg.version !== current.version) sync();
      render();
    }
  }

  // A moderator gave this player's seat to someone else: say so with the reason, and from now
  // on the page is a spectator's (no hand, no chat box, no "Resign"); the socket is closed by the
  // server and reconnects as a spectator of a public table.
  function seatReplaced(msg) {
    const banner = document.getElementById("seat-replaced");
    if (banner) {
      banner.textContent = msg.message + " " + (root.dataset.private === "true"
        ? gettext("This private table can be seen by its players only, so you can no longer follow it.")
        : gettext("You now see this game as a spectator."));
      banner.hidden = false;
    }
    document.querySelectorAll("[data-player-only]").forEach((node) => node.remove());
    replacedAtPrivateTable = root.dataset.private === "true";
    pending = null;
    current = Object.assign({}, current, { seat: null, legal: [], hands: null, ahead: null });
    if (current.view) current.view = Object.assign({}, current.view, { seat: null, hand: null, legal_actions: [] });
    render();
  }

  function sync() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "sync" }));
    } else {
      fetch(root.dataset.stateUrl, { credentials: "same-origin" })
        .then((r) => r.json()).then(receive).catch(() => {});
    }
  }

  function startPolling() {
    if (!pollTimer) pollTimer = setInterval(sync, 5000);
  }
  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  function send(action) {
    if (pending) return;
    const message = { type: "move", action: action, version: current.version, move_id: newId() };
    pending = message;
    busyTries = 0;
    showError("");
    transmit(message);
    render();
  }

  function transmit(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    } else {
      fetch(root.dataset.moveUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(message),
      }).then((r) => r.json()).then((msg) => { receive(msg); if (msg.code !== "busy") sync(); })
        .catch(() => { pending = null; showError(gettext("The move could not be sent. Try again.")); });
    }
  }

  // The server answers "busy" (HTTP 503) when its database is locked: nothing
  // was applied, so the same move, with the same move_id (a repeat is applied
  // at most once), is sent again after a growing pause with jitter, a few times.
  const BUSY_RETRIES = 6;
  let busyTries = 0;
  function retryBusy() {
    if (busyTries >= BUSY_RETRIES) { busyTries = 0; return false; }
    const delay = Math.min(500 * 2 ** busyTries, 8000) * (0.75 + Math.random() / 2);
    busyTries += 1;
    const message = pending;
    showError(gettext("The server is busy; sending your move again…"));
    render();
    setTimeout(() => { if (pending === message) transmit(message); }, delay);
    return true;
  }

  // A message that is not a move (Durak's {"type": "ahead", "on": true}): over the socket, or,
  // while it is down, POSTed to the URL the page names for its type (data-ahead-url).
  // The new state follows either way.
  function sendRaw(message) {
    showError("");
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
      return;
    }
    fetch(root.dataset[message.type + "Url"], {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(message),
    }).then((r) => r.json()).then((msg) => { receive(msg); sync(); })
      .catch(() => showError(gettext("The move could not be sent. Try again.")));
  }

  function newId() {
    return (crypto.randomUUID && crypto.randomUUID()) || String(Date.now()) + Math.random().toString(16).slice(2);
  }

  function csrfToken() {
    const m = document.cookie.match(/csrftoken=([^;]+)/);
    return m ? m[1] : "";
  }

  // ---- helpers ------------------------------------------------------------
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (v === null || v === undefined || v === false) return;
      if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    });
    (children || []).forEach((c) => c && node.appendChild(typeof c === "string" ? document.createTextNode(c) : c));
    return node;
  }

  function cardLabel(code) {
    if (!code) return "";
    if (code[0] === "X") return "★";
    const rank = code[0] === "T" ? "10" : code[0];
    return rank + SUITS[code[1]];
  }

  function cardNode(code, extra) {
    const cls = ["card"];
    if (code && code[0] === "X") cls.push("joker");
    else if (code && RED[code[1]]) cls.push("red");
    return el("span", Object.assign({ class: cls.join(" "), "data-card": code, text: cardLabel(code) }, extra || {}));
  }

  function playerName(position) {
    const p = current.players.find((x) => x.position === position);
    return p && p.name ? p.name : interpolate(gettext("Seat %(n)s"), { n: position + 1 }, true);
  }



  function describeCommon(event) {
    const who = playerName(event.seat);
    switch (event.type) {
      case "resigned": return interpolate(gettext("%(who)s resigned"), { who: who }, true);
      case "lost_on_time": return interpolate(gettext("%(who)s ran out of time"), { who: who }, true);
      case "game_over": return gettext("The game is over");
      default: return null;
    }
  }

  function remember(event) {
    const text = describeCommon(event) || renderer.describe(event);
    if (!text) return;
    log.unshift(text);
    log.length = Math.min(log.length, 12);
  }


  function showError(text) {
    const box = document.getElementById("move-error");
    if (box) box.textContent = text || "";
    root.dataset.error = text || "";
  }

  function setConnection(live) {
    root.classList.toggle("offline", !live);
  }

  // ---- rendering ----------------------------------------------------------
  function render() {
    const view = current.view;
    const error = root.dataset.error || "";
    root.replaceChildren();
    if (!view) return;
    root.dataset.version = current.version;
    renderer.render(view).forEach((node) => node && root.appendChild(node));
    if (current.hands) root.appendChild(renderer.renderHands ? renderer.renderHands(current.hands) : renderHands(current.hands));
    if (current.orders) root.appendChild(renderOrders(current.orders));
    const outcome = renderOutcome(current.result);
    if (outcome) root.appendChild(outcome);
    if (current.series && current.series.next_game) root.appendChild(nextGameLink(current.series.next_game));
    root.appendChild(el("p", { id: "move-error", class: "error", role: "alert", text: error }));
    root.appendChild(el("ul", { class: "event-log" }, log.map((line) => el("li", { text: line }))));
    if (current.server_time) clockOffset = new Date(current.server_time).getTime() - Date.now();
    tickClocks();
    refreshSheet();
    document.querySelectorAll("form.resign").forEach((form) => { form.hidden = current.status !== "active"; });
    const status = document.getElementById("game-status");
    if (status && current.status !== "active") status.textContent = statusText(current.status);
    showTurnInTitle();
    announceTurn();
    showEnding(current.result);
    chat.setOpen(current.status === "active");
  }

  // ---- standing orders (gameplay/engine/orders.py): this seat's alone -----------------
  const ORDER_KINDS = {
    forced: () => gettext("Make my move when it is the only legal one"),
    bid: () => gettext("Bid at this deal"),
    trump: () => gettext("Call trump at this deal"),
    duck: () => gettext("When I cannot win the trick, play my lowest card (this deal)"),
    take: () => gettext("Take the cards in this bout"),
    cheapest: () => gettext("Beat with the cheapest card that beats, else take (this bout)"),
    no_trump_throws: () => gettext("Never throw in trumps"),
    leader_stake: () => gettext("As the leader, stake if the stakes reach 27 (this round)"),
    pass: () => gettext("Pass cards this round"),
  };

  function paramLabel(name, value) {
    if (name === "suit") return value === null ? gettext("no trump") : SUITS[value];
    return String(value);
  }

  function orderText(order) {
    const kind = (ORDER_KINDS[order.kind] || (() => order.kind))();
    const params = Object.entries(order.params || {}).map(([name, value]) => paramLabel(name, value));
    return params.length ? kind + ": " + params.join(", ") : kind;
  }

  // Over the game's socket (the same service as the page's endpoint, which takes over while it is down).
  function postOrders(body) {
    sendRaw(Object.assign({ type: "orders" }, body));
  }

  function orderLine(order) {
    if (order.status === "pending") {
      return el("li", { class: "order pending", "data-order": order.id }, [orderText(order) + " ",
        el("button", { type: "button", class: "cancel-order", text: gettext("Cancel"),
          onclick: () => postOrders({ cancel: order.id }) })]);
    }
    const note = order.status === "applied"
      ? interpolate(gettext("done by your order (move %(n)s)"), { n: order.move }, true)
      : interpolate(gettext("lapsed: %(reason)s"), { reason: order.reason || "" }, true);
    return el("li", { class: "order " + order.status, "data-order": order.id }, [orderText(order) + " — " + note]);
  }

  // The kind and parameters chosen in the form, kept across renders (a state message may come
  // between the choice and the click).
  const orderChoice = { kind: null, params: {} };

  function orderForm(kinds) {
    if (!kinds.some((k) => k.kind === orderChoice.kind)) orderChoice.kind = kinds[0].kind;
    const kindSelect = el("select", { name: "kind", "aria-label": gettext("Order") },
      kinds.map((k) => el("option", { value: k.kind, text: (ORDER_KINDS[k.kind] || (() => k.kind))(),
        selected: k.kind === orderChoice.kind })));
    const paramsBox = el("span", { class: "order-params" });
    function showParams() {
      const kind = kinds.find((k) => k.kind === kindSelect.value);
      paramsBox.replaceChildren(...Object.entries(kind ? kind.params : {}).map(([name, values]) => {
        const chosen = Math.min(orderChoice.params[name] || 0, values.length - 1);
        return el("select", { name: name, "aria-label": name,
          onchange: (e) => { orderChoice.params[name] = Number(e.target.value); } },
          values.map((v, i) => el("option", { value: String(i), text: paramLabel(name, v), selected: i === chosen })));
      }));
    }
    kindSelect.addEventListener("change", () => { orderChoice.kind = kindSelect.value; orderChoice.params = {}; showParams(); });
    showParams();
    return el("form", { class: "order-form", onsubmit: (e) => {
      e.preventDefault();
      const kind = kinds.find((k) => k.kind === kindSelect.value);
      const params = {};
      paramsBox.querySelectorAll("select").forEach((sel) => { params[sel.name] = kind.params[sel.name][Number(sel.value)]; });
      postOrders({ set: { kind: kind.kind, params: params } });
    } }, [kindSelect, " ", paramsBox, " ", el("button", { type: "submit", class: "set-order", text: gettext("Set order") })]);
  }

  let ordersOpen = null; // the player opened or closed the panel: kept across renders
  function renderOrders(orders) {
    const settled = orders.list.some((o) => o.status !== "pending");
    const open = ordersOpen === null ? orders.list.length > 0 : ordersOpen;
    return el("details", { class: "orders", open: open, ontoggle: (e) => { ordersOpen = e.target.open; } }, [
      el("summary", { text: interpolate(gettext("My standing orders (%(n)s)"), { n: orders.list.filter((o) => o.status === "pending").length }, true) }),
      el("p", { class: "small", text: gettext("Only you see them. The server makes the move for you at your turn; to the others it is a move like any other.") }),
      el("ul", { class: "order-list" }, orders.list.map(orderLine)),
      settled ? el("button", { type: "button", class: "dismiss-orders", text: gettext("Clear the notices"),
        onclick: () => postOrders({ dismiss: true }) }) : null,
      orders.kinds.length ? orderForm(orders.kinds) : null,
    ]);
  }

  // How the game ended (gameplay/results.py), in the page's head: it arrives live with the state.
  function endingText(result) {
    if (!result) return "";
    const who = result.seat === null || result.seat === undefined ? "" : playerName(result.seat);
    switch (result.ending) {
      case "lost_on_time": return interpolate(gettext("%(who)s lost on time; the game ended."), { who: who }, true);
      case "resigned": return interpolate(gettext("%(who)s resigned; the game ended."), { who: who }, true);
      case "aborted": return result.reason
        ? interpolate(gettext("Aborted by a moderator: %(reason)s"), { reason: result.reason }, true)
        : gettext("Aborted by a moderator.");
      case "adjudicated": return interpolate(gettext("Adjudicated by a moderator: %(reason)s"), { reason: result.reason || "" }, true);
      case "finished": return gettext("The game was played to the end.");
      default: return "";
    }
  }

  function showEnding(result) {
    const box = document.getElementById("game-ending");
    if (!box) return;
    const text = endingText(result);
    box.hidden = !text;
    box.textContent = text;
  }

  // The series' next game started with this game's end: the way to it.
  function nextGameLink(gameId) {
    return el("p", { class: "next-game" }, [el("a", { class: "button", href: "/games/" + gameId + "/",
      text: gettext("On to the next game of the series") })]);
  }

  // The tab's title says when the game waits for this player: "(2) Your move — Joker #5",
  // 2 being the games waiting for his move as the header's badge counts them (1 before it knows).
  const plainTitle = document.title;
  function showTurnInTitle() {
    const view = current.view || {};
    const mine = current.status === "active" && current.seat !== null && current.seat !== undefined &&
      (view.actors || []).includes(current.seat);
    const badge = document.getElementById("games-waiting");
    const waiting = Math.max(1, Number(badge && badge.dataset.waiting) || 0);
    document.title = mine ? interpolate(gettext("(%(n)s) Your move — %(title)s"), { n: waiting, title: plainTitle }, true) : plainTitle;
  }
  document.addEventListener("games-waiting", showTurnInTitle);

  // Whether it is the viewer's move, announced with a "game-turn" event on
  // document after each render (the next-game button listens: next-game.js).
  function announceTurn() {
    const view = current.view || {};
    const mine = current.status === "active" && current.seat !== null && current.seat !== undefined &&
      (view.actors || []).includes(current.seat);
    document.dispatchEvent(new CustomEvent("game-turn", {
      detail: { mine: mine, status: current.status, version: current.version, seat: current.seat },
    }));
  }

  function statusText(status) {
    return { finished: gettext("finished"), aborted: gettext("aborted"), active: gettext("in play") }[status] || status;
  }



  // One box per seat, the viewer's own first; `details(pos)` adds the game's facts.
  function renderSeats(view, details) {
    const count = current.players.length;
    const me = current.seat === null || current.seat === undefined ? 0 : current.seat;
    const seats = el("div", { class: "seats" });
    for (let i = 0; i < count; i++) {
      const pos = (me + i) % count;
      const acting = (view.actors || []).includes(pos);
      const player = current.players.find((x) => x.position === pos) || {};
      seats.appendChild(el("div", { class: "seat seat-" + i + (acting ? " acting" : "") + (pos === current.seat ? " me" : ""), "data-position": pos }, [
        el("div", { class: "name" }, [playerName(pos), player.is_bot ? el("small", { class: "bot-mark", text: " · " + gettext("computer") }) : null]),
      ].concat(details(pos, player)).concat([
        acting ? el("div", { class: "turn-mark", text: pos === current.seat ? gettext("Your move") : gettext("Thinking…") }) : null,
        renderClock(player),
      ])));
    }
    return seats;
  }

  // The game-over box: the game's result as the server states it (the sheet, the profile and the
  // emails show the same), never recomputed here.
  function renderOutcome(result) {
    if (!result || result.ending === "in_play") return null;
    const title = result.ending === "aborted" ? gettext("Game aborted") : gettext("Game over");
    return el("div", { class: "outcome", "data-ending": result.ending }, [el("h3", { text: title }),
      el("p", { class: "ending", text: endingText(result) }),
      result.standings.length ? el("ul", {}, result.standings.map((r) => el("li", { "data-position": r.position, "data-place": r.place,
        text: interpolate(gettext("%(place)s. %(who)s — %(score)s"),
          { place: r.place === null ? "–" : r.place, who: playerName(r.position), score: r.points_label }, true) }))) : null]);
  }

  // ---- table chat ---------------------------------------------------------
  const chat = (function () {
    const box = document.getElementById("chat");
    const list = box && box.querySelector(".chat-messages");
    const form = box && box.querySelector("form");
    const messages = new Map();

    function draw() {
      if (!list) return;
      list.replaceChildren(...[...messages.values()].filter((m) => !m.hidden).map((m) =>
        el("li", { "data-id": m.id }, [el("b", { text: m.author + ": " }), m.text, reportLink(m), blockLink(m)])));
      list.scrollTop = list.scrollHeight;
    }
    // A small "report this message" link on each message, for a signed-in reader.
    function reportLink(m) {
      const me = current.seat === null ? null : (current.players || []).find((p) => p.position === current.seat);
      if (!box.dataset.reportUrl || (me && me.name === m.author)) return null;
      return el("a", { class: "report-link", href: box.dataset.reportUrl + "?message=" + m.id,
        title: box.dataset.reportTitle, rel: "nofollow", text: "⚑" });
    }
    // "Block this player" beside his message: his page's block form (accounts/blocks.py).
    function blockLink(m) {
      const me = current.seat === null ? null : (current.players || []).find((p) => p.position === current.seat);
      if (!box.dataset.playerUrl || !m.username || (me && me.name === m.author)) return null;
      return el("a", { class: "block-link", href: box.dataset.playerUrl.replace("__name__", encodeURIComponent(m.username)) + "#block",
        title: box.dataset.blockTitle, rel: "nofollow", text: "⊘" });
    }
    const closed = box && box.querySelector(".chat-closed");
    if (list) list.querySelectorAll("li[data-id]").forEach((li) => {
      li.querySelectorAll(".report-link, .block-link").forEach((a) => a.remove());
      // History the page came with (a game that is over opens no socket).
      const author = li.querySelector("b");
      messages.set(Number(li.dataset.id), { id: Number(li.dataset.id), author: author ? author.textContent.replace(/: $/, "") : "",
        text: author ? li.textContent.slice(author.textContent.length) : li.textContent, hidden: false });
    });
    // A message sent before the socket is open (a page just loaded, a reconnect) stays in its box
    // and goes as soon as the socket opens, instead of being dropped.
    let waiting = false;
    function sendTyped() {
      const input = form.querySelector("input[name=text]");
      if (current.status !== "active") { waiting = false; setOpen(false); return; }
      if (!input.value.trim()) { waiting = false; return; }
      if (!socket || socket.readyState !== WebSocket.OPEN) { waiting = true; return; }
      waiting = false;
      socket.send(JSON.stringify({ type: "chat", text: input.value }));
      input.value = "";
    }
    if (form) {
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        sendTyped();
      });
    }
    // Once the game is over the chat stays readable, and no longer takes messages.
    function setOpen(open) {
      if (form) form.hidden = !open;
      if (closed) closed.hidden = open;
    }
    return {
      setOpen,
      connected() { if (form && waiting) sendTyped(); },
      replace(items) { messages.clear(); items.forEach((m) => messages.set(m.id, m)); draw(); },
      add(message) { messages.set(message.id, message); draw(); },
    };
  })();

  // ---- clocks -------------------------------------------------------------
  let clockOffset = 0; // server time minus this browser's time, in ms

  function formatSeconds(total) {
    total = Math.max(0, Math.floor(total));
    const d = Math.floor(total / 86400), h = Math.floor((total % 86400) / 3600);
    const m = Math.floor((total % 3600) / 60), s = total % 60;
    const pad = (n) => String(n).padStart(2, "0");
    if (d > 0) return interpolate(gettext("%(d)s d %(h)s h"), { d: d, h: h }, true);
    if (h > 0) return h + ":" + pad(m) + ":" + pad(s);
    return m + ":" + pad(s);
  }

  function renderClock(player) {
    const clock = player.clock;
    if (!clock) return null;
    const box = el("div", { class: "clock" + (clock.running ? " running" : "") + (clock.in_reserve ? " in-reserve" : "") });
    if (clock.running) {
      box.appendChild(el("span", { text: gettext("time left") + ": " }));
      box.appendChild(el("span", { class: "countdown", "data-deadline": clock.deadline, title: gettext("Time left for this move") }));
      if (clock.in_reserve) box.appendChild(el("span", { class: "reserve-running", text: " " + gettext("(reserve)") }));
    }
    box.appendChild(el("span", { class: "reserve", text: " " + interpolate(gettext("reserve %(t)s"), { t: formatSeconds(clock.reserve_left) }, true) }));
    if (player.vacation_until) {
      const until = new Date(player.vacation_until).toLocaleString();
      box.appendChild(el("div", { class: "vacation-mark", text: interpolate(gettext("on vacation until %(until)s"), { until: until }, true) }));
    }
    return box;
  }

  function tickClocks() {
    const now = Date.now() + clockOffset;
    root.querySelectorAll("[data-deadline]").forEach((node) => {
      const left = (new Date(node.dataset.deadline).getTime() - now) / 1000;
      node.textContent = formatSeconds(left);
      node.classList.toggle("low", left < 60);
    });
  }
  setInterval(tickClocks, 1000);





  let sheetRequested = null;
  let sheetShown = -1;
  function refreshSheet() {
    const box = document.getElementById("sheet");
    const version = current.version;
    if (!box || sheetRequested === version) return;
    sheetRequested = version;
    fetch(root.dataset.sheetUrl, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : Promise.reject(r)))
      .then((html) => {
        if (version < sheetShown) return; // an older answer arrived after a newer one
        sheetShown = version;
        box.innerHTML = html;
        box.dataset.version = version;
      })
      .catch(() => {});
  }

  const factory = (window.GameRenderers || {})[root.dataset.engine];
  const renderer = factory ? factory({
    el, gettext, ngettext, interpolate, cardNode, cardLabel, playerName, renderSeats, send, sendRaw, SUITS, RED,
    current: () => current, pending: () => pending !== null, rerender: () => render(),
  }) : { render: () => [el("p", { text: gettext("This game cannot be shown yet.") })], describe: () => null };

  if (root.dataset.replayUrl) {
    replay();
  } else {
    render();
    if (current.status === "active" || current.status === "open") connect();
  }

  // ---- the replay of a game that is over (scoresheets/replay.html) ---------
  // Each step is a state message of the position after that many moves, with
  // every hand (the seed is public once the game is over), drawn as the live
  // table is; the events of the step's move make the event log.
  function renderHands(hands) {
    return el("div", { class: "all-hands" }, [el("h3", { text: gettext("Every hand") })].concat(
      hands.map((hand, pos) => el("div", { class: "hand-row", "data-position": pos }, [
        el("span", { class: "name", text: playerName(pos) + ": " }),
      ].concat((hand || []).map((card) => cardNode(card, { class: "card small" })))))));
  }

  function replay() {
    const base = root.dataset.replayUrl.replace(/0\.json$/, "");
    const seatSelect = document.querySelector(".replay-seat");
    const position = document.querySelector(".replay-position");
    let latest = null;

    function show(message) {
      log.length = 0;
      (message.events || []).forEach((e) => remember(e));
      current = message;
      render();
      if (position) {
        position.textContent = interpolate(gettext("Move %(n)s of %(total)s"), { n: message.version, total: message.steps }, true);
      }
      history.replaceState(null, "", "#" + message.version);
    }

    function go(step) {
      step = Math.max(0, Math.min(step, current.steps));
      const seat = seatSelect ? "?seat=" + encodeURIComponent(seatSelect.value) : "";
      const request = latest = fetch(base + step + ".json" + seat, { credentials: "same-origin" })
        .then((r) => r.json())
        .then((message) => { if (request === latest && message.type === "state") show(message); })
        .catch(() => showError(gettext("The replay could not be loaded. Try again.")));
    }

    const moves = { first: () => 0, back: () => current.version - 1, forward: () => current.version + 1,
                    last: () => current.steps };
    document.querySelectorAll(".replay-controls [data-step]").forEach((button) => {
      button.addEventListener("click", () => go(moves[button.dataset.step]()));
    });
    const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
    document.addEventListener("keydown", (event) => {
      if (!keys[event.key] || event.target.closest("input, select, textarea")) return;
      event.preventDefault();
      go(moves[keys[event.key]]());
    });
    if (seatSelect) seatSelect.addEventListener("change", () => go(current.version));
    const asked = parseInt(location.hash.slice(1), 10);
    if (asked > 0) go(asked); else show(current);
  }
})();
