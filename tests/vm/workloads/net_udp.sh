#!/bin/sh
# UDP on loopback: a receiver binds, a sender connects and sends, and a
# second sender uses sendto without connect.
set -e
python3 - <<'EOP'
import socket
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
r.bind(("127.0.0.1", 8766))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect(("127.0.0.1", 8766))
s.send(b"one")
t = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
t.sendto(b"two", ("127.0.0.1", 8766))
print(r.recv(16), r.recv(16))
EOP
