"""A real Spyglass web server on 127.0.0.1 in a background thread (uvicorn serving
:func:`spyglass.web.app.create_app`), for the browser test and the load benchmark, which
need real sockets rather than the TestClient."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spyglass.web.guard import WebSettings


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_server(db_url: str, workers: int = 1, time_limit: float = 30.0,
                   settings: WebSettings | None = None) -> Iterator[str]:
    """Serve the app until the block ends; yields its base URL."""
    import uvicorn

    from spyglass.web.app import create_app

    app = create_app(db_url, workers=workers, time_limit=time_limit, settings=settings)
    port = free_port()
    size = 4 * app.state.server.settings.message_bytes
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           ws_max_size=size))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started:
        if time.time() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)
