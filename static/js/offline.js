// The offline page (notifications/push/offline.html): names the games of the
// last My games list the service worker kept (notifications/templates/notifications/push/sw.js keeps it
// under data-games-key), as text; reloads when the connection is back or on "Try again".
(function () {
  "use strict";
  const box = document.getElementById("last-games");
  document.querySelectorAll("[data-reload]").forEach((button) => button.addEventListener("click", () => location.reload()));
  window.addEventListener("online", () => location.reload());
  // Shown while the browser says it is online: a reload that raced the
  // connection's return, or the site itself unreachable. Try again by itself,
  // waiting longer each time (2 s, 4 s, ... at most a minute); a page that
  // loads clears the count (pwa.js).
  if (navigator.onLine) {
    const tries = Number(sessionStorage.getItem("offline-retries") || 0);
    sessionStorage.setItem("offline-retries", String(tries + 1));
    setTimeout(() => { if (navigator.onLine) location.reload(); }, Math.min(60000, 2000 * 2 ** tries));
  }
  if (!box || !("caches" in window)) return;

  function text(node) {
    return node ? node.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // The players' names alone: a rating ("0?") beside a name says nothing without the list's column and its tooltip.
  function names(node) {
    if (!node) return "";
    const copy = node.cloneNode(true);
    copy.querySelectorAll(".rating").forEach((rating) => rating.remove());
    return text(copy);
  }

  function item(row) {
    const link = row.querySelector(".game-kind a");
    if (!link) return null;
    const li = document.createElement("li");
    li.className = "game" + (row.classList.contains("my-turn") ? " my-turn" : "");
    li.dataset.game = row.dataset.game || "";
    const a = document.createElement("a");
    a.href = link.getAttribute("href");
    a.textContent = text(link);
    li.appendChild(a);
    const players = names(row.querySelector(".players"));
    if (players && players !== "—") li.appendChild(document.createTextNode(" · " + players));
    // Whose move it is: his own in bold; another's by name; an open table's wait as the list said it.
    const turn = text(row.querySelector(".turn"));
    if (row.classList.contains("my-turn")) {
      const strong = document.createElement("strong");
      strong.textContent = " · " + box.dataset.yourMove;
      li.appendChild(strong);
    } else if (row.classList.contains("waiting") && turn) {
      li.appendChild(document.createTextNode(" · " + box.dataset.theirMove.replace("%(who)s", turn)));
    } else if (turn) {
      li.appendChild(document.createTextNode(" · " + turn));
    }
    return li;
  }

  caches.match(box.dataset.gamesKey).then((response) => {
    if (!response) return;
    const seen = response.headers.get("X-Kept-At");
    return response.text().then((html) => {
      const page = new DOMParser().parseFromString(html, "text/html");
      const items = Array.from(page.querySelectorAll("tr.game-row")).map(item).filter(Boolean);
      if (!items.length) return;
      const list = box.querySelector("ul.games");
      items.forEach((li) => list.appendChild(li));
      box.querySelector(".no-games").hidden = true;
      if (seen) {
        const at = box.querySelector(".seen-at");
        at.textContent = box.dataset.seenAt.replace("%(when)s", new Date(seen).toLocaleString(document.documentElement.lang));
        at.hidden = false;
      }
    });
  }).catch(() => {});
})();
