"""The privacy and terms pages (issue 40), each written in full in both
languages (templates/pages/legal/NAME.LANG.html), linked from every page's
footer and from sign-up."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language, gettext_lazy as _

PAGES = {"privacy": _("Privacy"), "terms": _("Terms of use")}


def legal_page(request: HttpRequest, name: str) -> HttpResponse:
    language = "ru" if (get_language() or "").startswith("ru") else "en"
    return render(request, "pages/legal.html", {"title": PAGES[name], "body": f"pages/legal/{name}.{language}.html"})


def privacy(request: HttpRequest) -> HttpResponse:
    return legal_page(request, "privacy")


def terms(request: HttpRequest) -> HttpResponse:
    return legal_page(request, "terms")
