// The profile's "Install the app" offer (notifications/push/_devices.html):
// shown when the browser offers to install the site (beforeinstallprompt),
// once: after it is installed or dismissed (here or in the browser's own
// prompt) it is never offered again on this browser (localStorage).
(function () {
  "use strict";
  const box = document.querySelector("[data-install-app]");
  if (!box) return;
  const key = box.dataset.remember;
  const done = () => { try { localStorage.setItem(key, "1"); } catch (error) { /* private mode */ } box.hidden = true; };
  const offered = () => { try { return localStorage.getItem(key) === "1"; } catch (error) { return false; } };
  let prompt = null;

  window.addEventListener("beforeinstallprompt", (event) => {
    if (offered()) return;
    event.preventDefault(); // our button instead of the browser's mini-bar
    prompt = event;
    box.hidden = false;
  });
  window.addEventListener("appinstalled", done);
  box.querySelector("[data-install]").addEventListener("click", () => {
    if (!prompt) return done();
    prompt.prompt();
    prompt.userChoice.finally(done);
    prompt = null;
  });
  box.querySelector("[data-install-dismiss]").addEventListener("click", done);
})();
