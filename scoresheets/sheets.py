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
    }


def ordered(cells: list, order: list[int]) -> list:
    """Per-seat values (indexed by seat) in sheet order."""
    return [cells[p] for p in order]
