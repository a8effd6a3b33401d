"""The wheel is the engine only: no assignment, no hidden test, no reference solution."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_holds_the_engine_and_nothing_secret(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("transformer_maths_autograder-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "autograder/cli.py" in names and "autograder/grading/pytest_plugin.py" in names
    for secret in ("reference/", "assignments/", "hidden_tests", "student_template/", "tests/"):
        assert not [name for name in names if secret in name], secret
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    assert "autograder = autograder.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


@pytest.mark.slow
def test_the_kit_works_from_its_wheel(tmp_path: Path) -> None:
    """Installed from the wheel into a fresh environment (the dependencies are lent by this
    one, without the checkout): release, grade, validate and export on a course copied next to
    it, from a folder where no `autograder` source lies around."""
    import shutil
    import sysconfig
    import zipfile as zf

    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                    "--outdir", str(tmp_path / "dist"), str(ROOT)],
                   check=True, capture_output=True)  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("transformer_maths_autograder-*.whl")
    environment = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(environment)],
                   check=True)  # fmt: skip
    python = environment / "bin" / "python"
    ask = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = subprocess.run([str(python), "-c", ask], check=True, capture_output=True,
                          text=True).stdout.strip()  # fmt: skip
    (Path(site) / "lent.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
                    "--target", site, str(wheel)], check=True, capture_output=True)  # fmt: skip
    course = tmp_path / "course"
    shutil.copytree(ROOT / "tests" / "fixtures" / "course", course,
                    ignore=shutil.ignore_patterns("__pycache__", "student_template"))  # fmt: skip
    work = tmp_path / "work"
    work.mkdir()
    clean = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}

    def autograder(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(python), "-m", "autograder", *arguments, "--course", str(course)],
            cwd=work, env=clean, capture_output=True, text=True, timeout=600,
        )  # fmt: skip

    where = subprocess.run([str(python), "-c", "import autograder; print(autograder.__file__)"],
                           cwd=work, env=clean, capture_output=True, text=True)  # fmt: skip
    assert where.stdout.startswith(site), where.stdout + where.stderr
    released = autograder("release")
    assert released.returncode == 0, released.stderr
    assert (course / "student_template" / "series" / "series.py").is_file()
    sample = course / "assignments" / "vectors" / "sample_class" / "correct_vectorised.py"
    graded = autograder("grade", str(sample), "--assignment", "vectors", "--out", str(work / "out"))
    assert graded.returncode == 0 and graded.stdout.startswith("correct_vectorised: 10 / 10"), (
        graded.stdout + graded.stderr
    )
    validated = autograder("validate", "--assignment", "series")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    exported = autograder("export", "gradescope", "--out", str(work / "zips"))
    assert exported.returncode == 0, exported.stderr
    names = zf.ZipFile(work / "zips" / "series.zip").namelist()
    assert {
        "engine/pyproject.toml",
        "engine/autograder/cli.py",
        "course/reference/series.py",
    } <= set(names)


def test_the_author_api_names_every_home_it_imports_from() -> None:
    """`from autograder.authoring import X` works for every X it lists, each from its home."""
    import autograder.authoring as authoring

    for name in authoring.__all__:
        assert getattr(authoring, name).__name__ == name
    with pytest.raises(AttributeError):
        authoring.nothing_of_the_kind  # noqa: B018
