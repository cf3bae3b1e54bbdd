// Live notices under the header: a challenge received, accepted (the table
// started) or declined. They come over the badge socket (badge.js announces
// them with a "user-notice" event); the texts are in #live-notices' data.
(function () {
  "use strict";
  const box = document.getElementById("live-notices");
  if (!box) return;

  function show(text, url, label) {
    const item = document.createElement("p");
    item.className = "notice live-notice";
    item.append(text + " ");
    if (url) {
      const link = document.createElement("a");
      link.href = url;
      link.textContent = label;
      item.append(link);
    }
    box.append(item);
    box.hidden = false;
  }

  document.addEventListener("user-notice", (e) => {
    const n = e.detail || {};
    const who = String(n.by || "");
    if (n.kind === "challenge") {
      const terms = Array.isArray(n.terms) ? n.terms.map(String).join(", ") : "";
      const game = n.engine_name ? " " + String(n.engine_name) + (terms ? " (" + terms + ")." : ".") : "";
      show(box.dataset.challengeText.replace("%(who)s", who) + game, box.dataset.challengesUrl, box.dataset.openText);
    } else if (n.kind === "challenge_answered" && n.status === "started" && n.game) {
      show(box.dataset.startedText, box.dataset.gameUrl.replace("/0/", "/" + Number(n.game) + "/"), box.dataset.openText);
    } else if (n.kind === "challenge_answered" && n.status === "declined") {
      show(box.dataset.declinedText.replace("%(who)s", who), box.dataset.challengesUrl, box.dataset.openText);
    }
  });
})();
