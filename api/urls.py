from django.urls import path, re_path
from django.views.generic import RedirectView

from api import views
from api.v1 import api

urlpatterns = [
    path("tokens/", views.token_page, name="api_tokens"),
    path("tokens/<int:token_id>/revoke/", views.revoke, name="api_token_revoke"),
    path("bot/", views.become_bot, name="api_become_bot"),
    path("docs", RedirectView.as_view(url="/api/v1/docs"), name="api_docs"),
    path("docs/", RedirectView.as_view(url="/api/v1/docs")),
    path("v1/", api.urls),
    re_path(r"^(?P<path>.*)$", views.not_found),  # last: JSON, not the site's 404 page
]
