from django.urls import path

from correspondence import views

urlpatterns = [
    path("my-games/", views.my_games, name="my_games"),
    path("my-games/list/", views.my_games_fragment, name="my_games_fragment"),
    path("my-games/next/", views.next_game, name="next_game"),
    path("my-games/waiting/", views.waiting_game, name="waiting_game"),
    path("challenges/", views.challenges, name="challenges"),
    path("challenges/new/", views.new_challenge, name="new_challenge"),
    path("challenges/<int:challenge_id>/answer/", views.answer, name="answer_challenge"),
    path("challenges/<int:challenge_id>/withdraw/", views.withdraw, name="withdraw_challenge"),
    path("friends/", views.friends, name="friends"),
    path("friends/follow/", views.follow, name="follow"),
    path("friends/unfollow/", views.unfollow, name="unfollow"),
    path("friends/search/", views.search_players, name="search_players"),
    path("blocks/", views.blocked_players, name="blocks"),
    path("blocks/block/", views.block, name="block"),
    path("blocks/unblock/", views.unblock, name="unblock"),
    path("games/<int:game_id>/notes/", views.notes, name="game_notes"),
]
