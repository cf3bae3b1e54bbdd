// The live game page: one WebSocket, full views in, moves out.
// Every server message carries the game's version and the seat's whole
// view, so a lost message costs nothing: the next one (or a "sync") repairs it.
(function () {
  "use strict";
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));
  const root = document.getElementById("table");
  if (!root) return;

  const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
  const RED = { D: true, H: true };
  let current = JSON.parse(document.getElementById("initial-state").textContent);
  let socket = null;
  let pending = null; // the move waiting for its ack
  let pollTimer = null;
  let jokerCard = null; // the joker whose variant is being chosen
  const log = [];

  // ---- transport -------------------------------------------------------
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + root.dataset.ws);
    socket.onopen = () => { setConnection(true); stopPolling(); };
    socket.onmessage = (e) => receive(JSON.parse(e.data));
    socket.onclose = () => {
      setConnection(false);
      socket = null;
      startPolling();
      setTimeout(connect, 3000);
    };
  }

  // "I am on the game page": no "your turn" email while the heartbeat comes.
  setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
  }, 30000);

  function receive(msg) {
    if (msg.type === "state") {
      if (msg.version < current.version) return; // an older message arrived late
      const gap = msg.version > current.version + 1;
      (msg.events || []).forEach((e) => remember(e, msg));
      current = msg;
      if (gap) sync(); // ask for everything once more; harmless when up to date
      render();
    } else if (msg.type === "ack") {
      pending = null;
      render();
    } else if (msg.type === "error") {
      pending = null;
      showError(msg.message);
      if (msg.code === "stale" || msg.version !== current.version) sync();
      render();
    }
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
    showError("");
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    } else {
      fetch(root.dataset.moveUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(message),
      }).then((r) => r.json()).then((msg) => { receive(msg); sync(); })
        .catch(() => { pending = null; showError(gettext("The move could not be sent. Try again.")); });
    }
    render();
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

  function suitName(suit) {
    return suit ? SUITS[suit] : gettext("no trump");
  }

  function describe(event) {
    const who = playerName(event.seat);
    switch (event.type) {
      case "played": {
        let s = interpolate(gettext("%(who)s played %(card)s"), { who: who, card: cardLabel(event.card) }, true);
        if (event.joker) s += " (" + jokerLabel(event.joker, event.suit) + ")";
        return s;
      }
      case "bid": return interpolate(gettext("%(who)s bid %(n)s"), { who: who, n: event.tricks }, true);
      case "trump": return interpolate(gettext("%(who)s named trump: %(suit)s"), { who: who, suit: suitName(event.suit) }, true);
      case "trick": return interpolate(gettext("%(who)s took the trick"), { who: playerName(event.winner) }, true);
      case "new_deal": return interpolate(gettext("Deal %(n)s begins"), { n: event.deal }, true);
      case "resigned": return interpolate(gettext("%(who)s resigned"), { who: who }, true);
      case "game_over": return gettext("The game is over");
      default: return null;
    }
  }

  function remember(event) {
    const text = describe(event);
    if (!text) return;
    log.unshift(text);
    log.length = Math.min(log.length, 12);
  }

  function jokerLabel(mode, suit) {
    const modeText = mode === "high" ? gettext("high") : gettext("low");
    return suit ? modeText + " " + SUITS[suit] : modeText;
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
    root.appendChild(renderInfo(view));
    root.appendChild(renderSeats(view));
    root.appendChild(renderCenter(view));
    if (current.seat !== null && current.seat !== undefined) root.appendChild(renderControls(view));
    root.appendChild(el("p", { id: "move-error", class: "error", role: "alert", text: error }));
    root.appendChild(el("ul", { class: "event-log" }, log.map((line) => el("li", { text: line }))));
    if (current.server_time) clockOffset = new Date(current.server_time).getTime() - Date.now();
    tickClocks();
    refreshSheet();
    const status = document.getElementById("game-status");
    if (status && current.status !== "active") status.textContent = statusText(current.status);
  }

  function statusText(status) {
    return { finished: gettext("finished"), aborted: gettext("aborted"), active: gettext("in play") }[status] || status;
  }

  function renderInfo(view) {
    const items = [
      interpolate(gettext("Deal %(n)s of %(total)s"), { n: view.deal, total: view.deals_total }, true),
      interpolate(gettext("Pulka %(n)s"), { n: view.pulka }, true),
      interpolate(gettext("%(n)s cards each"), { n: view.cards }, true),
      interpolate(gettext("Dealer: %(who)s"), { who: playerName(view.dealer) }, true),
    ];
    const trump = el("span", { class: "trump" }, [gettext("Trump") + ": "]);
    if (view.phase === "trump") trump.appendChild(document.createTextNode(gettext("being chosen")));
    else if (view.trump) trump.appendChild(el("span", { class: "suit" + (RED[view.trump] ? " red" : ""), text: SUITS[view.trump] }));
    else trump.appendChild(document.createTextNode(gettext("no trump")));
    if (view.trump_card) { trump.appendChild(document.createTextNode(" ")); trump.appendChild(cardNode(view.trump_card, { class: "card small" })); }
    const info = el("div", { class: "deal-info" }, items.map((s) => el("span", { text: s })).concat([trump]));
    if (view.bids_status) {
      const label = view.bids_status === "over" ? gettext("over: someone takes too many") : gettext("under: someone falls short");
      info.appendChild(el("span", { class: "bids-status " + view.bids_status, text: label }));
    }
    if (view.deal === 1 && view.tuz && view.tuz.length) {
      const tuz = el("details", { class: "tuz", open: view.phase !== "play" }, [
        el("summary", { text: interpolate(gettext("Choosing the first dealer: %(who)s got the first ace"), { who: playerName(view.first_dealer) }, true) }),
        el("ol", {}, view.tuz.map((x) => el("li", {}, [playerName(x.seat) + ": ", cardNode(x.card)]))),
      ]);
      info.appendChild(tuz);
    }
    return info;
  }

  function renderSeats(view) {
    const me = current.seat === null || current.seat === undefined ? 0 : current.seat;
    const seats = el("div", { class: "seats" });
    for (let i = 0; i < view.players; i++) {
      const pos = (me + i) % view.players;
      const acting = view.actors.includes(pos);
      const player = current.players.find((x) => x.position === pos) || {};
      const bid = view.bids[pos];
      const box = el("div", { class: "seat seat-" + i + (acting ? " acting" : "") + (pos === current.seat ? " me" : ""), "data-position": pos }, [
        el("div", { class: "name" }, [playerName(pos), player.is_bot ? el("small", { class: "bot-mark", text: " · " + gettext("computer") }) : null,
          pos === view.dealer ? el("span", { class: "dealer-mark", title: gettext("dealer"), text: " D" }) : null]),
        el("div", { class: "stats" }, [
          el("span", { class: "bid", text: gettext("bid") + ": " + (bid === null || bid === undefined ? "·" : bid) }),
          el("span", { class: "taken", text: " " + gettext("took") + ": " + view.taken[pos] }),
          el("span", { class: "hand-size", text: " · " + interpolate(gettext("%(n)s cards"), { n: view.hand_sizes[pos] }, true) }),
        ]),
        acting ? el("div", { class: "turn-mark", text: pos === current.seat ? gettext("Your move") : gettext("Thinking…") }) : null,
        renderClock(player),
      ]);
      seats.appendChild(box);
    }
    return seats;
  }

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
      node.textContent = "⏱ " + formatSeconds(left);
      node.classList.toggle("low", left < 60);
    });
  }
  setInterval(tickClocks, 1000);

  function renderCenter(view) {
    const center = el("div", { class: "center" });
    const trick = el("div", { class: "trick" }, (view.trick || []).map((p) =>
      el("div", { class: "played" }, [el("small", { text: playerName(p.seat) }), cardNode(p.card),
        p.joker ? el("small", { class: "joker-mode", text: jokerLabel(p.joker, p.suit) }) : null])));
    center.appendChild(trick);
    if (view.last_trick && (!view.trick || view.trick.length === 0)) {
      const last = view.last_trick;
      center.appendChild(el("div", { class: "last-trick" }, [
        el("small", { text: interpolate(gettext("Last trick: %(who)s"), { who: playerName(last.winner) }, true) + " " }),
      ].concat((last.cards || last.plays || []).map((p) => cardNode(p.card, { class: "card small" })))));
    }
    if (view.finished && view.outcome) {
      const ranking = view.outcome.places.map((place, pos) => ({ place, pos })).sort((a, b) => a.place - b.place);
      center.appendChild(el("div", { class: "outcome" }, [el("h3", { text: gettext("Game over") }),
        el("ol", {}, ranking.map((r) => el("li", { text: playerName(r.pos) + " — " + (view.outcome.scores[r.pos] / 100).toFixed(1) })))]));
    }
    if (current.status === "aborted") center.appendChild(el("p", { class: "notice", text: gettext("This game was aborted.") }));
    return center;
  }

  function renderControls(view) {
    const legal = current.legal || [];
    const box = el("div", { class: "controls" });
    if (view.phase === "trump" && legal.some((a) => a.type === "trump")) {
      box.appendChild(el("p", { class: "prompt", text: gettext("Name the trump after seeing your first three cards:") }));
      box.appendChild(el("div", { class: "choices trump-choices" }, legal.filter((a) => a.type === "trump").map((a) =>
        el("button", { type: "button", class: "choice", "data-trump": a.suit || "none", disabled: pending, onclick: () => send(a),
          text: a.suit ? SUITS[a.suit] : gettext("No trump") }))));
    }
    if (view.phase === "bid" && view.actors.includes(current.seat)) {
      box.appendChild(el("p", { class: "prompt", text: gettext("Your bid:") }));
      const bids = new Set(legal.filter((a) => a.type === "bid").map((a) => a.tricks));
      const buttons = [];
      for (let n = 0; n <= view.cards; n++) {
        const allowed = bids.has(n);
        buttons.push(el("button", { type: "button", class: "choice bid-choice", "data-bid": n, disabled: !allowed || pending,
          title: allowed ? null : gettext("The dealer may not make the bids add up to the number of cards."),
          onclick: () => send({ type: "bid", tricks: n }), text: n === 0 ? gettext("Pass") : String(n) }));
      }
      box.appendChild(el("div", { class: "choices bids" }, buttons));
    }
    box.appendChild(renderHand(view, legal));
    if (jokerCard) box.appendChild(renderJokerChoices(legal));
    return box;
  }

  function renderHand(view, legal) {
    const plays = legal.filter((a) => a.type === "play");
    const playable = new Set(plays.map((a) => a.card));
    const hand = el("div", { class: "hand", "aria-label": gettext("Your cards") });
    (view.hand || []).forEach((code) => {
      const canPlay = playable.has(code) && !pending;
      const reason = current.blocked[code] || (view.phase === "play" && !view.actors.includes(current.seat) ? gettext("Not your turn.") : null);
      hand.appendChild(el("button", {
        type: "button", class: "card-button" + (canPlay ? " playable" : ""), "data-card": code,
        disabled: !canPlay, title: canPlay ? null : reason,
        onclick: () => {
          if (code[0] === "X") { jokerCard = code; render(); return; }
          send(plays.find((a) => a.card === code));
        },
      }, [cardNode(code)]));
    });
    return hand;
  }

  function renderJokerChoices(legal) {
    const variants = legal.filter((a) => a.type === "play" && a.card === jokerCard);
    const choices = variants.map((a) => el("button", { type: "button", class: "choice joker-choice",
      "data-joker": a.joker + (a.suit ? "-" + a.suit : ""),
      onclick: () => { jokerCard = null; send(a); }, text: jokerLabel(a.joker, a.suit) }));
    choices.push(el("button", { type: "button", class: "secondary", onclick: () => { jokerCard = null; render(); }, text: gettext("Cancel") }));
    return el("div", { class: "choices joker-choices" }, [el("p", { class: "prompt", text: gettext("How do you play the joker?") })].concat(choices));
  }

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

  render();
  if (current.status === "active" || current.status === "open") connect();
})();
