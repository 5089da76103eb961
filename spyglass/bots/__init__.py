"""Bots: the API (:mod:`spyglass.bots.base`), the registry, and one module per bot."""

from spyglass.bots.base import Bot
from spyglass.bots.registry import available, get, register

__all__ = ["Bot", "available", "get", "register"]
