#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A stand-in push service on loopback for the tests: HTTPS (the certificate given),
records every request it receives as one JSON line (path, header fields, body in
base64url) and answers as a push service would: 201 Created, or 410 Gone for a path
ending in /gone, 404 for /missing, 500 for /broken, and no answer for /silent (the
client's deadline must end it). A body over 8 KiB gets 413. It prints "port N" once it
listens on 127.0.0.1 (port 0: the system picks) and stops by itself after --seconds.

    push_service.py --cert leaf.pem --key leaf.key --record requests.jsonl --seconds 120
"""

import argparse
import base64
import json
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--seconds", type=float, default=120)
    options = parser.parse_args()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            if length > 8192:
                self.answer(413)
                return
            body = self.rfile.read(length)
            entry = {
                "path": self.path,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": base64.urlsafe_b64encode(body).decode().rstrip("="),
            }
            with lock, open(options.record, "a", encoding="utf-8") as record:
                record.write(json.dumps(entry) + "\n")
            if self.path.endswith("/silent"):
                time.sleep(min(30, options.seconds))
                return
            status = 201
            if self.path.endswith("/gone"):
                status = 410
            elif self.path.endswith("/missing"):
                status = 404
            elif self.path.endswith("/broken"):
                status = 500
            self.answer(status)

        def answer(self, status: int) -> None:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(options.cert, options.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"port {server.server_address[1]}", flush=True)
    threading.Timer(options.seconds, server.shutdown).start()
    server.serve_forever()
    sys.exit(0)


if __name__ == "__main__":
    main()
