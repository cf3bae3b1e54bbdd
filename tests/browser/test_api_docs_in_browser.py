"""The API's documentation page (/api/docs) works in a real browser under
the site's Content-Security-Policy and offline: Swagger UI comes from the
site's own static files (django-ninja's), lists the endpoints, and nothing
is refused or fetched from elsewhere."""

import pytest

pytestmark = pytest.mark.browser


def test_the_api_docs_render_every_endpoint_from_the_site_alone(page, live_site):
    elsewhere = []
    page.on("request", lambda request: None if request.url.startswith(live_site.url)
            or request.url.startswith("data:") else elsewhere.append(request.url))
    response = page.goto("/api/docs")
    assert response.ok and "script-src 'self'" in response.headers["content-security-policy"]
    page.locator(".opblock").first.wait_for()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/v1/games/{game_id}/move" in path for path in paths)
    assert any("/api/v1/games/{game_id}/stream" in path for path in paths)
    assert page.js_errors == [] and elsewhere == []
