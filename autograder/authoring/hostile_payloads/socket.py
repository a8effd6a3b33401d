"""tries to reach a server on this machine at import; its functions are correct."""

WHERE = "import"
LISTENS_ON = 47123
PRINTS = ["SOCKET: failed"]

import socket as _socket  # noqa: E402

try:
    _connection = _socket.create_connection(("127.0.0.1", 47123), timeout=2)
    _connection.sendall(b"stolen")
    print("SOCKET: connected")
except OSError as _error:
    print("SOCKET: failed", _error)
