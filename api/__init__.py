"""The open API for bots and other clients (issue 29): personal access
tokens, documented HTTP endpoints under /api/v1/, live event streams, and the
bot accounts' side of it.

The top layer: it may import every other app (gameplay's services and
payloads, scoresheets' records, leagues' standings, ratings); no app imports
it. It holds no game logic: every change goes through `gameplay.services`
(the same `submit_move` with `move_id` and `expected_version` as the page),
every view of a game is `gameplay.broadcast.game_payload`, the very message
the game page gets, built from `engine.view(state, seat)`.

Why django-ninja rather than Django REST framework: the API is a dozen
endpoints that call services and return the JSON those already produce.
ninja types them with pydantic schemas, from which it writes the OpenAPI
schema (`/api/v1/openapi.json`) and serves its Swagger UI (`/api/v1/docs`,
also at `/api/docs`) from the package's own static files (with "ninja" in
INSTALLED_APPS, and with no inline script: it passes the site's CSP and
needs no CDN); it runs async views, which the NDJSON streams need under
daphne; and it adds no serializer/viewset/router layer over services that
already do the work. DRF would need drf-spectacular and a sidecar package
for the same schema and docs, and its views are sync.

Modules:
- `models`: ApiToken (stored hashed), TokenEvent (the append-only audit).
- `tokens`: create, revoke, authenticate a token (the only writers of both models).
- `auth`: the bearer-token check of every endpoint: scope, expiry, rate limit.
- `errors`: every refusal as HTTP 4xx with {"code", "message"}.
- `v1`: the NinjaAPI and its endpoints; `streams`: NDJSON event streams.
- `ws`: token authentication for the WebSockets (channels middleware).
- `views`: the token page of the profile (create, shown once, revoke).
"""
