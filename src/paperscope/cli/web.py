"""web commands (registered on import): `paperscope serve`."""
from __future__ import annotations

import os
from typing import Optional

import typer

from .common import app, console, fail, state


PROTOCOL = "paperscope.web.protocol:BoundedH11Protocol"  # h11 with a deadline for request heads
# With several workers: least-connections accept (a single worker has no one to step aside for)
LOOP = "paperscope.web.protocol:FairAcceptLoop"


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (loopback by default)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port (0 picks a free one)."),
    token: Optional[str] = typer.Option(None, "--token", envvar="PAPERSCOPE_TOKEN",
                                        help="Secret that unlocks write endpoints (tags, notes) on a non-loopback bind."),
    pool: int = typer.Option(1, "--pool", min=1, max=32,
                             help="Requests one worker serves side by side, each on its own database connection. "
                                  "1 (the default) costs the least CPU per request: threads of one process share "
                                  "one interpreter lock; use --workers for the cores."),
    workers: int = typer.Option(1, "--workers", min=1, max=16, help="Server processes (use the cores: e.g. 2 on a 2-core machine)."),
    cache: bool = typer.Option(True, "--cache/--no-cache", help="Keep rendered answers until the library changes."),
) -> None:
    """Serve the web UI and the HTTP API (/api, reference at /api/docs)."""
    import socket

    import uvicorn

    from ..library import default_db_path
    from ..web.app import create_app, is_loopback

    path = default_db_path() if state.db is None else state.db
    from ..model import InputError
    from ..web.deps import check_token

    try:
        check_token(token or None)
    except InputError as exc:
        fail(str(exc))
    try:
        web_app = create_app(path, host=host, token=token, pool_size=pool, cache=cache)
    except InputError as exc:  # no library there (run ingest first), a folder, a damaged file ...
        fail(str(exc))
    except Exception as exc:
        fail(f"cannot open library {path}: {exc}")
    # proto=IPPROTO_TCP: asyncio then sets TCP_NODELAY on accepted connections (without it a
    # keep-alive client waits ~40 ms per small response: Nagle meets delayed ACK)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM,
                         socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    except (TypeError, UnicodeError):  # a host name that no resolver takes (non-ASCII, too long)
        fail(f"cannot listen on {host}:{port}: not a host name or address")
    bound_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    console.print(f"paperscope: serving {path} at http://{shown}:{bound_port}/", highlight=False, markup=False)
    if not is_loopback(host):
        console.print("write endpoints (tags, notes): " + ("enabled with the token" if token else
                      "disabled (bound to a non-loopback address without --token / $PAPERSCOPE_TOKEN)"),
                      highlight=False)
    log_level = os.environ.get("PAPERSCOPE_LOG", "warning")
    if workers == 1:
        from ..web.app import tune_worker

        tune_worker()
        config = uvicorn.Config(web_app, log_level=log_level, access_log=False, timeout_graceful_shutdown=3,
                                http=PROTOCOL)
        uvicorn.Server(config).run(sockets=[sock])
        return
    # Several processes share the bound socket; each builds its own app from these variables.
    # Each process gets its share of the cores for the embedding model (unless set explicitly).
    os.environ.setdefault("PAPERSCOPE_THREADS", str(max(1, (os.cpu_count() or 1) // workers)))
    web_app.state.pool.close()
    if web_app.state.cache is not None:
        web_app.state.cache.close()
    os.environ.update({"PAPERSCOPE_SERVE_DB": str(path), "PAPERSCOPE_SERVE_HOST": host,
                       "PAPERSCOPE_SERVE_POOL": str(pool), "PAPERSCOPE_SERVE_CACHE": "1" if cache else "0"})
    if token:
        os.environ["PAPERSCOPE_TOKEN"] = token
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config("paperscope.web.app:app_from_env", factory=True, workers=workers,
                            log_level=log_level, access_log=False, timeout_graceful_shutdown=3, http=PROTOCOL,
                            loop=LOOP)
    Multiprocess(config, sockets=[sock]).run()
