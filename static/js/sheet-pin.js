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
    if (!table) return;
    table.querySelectorAll(".pinned").forEach((cell) => {
      cell.classList.remove("pinned", "more-right");
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
    shade(box);
  }

  // A pinned cell held at the box's right edge covers the box's shadow there: it draws its own
  // while more of the sheet lies to the right.
  function shade(box) {
    const edge = box.getBoundingClientRect().right;
    const more = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    box.querySelectorAll(".pinned").forEach((cell) => {
      cell.classList.toggle("more-right", more && cell.getBoundingClientRect().right >= edge - 1);
    });
  }

  function pinAll() {
    document.querySelectorAll(".sheet-scroll[data-viewer-column]").forEach(pin);
  }

  document.addEventListener("scroll", (event) => {
    const box = event.target;
    if (box instanceof Element && box.matches(".sheet-scroll[data-viewer-column]")) shade(box);
  }, true);

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
