from django.urls import path

from pages import views

urlpatterns = [
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/vacation/", views.take_vacation, name="take_vacation"),
    path("accounts/vacation/end/", views.end_vacation, name="end_vacation"),
    path("players/<str:username>/", views.player, name="player"),
]
