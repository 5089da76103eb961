"""Play in the browser: tables, live play over WebSockets, stored games, ratings, replays.

The top layer with the command line: it may import the arena, agents, bots and games;
nothing below imports it. :func:`spyglass.web.app.create_app` builds the ASGI app that
``spyglass serve`` runs (``pip install 'spyglass[web]'``).
"""
