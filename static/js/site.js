// Small behaviours of every page, kept out of the templates so that the
// Content-Security-Policy can forbid inline script:
// - <select data-autosubmit>: submits its form when the choice changes (the language menu);
// - <form data-confirm="question">: asks first, and is not sent unless confirmed;
// - <input data-select-on-click>: selects its whole text when clicked (the invite link);
// - <a data-print>: prints the page;
// - <form data-engine-options>: shows only the chosen game's options (the new table form);
// - [data-dismissable="key"] with a [data-dismiss] button: hidden when clicked, and on later
//   pages too (the key is kept in localStorage; the first-game rules notice).
// - [data-preview-url] in a form: asks that URL, with the fields it names (data-preview-fields),
//   for lines to show in its [data-preview-lines] whenever one of them changes (Domino Poker's
//   deal schedule on the new table form); a refusal goes to its [data-preview-error].
// - <fieldset class="computer-levels"> in a form: shown while its "fill with computer players" box is
//   ticked, and each seat's level only up to the table's number of players when the form gives one.
// - <input data-browser-zone="fill">: the time zone box takes the browser's zone when it is one of its list.
(function () {
  "use strict";

  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });

  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });

  document.querySelectorAll("input[data-select-on-click]").forEach(function (input) {
    input.addEventListener("click", function () { input.select(); });
  });

  document.querySelectorAll("a[data-print]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      window.print();
    });
  });

  document.querySelectorAll("form[data-engine-options]").forEach(function (form) {
    const select = form.querySelector("select[name=engine]");
    if (!select) return;
    function sync() {
      form.querySelectorAll("fieldset[data-for-engine]").forEach(function (fieldset) {
        fieldset.hidden = fieldset.dataset.forEngine !== select.value;
      });
    }
    select.addEventListener("change", sync);
    sync();
  });

  document.querySelectorAll("form fieldset.computer-levels").forEach(function (box) {
    const form = box.closest("form");
    const fill = form.elements.fill_with_bots;
    const players = form.elements.players;
    function sync() {
      box.hidden = Boolean(fill) && !fill.checked;
      const count = players && players.value ? Number(players.value) : Infinity;
      box.querySelectorAll("select[data-seat]").forEach(function (select) {
        select.closest("label").hidden = Number(select.dataset.seat) > count;
      });
    }
    form.addEventListener("change", sync);
    form.addEventListener("input", sync);
    sync();
  });

  document.querySelectorAll("form [data-preview-url]").forEach(function (box) {
    const form = box.closest("form");
    const names = box.dataset.previewFields.split(" ");
    const lines = box.querySelector("[data-preview-lines]");
    const error = box.querySelector("[data-preview-error]");
    let timer = null;
    let latest = null;
    function query() {
      const params = new URLSearchParams();
      names.forEach(function (name) {
        const input = form.elements[name];
        if (!input) return;
        if (input.type === "checkbox") { if (input.checked) params.set(name, "on"); } else params.set(name, input.value);
      });
      return params.toString();
    }
    function update() {
      const request = latest = fetch(box.dataset.previewUrl + "?" + query(), { credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (data) {
          if (request !== latest) return;
          box.classList.toggle("refused", !data.ok);
          if (data.ok) {
            lines.replaceChildren.apply(lines, data.lines.map(function (line) {
              const item = document.createElement("li");
              item.textContent = line;
              return item;
            }));
          }
          error.textContent = data.ok ? "" : Object.values(data.errors).flat().join(" ");
        })
        .catch(function () {});
    }
    function changed(event) {
      if (!names.includes(event.target.name)) return;
      clearTimeout(timer);
      timer = setTimeout(update, 150);
    }
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
  });

  document.querySelectorAll("[data-dismissable]").forEach(function (box) {
    const key = "dismissed:" + box.dataset.dismissable;
    try { if (window.localStorage.getItem(key)) { box.hidden = true; return; } } catch (e) { /* storage off */ }
    box.querySelectorAll("[data-dismiss]").forEach(function (button) {
      button.addEventListener("click", function () {
        box.hidden = true;
        try { window.localStorage.setItem(key, "1"); } catch (e) { /* storage off: hidden on this page only */ }
      });
    });
  });

  document.querySelectorAll("input[data-browser-zone=fill][list]").forEach(function (input) {
    let zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    const known = Array.prototype.some.call(input.list ? input.list.options : [], function (o) { return o.value === zone; });
    if (known) input.value = zone;
  });
})();
