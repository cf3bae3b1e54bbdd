from django.urls import path

from scoresheets import views

urlpatterns = [
    path("<int:game_id>/", views.sheet_page, name="sheet"),
    path("<int:game_id>/fragment/", views.sheet_fragment, name="sheet_fragment"),
    path("<int:game_id>/record.json", views.record_export, name="record_export"),
]
