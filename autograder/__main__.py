"""`python -m autograder` is the `autograder` command."""

from autograder.cli import main

raise SystemExit(main())
