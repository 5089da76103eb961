"""A game's rules page as data: the game's own ``rules.md`` (:meth:`Game.rules`) cut into
blocks the page draws as text, with the game's options and the bots that play it.

The rules text is the small Markdown its game writes: ``# title``, ``## heading``,
paragraphs and ``- `` list items (a line indented by two spaces continues an item). It
is sent as blocks of plain text, never as HTML, and a page names a game by its
registered name only (looked up in the registry, so no request names a file).
"""

from __future__ import annotations

from typing import Any

from spyglass.games import registry


def blocks(text: str) -> list[dict[str, Any]]:
    """``text`` as ``{"h": heading}``, ``{"p": paragraph}`` and ``{"ul": [item, ...]}``
    blocks, in order; the ``# title`` line is left out (the page has the game's title)."""
    out: list[dict[str, Any]] = []
    para: list[str] = []
    items: list[list[str]] | None = None

    def flush() -> None:
        nonlocal para, items
        if para:
            out.append({"p": " ".join(para)})
        if items:
            out.append({"ul": [" ".join(i) for i in items]})
        para, items = [], None

    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            flush()
        elif line.startswith("# "):
            flush()
        elif line.startswith("## "):
            flush()
            out.append({"h": line[3:].strip()})
        elif line.startswith("- "):
            if para:
                flush()
            items = items if items is not None else []
            items.append([line[2:].strip()])
        elif items and raw.startswith("  "):
            items[-1].append(line.strip())
        else:
            if items:
                flush()
            para.append(line.strip())
    flush()
    return out


def option_label(name: str) -> str:
    """An option's name as words (``fifth_rejection`` -> ``fifth rejection``)."""
    return name.replace("_", " ")


def rules_page(name: str, bots: list[dict[str, str]]) -> dict[str, Any]:
    """The rules of registered game ``name`` (a ValueError for any other name): title,
    players, information, its rule options (in words, with their help) and ``bots``."""
    cls = registry.game_class(name)
    players = (f"{cls.min_players}" if cls.min_players == cls.max_players
               else f"{cls.min_players}-{cls.max_players}")
    return {"name": cls.name, "title": cls.title, "players": players,
            "information": cls.information,
            "options": [{"name": p.name, "label": option_label(p.name), "default": p.default,
                         "choices": list(p.choices or []), "help": p.help}
                        for p in cls.options],
            "blocks": blocks(cls.rules()), "bots": bots}
