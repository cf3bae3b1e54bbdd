// Ipuker's table: the round and its leader, who has committed (never what),
// the bank and the fields, and the secret choices — each confirmed first,
// since a commitment is final.
(function () {
  "use strict";
  window.GameRenderers = window.GameRenderers || {};
  window.GameRenderers.ipuker = function (ctx) {
    const { el, gettext, ngettext, interpolate, playerName } = ctx;

    function info(view) {
      const items = [
        interpolate(gettext("Round %(n)s of %(total)s"), { n: view.round, total: view.rounds_total }, true),
        interpolate(gettext("Leader: %(who)s"), { who: playerName(view.leader) }, true),
      ];
      if (view.stakes_sum !== null) items.push(interpolate(gettext("Stakes: %(n)s"), { n: view.stakes_sum }, true));
      if (view.bank !== null) items.push(interpolate(gettext("Bank: %(n)s"), { n: view.bank }, true));
      if (view.fields !== null) items.push(interpolate(gettext("Fields: %(n)s"), { n: view.fields }, true));
      if (view.free_now !== null) items.push(interpolate(gettext("Free fields now: %(n)s"), { n: view.free_now }, true));
      return el("div", { class: "deal-info" }, items.map((text) => el("span", { text: text })));
    }

    // What "fields" and "taken" mean, for a player new to the game.
    function legend() {
      return el("p", { class: "legend ipuker-legend" }, [
        gettext("Fields: the places the leader lays out for the cards passed to the leader, 12 to 15 by the size of the bank. Each card passed wins as many tokens as there are free fields."),
        " ",
        gettext("Taken: the tokens a player took from the bank in the round; a player's result is taken minus given."),
      ]);
    }

    function seats(view) {
      return ctx.renderSeats(view, (pos) => {
        const facts = [];
        if (pos === view.leader) facts.push(el("div", { class: "dealer-mark", text: gettext("leader") }));
        if (view.committed && view.committed[pos] !== null) {
          facts.push(el("div", { class: "committed", text: view.committed[pos] ? gettext("has chosen") : gettext("choosing…") }));
        }
        if (view.stakes[pos] !== null) facts.push(el("span", { class: "stake", text: interpolate(gettext("stake %(n)s"), { n: view.stakes[pos] }, true) }));
        if (view.counts[pos] !== null) facts.push(el("span", { class: "count", text: " · " + interpolate(ngettext("%(n)s card passed", "%(n)s cards passed", view.counts[pos]), { n: view.counts[pos] }, true) }));
        facts.push(el("div", { class: "stats", text: interpolate(gettext("balance %(n)s"), { n: view.balance[pos] }, true) }));
        return facts;
      });
    }

    // Who sees what, and when, while this seat waits (the rules: stakes are shown when every stake
    // is in; the leader sees each count as it is chosen, the others when the round ends).
    function waitingWords(view) {
      if (view.phase === "cards") {
        return view.is_leader
          ? gettext("Waiting for the others. You see each count as it is chosen; the other players see the counts when the round ends.")
          : interpolate(gettext("Waiting for the others. %(leader)s, the leader, already sees your count; the other players see it when the round ends."), { leader: playerName(view.leader) }, true);
      }
      if (view.phase === "stake") {
        return view.is_leader
          ? gettext("Waiting for the stakes. Nobody, you included, sees them until every stake is in; then all stakes are shown.")
          : gettext("Waiting for the others. Nobody sees your stake until every stake is in; then all stakes are shown.");
      }
      return gettext("Waiting for the others.");
    }

    function confirmAndSend(action, question) {
      if (window.confirm(question)) ctx.send(action);
    }

    function controls(view) {
      const legal = ctx.current().legal || [];
      const box = el("div", { class: "controls" });
      if (!legal.length) {
        if (view.phase !== "over" && ctx.current().seat !== null) box.appendChild(el("p", { class: "prompt", text: waitingWords(view) }));
        return box;
      }
      const stakes = legal.filter((a) => a.type === "stake");
      const cards = legal.filter((a) => a.type === "cards");
      if (stakes.length) {
        const prompt = view.is_leader
          ? interpolate(gettext("The stakes sum to %(n)s. Your stake as the leader:"), { n: view.stakes_sum }, true)
          : gettext("Your stake (nobody sees it until every stake is in; then all stakes are shown):");
        box.appendChild(el("p", { class: "prompt", text: prompt }));
        box.appendChild(el("div", { class: "choices stakes" }, stakes.map((a) => el("button", {
          type: "button", class: "choice", "data-stake": a.tokens, disabled: ctx.pending(),
          onclick: () => confirmAndSend(a, interpolate(ngettext("Stake %(n)s token? It cannot be changed.", "Stake %(n)s tokens? It cannot be changed.", a.tokens), { n: a.tokens }, true)),
          text: String(a.tokens),
        }))));
      }
      if (cards.length) {
        box.appendChild(el("p", { class: "prompt", text: interpolate(gettext("How many cards do you pass to the leader? (%(fields)s fields)"), { fields: view.fields }, true) }));
        box.appendChild(el("p", { class: "hint secrecy", text: interpolate(gettext("%(leader)s, the leader, sees your count as soon as you choose; the other players see it when the round ends."), { leader: playerName(view.leader) }, true) }));
        box.appendChild(el("div", { class: "choices card-counts" }, cards.map((a) => el("button", {
          type: "button", class: "choice", "data-count": a.count, disabled: ctx.pending(),
          onclick: () => confirmAndSend(a, interpolate(ngettext("Pass %(n)s card? It cannot be changed.", "Pass %(n)s cards? It cannot be changed.", a.count), { n: a.count }, true)),
          text: String(a.count),
        }))));
      }
      return box;
    }

    // "Olga 12, Ivan 20": each seat's value with its player's name (the leader's null left out).
    function byName(values) {
      return values.map((v, seat) => (v === null ? null : playerName(seat) + " " + v)).filter((x) => x !== null).join(", ");
    }

    function describe(event) {
      switch (event.type) {
        case "committed": return interpolate(gettext("%(who)s has chosen"), { who: playerName(event.seat) }, true);
        case "stakes_revealed": return interpolate(gettext("Stakes revealed: %(stakes)s"), { stakes: byName(event.stakes) }, true);
        case "leader_staked": return interpolate(gettext("%(who)s staked %(n)s: the bank is %(bank)s"), { who: playerName(event.seat), n: event.tokens, bank: event.bank }, true);
        case "cards_revealed": return interpolate(gettext("Cards revealed: %(counts)s"), { counts: byName(event.counts) }, true);
        case "new_round": return interpolate(gettext("Round %(n)s begins"), { n: event.round }, true);
        default: return null;
      }
    }

    return {
      render(view) { return [info(view), legend(), seats(view), ctx.current().seat === null ? null : controls(view)]; },
      describe: describe,
    };
  };
})();
