"""``bummerl serve``: the web game (Schnapsen against the computer in the browser)."""

from __future__ import annotations

import gc
import math
import signal
import socket
import threading
import time
import webbrowser
from typing import Annotated

import typer

from bummerl.cli.app import app, fail, stop_status, stopped_as_by_ctrl_c

__all__ = ["serve"]

#: The largest WebSocket frame uvicorn accepts (bytes); bigger frames close the connection. Messages up
#: to this size but above the protocol's limit are answered with an ``error``.
WS_MAX_SIZE = 1 << 20
#: The garbage collector's thresholds while serving (Python's defaults: 700, 10, 10). Measured with 100
#: players saturated: its time on the event loop fell from ~160-300 ms to ~50 ms a run, pauses up to 30 ms.
GC_THRESHOLDS = (10_000, 50, 100)
#: ... so a full collection came once an hour at most, and the cycles each connection and game leaves (closed
#: transports, finished sessions) piled up: +2.4 MiB a minute with 30 players, never returned. A full
#: collection every minute (tens of ms) keeps the heap flat.
FULL_COLLECTION_EVERY = 60.0


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: this computer only).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the browser.")] = False,
    workers: Annotated[int | None, typer.Option(
        help="Processes the computer thinks in (default: the number of cores, at most 4).")] = None,
    posts_per_minute: Annotated[float, typer.Option(
        help="POST requests a minute from one address (new players, invitations, joins, games; 0: no limit).",
        rich_help_panel="Limits")] = 60.0,
    games_per_player: Annotated[int, typer.Option(
        help="Games with friends not yet over a player may sit in (0: no limit).", rich_help_panel="Limits")]
    = 20,
    open_invitations: Annotated[int, typer.Option(
        help="Invitations not yet taken a player may have (0: no limit).", rich_help_panel="Limits")] = 5,
    messages_per_second: Annotated[float, typer.Option(
        help="Messages that change nothing a game connection may send a second (0: no limit).",
        rich_help_panel="Limits")] = 20.0,
    connections_per_address: Annotated[int, typer.Option(
        help="HTTP connections one address may hold open at once (0: no limit; behind a reverse proxy every "
             "client has the proxy's address).", rich_help_panel="Limits")] = 64,
    no_limits: Annotated[bool, typer.Option(
        "--no-limits", help="Turn every limit above off (load benchmarks on localhost).",
        rich_help_panel="Limits")] = False,
    away_after: Annotated[float, typer.Option(
        help="Seconds a player of a game with a friend must have been away before the other may claim "
             "the Bummerl.", metavar="SECONDS")] = 180.0,
) -> None:
    """Play in the browser: start the web game and print its address.

    Games are kept in the same store as the terminal game's (a game started in one continues in the
    other). Ctrl-C stops the server; nothing is lost (a game that could not be stored, e.g. on a full disk,
    is tried once more, and said on stderr with exit status 1 if that fails too).
    """
    import uvicorn

    from bummerl.arena.runner import MOST_WORKERS
    from bummerl.server import create_app
    from bummerl.server.connections import guarded_http
    from bummerl.server.limits import Limits
    from bummerl.server.thinker import DEFAULT_WORKERS
    from bummerl.server.web_store import WebStore
    from bummerl.store import StoreError

    if not 0 < port < 65536:
        fail(f"--port must be from 1 to 65535, not {port}")
    if workers is not None and not 1 <= workers <= MOST_WORKERS:
        fail(f"--workers must be at least 1 and at most {MOST_WORKERS}")
    limit_options = (("--posts-per-minute", posts_per_minute), ("--messages-per-second", messages_per_second),
                     ("--games-per-player", games_per_player), ("--open-invitations", open_invitations),
                     ("--connections-per-address", connections_per_address))
    for option, value in limit_options:
        if not (math.isfinite(value) and value >= 0):
            fail(f"{option} must be a number, 0 (no limit) or more, not {value:g}")
    if not 0 <= away_after < 10**7:
        fail(f"--away-after must be from 0 to {10**7:,} seconds, not {away_after:g}")
    limits = Limits.lifted() if no_limits else Limits(
        posts_per_minute=posts_per_minute, games_per_player=games_per_player,
        open_invitations=open_invitations, messages_per_second=messages_per_second,
        connections_per_address=connections_per_address)
    try:  # refuse in one line what would fail at start-up: a busy port, a store it cannot open or write
        _check_port(host, port)
        WebStore().close()
    except OSError as err:
        fail(f"cannot serve on {host}:{port}: {err.strerror or err}")
    except StoreError as err:
        fail(str(err))
    shown = host
    if host in ("0.0.0.0", "::") and (lan := _network_address()) is not None:
        shown = lan  # every address of this computer: the one friends on the network reach it by
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"
    web = create_app(workers=workers or DEFAULT_WORKERS, limits=limits, away_after=away_after)
    config = uvicorn.Config(web, host=host, port=port, http=guarded_http(limits),
                            log_level="warning", access_log=False, ws_max_size=WS_MAX_SIZE,
                            ws_per_message_deflate=False)  # small messages: compressing costs more CPU
    server = uvicorn.Server(config)
    # Every action allocates short-lived objects, and the collector's pauses land on every player's
    # answer: the start-up's objects are left out of its scans, and it runs less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    threading.Thread(target=_collect_every, args=(FULL_COLLECTION_EVERY,), name="bummerl-gc",
                     daemon=True).start()
    typer.echo(f"bummerl is serving the web game at {url}  (Ctrl-C stops it)")
    if shown != host:
        typer.echo(f"Friends on your network open {url}friend (open it there yourself too: the invitation "
                   "links are made from the address your browser uses)")
    if open_browser:
        def open_when_up() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started and not webbrowser.open(url):
                typer.echo(f"--open: no web browser found here; open {url} yourself", err=True)
        threading.Thread(target=open_when_up, daemon=True).start()
    # uvicorn stops on SIGINT or SIGTERM, then raises the signal again: as KeyboardInterrupt here for both,
    # so that a game left unsaved (said on stderr as the server stopped) can still set the exit status.
    stopped = False
    with stopped_as_by_ctrl_c(signal.SIGTERM) as received:
        try:
            server.run()
        except KeyboardInterrupt:
            stopped = True
    if getattr(web.state, "unsaved", None):
        raise typer.Exit(1)
    if not server.started:
        fail(f"cannot serve on {host}:{port}")
    if stopped:
        raise typer.Exit(stop_status(received))

def _network_address() -> str | None:
    """This computer's address on its network (the one its default route leaves by), or None without a
    network. Nothing is sent: connecting a UDP socket only chooses the route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never a real host
            address: str = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("0.") else address


def _check_port(host: str, port: int) -> None:
    """Raise OSError when nothing could listen on (host, port) now (e.g. the port is in use)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))


def _collect_every(seconds: float) -> None:
    """Run a full garbage collection every ``seconds`` (a daemon thread for the server's life)."""
    while True:
        time.sleep(seconds)
        gc.collect()
