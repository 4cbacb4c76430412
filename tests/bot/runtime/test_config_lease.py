"""LEASE_SECONDS: the leader's lease, read like every other setting."""

from __future__ import annotations

import pytest

from bot.runtime.config import LEASE_SECONDS, Config, ConfigError
from bot.store import SoleLeader, leader_lock


def config(**values: str) -> Config:
    return Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", **values}, env_file=None)


def test_the_lease_defaults_to_four_seconds_and_reads_its_setting():
    assert config().lease_seconds == LEASE_SECONDS == 4.0
    assert config(LEASE_SECONDS="2.5").lease_seconds == 2.5


@pytest.mark.parametrize("raw", ["0.5", "61", "soon", "-4"])
def test_a_lease_out_of_range_or_not_a_number_is_refused(raw):
    with pytest.raises(ConfigError, match="LEASE_SECONDS"):
        config(LEASE_SECONDS=raw)


def test_sqlite_has_the_same_interface_and_always_leads():
    lead = leader_lock(None)
    assert isinstance(lead, SoleLeader)
    lead.check()  # never shuts: one process owns the file
    assert lead.next_try == 0.0
