"""The time zones a player may choose: the current IANA zones, one per place
(tzdata's zone.tab: "Europe/Moscow", "Asia/Tbilisi", ...) and UTC; no legacy
aliases ("US/Eastern", "Cuba", "Etc/GMT+3"). An alias someone still has, or
types, stands for the current zone it links to (tzdata.zi's links).

A player may also type a place instead of a zone's name (`zone_for_place`):
the city of a zone in Russian or English as CLDR names it (Babel: "Тбилиси",
"Tbilisi", "Нью-Йорк"), "City, Country" as the list shows it, a country with
one zone ("Грузия"), or a common name of a large city that has no zone of its
own (`CITY_ALIASES`: "Питер", "Казань", "Київ", "Алма-Ата"). Case, "ё" and
punctuation do not matter."""

import re
import unicodedata
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


# Large cities (and their common names) whose zone is named after another city, and names CLDR
# spells otherwise; both languages. Keys are written as `place_key` makes them.
CITY_ALIASES = {
    "Europe/Moscow": ("питер", "санкт петербург", "петербург", "спб", "ленинград", "saint petersburg",
                      "st petersburg", "petersburg", "мск", "казань", "kazan", "нижний новгород",
                      "nizhny novgorod", "сочи", "sochi", "краснодар", "krasnodar", "ростов на дону", "ростов",
                      "rostov on don", "воронеж", "voronezh", "ярославль", "yaroslavl", "тула", "tula",
                      "мурманск", "murmansk", "архангельск", "arkhangelsk", "белгород", "belgorod",
                      "севастополь", "sevastopol", "петрозаводск", "petrozavodsk", "великий новгород"),
    "Europe/Kyiv": ("київ", "киев", "kiev", "kyiv", "одесса", "одеса", "odessa", "odesa", "харьков", "харків",
                    "kharkiv", "kharkov", "днепр", "дніпро", "dnipro", "львов", "львів", "lviv", "lvov",
                    "запорожье", "запоріжжя", "zaporizhzhia"),
    "Asia/Almaty": ("алма ата", "алмата", "alma ata", "астана", "astana", "нур султан", "nur sultan", "шымкент",
                    "shymkent", "караганда", "karaganda"),
    "Asia/Yekaterinburg": ("екб", "пермь", "perm", "уфа", "ufa", "челябинск", "chelyabinsk", "тюмень", "tyumen",
                           "оренбург", "orenburg", "свердловск"),
    "Asia/Novosibirsk": ("новосиб", "новосибирск", "novosibirsk"),
    "Asia/Omsk": ("омск", "omsk"),
    "Asia/Krasnoyarsk": ("красноярск", "krasnoyarsk"),
    "Asia/Irkutsk": ("иркутск", "irkutsk"),
    "Asia/Vladivostok": ("владивосток", "vladivostok", "хабаровск", "khabarovsk"),
    "Europe/Samara": ("самара", "samara", "ижевск", "izhevsk"),
    "Europe/Minsk": ("минск", "минськ", "minsk"),
    "Asia/Tbilisi": ("тифлис", "tiflis"),
    "Asia/Tashkent": ("ташкент", "tashkent"),
    "Asia/Yerevan": ("ереван", "yerevan"),
    "Asia/Baku": ("баку", "baku"),
    "Asia/Bishkek": ("бишкек", "bishkek"),
    "Europe/Chisinau": ("кишинёв", "кишинев", "chisinau", "kishinev"),
    "America/New_York": ("нью йорк", "new york", "nyc"),
    "Europe/London": ("лондон", "london"),
    "Asia/Jerusalem": ("иерусалим", "jerusalem", "тель авив", "tel aviv", "хайфа", "haifa"),
}


def place_key(text: str) -> str:
    """A typed place as the index keys it: lower case, "ё" as "е", accents, dots, commas, hyphens and
    "г." (город) dropped, spaces single."""
    text = unicodedata.normalize("NFKD", (text or "").casefold().replace("ё", "е"))
    text = "".join(ch for ch in text if not unicodedata.combining(ch) or ch == "\u0306")  # keep "й"
    text = unicodedata.normalize("NFC", text).replace("_", " ")
    text = re.sub(r"^(г|город|city of)\.?\s+", "", text.strip())
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


@cache
def _places() -> dict[str, str]:
    """Every name a place may be typed by (`place_key`) -> its zone."""
    places: dict[str, str] = {}
    per_country: dict[str, list[str]] = {}
    countries = _zone_countries()
    for zone in current_zones():
        if zone != UTC:
            per_country.setdefault(countries.get(zone, ""), []).append(zone)
            places.setdefault(place_key(zone.rsplit("/", 1)[-1]), zone)
    for language in ("en", "ru"):
        locale = Locale.parse(language)
        for zone, label in zone_labels(language):
            places.setdefault(place_key(label), zone)
            if zone != UTC:
                places.setdefault(place_key(get_timezone_location(zone, locale=locale, return_city=True)), zone)
        for country, zones in per_country.items():  # a country with one zone stands for it
            if country and len(zones) == 1 and locale.territories.get(country):
                places.setdefault(place_key(locale.territories[country]), zones[0])
    for zone, names in CITY_ALIASES.items():
        for name in names:
            places[place_key(name)] = zone
    return places


def zone_for_place(text: str) -> str | None:
    """The zone of a typed place (a city or a one-zone country, either language), or None."""
    zone = _places().get(place_key(text))
    return zone if zone in set(current_zones()) else None


def canonical_zone(name: str) -> str | None:
    """The current zone `name` stands for: itself, the zone a legacy alias
    links to, the zone of a place typed instead (`zone_for_place`), or None
    for a name that is none of these."""
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
    return zone_for_place(name)


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
