"""What every scenario module of the browser tests shares: run one of its scenarios against the live
server's database (a child process with the server's environment) and, as that process, print the
scenario's JSON line.

A scenario module `tests.browser.X_scenario` defines its SCENARIOS and ends with

    def run(live_site, name, *args): return run_scenario(__name__, live_site, name, *args)
    if __name__ == "__main__": main(SCENARIOS, sys.argv[1:])
"""

import json
import os
import subprocess
import sys
from collections.abc import Callable


def run_scenario(module: str, live_site, name: str, *args: str) -> dict:
    """Scenario `name` of `module` run against the live server's database (see conftest.LiveServer)."""
    from tests.browser.conftest import BASE_DIR, SETUP_SECONDS

    done = subprocess.run([sys.executable, "-m", module, name, *args], cwd=BASE_DIR, env=live_site.env,
                          capture_output=True, text=True, timeout=SETUP_SECONDS)
    if done.returncode != 0:
        raise AssertionError(f"scenario {name} failed:\n{done.stdout}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(scenarios: dict[str, Callable[..., dict]], argv: list[str]) -> None:
    """Django set up, the scenario named by argv[0] run with the rest as its arguments, in English."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.utils import translation

    name, *args = argv
    with translation.override("en"):
        print(json.dumps(scenarios[name](*args)))
