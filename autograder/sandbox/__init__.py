"""Running untrusted student code: a worker process, a data-only codec, limits, isolation."""
