"""The arrows point one way: the tasks and the badge depend on the services,
never the services on them (ARCHITECTURE.md; the apps' layers are checked by
import-linter: tests/test_layers.py)."""

import ast
from pathlib import Path

import gameplay.services

SERVICES = Path(gameplay.services.__file__).parent
LATER = ("gameplay.tasks", "gameplay.badge", "notifications")


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_no_service_imports_the_tasks_or_the_notifications_even_inside_a_function():
    for path in sorted(SERVICES.glob("*.py")):
        wrong = {name for name in imported_modules(path) if name.startswith(LATER)}
        assert not wrong, f"{path.name} imports {sorted(wrong)}"


def test_the_tasks_register_the_work_after_a_commit():
    from gameplay import tasks
    from gameplay.services import after_commit

    assert after_commit._follow_up is tasks.queue_follow_ups
