"""never returns; the rest of the module is correct."""

WHERE = "function"
SAYS = ["did not return within"]

while True:
    pass
