from django.urls import path

from gameplay import previews, rules, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/new/domino-schedule/", previews.domino_schedule, name="domino_schedule"),
    path("games/new/odessa-schedule/", previews.odessa_schedule, name="odessa_schedule"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/join/", views.join, name="join_game"),
    path("games/<int:game_id>/leave/", views.leave, name="leave_game"),
    path("games/<int:game_id>/bots/", views.fill_bots, name="fill_bots"),
    path("games/<int:game_id>/resign/", views.resign, name="resign_game"),
    path("games/<int:game_id>/state/", views.state, name="game_state"),
    path("games/<int:game_id>/move/", views.move, name="game_move"),
    path("games/<int:game_id>/ahead/", views.ahead, name="game_ahead"),
    path("games/<int:game_id>/orders/", views.orders, name="game_orders"),
    path("invite/<str:code>/", views.invite, name="invite"),
    path("rules/", rules.rules_index, name="rules"),
    path("rules/<slug:slug>/", rules.rules_page, name="rules_game"),
]
