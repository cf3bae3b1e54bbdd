// A division's standings, live: one WebSocket to the path in #live-standings'
// data-socket (protocol: leagues/live.py). The server sends
// {"type":"standings","html":...,"stamp":...} when a game of the division
// ends; the newest (by stamp) replaces the standings part of the page.
// Reconnects with backoff and then asks for the current standings
// ({"type":"sync"}), as a change may have been missed meanwhile.
(function () {
  "use strict";
  const box = document.getElementById("live-standings");
  if (!box || !box.dataset.socket || !window.WebSocket) return;
  const FIRST_DELAY = 1000;
  const MAX_DELAY = 60000;
  const CLOSE_FORBIDDEN = 4403;
  let delay = FIRST_DELAY;
  let stamp = 0;
  let connectedBefore = false;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + box.dataset.socket);
    socket.onopen = () => {
      delay = FIRST_DELAY;
      if (connectedBefore) socket.send(JSON.stringify({ type: "sync" }));
      connectedBefore = true;
      box.dataset.live = "on";
    };
    socket.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      if (!msg || msg.type !== "standings" || typeof msg.html !== "string") return;
      if (Number(msg.stamp) < stamp) return; // an older push arriving late
      stamp = Number(msg.stamp) || stamp;
      box.innerHTML = msg.html;
      box.dispatchEvent(new CustomEvent("standings-updated", { bubbles: true }));
    };
    socket.onclose = (e) => {
      box.dataset.live = "off";
      if (e.code === CLOSE_FORBIDDEN) return;
      setTimeout(connect, delay + Math.random() * delay / 2);
      delay = Math.min(delay * 2, MAX_DELAY);
    };
  }

  connect();
})();
