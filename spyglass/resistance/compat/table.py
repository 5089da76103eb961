"""Table modes: which of the 2012 framework's table conventions a compat bot sees.

A 2012 bot can observe conventions that Spyglass's referee does not share:

* **First leader.** The 2012 framework's first leader was seat 0 (its ``Game`` cycled
  leaders through the players from the first); Spyglass deals the first leader at
  random. In the ``2012`` mode the adapter numbers the seats *as the bot sees them*
  from the first leader: the first leader is the bot's Player 0, the next leader Player
  1, and so on (``self.index``, ``game.players``, votes in that order). The rotation is
  the same for every compat bot of a game and invisible outside the bot (records,
  transcripts and the referee keep the real seats), so no referee option is needed and
  the convention holds in tournaments too. Since the 2012 competition itself shuffled
  bots over seats, this is the same table as far as a bot can tell.
* **Names and Player identity.** The 2012 framework named every copy of a bot after
  its class, so copies shared a name (and learning bots pooled what they learnt about
  them); Spyglass names a second copy ``Magi#2``. In the ``2012`` mode the Players a bot
  sees carry the names without that suffix. 2012 bots also often name themselves
  (``Player.__init__(self, self.__class__.__name__, index)``), which need not be the
  name the table uses; in the ``2012`` mode the bot compares with Players by seat, so
  it still equals its own seat and ``select`` may return ``[self]``.

The ``spyglass`` mode shows Spyglass's own numbering (Player index = seat) and compares
Players by name and seat. The mode is a bot parameter, ``table`` (default ``2012``):
``--bot path/to/bots.py:Magi:table=spyglass``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class TableMode:
    """The conventions one compat bot sees."""

    name: str
    first_leader_is_zero: bool
    players_equal_by_seat: bool
    shared_copy_names: bool

    def player_name(self, name: str) -> str:
        """The name a bot in this mode sees for a seat Spyglass calls ``name``."""
        return _COPY_SUFFIX.sub("", name) if self.shared_copy_names else name


_COPY_SUFFIX = re.compile(r"#\d+$")

TABLE_MODES: dict[str, TableMode] = {
    "2012": TableMode("2012", first_leader_is_zero=True, players_equal_by_seat=True,
                      shared_copy_names=True),
    "spyglass": TableMode("spyglass", first_leader_is_zero=False, players_equal_by_seat=False,
                          shared_copy_names=False),
}
#: The mode of a 2012 bot unless its ``table`` parameter says otherwise.
DEFAULT_TABLE = "2012"


def table_mode(name: str) -> TableMode:
    """The mode called ``name``, or a ValueError listing the modes."""
    try:
        return TABLE_MODES[str(name)]
    except KeyError:
        raise ValueError(
            f"unknown table mode {name!r}; choose one of {', '.join(TABLE_MODES)}"
        ) from None


__all__ = ["DEFAULT_TABLE", "TABLE_MODES", "TableMode", "table_mode"]
