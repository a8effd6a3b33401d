# The README's two commands. Both set up .venv on first use (and again when pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint docs sandbox browser unprivileged-python clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# bubblewrap is the grader's optional second isolation layer: install it where we may (root with
# apt-get, as in CI and containers); elsewhere grading goes on without it and says so.
sandbox:
	@command -v bwrap >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	  && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap) >/dev/null; } \
	  || echo "note: bubblewrap (bwrap) is not installed; grading will use fewer isolation layers"

# The browser tests open the reports in headless Chromium: install Debian's package where we may
# (root with apt-get); elsewhere those tests skip and say why.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	  && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null; } \
	  || echo "note: Chromium is not installed; the browser tests will skip"

# The isolation tests grade as another user: as root, prepare an interpreter every user may run
# where this one is not (.ci/unprivileged-python says how).
unprivileged-python: $(STAMP)
	.ci/unprivileged-python $(BIN)/python

# The main job: release every assignment's student version, write each assignment's sample class
# (its committed samples and those its expected.toml makes) and grade it into one gradebook, then
# what an instructor does next: each student's feedback, the class report linking to it, and the
# similarity check.
demo: $(STAMP) sandbox
	$(BIN)/autograder release
	$(BIN)/autograder samples --out build/sample_class
	@for sample in build/sample_class/*/; do \
	  name=$$(basename "$$sample"); \
	  echo "$(BIN)/autograder grade $$sample --assignment $$name --out graded"; \
	  $(BIN)/autograder grade "$$sample" --assignment "$$name" --out graded || exit 1; \
	done
	$(BIN)/autograder feedback graded --out graded/feedback
	$(BIN)/autograder report graded --html graded/report --feedback graded/feedback
	$(BIN)/autograder similarity graded --html graded/similarity
	@echo "class reports:         $$(pwd)/graded/report/ (NAME.html)"
	@echo "feedback to hand back: $$(pwd)/graded/feedback/ (NAME/STUDENT.html and .md)"
	@echo "similarity:            $$(pwd)/graded/similarity/ (NAME.html)"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check autograder assignments reference tests bench docs
	$(BIN)/mypy

# The documentation (docs/, mkdocs.yml) into build/docs: every warning an error, a broken link or
# anchor between pages among them; the reference pages are written from the parser and the
# rubric's schema at each build (docs/gen_reference.py). No network: nothing is fetched.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir build/docs

# Everything CI runs: lint, types, the documentation, and the kit's own tests, among them the
# course tests of every assignment (tests/test_course.py: its committed release current,
# `validate` passing, its sample class scoring what expected.toml says, its Gradescope zip, its
# nbgrader round trip, `check`).
test: lint docs sandbox browser unprivileged-python
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build dist graded
