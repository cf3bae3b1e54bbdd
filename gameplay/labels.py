"""How the site names a game and its table in words, in the active language:
the game's name, the table's variant ("подкидной, 2×2 парами"), its time
control, and the labels of every option (the new-table form's choices and the
lobby's words alike). The models know none of it: pages, forms and emails
ask here (templates through the `game_labels` filters).
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from gameplay.clocks import format_duration
from gameplay.engine import get_engine
from gameplay.engine.cards import SUIT_SYMBOLS
from gameplay.i18n import engine_name
from gameplay.schedules import domino_poker

# The options' choices, as the new-table form offers them and the lobby names them.
DURAK_MODES = [("podkidnoy", _("podkidnoy (throw-in)")), ("perevodnoy", _("perevodnoy (transfer)"))]
IPUKER_LEADER_ORDERS = [("clockwise", _("clockwise")), ("random", _("random"))]
IPUKER_OVERFLOWS = [("basic", _("basic: players pay")), ("kids", _("kids: nobody wins")),
                    ("cards", _("cards: random layout"))]
ODESSA_DEALER_RULES = [("not_equal", _("may not make the bids add up to the cards")),
                       ("free", _("any bid (beginners)")),
                       ("over", _("must make the bids add up to more than the cards"))]
ODESSA_JOKER_DEMANDS = [("any_trick", _("on any lead")), ("first_trick_only", _("on the first trick of a deal only")),
                        ("off", _("never"))]
ODESSA_SPECIALS = {"blind": pgettext_lazy("odessa special", "blind"), "golden": pgettext_lazy("odessa special", "golden"),
                   "miser": pgettext_lazy("odessa special", "miser"),
                   "no_trump": pgettext_lazy("odessa special", "no trump")}


def choice(choices: list, value) -> str:
    """The label of `value` among `choices` (the value itself if it has none)."""
    return str(dict(choices).get(value, value))


def game_name(game) -> str:
    """A game's name in the active language ("Джокер")."""
    return engine_name(get_engine(game.engine))


def variant_label(game) -> str:
    """The table's variant in a few words ("podkidnoy, 2×2 in pairs"; "3 players")."""
    return variant_words(game.engine, game.options, game.seats_count)


def time_control_label(game) -> str:
    """"1 d + 3 d": the time per move and the reserve."""
    return time_control_words(game.move_seconds, game.reserve_seconds)


def time_control_words(move_seconds: int, reserve_seconds: int) -> str:
    """"1 d + 3 d" from the seconds per move and of the reserve."""
    return f"{format_duration(move_seconds)} + {format_duration(reserve_seconds)}"


def variant_words(engine_slug: str, options: dict, players: int) -> str:
    """A table's variant in a few words, in the active language: Durak's mode
    and pairs ("подкидной, 2×2 парами"), else the number of players."""
    if engine_slug == "domino_poker":
        return domino_poker.variant_words(options, players)
    count = ngettext("%(n)s player", "%(n)s players", players) % {"n": players}
    if engine_slug == "odessa":
        return ", ".join([count, *odessa_variant(options or {})])
    if engine_slug == "ipuker":
        return ", ".join([count, *ipuker_variant(options or {})])
    if engine_slug != "durak":
        return count
    modes = {"podkidnoy": pgettext("durak variant", "podkidnoy"), "perevodnoy": pgettext("durak variant", "perevodnoy")}
    mode = modes.get((options or {}).get("mode"), modes["podkidnoy"])
    if (options or {}).get("teams"):
        return gettext("%(mode)s, 2×2 in pairs") % {"mode": mode}
    return f"{mode}, {count}"


def ipuker_variant(options: dict) -> list[str]:
    """Ipuker's options in a few words each, where they are not the usual ones."""
    words = []
    low, high = options.get("min_stake", 9), options.get("max_stake", 30)
    if (low, high) != (9, 30):
        words.append(gettext("stakes %(low)s to %(high)s") % {"low": low, "high": high})
    if options.get("leader_order", "clockwise") != "clockwise":
        words.append(gettext("leaders: %(order)s") % {"order": choice(IPUKER_LEADER_ORDERS, options["leader_order"])})
    if options.get("overflow", "basic") != "basic":
        words.append(gettext("overflow: %(rule)s") % {"rule": choice(IPUKER_OVERFLOWS, options["overflow"])})
    return words


def odessa_variant(options: dict) -> list[str]:
    """Odessa poker's chosen options in a few words each: the deck and the longest hand always,
    the others where they are not the usual ones."""
    deck = options.get("deck", "36")
    words = [ngettext("%(n)s card", "%(n)s cards", int(deck)) % {"n": deck}]
    if options.get("max_hand"):
        words.append(gettext("up to %(n)s in a hand") % {"n": options["max_hand"]})
    if options.get("trump", "turned") != "turned":
        words.append(gettext("trump %(suit)s") % {"suit": SUIT_SYMBOLS.get(options["trump"], options["trump"])})
    if options.get("dealer_rule", "not_equal") != "not_equal":
        words.append(gettext("dealer: %(rule)s") % {"rule": choice(ODESSA_DEALER_RULES, options["dealer_rule"])})
    if options.get("joker_demand", "any_trick") != "any_trick":
        words.append(gettext("joker's demand: %(rule)s") % {"rule": choice(ODESSA_JOKER_DEMANDS, options["joker_demand"])})
    specials = options.get("specials")
    if specials == []:
        words.append(gettext("no specials"))
    elif specials:
        names = ", ".join(str(ODESSA_SPECIALS.get(name, name)) for name in specials)
        words.append(gettext("specials: %(names)s (×%(times)s)") % {"names": names,
                                                                    "times": options.get("special_multiplier", 2)})
        if options.get("specials_mode") == "once":
            words.append(gettext("each special once"))
    return words


# Durak's clocks, as a table's terms name them.
CLOCK_NAMES = {"attacker": _("attacker"), "defender": _("defender"), "throwers": _("throwers")}


def table_terms(game) -> list[str]:
    """Every term of a table in a few words each, in the active language: its
    variant and options, time control (and Durak's own clocks), what a late
    move costs, night pauses, the series, private or public, rated or casual.
    `game` may be unsaved (a challenge's table before it is accepted)."""
    terms = [variant_words(game.engine, game.options, game.seats_count),
             gettext("%(move)s a move + %(reserve)s reserve") % {"move": format_duration(game.move_seconds),
                                                                  "reserve": format_duration(game.reserve_seconds)}]
    for clock, seconds in sorted((game.timer_seconds or {}).items()):
        terms.append(gettext("%(clock)s's clock: %(time)s") % {"clock": CLOCK_NAMES.get(clock, clock),
                                                               "time": format_duration(seconds)})
    terms.append(gettext("when time runs out: %(rule)s") % {"rule": game.get_on_timeout_display()})
    terms.append(gettext("night pauses apply") if game.night_pause else gettext("no night pauses"))
    if game.series_length > 1:
        terms.append(ngettext("a series of %(n)s game", "a series of %(n)s games", game.series_length)
                     % {"n": game.series_length})
    terms.append(gettext("private table") if game.is_private else gettext("public table"))
    terms.append(gettext("rated") if game.rated else gettext("casual"))
    return terms
