"""The Django admin reads wholly in Russian for a Russian moderator: the
index, every model's list (its columns, filters and actions) and change
page show none of the English names of the models, their fields, the
apps, the columns or the actions."""

import html
import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse
from django.utils import translation

from .conftest import client_for
from .test_admin_pages import admin_pages, every_kind_of_row  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db
SAME_IN_BOTH = {"id", "#"}


def english_names() -> set[str]:
    """Every name the admin may show: apps, models, fields, columns, filters, actions; in English."""
    names = set()
    with translation.override("en"):
        for config in apps.get_app_configs():
            names.add(str(config.verbose_name))
        for model, model_admin in admin.site._registry.items():
            meta = model._meta
            names |= {str(meta.verbose_name), str(meta.verbose_name_plural)}
            names |= {str(field.verbose_name) for field in meta.get_fields() if hasattr(field, "verbose_name")}
            for column in list(model_admin.list_display) + list(model_admin.readonly_fields or []):
                described = getattr(getattr(model_admin, column, None), "short_description", None)
                if described:
                    names.add(str(described))
            for _, (func, name, description) in model_admin.get_actions(_request()).items():
                names.add(str(description) % {"verbose_name_plural": meta.verbose_name_plural})
    return {name.lower() for name in names if name.lower() not in SAME_IN_BOTH}


def _request():
    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = type("Boss", (AnonymousUser,), {"is_active": True, "is_staff": True, "is_superuser": True,
                                                   "has_perm": lambda self, perm, obj=None: True})()
    return request


def texts(page: str) -> set[str]:
    """The page's visible texts: what stands between tags, and the filters' "By …" titles without "By"."""
    body = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    chunks = {html.unescape(chunk).strip().rstrip(":").lower() for chunk in re.findall(r">([^<]+)<", body)}
    return {re.sub(r"^(by|по) ", "", chunk) for chunk in chunks if chunk}


@pytest.fixture
def russian_boss(django_user_model):
    return django_user_model.objects.create_superuser("boss", password="pw", email="boss@example.com", language="ru")


def test_the_names_the_admin_shows_are_translated_into_russian():
    english = english_names()
    assert {"move", "seat", "seats", "made by", "hidden by a moderator", "games"} <= english
    with translation.override("ru"):
        untranslated = set()
        for model in admin.site._registry:
            meta = model._meta
            shown = [meta.verbose_name, meta.verbose_name_plural] + [
                f.verbose_name for f in meta.get_fields() if hasattr(f, "verbose_name")]
            untranslated |= {str(name) for name in shown if str(name).lower() in english}
    assert untranslated == set()


def test_the_admin_index_shows_no_english_name_in_russian(russian_boss, every_kind_of_row):
    page = client_for(russian_boss).get(reverse("admin:index")).content.decode()
    assert "Игры" in page and "Ходы" in page
    assert texts(page) & english_names() == set()


@pytest.mark.parametrize("model", list(admin_pages()))
def test_every_admin_list_and_change_page_shows_no_english_name_in_russian(russian_boss, every_kind_of_row, model):
    client = client_for(russian_boss)
    meta = model._meta
    name = f"admin:{meta.app_label}_{meta.model_name}"
    pages = [client.get(reverse(f"{name}_changelist")).content.decode()]
    row = model.objects.order_by("pk").first()
    if row is not None:
        pages.append(client.get(reverse(f"{name}_change", args=[row.pk])).content.decode())
    english = english_names()
    for page in pages:
        assert texts(page) & english == set()
