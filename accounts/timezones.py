"""The time zones a player may choose: the current IANA zones, one per place
(tzdata's zone.tab: "Europe/Moscow", "Asia/Tbilisi", ...) and UTC; no legacy
aliases ("US/Eastern", "Cuba", "Etc/GMT+3"). An alias someone still has, or
types, stands for the current zone it links to (tzdata.zi's links)."""

import zoneinfo
from functools import cache
from importlib import resources

from babel import Locale
from babel.dates import get_timezone_location

UTC = "UTC"
# Legacy names of UTC itself (tzdata links them to Etc/UTC or Etc/GMT).
UTC_NAMES = frozenset({"Etc/UTC", "Etc/GMT", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Etc/Greenwich"})


def _tzdata_text(name: str) -> str:
    return resources.files("tzdata.zoneinfo").joinpath(name).read_text(encoding="utf-8")


@cache
def current_zones() -> tuple[str, ...]:
    """The current zones, sorted, each loadable by zoneinfo, with UTC."""
    names = {line.split("\t")[2].strip() for line in _tzdata_text("zone.tab").splitlines()
             if line and not line.startswith("#")}
    return tuple(sorted(name for name in names | {UTC} if name in zoneinfo.available_timezones()))


@cache
def _zone_countries() -> dict[str, str]:
    return {fields[2].strip(): fields[0] for line in _tzdata_text("zone.tab").splitlines()
            if line and not line.startswith("#") and len(fields := line.split("\t")) >= 3}


@cache
def _links() -> dict[str, str]:
    """Legacy name -> the zone it links to (tzdata.zi's `L TARGET NAME` lines)."""
    links = {}
    for line in _tzdata_text("tzdata.zi").splitlines():
        if line.startswith("L "):
            _, target, name = line.split()
            links[name] = target
    return links


def canonical_zone(name: str) -> str | None:
    """The current zone `name` stands for: itself, the zone a legacy alias
    links to, or None for a name that is no zone (or none of ours)."""
    name = (name or "").strip()
    current = set(current_zones())
    if name in current:
        return name
    target = _links().get(name, name)
    for _ in range(3):  # links of links are rare; never loop
        if target in current:
            return target
        if target in UTC_NAMES:
            return UTC
        target = _links().get(target, target)
    return None


@cache
def zone_labels(language: str) -> tuple[tuple[str, str], ...]:
    """(zone, "City, Country") in `language` for every current zone, for the search list."""
    locale = Locale.parse(language if language in ("ru", "en") else "en")
    countries = _zone_countries()
    labels = []
    for zone in current_zones():
        if zone == UTC:
            labels.append((zone, "UTC"))
            continue
        city = get_timezone_location(zone, locale=locale, return_city=True)
        country = locale.territories.get(countries.get(zone, ""), "")
        labels.append((zone, f"{city}, {country}" if country and country != city else city))
    return tuple(labels)
