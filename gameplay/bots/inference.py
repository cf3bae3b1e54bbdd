"""Hard facts the public record proves about hidden hands, and dealing around them.

A player who did not follow suit has none of that suit; one who did not
trump when void has no trump; one who answered a joker's "highest" demand
with a card has no higher card of the suit; in domino Poker one who did not
play a trump on a trump or poker lead has no trump, and one who answered the
poker with a trump has no stronger one. These facts are *exclusions*: per
seat, the unseen cards (or tiles) it cannot hold. The search's determinisers
deal the unseen cards only to places that may hold them
(``deal_avoiding``), so every sampled world agrees with the facts as well as
with the seat's own view.

Facts come from the engines' own duty rules, one play at a time: a card
``x`` is excluded from the hand that played ``c`` on a trick when a hand of
just ``{c, x}`` could not have played ``c`` there. For the duties of these
games (follow, the highest of the suit, trump, the strongest trump) a play
is illegal from a hand exactly when it is illegal from the pair of the card
and one of the hand's cards, so the test is exact and no rule is written
twice.

Trick history. Joker and Odessa keep only the cards played this deal in
order (``played``), the current trick and the last complete trick (with the
jokers' modes). The seats of earlier plays are rebuilt from the first
leader: a trick without a joker has one winner; a trick with a joker whose
mode is not on record may have several, and every possible history is kept
whose winners agree with the tricks taken per seat and the leader of the
trick in play. A fact counts only if every such history proves it; a trick
led by a joker whose mode and suit are not on record proves nothing.
Everything here is public (the same for every seat), pure and cached.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product

from gameplay.engine.domino_poker_rules import allowed_tiles, trick_winner
from gameplay.engine.tricks import JokerRules, Play, Trick, obligation

Exclusions = tuple[frozenset[str], ...]

MAX_HISTORIES = 256  # joker tricks of unknown mode branch the rebuilt history; beyond this, no facts


# -- trick games with a joker (Joker, Odessa poker) -----------------------------------------


def trick_view_exclusions(view: dict, played: Sequence[str], deck: Sequence[str], rules: JokerRules) -> Exclusions:
    """The exclusions of a Joker or Odessa deal from a seat's ``view`` (both
    games' views share the keys used) and the cards ``played`` this deal."""
    players = view["players"]
    if view["phase"] != "play" or view.get("trump_hidden"):
        return no_exclusions(players)
    last = view["last_trick"]
    last_plays = plays_of(last["plays"]) if last and last["deal"] == view["deal"] else None
    return joker_game_exclusions(tuple(deck), players, (view["dealer"] + 1) % players, tuple(played),
                                 plays_of(view["trick"]) or (), last_plays, tuple(view["taken"]),
                                 view["leader"], view["trump"], rules)


@lru_cache(maxsize=512)
def joker_game_exclusions(deck: tuple[str, ...], players: int, first_leader: int, played: tuple[str, ...],
                          trick: tuple[Play, ...], last_trick: tuple[Play, ...] | None,
                          taken: tuple[int, ...], next_leader: int | None, trump: str | None,
                          rules: JokerRules) -> Exclusions:
    """Per seat, the cards of ``deck`` it cannot hold now, from this deal's plays.

    ``played``: every card played this deal in order (the current trick's
    too); ``trick``: the current trick's plays; ``last_trick``: the last
    complete trick of this deal with its modes (``None`` if there is none);
    ``taken``: tricks taken per seat; ``next_leader``: who leads the trick in
    play (``None`` if unknown); ``rules``: the game's ``JokerRules``.
    """
    complete = len(played) - len(trick)
    if complete % players:
        return no_exclusions(players)
    chunks = [played[start:start + players] for start in range(0, complete, players)]
    histories = _histories(chunks, players, first_leader, last_trick, trump, rules)
    found: list[Exclusions] = []
    for tricks, winners in histories:
        if tuple(winners.count(seat) for seat in range(players)) != taken:
            continue
        leader = winners[-1] if winners else first_leader
        if next_leader is not None and leader != next_leader:
            continue
        found.append(_exclusions_of(deck, players, [*tricks, trick], trump, rules))
    if not found:
        return no_exclusions(players)
    return tuple(frozenset.intersection(*(facts[seat] for facts in found)) for seat in range(players))


def _histories(chunks: list[tuple[str, ...]], players: int, first_leader: int, last_trick: tuple[Play, ...] | None,
               trump: str | None, rules) -> list[tuple[list[tuple[Play, ...]], list[int]]]:
    """Every (tricks with seats, winners) the complete tricks may have been."""
    histories: list[tuple[list[tuple[Play, ...]], list[int]]] = [([], [])]
    for index, cards in enumerate(chunks):
        grown = []
        for tricks, winners in histories:
            leader = winners[-1] if winners else first_leader
            is_last = index == len(chunks) - 1
            for plays, winner in _trick_readings(cards, leader, players, last_trick if is_last else None,
                                                 trump, rules):
                grown.append(([*tricks, plays], [*winners, winner]))
        histories = grown
        if len(histories) > MAX_HISTORIES:
            return []
    return histories


def _trick_readings(cards: tuple[str, ...], leader: int, players: int, recorded: tuple[Play, ...] | None,
                    trump: str | None, rules) -> list[tuple[tuple[Play, ...], int]]:
    """(plays, winner) for one complete trick led by ``leader``: one reading, or one per joker mode's winner.

    The plays keep a joker's mode unknown (``None``) unless ``recorded`` (the
    last trick, on record) gives it; a joker led with an unknown mode makes
    the trick prove nothing (``_exclusions_of`` skips it)."""
    seats = [(leader + offset) % players for offset in range(players)]
    if recorded is not None and [play.seat for play in recorded] == seats and \
            tuple(play.card for play in recorded) == cards:
        return [(recorded, Trick(trump, recorded, rules).winner())]
    plays = tuple(Play(seat=seat, card=card) for seat, card in zip(seats, cards))
    jokers = [position for position, card in enumerate(cards) if rules.is_joker(card)]
    if not jokers:
        return [(plays, Trick(trump, plays, rules).winner())]
    winners = set()
    for modes in product(*(_joker_modes(rules, position == 0) for position in jokers)):
        trial = list(plays)
        for position, (mode, suit) in zip(jokers, modes):
            trial[position] = Play(seat=seats[position], card=cards[position], joker=mode, suit=suit)
        winners.add(Trick(trump, tuple(trial), rules).winner())
    return [(plays, winner) for winner in sorted(winners)]


def _joker_modes(rules, leading: bool) -> list[tuple[str, str | None]]:
    if not leading:
        return [(mode, None) for mode in rules.modes if mode != "demand"]
    return [(mode, suit) for mode in rules.modes for suit in "SCDH"]


def _exclusions_of(deck: Sequence[str], players: int, tricks: Iterable[tuple[Play, ...]], trump: str | None,
                   rules) -> Exclusions:
    excluded: list[set[str]] = [set() for _ in range(players)]
    for plays in tricks:
        if not plays or (rules.is_joker(plays[0].card) and plays[0].joker is None):
            continue  # a joker led in a mode not on record: the duty it set is unknown
        for position in range(1, len(plays)):
            play = plays[position]
            if rules.is_joker(play.card):
                continue  # a joker may always be played: it proves nothing
            before = Trick(trump, plays[:position], rules)
            excluded[play.seat].update(
                card for card in deck
                if card != play.card and not obligation([play.card, card], before).allows(play.card))
    return tuple(frozenset(cards) for cards in excluded)


def no_exclusions(players: int) -> Exclusions:
    return tuple(frozenset() for _ in range(players))


def plays_of(dicts: Iterable[dict] | None) -> tuple[Play, ...] | None:
    """Plays from the engine's ``{"seat", "card", "joker", "suit"}`` dicts (``None`` stays ``None``)."""
    if dicts is None:
        return None
    return tuple(Play.from_dict(play) for play in dicts)


# -- domino Poker --------------------------------------------------------------------------


@lru_cache(maxsize=512)
def domino_exclusions(tiles: tuple[str, ...], players: int, starter: int, played: tuple[str, ...]) -> Exclusions:
    """Per seat, the tiles of ``tiles`` it cannot hold now, from this deal's plays (the starter leads first)."""
    excluded: list[set[str]] = [set() for _ in range(players)]
    leader = starter
    for start in range(0, len(played), players):
        trick = played[start:start + players]
        led = trick[0]
        for position in range(1, len(trick)):
            seat, tile = (leader + position) % players, trick[position]
            excluded[seat].update(other for other in tiles
                                  if other != tile and tile not in allowed_tiles([tile, other], led))
        if len(trick) == players:
            leader = (leader + trick_winner(trick)) % players
    return tuple(frozenset(found) for found in excluded)


# -- dealing around the facts ----------------------------------------------------------------


def deal_avoiding(pool: list[str], sizes: Sequence[int], excluded: Sequence[frozenset[str]],
                  rng: random.Random) -> list[list[str]]:
    """Deal ``pool`` (already shuffled) into places of ``sizes`` so no place gets a card it excludes.

    Cards that some place excludes are dealt first, each to a place that may
    hold it, chosen with chance in proportion to the room left there, among
    the places that keep the rest dealable (Hall's condition on the kinds of
    card); then the free cards fill the room left, in the pool's order. If no
    deal can respect the exclusions (they cannot come from a real game), the
    pool is dealt in order, ignoring them.
    """
    if sum(sizes) != len(pool):
        raise ValueError(f"Cannot deal {len(pool)} unseen cards into places for {sum(sizes)}.")
    places = range(len(sizes))
    allowed = {card: _mask(place for place in places if card not in excluded[place]) for card in pool}
    everywhere = _mask(places)
    bound = [card for card in pool if allowed[card] != everywhere]
    room = list(sizes)
    kinds: dict[int, int] = {}
    for card in bound:
        kinds[allowed[card]] = kinds.get(allowed[card], 0) + 1
    if not _dealable(kinds, room):
        return _deal_in_order(pool, sizes)
    hands: list[list[str]] = [[] for _ in places]
    for card in bound:
        kinds[allowed[card]] -= 1
        place = _feasible_place(card, allowed[card], kinds, room, rng)
        hands[place].append(card)
        room[place] -= 1
    free = iter(card for card in pool if allowed[card] == everywhere)
    for place in places:
        hands[place].extend(next(free) for _ in range(room[place]))
    return hands


def _feasible_place(card: str, allowed: int, kinds: dict[int, int], room: list[int], rng: random.Random) -> int:
    """A place for ``card`` drawn in proportion to its room, among those that keep the rest dealable
    (drawn first, checked after: the same chances as drawing among the feasible places only)."""
    choices = [place for place in range(len(room)) if allowed >> place & 1 and room[place]]
    while choices:
        place = rng.choices(choices, weights=[room[choice] for choice in choices])[0]
        if _dealable(kinds, _less(room, place)):
            return place
        choices.remove(place)
    raise ValueError(f"No place may hold {card}.")


def _mask(places: Iterable[int]) -> int:
    mask = 0
    for place in places:
        mask |= 1 << place
    return mask


def _less(room: list[int], place: int) -> list[int]:
    fewer = list(room)
    fewer[place] -= 1
    return fewer


def _dealable(kinds: dict[int, int], room: list[int]) -> bool:
    """Hall's condition: every set of places has room for the cards that may go nowhere else."""
    for subset in range(1, 1 << len(room)):
        need = sum(count for mask, count in kinds.items() if count and mask & ~subset == 0)
        if need > sum(room[place] for place in range(len(room)) if subset >> place & 1):
            return False
    return True


def _deal_in_order(pool: list[str], sizes: Sequence[int]) -> list[list[str]]:
    hands, start = [], 0
    for size in sizes:
        hands.append(pool[start:start + size])
        start += size
    return hands


def violations(hands: Sequence[Sequence[str]], excluded: Sequence[frozenset[str]]) -> list[tuple[int, str]]:
    """(seat, card) for every card a hand holds that the facts exclude (empty when the hands agree)."""
    return [(seat, card) for seat, hand in enumerate(hands) for card in hand if card in excluded[seat]]

