"""store.interrupts: Ctrl-C held until steps that belong together are done."""

from __future__ import annotations

import os
import signal

import pytest

from gitcurator.store.interrupts import interrupts_deferred


def test_ctrl_c_waits_for_the_block_then_interrupts(capsys: pytest.CaptureFixture[str]) -> None:
    done = []
    with pytest.raises(KeyboardInterrupt), interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        with interrupts_deferred():  # nested: the outer block decides
            os.kill(os.getpid(), signal.SIGINT)
            done.append("inner")
        done.append("outer")
    assert done == ["inner", "outer"]
    assert capsys.readouterr().err.count("finishing this step first") == 1
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_without_ctrl_c_nothing_is_raised() -> None:
    with interrupts_deferred():
        pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_sigterm_is_held_too_where_it_stops_the_process_like_ctrl_c() -> None:
    from gitcurator.error_handler import stop_on_signals

    before = signal.getsignal(signal.SIGTERM)
    stop_on_signals()
    try:
        done = []
        with pytest.raises(KeyboardInterrupt), interrupts_deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            done.append("the step")
        assert done == ["the step"]
    finally:
        signal.signal(signal.SIGTERM, before)
