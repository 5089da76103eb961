"""Bots: the API (:mod:`spyglass.resistance.bots.base`), the registry, and one module per bot."""

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.registry import available, get, register

__all__ = ["Bot", "available", "get", "register"]
