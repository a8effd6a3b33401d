"""asks for 8 GiB, far beyond the sandbox's memory limit; the rest of the module is correct."""

WHERE = "function"
SAYS = ["MemoryError"]

_hoard = __import__("numpy").ones(1024**3)
