from django.urls import path

from pages import data_views, legal, views

urlpatterns = [
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/vacation/", views.take_vacation, name="take_vacation"),
    path("accounts/vacation/end/", views.end_vacation, name="end_vacation"),
    path("players/<str:username>/", views.player, name="player"),
    path("privacy/", legal.privacy, name="privacy"),
    path("terms/", legal.terms, name="terms"),
    # One's own data (issue 40): download it, delete the account.
    path("accounts/my-data/", data_views.personal_data, name="personal_data"),
    path("accounts/my-data/export/", data_views.request_data_export, name="request_data_export"),
    path("accounts/my-data/<str:key>/download/", data_views.download_data_export, name="download_data_export"),
    path("accounts/delete/", data_views.delete_account, name="delete_account"),
]
