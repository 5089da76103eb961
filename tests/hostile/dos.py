"""Hostile bots that try to stop a game, a tournament or the whole process."""

from __future__ import annotations

import os
import re
import signal
import sys
import time

from spyglass.resistance.bots.base import Bot


class Exits(Bot):
    bot_name = "exits"

    def vote(self, team):
        sys.exit(3)


class HardExits(Bot):
    bot_name = "hardexits"

    def vote(self, team):
        os._exit(7)


class RaisesInterrupt(Bot):
    bot_name = "raisesinterrupt"

    def vote(self, team):
        raise KeyboardInterrupt


class Stubborn(Bot):
    """Catches BaseException (the referee's watchdog included) and keeps going."""

    bot_name = "stubborn"

    def vote(self, team):
        while True:
            try:
                time.sleep(3600)
            except BaseException:  # noqa: BLE001, S110 — exactly the attack
                pass


class IgnoresAlarm(Bot):
    bot_name = "ignoresalarm"

    def vote(self, team):
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            time.sleep(3600)


class RegexBomb(Bot):
    """Stuck in C code: a catastrophic regular expression no Python signal interrupts."""

    bot_name = "regexbomb"

    def vote(self, team):
        return bool(re.match(r"(a+)+$", "a" * 64 + "b"))


class Sleeper(Bot):
    bot_name = "sleeper"

    def vote(self, team):
        time.sleep(3600)
