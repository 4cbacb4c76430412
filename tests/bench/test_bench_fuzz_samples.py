"""What a failed fuzz run says of its log (bench/bench_fuzz.py `samples`): every ERROR line, and
each traceback as its last frame and the error it ended in, which the first line alone never
says (a full run's failure once showed "Traceback (most recent call last):" and nothing more)."""

from __future__ import annotations

from bench.bench_fuzz import samples

LOG = """\
2026-11-28 18:40:53,881 INFO bot: fine
2026-11-28 18:40:53,881 ERROR apscheduler.executors.default: Error running job 7f25d164
Traceback (most recent call last):
  File "/x/apscheduler/executors/asyncio.py", line 36, in callback
    events = f.result()
             ^^^^^^^^^^
asyncio.exceptions.CancelledError
2026-11-28 18:40:54,000 INFO bot: after
Traceback (most recent call last):
  File "/x/bot/play/round.py", line 9, in close
    raise ValueError("no")"""


def test_each_traceback_says_its_last_frame_and_its_error():
    assert samples(LOG.splitlines()) == [
        "2026-11-28 18:40:53,881 ERROR apscheduler.executors.default: Error running job 7f25d164",
        'Traceback: File "/x/apscheduler/executors/asyncio.py", line 36, in callback -> '
        "asyncio.exceptions.CancelledError",
        'Traceback: File "/x/bot/play/round.py", line 9, in close -> (the log ended)',
    ]


def test_a_clean_log_has_none():
    assert samples(["2026 INFO bot: fine", "2026 WARNING bot: a warning"]) == []
