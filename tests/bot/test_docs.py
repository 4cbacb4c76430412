"""What docs/architecture.md, docs/scaling.md and docs/counts.md name is in the code: every path
of the repository they give (`bot/...py`, a folder), every module they name dotted
(`bot.telegram.app`, `bot.wiring.opening`), every class they name in backticks (`RoundTable`,
`RoundTable._heads`) — one the code or its tests define, or one of a library the bot imports —
and, where they say which file a class or a function is in (`RateLimiter`
(`bot/telegram/rate_limiter.py`), `serve_worker`, in `bot/roles.py`), that file. What they say
of the rate limiter is the code's: PTB's AIORateLimiter, which the docs once said the bot kept,
is named only as what it does not use. So a page cannot keep a module that moved, a class that
went, or a library's class in place of the bot's own."""

from __future__ import annotations

import ast
import functools
import importlib
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

# docs/counts.md names, for each count, the files and functions that show it (issue 73)
DOCS = [ROOT / "docs" / "architecture.md", ROOT / "docs" / "scaling.md",
        ROOT / "docs" / "counts.md"]
# the operator's guides say which rate limiter runs too (README's RATE_LIMIT row once named PTB's)
GUIDES = [ROOT / "README.md", ROOT / "deploy" / "README.md"]
CODE = ("bot", "solver", "demo")  # what the docs describe
CLASSES_IN = (*CODE, "tests")  # where a class they name may be defined (the tests' fakes)
FOLDERS = (*CODE, "tests", "bench", "deploy", "docs")  # what they may point at
PATH = re.compile(rf"\b(?:{'|'.join(FOLDERS)})/[\w./-]*[\w/]")
DOTTED = re.compile(r"(?<![\w./])bot(?:\.\w+)+")
SPAN = re.compile(r"`([^`\n]+)`")
CLASS = re.compile(r"([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:\.(\w+))?(?:\(.*\))?")
PLACED = (re.compile(r"`([A-Z]\w*[a-z]\w*)`,? \(`((?:bot|solver|demo)/[\w/]+\.py)`"),  # a class
          re.compile(r"`([a-z_]\w*)`, in `((?:bot|solver|demo)/[\w/]+\.py)`"))  # a function
NOT_USED = ("not", "no longer", "instead", "in place of", "rather than")


def text_of(doc: Path) -> str:
    return doc.read_text(encoding="utf-8")


@functools.cache
def sources() -> dict[str, Path]:
    """Every module of the code by its dotted name."""
    found = {}
    for folder in CODE:
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def top_names(path: Path, imported: bool = True) -> set[str]:
    """What a module defines at its top (classes, functions, names, aliases), and what it
    imports there (`imported`)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif imported and isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


@functools.cache
def defined() -> dict[str, list[Path]]:
    """Each class the code or its tests define, and the files that define it (at any
    depth)."""
    found: dict[str, list[Path]] = {}
    for path in (p for folder in CLASSES_IN for p in (ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(path)
        for name in top_names(path, imported=False):  # a type's alias: Verdict = Right | ...
            if name[:1].isupper():
                found.setdefault(name, []).append(path)
    return found


@functools.cache
def libraries() -> list[object]:
    """The modules outside the project that bot/ imports (telegram.ext, asyncpg, weakref...)."""
    names = set()
    for module, path in sources().items():
        if not module.startswith("bot"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
    found = []
    for name in sorted(n for n in names if not n.startswith(CODE)):
        try:
            found.append(importlib.import_module(name))
        except ImportError:  # an optional extra not installed here
            continue
    return found


@functools.cache
def used_by_the_bot() -> set[str]:
    """Every name bot/'s code uses (not its words: a docstring naming a class is no use)."""
    names = set()
    for module, path in sources().items():
        if module.startswith("bot"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Name):
                    names.add(node.id)
                elif isinstance(node, ast.Attribute):
                    names.add(node.attr)
                elif isinstance(node, ast.alias):
                    names.add(node.name.split(".")[-1])
    return names


def missing_paths(text: str) -> list[str]:
    """The paths the text gives that are not in the repository (a placeholder, `<game>`, and
    a glob are patterns, not paths)."""
    found = {m.group(0).rstrip(".") for m in PATH.finditer(text)}
    return sorted(p for p in found if "<" not in p and "*" not in p and not (ROOT / p).exists())


def missing_modules(text: str) -> list[str]:
    """The dotted names of bot/ the text gives that are no module, nor a name at a module's
    top (`bot.wiring.opening`)."""
    missing = []
    for name in sorted({m.group(0).rstrip(".") for m in DOTTED.finditer(text)}):
        parts = name.split(".")
        modules = [".".join(parts[:n]) for n in range(len(parts), 0, -1)
                   if ".".join(parts[:n]) in sources()]
        rest = parts[len(modules[0].split(".")):] if modules else parts
        if not modules or (rest and rest[0] not in top_names(sources()[modules[0]])):
            missing.append(name)
    return missing


def missing_classes(text: str) -> list[str]:
    """The classes the text names in backticks that the code neither defines nor imports from
    a library; of a class of the code, the attribute named after it where the class is not."""
    missing = []
    for span in sorted({m.group(1) for m in SPAN.finditer(text)}):
        found = CLASS.fullmatch(span)
        if found is None:
            continue
        name, attribute = found.group(1), found.group(2)
        files = defined().get(name)
        if files is None:
            if not any(hasattr(library, name) for library in libraries()):
                missing.append(span)
        elif attribute and not any(re.search(rf"\b{attribute}\b", f.read_text("utf-8"))
                                   for f in files) and not any(
                hasattr(getattr(library, name, None), attribute) for library in libraries()):
            missing.append(span)
    return missing


def misplaced(text: str) -> list[str]:
    """Each `Class` (`path`) or `function`, in `path` of the text whose path does not define
    that name."""
    return [f"{name} in {path}" for pattern in PLACED for name, path in pattern.findall(text)
            if not (ROOT / path).exists() or name not in top_names(ROOT / path, imported=False)]


def claimed_as_used(text: str, name: str) -> list[str]:
    """The sentences of the text that name a library's class the bot does not use without
    saying it does not."""
    if name in used_by_the_bot():
        return []
    sentences = re.split(r"(?<=[.;:])\s+", " ".join(text.split()))
    return [s for s in sentences if name in s and not any(word in s for word in NOT_USED)]


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_every_path_the_docs_give_is_there(doc: Path):
    assert missing_paths(text_of(doc)) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_every_module_the_docs_name_is_there(doc: Path):
    assert missing_modules(text_of(doc)) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_every_class_the_docs_name_is_the_codes_or_one_it_uses(doc: Path):
    assert missing_classes(text_of(doc)) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_a_class_is_where_the_docs_say(doc: Path):
    assert misplaced(text_of(doc)) == []


@pytest.mark.parametrize("doc", [*DOCS, *GUIDES], ids=lambda d: str(d.relative_to(ROOT)))
def test_the_rate_limiter_the_docs_describe_is_the_bots(doc: Path):
    """The bot sends through its own RateLimiter (bot.telegram.rate_limiter), never PTB's
    AIORateLimiter: a page may name the latter only as what the bot does not use."""
    assert "AIORateLimiter" not in used_by_the_bot()
    assert claimed_as_used(text_of(doc), "AIORateLimiter") == []


def test_the_checks_catch_what_went():
    """The checks themselves, on what the docs said before issue 72: handlers.py and the rate
    limiter in app.py, PTB's AIORateLimiter as the bot's, `guard` in metered_request, a map
    of a class that has none."""
    assert missing_paths("`bot/telegram/handlers.py`, `bot/telegram/app.py`") == \
        ["bot/telegram/handlers.py"]
    assert missing_modules("bot.telegram.metered_request.guard and bot.wiring.opening") == \
        ["bot.telegram.metered_request.guard"]
    assert missing_classes("keeps PTB's `NoSuchLimiter` for `Application` and `RoundTable`") \
        == ["NoSuchLimiter"]
    assert claimed_as_used("A worker keeps PTB's `AIORateLimiter` for the retries.",
                           "AIORateLimiter") != []
    assert claimed_as_used("It does not use PTB's `AIORateLimiter`: its own.",
                           "AIORateLimiter") == []
    assert misplaced("`serve_worker`, in `bot/roles.py`, builds it") == []
    assert misplaced("`serve_worker`, in `bot/wiring.py`, builds it") == \
        ["serve_worker in bot/wiring.py"]
    assert missing_classes("`RoundTable._heads`, `RoundTable._nowhere`") == \
        ["RoundTable._nowhere"]
    assert misplaced("Its `RateLimiter` (`bot/telegram/app.py`) keeps") == \
        ["RateLimiter in bot/telegram/app.py"]
    assert misplaced("Its `RateLimiter` (`bot/telegram/rate_limiter.py`) keeps") == []
