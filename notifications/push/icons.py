"""Draw the installable app's icons (static/icons/*.png) from the site's card
(static/favicon.svg) on the header's felt green, rasterised by Chromium.

    .venv/bin/python -m notifications.push.icons   # needs the test extra (Playwright) and /usr/bin/chromium

Run once when the design changes; the PNGs are committed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static"
FELT = "#1f5c3a"

# (file, size in px, the card's share of the side, the background's corner radius as a share of the side)
ICONS = [
    ("icon-192.png", 192, 0.72, 0.22),  # "any": a rounded tile, the card large
    ("icon-512.png", 512, 0.72, 0.22),
    ("icon-maskable-512.png", 512, 0.56, 0.0),  # maskable: full bleed, the card inside the 80% safe circle
    ("apple-touch-icon.png", 180, 0.68, 0.0),  # iOS rounds the corners itself and wants no transparency
]


def icon_svg(size: int, card_share: float, radius_share: float) -> str:
    card = re.sub(r"^<svg[^>]*>|</svg>\s*$", "", (STATIC / "favicon.svg").read_text().strip())
    inner = size * card_share
    offset = (size - inner) / 2
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">'
            f'<rect width="{size}" height="{size}" rx="{size * radius_share}" fill="{FELT}"/>'
            f'<g transform="translate({offset} {offset}) scale({inner / 64})">{card}</g></svg>')


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = STATIC / "icons"
    out.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
                                             args=["--headless=new", "--no-sandbox"])
        for name, size, card_share, radius_share in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(f'<html><body style="margin:0;background:transparent">'
                             f'{icon_svg(size, card_share, radius_share)}</body></html>')
            page.screenshot(path=str(out / name), omit_background=radius_share > 0,
                            clip={"x": 0, "y": 0, "width": size, "height": size})
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
