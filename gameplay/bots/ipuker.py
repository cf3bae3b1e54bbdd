"""The Ipuker computer player: ``choose_ipuker_action(view, legal, rng)``.

Pure Python (no Django): it reads only the seat's view and its legal actions,
never the state, so it knows no more than the player it stands in for.

- Stake (non-leader): around the middle of the allowed range, with a little
  noise. A stake goes to the bank, and so mostly to the leader, but a bigger
  bank means more fields for everybody.
- Leader's stake, chosen from the sum of the others' stakes: the fewest
  fields he can get (more fields only pay the others), and within that
  bracket of the bank any stake up to its top (the leader gets back what is
  left in the bank, so his own stake costs him nothing while the fields stay
  the same).
- Cards: the count with the best expected win against a guess of the other
  two players (each around a quarter of the fields, the symmetric choice),
  kept to counts that leave free ≥ 0 under the central guess, valuing an
  overflow by the table's ``overflow`` option.

Levels 2 and 3 (``IPUKER_SEARCH``): PIMC to the end of the round, for the
non-leaders' stakes, the leader's stake and the card counts. The hidden
information is the others' secret commitments; ``determinise_ipuker`` takes
back every commitment the seat cannot see, and the rollout's level-1
players make them again (a model of the others as the level-1 player), so
the search answers the others' likely choices instead of peeking at them.
PIMC, not ISMCTS: a round is three simultaneous decisions deep, and the
search evaluates each legal stake against many sampled answers.
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.bots.sampling import fresh_seed
from gameplay.bots.search import SearchGame, relative_score, view_policy
from gameplay.engine.core import clone
from gameplay.engine.ipuker import FIELD_BRACKETS, PLAYERS, fields_for

Action = dict[str, Any]

# The share of the allowed stake range a non-leader's stake may stray from its middle.
STAKE_SPREAD = 1 / 6
# How the other two players' counts are guessed: offsets from a quarter of the fields, with weights.
GUESS_OFFSETS = ((-1, 1), (0, 2), (1, 1))


def choose_ipuker_action(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The bot's move for the seat whose ``view`` and ``legal`` actions are given."""
    if not legal:
        raise ValueError("This seat has no move to make now.")
    phase = view.get("phase")
    if phase == "stake":
        return choose_stake(legal, rng)
    if phase == "leader_stake" and view.get("stakes_sum") is not None:
        return choose_leader_stake(view["stakes_sum"], legal, rng)
    if phase == "cards" and view.get("fields") is not None:
        return choose_cards(view["fields"], view.get("options", {}).get("overflow", "basic"), legal, rng)
    return rng.choice(legal)


def _by_value(legal: list[Action], key: str) -> dict[int, Action]:
    return {action[key]: action for action in legal}


def choose_stake(legal: list[Action], rng: random.Random) -> Action:
    """A non-leader's stake: near the middle of the allowed range."""
    stakes = _by_value(legal, "tokens")
    lowest, highest = min(stakes), max(stakes)
    middle = (lowest + highest) / 2
    spread = max(1.0, (highest - lowest) * STAKE_SPREAD)
    wanted = round(middle + rng.uniform(-spread, spread))
    return stakes[min(max(wanted, lowest), highest)]


def bracket_top(bank: int) -> int | None:
    """The largest bank with the same number of fields as ``bank`` (``None``: no upper end)."""
    fields = fields_for(bank)
    higher = [lowest for lowest, more in FIELD_BRACKETS if more > fields]
    return min(higher) - 1 if higher else None


def choose_leader_stake(stakes_sum: int, legal: list[Action], rng: random.Random) -> Action:
    """The leader's stake: the fewest fields, any stake that keeps the bank in that bracket."""
    stakes = _by_value(legal, "tokens")
    lowest = min(stakes)
    top = bracket_top(stakes_sum + lowest)
    if top is None:  # already the most fields: nothing to choose
        return stakes[lowest]
    return stakes[rng.choice([t for t in stakes if stakes_sum + t <= top])]


def expected_win(count: int, fields: int, others: int, overflow: str) -> float:
    """What passing ``count`` cards wins when the others pass ``others`` (negative: paid)."""
    free = fields - count - others
    if free >= 0 or overflow == "basic":
        return count * free
    if overflow == "kids":
        return 0.0
    # "cards": the cards are laid out at random; a share -free/total of them find no field.
    total = count + others
    return -count * (-free) / total if total else 0.0


def choose_cards(fields: int, overflow: str, legal: list[Action], rng: random.Random) -> Action:
    """The count with the best expected win against a guess of the other two players."""
    counts = _by_value(legal, "count")
    per_player = fields / 4 + rng.uniform(-0.5, 0.5)
    guesses: list[tuple[int, int]] = []  # (others' total, weight)
    for first, weight_a in GUESS_OFFSETS:
        for second, weight_b in GUESS_OFFSETS:
            guesses.append((max(0, round(2 * per_player) + first + second), weight_a * weight_b))
    weights = sum(weight for _, weight in guesses)
    central = max(0, round(2 * per_player))
    safe = [c for c in counts if fields - c - central >= 0] or list(counts)

    def value(count: int) -> float:
        return sum(weight * expected_win(count, fields, others, overflow) for others, weight in guesses) / weights

    best = max(value(count) for count in safe)
    return counts[rng.choice([count for count in safe if value(count) >= best - 1e-9])]


# -- the search levels' world sampler ------------------------------------------------


def determinise_ipuker(engine: Any, state: dict, seat: int, rng: random.Random) -> dict:
    """A world agreeing with what ``seat`` knows: the revealed stakes and counts,
    its own, the leader's stake once made, the leaders so far. Every value it
    cannot see is taken back: another player's secret stake or card count is
    made uncommitted (the rollout's players choose again), the leaders of the
    later rounds in ``random`` order are drawn afresh, and the seed (the
    ``cards`` overflow's layout) is new."""
    view = engine.view(state, seat)
    world = clone(state)
    for other in range(PLAYERS):
        if other == seat:
            continue
        if view["stakes"][other] is None:
            world["stakes"][other] = None
            world["auto"][other] = False
        if view["counts"][other] is None:
            world["counts"][other] = None
            if state["phase"] == "cards":
                world["auto"][other] = False
    world["leader_plan"] = sampled_leader_plan(view, rng)
    world["seed"] = fresh_seed(rng)
    return world


def sampled_leader_plan(view: dict, rng: random.Random) -> list[int]:
    """The leaders so far, then the others: clockwise they follow from the first; in ``random`` order shuffled."""
    leaders = list(view["leaders"])
    if view["options"]["leader_order"] == "clockwise":
        return [(leaders[0] + offset) % PLAYERS for offset in range(PLAYERS)]
    rest = [other for other in range(PLAYERS) if other not in leaders]
    rng.shuffle(rest)
    return [*leaders, *rest]


IPUKER_SEARCH = SearchGame(
    determinise=determinise_ipuker,
    rollout_policy=view_policy(choose_ipuker_action),
    horizon_key=lambda state: state["round"],
    value=lambda engine, state, seat: relative_score(engine.totals(state), seat),
)
