// Domino Poker's table: real tiles (inline SVG, pips on both halves, labelled
// "3-5" for screen readers), the draw for the first player, bids (the blind
// stage's face-down hand), the tricks, and stage 5: the row of 28 face-down
// tiles where the leader picks a tile and a direction, then the secret
// choice to show or hide, confirmed first since it is final.
(function () {
  "use strict";
  window.GameRenderers = window.GameRenderers || {};

  const SVG = "http://www.w3.org/2000/svg";
  // Pip centres on a 100×100 half, by number of pips.
  const L = 25, M = 50, H = 75;
  const PIPS = {
    0: [], 1: [[M, M]], 2: [[L, L], [H, H]], 3: [[L, L], [M, M], [H, H]],
    4: [[L, L], [H, L], [L, H], [H, H]], 5: [[L, L], [H, L], [M, M], [L, H], [H, H]],
    6: [[L, L], [H, L], [L, M], [H, M], [L, H], [H, H]],
  };

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
    return node;
  }

  // A tile face up ("2-5"), or face down (code null). `vertical` stands it on its end.
  function tileSvg(code, vertical) {
    const width = vertical ? 100 : 200, height = vertical ? 200 : 100;
    const box = svg("svg", { viewBox: "0 0 " + width + " " + height, "aria-hidden": "true", focusable: "false" });
    box.appendChild(svg("rect", { x: 3, y: 3, width: width - 6, height: height - 6, rx: 14, class: "tile-body" }));
    if (!code) return box;
    const halves = code.split("-").map(Number);
    box.appendChild(vertical ? svg("line", { x1: 14, y1: 100, x2: 86, y2: 100, class: "tile-bar" })
      : svg("line", { x1: 100, y1: 14, x2: 100, y2: 86, class: "tile-bar" }));
    halves.forEach((n, half) => {
      (PIPS[n] || []).forEach(([x, y]) => {
        const cx = vertical ? x : x + half * 100, cy = vertical ? y + half * 100 : y;
        box.appendChild(svg("circle", { cx: cx, cy: cy, r: 9, class: "tile-pip" }));
      });
    });
    return box;
  }

  window.GameRenderers.domino_poker = function (ctx) {
    const { el, gettext, ngettext, interpolate, playerName } = ctx;
    const pgettext = window.pgettext || ((context, text) => text);
    let picked = null; // stage 5: the row position the leader has pointed at, before the direction
    let showChoice = null; // stage 5: "show" or "hide" waiting for its confirmation

    function tileLabel(code) {
      return code || gettext("a face-down tile");
    }

    function tileNode(code, options) {
      const opts = options || {};
      const cls = ["tile"];
      if (!code) cls.push("back");
      if (opts.small) cls.push("small");
      if (opts.vertical) cls.push("vertical");
      if (opts.extra) cls.push(opts.extra);
      const label = opts.label || tileLabel(code);
      const node = el("span", { class: cls.join(" "), role: "img", "aria-label": label, title: label,
        "data-tile": code || null });
      node.appendChild(tileSvg(code, opts.vertical));
      return node;
    }

    function stageName(stage) {
      switch (stage) {
        case 1: return pgettext("domino stage", "Stage 1");
        case 2: return pgettext("domino stage", "Stage 2: blind");
        case 3: return pgettext("domino stage", "Stage 3: grab");
        case 4: return pgettext("domino stage", "Stage 4: misère");
        case 5: return pgettext("domino stage", "Stage 5: show or hide");
        default: return "";
      }
    }

    // What the stage means for this deal, said while it is played.
    function stageNote(kind) {
      switch (kind) {
        case "blind": return gettext("Blind: bid before you see your tiles. They turn face up when every bid is in.");
        case "grab": return gettext("Grab: no bidding; every trick is worth +10.");
        case "misere": return gettext("Misère: no bidding; every trick costs −10.");
        case "final": return gettext("Stage 5: the leader turns over a tile of the row; each player gets one tile and chooses in secret to show it or hide it.");
        default: return null;
      }
    }

    function info(view) {
      const items = [
        interpolate(gettext("Deal %(n)s of %(total)s"), { n: view.deal, total: view.deals_total }, true),
        stageName(view.stage),
      ];
      if (view.kind !== "final") items.push(interpolate(ngettext("%(n)s tile each", "%(n)s tiles each", view.tiles), { n: view.tiles }, true));
      items.push(interpolate(gettext("Starts: %(who)s"), { who: playerName(view.starter) }, true));
      const box = el("div", { class: "deal-info" }, items.map((text) => el("span", { text: text })));
      const note = stageNote(view.kind);
      if (note) box.appendChild(el("p", { class: "stage-note notice", "data-kind": view.kind, text: note }));
      // The draw matters as the game starts; later it is in the move log, and a phone needs the room.
      if (view.deal === 1 && view.draw && view.draw.length) box.appendChild(drawBox(view));
      return box;
    }

    // The draw for the first player: every round, every tile drawn.
    function drawBox(view) {
      return el("details", { class: "domino-draw", open: true }, [
        el("summary", { text: interpolate(gettext("The draw for the first player: %(who)s drew the most pips"), { who: playerName(view.first_starter) }, true) }),
      ].concat(view.draw.map((round, i) => el("ol", { class: "draw-round", "data-round": i + 1 }, round.map((item) =>
        el("li", { "data-position": item.seat }, [playerName(item.seat) + ": ", tileNode(item.tile, { small: true })]))))));
    }

    function seats(view) {
      return ctx.renderSeats(view, (pos) => {
        const facts = [];
        if (pos === view.starter) facts.push(el("div", { class: "dealer-mark", text: gettext("starts") }));
        if (view.kind === "final" && pos === view.final_leader) facts.push(el("div", { class: "dealer-mark", text: gettext("leader") }));
        const stats = [];
        if (view.bidding) {
          const bid = view.bids[pos];
          stats.push(el("span", { class: "bid", text: gettext("bid") + ": " + (bid === null || bid === undefined ? "·" : bid) + " " }));
        }
        if (view.kind !== "final") stats.push(el("span", { class: "taken", text: gettext("took") + ": " + view.taken[pos] }));
        stats.push(el("span", { class: "total", text: (stats.length ? " · " : "") + interpolate(gettext("total %(n)s"), { n: view.totals[pos] }, true) }));
        facts.push(el("div", { class: "stats" }, stats));
        if (view.kind === "final") facts.push(finalSeat(view, pos));
        return facts;
      });
    }

    // Stage 5 in a seat's box: its tile when the viewer may see it, and whether it has chosen.
    function finalSeat(view, pos) {
      const box = el("div", { class: "final-seat" });
      const choice = view.choices ? view.choices[pos] : null;
      const tile = view.final_tiles ? view.final_tiles[pos] : null;
      if (tile) box.appendChild(tileNode(tile, { small: true }));
      if (choice === "show") box.appendChild(el("span", { class: "choice-made shows", text: " " + gettext("shows") }));
      else if (choice === "hide") box.appendChild(el("span", { class: "choice-made hides", text: " " + gettext("hides") }));
      else if (view.committed) {
        box.appendChild(el("span", { class: "committed", text: view.committed[pos] ? gettext("has chosen") : gettext("choosing…") }));
      }
      return box;
    }

    function trickBox(view) {
      const center = el("div", { class: "center" });
      center.appendChild(el("div", { class: "trick" }, (view.trick || []).map((p) =>
        el("div", { class: "played" }, [el("small", { text: playerName(p.seat) }), tileNode(p.tile)]))));
      const last = view.last_trick;
      if (last && (!view.trick || view.trick.length === 0)) {
        center.appendChild(el("div", { class: "last-trick" }, [
          el("small", { text: interpolate(gettext("Last trick: %(who)s"), { who: playerName(last.winner) }, true) + " " }),
        ].concat((last.plays || []).map((p) => tileNode(p.tile, { small: true })))));
      }
      // Every tile played in this deal, for counting the trumps still out.
      if (view.played && view.played.length) {
        center.appendChild(el("details", { class: "played-tiles" }, [
          el("summary", { text: interpolate(ngettext("Played this deal: %(n)s tile", "Played this deal: %(n)s tiles", view.played.length), { n: view.played.length }, true) }),
          el("div", { class: "played-list" }, view.played.map((code) => tileNode(code, { small: true }))),
        ]));
      }
      return center;
    }

    // Stage 5's row of 28, face down but for the turned tile; the dealt positions marked, the
    // player's own tile and the tiles shown at the reveal face up where they lay.
    function rowBox(view, legal) {
      const canPick = legal.some((a) => a.type === "pick") && !ctx.pending();
      const faces = {};
      const owners = {};
      (view.positions || []).forEach((position, seat) => {
        owners[position] = seat;
        if (view.final_tiles && view.final_tiles[seat]) faces[position] = view.final_tiles[seat];
      });
      if (view.pick) faces[view.pick.index] = view.pick.tile;
      const row = el("div", { class: "domino-row", role: "group", "aria-label": gettext("The row of 28 tiles") });
      for (let index = 0; index < (view.row_size || 0); index++) {
        const code = faces[index] || null;
        const label = code ? interpolate(gettext("Tile %(n)s of the row: %(tile)s"), { n: index + 1, tile: code }, true)
          : interpolate(gettext("Tile %(n)s of the row, face down"), { n: index + 1 }, true);
        const mark = view.pick && index === view.pick.index ? "turned" : (index in owners ? "dealt" : null);
        const node = tileNode(code, { vertical: true, label: label, extra: mark });
        if (index in owners) node.setAttribute("data-owner", owners[index]);
        if (canPick) {
          row.appendChild(el("button", { type: "button", class: "tile-button" + (picked === index ? " picked" : ""), "data-index": index,
            "aria-pressed": picked === index ? "true" : "false", "aria-label": label,
            onclick: () => { picked = index; ctx.rerender(); } }, [node]));
        } else {
          row.appendChild(node);
        }
      }
      const box = el("div", { class: "center final-center" }, [row]);
      if (view.pick) {
        const direction = view.pick.direction === "left" ? gettext("to the left") : gettext("to the right");
        box.appendChild(el("p", { class: "pick-note", text: interpolate(gettext("%(who)s turned over tile %(n)s, %(tile)s: %(pips)s pips counted %(direction)s."),
          { who: playerName(view.final_leader), n: view.pick.index + 1, tile: view.pick.tile, pips: view.pick.pips, direction: direction }, true) }));
      }
      return box;
    }

    function pickControls(legal) {
      const box = el("div", { class: "pick-controls" });
      if (picked === null) {
        box.appendChild(el("p", { class: "prompt", text: gettext("You lead: point at any tile of the row.") }));
        return box;
      }
      box.appendChild(el("p", { class: "prompt", text: interpolate(gettext("Tile %(n)s: count which way?"), { n: picked + 1 }, true) }));
      const choose = (direction) => {
        const action = legal.find((a) => a.type === "pick" && a.index === picked && a.direction === direction);
        picked = null;
        if (action) ctx.send(action);
      };
      box.appendChild(el("div", { class: "choices directions" }, [
        el("button", { type: "button", class: "choice", "data-direction": "left", disabled: ctx.pending(), onclick: () => choose("left"), text: "← " + gettext("Left") }),
        el("button", { type: "button", class: "choice", "data-direction": "right", disabled: ctx.pending(), onclick: () => choose("right"), text: gettext("Right") + " →" }),
        el("button", { type: "button", class: "secondary", onclick: () => { picked = null; ctx.rerender(); }, text: gettext("Cancel") }),
      ]));
      return box;
    }

    function revealControls(legal) {
      const box = el("div", { class: "reveal-controls" });
      if (showChoice === null) {
        box.appendChild(el("p", { class: "prompt", text: gettext("Show your tile or hide it? Nobody learns your choice until everyone has chosen.") }));
        box.appendChild(el("div", { class: "choices" }, [
          el("button", { type: "button", class: "choice", "data-reveal": "show", disabled: ctx.pending(), onclick: () => { showChoice = "show"; ctx.rerender(); }, text: gettext("Show") }),
          el("button", { type: "button", class: "choice", "data-reveal": "hide", disabled: ctx.pending(), onclick: () => { showChoice = "hide"; ctx.rerender(); }, text: gettext("Hide") }),
        ]));
        return box;
      }
      const show = showChoice === "show";
      box.appendChild(el("p", { class: "prompt confirm", text: show ? gettext("Show your tile? The choice is final.") : gettext("Hide your tile? The choice is final.") }));
      box.appendChild(el("div", { class: "choices" }, [
        el("button", { type: "button", class: "choice", "data-confirm-reveal": showChoice, disabled: ctx.pending(), onclick: () => {
          const action = legal.find((a) => a.type === "reveal" && a.show === show);
          showChoice = null;
          if (action) ctx.send(action);
        }, text: show ? gettext("Yes, show it") : gettext("Yes, hide it") }),
        el("button", { type: "button", class: "secondary", onclick: () => { showChoice = null; ctx.rerender(); }, text: gettext("Cancel") }),
      ]));
      return box;
    }

    function bidControls(view, legal) {
      const bids = legal.filter((a) => a.type === "bid");
      const prompt = view.hand_face_down ? gettext("Your blind bid (your tiles are still face down):") : gettext("Your bid:");
      return el("div", {}, [el("p", { class: "prompt", text: prompt }),
        el("div", { class: "choices bids" }, bids.map((a) => el("button", {
          type: "button", class: "choice bid-choice", "data-bid": a.tricks, disabled: ctx.pending(),
          onclick: () => ctx.send(a), text: a.tricks === 0 ? gettext("Pass") : String(a.tricks) })))]);
    }

    function handBox(view, legal) {
      const plays = new Map(legal.filter((a) => a.type === "play").map((a) => [a.tile, a]));
      const blocked = ctx.current().blocked || {};
      const me = ctx.current().seat;
      const hand = el("div", { class: "hand domino-hand", "aria-label": gettext("Your tiles") });
      if (view.hand_face_down) {
        const title = gettext("Face down until every bid is in");
        for (let i = 0; i < view.hand_sizes[me]; i++) hand.appendChild(tileNode(null, { label: title, extra: "blind" }));
        return hand;
      }
      (view.hand || []).forEach((code) => {
        const action = plays.get(code);
        const canPlay = !!action && !ctx.pending();
        const reason = blocked[code] || (view.phase === "play" && !(view.actors || []).includes(me) ? gettext("Not your turn.") : null);
        hand.appendChild(el("button", { type: "button", class: "tile-button" + (canPlay ? " playable" : ""), "data-tile": code,
          disabled: !canPlay, title: canPlay ? null : reason, onclick: () => ctx.send(action) }, [tileNode(code)]));
      });
      return hand;
    }

    function controls(view) {
      const legal = ctx.current().legal || [];
      const box = el("div", { class: "controls" });
      const types = new Set(legal.map((a) => a.type));
      if (!types.has("pick")) picked = null;
      if (!types.has("reveal")) showChoice = null;
      if (types.has("bid")) box.appendChild(bidControls(view, legal));
      if (view.kind !== "final") {
        box.appendChild(handBox(view, legal));
        return box;
      }
      const mine = view.final_tiles ? view.final_tiles[ctx.current().seat] : null;
      if (mine) box.appendChild(el("div", { class: "my-final-tile" }, [el("span", { text: gettext("Your tile:") + " " }), tileNode(mine)]));
      if (types.has("pick")) box.appendChild(pickControls(legal));
      if (types.has("reveal")) box.appendChild(revealControls(legal));
      if (!legal.length && view.phase === "reveal") {
        box.appendChild(el("p", { class: "prompt", text: gettext("Waiting for the others. Nobody sees your choice until everyone has chosen.") }));
      }
      return box;
    }

    function choiceWords(choice, tile) {
      return choice === "show" ? gettext("shows") + (tile ? " " + tile : "") : gettext("hides");
    }

    function describe(event) {
      const who = playerName(event.seat);
      switch (event.type) {
        case "bid": return event.tricks === 0 ? interpolate(gettext("%(who)s passed"), { who: who }, true)
          : interpolate(gettext("%(who)s bid %(n)s"), { who: who, n: event.tricks }, true);
        case "bids_complete": return gettext("Every bid is in");
        case "draw": return interpolate(gettext("The draw, round %(n)s: %(tiles)s"), { n: event.round,
          tiles: event.draws.map((d) => playerName(d.seat) + " " + d.tile).join(", ") }, true);
        case "first_starter": return interpolate(gettext("%(who)s starts the first deal"), { who: who }, true);
        case "played": return interpolate(gettext("%(who)s played %(tile)s"), { who: who, tile: event.tile }, true);
        case "trick": return interpolate(gettext("%(who)s took the trick"), { who: playerName(event.winner) }, true);
        case "deal_scored": return interpolate(gettext("Deal %(n)s is scored"), { n: event.deal }, true);
        case "new_deal": return interpolate(gettext("Deal %(n)s begins"), { n: event.deal }, true) +
          (event.kind === "bidding" ? "" : " — " + stageName(event.stage));
        case "picked": return interpolate(gettext("%(who)s turned over %(tile)s"), { who: who, tile: event.tile }, true);
        case "committed": return interpolate(gettext("%(who)s has chosen"), { who: who }, true);
        case "revealed": return interpolate(gettext("The choices are revealed: %(choices)s"), {
          choices: event.choices.map((c, seat) => playerName(seat) + " " + choiceWords(c, event.shown[seat])).join(", ") }, true);
        default: return null;
      }
    }

    // The replay's "every hand": tiles, not cards.
    function renderHands(hands) {
      return el("div", { class: "all-hands" }, [el("h3", { text: gettext("Every player's tiles") })].concat(
        hands.map((hand, pos) => el("div", { class: "hand-row", "data-position": pos }, [
          el("span", { class: "name", text: playerName(pos) + ": " }),
        ].concat((hand || []).map((code) => tileNode(code, { small: true })))))));
    }

    return {
      render(view) {
        const me = ctx.current().seat;
        const legal = ctx.current().legal || [];
        return [info(view), seats(view), view.kind === "final" ? rowBox(view, legal) : trickBox(view),
          me === null || me === undefined ? null : controls(view)];
      },
      describe: describe,
      renderHands: renderHands,
    };
  };
})();
