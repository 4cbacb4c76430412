"""The layers of bot/ as its folders name them, checked on every import statement.

Imports run one way: a face (bot.telegram, bot.webapp) -> the game services (bot.play) -> words,
runtime and the solver; only play reaches the stores, and the two faces never import each other:
the composition root (bot.wiring) puts them together. Only `python -m bot` knows the demo.
python-telegram-bot is the Telegram face's business alone, and its JobQueue belongs to
bot.telegram.jobs. The games only decide: bot.play.games imports no words, store or runtime.
"""

from __future__ import annotations

import ast
import re
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
    "bot.play.games": {"solver"},  # the rules decide: no words, no store, no pool
    # the two faces: each over play, neither over the other nor over the stores
    "bot.telegram": {"bot.play", "bot.text", "bot.runtime", "solver"},
    "bot.webapp": {"bot.play", "bot.text", "bot.runtime", "solver"},
    # past one process: the broker's partitions, the ingress, the worker's consumers; it knows
    # neither play nor a face (the composition root hands it the checks and what an update does)
    "bot.cluster": {"bot.runtime"},
    # the composition root: opens the stores and the pool, builds play, mounts both faces
    "bot.wiring": {"bot.play", "bot.store", "bot.text", "bot.runtime", "solver", "bot.telegram",
                   "bot.webapp", "bot.cluster"},
    # the cluster's roles: each starts a bot the root built, or a face of its own, over the broker
    "bot.roles": {"bot.wiring", "bot.play", "bot.store", "bot.runtime", "bot.telegram",
                  "bot.webapp", "bot.cluster"},
    # beside the package, not in it (an image installs bot/ and solver/ alone)
    "demo": {"bot.telegram", "bot.webapp", "bot.wiring", "bot.text", "bot.runtime",
             "bot.cluster"},
    "bot.__main__": {"bot.telegram", "bot.webapp", "bot.runtime", "demo", "bot.wiring",
                     "bot.roles"},
    "solver": set(),
}
TELEGRAM_USERS = ("bot.telegram", "demo", "bot.__main__")
FACES = ("bot.telegram", "bot.webapp")


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


SOURCES = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "solver").rglob("*.py"),
                  *(ROOT / "demo").rglob("*.py")])


def climbs(module: str, imported: str) -> bool:
    """Whether `module` importing `imported` breaks the layers (a layer's sub-layer, like
    bot.play.games in bot.play, may import only what its own entry allows, and itself)."""
    own, other = layer_of(module), layer_of(imported)
    assert own is not None, f"{module} is in no layer"
    if other is None or other == own or imported == "bot":
        return False
    if own.startswith(other + "."):  # a sub-layer importing its parent layer
        return True
    return other not in MAY_IMPORT[own] and not other.startswith(own + ".")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_imports_run_down_the_layers(path: Path):
    for imported in imports(path):
        assert not climbs(module_name(path), imported), \
            f"{module_name(path)} imports {imported}"


def test_the_rule_catches_what_it_forbids():
    """The check itself: a face importing the other face, a face importing a store, a game's
    rules importing words or the pool, each a climb; what the layers allow is none."""
    assert climbs("bot.telegram.handlers", "bot.webapp.server")
    assert climbs("bot.webapp.server", "bot.telegram.sending")
    assert climbs("bot.telegram.app", "bot.store.protocols")
    assert climbs("bot.webapp.server", "bot.store.records")
    assert climbs("bot.play.games.rules", "bot.text.i18n")
    assert climbs("bot.play.games.rules", "bot.runtime.pool")
    assert climbs("bot.play.games.rules", "bot.store.records")
    assert climbs("bot.play.games.rules", "bot.play.round.table")
    assert not climbs("bot.play.games.rules", "bot.play.games.records")
    assert not climbs("bot.play.round.service", "bot.play.games.rules")
    assert not climbs("bot.wiring", "bot.telegram.app") and not climbs("bot.wiring",
                                                                        "bot.webapp.server")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_only_the_face_speaks_telegram(path: Path):
    name = module_name(path)
    telegram = [m for m in imports(path) if m == "telegram" or m.startswith("telegram.")]
    if not name.startswith(TELEGRAM_USERS):
        assert not telegram, f"{name} imports {telegram}"
    if name != "bot.telegram.jobs":
        assert not [m for m in telegram if m.endswith((".JobQueue", ".Job"))], \
            f"{name} uses the JobQueue; timers go through bot.telegram.jobs"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_only_the_cluster_speaks_to_the_broker(path: Path):
    """The broker's client (nats) is bot.cluster's alone, and the composition root and the
    roles (bot.roles) load bot.cluster only inside a role: `python -m bot` with no role, and the
    faces (the worker's rate limiter draws on the shared budget through a protocol), never
    import it."""
    name = module_name(path)
    broker = [m for m in imports(path) if m.split(".")[0] == "nats"]
    if not name.startswith("bot.cluster"):
        assert not broker, f"{name} imports {broker}"
    if name in ("bot.wiring", "bot.roles", "bot.__main__"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
        at_top = [f"{node.module}" for node in top if isinstance(node, ast.ImportFrom)
                  and (node.module or "").startswith("bot.cluster")
                  and node.module != "bot.cluster.unreachable"]
        assert not at_top, f"{name} imports {at_top} at its top: the one process would load nats"


FACE = [path for path in SOURCES if module_name(path).startswith(FACES)]
PAGE_FILES = sorted((ROOT / "bot" / "webapp" / "static").glob("*.[hj][ts]*"))  # .html, .js
GAME_NAMES = {"24", "countdown", "yahtzee"}
GAME_WORD = re.compile(r"\b(24|countdown|yahtzee)\b", re.IGNORECASE)


def names_a_game(name: str, source: str) -> list[str]:
    """Where the module imports a game's rules, branches on a game's name, or (the Mini App,
    which has no commands of its own to name) holds a game's name at all: a set of the games
    it serves is a branch on a game too."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom | ast.Import):
            modules = [f"{node.module}.{alias.name}" for alias in node.names] \
                if isinstance(node, ast.ImportFrom) else [alias.name for alias in node.names]
            if any(m.startswith("bot.play.games") for m in modules):
                found.append(f"{name} imports a game's rules: line {node.lineno}")
        elif isinstance(node, ast.Compare):
            named = {c.value for c in ast.walk(node) if isinstance(c, ast.Constant)}
            if named & GAME_NAMES:
                found.append(f"{name} branches on a game: line {node.lineno}")
        elif name.startswith("bot.webapp") and isinstance(node, ast.Constant) and \
                node.value in GAME_NAMES:
            found.append(f"{name} names a game: line {node.lineno}")
    return found


@pytest.mark.parametrize("path", FACE, ids=lambda p: module_name(p))
def test_the_face_knows_no_game(path: Path):
    """Game rules live in bot.play: neither face imports a game's module nor branches on a
    game's name (the commands' names are the chat face's own); the Mini App, which plays every
    game from play's description of its page (bot.play.round.page), names none at all."""
    assert names_a_game(module_name(path), path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_the_page_names_no_game(path: Path):
    """The page's script and markup draw what play describes: no game's name, nor 24."""
    assert not GAME_WORD.search(path.read_text(encoding="utf-8")), path.name


def test_the_game_check_catches_what_it_forbids():
    """The check itself: the Mini App holding a set of the games it serves (as it once did), a
    face comparing a round's game with a name or importing a game's rules, each caught; the
    chat face naming its own commands is not."""
    assert names_a_game("bot.webapp.server", 'TAPPABLE = frozenset({"24"})\n') == \
        ["bot.webapp.server names a game: line 1"]
    assert names_a_game("bot.telegram.handlers", 'def f(game):\n    return game == "yahtzee"\n'
                        ) == ["bot.telegram.handlers branches on a game: line 2"]
    assert names_a_game("bot.webapp.steps", "from bot.play.games.countdown import GAME\n") == \
        ["bot.webapp.steps imports a game's rules: line 1"]
    assert names_a_game("bot.webapp.page", "from bot.play import games\n") == \
        ["bot.webapp.page imports a game's rules: line 1"]
    assert names_a_game("bot.telegram.app", 'COMMANDS = [("countdown", None)]\n') == []
    assert not GAME_WORD.search("state.target = 0n; font-size: 24px")
    assert GAME_WORD.search('if (round.game === "Yahtzee")')


def test_every_layer_has_modules():
    layers = {layer_of(module_name(path)) for path in SOURCES}
    assert layers == set(MAY_IMPORT)


# bot/play's floor plan, bottom first: a room (a folder, or a module at play's top) imports only
# rooms on floors below its own, never one beside it or above (docs/architecture.md draws it)
PLAY_FLOORS: list[tuple[str, ...]] = [
    ("games", "ratings", "outcomes"),  # rules, the rating model, what a transition hands out
    ("ports",),  # what play needs of a face
    ("words", "guards"),
    ("chats", "dealing"),
    ("round", "solving", "community"),
    ("matches", "achievements", "tournaments"),  # they follow a round's close
    ("places", "recovery", "daily", "alarms"),  # they act on rounds and matches
    ("cards",),
    ("pages",),
    ("services",),  # play's composition
]
FLOOR_OF = {room: floor for floor, rooms in enumerate(PLAY_FLOORS) for room in rooms}
PLAY = ROOT / "bot" / "play"


def play_room(module: str) -> str | None:
    """The room of bot.play a module is in (None: not inside play, or play's own package)."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["bot", "play"] and len(parts) > 2 else None


def against_the_plan(module: str, imported: str) -> bool:
    """Whether `module` importing `imported` runs sideways or up play's floors."""
    own, other = play_room(module), play_room(imported)
    if own is None or other is None or own == other:
        return False
    return FLOOR_OF[other] >= FLOOR_OF[own]


def test_every_room_of_play_has_a_floor():
    rooms = {path.stem if path.is_file() else path.name for path in PLAY.iterdir()
             if (path.is_dir() and any(path.glob("*.py"))) or
             (path.suffix == ".py" and path.stem != "__init__")}
    assert rooms == set(FLOOR_OF), "place a new room of bot/play on a floor of PLAY_FLOORS"


PLAY_SOURCES = sorted(PLAY.rglob("*.py"))


@pytest.mark.parametrize("path", PLAY_SOURCES, ids=lambda p: module_name(p))
def test_play_imports_run_down_its_floors(path: Path):
    module = module_name(path)
    against = [m for m in imports(path) if against_the_plan(module, m)]
    assert not against, f"{module} imports {against}: see PLAY_FLOORS"


def test_the_plan_catches_what_it_forbids():
    """The check itself, on the imports that once ran the wrong way: a chat's fate acting on
    rounds from inside chats/, the adaptive dealer reading round/'s rater, a restart's resume
    in round/ going on with matches, ports typed with round/'s outcomes; and a room beside
    another (matches, achievements) is as wrong as one above."""
    assert against_the_plan("bot.play.chats.places", "bot.play.round.service")
    assert against_the_plan("bot.play.chats.places", "bot.play.matches.matches")
    assert against_the_plan("bot.play.dealing.adaptive", "bot.play.round.rating")
    assert against_the_plan("bot.play.round.recovery", "bot.play.matches.matches")
    assert against_the_plan("bot.play.ports", "bot.play.round.outcomes")
    assert against_the_plan("bot.play.matches.matches", "bot.play.achievements.service")
    assert not against_the_plan("bot.play.places", "bot.play.matches.matches")
    assert not against_the_plan("bot.play.round.table", "bot.play.round.outbox")
    assert not against_the_plan("bot.play.services", "bot.play.round.service")


def attributes_set(source: str, functions: tuple[str, ...]) -> list[str]:
    """Where the named functions (and what they define) assign to another object's attribute:
    `x.y = ...` with x not `self` — a collaborator patched onto a built object."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in functions:
            for inner in ast.walk(node):
                targets = inner.targets if isinstance(inner, ast.Assign) else \
                    [inner.target] if isinstance(inner, ast.AnnAssign | ast.AugAssign) else []
                found += [f"{node.name}: line {inner.lineno}" for target in targets
                          if isinstance(target, ast.Attribute) and not
                          (isinstance(target.value, ast.Name) and target.value.id == "self")]
    return found


# the composition: each service built with what it talks to, never told later (architecture.md)
COMPOSING = {"bot/play/services.py": ("build_services",),
             "bot/wiring.py": ("open_services",), "bot/roles.py": ("serve_worker",)}


@pytest.mark.parametrize("file", sorted(COMPOSING))
def test_no_service_is_told_later_who_it_talks_to(file: str):
    """What the root puts into PTB's context data (`bot_data`, which the handlers read) is the
    one attribute it may set: that is where a face finds its services."""
    source = (ROOT / file).read_text(encoding="utf-8")
    for data in ("application.bot_data.", "data."):  # `data` is bot_data, named shorter
        source = source.replace(data, "bot_data_")
    assert attributes_set(source, COMPOSING[file]) == []


def test_the_composition_check_catches_a_patch():
    """The check itself, on what serve_worker once did: a lambda patched onto a built holding,
    and a setter-free assignment onto a service; `self.x = ...` in a constructor is not one."""
    once = ("async def serve_worker(bot):\n    bot.holding.owns = lambda chat: True\n"
            "    bot.sole = lambda: False\n")
    assert attributes_set(once, ("serve_worker",)) == ["serve_worker: line 2",
                                                     "serve_worker: line 3"]
    assert attributes_set("def serve_worker(self):\n    self.x = 1\n", ("serve_worker",)) == []


def collaborator_types() -> set[str]:
    """The names that type a collaborator in play: its classes with a constructor of their own
    (services, units, caches) or a protocol's base, and its aliases of a callable."""
    names = {"Callable"}
    for path in [*PLAY_SOURCES, ROOT / "bot" / "store" / "protocols.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and (
                    any(isinstance(item, ast.FunctionDef) and item.name == "__init__"
                        for item in node.body) or
                    any(ast.unparse(base) == "Protocol" for base in node.bases)):
                names.add(node.name)
            elif isinstance(node, ast.Assign) and "Callable[" in ast.unparse(node.value):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def is_setter(function: ast.FunctionDef, collaborators: set[str]) -> bool:
    """A method whose one statement (its docstring aside) stores on `self` a parameter typed as
    a collaborator: a service told later who it talks to (state a transition records is not)."""
    body = [statement for statement in function.body if not (
        isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant))]
    typed = {argument.arg: argument.annotation for argument in function.args.args[1:]}
    if len(body) != 1 or not isinstance(body[0], ast.Assign) or \
            not isinstance(body[0].value, ast.Name) or body[0].value.id not in typed or \
            not all(isinstance(target, ast.Attribute) for target in body[0].targets):
        return False
    annotation = typed[body[0].value.id]
    return annotation is not None and any(
        isinstance(name, ast.Name) and name.id in collaborators for name in ast.walk(annotation))


def test_the_setter_check_catches_one():
    collaborators = {"Callable", "Fate", "LivePuzzles"}
    once = ast.parse("def settle_with(self, settle: Callable[[Fate], None]):\n"
                     "    \"\"\"Who acts.\"\"\"\n    self._settle = settle\n").body[0]
    assert isinstance(once, ast.FunctionDef) and is_setter(once, collaborators)
    kept = ast.parse("def keep_daily_back(self, live: LivePuzzles):\n    self.live = live\n"
                     ).body[0]
    assert isinstance(kept, ast.FunctionDef) and is_setter(kept, collaborators)
    state = ast.parse("def written(self, at: float):\n    self.at = at\n").body[0]
    assert isinstance(state, ast.FunctionDef) and not is_setter(state, collaborators)
    plain = ast.parse("def keep(self, f: Callable):\n    self.kept = f\n    return 1\n").body[0]
    assert isinstance(plain, ast.FunctionDef) and not is_setter(plain, collaborators)


def test_no_setter_wires_a_service():
    """No service offers a method that hands it a collaborator after it is built (as
    `Outbox.settle_with` and `Dealer.keep_daily_back` once did)."""
    setters, collaborators = [], collaborator_types()
    for path in PLAY_SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name != "__init__" and \
                    is_setter(node, collaborators):
                setters.append(f"{module_name(path)}.{node.name}")
    assert setters == []


SOLVER_TESTS = sorted((ROOT / "tests" / "solver").rglob("*.py"))
BOT_SIDE = ("bot", "telegram")  # packages, and the tests' folders that lean on them
BOT_TESTS = ("tests.bot", "tests.e2e", "tests.postgres", "tests.demo")


@pytest.mark.parametrize("path", SOLVER_TESTS, ids=lambda p: p.name)
def test_the_solver_tests_need_the_solver_alone(path: Path):
    """CI runs tests/solver again where only the solver is installed (`make test-solver-alone`):
    a solver test that imports the bot fails there, not here, so it is refused here."""
    bot_side = [m for m in imports(path) if m.split(".")[0] in BOT_SIDE
                or ".".join(m.split(".")[:2]) in BOT_TESTS]
    assert not bot_side, f"{path.name} imports {bot_side}: its place is tests/bot"
