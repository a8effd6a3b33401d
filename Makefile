# The README's two commands. Both set up .venv on first use (and again when pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# The main job: release the student version, then check the reference with the public tests.
demo: $(STAMP)
	$(BIN)/autograder release
	$(BIN)/autograder check reference/positional_encoding.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check autograder assignments reference tests bench
	$(BIN)/mypy

# Everything CI runs: lint, types, the committed student template, the kit's own tests.
test: lint
	$(BIN)/autograder release --check
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build dist
