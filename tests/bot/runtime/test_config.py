"""Settings are checked once, at start-up: a malformed value is one line naming the setting and
the value (exit status 2 in `python -m bot`, tests/e2e/test_fail_fast.py), never a traceback
later, nor silently read as something else."""

from __future__ import annotations

import pytest

from bot.runtime.config import Config, ConfigError
from bot.runtime.cpus import usable_cpus

TOKEN = {"TELEGRAM_BOT_TOKEN": "1:x"}


def config(**settings: str) -> Config:
    return Config.from_env({**TOKEN, **settings}, env_file=None)


@pytest.mark.parametrize(("name", "value"), [
    ("LOG_LEVEL", "verbose"), ("LOG_LEVEL", "5"),
    ("RATE_LIMIT", "maybe"), ("RATE_LIMIT", "offf"),
    ("WEBHOOK_PORT", "0"), ("WEBHOOK_PORT", "65536"), ("WEBHOOK_PORT", "84.43"),
    ("WEBHOOK_PORT", "https"),
    ("WEBHOOK_URL", "http://bot.example/telegram"), ("WEBHOOK_URL", "bot.example/telegram"),
    ("WEBHOOK_URL", "https:///telegram"),
    ("SOLVER_WORKERS", "0"), ("SOLVER_WORKERS", "1.5"), ("SOLVER_WORKERS", "many"),
])
def test_a_malformed_setting_is_one_line_naming_it_and_its_value(name: str, value: str):
    with pytest.raises(ConfigError) as refused:
        config(**{name: value})
    line = str(refused.value)
    assert name in line and repr(value) in line and "\n" not in line


@pytest.mark.parametrize(("value", "level"), [
    ("debug", "DEBUG"), ("Info", "INFO"), ("warn", "WARNING"), ("WARNING", "WARNING"),
    ("error", "ERROR"), ("critical", "CRITICAL"), ("", "INFO")])
def test_log_levels_in_any_case(value: str, level: str):
    assert config(LOG_LEVEL=value).log_level == level


@pytest.mark.parametrize(("value", "on"), [
    ("on", True), ("ON", True), ("true", True), ("yes", True), ("1", True), ("", True),
    ("off", False), ("Off", False), ("false", False), ("no", False), ("0", False)])
def test_on_off_switches(value: str, on: bool):
    assert config(RATE_LIMIT=value).rate_limit is on


def test_webhook_port_bounds_and_https_url():
    assert config(WEBHOOK_PORT="1").webhook_port == 1
    assert config(WEBHOOK_PORT="65535").webhook_port == 65535
    assert config().webhook_port == 8443
    assert config(WEBHOOK_URL="https://bot.example/telegram").webhook_url \
        == "https://bot.example/telegram"
    assert config().webhook_url is None


def test_solver_workers_default_is_the_usable_cpus():
    assert config().solver_workers == usable_cpus()
    assert config(SOLVER_WORKERS="3").solver_workers == 3
