"""A locked or busy database answers "busy" (503, Retry-After), never a 500.

The move endpoints and the sockets answer it in their own protocol
(gameplay/inbound.py); this covers every other page: a JSON answer where the
client asked for JSON, a short page otherwise. Nothing was changed: the
transaction that met the lock was rolled back.
"""

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from gameplay import inbound

RETRY_AFTER_SECONDS = 1


class BusyDatabaseMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError) or not inbound.database_busy(exception):
            return None
        if "application/json" in request.headers.get("Accept", "") or request.path.endswith("/state/"):
            response = JsonResponse({"type": "error", "code": "busy", "message": str(inbound.BUSY)}, status=503)
        else:
            response = render(request, "gameplay/busy.html", status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
