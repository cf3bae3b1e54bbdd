from leagues import drawing, services
from leagues.models import Season


def start(season_id: int, by) -> Season:
    """Start a season and draw it up at once, as its Celery task does after
    the commit (the tests' transaction never commits)."""
    services.start_season(season_id, by)
    drawing.draw_season(season_id)
    return Season.objects.get(pk=season_id)
