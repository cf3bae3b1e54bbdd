"""What every scenario module of the browser tests shares: run one of its scenarios against the live
server's database and, as the command `python -m MODULE NAME ARGS...`, print the scenario's JSON line.

A scenario module `tests.browser.X_scenario` defines its SCENARIOS and ends with

    def run(live_site, name, *args): return run_scenario(__name__, live_site, name, *args)
    def main(argv): run_command(SCENARIOS, argv)
    if __name__ == "__main__": main(sys.argv[1:])

(`main(argv)` is what tests/browser/scenario_runner.py calls.)
"""

import json
import os
from collections.abc import Callable


def run_scenario(module: str, live_site, name: str, *args: str) -> dict:
    """Scenario `name` of `module` run against the live server's database (see conftest.LiveServer)."""
    return live_site.run_scenario_of(module, name, *args)


def run_command(scenarios: dict[str, Callable[..., dict]], argv: list[str]) -> None:
    """Django set up, the scenario named by argv[0] run with the rest as its arguments, in English."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.utils import translation

    name, *args = argv
    with translation.override("en"):
        print(json.dumps(scenarios[name](*args)))
