"""`.ci/install-chromium`, which `.ci/run` calls: it installs Debian's chromium with apt when
it can and never fails CI when it cannot (no root, apt failing or hanging), so the browser
test skips with its reason instead. Run against fake `id`, `sudo` and `apt-get` on PATH."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "install-chromium"
BASH = shutil.which("bash") or "/bin/bash"


def _fakes(tmp_path: Path, *, uid: int, apt: str, sudo: str | None = None) -> dict[str, str]:
    """PATH with only fakes of `id`, `apt-get` (and `sudo`, when given) and the real tools the
    script needs: no real sudo or apt-get is ever reached."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("timeout", "env", "sleep", "sh", "true"):
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    scripts = {"id": f"echo {uid}", "apt-get": f'echo "$@" >> {tmp_path / "apt.log"}\n{apt}'}
    if sudo is not None:
        scripts["sudo"] = sudo
    for name, body in scripts.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    return {
        "PATH": str(bin_dir),
        "GITCURATOR_CHROMIUM": str(tmp_path / "no-chromium"),
        "HOME": str(tmp_path),
    }


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BASH, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize("sudo", [None, "exit 1"])  # no sudo; sudo that wants a password
def test_without_root_or_sudo_it_says_the_test_will_skip(tmp_path: Path, sudo: str | None) -> None:
    done = _run(_fakes(tmp_path, uid=1000, apt="exit 0", sudo=sudo))
    assert done.returncode == 0, done
    assert "no root to install it: the browser test will skip" in done.stdout
    assert not (tmp_path / "apt.log").exists()


def test_apt_failing_does_not_fail_ci(tmp_path: Path) -> None:
    done = _run(_fakes(tmp_path, uid=0, apt="exit 100"))
    assert done.returncode == 0, done
    assert "chromium not installed" in done.stdout
    assert (tmp_path / "apt.log").read_text().split("\n")[0] == "update -q"


def test_apt_hanging_is_cut_off_and_does_not_fail_ci(tmp_path: Path) -> None:
    env = {**_fakes(tmp_path, uid=0, apt="sleep 30"), "APT_TIMEOUT": "1"}
    start = time.monotonic()
    done = _run(env)
    assert done.returncode == 0, done
    assert "took over 1s" in done.stdout and time.monotonic() - start < 20


def test_with_passwordless_sudo_apt_runs_through_it_without_questions(tmp_path: Path) -> None:
    sudo = f'[ "$1" = -n ] && shift; echo "sudo $*" >> {tmp_path / "sudo.log"}; exec "$@"'
    done = _run(_fakes(tmp_path, uid=1000, apt="exit 0", sudo=sudo))
    assert done.returncode == 0 and "installed chromium" in done.stdout, done
    calls = (tmp_path / "sudo.log").read_text().splitlines()
    assert calls[0] == "sudo true"
    assert all("DEBIAN_FRONTEND=noninteractive" in c for c in calls[1:]) and len(calls) == 3


def test_a_chromium_that_does_not_run_skips_the_browser_test_with_its_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ubuntu's apt package is a shim that asks for the snap: the tests failed to launch it.
    from support import browser

    shim = tmp_path / "chromium"
    shim.write_text(
        "#!/bin/sh\necho \"Command '/usr/bin/chromium' requires the chromium snap\" >&2\nexit 1\n"
    )
    shim.chmod(0o755)
    monkeypatch.setattr(browser, "CHROMIUM", str(shim))
    with pytest.raises(pytest.skip.Exception, match="requires the chromium snap"):
        browser.chromium_or_skip()
