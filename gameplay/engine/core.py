"""What every game engine shares: the ``Engine`` base class, ``IllegalMove``, seeded shuffles.

The engine contract (see ARCHITECTURE.md, "The engine contract")
-----------------------------------------------------------------
An engine is a stateless object; a game's whole state is a plain JSON dict
(string keys, lists, ints, bools, strings, ``None``) that the platform stores
as it is. ``apply`` never changes the state it is given: it returns a new one
together with a list of public events.

Randomness (the documented shuffle algorithm)
---------------------------------------------
Every shuffle of a game is derived from ``(seed, deal number)`` only. The
seed is a whole number, secret until the game ends: 256 random bits for
games made since issue 24 (an offline search of its published SHA-256 is
hopeless), 63 bits for older ones; the derivation is the same for both:

1. Build the deck in its fixed canonical order (see ``cards.make_deck``).
2. Take the SHA-256 digest of the UTF-8 text ``f"{seed}:{deal_no}"``; its first
   8 bytes, read as a big-endian unsigned integer, seed a ``random.Random``
   (CPython's Mersenne Twister).
3. Shuffle the deck in place with that generator's ``shuffle``.

Deal number 0 is reserved for choosing the first dealer (Joker's
"тузование"); the deals of the game are numbered from 1. A game therefore
replays exactly from its seed and its list of moves, and anyone who learns
the seed after the game can check every deal.

Rules versions
--------------
Every engine declares ``rules_version``, the version of its rules that new
games start under, and every state records the version it is played under
(``state["rules"]``). A change that alters what happens in a game bumps the
version and adds a line to the changelog in the engine module's docstring;
the engine keeps the older versions' behaviour reachable by checking
``state["rules"]`` where the rules differ, so a game started under an older
version plays on, and replays, as it did. Where the older behaviour must not
go on (Durak's throwers' window told everybody who could throw in), the
engine's ``upgrade`` migrates a state at a safe point; the platform records
that upgrade as a move, so replays repeat it. ``start(..., rules_version=n)``
starts a game under an older version (replays use it).

Messages for players, and how they are translated
-------------------------------------------------
The engines import nothing from Django, so they cannot call ``gettext``.
Every sentence meant for a player is instead an English *template* with
named parameters, marked with the no-op ``N_`` so that ``makemessages
--keyword=N_`` (``make messages``) collects it into ``locale/*/django.po``::

    raise IllegalMove(N_("Bid from 0 to %(cards)s tricks."), cards=cards)

``IllegalMove`` (and ``InvalidSetup``, the ``ValueError`` of
``validate_options``/``check_players``) keeps ``template``, ``params`` and
``message`` (the English text, ``template % params``). The Django side
translates with ``gameplay.i18n.illegal_move_text(exc)``, which is
``gettext(exc.template) % exc.params`` in the active language.

Rules for templates: one complete sentence (or a few) per template, never
built from pieces; ``%(name)s`` placeholders only (no positional ``%s``, no
f-strings, no ``{}``), and parameters that read the same in every language:
numbers, card codes written with suit symbols (``"Q♠"``, ``"10♥"`` via
``cards.describe``), suit symbols, the player's own input (``repr``) and the
protocol's keywords. Where a sentence would need an English word as a
parameter (a phase, a kind of move, "the joker"), write one template per
case instead. A literal ``%`` in a template with parameters is written
``%%``.
"""

from __future__ import annotations

import hashlib
import marshal
import random
from typing import Any

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


def N_(text: str) -> str:
    """Mark an English message template for translation; returns ``text`` unchanged.

    ``makemessages --keyword=N_`` finds the marked strings; the Django side
    translates them when it shows the message (see the module docstring).
    """
    return text


def fill(template: str, params: dict[str, Any]) -> str:
    """``template % params``; a template without parameters is returned as it is."""
    return template % params if params else template


class IllegalMove(Exception):
    """A move the rules do not allow, with a sentence a player understands.

    ``IllegalMove(N_("You do not hold %(card)s."), card="Q♠")``: ``template``
    is the marked English template, ``params`` its named parameters and
    ``message`` the English sentence (``template % params``).
    """

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        self.message = fill(template, params)
        super().__init__(self.message)


class InvalidSetup(ValueError):
    """Options or a number of players a game does not accept (a ``ValueError``).

    Carries ``template``, ``params`` and ``message`` like ``IllegalMove``, so
    the Django side translates it the same way.
    """

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        self.message = fill(template, params)
        super().__init__(self.message)


def deal_rng(seed: int, deal_no: int) -> random.Random:
    """The random generator for one deal: seeded from SHA-256 of ``"{seed}:{deal_no}"``."""
    digest = hashlib.sha256(f"{seed}:{deal_no}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def shuffled(deck: list[str], seed: int, deal_no: int) -> list[str]:
    """A new list: ``deck`` (in canonical order) shuffled for deal ``deal_no`` of game ``seed``."""
    cards = list(deck)
    deal_rng(seed, deal_no).shuffle(cards)
    return cards


def seed_digest(seed: int) -> str:
    """The public SHA-256 (hex) of a seed, shown from the start so players can check deals later."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def clone(state: State) -> State:
    """A deep copy of a JSON state. ``marshal`` copies plain data four times
    faster than a JSON round trip (and ``copy.deepcopy``), and a state holds
    nothing but plain JSON (``tests/engine/test_states_are_plain_json.py``),
    which the round trip would have changed."""
    return marshal.loads(marshal.dumps(state))


# The state's list of complete deals' (rounds') records: appended to, never
# changed once appended (see each engine's state layout).
HISTORY = "history"


def clone_for_move(state: State) -> State:
    """The copy a move changes: a deep copy of everything but the records of
    ``state["history"]``, which the copy shares (in a new list, so that
    appending to it leaves ``state`` untouched). A move then costs the same
    early and late in a game: copying the whole state made each move's copy
    grow with the deals played (0.1 ms at the start of a Joker game, 0.9 ms
    near its end)."""
    history = state.get(HISTORY)
    if not isinstance(history, list):
        return clone(state)
    rest = clone({key: value for key, value in state.items() if key != HISTORY})
    return {key: list(history) if key == HISTORY else rest[key] for key in state}


def made_in_phase(made_at: int | None, phase_since: int) -> bool:
    """Whether a secret move made on version ``made_at`` (None: unknown, taken
    as now) was made during the simultaneous phase that began at ``phase_since``."""
    if made_at is None:
        return True
    return not isinstance(made_at, bool) and isinstance(made_at, int) and made_at >= phase_since


def forfeited(state: State, seat: int, players: int) -> State:
    """A new state of a game that ends now with ``seat`` placed last (a
    time-out forfeit or a resignation), for games whose phases end in "over"
    and whose state names the seat to move in ``turn``."""
    if state["phase"] == "over":
        raise IllegalMove(N_("The game is already over."))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise IllegalMove(N_("There is no seat %(seat)s at this table."), seat=repr(seat))
    new_state = clone_for_move(state)
    new_state.update({"phase": "over", "turn": None, "forfeited": seat})
    return new_state


def parse_envelope(action: Any, keys: dict[str, set[str]], unknown_kind: str,
                   unexpected_fields: dict[str, str]) -> tuple[str, bool]:
    """An action's type and its ``auto`` flag, after checking its shape.

    ``keys`` maps each kind of move to its fields (``"type"`` included);
    ``unknown_kind`` is the refusal for any other kind (a template with
    ``%(kind)s``); ``unexpected_fields`` the refusal per kind for extra fields
    (templates with ``%(fields)s``). Every move may carry ``"auto": true``,
    added by the platform to moves it made for a player out of time.
    """
    if not isinstance(action, dict):
        raise IllegalMove(N_('A move must be an object with a "type".'))
    action_type = action.get("type")
    if not isinstance(action_type, str) or action_type not in keys:
        raise IllegalMove(unknown_kind, kind=repr(action_type))
    unexpected = sorted(str(key) for key in action if key not in keys[action_type] | {"auto"})
    if unexpected:
        raise IllegalMove(unexpected_fields[action_type], fields=", ".join(unexpected))
    is_auto = action.get("auto", False)
    if not isinstance(is_auto, bool):
        raise IllegalMove(N_('"auto" must be true or false.'))
    return action_type, is_auto


def require_int(value: object, refusal: str) -> int:
    """``value`` if it is an int (not a bool), else ``IllegalMove(refusal)``.

    ``refusal`` is a whole sentence marked with ``N_``, such as
    ``N_("A bid must be a whole number.")``.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove(refusal)
    return value


class Engine:
    """Base class of the game engines; subclasses implement the contract methods.

    Class attributes: ``slug`` (registry key), ``name`` (shown to players;
    English, marked with ``N_`` so the Django side can ``gettext`` it),
    ``min_players`` and ``max_players``.
    """

    slug: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2
    # True where the rules let the table choose between an automatic move and
    # the loss of the game when time runs out (Joker's ``on_timeout``).
    table_chooses_on_timeout: bool = False
    # The score sheet writes points in units of this many (Joker: hundreds).
    sheet_points_per_unit: int = 1
    # The version of the rules new games start under (see "Rules versions" in
    # the module docstring); bumped by every change that alters what happens in
    # a game, with a line in the engine module's changelog.
    rules_version: int = 1

    # A move a player may say in advance, for one stretch of the game (Durak's
    # "done for me in this bout"); the platform applies it when the game waits
    # for that seat with this move legal, in the same stretch.
    ahead_action: Action | None = None

    def ahead_scope(self, state: State) -> int | None:
        """The number of the stretch of the game now (Durak: the bout), for moves said in advance."""
        return None

    def may_order_ahead(self, state: State, seat: int) -> bool:
        """True if ``seat`` may say ``ahead_action`` in advance now."""
        return False

    # -- rules versions ----------------------------------------------------
    def check_rules_version(self, version: int | None) -> int:
        """The rules version a new game starts under: ``version``, or the current one if ``None``."""
        if version is None:
            return self.rules_version
        if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= self.rules_version:
            raise InvalidSetup(N_("Unknown rules version %(version)s: this game has versions 1 to %(last)s."),
                               version=repr(version), last=self.rules_version)
        return version

    def upgrade(self, state: State) -> State | None:
        """``state`` migrated to the next rules version, if it is older than the
        current one and at a point where the migration is safe; else ``None``.

        Pure like ``apply``. The platform calls it after every move and
        records each upgrade as a move of its own, so replays repeat it at the
        same point. An engine whose rules never changed has nothing to upgrade.
        """
        return None

    # -- options ---------------------------------------------------------
    def default_options(self) -> dict:
        """The options a new table gets when nothing is chosen."""
        return {}

    def validate_options(self, options: dict) -> dict:
        """``options`` with defaults filled in; ``InvalidSetup`` (a ``ValueError``) for anything unknown or invalid."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise InvalidSetup(N_("The options of a game must be a JSON object."))
        defaults = self.default_options()
        unknown = sorted(set(options) - set(defaults))
        if unknown:
            if not defaults:
                raise InvalidSetup(N_("Unknown option(s): %(unknown)s. This game has no options."),
                                   unknown=", ".join(unknown))
            raise InvalidSetup(N_("Unknown option(s): %(unknown)s (known: %(known)s)."),
                               unknown=", ".join(unknown), known=", ".join(sorted(defaults)))
        return {**defaults, **options}

    def check_options_for_players(self, options: dict, players: int) -> dict:
        """``options`` if they fit that many players (Durak's pairs need 4); ``InvalidSetup`` otherwise."""
        return options

    def next_game_options(self, options: dict, outcome: dict) -> dict:
        """The options of the next game of a series, given how this one ended."""
        return options

    def accepts_stale(self, state: State, seat: int, action: Action, made_at: int | None = None) -> bool:
        """Whether ``action``, made on an older version (``made_at``), is judged
        against the current state instead of being refused as stale: true for
        moves that do not depend on what the others did meanwhile (a secret
        commitment, a Durak throw-in)."""
        return False

    def check_players(self, players: int) -> None:
        """``InvalidSetup`` (a ``ValueError``) unless ``players`` fits the game."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidSetup(N_("The number of players must be a whole number."))
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                raise InvalidSetup(N_("This game is played by exactly %(players)s players."),
                                   players=self.min_players)
            raise InvalidSetup(N_("This game is played by %(min)s to %(max)s players."),
                               min=self.min_players, max=self.max_players)

    # -- the contract ------------------------------------------------------
    def start(self, players: int, options: dict, seed: int, rules_version: int | None = None) -> State:
        raise NotImplementedError

    def actors(self, state: State) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict:
        raise NotImplementedError

    def refusal(self, state: State, seat: int, action: Action) -> IllegalMove | None:
        """The ``IllegalMove`` that ``apply`` would raise for ``action``, or
        ``None`` if the move is legal; nothing is applied. The platform asks
        it (through ``refusals``) for every card in hand that cannot be
        played now (the reason shown on the card). By default it applies the
        move and drops the result; an engine whose checks come before any
        change overrides it to skip the copy of the state."""
        try:
            self.apply(state, seat, action)
        except IllegalMove as exc:
            return exc
        return None

    def refusals(self, state: State, seat: int, actions: list[Action]) -> list[IllegalMove | None]:
        """``refusal`` of each action, in order: what the platform asks for a
        whole hand's cards at once. By default one ``refusal`` each; an engine
        overrides it to work out once what the actions share (the turn, the
        trick, what the hand must play)."""
        return [self.refusal(state, seat, action) for action in actions]

    def timers(self, state: State) -> list[dict]:
        """Who is on the clock: ``[{"seat", "expiry": "auto"|"forfeit", "clock"?: name,
        "reserve"?: bool, "restart"?: bool}]``. The platform charges the time,
        runs the reserve after the clock if ``reserve`` (default true), restarts
        a running clock when ``restart``, and on expiry applies ``auto_action``
        or ``forfeit``. By default every actor, and expiry forfeits. A seat on
        the clock is a seat the game waits for (the "your move" badge counts them)."""
        return [{"seat": seat, "expiry": "forfeit"} for seat in self.actors(state)]

    def auto_action(self, state: State, seat: int) -> Action:
        raise NotImplementedError

    def forfeit(self, state: State, seat: int) -> State:
        raise NotImplementedError

    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    def outcome(self, state: State) -> dict:
        raise NotImplementedError

    def sheet(self, state: State) -> dict:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.slug!r}>"
