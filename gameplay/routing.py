from django.urls import path

from gameplay.badge import BadgeConsumer
from gameplay.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/me/", BadgeConsumer.as_asgi()),
]
