from django.urls import path

from notifications.telegram import views

urlpatterns = [
    path("telegram/link/", views.link, name="telegram_link"),
    path("telegram/unlink/", views.unlink, name="telegram_unlink"),
    path("telegram/webhook/", views.webhook, name="telegram_webhook"),
]
