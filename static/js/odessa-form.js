// The new-table form's Odessa poker deal schedule: whenever an option changes, the server
// (gameplay/schedules/odessa.py, from the engine's own schedule) says the deals, or why
// the options do not fit together.
(function () {
  "use strict";
  document.querySelectorAll("[data-odessa-schedule]").forEach(function (box) {
    const form = box.closest("form");
    if (!form) return;
    const deals = box.querySelector(".schedule-deals");
    const error = box.querySelector(".schedule-error");
    let timer = null;
    let latest = 0;

    function chosen() {
      const engine = form.querySelector("[name=engine]");
      return !engine || engine.value === "odessa";
    }
    function show(answer) {
      error.hidden = !answer.error;
      error.textContent = answer.error || "";
      deals.textContent = answer.summary || "";
      box.dataset.deals = answer.deals ? answer.deals.length : "";
    }
    function refresh() {
      if (!chosen()) return;
      const request = ++latest;
      const params = new URLSearchParams(new FormData(form));
      params.delete("csrfmiddlewaretoken");
      fetch(box.dataset.odessaSchedule + "?" + params.toString(), { credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (answer) { if (request === latest) show(answer); })
        .catch(function () { /* the preview only; the form still checks everything */ });
    }
    form.addEventListener("change", function () { clearTimeout(timer); timer = setTimeout(refresh, 150); });
    form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(refresh, 400); });
    refresh();
  });
})();
