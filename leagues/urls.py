from django.urls import path

from leagues import views

urlpatterns = [
    path("", views.league_list, name="leagues"),
    path("new/", views.new_league, name="new_league"),
    path("rules/", views.league_rules, name="league_rules"),
    path("invitations/", views.invitations, name="league_invitations"),
    path("invitations/<int:invitation_id>/<slug:answer>/", views.answer_invitation, name="answer_league_invitation"),
    path("<slug:slug>/", views.league_page, name="league"),
    path("<slug:slug>/<int:number>/", views.season_page, name="season"),
    path("<slug:slug>/<int:number>/register/", views.register, name="league_register"),
    path("<slug:slug>/<int:number>/unregister/", views.unregister, name="league_unregister"),
    path("<slug:slug>/<int:number>/add/", views.add_entry, name="league_add_entry"),
    path("<slug:slug>/<int:number>/run/<slug:step>/", views.run_season, name="run_season"),
    path("<slug:slug>/<int:number>/withdraw/<int:entry_id>/", views.withdraw, name="league_withdraw"),
    path("<slug:slug>/<int:number>/<int:division>/", views.division_page, name="division"),
    path("<slug:slug>/<int:number>/<int:division>/standings.csv", views.standings_csv, name="standings_csv"),
    path("<slug:slug>/<int:number>/<int:division>/cross-table.csv", views.cross_table_csv, name="cross_table_csv"),
    path("<slug:slug>/<int:number>/<int:division>/results.csv", views.results_csv, name="results_csv"),
]
