// A running tournament's standings, live: every minute while the page is in
// view, the standings part (the same page of it) is fetched again from the
// address in #live-tournament-standings' data-refresh and put in place.
(function () {
  "use strict";
  const box = document.getElementById("live-tournament-standings");
  if (!box || !box.dataset.refresh || !window.fetch) return;
  const EVERY = 60000;

  async function refresh() {
    if (document.visibilityState !== "visible") return;
    try {
      const response = await fetch(box.dataset.refresh, { headers: { "X-Requested-With": "fetch" } });
      if (response.ok) box.innerHTML = await response.text();
    } catch (err) {
      // offline for a moment: the next refresh tries again
    }
  }
  setInterval(refresh, EVERY);
  document.addEventListener("visibilitychange", refresh);
})();
