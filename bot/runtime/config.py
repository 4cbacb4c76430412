"""Configuration from environment variables (and a `.env` file), read once at start-up."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bot.runtime.cpus import usable_cpus
from bot.runtime.doors import CHAT, INLINE, PERSON, PRESSES, Doors, Limits

DEFAULT_BASE_URL = "https://api.telegram.org/bot"
ON, OFF = ("on", "1", "true", "yes"), ("off", "0", "false", "no")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
PORT_RANGE = (1, 65535)
WEBHOOK_SECRET_FORM = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what Telegram accepts
DATABASE_URL_FORM = re.compile(r"postgres(?:ql)?://\S+")
# A standby tries for the lead this often (and at the lease's end when that comes sooner).
LEAD_CHECK_RANGE = (0.1, 5.0)
# The leader's lease (bot/store/postgres/leader.py): renewed every fifth of it, so a frozen
# leader is replaced within LEASE_SECONDS (plus a standby's wake-up) and acts on nothing after.
ROUND_SECONDS = "ROUND_SECONDS"  # the setting of the first game's round length
LEASE_SECONDS = 4.0
LEASE_RANGE = (1.0, 60.0)
# A cluster worker's own lease (bot/store/postgres/worker_lease.py), shorter: a dead or frozen
# worker's partitions are taken over once it ran out (docs/reliability.md, "Many workers").
WORKER_LEASE_SECONDS = 2.5
# How long start-up keeps trying to reach the Bot API (getMe) before it exits with one line:
# long enough for a network that comes up with the machine, short enough that a supervisor
# (Docker's restart policy, systemd's Restart=) sees a failure within a minute.
STARTUP_SECONDS = 30.0
STARTUP_RANGE = (1.0, 600.0)
# The cluster's roles (`python -m bot ingress`, `python -m bot worker`: bot/cluster): the broker,
# the stream's name (one per bot sharing a server), how many partitions, and how long an update a
# worker took but never acknowledged (it died) waits before the broker delivers it again.
INGRESS, WORKER, WEBAPP = "ingress", "worker", "webapp"
ROLES = (INGRESS, WORKER, WEBAPP)
NATS_SCHEMES = ("nats", "tls")
NATS_STREAM_FORM = re.compile(r"[A-Za-z0-9_-]{1,32}")
PARTITIONS_RANGE = (1, 1024)
REDELIVER_SECONDS = 5.0
REDELIVER_RANGE = (1.0, 300.0)
# Telegram's overall limit, messages a second: 30 for free, up to 1,000 in paid broadcasts. One
# process keeps it alone; a cluster's workers share it (bot/cluster/budget.py).
SEND_RATE = 30
SEND_RATE_RANGE = (1, 1000)
# Look-ups a second (getChatMember...), apart from the messages: Telegram publishes no figure
# for them; its one figure for a whole bot, the messages', is the default (docs/scaling.md)
LOOKUP_RATE = 30
# Updates the process holds at once, taken from Telegram and not yet handled (bot.telegram.intake):
# two getUpdates answers of 100 and the 32 handled at a time, so a poll is in flight while the
# last batch is handled and the handlers never wait for Telegram; a few hundred kB of memory.
# Past it, updates wait at Telegram (or a webhook's request waits), in order.
MAX_UPDATES_IN_FLIGHT = 256
IN_FLIGHT_RANGE = (1, 100_000)
# A tournament's pause between a round's close in every group and its next deal (the board is
# read meanwhile), and whether its deals and boards go as Telegram's paid broadcasts (billed in
# Stars, up to 1,000 a second with SEND_RATE raised to match): off by default.
TOURNAMENT_PAUSE = 20.0
TOURNAMENT_PAUSE_RANGE = (1.0, 600.0)
# The chats that may follow one tournament: each gets every board, sent at the deal rate beside
# the groups' (100 more take 4 s at the free rate, a fifth of the pause) and, with paid
# broadcasts, billed like them (100 followers: 10 Stars a round). docs/tournaments.md says more.
TOURNAMENT_FOLLOWERS = 100
TOURNAMENT_FOLLOWERS_RANGE = (0, 10_000)


class ConfigError(ValueError):
    """A setting is missing or malformed; the message is one line for the operator."""


class MissingTokenError(ConfigError):
    """TELEGRAM_BOT_TOKEN is not set: `python -m bot` at a terminal then runs the demo; without
    one (a service, a container) it is an error."""


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a .env file; blank lines and # comments ignored, quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        values[key] = value.strip().strip("'\"")
    return values


@dataclass(frozen=True)
class Config:
    """Everything the bot needs to start; the token is never part of its repr."""

    token: str
    base_url: str = DEFAULT_BASE_URL
    database_path: Path = Path("data/twentyfour.sqlite3")
    database_url: str | None = None  # postgresql://...: PostgreSQL, shared by standbys
    lead_check: float = 2.0  # seconds between a standby's tries (sooner at a lease's end)
    lease_seconds: float = LEASE_SECONDS  # a leader not renewing its lease this long is replaced
    worker_lease_seconds: float = WORKER_LEASE_SECONDS  # the same for a cluster's worker
    round_seconds: float = 120.0  # ROUND_SECONDS: a round of the first game (/play's)
    # what the environment set for every other `*_SECONDS`, as typed: each game declares the
    # setting of its round's length (bot.play.games.game), read with `round_length`
    lengths: Mapping[str, str] = field(default_factory=dict)
    solver_workers: int = 2  # from_env: the CPUs this process may use (bot.runtime.cpus)
    webhook_url: str | None = None
    webhook_port: int = 8443
    webhook_listen: str = "127.0.0.1"  # the reverse proxy in front; 0.0.0.0 in a container
    webhook_secret: str | None = None
    log_level: str = "INFO"
    rate_limit: bool = True
    send_rate: int = SEND_RATE  # messages a second overall (RATE_LIMIT on)
    lookup_rate: int = LOOKUP_RATE  # look-ups a second, apart from the messages (RATE_LIMIT on)
    max_updates_in_flight: int = MAX_UPDATES_IN_FLIGHT  # updates held at once (the intake)
    solve_timeout: float = 10.0
    deal_seconds: float = 1.0
    startup_seconds: float = STARTUP_SECONDS  # to reach the Bot API at start-up
    metrics_port: int | None = None  # polling mode's /metrics server (None: none)
    metrics_listen: str = "127.0.0.1"  # 0.0.0.0 in a container, published on the host's loopback
    nats_url: str | None = None  # nats://host:4222 (comma-separated: several servers)
    nats_stream: str = "UPDATES"  # its subjects are `<stream in lower case>.<partition>`
    partitions: int = 64  # the same in every ingress and worker of the bot
    redeliver_seconds: float = REDELIVER_SECONDS  # JetStream's ack wait
    tournament_pause: float = TOURNAMENT_PAUSE  # seconds between a tournament's rounds
    paid_broadcast: bool = False  # tournaments' deals and boards as paid broadcasts
    tournament_followers: int = TOURNAMENT_FOLLOWERS  # chats that may follow one tournament
    person_budget: Limits = PERSON  # what one person may ask at every door (bot.runtime.doors)
    chat_budget: Limits = CHAT  # ... and one chat, everyone in it together
    inline_budget: Limits = INLINE  # ... and every inline query together (asked in no chat)
    press_budget: Limits = PRESSES  # ... and a group's presses, everyone's together

    @property
    def deal_rate(self) -> float:
        """Messages a second a tournament's deals (and boards) are spread at: five sixths of
        the send rate (25 of Telegram's free 30), the rest left to every other message."""
        return self.send_rate * 5 / 6 if self.rate_limit else 200.0

    def round_length(self, setting: str, default: float) -> float:
        """A round's length by the name of its setting (a game's `<GAME>_SECONDS`): as the
        environment set it, checked as every number here is (ConfigError), else `default`."""
        if setting == ROUND_SECONDS:
            return self.round_seconds
        return _number(self.lengths, setting, default, low=1.0)

    def doors(self) -> Doors:
        """A process's budgets for every door (bot.runtime.doors), as these settings set them:
        each process that admits work keeps its own."""
        return Doors(self.person_budget, self.chat_budget, inline=self.inline_budget,
                     presses=self.press_budget)

    def __repr__(self) -> str:  # no token, no database password
        database = "postgresql" if self.database_url else str(self.database_path)
        return f"Config(base_url={self.base_url!r}, database={database!r})"

    @property
    def base_file_url(self) -> str:
        return self.base_url.replace("/bot", "/file/bot") if self.base_url.endswith("/bot") \
            else self.base_url

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None,
                 env_file: Path | None = Path(".env")) -> Config:
        """Read the settings; the environment wins over the .env file."""
        values = read_env_file(env_file) if env_file is not None else {}
        values.update(os.environ if environ is None else environ)
        token = values.get("TELEGRAM_BOT_TOKEN", "").strip()
        if not token:
            raise MissingTokenError("TELEGRAM_BOT_TOKEN is not set: create a bot with @BotFather "
                                    "and export TELEGRAM_BOT_TOKEN=<token> (or put it in .env)")
        config = cls(
            token=token,
            base_url=values.get("TELEGRAM_BASE_URL") or DEFAULT_BASE_URL,
            database_path=Path(values.get("DATABASE_PATH") or "data/twentyfour.sqlite3"),
            database_url=_database_url(values),
            lead_check=_number(values, "LEAD_CHECK_SECONDS", 2.0, low=LEAD_CHECK_RANGE[0],
                               high=LEAD_CHECK_RANGE[1]),
            lease_seconds=_number(values, "LEASE_SECONDS", LEASE_SECONDS, low=LEASE_RANGE[0],
                                  high=LEASE_RANGE[1]),
            worker_lease_seconds=_number(values, "WORKER_LEASE_SECONDS", WORKER_LEASE_SECONDS,
                                         low=LEASE_RANGE[0], high=LEASE_RANGE[1]),
            round_seconds=_number(values, ROUND_SECONDS, 120.0, low=1.0),
            lengths={name: value for name, value in values.items() if name.endswith("_SECONDS")},
            solver_workers=_whole(values, "SOLVER_WORKERS", None, low=1) or usable_cpus(),
            webhook_url=_webhook_url(values),
            webhook_port=_whole(values, "WEBHOOK_PORT", 8443, *PORT_RANGE) or 8443,
            webhook_listen=values.get("WEBHOOK_LISTEN") or "127.0.0.1",
            webhook_secret=_webhook_secret(values),
            log_level=_log_level(values),
            rate_limit=_switch(values, "RATE_LIMIT", True),
            send_rate=_whole(values, "SEND_RATE", SEND_RATE, *SEND_RATE_RANGE) or SEND_RATE,
            lookup_rate=_whole(values, "LOOKUP_RATE", LOOKUP_RATE, *SEND_RATE_RANGE)
            or LOOKUP_RATE,
            max_updates_in_flight=_whole(values, "MAX_UPDATES_IN_FLIGHT", MAX_UPDATES_IN_FLIGHT,
                                         *IN_FLIGHT_RANGE) or MAX_UPDATES_IN_FLIGHT,
            solve_timeout=_number(values, "SOLVE_TIMEOUT", 10.0, low=0.1),
            deal_seconds=_number(values, "DEAL_SECONDS", 1.0, low=0.0),
            startup_seconds=_number(values, "STARTUP_SECONDS", STARTUP_SECONDS,
                                    low=STARTUP_RANGE[0], high=STARTUP_RANGE[1]),
            metrics_port=_whole(values, "METRICS_PORT", None, *PORT_RANGE),
            metrics_listen=values.get("METRICS_LISTEN") or "127.0.0.1",
            nats_url=_nats_url(values),
            nats_stream=_nats_stream(values),
            partitions=_whole(values, "PARTITIONS", 64, *PARTITIONS_RANGE) or 64,
            redeliver_seconds=_number(values, "REDELIVER_SECONDS", REDELIVER_SECONDS,
                                      low=REDELIVER_RANGE[0], high=REDELIVER_RANGE[1]),
            tournament_pause=_number(values, "TOURNAMENT_PAUSE", TOURNAMENT_PAUSE,
                                     low=TOURNAMENT_PAUSE_RANGE[0],
                                     high=TOURNAMENT_PAUSE_RANGE[1]),
            paid_broadcast=_switch(values, "PAID_BROADCAST", False),
            tournament_followers=_whole(values, "TOURNAMENT_FOLLOWERS", TOURNAMENT_FOLLOWERS,
                                        *TOURNAMENT_FOLLOWERS_RANGE) or 0,  # 0: none follows
            person_budget=_limits(values, "PERSON_BUDGET", PERSON),
            chat_budget=_limits(values, "CHAT_BUDGET", CHAT),
            inline_budget=_limits(values, "INLINE_BUDGET", INLINE),
            press_budget=_limits(values, "PRESS_BUDGET", PRESSES),
        )
        if config.webhook_url and config.metrics_port == config.webhook_port:
            raise ConfigError(f"METRICS_PORT must differ from WEBHOOK_PORT ({config.webhook_port}"
                              "): the webhook server serves /metrics itself")
        return config


def check_role(config: Config, role: str) -> None:
    """Raise ConfigError unless `config` has what the cluster's `role` needs: both the broker
    (NATS_URL); a webhook ingress a fixed secret (WEBHOOK_SECRET with WEBHOOK_URL, the same in
    every ingress: a random secret of one run would lock the others out), a polling one (no
    WEBHOOK_URL) neither, and its METRICS_PORT apart from the health check's WEBHOOK_PORT; the
    worker PostgreSQL (the update claims and the lease shared with the other workers; SQLite
    is one process's). The Mini App role needs WEBAPP_URL too (bot.webapp.settings: checked
    where it is read)."""
    if role not in ROLES:
        raise ConfigError(f"the role must be one of {', '.join(ROLES)}, not {role!r}")
    if not config.nats_url:
        raise ConfigError(f"python -m bot {role} needs the broker: set NATS_URL "
                          "(nats://host:4222)")
    if role == INGRESS:
        _check_ingress(config)
    if role == WORKER and not config.database_url:
        raise ConfigError("python -m bot worker needs PostgreSQL: set DATABASE_URL "
                          "(postgresql://...); SQLite serves one process only")


def _check_ingress(config: Config) -> None:
    """A webhook (WEBHOOK_URL and WEBHOOK_SECRET) or polling (neither), nothing in between."""
    if config.webhook_url and not config.webhook_secret:
        raise ConfigError("python -m bot ingress with WEBHOOK_URL needs WEBHOOK_SECRET (the "
                          "same secret in every ingress)")
    if config.webhook_secret and not config.webhook_url:
        raise ConfigError("python -m bot ingress has WEBHOOK_SECRET but no WEBHOOK_URL: set "
                          "WEBHOOK_URL for a webhook, or neither to poll getUpdates")
    if not config.webhook_url and config.metrics_port == config.webhook_port:
        raise ConfigError(f"METRICS_PORT must differ from WEBHOOK_PORT ({config.webhook_port}): "
                          "the polling ingress's health check listens there, with /metrics")


def _nats_url(values: Mapping[str, str]) -> str | None:
    raw = (values.get("NATS_URL") or "").strip() or None
    if raw is None:
        return None
    for server in raw.split(","):
        parts = urlsplit(server.strip())
        try:
            parts.port  # noqa: B018 (a port that is not a number raises)
        except ValueError:
            parts = parts._replace(netloc="")
        if parts.scheme not in NATS_SCHEMES or not parts.hostname:
            raise ConfigError("NATS_URL must be nats://host:4222 (or tls://; several "
                              f"separated by commas), not {server.strip()!r}")
    return raw


def _nats_stream(values: Mapping[str, str]) -> str:
    name = (values.get("NATS_STREAM") or "").strip() or "UPDATES"
    if not NATS_STREAM_FORM.fullmatch(name):
        raise ConfigError(f"NATS_STREAM must be 1 to 32 characters of A-Z a-z 0-9 _ -, not "
                          f"{name!r}")
    return name


def _log_level(values: Mapping[str, str]) -> str:
    raw = (values.get("LOG_LEVEL") or "INFO").strip()
    level = {"WARN": "WARNING"}.get(raw.upper(), raw.upper())
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw!r}")
    return level


def _switch(values: Mapping[str, str], name: str, default: bool) -> bool:
    """An on/off setting: a typo is an error, never silently one or the other."""
    raw = (values.get(name) or "").strip()
    if not raw:
        return default
    if raw.lower() in ON + OFF:
        return raw.lower() in ON
    raise ConfigError(f"{name} must be on or off (or true/false, yes/no, 1/0), not {raw!r}")


def _webhook_url(values: Mapping[str, str]) -> str | None:
    url = (values.get("WEBHOOK_URL") or "").strip() or None
    if url is not None:
        parts = urlsplit(url)
        if parts.scheme != "https" or not parts.hostname:
            raise ConfigError("WEBHOOK_URL must be an https:// URL with a host name (Telegram "
                              f"sends updates over HTTPS only), not {url!r}")
    return url


def _whole(values: Mapping[str, str], name: str, default: int | None, low: int,
           high: int | None = None) -> int | None:
    raw = (values.get(name) or "").strip()
    if not raw:
        return default
    try:
        number = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    if number < low or (high is not None and number > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ConfigError(f"{name} must be {bounds}, not {raw!r}")
    return number


def _limits(values: Mapping[str, str], name: str, default: Limits) -> Limits:
    """A budget (bot.runtime.doors) as three numbers: so many a second, so many at once after
    a pause, so many in hand ("5,20,8")."""
    raw = (values.get(name) or "").strip()
    if not raw:
        return default
    parts = [part.strip() for part in raw.split(",")]
    try:
        rate, burst, at_once = float(parts[0]), float(parts[1]), int(parts[2])
        if len(parts) != 3 or not (0 < rate <= 10_000 and 1 <= burst <= 100_000
                                   and 1 <= at_once <= 100_000):
            raise ValueError
    except (ValueError, IndexError):
        raise ConfigError(f"{name} must be three numbers, a rate a second, a burst and how "
                          f"many at once, e.g. {default.rate:g},{default.burst:g},"
                          f"{default.at_once}; not {raw!r}") from None
    return Limits(rate, burst, at_once)


def _webhook_secret(values: Mapping[str, str]) -> str | None:
    secret = values.get("WEBHOOK_SECRET") or None
    if secret is not None and not WEBHOOK_SECRET_FORM.fullmatch(secret):
        raise ConfigError("WEBHOOK_SECRET must be 1 to 256 characters of A-Z a-z 0-9 _ -")
    return secret


def _database_url(values: Mapping[str, str]) -> str | None:
    url = (values.get("DATABASE_URL") or "").strip() or None
    if url is not None and not DATABASE_URL_FORM.fullmatch(url):
        raise ConfigError("DATABASE_URL must be a PostgreSQL URL: "
                          "postgresql://user:password@host:5432/database (unset: SQLite)")
    return url


def _number(values: Mapping[str, str], name: str, default: float, low: float,
            high: float | None = None) -> float:
    raw = values.get(name)
    if not raw:
        return default
    try:
        number = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {raw!r}") from None
    if number < low:
        raise ConfigError(f"{name} must be at least {low:g}, not {raw!r}")
    if high is not None and number > high:
        raise ConfigError(f"{name} must be at most {high:g}, not {raw!r}")
    return number
