"""The computer's thinking, off the event loop: a pool of worker processes.

The compiled solver keeps its settings in module globals, so two games may not think in one process at
once; each decision therefore runs in a worker process (one decision per process at a time), and the event
loop only awaits the answer. While one game's expert thinks, every other game keeps answering.

The pool is the event loop's own: each worker is a spawned process at the other end of a socket pair, a
job is one pickled ``(function, arguments)`` frame sent and one pickled answer read back through the loop
(``sock_sendall``/``sock_recv``). No helper thread in the server process (a
:class:`concurrent.futures.ProcessPoolExecutor` has a manager and a feeder thread whose Python work takes
the GIL from the event loop at every decision), and a worker that dies fails only its own job and is
replaced.

A decision is a pure function of (level, game seed, view): :func:`decide` makes a fresh bot of the level,
seeded from the game's seed and the view's public state (:func:`bummerl.bots.pimc.decision_seed`), so the
same position gets the same answer, also after a server restart.

>>> from bummerl import Deal, Rules, View
>>> view = View.of(Deal.random(Rules.preset("standard"), 5), 0)
>>> decide("medium", 11, view) == decide("medium", 11, view) and decide("medium", 11, view) in {
...     str(a) for a in view.legal_actions}
True
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from bummerl.actions import Action
from bummerl.errors import BummerlError
from bummerl.server.limits import Limits, PerAddress
from bummerl.view import View

__all__ = ["AGING", "BUSY", "DEFAULT_WORKERS", "PRIORITY", "WAITING_PER_WORKER", "Thinker",
           "ThinkerBusy", "WorkerDied", "analyse_view", "decide", "most_questions", "review_decisions",
           "too_many_from"]

T = TypeVar("T")

#: Worker processes by default: the machine's cores (at least 1, at most 4).
DEFAULT_WORKERS = max(1, min(4, os.cpu_count() or 1))
#: How much lower the workers' priority is than the server's (``nice``): the event loop answers every
#: player, so a long think must not take its core.
WORKER_NICE = 5


def decide(level: str, seed: int, view: View) -> str:
    """The computer's action (as a string) for ``view`` at ``level`` (``easy`` … ``expert``, ``random``)."""
    from bummerl.bots import make_bot
    from bummerl.bots.pimc import decision_seed
    from bummerl.store import COMPUTER_LEVELS

    if level not in COMPUTER_LEVELS:  # never an outside program: the level may come from storage
        raise ValueError(f"{level!r} is not a computer level")
    return str(make_bot(level, decision_seed(seed, view)).choose(view))


def analyse_view(view: View, samples: int) -> dict[str, Any]:
    """The ``?`` analysis of a view as JSON: ``{"note", "actions": [{"action", "mean", "win_share", ...}]}``
    (every legal action, best first; see :func:`bummerl.analysis.rate`)."""
    from bummerl.analysis import rate

    stats, note = rate(view, samples=samples)
    return {"note": note, "actions": [s.to_json() for s in stats]}


def review_decisions(decisions: list[tuple[int, View, Action]], samples: int) -> list[dict[str, Any]]:
    """The end-of-game review as JSON: the choices that lost game points on average, costliest first."""
    from bummerl.analysis import review

    return [
        {"deal": m.deal_number, "trick": m.trick_number, "chosen": m.chosen.to_json(),
         "best": m.best.to_json(), "loss": round(m.loss, 4)}
        for m in review(decisions, samples)
    ]


def _warm_up() -> None:
    """Import the bots and the solver once per worker, so the first decision is not slow."""
    import bummerl.bots.levels
    import bummerl.search  # noqa: F401


class WorkerDied(RuntimeError):
    """A worker process ended (killed, crashed) before answering; it has been replaced."""


class ThinkerBusy(BummerlError):
    """A player's question (an analysis, a review) refused: its address has as many asked as it may, or
    the server has as many waiting as it keeps (:meth:`Thinker.ask`)."""


#: The reason a question is refused when the server has as many waiting as it keeps.
BUSY = "the computer is busy with other questions: try again in a moment"
#: Questions that may wait for their turn per worker (beyond them, :data:`BUSY`).
WAITING_PER_WORKER = 4


def too_many_from(most: int) -> str:
    """The reason a question is refused when its asker has ``most`` asked already."""
    return f"too many questions from your address at once (at most {most}): try again once one is answered"


def most_questions(workers: int) -> int:
    """The questions (analyses, reviews) that may be worked out or wait for a worker at once: one less
    than the workers, so the computer's decisions always find a worker free of questions, and 1 with a
    single worker (or none: the background thread of the tests). Others wait for their turn in the order
    they came, not in the workers' queue, so that they are never put ahead of a move.

    >>> [most_questions(n) for n in (0, 1, 2, 4)]
    [1, 1, 1, 3]
    """
    return max(1, workers - 1)


#: A frame: its length (8 bytes, big-endian), then a pickle.
_HEADER = struct.Struct("!Q")


def _frame(value: Any) -> bytes:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def _read_exactly(sock: socket.socket, size: int) -> bytes | None:
    """``size`` bytes from a blocking socket, or None at its end (closed, or reset: the server stopped with
    an answer it no longer wanted unread)."""
    data = bytearray()
    while len(data) < size:
        try:
            chunk = sock.recv(size - len(data))
        except ConnectionResetError:
            return None
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def _background() -> None:
    """Make this process yield to the event loop: a lower priority (``nice``) and, on Linux, the batch
    scheduling class (a worker woken by a job does not preempt the loop that sent it)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICE)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def _serve(sock: socket.socket) -> None:
    """A worker process: read a ``(function, arguments)`` frame, answer ``(True, result)`` or ``(False,
    exception)``, until the server closes its end. Ctrl-C in the terminal reaches the whole process group:
    the worker leaves it to the server, which closes the worker's socket as it stops."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # already so when started from the main thread
    _background()
    _warm_up()
    while (header := _read_exactly(sock, _HEADER.size)) is not None:
        body = _read_exactly(sock, _HEADER.unpack(header)[0])
        if body is None:
            return
        try:
            fn, args = pickle.loads(body)
            answer = _frame((True, fn(*args)))
        except Exception as err:
            try:
                answer = _frame((False, err))
            except Exception:  # an exception that does not pickle: its text
                answer = _frame((False, RuntimeError(f"{type(err).__name__}: {err}")))
        try:
            sock.sendall(answer)
        except OSError:
            return


class _Worker:
    """One worker process and the server's end of its socket (non-blocking, read through the loop)."""

    def __init__(self, ctx: Any) -> None:
        self.sock, theirs = socket.socketpair()
        self.process: BaseProcess = ctx.Process(target=_serve, args=(theirs,), daemon=True,
                                                name="bummerl-thinker")
        # The worker starts with Ctrl-C ignored (that survives the spawn's exec, and Python keeps it so): one
        # pressed while it still imports bummerl would print its traceback. Only the main thread may set it.
        main = threading.current_thread() is threading.main_thread()
        before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            self.process.start()
        finally:
            if before is not None:
                signal.signal(signal.SIGINT, before)
        theirs.close()
        self.sock.setblocking(False)

    async def call(self, frame: bytes) -> tuple[bool, Any]:
        """Send one job, read its answer (:class:`WorkerDied` if the worker ends first)."""
        loop = asyncio.get_running_loop()
        try:
            await loop.sock_sendall(self.sock, frame)
            data = bytearray()
            size: int | None = None
            while size is None or len(data) < _HEADER.size + size:
                chunk = await loop.sock_recv(self.sock, 1 << 16)
                if not chunk:
                    raise WorkerDied("a thinking worker ended before answering")
                data += chunk
                if size is None and len(data) >= _HEADER.size:
                    size = _HEADER.unpack_from(data)[0]
        except OSError as err:
            raise WorkerDied(f"a thinking worker ended before answering ({err})") from None
        answer: tuple[bool, Any] = pickle.loads(memoryview(data)[_HEADER.size:])
        return answer

    def close(self, timeout: float = 10) -> None:
        """Close the socket (the worker ends at its next read) and wait for the process."""
        self.sock.close()
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


#: The order in which jobs waiting for a busy worker get one: ``hard``'s moves (milliseconds) before the
#: expert's, analyses and reviews (session 13's soak: all in one queue, an easy game's answer had p50 3.4 ms
#: alone and p95 1.2 s beside three expert games). A job's priority improves with its wait (:data:`AGING`).
PRIORITY = {"quick decision": 0, "deep decision": 1, "analysis": 2, "review": 3}
#: Seconds of waiting that raise a waiting job by one step of :data:`PRIORITY`: a review waits for the
#: quick moves that come up to 3 s after it, not for ever (strict priority starved it while ``hard``
#: games kept moving: one worker, two players, a review answered only when they stopped).
AGING = 1.0
#: The levels decided on the event loop itself, without a worker (a rule-of-thumb bot: ~0.1 ms a decision,
#: measured over 200 positions; ``hard`` solves worlds: median 5 ms, p95 60 ms, so it goes to a worker).
LEVELS_IN_LOOP = frozenset({"random", "easy", "medium"})


class Thinker:
    """Runs the computer's decisions (and analyses) in worker processes; ``await`` them from the loop.

    ``workers=0`` runs them in one background thread instead (handy for quick tests; never two at once,
    as the solver is not re-entrant). ``decide_fn`` replaces :func:`decide` (it must pickle: a module-level
    function). Call :meth:`close` when done.

    Players' questions go through :meth:`ask`: at most :func:`most_questions` are in the workers' queue or
    worked out at once, the others wait for their turn among themselves (first come, first served), at
    most :data:`WAITING_PER_WORKER` per worker and :attr:`askers` per client address; beyond, one is
    refused at once (:class:`ThinkerBusy`). With every question in the workers' queue, aging put each one
    that had waited 2 s ahead of every new decision, and a ``hard`` move waited for all of them (20
    analyses kept running by one client, one worker: p50 32 s instead of 7 ms, an audit of the web
    server); refusing every question beyond the workers' share instead left one client asking twice a
    second able to have every other player's question refused (with 2 workers, a review of the fix).

    When every worker is busy, a job waits with the key ``arrival + priority * AGING`` (seconds of
    :attr:`clock`), and a worker set free takes the waiting job of the lowest key (of equal keys, the first
    to come). That is aging: a job gains one step of :data:`PRIORITY` for every :data:`AGING` seconds it
    has waited; as all waiting jobs gain alike, their order never changes while they wait, so the key is
    fixed and the queue a heap. A ``hard`` move still goes before an expert decision, an analysis or a
    review that came less than 1, 2 or 3 s before it; and no wait is unbounded: a key is never below its
    job's arrival, so every job that comes after a job's key goes after that job, which waits only for the
    jobs that came before its key (at most 3 s after itself), however many keep coming.
    """

    def __init__(self, workers: int = DEFAULT_WORKERS,
                 decide_fn: Callable[[str, int, View], str] = decide) -> None:
        self.workers = workers
        self.decide_fn = decide_fn
        self._ctx = multiprocessing.get_context("spawn")
        self._idle: list[_Worker] = [_Worker(self._ctx) for _ in range(workers)]
        self._all = list(self._idle)
        # Jobs waiting for a worker: (arrival + priority * AGING, arrival number, waiter), lowest first.
        self._waiting: list[tuple[float, int, asyncio.Future[_Worker]]] = []
        self._arrivals = itertools.count()
        #: The arrival times of waiting jobs (seconds; a test sets a clock of its own).
        self.clock: Callable[[], float] = time.monotonic
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="bummerl-thinker") if workers <= 0 else None
        self._closed = False
        #: The questions that may be in the workers' queue or worked out at once (:meth:`ask`), the most
        #: that may be asked in all (waiting for their turn too), and how many are asked now.
        self.most_questions = most_questions(workers)
        self.most_asked = WAITING_PER_WORKER * max(1, workers)
        self.questions = 0
        #: Questions asked and not yet answered per asker (a client address); a server sets its limit.
        self.askers = PerAddress(Limits().questions_per_address)
        self._turns: asyncio.Semaphore | None = None  # made on the first question, with most_questions

    async def run(self, fn: Callable[..., T], *args: Any, priority: int = PRIORITY["analysis"]) -> T:
        """``fn(*args)`` in a worker (``fn`` and the arguments must pickle); its exception is raised here.
        When every worker is busy it waits its turn by ``priority`` (:data:`PRIORITY`) and by how long it
        has waited (:data:`AGING`; see :class:`Thinker`)."""
        return await self._run(fn, args, priority, ended=lambda: None)

    async def ask(self, fn: Callable[..., T], *args: Any, priority: int = PRIORITY["analysis"],
                  asker: str = "") -> T:
        """A player's question (an analysis, a review) from ``asker`` (its client address): :meth:`run`
        once it is its turn among the questions (see :class:`Thinker`). :class:`ThinkerBusy` at once when
        the asker has :attr:`askers` ``.most`` asked already or :attr:`most_asked` are asked in all. A
        question counts until its worker is done with it, also when its asker has gone (a client that asks
        and hangs up again and again gains nothing); one still waiting for its turn is forgotten then."""
        if not self.askers.take(asker):
            raise ThinkerBusy(too_many_from(self.askers.most))
        if self.questions >= self.most_asked:
            self.askers.give_back(asker)
            raise ThinkerBusy(BUSY)
        self.questions += 1
        if self._turns is None:
            self._turns = asyncio.Semaphore(self.most_questions)
        turns = self._turns

        def forget() -> None:
            self.questions -= 1
            self.askers.give_back(asker)

        def answered() -> None:
            forget()
            turns.release()

        try:
            await turns.acquire()
        except BaseException:  # the asker left while the question waited for its turn
            forget()
            raise
        return await self._run(fn, args, priority, ended=answered)

    async def _run(self, fn: Callable[..., T], args: tuple[Any, ...], priority: int,
                   ended: Callable[[], None]) -> T:
        """:meth:`run`, calling ``ended()`` once when the job is over (answered, failed, or given up before
        it had a worker)."""
        if self._closed:
            ended()
            raise RuntimeError("the thinker is closed")
        if self._thread is not None:
            return await self._in_thread(fn, args, ended)
        try:
            frame = _frame((fn, args))
            worker = await self._take(priority)
        except BaseException:
            ended()
            raise
        job = asyncio.ensure_future(self._job(worker, frame))  # runs to its end even if we are cancelled
        job.add_done_callback(lambda _: ended())
        ok, value = await asyncio.shield(job)
        if not ok:
            raise value
        result: T = value
        return result

    async def _in_thread(self, fn: Callable[..., T], args: tuple[Any, ...], ended: Callable[[], None]) -> T:
        """``fn(*args)`` in the background thread (``workers=0``); ``ended()`` once the thread is done."""
        assert self._thread is not None
        loop = asyncio.get_running_loop()

        def done(_: object) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody counts any more
                loop.call_soon_threadsafe(ended)

        try:
            future = self._thread.submit(fn, *args)
        except BaseException:
            ended()
            raise
        future.add_done_callback(done)
        return await asyncio.wrap_future(future)

    async def _job(self, worker: _Worker, frame: bytes) -> tuple[bool, Any]:
        try:
            return await worker.call(frame)
        except WorkerDied:
            if not self._closed:  # replace it
                self._all.remove(worker)
                worker.close(timeout=1)
                worker = _Worker(self._ctx)
                self._all.append(worker)
            raise
        finally:
            self._give_back(worker)

    async def _take(self, priority: int) -> _Worker:
        if self._idle:
            return self._idle.pop()
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (self.clock() + priority * AGING, next(self._arrivals), waiter))
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed over just as we were cancelled
                self._give_back(waiter.result())
            raise

    def _give_back(self, worker: _Worker) -> None:
        if self._closed:
            return
        while self._waiting:
            _, _, waiter = heapq.heappop(self._waiting)
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    async def decide(self, level: str, seed: int, view: View) -> Action:
        """The computer's action for a view: the rule-of-thumb levels at once, here (about 0.1 ms: less than
        sending the job to a worker, and never waiting behind other games' thinking), the others in a
        worker (the expert's decisions behind ``hard``'s)."""
        if level in LEVELS_IN_LOOP:
            return Action.parse(self.decide_fn(level, seed, view))
        kind = "deep decision" if level == "expert" else "quick decision"
        return Action.parse(await self.run(self.decide_fn, level, seed, view, priority=PRIORITY[kind]))

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called (the server is stopping)."""
        return self._closed

    def close(self) -> None:
        """Stop the workers (a decision being made is abandoned: its caller gets :class:`WorkerDied`)."""
        self._closed = True
        for worker in self._all:
            worker.close()
        for _, _, waiter in self._waiting:
            waiter.cancel()
        if self._thread is not None:
            self._thread.shutdown(wait=True, cancel_futures=True)
