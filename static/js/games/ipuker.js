// Ipuker's table: the round and its leader, who has committed (never what),
// the bank and the fields, and the secret choices — each confirmed first,
// since a commitment is final.
(function () {
  "use strict";
  window.GameRenderers = window.GameRenderers || {};
  window.GameRenderers.ipuker = function (ctx) {
    const { el, gettext, interpolate, playerName } = ctx;
    const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));

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

    function confirmAndSend(action, question) {
      if (window.confirm(question)) ctx.send(action);
    }

    function controls(view) {
      const legal = ctx.current().legal || [];
      const box = el("div", { class: "controls" });
      if (!legal.length) {
        if (view.phase !== "over" && ctx.current().seat !== null) box.appendChild(el("p", { class: "prompt", text: gettext("Waiting for the others. Nobody sees your choice until everyone has chosen.") }));
        return box;
      }
      const stakes = legal.filter((a) => a.type === "stake");
      const cards = legal.filter((a) => a.type === "cards");
      if (stakes.length) {
        const prompt = view.is_leader
          ? interpolate(gettext("The stakes sum to %(n)s. Your stake as the leader:"), { n: view.stakes_sum }, true)
          : gettext("Your secret stake:");
        box.appendChild(el("p", { class: "prompt", text: prompt }));
        box.appendChild(el("div", { class: "choices stakes" }, stakes.map((a) => el("button", {
          type: "button", class: "choice", "data-stake": a.tokens, disabled: ctx.pending(),
          onclick: () => confirmAndSend(a, interpolate(gettext("Stake %(n)s tokens? It cannot be changed."), { n: a.tokens }, true)),
          text: String(a.tokens),
        }))));
      }
      if (cards.length) {
        box.appendChild(el("p", { class: "prompt", text: interpolate(gettext("How many cards do you pass to the leader? (%(fields)s fields)"), { fields: view.fields }, true) }));
        box.appendChild(el("div", { class: "choices card-counts" }, cards.map((a) => el("button", {
          type: "button", class: "choice", "data-count": a.count, disabled: ctx.pending(),
          onclick: () => confirmAndSend(a, interpolate(gettext("Pass %(n)s cards? It cannot be changed."), { n: a.count }, true)),
          text: String(a.count),
        }))));
      }
      return box;
    }

    function describe(event) {
      switch (event.type) {
        case "committed": return interpolate(gettext("%(who)s has chosen"), { who: playerName(event.seat) }, true);
        case "stakes_revealed": return interpolate(gettext("Stakes revealed: %(stakes)s"), { stakes: event.stakes.map((s) => (s === null ? "—" : s)).join(", ") }, true);
        case "leader_staked": return interpolate(gettext("%(who)s staked %(n)s: the bank is %(bank)s"), { who: playerName(event.seat), n: event.tokens, bank: event.bank }, true);
        case "cards_revealed": return interpolate(gettext("Cards revealed: %(counts)s"), { counts: event.counts.map((c) => (c === null ? "—" : c)).join(", ") }, true);
        case "new_round": return interpolate(gettext("Round %(n)s begins"), { n: event.round }, true);
        default: return null;
      }
    }

    return {
      render(view) { return [info(view), seats(view), ctx.current().seat === null ? null : controls(view)]; },
      describe: describe,
    };
  };
})();
