// The badge in the header: how many games wait for the signed-in user's move.
// One WebSocket to /ws/me/; the server sends {"type":"badge","waiting":N} on
// connect and whenever N changes. Reconnects with backoff; asks again
// ({"type":"sync"}) when the tab comes back into view. The number is kept in
// the badge's data-waiting and announced with a "games-waiting" event on
// document (the game page's title shows it). Notices ({"type":"notice",...})
// are announced with a "user-notice" event. The header's other counts (the
// elements with data-count="<name>": the challenges waiting for an answer)
// are asked for with {"type":"counts"} and kept up to date by the server's
// {"type":"counts","challenges":N}; each is hidden while it is 0.
(function () {
  "use strict";
  const badge = document.getElementById("games-waiting");
  if (!badge || !window.WebSocket) return;
  const count = badge.querySelector(".count") || badge;
  const FIRST_DELAY = 1000;
  const MAX_DELAY = 60000;
  const CLOSE_FORBIDDEN = 4403; // signed out: do not retry
  let delay = FIRST_DELAY;
  let socket = null;
  let retry = null;

  function show(waiting) {
    const n = Number(waiting) || 0;
    count.textContent = n > 99 ? "99+" : String(n);
    badge.hidden = n === 0;
    badge.dataset.waiting = String(n);
    document.dispatchEvent(new CustomEvent("games-waiting", { detail: n }));
  }

  const counters = Array.from(document.querySelectorAll("[data-count]"));

  function showCounts(msg) {
    counters.forEach((el) => {
      if (!(el.dataset.count in msg)) return;
      const n = Number(msg[el.dataset.count]) || 0;
      (el.querySelector(".count") || el).textContent = n > 99 ? "99+" : String(n);
      el.hidden = n === 0;
      el.dataset.value = String(n);
    });
  }

  function connect() {
    retry = null;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/me/");
    socket.onopen = () => {
      delay = FIRST_DELAY;
      // A page with live lists (My games) wants the notices that say a list changed.
      if (document.querySelector("[data-live-list]")) socket.send(JSON.stringify({ type: "watch" }));
      if (counters.length) socket.send(JSON.stringify({ type: "counts" }));
    };
    socket.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      if (msg && msg.type === "badge") show(msg.waiting);
      else if (msg && msg.type === "counts") showCounts(msg);
      // A notice from another part of the site (a challenge): announced as a
      // "user-notice" event on document for whoever shows it.
      else if (msg && msg.type === "notice") document.dispatchEvent(new CustomEvent("user-notice", { detail: msg }));
    };
    socket.onclose = (e) => {
      socket = null;
      if (e.code === CLOSE_FORBIDDEN) {
        show(0);
        showCounts(Object.fromEntries(counters.map((el) => [el.dataset.count, 0])));
        return;
      }
      // Exponential backoff with jitter, so a restarted server is not stormed.
      retry = setTimeout(connect, delay + Math.random() * delay / 2);
      delay = Math.min(delay * 2, MAX_DELAY);
    };
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "sync" }));
    } else if (!socket && retry) {
      clearTimeout(retry); // back in view: try now rather than after a long backoff
      delay = FIRST_DELAY;
      connect();
    }
  });

  connect();
})();
