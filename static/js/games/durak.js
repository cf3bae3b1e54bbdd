// Durak's table: talon and trump, each player's role and card count, the
// table as attack/beat pairs, and the controls. Cards are picked first (one
// rank for an attack, a throw-in or a transfer; an attack card on the table,
// then a card to beat it), then the button says what to do with them.
(function () {
  "use strict";
  window.GameRenderers = window.GameRenderers || {};
  window.GameRenderers.durak = function (ctx) {
    const { el, gettext, ngettext, interpolate, cardNode, cardLabel, playerName, SUITS, RED } = ctx;
    const picked = new Set(); // hand cards chosen for an attack / throw-in / transfer
    let target = null; // the unbeaten attack card chosen to be beaten

    const ROLE_NAMES = {
      A: () => gettext("attacker"), D: () => gettext("defender"), T: () => gettext("thrower"),
      Z: () => gettext("taking"), won: () => gettext("out: won"), durak: () => gettext("durak"),
      lost: () => gettext("lost"), draw: () => gettext("draw"),
    };

    function roleName(role) {
      return role && ROLE_NAMES[role] ? ROLE_NAMES[role]() : "";
    }

    function info(view) {
      const trump = el("span", { class: "trump" }, [gettext("Trump") + ": ",
        el("span", { class: "suit" + (RED[view.trump] ? " red" : ""), text: SUITS[view.trump] })]);
      if (view.trump_card) { trump.appendChild(document.createTextNode(" ")); trump.appendChild(cardNode(view.trump_card, { class: "card small" })); }
      const items = [
        el("span", { text: interpolate(gettext("Bout %(n)s"), { n: view.bout }, true) }),
        el("span", { class: "talon", text: interpolate(gettext("Talon: %(n)s"), { n: view.talon }, true) }),
        trump,
        el("span", { text: interpolate(gettext("Discard pile: %(n)s"), { n: view.discard }, true) }),
        el("span", { class: "limits", text: interpolate(gettext("Attack cards %(n)s of %(max)s"), { n: view.limits.attack_cards, max: view.limits.max_attack }, true) }),
      ];
      const box = el("div", { class: "deal-info" }, items);
      if (view.shown_trump && view.bout === 1) {
        box.appendChild(el("span", { class: "shown-trump" }, [
          interpolate(gettext("%(who)s shows the lowest trump"), { who: playerName(view.shown_trump.seat) }, true) + " ",
          cardNode(view.shown_trump.card, { class: "card small" })]));
      }
      return box;
    }

    // In pairs (2×2) each box names the seat's partner, who sits opposite.
    function partnerLine(view, pos) {
      const pair = (view.teams || []).find((p) => p.includes(pos));
      if (!pair) return null;
      const partner = pair.find((p) => p !== pos);
      return el("div", { class: "partner", text: interpolate(gettext("partner: %(who)s"), { who: playerName(partner) }, true) });
    }

    // A game ended by a forfeit is shown as one: the seat that lost on time or resigned says so, and
    // a winner still holding cards "won" (never "out", which means all their cards were played).
    function seatRole(view, pos) {
      const role = view.roles[pos];
      if (!view.finished || view.forfeited === null || view.forfeited === undefined) return roleName(role);
      const result = ctx.current().result || {};
      if (pos === view.forfeited) {
        if (result.ending === "resigned") return gettext("resigned");
        if (result.ending === "lost_on_time") return gettext("lost on time");
        return roleName(role);
      }
      if (role === "won" && view.hand_sizes[pos] > 0) return gettext("won");
      return roleName(role);
    }

    function seats(view) {
      return ctx.renderSeats(view, (pos) => [
        partnerLine(view, pos),
        el("div", { class: "role role-" + (view.roles[pos] || "none"), text: seatRole(view, pos) }),
        el("div", { class: "stats", text: interpolate(ngettext("%(n)s card", "%(n)s cards", view.hand_sizes[pos]), { n: view.hand_sizes[pos] }, true) }),
        view.taken[pos] && view.taken[pos].length ? el("div", { class: "taken-cards", title: gettext("Cards taken: everybody saw them") },
          view.taken[pos].map((c) => cardNode(c, { class: "card small" }))) : null,
      ]);
    }

    function legalOf(type) {
      return (ctx.current().legal || []).filter((a) => a.type === type);
    }

    function sameCards(a, b) {
      return a.length === b.length && a.every((c) => b.includes(c));
    }

    function matching(type) {
      const cards = [...picked];
      return legalOf(type).find((a) => sameCards(a.cards, cards)) || null;
    }

    // The defender's card of the hand picked before the attack card it is to beat (one card picked
    // that beats something on the table).
    function beatingCard() {
      if (target || picked.size !== 1) return null;
      const card = [...picked][0];
      return legalOf("beat").some((b) => b.card === card) ? card : null;
    }

    // What the defender does next, in words: with two or more cards to beat, either of his two
    // ways (the card on the table first, or the card of his hand first).
    function defencePrompt(view) {
      if (target) return interpolate(gettext("Beat %(card)s with:"), { card: cardLabel(target) }, true);
      const chosen = beatingCard();
      if (chosen) return interpolate(gettext("Now click the card on the table to beat with %(card)s."), { card: cardLabel(chosen) }, true);
      const beatable = new Set(legalOf("beat").map((b) => b.attack));
      if (beatable.size < 2) return null;
      return gettext("To beat: click a card on the table, then your card to beat it with (or your card first, then the card on the table). Or take the cards.");
    }

    function table(view) {
      const beats = legalOf("beat");
      const chosen = beatingCard();
      const pairs = view.table.map((pair) => {
        // With a card of the hand chosen first, the attack cards it beats are the ones to click.
        const withChosen = chosen && beats.find((b) => b.attack === pair.attack && b.card === chosen);
        const canBeat = !pair.beat && !ctx.pending() && (chosen ? Boolean(withChosen) : beats.some((b) => b.attack === pair.attack));
        const attack = canBeat
          ? el("button", { type: "button", class: "card-button playable" + (target === pair.attack ? " picked" : ""), "data-attack": pair.attack,
            title: withChosen ? interpolate(gettext("Beat this card with %(card)s"), { card: cardLabel(chosen) }, true) : gettext("Choose this card to beat it"),
            onclick: () => {
              if (withChosen) { picked.clear(); target = null; ctx.send(withChosen); return; }
              target = target === pair.attack ? null : pair.attack; ctx.rerender();
            } },
          [cardNode(pair.attack)])
          : cardNode(pair.attack);
        return el("div", { class: "pair" + (pair.beat ? " beaten" : "") }, [attack, pair.beat ? cardNode(pair.beat, { class: "card beat" }) : null]);
      });
      const box = el("div", { class: "durak-table" }, pairs.length ? pairs : [el("p", { class: "muted", text: gettext("The table is empty.") })]);
      if (view.last_bout && !view.table.length) {
        const last = view.last_bout;
        box.appendChild(el("p", { class: "last-bout", text: last.result === "take"
          ? interpolate(gettext("Last bout: %(who)s took the cards"), { who: playerName(last.defender) }, true)
          : gettext("Last bout: beaten, to the discard pile") }));
      }
      return box;
    }

    function hand(view) {
      const beats = legalOf("beat");
      const groupCards = new Set(["attack", "throw", "transfer"].flatMap((t) => legalOf(t).flatMap((a) => a.cards)));
      const beaters = new Set(beats.map((b) => b.card));
      const box = el("div", { class: "hand", "aria-label": gettext("Your cards") });
      (view.hand || []).forEach((code) => {
        const beatMove = target && beats.find((b) => b.attack === target && b.card === code);
        const usable = !ctx.pending() && (beatMove || (!target && (groupCards.has(code) || beaters.has(code))));
        box.appendChild(el("button", {
          type: "button", class: "card-button" + (usable ? " playable" : "") + (picked.has(code) ? " picked" : ""),
          "data-card": code, disabled: !usable,
          onclick: () => {
            if (beatMove) { target = null; ctx.send(beatMove); return; }
            if (picked.has(code)) picked.delete(code); else picked.add(code);
            ctx.rerender();
          },
        }, [cardNode(code)]));
      });
      return box;
    }

    function controls(view) {
      // Forget picks that are no longer in the hand or on the table.
      [...picked].forEach((c) => { if (!(view.hand || []).includes(c)) picked.delete(c); });
      if (target && !view.table.some((p) => p.attack === target && !p.beat)) target = null;
      // One card left to beat: it is chosen already.
      const beatable = [...new Set(legalOf("beat").map((b) => b.attack))];
      if (!target && beatable.length === 1 && !legalOf("transfer").length) target = beatable[0];
      const box = el("div", { class: "controls" });
      const buttons = [];
      const named = { attack: gettext("Attack"), throw: gettext("Throw in"), transfer: gettext("Transfer") };
      ["attack", "throw", "transfer"].forEach((type) => {
        if (!legalOf(type).length) return;
        const move = matching(type);
        buttons.push(el("button", { type: "button", class: "choice", "data-move": type, disabled: !move || ctx.pending(),
          title: move ? null : gettext("Pick cards of one rank first"),
          onclick: () => { picked.clear(); ctx.send(move); }, text: named[type] }));
      });
      const take = legalOf("take")[0];
      if (take) buttons.push(el("button", { type: "button", class: "choice", "data-move": "take", disabled: ctx.pending(), onclick: () => ctx.send(take), text: gettext("Take") }));
      const done = legalOf("done")[0];
      // The throwers' window: "Бито" once everything is beaten, or let the defender take.
      if (done) buttons.push(el("button", { type: "button", class: "choice", "data-move": "done", disabled: ctx.pending(), onclick: () => ctx.send(done),
        text: view.taking ? gettext("Done: the defender takes") : gettext("Done: beaten") }));
      const prompt = defencePrompt(view);
      if (prompt) box.appendChild(el("p", { class: "prompt", text: prompt }));
      box.appendChild(hand(view));
      if (buttons.length) box.appendChild(el("div", { class: "choices durak-moves" }, buttons));
      const ahead = aheadBox();
      if (ahead) box.appendChild(ahead);
      return box;
    }

    // A thrower's "done" said in advance while the bout is attacked or defended:
    // the server presses it for him when the window opens. Only he sees it.
    function aheadBox() {
      const ahead = ctx.current().ahead;
      if (!ahead || !ahead.available) return null;
      return el("label", { class: "ahead" + (ahead.on ? " on" : "") }, [
        el("input", { type: "checkbox", "data-ahead": "", checked: ahead.on,
          onchange: (e) => ctx.sendRaw({ type: "ahead", on: e.target.checked }) }),
        " " + gettext("Say done for me in this bout"),
      ]);
    }

    // Whether the defender takes in the bout the events are about: the attacker's "done" is "бито"
    // only when every card is beaten (set from the view drawn last, then by the events in order).
    let taking = false;

    function describe(event) {
      const who = playerName(event.seat);
      if (event.type === "take" || event.type === "forced_take") taking = true;
      if (event.type === "bout_end" || event.type === "bout") taking = false;
      const cards = (event.cards || []).map(cardLabel).join(" ");
      switch (event.type) {
        case "attack": return interpolate(gettext("%(who)s attacks: %(cards)s"), { who: who, cards: cards }, true);
        case "throw": return interpolate(gettext("%(who)s throws in: %(cards)s"), { who: who, cards: cards }, true);
        case "transfer": return interpolate(gettext("%(who)s transfers: %(cards)s"), { who: who, cards: cards }, true);
        case "beat": return interpolate(gettext("%(who)s beats %(attack)s with %(card)s"), { who: who, attack: cardLabel(event.attack), card: cardLabel(event.card) }, true);
        case "take": return interpolate(gettext("%(who)s takes"), { who: who }, true);
        case "forced_take": return interpolate(gettext("%(who)s cannot beat and takes the cards"), { who: who }, true);
        case "done": return taking
          ? interpolate(gettext("%(who)s throws in no more"), { who: who }, true)
          : interpolate(gettext("%(who)s: done"), { who: who }, true);
        case "left": return interpolate(gettext("%(who)s is out of cards: out of the game, a winner"), { who: who }, true);
        case "bout_end": return event.result === "take"
          ? interpolate(gettext("End of the bout: %(who)s takes the cards"), { who: playerName(event.defender) }, true)
          : gettext("End of the bout: beaten, to the discard pile");
        case "drew": return interpolate(ngettext("%(who)s draws %(n)s card", "%(who)s draws %(n)s cards", event.count), { who: who, n: event.count }, true);
        case "rules": return gettext("The rules of this game were updated: the throwers' window now waits for every thrower.");
        default: return null;
      }
    }

    return {
      render(view) {
        taking = Boolean(view.taking);
        return [info(view), seats(view), table(view), ctx.current().seat === null ? null : controls(view)];
      },
      describe: describe,
    };
  };
})();
