"""Issue 29's promises, as far as they can be checked without a Docker daemon: the image's two
stages and its native-core check, the pinned dependencies, the compose files' hardening, log
rotation, version tag and backup services, the backup units, the unit's score comment, and the
operator's guide naming every setting and exit status.

Parsed as text, with the readers of test_deploy.py and test_deploy_hardening.py.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.__main__ import BAD_SETTINGS, LOST_LEAD, NO_DATABASE, NO_TELEGRAM
from bot.runtime.backup import DEFAULT_KEEP
from tests.deploy.test_deploy import (
    DEPLOY,
    ROOT,
    arguments_of,
    deploy_readme,
    dockerfile,
    env_of,
    final_stage,
    one,
    unit,
    volumes_of,
)
from tests.deploy.test_deploy_hardening import COMPOSE_FILES, compose_services

CORE_CHECK = "python -m solver --version | grep -q '^native core: in use'"


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def stages() -> list[list[tuple[str, str]]]:
    instructions = dockerfile()
    starts = [i for i, (keyword, _) in enumerate(instructions) if keyword == "FROM"]
    return [instructions[start:end] for start, end in zip(starts, [*starts[1:], None],
                                                           strict=True)]


# --- the image ----------------------------------------------------------------------------------

def test_the_core_is_compiled_in_a_build_stage_and_checked_in_both():
    build, runtime = stages()
    assert build[0][1].endswith(" AS build")
    build_runs = " ".join(arguments_of(build, "RUN"))
    assert re.search(r"apt-get install [^&]*\bgcc\b", build_runs), "no compiler to build the core"
    assert CORE_CHECK in build_runs and "cd / &&" in build_runs, \
        "the check must import the installed package, not the sources in the build's WORKDIR"
    copied = " ".join(arguments_of(build, "COPY")).split()
    assert "setup.py" in copied, "setup.py declares the core: without it nothing is compiled"
    runtime_runs = " ".join(arguments_of(runtime, "RUN"))
    assert CORE_CHECK in runtime_runs
    assert "gcc" not in runtime_runs and "libc6-dev" not in runtime_runs, "no compiler at run time"
    installed = re.findall(r"apt-get install ([^&]*)", runtime_runs)
    assert [set(found.split()) - {"--yes", "--no-install-recommends"} for found in installed] == \
        [{"fonts-noto-core", "fonts-noto-cjk", "libfribidi0"}], "at run time: the fonts alone"


def test_setup_py_builds_the_core_the_check_names():
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert '"solver.native._core"' in text
    from solver import native

    assert native.STATUS.startswith("in use"), "the core is not built here: make .venv/.installed"


def test_the_build_installs_the_pinned_versions():
    build = stages()[0]
    copies = [arguments.split() for arguments in arguments_of(build, "COPY")]
    assert ["deploy/constraints.txt", "./deploy/constraints.txt"] in copies
    assert "--constraint deploy/constraints.txt '.[bot]'" in " ".join(arguments_of(build, "RUN"))


def pins() -> dict[str, str]:
    lines = (DEPLOY / "constraints.txt").read_text(encoding="utf-8").splitlines()
    found = {}
    for line in lines:
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not an exact pin: {line}"
            found[canonicalize_name(name)] = version
    return found


def test_the_pins_satisfy_the_project_and_cover_the_whole_tree():
    """Every dependency of the bot extra, direct or not, is pinned, within pyproject's ranges:
    the names are those deploy/freeze.py finds in this venv (the versions may differ here when
    the venv was installed without the constraints)."""
    pinned = pins()
    wanted = [Requirement(r) for r in
              [*project()["project"]["dependencies"],
               *project()["project"]["optional-dependencies"]["bot"]]]
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} is not pinned"
        assert requirement.specifier.contains(pinned[name]), (name, pinned[name])
    done = subprocess.run([sys.executable, str(DEPLOY / "freeze.py")], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    here = {canonicalize_name(line.partition("==")[0]) for line in done.stdout.splitlines()
            if "==" in line and not line.startswith("#")}
    assert here == set(pinned), "deploy/constraints.txt misses or has extra packages: " \
        "run deploy/freeze.py"


def test_the_runtime_image_keeps_backups_apart_from_the_data():
    runtime = final_stage(dockerfile())
    env = env_of(runtime)
    assert env["BACKUP_DIR"] == "/backups" and env["METRICS_LISTEN"] == "0.0.0.0"
    assert "/backups" not in volumes_of(runtime) and "/data" in volumes_of(runtime)
    assert re.search(r"chown 10001:10001 /data /backups", " ".join(arguments_of(runtime, "RUN")))


# --- compose ------------------------------------------------------------------------------------

def services(name: str) -> dict[str, str]:
    return compose_services((DEPLOY / name).read_text(encoding="utf-8"))


def has(block: str, pattern: str) -> bool:
    return re.search(pattern, block, re.MULTILINE) is not None


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_every_service_rotates_its_logs_and_gains_no_privileges(name: str):
    for service, block in services(name).items():
        assert has(block, r"^\s+driver: json-file\s*$"), (name, service)
        assert has(block, r"^\s+max-size: \d+m\s*$"), (name, service)
        assert has(block, r'^\s+max-file: "\d+"\s*$'), (name, service)
        assert has(block, r'^\s+- "no-new-privileges:true"\s*$'), (name, service)


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_the_project_containers_are_read_only_without_capabilities(name: str):
    """Every container of the project's image (and the pg backup): a read-only root, no
    capabilities, a tmpfs /tmp. PostgreSQL's own image is left as it ships."""
    for service, block in services(name).items():
        if service == "postgres":
            continue
        assert has(block, r"^\s+read_only: true\s*$"), (name, service)
        assert has(block, r"^\s+cap_drop:\s*\n\s+- ALL\s*$"), (name, service)
        assert has(block, r"^\s+- /tmp:size=\d+m"), (name, service)


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_the_image_tag_is_pinned_to_the_release(name: str):
    version = project()["project"]["version"]
    text = (DEPLOY / name).read_text(encoding="utf-8")
    tags = re.findall(r"^\s+image: twentyfour:(\S+)", text, re.MULTILINE)
    assert tags and all(tag == f"${{TWENTYFOUR_VERSION:-{version}}}" for tag in tags), tags
    assert "twentyfour:latest" not in text


def test_the_bot_publishes_metrics_on_the_hosts_loopback_only():
    bot = services("docker-compose.yml")["bot"]
    port = re.search(r"^\s+METRICS_PORT: (\d+)", bot, re.MULTILINE)
    assert port, "no METRICS_PORT"
    published = re.findall(r'^\s+- "([\d.]+):(\d+):(\d+)"', bot, re.MULTILINE)
    assert (("127.0.0.1", port.group(1), port.group(1))) in published


def test_the_sqlite_backup_service_writes_another_volume():
    backup = services("docker-compose.yml")["backup"]
    words = re.search(r"^\s+command: (\[.*\])", backup, re.MULTILINE)
    assert words
    command = [w.strip(' "') for w in words.group(1).strip("[]").split(",")]
    assert command[:3] == ["python", "-m", "bot.runtime.backup"]
    assert "--every" in command and float(command[command.index("--every") + 1]) <= 24 * 3600
    mounts = dict(re.findall(r"^\s+- (\w+):(/\w+)", backup, re.MULTILINE))
    assert mounts["data"] == "/data" and mounts["backups"] == "/backups"
    assert has(backup, r"^\s+BACKUP_DIR: /backups\s*$")
    assert has(backup, r"^\s+disable: true"), "the image's health check is the bot's heartbeat"


def test_the_postgres_backup_service_dumps_and_prunes():
    backup = services("docker-compose.postgres.yml")["backup"]
    assert "pg_dump --format=custom" in backup and "PGPASSWORD: ${POSTGRES_PASSWORD:?" in backup
    assert "/backups/twentyfour-" in backup and ".dump" in backup
    assert "tail -n +$$((BACKUP_KEEP + 1))" in backup and "xargs -r rm -f" in backup
    assert "trap 'exit 0' TERM" in backup, "docker stop would wait out the grace period"
    assert has(backup, r"^\s+- backups:/backups\s*$")
    assert not has(backup, r"^\s+- postgres:"), "the backup must not land in PostgreSQL's volume"


def test_the_standby_bots_keep_their_heartbeat_under_a_read_only_root():
    bot = services("docker-compose.postgres.yml")["bot-a"]
    assert has(bot, r"^\s+- /data\s*(?:#.*)?$")


# --- systemd ------------------------------------------------------------------------------------

def test_the_backup_unit_and_timer():
    service = unit(DEPLOY / "twentyfour-backup.service")
    assert one(service, "Type") == "oneshot"
    assert shlex.split(one(service, "ExecStart")) == [
        "/opt/twentyfour/.venv/bin/python", "-m", "bot.runtime.backup"]
    environment = dict(v.partition("=")[::2] for v in service["Environment"])
    backups = environment["BACKUP_DIR"]
    data = environment["DATABASE_PATH"].rsplit("/", 1)[0]
    assert not backups.startswith(data + "/") and backups != data
    assert set(one(service, "ReadWritePaths").split()) == {data, backups}
    assert {f"/var/lib/{d}" for d in one(service, "StateDirectory").split()} == {data, backups}
    bot = unit()
    for key in ("User", "EnvironmentFile", "WorkingDirectory", "ProtectSystem",
                "CapabilityBoundingSet", "SystemCallFilter"):
        assert service[key] == bot[key], key
    timer = unit(DEPLOY / "twentyfour-backup.timer")
    assert one(timer, "Unit") == "twentyfour-backup.service"
    assert one(timer, "Persistent") == "true"
    assert one(timer, "WantedBy") == "timers.target"
    assert one(timer, "OnCalendar") == "*-*-* 00/6:00:00"


@pytest.mark.parametrize("name", ["twentyfour.service", "twentyfour-backup.service"])
def test_the_units_score_what_their_comments_say(name: str):
    path = DEPLOY / name
    claimed = re.search(r"scores this unit ([\d.]+) OK", (DEPLOY / "twentyfour.service")
                        .read_text(encoding="utf-8"))
    assert claimed, "the unit's header gives no score"
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    done = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)
    score = re.search(r"Overall exposure level for \S+: ([\d.]+)", done.stdout)
    if score is None:
        pytest.skip(f"this systemd-analyze cannot score a unit file offline: {done.stderr}")
    assert score.group(1) == claimed.group(1), done.stdout
    assert f"security`: {claimed.group(1)} OK" in deploy_readme()


# --- the guide ----------------------------------------------------------------------------------

def settings_read_by_the_bot() -> set[str]:
    text = (ROOT / "bot" / "runtime" / "config.py").read_text(encoding="utf-8")
    return set(re.findall(r'values(?:\.get\(|, )"([A-Z_]+)"', text)) | \
        set(re.findall(r'_\w+\(values, "([A-Z_]+)"', text))


def test_the_guide_lists_every_setting():
    readme = deploy_readme()
    settings = settings_read_by_the_bot() | {"BACKUP_DIR", "BACKUP_KEEP"}
    assert {"STARTUP_SECONDS", "METRICS_PORT", "METRICS_LISTEN"} <= settings
    for setting in settings:
        assert f"| `{setting}` |" in readme, f"{setting} is not in the settings table"
    assert f"| `BACKUP_KEEP` | `{DEFAULT_KEEP}` |" in readme


def test_the_guide_covers_every_exit_status_and_the_operators_path():
    readme = deploy_readme()
    for status in (NO_DATABASE, BAD_SETTINGS, LOST_LEAD, NO_TELEGRAM):
        assert re.search(rf"^\| {status} \| ", readme, re.MULTILINE), status
    for needed in ("python3.11-venv", "STARTUP_SECONDS", "forward-only", "Rollback across a "
                   "migration", "bot.runtime.backup restore", "twentyfour-backup.timer",
                   "Image size", "on paper", "--no-deps", "no update handled for 5 minutes",
                   "p99", "python -m bot --version", "deploy/freeze.py"):
        assert needed in readme, needed
