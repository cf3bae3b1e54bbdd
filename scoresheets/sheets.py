"""Turn `engine.sheet(state)` into what the sheet templates show.

Each game kind has its own template (`scoresheets/<kind>.html`); this module
only orders the columns the way players write them on paper.
"""

from gameplay.engine import get_engine
from gameplay.models import Game


def sheet_context(game: Game) -> dict | None:
    if game.state is None:
        return None
    sheet = get_engine(game.engine).sheet(game.state)
    names = {s.position: str(s.player_name) for s in game.seats.select_related("user")}
    order = sheet.get("order") or sorted(names)
    totals = sheet.get("totals") or sheet.get("result") or []
    return {
        "kind": sheet.get("kind", game.engine),
        "data": sheet,
        "order": order,
        "columns": [{"position": p, "name": names.get(p, "?")} for p in order],
        "template": f"scoresheets/{sheet.get('kind', game.engine)}.html",
        "game": game,
        "ranking": [
            {"position": p, "name": names.get(p, "?"), "points": totals[p] if p < len(totals) else None}
            for p in sheet.get("ranking") or []
        ],
        "series": series_rows(game, order),
    }


def series_rows(game: Game, order: list[int]) -> dict:
    """The series table: one row per game with each player's points, and the totals."""
    rows, totals = [], [0.0] * len(order)
    for number, item in enumerate(game.series(), start=1):
        seats = {s.position: s for s in item.seats.all()}
        points = [seats[p].points if p in seats else None for p in order]
        for i, value in enumerate(points):
            totals[i] += value or 0
        outcome = item.state and item.status == Game.Status.FINISHED and get_engine(item.engine).outcome(item.state)
        rows.append({"number": number, "game": item, "points": points, "current": item.pk == game.pk,
                     "marked": outcome.get("durak") if outcome else None})
    return {"rows": rows, "totals": totals, "length": game.series_length}


def ordered(cells: list, order: list[int]) -> list:
    """Per-seat values (indexed by seat) in sheet order."""
    return [cells[p] for p in order]
