from django.urls import path

from leagues.consumers import StandingsConsumer

websocket_urlpatterns = [
    path("ws/leagues/divisions/<int:division_id>/", StandingsConsumer.as_asgi()),
]
