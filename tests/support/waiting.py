"""Polling for tests that wait on a background thread or process, and running calls in threads."""

from __future__ import annotations

import threading
import time
from typing import Callable


def wait_for(predicate: Callable[[], object], timeout: float = 20.0) -> bool:
    """Poll until predicate() is true or the timeout passes; True if it became true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def run_in_threads(calls: list[Callable[[], object]]) -> None:
    """Start every call in its own thread at once and wait until all have returned; then
    raise the first exception a call raised (a failing call must fail the test)."""
    errors: list[BaseException] = []

    def run(call: Callable[[], object]) -> None:
        try:
            call()
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def timed(action: Callable[[], object]) -> tuple[object, float]:
    """(what action() returned or raised, seconds it took)."""
    started = time.monotonic()
    try:
        result = action()
    except Exception as error:  # noqa: BLE001 - the caller asserts on it
        result = error
    return result, time.monotonic() - started
