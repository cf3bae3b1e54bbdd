// Odessa poker's table: the deal (its special announced), trump or "no trump", seats with bids
// and tricks, the trick, the controls (bids, cards, the joker's ways: high, low, demand with a
// suit) and, in a blind deal, the player's cards face down until every bid is in.
(function () {
  "use strict";
  window.GameRenderers = window.GameRenderers || {};
  window.GameRenderers.odessa = function (ctx) {
    const { el, gettext, ngettext, interpolate, cardLabel, playerName, SUITS, RED } = ctx;
    const pgettext = window.pgettext || ((context, text) => text);
    let jokerCard = null; // the joker whose way of playing is being chosen

    // 7♠ plays as the joker with the 36 and 52-card decks: shown as a joker, with its face.
    function isJoker(view, code) {
      return code && (code[0] === "X" || code === view.joker_card);
    }
    function card(view, code, extra) {
      const node = ctx.cardNode(code, extra);
      if (isJoker(view, code) && code[0] !== "X") {
        node.classList.add("joker", "joker-seven");
        node.title = gettext("the joker");
        node.textContent = cardLabel(code) + "★";
      }
      return node;
    }
    function specialName(special) {
      switch (special) {
        case "blind": return pgettext("odessa special", "blind");
        case "golden": return pgettext("odessa special", "golden");
        case "miser": return pgettext("odessa special", "miser");
        case "no_trump": return pgettext("odessa special", "no trump");
        default: return "";
      }
    }
    function specialHint(special) {
      switch (special) {
        case "blind": return gettext("Bid before seeing your cards: at least 1. The cards and the trump are shown once every bid is in.");
        case "golden": return gettext("No bids: every trick taken is worth 10 points, multiplied.");
        case "miser": return gettext("No bids: every trick taken costs 10 points, multiplied.");
        case "no_trump": return gettext("No trump in this deal; points are multiplied.");
        default: return "";
      }
    }
    function jokerLabel(mode, suit) {
      const named = suit ? " " + SUITS[suit] : "";
      switch (mode) {
        case "demand": return pgettext("odessa joker", "demand") + named;
        case "high": return pgettext("odessa joker", "high") + named;
        default: return pgettext("odessa joker", "low") + named;
      }
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
        case "trick": return interpolate(gettext("%(who)s took the trick"), { who: playerName(event.winner) }, true);
        case "trump_turned": return event.trump
          ? interpolate(gettext("Every bid is in: the trump is %(suit)s"), { suit: SUITS[event.trump] }, true)
          : gettext("Every bid is in: no trump");
        case "new_deal": return event.special
          ? interpolate(gettext("Deal %(n)s begins: %(special)s"), { n: event.deal, special: specialName(event.special) }, true)
          : interpolate(gettext("Deal %(n)s begins"), { n: event.deal }, true);
        default: return null;
      }
    }
    function renderTrump(view) {
      const trump = el("span", { class: "trump" }, [gettext("Trump") + ": "]);
      if (view.trump_hidden) trump.appendChild(document.createTextNode(gettext("shown once every bid is in")));
      else if (view.trump) trump.appendChild(el("span", { class: "suit" + (RED[view.trump] ? " red" : ""), text: SUITS[view.trump] }));
      else trump.appendChild(el("span", { class: "no-trump", text: gettext("no trump") }));
      if (view.trump_card) { trump.appendChild(document.createTextNode(" ")); trump.appendChild(card(view, view.trump_card, { class: "card small" })); }
      return trump;
    }
    function renderInfo(view) {
      const items = [
        interpolate(gettext("Deal %(n)s of %(total)s"), { n: view.deal, total: view.deals_total }, true),
        interpolate(ngettext("%(n)s card each", "%(n)s cards each", view.cards), { n: view.cards }, true),
        interpolate(gettext("Dealer: %(who)s"), { who: playerName(view.dealer) }, true),
      ];
      const info = el("div", { class: "deal-info" }, items.map((s) => el("span", { text: s })).concat([renderTrump(view)]));
      if (view.bids_status) {
        const label = view.bids_status === "over" ? gettext("bids over the cards: someone falls short") : gettext("bids under the cards: someone takes too many");
        info.appendChild(el("span", { class: "bids-status " + view.bids_status, text: label }));
      }
      if (view.special) {
        info.appendChild(el("p", { class: "odessa-special", "data-special": view.special }, [
          el("b", { text: interpolate(gettext("Special deal: %(name)s ×%(n)s"), { name: specialName(view.special), n: view.multiplier }, true) }),
          " " + specialHint(view.special),
        ]));
      }
      return info;
    }
    function renderSeats(view) {
      return ctx.renderSeats(view, (pos) => {
        const bid = view.bids[pos];
        const held = view.hand_sizes[pos];
        return [
          pos === view.dealer ? el("div", { class: "dealer-mark", title: gettext("dealer"), text: gettext("dealer") }) : null,
          el("div", { class: "stats" }, [
            view.bidding ? el("span", { class: "bid", text: gettext("bid") + ": " + (bid === null || bid === undefined ? "·" : bid) }) : null,
            el("span", { class: "taken", text: " " + gettext("took") + ": " + view.taken[pos] }),
            el("span", { class: "hand-size", text: " · " + interpolate(ngettext("%(n)s card", "%(n)s cards", held), { n: held }, true) }),
            el("span", { class: "total", text: " · " + interpolate(gettext("%(n)s pts"), { n: view.totals[pos] }, true) }),
          ]),
        ];
      });
    }
    function renderCenter(view) {
      const center = el("div", { class: "center" });
      center.appendChild(el("div", { class: "trick" }, (view.trick || []).map((p) =>
        el("div", { class: "played" }, [el("small", { text: playerName(p.seat) }), card(view, p.card),
          p.joker ? el("small", { class: "joker-mode", text: jokerLabel(p.joker, p.suit) }) : null]))));
      if (view.last_trick && (!view.trick || view.trick.length === 0)) {
        const last = view.last_trick;
        center.appendChild(el("div", { class: "last-trick" }, [
          el("small", { text: interpolate(gettext("Last trick: %(who)s"), { who: playerName(last.winner) }, true) + " " }),
        ].concat((last.plays || []).map((p) => card(view, p.card, { class: "card small" })))));
      }
      return center;
    }
    function bidTitle(view, allowed) {
      if (allowed) return null;
      if (view.blind) return gettext("In the blind deal every bid is at least 1, and the dealer's rule applies.");
      if (view.dealer_min_bid !== null && view.dealer_min_bid !== undefined) return gettext("The dealer must make the bids add up to more than the cards.");
      return gettext("The dealer may not make the bids add up to the number of cards.");
    }
    function renderBids(view, legal) {
      const bids = new Set(legal.filter((a) => a.type === "bid").map((a) => a.tricks));
      const buttons = [];
      for (let n = 0; n <= view.cards; n++) {
        const allowed = bids.has(n);
        buttons.push(el("button", { type: "button", class: "choice bid-choice", "data-bid": n, disabled: !allowed || ctx.pending(),
          title: bidTitle(view, allowed), onclick: () => ctx.send({ type: "bid", tricks: n }), text: n === 0 ? gettext("Pass") : String(n) }));
      }
      const prompt = view.blind ? gettext("Your blind bid, before seeing your cards:") : gettext("Your bid:");
      return [el("p", { class: "prompt", text: prompt }), el("div", { class: "choices bids" }, buttons)];
    }
    function renderControls(view) {
      const legal = ctx.current().legal || view.legal_actions || [];
      const box = el("div", { class: "controls" });
      if (view.phase === "bid" && view.actors.includes(ctx.current().seat)) renderBids(view, legal).forEach((n) => box.appendChild(n));
      box.appendChild(renderHand(view, legal));
      if (jokerCard) box.appendChild(renderJokerChoices(view, legal));
      return box;
    }
    function renderHand(view, legal) {
      const plays = legal.filter((a) => a.type === "play");
      const playable = new Set(plays.map((a) => a.card));
      const hand = el("div", { class: "hand", "aria-label": gettext("Your cards") });
      if (view.hand_hidden) {
        // The blind deal: the cards are dealt, and stay face down until every bid is in.
        const title = gettext("Face down until every bid is in");
        const me = ctx.current().seat;
        for (let i = 0; i < (view.hand_sizes[me] || 0); i++) hand.appendChild(el("span", { class: "card back", title: title, "aria-label": title }));
        return hand;
      }
      (view.hand || []).forEach((code) => {
        const canPlay = playable.has(code) && !ctx.pending();
        const reason = ctx.current().blocked[code] || (view.phase === "play" && !view.actors.includes(ctx.current().seat) ? gettext("Not your turn.") : null);
        hand.appendChild(el("button", {
          type: "button", class: "card-button" + (canPlay ? " playable" : ""), "data-card": code,
          disabled: !canPlay, title: canPlay ? null : reason,
          onclick: () => {
            const variants = plays.filter((a) => a.card === code);
            if (variants.length > 1 || (variants[0] && variants[0].joker)) { jokerCard = code; ctx.rerender(); return; }
            ctx.send(variants[0]);
          },
        }, [card(view, code)]));
      });
      return hand;
    }
    function renderJokerChoices(view, legal) {
      const variants = legal.filter((a) => a.type === "play" && a.card === jokerCard);
      if (!variants.length) { jokerCard = null; return null; }
      const choices = variants.map((a) => el("button", { type: "button", class: "choice joker-choice",
        "data-joker": (a.joker || "plain") + (a.suit ? "-" + a.suit : ""),
        onclick: () => { jokerCard = null; ctx.send(a); }, text: a.joker ? jokerLabel(a.joker, a.suit) : cardLabel(a.card) }));
      choices.push(el("button", { type: "button", class: "secondary", onclick: () => { jokerCard = null; ctx.rerender(); }, text: gettext("Cancel") }));
      const modes = [...new Set(variants.filter((a) => a.joker).map((a) => a.joker + (a.suit ? "-led" : "")))];
      const hints = el("ul", { class: "joker-hints" }, modes.map((m) => el("li", { text: jokerHint(m) })));
      return el("div", { class: "choices joker-choices" }, [el("p", { class: "prompt", text: gettext("How do you play the joker?") })].concat(choices, [hints]));
    }
    function jokerHint(mode) {
      switch (mode) {
        case "demand-led": return pgettext("odessa joker", "demand") + " — " + gettext("everyone must play their highest card of the suit you name (without it, any card); the joker takes the trick.");
        case "high-led": return pgettext("odessa joker", "high") + " — " + gettext("the joker is the strongest card and takes the trick; the others follow the suit you name as usual.");
        case "low-led": return pgettext("odessa joker", "low") + " — " + gettext("the joker is weaker than every card; the others must follow the suit you name. It takes the trick only if nobody follows or trumps.");
        case "high": return pgettext("odessa joker", "high") + " — " + gettext("the joker is the strongest card and takes the trick.");
        default: return pgettext("odessa joker", "low") + " — " + gettext("the joker is thrown away: it cannot take the trick.");
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
