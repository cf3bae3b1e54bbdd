// Every page: registers the site's service worker (/sw.js: the offline page,
// web push; notifications/templates/notifications/push/sw.js) and tells it the
// page's language, so that the offline page it keeps speaks it too.
(function () {
  "use strict";
  if (!document.getElementById("last-games")) sessionStorage.removeItem("offline-retries");  // a page loaded
  if (!("serviceWorker" in navigator)) return;
  const script = document.currentScript;
  const url = (script && script.dataset.worker) || "/sw.js";
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(url, { scope: "/" }).then((registration) => {
      const worker = registration.active || registration.waiting || registration.installing;
      const tell = (w) => w.postMessage({ type: "page-language", language: document.documentElement.lang });
      if (registration.active) tell(registration.active);
      else if (worker) worker.addEventListener("statechange", () => { if (worker.state === "activated") tell(worker); });
    }).catch(() => {});
  });
})();
