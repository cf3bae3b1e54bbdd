// My games, live: every element with data-live-list (the My games page, the
// lobby's top section) is fetched again from that URL whenever the badge
// socket says the number of games waiting for my move changed, a notice
// arrives (a challenge started a table), the tab comes back into view, and
// every minute (the time left). The server renders the list; the database
// has the truth, so a lost push is repaired by the next refresh.
(function () {
  "use strict";
  const lists = Array.from(document.querySelectorAll("[data-live-list]"));
  if (!lists.length) return;
  const REFRESH_MS = 60000;
  let inFlight = false;
  let again = false;

  function refresh() {
    if (inFlight) { again = true; return; }
    inFlight = true;
    Promise.all(lists.map((box) =>
      fetch(box.dataset.liveList, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
        .then((r) => (r.ok ? r.text() : null))
        .then((html) => {
          if (html === null || !html.trim()) return; // nothing to show: the page's own text stays
          box.innerHTML = html;
          box.dataset.refreshed = String(Date.now());
        })
        .catch(() => {})
    )).finally(() => {
      inFlight = false;
      if (again) { again = false; refresh(); }
    });
  }

  document.addEventListener("games-waiting", refresh);
  document.addEventListener("user-notice", refresh);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
  setInterval(() => { if (document.visibilityState === "visible") refresh(); }, REFRESH_MS);
  lists.forEach((box) => { if (box.dataset.liveLoad === "now") refresh(); });
})();
