// Joker's table: deal info, seats with bids and tricks, the trick, the
// controls (trump choice, bids, cards, the joker's variants).
(function () {
  "use strict";
  window.GameRenderers = window.GameRenderers || {};
  window.GameRenderers.joker = function (ctx) {
    const { el, gettext, ngettext, interpolate, cardNode, cardLabel, playerName, SUITS, RED } = ctx;
    // Rules: in a 9-card deal the trump is named after the first 3 cards; the
    // other 6 are dealt after it, so each player holds 3 until then.
    const CARDS_BEFORE_TRUMP = 3;
    const pgettext = window.pgettext || ((context, text) => text);
    let jokerCard = null; // the joker whose variant is being chosen

    function suitName(suit) {
      return suit ? SUITS[suit] : gettext("no trump");
    }
    function describe(event) {
      const who = playerName(event.seat);
      switch (event.type) {
        case "played": {
          let s = interpolate(gettext("%(who)s played %(card)s"), { who: who, card: cardLabel(event.card) }, true);
          if (event.joker) s += " (" + jokerLabel(event.joker, event.suit) + ")";
          return s;
        }
        case "bid": return interpolate(gettext("%(who)s bid %(n)s"), { who: who, n: event.tricks }, true);
        case "trump": return interpolate(gettext("%(who)s named trump: %(suit)s"), { who: who, suit: suitName(event.suit) }, true);
        case "trick": return interpolate(gettext("%(who)s took the trick"), { who: playerName(event.winner) }, true);
        case "new_deal": return interpolate(gettext("Deal %(n)s begins"), { n: event.deal }, true);
        default: return null;
      }
    }
    function jokerLabel(mode, suit) {
      // A led joker names a suit ("хочу"/"забирает"); a joker played on a trick is "сверху"/"снизу".
      if (suit) {
        const led = mode === "high" ? pgettext("joker led", "high") : pgettext("joker led", "low");
        return led + " " + SUITS[suit];
      }
      return mode === "high" ? pgettext("joker not led", "high") : pgettext("joker not led", "low");
    }
    function renderInfo(view) {
      const items = [
        interpolate(gettext("Deal %(n)s of %(total)s"), { n: view.deal, total: view.deals_total }, true),
        interpolate(gettext("Pulka %(n)s"), { n: view.pulka }, true),
        interpolate(ngettext("%(n)s card each", "%(n)s cards each", view.cards), { n: view.cards }, true),
        interpolate(gettext("Dealer: %(who)s"), { who: playerName(view.dealer) }, true),
      ];
      const trump = el("span", { class: "trump" }, [gettext("Trump") + ": "]);
      if (view.phase === "trump") trump.appendChild(document.createTextNode(gettext("being chosen")));
      else if (view.trump) trump.appendChild(el("span", { class: "suit" + (RED[view.trump] ? " red" : ""), text: SUITS[view.trump] }));
      else trump.appendChild(document.createTextNode(gettext("no trump")));
      if (view.trump_card) { trump.appendChild(document.createTextNode(" ")); trump.appendChild(cardNode(view.trump_card, { class: "card small" })); }
      const info = el("div", { class: "deal-info" }, items.map((s) => el("span", { text: s })).concat([trump]));
      if (view.bids_status) {
        const label = view.bids_status === "over" ? gettext("over: someone takes too many") : gettext("under: someone falls short");
        info.appendChild(el("span", { class: "bids-status " + view.bids_status, text: label }));
      }
      if (view.deal === 1 && view.tuz && view.tuz.length) {
        const tuz = el("details", { class: "tuz", open: view.phase !== "play" }, [
          el("summary", { text: interpolate(gettext("Choosing the first dealer: %(who)s got the first ace"), { who: playerName(view.first_dealer) }, true) }),
          el("ol", {}, view.tuz.map((x) => el("li", {}, [playerName(x.seat) + ": ", cardNode(x.card)]))),
        ]);
        info.appendChild(tuz);
      }
      return info;
    }
    // Cards a seat holds now: while the trump is named, the first 3 of the deal.
    function heldCards(view, pos) {
      return view.phase === "trump" ? Math.min(CARDS_BEFORE_TRUMP, view.hand_sizes[pos]) : view.hand_sizes[pos];
    }
    function renderSeats(view) {
      return ctx.renderSeats(view, (pos) => {
        const bid = view.bids[pos];
        const held = heldCards(view, pos);
        return [
          pos === view.dealer ? el("div", { class: "dealer-mark", title: gettext("dealer"), text: gettext("dealer") }) : null,
          el("div", { class: "stats" }, [
            el("span", { class: "bid", text: gettext("bid") + ": " + (bid === null || bid === undefined ? "·" : bid) }),
            el("span", { class: "taken", text: " " + gettext("took") + ": " + view.taken[pos] }),
            el("span", { class: "hand-size", text: " · " + interpolate(ngettext("%(n)s card", "%(n)s cards", held), { n: held }, true) }),
          ]),
        ];
      });
    }
    function renderCenter(view) {
      const center = el("div", { class: "center" });
      const trick = el("div", { class: "trick" }, (view.trick || []).map((p) =>
        el("div", { class: "played" }, [el("small", { text: playerName(p.seat) }), cardNode(p.card),
          p.joker ? el("small", { class: "joker-mode", text: jokerLabel(p.joker, p.suit) }) : null])));
      center.appendChild(trick);
      if (view.last_trick && (!view.trick || view.trick.length === 0)) {
        const last = view.last_trick;
        center.appendChild(el("div", { class: "last-trick" }, [
          el("small", { text: interpolate(gettext("Last trick: %(who)s"), { who: playerName(last.winner) }, true) + " " }),
        ].concat((last.cards || last.plays || []).map((p) => cardNode(p.card, { class: "card small" })))));
      }
      return center;
    }
    function renderControls(view) {
      const legal = ctx.current().legal || [];
      const box = el("div", { class: "controls" });
      if (view.phase === "trump" && legal.some((a) => a.type === "trump")) {
        box.appendChild(el("p", { class: "prompt", text: gettext("Name the trump after seeing your first three cards:") }));
        box.appendChild(el("div", { class: "choices trump-choices" }, legal.filter((a) => a.type === "trump").map((a) =>
          el("button", { type: "button", class: "choice", "data-trump": a.suit || "none", disabled: ctx.pending(), onclick: () => ctx.send(a),
            text: a.suit ? SUITS[a.suit] : gettext("No trump") }))));
      }
      if (view.phase === "bid" && view.actors.includes(ctx.current().seat)) {
        box.appendChild(el("p", { class: "prompt", text: gettext("Your bid:") }));
        const bids = new Set(legal.filter((a) => a.type === "bid").map((a) => a.tricks));
        const buttons = [];
        for (let n = 0; n <= view.cards; n++) {
          const allowed = bids.has(n);
          buttons.push(el("button", { type: "button", class: "choice bid-choice", "data-bid": n, disabled: !allowed || ctx.pending(),
            title: allowed ? null : gettext("The dealer may not make the bids add up to the number of cards."),
            onclick: () => ctx.send({ type: "bid", tricks: n }), text: n === 0 ? gettext("Pass") : String(n) }));
        }
        box.appendChild(el("div", { class: "choices bids" }, buttons));
      }
      box.appendChild(renderHand(view, legal));
      if (jokerCard) box.appendChild(renderJokerChoices(legal));
      return box;
    }
    function renderHand(view, legal) {
      const plays = legal.filter((a) => a.type === "play");
      const playable = new Set(plays.map((a) => a.card));
      const hand = el("div", { class: "hand", "aria-label": gettext("Your cards") });
      (view.hand || []).forEach((code) => {
        const canPlay = playable.has(code) && !ctx.pending();
        const reason = ctx.current().blocked[code] || (view.phase === "play" && !view.actors.includes(ctx.current().seat) ? gettext("Not your turn.") : null);
        hand.appendChild(el("button", {
          type: "button", class: "card-button" + (canPlay ? " playable" : ""), "data-card": code,
          disabled: !canPlay, title: canPlay ? null : reason,
          onclick: () => {
            if (code[0] === "X") { jokerCard = code; ctx.rerender(); return; }
            ctx.send(plays.find((a) => a.card === code));
          },
        }, [cardNode(code)]));
      });
      if (view.phase === "trump") hiddenUntilTrump(view, hand);
      return hand;
    }
    // A player who does not name the trump holds his first 3 cards face down until it is named.
    function hiddenUntilTrump(view, hand) {
      const me = ctx.current().seat;
      const title = gettext("Face down until the trump is named");
      for (let i = (view.hand || []).length; i < heldCards(view, me); i++) {
        hand.appendChild(el("span", { class: "card back", title: title, "aria-label": title }));
      }
    }
    function renderJokerChoices(legal) {
      const variants = legal.filter((a) => a.type === "play" && a.card === jokerCard);
      const choices = variants.map((a) => el("button", { type: "button", class: "choice joker-choice",
        "data-joker": a.joker + (a.suit ? "-" + a.suit : ""),
        onclick: () => { jokerCard = null; ctx.send(a); }, text: jokerLabel(a.joker, a.suit) }));
      choices.push(el("button", { type: "button", class: "secondary", onclick: () => { jokerCard = null; ctx.rerender(); }, text: gettext("Cancel") }));
      const modes = [...new Set(variants.map((a) => a.joker + (a.suit ? "-led" : "")))];
      const hints = el("ul", { class: "joker-hints" }, modes.map((m) => el("li", { text: jokerHint(m) })));
      return el("div", { class: "choices joker-choices" }, [el("p", { class: "prompt", text: gettext("How do you play the joker?") })].concat(choices, [hints]));
    }
    // What each way of playing the joker does (shown under the choice; the rules page says more).
    function jokerHint(mode) {
      switch (mode) {
        case "high-led": return pgettext("joker led", "high") + " — " + gettext("the joker is the highest card of the suit you name, and demands it: each player must play the highest card of that suit they hold (without one, a trump). It takes the trick unless trumped or a later joker is played high.");
        case "low-led": return pgettext("joker led", "low") + " — " + gettext("the joker is the lowest card of the suit you name; the others play any card of it. It takes the trick only if nobody plays that suit, a trump or a joker high.");
        case "high": return pgettext("joker not led", "high") + " — " + gettext("the joker beats every card played so far; only a joker played high after it beats it.");
        default: return pgettext("joker not led", "low") + " — " + gettext("the joker is thrown away: it cannot take the trick.");
      }
    }

    return {
      render(view) {
        const me = ctx.current().seat;
        return [renderInfo(view), renderSeats(view), renderCenter(view), me === null || me === undefined ? null : renderControls(view)];
      },
      describe: describe,
    };
  };
})();
