from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from accounts import passkeys, views

# Sign-up and login are allauth's (accounts/views.py); logout, the password
# change and reset Django's, with our templates. The names are explicit
# because django.contrib.admin (installed before accounts) ships its own
# "registration/*.html" templates, which would win over ours. allauth's own
# pages follow (address, confirmation, second factor, sessions): where a path
# is the same (login/, signup/, password/reset/), ours comes first and wins.
urlpatterns = [
    path("signup/", views.SignupView.as_view(), name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(template_name="accounts/password_change_form.html"),
        name="password_change",
    ),
    path(
        "password/changed/",
        auth_views.PasswordChangeDoneView.as_view(template_name="accounts/password_change_done.html"),
        name="password_change_done",
    ),
    path(
        "password/reset/",
        views.PasswordResetView.as_view(
            template_name="accounts/password_reset_form.html",
            email_template_name="accounts/password_reset_email.html",
            subject_template_name="accounts/password_reset_subject.html",
        ),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(template_name="accounts/password_reset_confirm.html"),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(template_name="accounts/password_reset_complete.html"),
        name="password_reset_complete",
    ),
    # The profile page itself and the vacation are pages.urls' (they gather many apps).
    path("profile/edit/", views.profile_edit, name="profile_edit"),
    path("language/", views.set_language, name="set_language"),
    path("email/confirm-again/", views.resend_confirmation, name="resend_confirmation"),
    # The player page moved to /players/<name>/ (config/urls.py); old links still arrive.
    path("players/<str:username>/", RedirectView.as_view(pattern_name="player", permanent=True)),
    path("sessions/", views.my_sessions, name="my_sessions"),
    # allauth's passkey confirmation, a refusal kept on its page (accounts/passkeys.py).
    path("2fa/webauthn/reauthenticate/", passkeys.ReauthenticateWithPasskeyView.as_view(),
         name="mfa_reauthenticate_webauthn"),
    path("", include("allauth.urls")),
]
