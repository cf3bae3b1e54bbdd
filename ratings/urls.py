from django.urls import path

from ratings import views

urlpatterns = [
    path("", views.index, name="leaderboards"),
    path("computers/", views.computer_levels, name="computer_levels"),
    path("<slug:engine>/", views.leaderboard, name="leaderboard"),
]
