"""leaves a daemon process behind at import, in a session of its own; its functions are correct."""

WHERE = "import"

import os as _os  # noqa: E402
import time as _time  # noqa: E402

if hasattr(_os, "fork") and _os.fork() == 0:
    _os.setsid()
    if _os.fork() == 0:
        while True:
            _time.sleep(1)
    _os._exit(0)
