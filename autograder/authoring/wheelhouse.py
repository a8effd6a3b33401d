"""The wheelhouse a release carries: the kit's own wheel and every wheel it needs, so that a
student installs the kit from the folder they were given, with no published package and no
network (`pip install --no-index --find-links wheelhouse transformer-maths-autograder`).

The kit's wheel is built from the installed package (`engine_source`), a wheel's install as much
as a checkout; its dependencies are downloaded once, by the instructor, for this machine's
platform or for the platforms and Python versions the instructor names (pip's own `--platform`
and `--python-version`, which need binary wheels: numpy has them for every common platform).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import autograder
from autograder.engine_source import DISTRIBUTION, write_engine_tree
from autograder.errors import AutograderError

FOLDER = "wheelhouse"
"""The folder of a release that holds the wheels (never committed: built per machine)."""
PIP_TIMEOUT_S = 1800.0


def build_wheelhouse(
    target: Path, *, platforms: Sequence[str] = (), python_versions: Sequence[str] = ()
) -> list[Path]:
    """Fill `target` with the kit's wheel and its dependencies' wheels; return every wheel.

    Without `platforms` and `python_versions` the wheels suit this machine's Python; with them,
    pip chooses binary wheels for each named Python version on any of the named platforms."""
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="autograder-engine-") as scratch:
        tree = write_engine_tree(Path(scratch) / "engine")
        _pip("wheel", "--no-deps", *_isolation(), "--wheel-dir", str(target), str(tree))
    requirement = f"{DISTRIBUTION}=={autograder.__version__}"
    versions: list[str | None] = [*python_versions] or [None]
    for version in versions:
        chosen = [f"--platform={platform}" for platform in platforms]
        if version is not None:
            chosen.append(f"--python-version={version}")
        if chosen:
            chosen.append("--only-binary=:all:")
        _pip("download", "--dest", str(target), "--find-links", str(target), *chosen, requirement)
    return sorted(target.glob("*.whl"))


def copy_wheelhouse(source: Path, target: Path) -> None:
    """Put the wheels of `source` into `target`, replacing what a previous release left."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)


def _isolation() -> list[str]:
    """Build the kit's wheel with the installed hatchling where there is one (no download);
    elsewhere pip fetches it into an isolated build environment."""
    return ["--no-build-isolation"] if importlib.util.find_spec("hatchling") else []


def _pip(*arguments: str) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT_S)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-6:])
        raise AutograderError(
            f"the wheelhouse could not be built (pip {arguments[0]} failed):\n{tail}"
        )
