from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from allauth.account.signals import email_confirmed

        from accounts import limits  # noqa: F401 (connects the counter of failed logins)
        from django.contrib.auth.signals import user_logged_in

        from accounts import devices, verification

        email_confirmed.connect(verification.address_confirmed, dispatch_uid="accounts.address_confirmed")
        user_logged_in.connect(devices.logged_in, dispatch_uid="accounts.devices.logged_in")
