// The game page's private notes: loaded from, and saved as typed (a moment
// after the last key) to, the notes URL; only the writer ever reads them.
(function () {
  "use strict";
  const box = document.getElementById("notes");
  if (!box) return;
  const area = box.querySelector("textarea");
  const status = box.querySelector(".notes-status");
  const SAVE_DELAY_MS = 700;
  let timer = null;
  let saving = false;
  let dirty = false;

  function csrfToken() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function say(key) { status.textContent = key ? status.dataset[key] : ""; box.dataset.state = key; }

  function save() {
    timer = null;
    if (saving) { dirty = true; return; }
    saving = true;
    dirty = false;
    say("saving");
    fetch(box.dataset.url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ text: area.value }),
    }).then((r) => { say(r.ok ? "saved" : "failed"); })
      .catch(() => say("failed"))
      .finally(() => { saving = false; if (dirty) save(); });
  }

  fetch(box.dataset.url, { credentials: "same-origin" })
    .then((r) => r.json())
    .then((data) => { area.value = data.text || ""; area.disabled = false; })
    .catch(() => { area.disabled = false; });

  area.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  });
  window.addEventListener("beforeunload", () => { if (timer) { clearTimeout(timer); save(); } });
})();
