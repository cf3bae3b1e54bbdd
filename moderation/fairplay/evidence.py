"""Fair-play evidence from one finished game's record, and the rule that
says when a pair of players is worth a moderator's look (issue 44).

Pure Python over the engines (no Django): the moderation app feeds it the
record of every finished rated game (`moderation.fairplay.reviews`), and the
benchmark (`bench/fair_play.py`) feeds it games among computer players with
planted cheats, so the same rule is measured that moderators are shown.

Nothing here depends on information the site would not have: after the
game the site holds its whole record (seed and moves), so the deals and
every seat's legal moves at every point are known, and so are what each
player chose instead.

The figures, for each ordered pair of seats (a, b) of one game, both
people (a computer's seat counts for nobody):

- ``together``: they sat at the same rated table (added over games; the
  moderator reads it against how often the pool would seat them together).
- Durak, at tables of three or more (a thrower may add cards to the bout of
  any defender, and may always say "done" instead):
  ``throw_chances_on_partner`` / ``throws_on_partner``: the points of the
  game where a could throw in on b's defence (a throw-in was legal for him)
  and how many times he did; ``throw_chances_on_others`` /
  ``throws_on_others``: the same against every other defender of that
  game. Why evidence: an honest thrower's rate does not depend on who
  defends; one who spares his friend (and so feeds him an easy game) throws
  in on him far less often than on the others.
  ``bouts_led_on_partner`` / ``partner_beat_off``: the bouts a attacked and
  b defended, and how many b beat off; ``bouts_defended_by_partner`` /
  ``partner_beat_off_all``: every bout b defended in that game and how many
  he beat off. Why: cards fed to a friend are cards he can beat.
- Joker and Odessa (trick-taking with bids): ``gift_chances_to_partner`` /
  ``gifts_to_partner``: the tricks where a played last, still needed tricks
  for his bid, held a legal card that would take the trick, and the trick
  would otherwise go to b; and how many of them he let b have.
  ``gift_chances_to_others`` / ``gifts_to_others``: the same when the trick
  would go to any other player. Why: an honest player short of his bid
  takes a trick he can take; one who hands it to a friend pays for it with
  his own score.
  ``spoil_chances_on_others`` / ``spoils_on_others``: the tricks where a
  played last, needed no more tricks (one more costs him), could take the
  trick, and it would otherwise give a third player his exact bid; and how
  many he took (spoiling that player's bid at his own cost);
  ``spoil_chances_on_partner`` / ``spoils_on_partner``: the same when it
  would give b his bid. Why: a pair working together spoils the others'
  bids and never each other's; an honest player's rate does not depend on
  whose bid it is.
- Two-player games (boosting): ``head_to_head``: games between them,
  ``drawn``: those drawn, ``won``: the games a won against b, ``conceded``: the games b lost to a by
  resigning or on time, ``short``: the games b lost to a in fewer than
  ``SHORT_GAME_MOVES`` moves. Why: a booster hands his friend rated wins
  fast, by resigning or letting the clock run out.

`assess(figures)` turns a pair's figures added over all their games into
the reasons it is queued for moderators (none: it is not): every reason
needs a minimum of evidence (one game proves nothing) and a gap that honest
play rarely shows; the thresholds were tuned with `bench/fair_play.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from gameplay.engine import get_engine
from gameplay.records import FORFEITS, apply_recorded

SHORT_GAME_MOVES = 12

# `assess`'s thresholds (bench/fair_play.py measures them against planted cheats).
MIN_THROW_CHANCES = 30  # chances on the partner before a throw rate says anything
SPARING_RATIO = 0.35  # throws on the partner at most this share of the rate on the others
MIN_GIFT_CHANCES = 6
GIFT_RATE = 0.5  # gifts to the partner at least this share of the chances ...
GIFT_GAP = 0.35  # ... and this much above the rate of gifts to the others
MIN_SPOIL_CHANCES = 8
SPOIL_RATE = 0.5  # exact bids of third players spoilt at his own cost, at least this share of the chances ...
SPOIL_GAP = 0.35  # ... and this much above the rate at which he spoils the partner's
MIN_HEAD_TO_HEAD = 5
ONE_SIDED = 0.75  # share of the decided games between them won by the same player
CONCEDED_SHARE = 0.5  # share of the decided games conceded to him (resigned, lost on time, short)

TRICK_GAMES = {"joker", "odessa"}


def pair_key(first: int, second: int) -> str:
    """The key of an ordered pair of seats in `game_figures`' result: "a>b"."""
    return f"{first}>{second}"


def game_figures(record: dict, people: Iterable[int]) -> dict[str, Counter]:
    """{"a>b": figures} for every ordered pair of seats `people` (the seats
    held by people) of a finished game's record (`gameplay.records` format)."""
    people = sorted(set(people))
    figures: dict[str, Counter] = {pair_key(a, b): Counter() for a in people for b in people if a != b}
    for a in people:
        for b in people:
            if a != b:
                figures[pair_key(a, b)]["together"] = 1
    engine = get_engine(record["game"])
    state = engine.start(players=record["players"], options=record["options"], seed=int(record["seed"]),
                         rules_version=record["rules_version"])
    moves = record["moves"]
    for move in moves:
        seat, action = move["seat"], move["action"]
        if record["game"] == "durak" and record["players"] >= 3:
            _durak_step(engine, state, seat, action, people, figures)
        if record["game"] in TRICK_GAMES:
            _trick_step(engine, state, seat, action, people, figures)
        state, events = apply_recorded(engine, state, seat, action)
        if record["game"] == "durak":
            _durak_bout(events, state, people, figures)
    if record["players"] == 2 and len(people) == 2:
        _head_to_head(record, moves, people, figures)
    return {key: counts for key, counts in figures.items() if counts}


def _durak_step(engine, state: dict, seat, action: dict, people: list[int], figures: dict) -> None:
    """Every person who could throw in at this point: a chance, on the defender; a throw taken if he is the mover."""
    if state.get("phase") not in ("attack", "defend", "window"):
        return
    defender = state["defender"]
    for thrower in people:
        if thrower == defender:
            continue
        if not any(legal["type"] == "throw" for legal in engine.legal_actions(state, thrower)):
            continue
        threw = seat == thrower and action.get("type") == "throw"
        _chance(figures, people, thrower, defender, threw,
                partner=("throw_chances_on_partner", "throws_on_partner"),
                others=("throw_chances_on_others", "throws_on_others"))


def _durak_bout(events: list[dict], state: dict, people: list[int], figures: dict) -> None:
    ended = next((e for e in events if e.get("type") == "bout_end"), None)
    if ended is None or state.get("last_bout") is None:
        return
    attacker, defender = state["last_bout"]["attacker"], ended["defender"]
    beaten = ended["result"] == "discard"
    if defender not in people:
        return
    for other in people:
        if other == defender:
            continue
        counts = figures[pair_key(other, defender)]
        counts["bouts_defended_by_partner"] += 1
        counts["partner_beat_off_all"] += beaten
        if other == attacker:
            counts["bouts_led_on_partner"] += 1
            counts["partner_beat_off"] += beaten


def _trick_step(engine, state: dict, seat, action: dict, people: list[int], figures: dict) -> None:
    """The last card of a trick: who takes it with each legal card the mover holds."""
    if seat not in people or state.get("phase") != "play" or action.get("type") != "play":
        return
    if len(state.get("trick") or []) != state["players"] - 1:
        return
    bid, taken = state["bids"][seat], state["taken"][seat]
    if bid is None:
        return
    winners = {}
    for legal in engine.legal_actions(state, seat):
        winners[_key(legal)] = _trick_winner(engine, state, seat, legal)
    if seat not in winners.values():
        return  # he cannot take it
    others = {w for w in winners.values() if w is not None and w != seat}
    if len(others) != 1:
        return
    leader = others.pop()
    took = winners.get(_key(action)) == seat
    if taken >= bid:
        _spoil_step(state, seat, leader, took, people, figures)
        return
    _chance(figures, people, seat, leader, not took,
            partner=("gift_chances_to_partner", "gifts_to_partner"),
            others=("gift_chances_to_others", "gifts_to_others"))


def _spoil_step(state: dict, seat: int, leader: int, took: bool, people: list[int], figures: dict) -> None:
    """He needs no more tricks (one more costs him), and the trick would give
    `leader` his exact bid: taking it spoils the leader's bid at his own cost."""
    bid, taken = state["bids"][leader], state["taken"][leader]
    if bid is None or taken != bid - 1:
        return
    _chance(figures, people, seat, leader, took,
            partner=("spoil_chances_on_partner", "spoils_on_partner"),
            others=("spoil_chances_on_others", "spoils_on_others"))


def _chance(figures: dict, people: list[int], actor: int, target: int, taken: bool, *,
            partner: tuple[str, str], others: tuple[str, str]) -> None:
    """`actor` had a chance to act on `target` (and `taken`: he did): counted, in
    each of his pairs, as a chance on the partner when the partner is the
    target, else as one on the others."""
    for other in people:
        if other == actor:
            continue
        chances, done = partner if other == target else others
        counts = figures[pair_key(actor, other)]
        counts[chances] += 1
        counts[done] += taken


def _key(action: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in action.items()))


def _trick_winner(engine, state: dict, seat: int, action: dict) -> int | None:
    _state, events = engine.apply(state, seat, action)
    return next((e["winner"] for e in events if e.get("type") == "trick"), None)


def _head_to_head(record: dict, moves: list[dict], people: list[int], figures: dict) -> None:
    outcome = record.get("outcome") or {}
    places = outcome.get("places") or []
    if len(places) != 2 or places[0] == places[1]:
        for a in people:
            for b in people:
                if a != b:
                    figures[pair_key(a, b)]["head_to_head"] += 1
                    figures[pair_key(a, b)]["drawn"] += 1
        return
    winner = 0 if places[0] < places[1] else 1
    loser = 1 - winner
    last = moves[-1] if moves else {}
    conceded = last.get("seat") == loser and last.get("action", {}).get("type") in FORFEITS
    short = len([m for m in moves if m.get("seat") is not None]) < SHORT_GAME_MOVES
    for a in people:
        for b in people:
            if a != b:
                figures[pair_key(a, b)]["head_to_head"] += 1
    counts = figures[pair_key(winner, loser)]
    counts["won"] += 1
    counts["conceded"] += conceded
    counts["short"] += short


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def assess(figures: dict) -> list[str]:
    """The reasons a pair is queued, from the figures of one direction (a's
    play towards b) added over their games: "sparing", "spoiling", "gifts", "boosting"."""
    reasons = []
    chances = figures.get("throw_chances_on_partner", 0)
    if chances >= MIN_THROW_CHANCES and figures.get("throw_chances_on_others", 0) >= MIN_THROW_CHANCES:
        on_partner = _rate(figures.get("throws_on_partner", 0), chances)
        on_others = _rate(figures.get("throws_on_others", 0), figures["throw_chances_on_others"])
        if on_others > 0 and on_partner <= SPARING_RATIO * on_others:
            reasons.append("sparing")
    if _leans(figures, ("spoil_chances_on_others", "spoils_on_others"),
              ("spoil_chances_on_partner", "spoils_on_partner"), MIN_SPOIL_CHANCES, SPOIL_RATE, SPOIL_GAP):
        reasons.append("spoiling")
    if _leans(figures, ("gift_chances_to_partner", "gifts_to_partner"),
              ("gift_chances_to_others", "gifts_to_others"), MIN_GIFT_CHANCES, GIFT_RATE, GIFT_GAP):
        reasons.append("gifts")
    decided = figures.get("head_to_head", 0) - figures.get("drawn", 0)
    won = figures.get("won", 0)
    if decided >= MIN_HEAD_TO_HEAD and won >= ONE_SIDED * decided:
        conceded = max(figures.get("conceded", 0), figures.get("short", 0))
        if conceded >= CONCEDED_SHARE * decided:
            reasons.append("boosting")
    return reasons


def _leans(figures: dict, towards: tuple[str, str], away: tuple[str, str], minimum: int, rate: float,
           gap: float) -> bool:
    """Whether, with at least `minimum` chances, he acted `towards` at `rate`
    or more and that much more often than `away` (the same act, the other side)."""
    chances = figures.get(towards[0], 0)
    if chances < minimum:
        return False
    leaning = _rate(figures.get(towards[1], 0), chances)
    other = _rate(figures.get(away[1], 0), figures.get(away[0], 0))
    return leaning >= rate and leaning - other >= gap


def added(total: dict, more: dict) -> dict:
    """Two sets of figures added up (JSON-able)."""
    result = dict(total)
    for key, value in more.items():
        result[key] = result.get(key, 0) + int(value)
    return result
