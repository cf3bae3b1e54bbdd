from django.urls import path

from scoresheets import views

urlpatterns = [
    path("<int:game_id>/", views.sheet_page, name="sheet"),
    path("<int:game_id>/fragment/", views.sheet_fragment, name="sheet_fragment"),
    path("<int:game_id>/record.json", views.record_export, name="record_export"),
    path("<int:game_id>/record/", views.game_record, name="game_record"),
    path("<int:game_id>/replay/", views.replay_page, name="replay"),
    path("<int:game_id>/replay/<int:step>.json", views.replay_step, name="replay_step"),
]
