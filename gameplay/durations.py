"""Time entered the way correspondence players think of it: days, hours and
minutes (a form field whose value is still seconds, as the services take it).

A form posts `<name>_days`, `<name>_hours` and `<name>_minutes`; a client
that posts `<name>` itself (seconds, as before) is still understood.
Every box empty: no value (the preset's)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# (name, seconds, the box's name for screen readers, the unit written beside it)
UNITS = (("days", 86400, _("days"), _("d")), ("hours", 3600, _("hours"), _("h")),
         ("minutes", 60, _("minutes"), _("min")))
BOX_MAX = 10**6  # no box holds more (the total is bounded by the field's own limits)


def split(seconds: int | None) -> list[int | None]:
    """Seconds as [days, hours, minutes] (seconds that are not whole minutes round up)."""
    try:
        seconds = int(seconds)
    except (TypeError, ValueError):
        return [None, None, None]
    minutes = -(-seconds // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    return [days, hours, minutes]


class DurationWidget(forms.MultiWidget):
    template_name = "gameplay/widgets/duration.html"

    class Media:  # the site's pages have it in site.css; the admin renders a form's media
        css = {"all": ["css/durations.css"]}

    def __init__(self, attrs=None):
        boxes = [forms.NumberInput(attrs={"min": 0, "step": 1, "inputmode": "numeric", "class": f"duration-{slug}",
                                          "aria-label": label})
                 for slug, _size, label, _unit in UNITS]
        super().__init__({slug: box for (slug, *_rest), box in zip(UNITS, boxes)}, attrs)

    def decompress(self, value):
        return split(value)

    def value_from_datadict(self, data, files, name):
        if name in data and not any(f"{name}_{slug}" in data for slug, *_rest in UNITS):
            return data.get(name)  # seconds, posted by a client of the old form
        return super().value_from_datadict(data, files, name)

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        for subwidget, (*_rest, unit) in zip(context["widget"]["subwidgets"], UNITS):
            subwidget["unit"] = unit
        return context

    def id_for_label(self, id_):
        return f"{id_}_0" if id_ else id_


class DurationField(forms.IntegerField):
    """Seconds, entered as days + hours + minutes; bounded like an IntegerField."""

    widget = DurationWidget

    def to_python(self, value):
        if not isinstance(value, (list, tuple)):
            return super().to_python(value)
        boxes = [str(box).strip() if box is not None else "" for box in value]
        if not any(boxes):
            return None
        total = 0
        for box, (_slug, size, *_rest) in zip(boxes, UNITS):
            if not box:
                continue
            if not box.isascii() or not box.isdigit() or int(box) > BOX_MAX:
                raise ValidationError(_("Enter whole numbers of days, hours and minutes."), code="invalid")
            total += int(box) * size
        return total

    def prepare_value(self, value):
        return value

    def bound_data(self, data, initial):
        return data
