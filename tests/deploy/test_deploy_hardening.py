"""Issue 18's operations: a numeric USER and no pip in the image, CPU and memory limits in the
compose files, a hardened systemd unit whose watchdog the heartbeat feeds, an SPDX license.

Parsed as text, with the readers of test_deploy.py; `systemd-analyze security` scores the unit
where it is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib

import pytest

from bot.__main__ import BAD_SETTINGS
from bot.runtime.health import HEARTBEAT_SECONDS
from tests.deploy.test_deploy import (
    DEPLOY,
    ROOT,
    arguments_of,
    dockerfile,
    final_stage,
    one,
    unit,
)

COMPOSE_FILES = ("docker-compose.yml", "docker-compose.postgres.yml", "docker-compose.cluster.yml")
EXPOSURE_GOAL = 3.0  # systemd-analyze security: "OK" is below 4.0


def test_the_image_runs_as_a_number_that_useradd_creates():
    stage = final_stage(dockerfile())
    user, _, group = arguments_of(stage, "USER")[-1].partition(":")
    assert user.isdigit() and int(user) > 0, "Kubernetes' runAsNonRoot needs a numeric USER"
    assert not group or group.isdigit()
    runs = " ".join(arguments_of(stage, "RUN"))
    assert re.search(rf"useradd\b[^&;]*--uid {user}\b", runs)


def test_no_pip_or_setuptools_in_the_runtime_image():
    """The base image's own tools go, and the venv copied in had its own removed in the build."""
    runtime = " ".join(arguments_of(final_stage(dockerfile()), "RUN"))
    removed = re.search(r"pip uninstall --yes ([\w ]+)", runtime)
    assert removed and {"pip", "setuptools"} <= set(removed.group(1).split())
    build = " ".join(arguments_of(dockerfile()[:-len(final_stage(dockerfile()))], "RUN"))
    assert re.search(r"/opt/venv/bin/python -m pip uninstall --yes pip setuptools", build)
    copied = [words.split()[-2] for words in arguments_of(final_stage(dockerfile()), "COPY")]
    assert copied == ["/opt/venv"], "only the venv comes from the build stage"


def test_the_license_files_reach_the_build():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    copied = " ".join(arguments_of(dockerfile(), "COPY")).split()
    for name in project["project"]["license-files"]:
        assert name in copied, f"{name} is not copied: the build would fail"


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_compose_limits_cpu_and_memory_of_every_service(name: str):
    services = compose_services((DEPLOY / name).read_text(encoding="utf-8"))
    assert services, name
    for block in services.values():
        cpus = re.search(r"^\s+cpus:\s*([\d.]+)", block, re.MULTILINE)
        memory = re.search(r"^\s+mem_limit:\s*(\d+[kmg])\s*$", block, re.MULTILINE)
        assert cpus and float(cpus.group(1)) > 0, block
        assert memory, block


def top_level_blocks(text: str) -> dict[str, str]:
    """Each top-level key's line and the indented lines under it."""
    blocks: dict[str, str] = {}
    for match in re.finditer(r"^(\S[^:\n]*):(.*)\n((?:(?:[ \t].*|)\n)*)", text, re.MULTILINE):
        blocks[match.group(1)] = match.group(2) + "\n" + match.group(3)
    return blocks


def compose_services(text: str) -> dict[str, str]:
    """The text of each service under `services:`; `name: *anchor` reads the anchored block,
    and a `<<: *anchor` merge key is replaced by the anchored block's text (its keys are then
    found by searching the text, whatever their indentation)."""
    blocks = top_level_blocks(text)
    anchors = {m.group(1): body for body in blocks.values()
               if (m := re.match(r"\s*&(\w+)", body))}

    def merged(block: str) -> str:
        return re.sub(r"^\s*<<:\s*\*(\w+)\s*$", lambda m: merged(anchors[m.group(1)]), block,
                      flags=re.MULTILINE)

    services: dict[str, str] = {}
    body = blocks["services"]
    for match in re.finditer(r"^  ([\w-]+):(.*)\n((?:(?:    .*|\s*)\n)*)", body, re.MULTILINE):
        alias = re.fullmatch(r"\s*\*(\w+)\s*", match.group(2))
        services[match.group(1)] = merged(anchors[alias.group(1)] if alias else match.group(3))
    return services


def test_unit_is_notify_with_a_watchdog_the_heartbeat_feeds():
    settings = unit()
    assert one(settings, "Type") == "notify"
    assert one(settings, "NotifyAccess") == "main"
    watchdog = float(one(settings, "WatchdogSec"))
    assert watchdog >= 2 * HEARTBEAT_SECONDS, "one late beat must not kill the bot"
    assert one(settings, "RestartPreventExitStatus") == str(BAD_SETTINGS)


def test_unit_is_hardened():
    settings = unit()
    for key, value in {"CapabilityBoundingSet": "", "PrivateDevices": "yes",
                       "PrivateUsers": "yes", "ProtectKernelLogs": "yes",
                       "ProtectClock": "yes", "ProtectProc": "invisible",
                       "RestrictRealtime": "yes", "MemoryDenyWriteExecute": "yes",
                       "SystemCallArchitectures": "native", "UMask": "0077"}.items():
        assert one(settings, key) == value, key
    filters = settings["SystemCallFilter"]
    assert "@system-service" in filters
    assert not any("@resources" in f for f in filters), "the heavy lane's workers call nice()"


def test_unit_scores_ok_in_systemd_analyze_security():
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    done = subprocess.run(["systemd-analyze", "security", "--offline=yes",
                           str(DEPLOY / "twentyfour.service")],
                          capture_output=True, text=True, timeout=60, check=False)
    score = re.search(r"Overall exposure level for \S+: ([\d.]+)", done.stdout)
    if score is None:
        pytest.skip(f"this systemd-analyze cannot score a unit file offline: {done.stderr}")
    assert float(score.group(1)) <= EXPOSURE_GOAL, done.stdout


def test_license_is_an_spdx_string_with_its_file():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    assert any(re.fullmatch(r"setuptools>=(\d+)", r) and int(r.split(">=")[1]) >= 77
               for r in project["build-system"]["requires"]), "SPDX strings need setuptools 77"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 The Twenty-Four authors" in text
