"""host.py: the host id, chosen once per clone, also when processes and threads race."""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

import pytest

from gitcurator.statefiles import HOST_FILE
from gitcurator.telemetry.host import host_id


def test_host_id_is_chosen_once_and_kept(tmp_path: Path) -> None:
    first = host_id(tmp_path / "state")
    assert host_id(tmp_path / "state") == first
    assert (tmp_path / "state" / HOST_FILE).read_text().strip() == first
    assert host_id(tmp_path / "other") != first, "each clone has its own id"
    import re

    assert re.fullmatch(r"[A-Za-z0-9._-]{1,64}", first)
    assert list((tmp_path / "state").iterdir()) == [tmp_path / "state" / HOST_FILE]


@pytest.mark.parametrize("damaged", [b"\xae\x81\xff\n", b"", b"not a host id!\n", b"x" * 65])
def test_a_damaged_host_file_is_replaced_not_a_crash(tmp_path: Path, damaged: bytes) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / HOST_FILE).write_bytes(damaged)
    first = host_id(state)
    assert host_id(state) == first, "the replacement is kept"
    assert (state / HOST_FILE).read_text().strip() == first


def _host_id_in_process(state: str) -> str:
    return host_id(Path(state))


def test_host_id_processes_racing_for_the_first_id_all_agree(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        ids = pool.map(_host_id_in_process, [str(state)] * 16)
    assert set(ids) == {(state / HOST_FILE).read_text().strip()}


def test_host_id_threads_racing_for_the_first_id_all_agree(tmp_path: Path) -> None:
    for trial in range(20):
        state = tmp_path / f"state{trial}"
        ids: list[str] = []
        errors: list[BaseException] = []

        def choose(
            state: Path = state, ids: list[str] = ids, errors: list[BaseException] = errors
        ) -> None:
            try:
                ids.append(host_id(state))
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=choose) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert set(ids) == {(state / HOST_FILE).read_text().strip()}
