#!/bin/sh
# Unix sockets: a stream server on a path (bind, listen, accept) and a
# client (connect), a datagram socket (bind, sendto), an abstract name.
set -e
mkdir -p /tmp/hm-unix
python3 - <<'EOP'
import socket, os
p = "/tmp/hm-unix/stream.sock"
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(p)
s.listen(1)
c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
c.connect(p)
a, _ = s.accept()
c.sendall(b"x")
print(a.recv(4))
d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
d.bind("/tmp/hm-unix/dgram.sock")
e = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
e.sendto(b"y", "/tmp/hm-unix/dgram.sock")
print(d.recv(4))
b = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
b.bind("\0hm-abstract")
b.listen(1)
EOP
rm -r /tmp/hm-unix
