"""A locked or busy database answers "busy" (503, Retry-After), never a 500.

The move endpoint (whose answer carries the move_id), the sockets, the join
and new-table forms answer it their own way; this covers every other request:
the protocol's error object where the client speaks JSON, a short page
otherwise. Nothing was changed: the transaction that met the lock was rolled
back.
"""

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from gameplay import inbound


class BusyDatabaseMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError) or not inbound.database_busy(exception):
            return None
        speaks_json = request.content_type == "application/json" or "application/json" in request.headers.get(
            "Accept", "") or request.path.endswith("/state/")
        if speaks_json:
            response = JsonResponse({"type": "error", "code": "busy", "message": str(inbound.BUSY), "version": None,
                                     "move_id": None}, status=503)
        else:
            response = render(request, "gameplay/busy.html", status=503)
        response["Retry-After"] = str(inbound.RETRY_AFTER_SECONDS)
        return response
