"""The tests' PostgreSQL server: demo/postgres_server.py (the cluster's demo starts it too).
This name is the same module object, so `import tests.postgres.server as s; s.SETTINGS = ...`
still changes what the next server starts with."""

import sys

from demo import postgres_server

sys.modules[__name__] = postgres_server
