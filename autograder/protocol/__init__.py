"""The bottom layer: the data that crosses between the kit's processes.

Every module here imports nothing of the kit but `autograder.errors` and `autograder.safe_text`
(tests/test_import_graph.py checks it), so that the sandbox, the grader and the reports can
all depend on it and on nothing of each other's. Each message is a frozen dataclass with
`to_json` and `from_json`; `from_json` validates and bounds what it reads, because the other
end may be a tampered worker: a malformed message raises MessageError (protocol/messages.py),
never anything else.
"""
