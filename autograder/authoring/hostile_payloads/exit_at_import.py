"""ends the process at import time, before any function can run."""

WHERE = "import"
SAYS = ["while importing"]

import os as _os  # noqa: E402

_os._exit(0)
