"""The apps stand in layers (ARCHITECTURE.md, "Layout and layers"): import-linter
checks the contracts written in pyproject.toml, and no function hides an
import of the project's own modules to dodge a cycle (AppConfig.ready(),
where an app subscribes to the events of the apps below, aside)."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ["config", "pages", "correspondence", "leagues", "moderation", "notifications", "ratings", "scoresheets", "gameplay", "accounts",
        "conduct"]
MOST_LOCAL_IMPORTS = 5


def test_every_app_imports_only_from_the_layers_below_it_and_the_engines_stay_pure():
    lint_imports = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def local_imports_of_project_modules() -> list[tuple[str, int, str]]:
    """(file, line, the line above it) of every import of a project module inside a function."""
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            source = path.read_text()
            lines = source.splitlines()
            for function in ast.walk(ast.parse(source)):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or function.name == "ready":
                    continue
                for node in ast.walk(function):
                    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        names = [node.module]
                    elif isinstance(node, ast.Import):
                        names = [alias.name for alias in node.names]
                    else:
                        continue
                    if any(name.split(".")[0] in APPS for name in names):
                        above = lines[node.lineno - 2] if node.lineno > 1 else ""
                        found.append((str(path.relative_to(ROOT)), node.lineno, lines[node.lineno - 1] + above))
    return found


def test_at_most_a_handful_of_functions_import_project_modules_and_each_says_why():
    found = local_imports_of_project_modules()
    assert len(found) <= MOST_LOCAL_IMPORTS, found
    for path, line, text in found:
        assert "#" in text, f"{path}:{line}: say why this import cannot be at the top"
