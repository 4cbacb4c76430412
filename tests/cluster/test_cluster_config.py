"""The cluster's settings: NATS_URL, NATS_STREAM, PARTITIONS and REDELIVER_SECONDS read and
checked at start-up (a bad one is one line naming it), and each role refused without what it
needs: the broker for both, a fixed webhook secret for a webhook ingress (a polling one has no
webhook at all, and its health check's port apart from METRICS_PORT), PostgreSQL for a worker."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from bot.runtime.config import INGRESS, WORKER, Config, ConfigError, check_role
from tests.conftest import ROOT

TOKEN = {"TELEGRAM_BOT_TOKEN": "1:x"}
BROKER = {"NATS_URL": "nats://127.0.0.1:4222"}
WEBHOOK = {"WEBHOOK_URL": "https://bot.example/telegram", "WEBHOOK_SECRET": "s3cret"}
POSTGRES = {"DATABASE_URL": "postgresql://bot@127.0.0.1:5432/bot"}


def config(**settings: str) -> Config:
    return Config.from_env({**TOKEN, **settings}, env_file=None)


def test_the_defaults_and_the_settings():
    plain = config()
    assert (plain.nats_url, plain.nats_stream, plain.partitions, plain.redeliver_seconds) == \
        (None, "UPDATES", 64, 5.0)
    set_ = config(NATS_URL="nats://a:4222, tls://b:4443", NATS_STREAM="bot_2", PARTITIONS="8",
                  REDELIVER_SECONDS="2.5")
    assert (set_.nats_url, set_.nats_stream, set_.partitions, set_.redeliver_seconds) == \
        ("nats://a:4222, tls://b:4443", "bot_2", 8, 2.5)


@pytest.mark.parametrize(("name", "value"), [
    ("NATS_URL", "127.0.0.1:4222"), ("NATS_URL", "http://broker:4222"), ("NATS_URL", "nats://"),
    ("NATS_URL", "nats://broker:port"), ("NATS_URL", "nats://a:4222,redis://b"),
    ("NATS_STREAM", "updates.all"), ("NATS_STREAM", "x" * 33), ("NATS_STREAM", "a b"),
    ("PARTITIONS", "0"), ("PARTITIONS", "1025"), ("PARTITIONS", "many"),
    ("REDELIVER_SECONDS", "0.5"), ("REDELIVER_SECONDS", "301"), ("REDELIVER_SECONDS", "soon"),
])
def test_a_malformed_setting_is_one_line_naming_it(name, value):
    with pytest.raises(ConfigError) as refused:
        config(**{name: value})
    said = str(refused.value)
    assert said.startswith(name) and "\n" not in said


@pytest.mark.parametrize(("role", "settings", "named"), [
    (INGRESS, WEBHOOK, "NATS_URL"),
    (WORKER, POSTGRES, "NATS_URL"),
    (INGRESS, {**BROKER, "WEBHOOK_URL": WEBHOOK["WEBHOOK_URL"]}, "WEBHOOK_SECRET"),
    (INGRESS, {**BROKER, "WEBHOOK_SECRET": "s3cret"}, "WEBHOOK_URL"),
    (INGRESS, {**BROKER, "METRICS_PORT": "9100", "WEBHOOK_PORT": "9100"}, "METRICS_PORT"),
    (WORKER, BROKER, "DATABASE_URL"),
])
def test_a_role_without_what_it_needs_is_refused(role, settings, named):
    with pytest.raises(ConfigError, match=named):
        check_role(config(**settings), role)


def test_a_role_with_what_it_needs_passes():
    check_role(config(**BROKER, **WEBHOOK), INGRESS)
    check_role(config(**BROKER), INGRESS)  # no webhook: it polls getUpdates
    check_role(config(**BROKER, **WEBHOOK, METRICS_PORT="9100", WEBHOOK_PORT="9101"), INGRESS)
    check_role(config(**BROKER, **POSTGRES), WORKER)


@pytest.mark.parametrize(("arguments", "settings", "said"), [
    (["worker"], BROKER, "python -m bot worker needs PostgreSQL"),  # SQLite: refused
    (["ingress"], {**BROKER, "WEBHOOK_URL": WEBHOOK["WEBHOOK_URL"]}, "WEBHOOK_SECRET"),
    (["ingress"], {**BROKER, "WEBHOOK_SECRET": "s3cret"}, "or neither to poll getUpdates"),
    (["worker"], {}, "TELEGRAM_BOT_TOKEN is not set"),  # never the demo, even at a terminal
    (["worker", "--demo"], BROKER, "--demo is the one process"),
    (["webapp"], BROKER, "python -m bot webapp needs WEBAPP_URL"),
    (["webapp"], {"WEBAPP_URL": "https://bot.example/webapp/"}, "needs the broker"),
])
def test_python_m_bot_refuses_a_role_in_one_line_with_status_2(tmp_path, arguments, settings,
                                                                said):
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("TELEGRAM_BOT_TOKEN", "DATABASE_URL", "NATS_URL",
                                  "WEBHOOK_URL", "WEBHOOK_SECRET", "WEBAPP_URL")}
    if said != "TELEGRAM_BOT_TOKEN is not set":
        environment.update(TOKEN)
    done = subprocess.run([sys.executable, "-m", "bot", *arguments], cwd=tmp_path,
                          env={**environment, **settings, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


async def test_a_role_without_its_broker_exits_5_in_one_line(telegram, tmp_path):
    """The Bot API answers, the broker does not (nothing listens on its port): the ingress says
    so in one line and exits with NO_BROKER once STARTUP_SECONDS have passed."""
    from bot.__main__ import NO_BROKER
    from tests.cluster.broker_server import free_port

    environment = {**os.environ, "TELEGRAM_BOT_TOKEN": telegram.token,
                   "TELEGRAM_BASE_URL": telegram.base_url, **WEBHOOK,
                   "WEBHOOK_PORT": str(free_port()), "STARTUP_SECONDS": "2",
                   "NATS_URL": f"nats://127.0.0.1:{free_port()}", "PYTHONPATH": str(ROOT)}
    process = await asyncio.create_subprocess_exec(  # the emulator answers meanwhile
        sys.executable, "-m", "bot", "ingress", cwd=tmp_path, env=environment,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL)
    _, said = await asyncio.wait_for(process.communicate(), 60)
    stderr = said.decode()
    assert process.returncode == NO_BROKER, stderr
    lines = stderr.strip().splitlines()
    assert "not starting: the broker at NATS_URL did not answer in 2 s" in lines[-1], lines
    assert "Traceback" not in stderr, stderr


def test_the_one_process_loads_no_broker_client():
    """`python -m bot` without a role imports nothing of NATS: the roles load it themselves."""
    done = subprocess.run([sys.executable, "-c", "import sys, bot.__main__; "
                           "print(sorted(m for m in sys.modules if m.split('.')[0] == 'nats'))"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"
