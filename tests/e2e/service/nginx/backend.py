#!/usr/bin/python3
"""The proxied backend: GET/PUT /api/items/NAME kept as files, /health."""
import http.server
import os
import sys

DATA = "/srv/histmac-e2e/data/items"


class Items(http.server.BaseHTTPRequestHandler):
    def reply(self, code, body):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def item(self):
        name = os.path.basename(self.path)
        return os.path.join(DATA, name)

    def do_GET(self):
        if self.path.endswith("/health"):
            return self.reply(200, b"ok\n")
        if self.path.rstrip("/").endswith("/items"):
            return self.reply(200, "\n".join(sorted(os.listdir(DATA))).encode())
        try:
            with open(self.item(), "rb") as f:
                return self.reply(200, f.read())
        except OSError:
            return self.reply(404, b"no such item\n")

    def do_PUT(self):
        n = int(self.headers.get("Content-Length", "0"))
        with open(self.item(), "wb") as f:
            f.write(self.rfile.read(n))
        return self.reply(201, b"stored\n")

    def log_message(self, fmt, *args):
        with open("/srv/histmac-e2e/log/backend.log", "a") as f:
            f.write("%s %s\n" % (self.address_string(), fmt % args))


def main():
    with open("/srv/histmac-e2e/run/backend.pid", "w") as f:
        f.write("%d\n" % os.getpid())
    http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Items).serve_forever()


main()
