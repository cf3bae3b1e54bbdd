// The reader's own column of a score sheet stays in view while a sheet wider
// than its box scrolls sideways (a phone): its cells stick to the box's left
// edge (after the row headings) and to its right edge, whichever it would
// leave. The sheet says which column is the reader's (data-viewer-column on
// .sheet-scroll, counted among th.player); live updates redraw the sheet, so
// it is pinned again whenever the page changes, and on resize.
(function () {
  "use strict";

  function pin(box) {
    const table = box.querySelector("table.sheet");
    const heads = table ? table.querySelectorAll("thead th.player") : [];
    const head = heads[Number(box.dataset.viewerColumn)];
    table && table.querySelectorAll(".pinned").forEach((cell) => {
      cell.classList.remove("pinned");
      cell.style.left = cell.style.right = "";
    });
    if (!head || box.scrollWidth <= box.clientWidth) return;
    const scrolled = box.scrollLeft;
    const origin = box.getBoundingClientRect().left - scrolled;
    const span = head.getBoundingClientRect();
    const from = span.left - origin;
    const to = span.right - origin;
    const firstHead = table.querySelector("thead th");
    const gutter = firstHead && firstHead !== head ? firstHead.getBoundingClientRect().width : 0;
    table.querySelectorAll("th, td").forEach((cell) => {
      const r = cell.getBoundingClientRect();
      const left = r.left - origin;
      const right = r.right - origin;
      if (left < from - 1 || right > to + 1) return;
      cell.classList.add("pinned");
      cell.style.left = gutter + (left - from) + "px";
      cell.style.right = to - right + "px";
    });
  }

  function pinAll() {
    document.querySelectorAll(".sheet-scroll[data-viewer-column]").forEach(pin);
  }

  let queued = false;
  function soon() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; pinAll(); });
  }

  pinAll();
  window.addEventListener("resize", soon);
  const sheet = document.getElementById("sheet");
  if (sheet) new MutationObserver(soon).observe(sheet, { childList: true });
})();
