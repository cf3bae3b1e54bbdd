from django.urls import path

from notifications.push import views

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("notifications/push/devices/", views.subscribe, name="push_subscribe"),
    path("notifications/push/devices/<int:device_id>/remove/", views.remove, name="push_remove"),
]
