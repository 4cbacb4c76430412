"""The tests' NATS server: demo/broker_server.py (the cluster's demo starts it too)."""

from demo.broker_server import BrokerServer, ServerError, find_binary, free_port

__all__ = ["BrokerServer", "ServerError", "find_binary", "free_port"]
