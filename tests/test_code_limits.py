"""Every room small enough to read: the size limits of the house (issue "One house").

- no Python file outside migrations over 800 lines;
- no function in ``rules/`` over 80 lines (from its ``def`` to its last line).
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 80


def _python_files() -> list[Path]:
    tracked = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    files = [ROOT / f for f in tracked] if tracked else list(ROOT.rglob("*.py"))
    return [
        f for f in files if f.exists() and "migrations" not in f.parts and ".venv" not in f.parts
    ]


def test_no_python_file_is_over_800_lines():
    too_long = {
        str(f.relative_to(ROOT)): n
        for f in _python_files()
        if (n := len(f.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES
    }
    assert too_long == {}


def _long_functions(path: Path, label: str) -> dict[str, int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = node.end_lineno - start + 1
            if length > MAX_FUNCTION_LINES:
                found[f"{label}:{node.lineno} {node.name}"] = length
    return found


def test_no_function_in_rules_is_over_80_lines():
    too_long = {}
    for f in _python_files():
        relative = f.relative_to(ROOT)
        if relative.parts[0] == "rules":
            too_long.update(_long_functions(f, str(relative)))
    assert too_long == {}


def test_the_limit_sees_a_function_one_line_too_long(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    sample = tmp_path / "sample.py"
    sample.write_text(f"def long():\n{body}\n\n\ndef short():\n    pass\n")
    assert _long_functions(sample, "sample.py") == {"sample.py:1 long": MAX_FUNCTION_LINES + 1}
