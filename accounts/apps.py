from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from allauth.account.signals import email_confirmed

        from accounts import limits  # noqa: F401 (connects the counter of failed logins)
        from accounts import verification

        email_confirmed.connect(verification.address_confirmed, dispatch_uid="accounts.address_confirmed")
