from django.urls import path

from moderation import views

urlpatterns = [
    path("", views.games, name="moderation_games"),
    path("games/<int:game_id>/", views.game, name="moderation_game"),
]
