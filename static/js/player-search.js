// The challenge form's player names: suggestions for the name being typed
// (after the last comma) from the search URL, in a <datalist>.
(function () {
  "use strict";
  const form = document.querySelector("[data-player-search]");
  if (!form) return;
  const input = form.querySelector("input[list=player-names]");
  const list = document.getElementById("player-names");
  if (!input || !list) return;
  let timer = null;

  function lookUp() {
    const parts = input.value.split(",");
    const typed = parts.pop().trim();
    if (typed.length < 2) return;
    const before = parts.map((p) => p.trim()).filter(Boolean);
    fetch(form.dataset.playerSearch + "?q=" + encodeURIComponent(typed), { credentials: "same-origin" })
      .then((r) => r.json())
      .then((data) => {
        list.replaceChildren(...(data.players || []).map((p) => {
          const option = document.createElement("option");
          option.value = [...before, p.username].join(", ");
          option.label = p.name;
          return option;
        }));
      })
      .catch(() => {});
  }

  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(lookUp, 250); });
})();
