// A running tournament's standings and a cup's group standings, live: every
// minute while the page is in view, each live part (.live-tournament-part:
// the standings, the same page of them, and the groups) is fetched again
// from the address in its data-refresh and put in place.
(function () {
  "use strict";
  const boxes = Array.from(document.querySelectorAll(".live-tournament-part[data-refresh]"));
  if (!boxes.length || !window.fetch) return;
  const EVERY = 60000;

  async function refreshOne(box) {
    try {
      const response = await fetch(box.dataset.refresh, { headers: { "X-Requested-With": "fetch" } });
      if (response.ok) box.innerHTML = await response.text();
    } catch (err) {
      // offline for a moment: the next refresh tries again
    }
  }

  function refresh() {
    if (document.visibilityState !== "visible") return;
    boxes.forEach(refreshOne);
  }
  setInterval(refresh, EVERY);
  document.addEventListener("visibilitychange", refresh);
})();
