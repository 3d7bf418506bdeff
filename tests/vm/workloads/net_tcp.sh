#!/bin/sh
# TCP on loopback: a server binds, listens and accepts; a client connects.
set -e
python3 - <<'EOP'
import socket, os
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 8765))
s.listen(1)
if os.fork() == 0:
    c = socket.create_connection(("127.0.0.1", 8765))
    c.sendall(b"hello")
    c.close()
    os._exit(0)
a, _ = s.accept()
print(a.recv(16))
a.close()
os.wait()
EOP
