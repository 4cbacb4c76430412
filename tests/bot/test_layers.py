"""The layers of bot/ as its folders name them, checked on every import statement.

Imports run one way: the Telegram face (bot.telegram) -> the game services (bot.play) -> stores,
words, runtime and the solver; only `python -m bot` knows the demo. python-telegram-bot is the
face's business alone, and its JobQueue belongs to bot.telegram.jobs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

# what each layer may import of the project, besides itself (the solver is pure: anyone may)
MAY_IMPORT = {
    "bot": set(),  # the package itself: nothing but its folders
    "bot.text": {"solver"},
    "bot.runtime": {"solver"},
    "bot.store": set(),
    "bot.play": {"bot.store", "bot.text", "bot.runtime", "solver"},
    # the chat face starts the Mini App's (lifecycle: its own server when polling)
    "bot.telegram": {"bot.play", "bot.store", "bot.text", "bot.runtime", "solver", "bot.webapp"},
    # the Mini App: a face of its own, publishing a win by the chat face's one send path
    "bot.webapp": {"bot.play", "bot.store", "bot.text", "bot.runtime", "solver", "bot.telegram"},
    "bot.demo": {"bot.telegram", "bot.webapp", "bot.text", "bot.runtime"},
    "bot.__main__": {"bot.telegram", "bot.webapp", "bot.runtime", "bot.demo"},
    "solver": set(),
}
TELEGRAM_USERS = ("bot.telegram", "bot.demo", "bot.__main__")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[str]:
    """Every module an import statement of the file names (`from a import b` counts as a.b
    too, since b may be a module)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            found += [f"{node.module}.{alias.name}" for alias in node.names]
    return found


def layer_of(module: str) -> str | None:
    for layer in sorted(MAY_IMPORT, key=len, reverse=True):
        if module == layer or (module.startswith(layer + ".") and layer != "bot"):
            return layer
    return None


SOURCES = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "solver").rglob("*.py")])


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_imports_run_down_the_layers(path: Path):
    own = layer_of(module_name(path))
    assert own is not None, f"{module_name(path)} is in no layer"
    for imported in imports(path):
        other = layer_of(imported)
        if other is not None and other != own and imported != "bot":
            assert other in MAY_IMPORT[own], f"{module_name(path)} imports {imported}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_only_the_face_speaks_telegram(path: Path):
    name = module_name(path)
    telegram = [m for m in imports(path) if m == "telegram" or m.startswith("telegram.")]
    if not name.startswith(TELEGRAM_USERS):
        assert not telegram, f"{name} imports {telegram}"
    if name != "bot.telegram.jobs":
        assert not [m for m in telegram if m.endswith((".JobQueue", ".Job"))], \
            f"{name} uses the JobQueue; timers go through bot.telegram.jobs"


FACE = [path for path in SOURCES if module_name(path).startswith("bot.telegram")]
GAME_NAMES = {"24", "countdown", "yahtzee"}


@pytest.mark.parametrize("path", FACE, ids=lambda p: module_name(p))
def test_the_face_knows_no_game(path: Path):
    """Game rules live in bot.play: the face neither imports a game's module nor branches on a
    game's name (the commands' names are the face's own)."""
    name = module_name(path)
    assert not [m for m in imports(path) if m.startswith("bot.play.games")], \
        f"{name} imports a game's rules"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            named = {c.value for c in ast.walk(node) if isinstance(c, ast.Constant)}
            assert not named & GAME_NAMES, f"{name} branches on a game: line {node.lineno}"


def test_every_layer_has_modules():
    layers = {layer_of(module_name(path)) for path in SOURCES}
    assert layers == set(MAY_IMPORT)
