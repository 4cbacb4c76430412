"""PostgreSQL in a deployment: the compose file with PostgreSQL and two bot processes, the
settings that choose it, the health check's roles, the password kept out of the logs, and the
operator's guide saying how failover and backups work. Parsed as text: no Docker needed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import LOST_LEAD
from bot.runtime.config import Config, ConfigError
from bot.runtime.health import LEADER, STANDBY, heartbeat_path, main, write_heartbeat
from bot.telegram.webhook import LEADER_PATH
from tests.deploy.test_deploy import BEAT, DEPLOY, ROOT, beat_at, deploy_readme, subprocess_env
from tests.deploy.test_deploy_hardening import compose_services

COMPOSE = DEPLOY / "docker-compose.postgres.yml"


def compose() -> str:
    return COMPOSE.read_text(encoding="utf-8")


def service(name: str) -> str:
    """The lines of one top-level service (up to the next one at the same indent)."""
    match = re.search(rf"^  {re.escape(name)}:(.*?)(?=^  \S|^\S|\Z)", compose(),
                      re.MULTILINE | re.DOTALL)
    assert match, f"no service {name} in {COMPOSE.name}"
    return match.group(0)


def anchor() -> str:
    match = re.search(r"^x-bot: &bot\n(.*?)(?=^\S)", compose(), re.MULTILINE | re.DOTALL)
    assert match, "no x-bot anchor"
    return match.group(1)


def value(text: str, key: str) -> str:
    match = re.search(rf"^\s*{re.escape(key)}:\s*([^#\n]+?)\s*(?:#.*)?$", text, re.MULTILINE)
    assert match, f"no {key}:"
    return match.group(1).strip("'\"")


def test_two_bots_from_this_image_share_one_postgres():
    assert (DEPLOY / value(anchor(), "context") / value(anchor(), "dockerfile")).resolve() == \
        (DEPLOY / "Dockerfile").resolve()
    bots = re.findall(r"^  (\S+): \*bot\s*$", compose(), re.MULTILINE)
    assert len(bots) == 2
    url = value(anchor(), "DATABASE_URL")
    postgres = service("postgres")
    user, database = value(postgres, "POSTGRES_USER"), value(postgres, "POSTGRES_DB")
    assert url.startswith(f"postgresql://{user}:${{POSTGRES_PASSWORD:?")
    assert url.endswith(f"@postgres:5432/{database}")
    assert "${POSTGRES_PASSWORD:?" in value(postgres, "POSTGRES_PASSWORD")
    password = "s3cretLettersAndDigits"
    config = Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x",
                              "DATABASE_URL": re.sub(r"\$\{POSTGRES_PASSWORD:\?[^}]*\}",
                                                     password, url)}, env_file=None)
    assert config.database_url is not None and password in config.database_url
    assert password not in repr(config)


def test_bots_wait_for_a_healthy_postgres_and_come_back_after_losing_the_lead():
    bot = compose_services(compose())["bot-a"]  # the anchor, with the keys it merges in
    assert "condition: service_healthy" in bot
    assert "pg_isready" in value(service("postgres"), "test")
    assert value(bot, "restart") == "unless-stopped"  # also after exit status 3 (LOST_LEAD)
    assert value(service("postgres"), "restart") == "unless-stopped"
    grace = value(bot, "stop_grace_period")
    assert float(grace.rstrip("s")) >= Config(token="x").solve_timeout + 10
    assert "${TELEGRAM_BOT_TOKEN:?" in bot, "compose would start the demo without a token"
    assert re.search(r"^\s*- postgres:/var/lib/postgresql/data\s*$", service("postgres"),
                     re.MULTILINE)


def test_the_guide_explains_failover_and_backups():
    readme = deploy_readme()
    section = readme[readme.index("## 8. PostgreSQL and a standby"):]
    for needed in ("DATABASE_URL", "LEAD_CHECK_SECONDS", COMPOSE.name, f"/{LEADER_PATH}",
                   f"status {LOST_LEAD}", "pg_dump", "pg_restore", "bench/bench_failover.py",
                   "healthy (leader)", "healthy (standby)", "503"):
        assert needed in readme, needed
    assert "took the lead" in section and "standby: another process leads" in section
    for setting in ("DATABASE_URL", "LEAD_CHECK_SECONDS"):
        assert f"| `{setting}` |" in readme, f"{setting} is not in the settings table"


@pytest.mark.parametrize("bad", ["mysql://x@y/z", "sqlite:///data.db", "postgresql://",
                                 "postgresql://a b"])
def test_database_url_must_be_postgresql(bad):
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "DATABASE_URL": bad}, env_file=None)


def test_without_database_url_nothing_changes():
    config = Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x"}, env_file=None)
    assert config.database_url is None and config.lead_check == 2.0
    assert config.database_path == Path("data/twentyfour.sqlite3")


@pytest.mark.parametrize(("raw", "ok"), [("0.1", True), ("5", True), ("0.05", False),
                                         ("6", False), ("x", False)])
def test_lead_check_stays_under_the_servers_release(raw, ok):
    values = {"TELEGRAM_BOT_TOKEN": "1:x", "LEAD_CHECK_SECONDS": raw}
    if ok:
        assert Config.from_env(values, env_file=None).lead_check == float(raw)
    else:
        with pytest.raises(ConfigError, match="LEAD_CHECK_SECONDS"):
            Config.from_env(values, env_file=None)


@pytest.mark.parametrize("role", [LEADER, STANDBY])
def test_health_names_the_role_and_needs_no_sqlite_file(tmp_path, monkeypatch, capsys, role):
    database = tmp_path / "no-such.sqlite3"  # with PostgreSQL there is no file to open
    write_heartbeat(heartbeat_path(database), role)
    write_heartbeat(heartbeat_path(database))  # a beat keeps the role
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@db/x")
    assert main() == 0
    assert capsys.readouterr().out.strip() == f"healthy ({role})"
    beat_at(heartbeat_path(database), BEAT)  # `main` reads the wall clock: years ago
    assert main() == 1
    assert "heartbeat" in capsys.readouterr().err
    assert not database.exists()


def test_the_database_password_never_reaches_the_log(tmp_path):
    password = "pw-only-the-database-knows"
    probe = ("import logging; from bot.__main__ import configure_logging; "
             "from bot.runtime.config import Config; import os; "
             "configure_logging(Config(token='1:abcdefgh', database_url=os.environ['URL'])); "
             "logging.getLogger('x').warning('connecting to %s', os.environ['URL'])")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, timeout=60,
                          env=subprocess_env(URL=f"postgresql://bot:{password}@db:5432/x"))
    assert done.returncode == 0, done.stderr
    assert "connecting to postgresql://bot:" in done.stderr and password not in done.stderr
