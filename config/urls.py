from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog

from accounts.admin_login import second_factor_login

# An account with a second factor logs in through the site's login, which asks for it.
admin.site.login = second_factor_login(admin.site.login)

urlpatterns = [
    # Pages name their icon (templates/base.html); this is for what asks the
    # conventional address anyway (the admin's pages, feed readers, bookmarks).
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    # The installable app (manifest, /sw.js at the root: its scope is the whole site) and web push.
    path("", include("notifications.push.urls")),
    # Telegram: the profile's link / unlink and the bot's webhook (notifications/telegram/).
    path("", include("notifications.telegram.urls")),
    path("", include("pages.urls")),
    path("accounts/", include("accounts.urls")),
    path("sheets/", include("scoresheets.urls")),
    path("ratings/", include("ratings.urls")),
    path("leagues/", include("leagues.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("moderation/", include("moderation.urls")),
    path("reports/", include("moderation.report_urls")),
    path("api/", include("api.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("correspondence.urls")),
    path("", include("gameplay.urls")),
]

# A server error under /api/ answers the API's JSON; elsewhere the site's page.
handler500 = "api.views.server_error"
