"""The deployment files start the real entry points; `bot.runtime.health` tells a live bot from
a dead one.

Docker and systemd are not needed: the Dockerfile, compose file and unit are parsed as text.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path, PurePosixPath

import pytest

from bot.runtime.config import Config
from bot.runtime.health import (
    HEARTBEAT_SECONDS,
    STALE_AFTER,
    check,
    heartbeat_job,
    heartbeat_path,
    main,
    write_heartbeat,
)

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
# the modules `python -m` may run in a deployment
ENTRY_POINTS = {"bot", "bot.runtime.health", "bot.runtime.backup"}

Instruction = tuple[str, str]  # (KEYWORD, arguments)


# --- reading the files ---------------------------------------------------------------------------

def dockerfile(path: Path = DEPLOY / "Dockerfile") -> list[Instruction]:
    """The instructions of a Dockerfile: comments dropped, continuation lines joined."""
    instructions: list[Instruction] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        keyword, _, arguments = (pending + line).partition(" ")
        instructions.append((keyword.upper(), arguments.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends inside a continuation line"
    return instructions


def final_stage(instructions: list[Instruction]) -> list[Instruction]:
    """The instructions from the last FROM on: the image that runs."""
    starts = [i for i, (keyword, _) in enumerate(instructions) if keyword == "FROM"]
    assert starts, "no FROM"
    return instructions[starts[-1]:]


def arguments_of(stage: list[Instruction], keyword: str) -> list[str]:
    return [arguments for name, arguments in stage if name == keyword]


def command(arguments: str) -> list[str]:
    """An exec-form (JSON) or shell-form command as a list of words."""
    if arguments.startswith("["):
        words = json.loads(arguments)
        assert all(isinstance(word, str) for word in words)
        return words
    return shlex.split(arguments)


def healthcheck_command(arguments: str) -> list[str]:
    match = re.fullmatch(r"((?:--\S+\s+)*)CMD\s+(.+)", arguments)
    assert match, f"HEALTHCHECK without CMD: {arguments!r}"
    return command(match.group(2))


def env_of(stage: list[Instruction]) -> dict[str, str]:
    values: dict[str, str] = {}
    for arguments in arguments_of(stage, "ENV"):
        words = shlex.split(arguments)
        if "=" not in words[0]:  # legacy form: ENV KEY value
            values[words[0]] = " ".join(words[1:])
            continue
        for word in words:
            key, _, value = word.partition("=")
            values[key] = value
    return values


def volumes_of(stage: list[Instruction]) -> list[str]:
    paths: list[str] = []
    for arguments in arguments_of(stage, "VOLUME"):
        paths += json.loads(arguments) if arguments.startswith("[") else arguments.split()
    return paths


def unit(path: Path = DEPLOY / "twentyfour.service") -> dict[str, list[str]]:
    """Every Key=value of a systemd unit (keys may repeat), sections ignored."""
    settings: dict[str, list[str]] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def one(settings: dict[str, list[str]], key: str) -> str:
    values = settings.get(key, [])
    assert len(values) == 1, f"{key}= should be set once, not {values}"
    return values[0]


def compose_value(key: str) -> str:
    """The value of the first `key:` line of the compose file (comments stripped)."""
    text = (DEPLOY / "docker-compose.yml").read_text(encoding="utf-8")
    match = re.search(rf"^\s*{re.escape(key)}:\s*([^#\n]+?)\s*(?:#.*)?$", text, re.MULTILINE)
    assert match, f"no {key}: in docker-compose.yml"
    return match.group(1).strip("'\"")


def deploy_readme() -> str:
    return (DEPLOY / "README.md").read_text(encoding="utf-8")


# --- the commands name real entry points ---------------------------------------------------------

def module_run_by(argv: list[str]) -> str:
    """The module of `python -m <module>`; any other command fails the test."""
    assert len(argv) == 3, f"expected `python -m <module>`, got {argv}"
    interpreter, flag, module = argv
    assert PurePosixPath(interpreter).name in {"python", "python3", "python3.11"}, argv
    assert flag == "-m", argv
    return module


def assert_entry_point(module: str) -> None:
    """`python -m module` runs this repository's code and reaches a main()."""
    assert module in ENTRY_POINTS, f"{module} is not an entry point of the bot"
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None, f"{module} is not importable"
    assert Path(spec.origin).resolve().is_relative_to(ROOT), f"{module} is not this repository's"
    if spec.submodule_search_locations is not None:  # a package runs its __main__
        runs = importlib.import_module(f"{module}.__main__")
    else:
        runs = importlib.import_module(module)
        assert 'if __name__ == "__main__":' in Path(spec.origin).read_text(encoding="utf-8")
    assert callable(getattr(runs, "main", None)), f"{runs.__name__} has no main()"


def test_dockerfile_cmd_runs_the_bot():
    stage = final_stage(dockerfile())
    commands = arguments_of(stage, "CMD")
    assert len(commands) == 1
    module = module_run_by(command(commands[0]))
    assert module == "bot"
    assert_entry_point(module)


def test_dockerfile_healthcheck_runs_bot_health():
    stage = final_stage(dockerfile())
    checks = arguments_of(stage, "HEALTHCHECK")
    assert len(checks) == 1
    module = module_run_by(healthcheck_command(checks[0]))
    assert module == "bot.runtime.health"
    assert_entry_point(module)


def test_unit_runs_the_bot_from_its_venv():
    settings = unit()
    argv = shlex.split(one(settings, "ExecStart"))
    module = module_run_by(argv)
    assert module == "bot"
    assert_entry_point(module)
    workdir = PurePosixPath(one(settings, "WorkingDirectory"))
    assert PurePosixPath(argv[0]).is_relative_to(workdir / ".venv"), "python is not the venv's"


def test_entry_point_check_can_fail():
    with pytest.raises(AssertionError):
        assert_entry_point("solver")  # importable, but not the bot
    with pytest.raises(AssertionError):
        module_run_by(["python", "bot/__main__.py"])


# --- the Dockerfile ------------------------------------------------------------------------------

def test_database_lives_on_the_volume():
    stage = final_stage(dockerfile())
    database = PurePosixPath(env_of(stage)["DATABASE_PATH"])
    volumes = [PurePosixPath(path) for path in volumes_of(stage)]
    assert database.is_absolute()
    assert any(database.is_relative_to(volume) for volume in volumes), (database, volumes)
    beat = PurePosixPath(str(heartbeat_path(Path(str(database)))))
    assert any(beat.is_relative_to(volume) for volume in volumes)


def test_runs_as_a_created_unprivileged_user_that_owns_the_volume():
    stage = final_stage(dockerfile())
    users = arguments_of(stage, "USER")
    assert users, "the image would run as root"
    user = users[-1].split(":")[0]
    assert user not in {"root", "0"}
    runs = " ".join(arguments_of(stage, "RUN"))
    assert re.search(rf"useradd\b[^&;]*\b{re.escape(user)}\b", runs), f"{user} is never created"
    for volume in volumes_of(stage):
        assert re.search(rf"chown\s+{re.escape(user)}\S*\s+[^&;]*{re.escape(volume)}\b", runs)
    assert arguments_of(stage, "WORKDIR")


def test_python_on_path_is_the_copied_venv():
    stage = final_stage(dockerfile())
    copies = [arguments.split() for arguments in arguments_of(stage, "COPY")]
    copied = [words[-2] for words in copies if words[0].startswith("--from=")]
    path = env_of(stage)["PATH"].split(":")
    assert path[0] in {f"{source}/bin" for source in copied}, (path, copied)


def test_build_copies_what_pip_install_needs_and_nothing_ignored():
    instructions = dockerfile()
    sources = []
    for arguments in arguments_of(instructions, "COPY"):
        words = arguments.split()
        if not words[0].startswith("--from="):
            sources += [word.rstrip("/") for word in words[:-1] if not word.startswith("--")]
    for source in sources:
        assert (ROOT / source).exists(), f"COPY {source}: no such file in the repository"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    needed = {"pyproject.toml", project["project"]["readme"]}
    needed |= {pattern.rstrip("*") for pattern in
               project["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert needed <= set(sources), f"the build misses {needed - set(sources)}"
    ignored = {line.strip().rstrip("/") for line in
               (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith("#")}
    assert not ignored & set(sources), f".dockerignore drops {ignored & set(sources)}"
    assert {"**/.env", ".venv", ".git"} <= ignored, "secrets or the venv would enter the context"


def test_build_installs_the_bot_extra():
    """The solver alone is the package's base; without the `bot` extra the image would lack
    python-telegram-bot and fail at its first import."""
    runs = " ".join(arguments_of(dockerfile(), "RUN"))
    assert "pip install --constraint deploy/constraints.txt '.[bot]'" in runs


def test_dockerfile_stops_with_sigterm_and_exposes_the_webhook_port():
    stage = final_stage(dockerfile())
    assert arguments_of(stage, "STOPSIGNAL") == ["SIGTERM"]
    assert arguments_of(stage, "EXPOSE") == [str(Config(token="x").webhook_port)]


def test_every_stage_is_python_3_11_slim():
    instructions = dockerfile()
    defaults = dict(argument.partition("=")[::2] for argument in arguments_of(instructions, "ARG"))
    images = [re.sub(r"\$\{?(\w+)\}?", lambda name: defaults[name.group(1)], arguments.split()[0])
              for arguments in arguments_of(instructions, "FROM")]
    assert images and all(image == "python:3.11-slim" for image in images), images


# --- compose -------------------------------------------------------------------------------------

def test_compose_builds_this_dockerfile_into_the_volume():
    context = DEPLOY / compose_value("context")
    assert context.resolve() == ROOT
    assert (context / compose_value("dockerfile")).resolve() == (DEPLOY / "Dockerfile").resolve()
    text = (DEPLOY / "docker-compose.yml").read_text(encoding="utf-8")
    from tests.deploy.test_deploy_hardening import compose_services

    bot = compose_services(text)["bot"]
    mounts = re.findall(r"^\s*-\s*(\w+):(/\S+)\s*$", bot, re.MULTILINE)
    assert mounts, "no named volume"
    volumes = volumes_of(final_stage(dockerfile()))
    assert all(target in volumes for _, target in mounts)
    database = PurePosixPath(compose_value("DATABASE_PATH"))
    assert any(database.is_relative_to(volume) for volume in volumes)
    assert compose_value("restart") == "unless-stopped"
    assert "${TELEGRAM_BOT_TOKEN:?" in text, "compose would start the demo without a token"


def test_compose_grace_period_outlasts_a_solver_task():
    grace = compose_value("stop_grace_period")
    assert grace.endswith("s")
    assert float(grace[:-1]) >= Config(token="x").solve_timeout + 10


# --- the systemd unit ----------------------------------------------------------------------------

def test_unit_keeps_the_database_in_its_writable_state_directory():
    settings = unit()
    environment = dict(value.partition("=")[::2] for value in settings["Environment"])
    database = PurePosixPath(environment["DATABASE_PATH"])
    state = PurePosixPath("/var/lib") / one(settings, "StateDirectory")
    assert database.parent == state
    assert str(state) in one(settings, "ReadWritePaths").split()
    assert one(settings, "User") not in {"root", "0"}
    assert one(settings, "KillSignal") == "SIGTERM"
    assert one(settings, "Restart") == "on-failure"
    assert float(one(settings, "TimeoutStopSec")) >= Config(token="x").solve_timeout + 10
    for setting in ("NoNewPrivileges", "ProtectHome", "PrivateTmp"):
        assert one(settings, setting) == "yes"
    assert one(settings, "ProtectSystem") == "strict"


def test_unit_and_readme_agree():
    settings = unit()
    readme = deploy_readme()
    workdir = one(settings, "WorkingDirectory")
    for path in (one(settings, "EnvironmentFile"), workdir,
                 str(PurePosixPath(shlex.split(one(settings, "ExecStart"))[0]).parent.parent),
                 one(settings, "StateDirectory")):
        assert path in readme, f"{path} is not in deploy/README.md"
    assert f"cd {workdir}" in readme and "-m venv .venv" in readme
    assert "deploy/twentyfour.service" in readme and "journalctl -u twentyfour" in readme
    assert "TELEGRAM_BOT_TOKEN" in one(settings, "ExecStartPre")


def test_readme_proxy_forwards_the_bot_webhook_path():
    from bot.__main__ import WEBHOOK_PATH

    readme = deploy_readme()
    assert f"https://your.domain/{WEBHOOK_PATH}" in readme
    assert f"location = /{WEBHOOK_PATH}" in readme and f"handle /{WEBHOOK_PATH}" in readme
    assert "X-Telegram-Bot-Api-Secret-Token" in readme and "WEBHOOK_SECRET" in readme
    assert "docker build -f deploy/Dockerfile" in readme


# --- bot/runtime/health.py -----------------------------------------------------------------------

def make_database(path: Path, version: int = 3) -> Path:
    """A WAL database like the bot's, at schema `version`."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE rounds (id INTEGER PRIMARY KEY)")
        db.execute(f"PRAGMA user_version = {version}")
    db.close()
    return path


BEAT = 1_700_000_000.0  # a heartbeat's time (2023), on the clock the tests give `check`


def beat_at(path: Path, then: float) -> None:
    os.utime(path, (then, then))


def test_heartbeat_lives_beside_the_database(tmp_path):
    assert heartbeat_path(Path("/data/twentyfour.sqlite3")) == \
        Path("/data/twentyfour.sqlite3.heartbeat")
    beat = tmp_path / "new" / "db.heartbeat"
    write_heartbeat(beat)
    assert beat.is_file()
    assert STALE_AFTER == 3 * HEARTBEAT_SECONDS


def test_fresh_heartbeat_and_migrated_database_are_healthy(tmp_path, monkeypatch, capsys):
    database = make_database(tmp_path / "bot.sqlite3")
    write_heartbeat(heartbeat_path(database))
    assert check(database) is None
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    assert main() == 0


def test_stale_heartbeat_is_unhealthy(tmp_path, monkeypatch, capsys):
    database = make_database(tmp_path / "bot.sqlite3")
    beat = heartbeat_path(database)
    write_heartbeat(beat)
    beat_at(beat, BEAT)
    assert check(database, now=BEAT + STALE_AFTER) is None
    assert "heartbeat" in (check(database, now=BEAT + STALE_AFTER + 1) or "")
    beat_at(beat, BEAT)  # `main` reads the wall clock: years ago
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    assert main() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "heartbeat" in err and "old" in err


def test_rewriting_a_stale_heartbeat_makes_it_fresh(tmp_path):
    database = make_database(tmp_path / "bot.sqlite3")
    beat = heartbeat_path(database)
    write_heartbeat(beat)
    beat_at(beat, BEAT)
    assert check(database, now=BEAT + 10 * STALE_AFTER) is not None
    write_heartbeat(beat)
    assert beat.stat().st_mtime > BEAT  # written again: its time is now's
    assert check(database, now=beat.stat().st_mtime + STALE_AFTER) is None


def test_missing_heartbeat_is_unhealthy(tmp_path):
    database = make_database(tmp_path / "bot.sqlite3")
    problem = check(database)
    assert problem is not None and "no heartbeat" in problem


def test_missing_database_is_unhealthy_and_not_created(tmp_path, monkeypatch, capsys):
    database = tmp_path / "missing.sqlite3"
    write_heartbeat(heartbeat_path(database))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    assert main() == 1
    assert "does not exist" in capsys.readouterr().err
    assert not database.exists()


@pytest.mark.parametrize("broken", ["unmigrated", "garbage"])
def test_unmigrated_or_corrupt_database_is_unhealthy(tmp_path, broken):
    database = tmp_path / "bot.sqlite3"
    if broken == "unmigrated":
        make_database(database, version=0)
    else:
        database.write_bytes(b"not a database" * 100)
    write_heartbeat(heartbeat_path(database))
    problem = check(database)
    assert problem is not None and str(database) in problem


def test_heartbeat_job_writes_the_heartbeat(tmp_path):
    beat = tmp_path / "bot.sqlite3.heartbeat"
    asyncio.run(heartbeat_job(beat)(object()))
    assert beat.is_file()


def subprocess_env(**extra: str) -> dict[str, str]:
    env = {**os.environ, **extra}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def test_python_m_bot_health_as_the_container_runs_it(tmp_path):
    database = make_database(tmp_path / "bot.sqlite3")
    write_heartbeat(heartbeat_path(database))
    done = subprocess.run([sys.executable, "-m", "bot.runtime.health"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60,
                          env=subprocess_env(DATABASE_PATH=str(database)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "healthy"


def test_health_check_stays_light():
    probe = ("import sys, bot.runtime.health; "
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'telegram', 'aiosqlite'}))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, env=subprocess_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
