from django.urls import path

from notifications import views

urlpatterns = [
    path("", views.preferences_page, name="notification_preferences"),
]
