from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new/", views.new_tournament, name="new_tournament"),
    path("rules/", views.tournament_rules, name="tournament_rules"),
    path("<slug:slug>/", views.tournament_page, name="tournament"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="tournament_standings_csv"),
    path("<slug:slug>/standings/", views.standings_part, name="tournament_standings_part"),
    path("<slug:slug>/groups/", views.groups_part, name="tournament_groups_part"),
    path("<slug:slug>/crosstable/", views.cross_table, name="tournament_crosstable"),
    path("<slug:slug>/rounds/<int:number>/", views.round_page, name="tournament_round"),
    path("<slug:slug>/join/", views.join, name="tournament_join"),
    path("<slug:slug>/leave/", views.leave, name="tournament_leave"),
    path("<slug:slug>/start/", views.start, name="tournament_start"),
    path("<slug:slug>/rounds/<int:number>/start/", views.start_round, name="tournament_start_round"),
    path("<slug:slug>/withdraw/<int:entry_id>/", views.withdraw, name="tournament_withdraw"),
    path("<slug:slug>/computers/add/", views.add_computer, name="tournament_add_computer"),
    path("<slug:slug>/computers/<int:entry_id>/remove/", views.remove_computer, name="tournament_remove_computer"),
    path("<slug:slug>/rounds/<int:number>/restart/", views.restart_round, name="tournament_restart_round"),
    path("<slug:slug>/tables/<int:table_id>/adjudicate/", views.adjudicate, name="tournament_adjudicate"),
]
