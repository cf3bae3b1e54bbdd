from django.urls import path

from moderation import views

urlpatterns = [
    path("", views.my_reports, name="my_reports"),
    path("new/", views.new_report, name="new_report"),
    path("warning/read/", views.acknowledge_warning, name="acknowledge_warning"),
]
