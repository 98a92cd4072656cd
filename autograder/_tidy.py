"""Clearing up after runs on a thread of its own: what a run leaves that the next run need
not wait for (its folder's unmount and removal, its emptied control group's removal).

A submission's boards run one after another, and each one's clear-up, done in line, used
to come between one run's end and the next one's start. Handed to a :class:`Tidy` it is
done while the next run goes on, which spends its time waiting on the program. The one who
made the ``Tidy`` waits for all of it when closing it: a submission's grading
(``_submission._graded``) returns only once every folder and group of its runs is gone, so
no run of another submission ever starts beside what this one's left. A ``Tidy`` serves
one submission (its boards are one student's), never two.
"""

from __future__ import annotations

import collections
import contextlib
import threading
from collections.abc import Callable
from types import TracebackType

__all__ = ["Tidy"]


class Tidy:
    """Jobs run one after another on a thread of this ``Tidy``'s own, in the order given.
    At most ``most`` wait or run at a time: :meth:`add` waits for room, so a run never
    gets far ahead of the removal of what earlier runs left. :meth:`close` (the end of a
    ``with``) waits for every job and raises the first one's error, if any raised (the
    jobs' own errors, as if they had run in line)."""

    def __init__(self, most: int = 4) -> None:
        self._most = max(1, most)
        self._jobs: collections.deque[Callable[[], object]] = collections.deque()
        self._pending = 0  # jobs added and not yet finished
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closing = False
        self._error: BaseException | None = None

    def add(self, job: Callable[[], object]) -> None:
        """Run ``job`` on the thread (in line once closing, or where no thread starts)."""
        with self._changed:
            if not self._closing:
                self._changed.wait_for(lambda: self._pending < self._most)
                if self._thread is None:
                    thread = threading.Thread(target=self._work, name="autograder-tidy",
                                              daemon=True)  # fmt: skip
                    try:
                        thread.start()
                    except RuntimeError:  # (no more threads): in line, as without a Tidy
                        self._closing = True
                    else:
                        self._thread = thread
            if not self._closing:
                self._jobs.append(job)
                self._pending += 1
                self._changed.notify_all()
                return
        job()

    def _work(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._jobs or self._closing)
                if not self._jobs:
                    return
                job = self._jobs.popleft()
            try:
                job()
            except BaseException as err:  # kept for close(): a thread's error goes nowhere
                with self._changed:
                    self._error = self._error or err
            finally:
                with self._changed:
                    self._pending -= 1
                    self._changed.notify_all()

    def wait(self) -> None:
        """Return once every job added so far has finished."""
        with self._changed:
            self._changed.wait_for(lambda: self._pending == 0)

    def close(self) -> None:
        """Wait for every job, end the thread, and raise the first job's error."""
        self.wait()
        with self._changed:
            self._closing = True
            self._changed.notify_all()
            thread, self._thread = self._thread, None
            error, self._error = self._error, None
        if thread is not None:
            thread.join()
        if error is not None:
            raise error

    def __enter__(self) -> Tidy:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if error is None:
            self.close()
            return
        # Already failing: clear up all the same, and let the first error through.
        with contextlib.suppress(Exception):
            self.close()
