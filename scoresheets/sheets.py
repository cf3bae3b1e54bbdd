"""Turn `engine.sheet(state)` into what the sheet templates show.

Each game kind has its own template (`scoresheets/<kind>.html`); this module
only orders the columns the way players write them on paper.
"""

from django.db.models import Prefetch, Q
from django.utils.translation import gettext

from gameplay.engine import get_engine
from gameplay.models import Game, Seat
from gameplay.results import GameResult, game_result


def sheet_context(game: Game, result: GameResult | None = None, viewer: int | None = None) -> dict | None:
    """What the sheet templates show. The final ranking and how the game ended
    are the game's result (`gameplay.results`), the same the game-over box,
    the profile and the emails show; `result` may be given by a caller that has it.
    `viewer`: the reader's seat; his column (`viewer_column`, counted from 0) stays
    in view when the sheet scrolls sideways on a narrow screen (static/js/sheet-pin.js)."""
    if game.state is None:
        return None
    sheet = get_engine(game.engine).sheet(game.state)
    seats = list(game.seats.select_related("user"))
    names = {s.position: str(s.player_name) for s in seats}
    order = sheet.get("order") or paper_order(game.state, len(seats))
    result = result or game_result(game, seats)
    return {
        "kind": sheet.get("kind", game.engine),
        "data": sheet,
        "order": order,
        "columns": [{"position": p, "name": names.get(p, "?")} for p in order],
        "viewer_column": order.index(viewer) if viewer in order else None,
        "template": f"scoresheets/{sheet.get('kind', game.engine)}.html",
        "game": game,
        "result": result,
        "series": series_rows(game, order, seats),
        # A game in pairs (Durak 2×2): who partners whom, by name.
        "pairs": [[names.get(p, "?") for p in pair] for pair in sheet.get("teams") or []],
        "order_note": order_note(game.engine, game.state, order, names),
    }


def paper_order(state: dict, players: int) -> list[int]:
    """The seats in the order a sheet on paper lists them, for a game whose engine gives none: round
    the table from the first leader's left (Ipuker: the leader last, as a dealer), or from the first
    deal's starter (domino Poker); else by seat."""
    if state.get("leaders"):
        first = state["leaders"][0]
        return [(first + offset) % players for offset in range(1, players + 1)]
    if state.get("first_starter") is not None:
        first = state["first_starter"]
        return [(first + offset) % players for offset in range(players)]
    return list(range(players))


def order_note(engine: str, state: dict, order: list[int], names: dict[int, str]) -> str:
    """Under the sheet, where its columns start round the table ("" where they follow the seats)."""
    if state.get("first_dealer") is not None and engine in ("joker", "odessa"):
        return gettext("Players in seat order from the left of the first dealer, %(name)s (the last column).") % {
            "name": names.get(state["first_dealer"], "?")}
    if state.get("leaders"):
        return gettext("Players in seat order from the left of the first leader, %(name)s (the last column).") % {
            "name": names.get(state["leaders"][0], "?")}
    if state.get("first_starter") is not None:
        return gettext("Players in seat order from %(name)s, who started the first deal.") % {
            "name": names.get(state["first_starter"], "?")}
    return ""


def series_games(game: Game, seats: list[Seat]) -> list[tuple[Game, list[Seat]]]:
    """Every game of `game`'s series so far, in order, each with its seats
    (`seats`: those of `game`): two queries whatever the series' length, none
    for a game that is no series."""
    if game.series_first_id is None and game.series_length <= 1:
        return [(game, seats)]
    first_id = game.series_first_id or game.pk
    others = (
        Game.objects.filter(Q(pk=first_id) | Q(series_first_id=first_id))
        .exclude(pk=game.pk)
        .only("id", "engine", "status", "state", "history", "series_number")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.only("id", "game_id", "position", "points")))
    )
    games = [(other, list(other.seats.all())) for other in others] + [(game, seats)]
    return sorted(games, key=lambda pair: pair[0].series_number)


def series_rows(game: Game, order: list[int], seats: list[Seat]) -> dict:
    """The series table: one row per game with each player's points, and the totals."""
    rows, totals = [], [0.0] * len(order)
    for number, (item, item_seats) in enumerate(series_games(game, seats), start=1):
        by_position = {s.position: s for s in item_seats}
        points = [by_position[p].points if p in by_position else None for p in order]
        for i, value in enumerate(points):
            totals[i] += value or 0
        outcome = item.state and item.status == Game.Status.FINISHED and get_engine(item.engine).outcome(item.state)
        rows.append({"number": number, "game": item, "points": points, "current": item.pk == game.pk,
                     "marked": outcome.get("durak") if outcome else None})
    return {"rows": rows, "totals": totals, "length": game.series_length}


def ordered(cells: list, order: list[int]) -> list:
    """Per-seat values (indexed by seat) in sheet order."""
    return [cells[p] for p in order]
