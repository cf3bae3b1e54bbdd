// The game page's "next game": once it is not my move here (after my move,
// or at a table waiting for others), a button (and the N key) takes me to
// the most urgent game waiting for my move (the server decides: /my-games/next/).
// With the profile setting "go to the next game after my move", my move
// here takes me there by itself when another game waits for me.
(function () {
  "use strict";
  const box = document.getElementById("next-game");
  if (!box) return;
  const AUTO_DELAY_MS = 800; // the move's new state is shown a moment first
  let wasMine = null;
  let lastVersion = null;

  function go() { location.href = box.dataset.url; }

  function goIfAnotherWaits() {
    fetch(box.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((r) => r.json())
      .then((data) => { if (data && data.url) location.href = data.url; })
      .catch(() => {});
  }

  document.addEventListener("game-turn", (e) => {
    const turn = e.detail || {};
    box.hidden = turn.mine;
    const justMoved = wasMine === true && !turn.mine && lastVersion !== null && turn.version > lastVersion;
    if (justMoved && box.dataset.auto === "1") setTimeout(goIfAnotherWaits, AUTO_DELAY_MS);
    wasMine = turn.mine;
    lastVersion = turn.version;
  });

  document.addEventListener("keydown", (e) => {
    if (box.hidden || e.key !== "n" && e.key !== "N" || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    e.preventDefault();
    go();
  });
})();
