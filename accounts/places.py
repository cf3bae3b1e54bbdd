"""The place of a network address ("Odessa, Ukraine"), for the account's
sessions page (issue 40): read from a MaxMind-format database (GeoLite2
City or Country, or any .mmdb of that layout) with MaxMind's own reader,
the `geoip2` package. The file is named by the GEOIP_DATABASE setting; the
site never downloads it (README "Accounts" says how to install one).
Without it, or for an address it does not hold (a private network's), the
place is unknown (None). Names come in the reader's language where the
database has them, else in English."""

from __future__ import annotations

import functools
import ipaddress
import logging
from pathlib import Path

import geoip2.database
import geoip2.errors
import maxminddb
from django.conf import settings
from django.utils import translation

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=4)
def _reader(path: str) -> geoip2.database.Reader | None:
    """The database at `path` (opened once per process), or None when there is none usable."""
    if not path or not Path(path).is_file():
        if path:
            log.warning("GEOIP_DATABASE %s is not a file: places are unknown", path)
        return None
    try:
        return geoip2.database.Reader(path)
    except (OSError, maxminddb.InvalidDatabaseError):
        log.warning("GEOIP_DATABASE %s cannot be read: places are unknown", path, exc_info=True)
        return None


def _name(names: dict, language: str) -> str:
    return names.get(language) or names.get("en") or ""


def place_of(address: str | None, language: str | None = None) -> str | None:
    """"City, Country" (or the country alone) of an IP address; None when unknown."""
    reader = _reader(settings.GEOIP_DATABASE)
    if reader is None or not address:
        return None
    try:
        address = str(ipaddress.ip_address(address))
    except ValueError:
        return None
    language = (language or translation.get_language() or "en").split("-")[0]
    try:
        if "City" in reader.metadata().database_type:
            found = reader.city(address)
            parts = [_name(found.city.names, language), _name(found.country.names, language)]
        else:
            found = reader.country(address)
            parts = [_name(found.country.names, language)]
    except (geoip2.errors.AddressNotFoundError, ValueError, TypeError):
        return None
    return ", ".join(part for part in parts if part) or None
