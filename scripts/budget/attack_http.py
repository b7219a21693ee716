"""A hostile protocol v1 implementation over HTTP for the memory budget's
measurements (docs/runner.md, "Measured at scale"): it listens on
127.0.0.1:PORT, offers quote.parse, and answers every request (alone or in
a batch) with an output of N zeros: {"v":[0,0,...]}.

Usage: attack_http.py PORT N
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

out = '{"v":[' + ",".join(["0"] * int(sys.argv[2])) + "]}"


def answer(req):
    rid = json.dumps(req["id"])
    if req["op"] == "hello":
        return '{"id":%s,"output":{"protocol":1,"name":"attack","version":"0","language":"python","ops":["quote.parse"]}}' % rid
    return '{"id":%s,"output":%s}' % (rid, out)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if isinstance(body, list):
            data = "[" + ",".join(answer(r) for r in body) + "]"
        else:
            data = answer(body)
        data = data.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
