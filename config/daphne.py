"""daphne as the site runs it (the Procfile, config/supervisord.conf and the
production config start `python -m config.daphne ...`, daphne's own command
line): its access log keeps credentials out.

daphne writes every request's path with its query string to its access log
(on by default). A client that puts its API token in the address
(`?access_token=kt_...`, refused: tokens go in the Authorization header)
would leave it there, readable by whoever reads the logs. Here each query
value that is a token (`kt_...`) or sits under a credential's name
(access_token, token, key, password, ...) is written as `[filtered]`."""

from __future__ import annotations

import re

from daphne import cli
from daphne.access import AccessLogGenerator

FILTERED = "[filtered]"
CREDENTIAL_NAMES = {"access_token", "token", "bearer", "auth", "authorization", "key", "api_key", "apikey",
                    "password", "secret", "code", "session", "sessionid"}
TOKEN_PREFIX = "kt_"  # api.tokens.TOKEN_PREFIX (config is above the apps, but daphne starts before Django)
_PAIR = re.compile(r"(?<=[?&;])([^=&;#]*)=([^&;#]*)")


def redact(request_line: str) -> str:
    """A request line ("GET /path?a=1&access_token=kt_x") with its credentials filtered out."""
    if "?" not in request_line:
        return request_line

    def pair(match: re.Match) -> str:
        name, value = match.group(1), match.group(2)
        if name.lower() in CREDENTIAL_NAMES or TOKEN_PREFIX in value.lower():
            return f"{name}={FILTERED}"
        return match.group(0)

    return _PAIR.sub(pair, request_line)


class FilteredAccessLog(AccessLogGenerator):
    """daphne's NCSA-style access log, its request lines filtered."""

    def write_entry(self, host, date, request, status=None, length=None, ident=None, user=None) -> None:
        super().write_entry(host, date, redact(request), status, length, ident, user)


def main() -> None:
    cli.AccessLogGenerator = FilteredAccessLog  # the name daphne's command line builds its access log with
    cli.CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
