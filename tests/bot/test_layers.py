"""The layers of bot/ as its folders name them, checked on every import statement.

Imports run one way: a face (bot.telegram, bot.webapp) -> the game services (bot.play) -> words,
runtime and the solver; only play reaches the stores, and the two faces never import each other:
the composition root (bot.wiring) puts them together. Only `python -m bot` knows the demo.
python-telegram-bot is the Telegram face's business alone, and its JobQueue belongs to
bot.telegram.jobs. Rules only decide: bot.play.rules, and each game's rules.py, import no words,
store or runtime (a game's words and its `Game` sit beside its rules in its folder).
Inside play and inside the Telegram face the rooms stand on floors (PLAY_FLOORS,
TELEGRAM_FLOORS), and no import in bot/ closes a cycle. The composition root and the roles build
each part with what it needs: nothing is set on a built object, the bot data or PTB's insides.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.play import games
from bot.text.i18n import Texts
from tests.conftest import ROOT

# what each layer may import of the project, besides itself (the solver is pure: anyone may)
MAY_IMPORT = {
    "bot": set(),  # the package itself: nothing but its folders
    "bot.text": {"solver"},
    "bot.runtime": {"solver"},
    "bot.store": set(),
    "bot.play": {"bot.store", "bot.text", "bot.runtime", "solver"},
    "bot.play.rules": {"solver"},  # what every game's rules are made of: no words, no store
    # the two faces: each over play, neither over the other nor over the stores
    "bot.telegram": {"bot.play", "bot.text", "bot.runtime", "solver"},
    "bot.webapp": {"bot.play", "bot.text", "bot.runtime", "solver"},
    # past one process: the broker's partitions, the ingress, the worker's consumers; it knows
    # neither play nor a face (the composition root hands it the checks and what an update does)
    "bot.cluster": {"bot.runtime"},
    # the composition root: opens the stores and the pool, builds play, mounts both faces
    "bot.wiring": {"bot.play", "bot.store", "bot.text", "bot.runtime", "solver", "bot.telegram",
                   "bot.webapp", "bot.cluster"},
    # every role: each puts its process together with the root's parts, and runs it
    "bot.roles": {"bot.wiring", "bot.play", "bot.runtime", "bot.telegram", "bot.webapp",
                  "bot.cluster"},
    # beside the package, not in it (an image installs bot/ and solver/ alone)
    "demo": {"bot.telegram", "bot.webapp", "bot.wiring", "bot.text", "bot.runtime",
             "bot.cluster", "solver"},
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
    assert climbs("bot.telegram.features.rounds", "bot.webapp.server")
    assert climbs("bot.webapp.server", "bot.telegram.sending")
    assert climbs("bot.telegram.app", "bot.store.protocols")
    assert climbs("bot.webapp.server", "bot.store.records")
    assert climbs("bot.play.rules.base", "bot.text.i18n")
    assert climbs("bot.play.rules.base", "bot.runtime.pool")
    assert climbs("bot.play.rules.base", "bot.store.records")
    assert climbs("bot.play.rules.base", "bot.play.round.table")
    assert not climbs("bot.play.rules.base", "bot.play.rules.records")
    assert not climbs("bot.play.round.service", "bot.play.rules.base")
    assert not climbs("bot.wiring", "bot.telegram.app") and not climbs("bot.wiring",
                                                                        "bot.webapp.server")


GAME_RULES = sorted((ROOT / "bot" / "play" / "games").glob("*/rules.py"))


def decides_only(module: str, imported: str) -> bool:
    """Whether a game's rules module may import this: the solver, the parts every game's rules
    are made of (bot.play.rules), and its own folder's other rules."""
    folder = module.rsplit(".", 1)[0]
    return not imported.startswith("bot") or imported.startswith("bot.play.rules") or \
        imported.startswith(folder + ".rules")


@pytest.mark.parametrize("path", GAME_RULES, ids=lambda p: module_name(p))
def test_a_games_rules_only_decide(path: Path):
    """A game's rules are pure, so the solver pool can run its deal and its analysis, and a test
    can judge an answer, with no catalog, store or process around."""
    for imported in imports(path):
        assert decides_only(module_name(path), imported), f"{module_name(path)} imports {imported}"


def test_the_rules_check_catches_what_it_forbids():
    assert GAME_RULES, "no game's rules found"
    assert not decides_only("bot.play.games.krypto.rules", "bot.play.words.game")
    assert not decides_only("bot.play.games.krypto.rules", "bot.play.games.make10.rules")
    assert not decides_only("bot.play.games.krypto.rules", "bot.text.i18n")
    assert decides_only("bot.play.games.krypto.rules", "bot.play.rules.records")
    assert decides_only("bot.play.games.krypto.rules", "solver.expr")


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
GAME_NAMES = set(games.GAMES)
# what a face may read of bot.play.games: the registry of every game, never one game's folder
REGISTRY_NAMES = {"registry", "game", "help", *games.__all__}
GAME_WORD = re.compile(r"\b(" + "|".join(map(re.escape, sorted(GAME_NAMES))) + r")\b",
                       re.IGNORECASE)


def names_a_game(name: str, source: str) -> list[str]:
    """Where the module imports one game's folder (the registry of them all it may read),
    branches on a game's name, or (the Mini App,
    which has no commands of its own to name) holds a game's name at all: a set of the games
    it serves is a branch on a game too."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom | ast.Import):
            modules = [f"{node.module}.{alias.name}" for alias in node.names] \
                if isinstance(node, ast.ImportFrom) else [alias.name for alias in node.names]
            if any(m.startswith("bot.play.games.") and
                   m.split(".")[3] not in REGISTRY_NAMES for m in modules):
                found.append(f"{name} imports a game's rules: line {node.lineno}")
        elif isinstance(node, ast.Compare):
            named = {c.value for c in ast.walk(node) if isinstance(c, ast.Constant)}
            if named & GAME_NAMES:
                found.append(f"{name} branches on a game: line {node.lineno}")
        elif name.startswith("bot.webapp") and isinstance(node, ast.Constant) and \
                node.value in GAME_NAMES:
            found.append(f"{name} names a game: line {node.lineno}")
    return found


OUTSIDE_THE_GAMES = [path for path in SOURCES if module_name(path).startswith("bot")
                     and not module_name(path).startswith("bot.play.games")]


def test_no_module_outside_the_games_imports_one_games_folder():
    """A game is its folder (issue 72): what the daily, the adaptive deals, the rounds or the
    stores need of one game they read from the registry (`DAILY_GAME`, `ADAPTIVE_GAME`, `GAMES`),
    so no module outside bot/play/games imports a game's folder."""
    found = [line for path in OUTSIDE_THE_GAMES
             for line in names_a_game(module_name(path), path.read_text(encoding="utf-8"))
             if "imports a game's rules" in line]
    assert found == []


@pytest.mark.parametrize("path", FACE, ids=lambda p: module_name(p))
def test_the_face_knows_no_game(path: Path):
    """Game rules live in bot.play: neither face imports a game's module nor branches on a
    game's name (the commands' names are the chat face's own); the Mini App, which plays every
    game from play's description of its page (bot.play.round.page), names none at all."""
    assert names_a_game(module_name(path), path.read_text(encoding="utf-8")) == []


# The schema's shipped steps that name a game: history that ran once on every database and is
# never edited (bot.store.schema); a step after them names none (step 34 took the last out).
SHIPPED_NAMING = {"delta/3/1_games.sql", "delta/17/1_achievements.sql",
                  "delta/21/open_rounds_by_keys.sql.postgres"}


def game_words() -> re.Pattern[str]:
    """Each game's name, command and English title, but the first game's: its 24 is also the
    bot's own name and mark (Twenty-Four) and a number many texts hold, so where a module
    branches on it the check of every import and comparison above finds it."""
    words = {word for game in list(games.GAMES.values())[1:]
             for word in (game.name, game.command, Texts("en").game(game.name))}
    return re.compile(r"\b(" + "|".join(map(re.escape, sorted(words))) + r")\b", re.IGNORECASE)


def outside_the_games(path: Path) -> bool:
    """A file of bot/ that is not a game's (its folder or the registry), a catalog or a shipped
    step of the schema."""
    schema = ROOT / "bot" / "store" / "schema"
    return "__pycache__" not in path.parts and path.is_file() \
        and not path.is_relative_to(ROOT / "bot" / "play" / "games") \
        and not path.is_relative_to(ROOT / "bot" / "text" / "locales") \
        and not (path.is_relative_to(schema)
                 and path.relative_to(schema).as_posix() in SHIPPED_NAMING)


def test_no_file_of_the_bot_names_a_game_outside_its_folder():
    """Issue 72's grep: no file of bot/ (code, comments, SQL, the page) names a game but its
    own folder, the registry beside them and the catalogs; a game added is found by the rest
    through the registry, and a schema step never needs one's name."""
    words = game_words()
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in sorted((ROOT / "bot").rglob("*")) if outside_the_games(path)
             for number, line in enumerate(path.read_bytes().decode("utf-8", "replace")
                                           .splitlines(), 1) if words.search(line)]
    assert found == []
    assert all((ROOT / "bot" / "store" / "schema" / name).exists() for name in SHIPPED_NAMING)


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
    assert names_a_game("bot.telegram.features.games",
                        'def f(game):\n    return game == "yahtzee"\n'
                        ) == ["bot.telegram.features.games branches on a game: line 2"]
    assert names_a_game("bot.webapp.steps", "from bot.play.games.countdown import rules\n") == \
        ["bot.webapp.steps imports a game's rules: line 1"]
    assert names_a_game("bot.webapp.page", "from bot.play.games import yahtzee\n") == \
        ["bot.webapp.page imports a game's rules: line 1"]
    assert names_a_game("bot.webapp.page", "from bot.play.games import GAMES\n") == []
    assert names_a_game("bot.telegram.app", 'COMMANDS = [("countdown", None)]\n') == []
    assert not GAME_WORD.search("state.target = 0n; font-size: 24px")
    assert GAME_WORD.search('if (round.game === "Yahtzee")')


def test_every_layer_has_modules():
    layers = {layer_of(module_name(path)) for path in SOURCES}
    assert layers == set(MAY_IMPORT)


# bot/play's floor plan, bottom first: a room (a folder, or a module at play's top) imports only
# rooms on floors below its own, never one beside it or above (docs/architecture.md draws it)
PLAY_FLOORS: list[tuple[str, ...]] = [
    ("rules", "outcomes"),  # rules' parts, what a transition hands out
    ("ports",),  # what play needs of a face
    ("words", "asking"),  # the parts of every game's words and of every reader of a command
    ("games",),  # each game's rules and words, and the registry of games
    ("guards", "ratings"),  # the live-hand guard and the throttle; the rating model
    ("chats", "dealing"),
    ("round", "solving", "community"),
    ("matches", "achievements", "tournaments", "solo"),  # they follow a round's close
    ("places", "recovery", "daily", "alarms",  # they act on rounds and matches
     "coaching"),  # a miss's line: an ended round's hand, its themes, the chat's settings
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


# --- the Telegram face, floor by floor ---------------------------------------------------------

# bot/telegram's floor plan, bottom first: a room (a module at the face's top, or a feature:
# features.<name>, a module or a folder) imports only rooms on floors below its own, so no two
# features import each other and nothing below the features reaches up to them or to the root
# (docs/architecture.md draws it)
TELEGRAM_FLOORS: list[tuple[str, ...]] = [
    # the wire and the readers: Bot API fields PTB lacks, a round's own calls, the transport's
    # meter, the intake, whose budget an update draws on, the membership cache, the rate
    # limiter, the grammar, a connection's reads into its own buffer
    ("bot_api_10", "grammar", "members", "intake", "metered_request", "over_budget", "startup",
     "rate_limiter", "read_into", "calls"),
    ("keyboards", "refusals", "lean_request", "fairness", "menus",
     "delivery"),  # ... and how one message reaches a chat
    ("context",),  # the typed bot data
    ("speakers", "lifecycle", "jobs", "routes"),  # an update as play's words; the declarations
    ("sending", "polling"),  # the Publisher port and the face's own sends; the poller
    ("replies", "presses", "errors"),  # what every feature's handlers share
    ("features", "features.help", "features.games", "features.rounds", "features.settings",
     "features.community", "features.tournaments", "features.chats", "features.solo"),
    ("app",),  # the root: the features joined, the update-once gate, the application
    ("webhook",),  # the webhook's server, over the root's application
]
TELEGRAM_FLOOR_OF = {room: floor for floor, rooms in enumerate(TELEGRAM_FLOORS) for room in rooms}
TELEGRAM = ROOT / "bot" / "telegram"
MODULES = {module_name(path) for path in SOURCES}


def module_imports(path: Path) -> list[str]:
    return imported_modules(path.read_text(encoding="utf-8"))


def imported_modules(source: str) -> list[str]:
    """The modules of the project an import statement loads, at the module's top, inside a
    function or for type checking alike: `from a import b` is a.b when that is a module (b a
    submodule, not the package's contents), else a."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name in MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = [f"{node.module}.{alias.name}" for alias in node.names]
            found += [sub for sub in subs if sub in MODULES]
            if node.module in MODULES and any(sub not in MODULES for sub in subs):
                found.append(node.module)
    return found


def telegram_room(module: str) -> str | None:
    """The room of bot.telegram a module is in (None: not inside the face, or its package)."""
    parts = module.split(".")
    if parts[:2] != ["bot", "telegram"] or len(parts) < 3:
        return None
    return ".".join(parts[2:4]) if parts[2] == "features" and len(parts) > 3 else parts[2]


def against_the_face(module: str, imported: str) -> bool:
    """Whether `module` importing `imported` runs sideways or up the face's floors."""
    own, other = telegram_room(module), telegram_room(imported)
    if own is None or other is None or own == other:
        return False
    return TELEGRAM_FLOOR_OF[other] >= TELEGRAM_FLOOR_OF[own]


def test_every_room_of_the_face_has_a_floor():
    rooms = {telegram_room(module_name(path)) for path in TELEGRAM.rglob("*.py")}
    assert rooms - {None} == set(TELEGRAM_FLOOR_OF), \
        "place a new module or feature of bot/telegram on a floor of TELEGRAM_FLOORS"


@pytest.mark.parametrize("path", sorted(TELEGRAM.rglob("*.py")), ids=lambda p: module_name(p))
def test_the_face_imports_run_down_its_floors(path: Path):
    module = module_name(path)
    against = [m for m in module_imports(path) if against_the_face(module, m)]
    assert not against, f"{module} imports {against}: see TELEGRAM_FLOORS"


def test_the_face_plan_catches_what_it_forbids():
    """The check itself, on the imports that once closed the face's cycle (app -> buttons ->
    menus -> app, the last inside a function) and joined features to one another (community's
    buttons, the tournaments' reply helpers): each runs up or sideways now; the root's
    joining of the features does not."""
    assert against_the_face("bot.telegram.menus", "bot.telegram.app")
    assert against_the_face("bot.telegram.features.settings", "bot.telegram.app")
    assert against_the_face("bot.telegram.features.community", "bot.telegram.features.rounds")
    assert against_the_face("bot.telegram.features.tournaments.handlers",
                            "bot.telegram.features.community")
    assert against_the_face("bot.telegram.replies", "bot.telegram.features.games")
    assert not against_the_face("bot.telegram.app", "bot.telegram.features.games")
    assert not against_the_face("bot.telegram.features.tournaments.handlers",
                                "bot.telegram.features.tournaments.grammar")
    # an import inside a function counts (menus' once did, for the table above it)
    assert imported_modules("def later():\n    from bot.telegram.app import TABLE\n") == \
        ["bot.telegram.app"]
    assert imported_modules("from bot.telegram import app, routes\n") == \
        ["bot.telegram.app", "bot.telegram.routes"]


# --- no cycles ---------------------------------------------------------------------------------

def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected parts of more than one module, each sorted (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


BOT_SOURCES = [path for path in SOURCES if module_name(path).startswith("bot")]
# Cycles of bot/ outside the chat face, the root and the roles, each through an import inside
# a function or for type checking, kept by the rooms that own them: a fix there shortens this
# list, and the test fails until it does (as it fails on any new cycle)
CYCLES_LEFT = [
    ["bot.store.postgres.connection", "bot.store.postgres.leader"],
    ["bot.text.catalogs", "bot.text.language_facts"],
    ["bot.webapp.pages_api", "bot.webapp.server"],
]


def test_no_import_in_bot_closes_a_cycle():
    """Imports at a module's top, inside a function and for type checking all count: the chat
    face, the root and the roles have none (the face's floors hold that already)."""
    graph = {module_name(path): set(module_imports(path)) - {module_name(path)}
             for path in BOT_SOURCES}
    assert cycles(graph) == CYCLES_LEFT


def test_the_cycle_check_catches_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# --- the composition: nothing set on a built object --------------------------------------------

def attributes_set(source: str, functions: tuple[str, ...] | None = None) -> list[str]:
    """Where the named functions (every function, with None; and what they define) assign to
    another object's attribute: `x.y = ...` with x not `self` — a collaborator patched onto a
    built object, the bot data filled in later."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                (functions is None or node.name in functions):
            for inner in ast.walk(node):
                targets = inner.targets if isinstance(inner, ast.Assign) else \
                    [inner.target] if isinstance(inner, ast.AnnAssign | ast.AugAssign) else []
                found += [f"{node.name}: line {inner.lineno}" for target in targets
                          if isinstance(target, ast.Attribute) and not
                          (isinstance(target.value, ast.Name) and target.value.id == "self")]
    return sorted(set(found))


# the composition: each service built with what it talks to, never told later (architecture.md);
# in the root and the roles every function is held to it, the bot data and PTB's objects too
COMPOSING = {"bot/play/services.py": ("build_services",), "bot/wiring.py": None,
             "bot/roles.py": None, "bot/__main__.py": ("main", "run", "until_signalled")}


@pytest.mark.parametrize("file", sorted(COMPOSING))
def test_no_service_is_told_later_who_it_talks_to(file: str):
    source = (ROOT / file).read_text(encoding="utf-8")
    assert attributes_set(source, COMPOSING[file]) == []


def test_the_composition_check_catches_a_patch():
    """The check itself, on what the root and serve_worker once did: a lambda patched onto a
    built holding, a setter-free assignment onto a service, the services written onto the
    bot data after the application was built, the lease's gate put into the bot's request, the
    shared budget swapped into the rate limiter; `self.x = ...` in a constructor is not one."""
    once = ("async def serve_worker(bot):\n    bot.holding.owns = lambda chat: True\n"
            "    bot.sole = lambda: False\n")
    assert attributes_set(once, ("serve_worker",)) == ["serve_worker: line 2",
                                                     "serve_worker: line 3"]
    root = ("async def open_services(self, application):\n    data = application.bot_data\n"
            "    data.services = build()\n    application.bot_data.role = 1\n"
            "    request.gate = check\n    limiter.budget = shared\n")
    assert attributes_set(root) == [f"open_services: line {n}" for n in (3, 4, 5, 6)]
    assert attributes_set("def serve_worker(self):\n    self.x = 1\n", ("serve_worker",)) == []


def written_from_outside(source: str) -> list[str]:
    """Assignments anywhere in the source to the bot data's attributes (however reached), or to
    another object's private attribute (PTB's insides: `application._update_processor`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign | ast.AugAssign) else []
        for target in targets:
            if not isinstance(target, ast.Attribute) or \
                    (isinstance(target.value, ast.Name) and target.value.id == "self"):
                continue
            if "bot_data" in ast.unparse(target.value) or target.attr.startswith("_"):
                found.append(f"line {node.lineno}: {ast.unparse(target)}")
    return found


@pytest.mark.parametrize("path", BOT_SOURCES, ids=lambda p: module_name(p))
def test_nothing_writes_onto_the_bot_data_or_into_ptbs_insides(path: Path):
    """The bot data is made whole by PTB from the root's parts (bot.telegram.context.made_of);
    nothing in bot/ assigns to it, nor to another object's private attribute."""
    assert written_from_outside(path.read_text(encoding="utf-8")) == []


def test_the_outside_writes_check_catches_them():
    source = ("context.bot_data.stale_skipped += 1\napplication.bot_data.config = config\n"
              "application._update_processor = fair\nself._kept = 1\nself.x.y = 2\n")
    assert written_from_outside(source) == [
        "line 1: context.bot_data.stale_skipped", "line 2: application.bot_data.config",
        "line 3: application._update_processor"]


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
