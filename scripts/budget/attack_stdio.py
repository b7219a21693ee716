"""A hostile protocol v1 implementation over stdio for the memory budget's
measurements (docs/runner.md, "Measured at scale"). It offers quote.parse and
answers every request the same way, by its mode:

  members N   an output of N members: {"m0":0,"m1":0,...}
  deep        an output of 60 arrays nested 500 deep (about 60 KB)
  notutf8     an output holding the bytes 0xff 0xfe in a string
"""
import json
import sys

mode = sys.argv[1]
out = None
if mode == "members":
    out = "{" + ",".join('"m%d":0' % i for i in range(int(sys.argv[2]))) + "}"
elif mode == "deep":
    out = '{"citation":[' + ",".join(["[" * 500 + "]" * 500] * 60) + "]}"
for line in sys.stdin.buffer:
    req = json.loads(line)
    rid = json.dumps(req["id"]).encode()
    if req["op"] == "hello":
        sys.stdout.buffer.write(b'{"id":' + rid + b',"output":{"protocol":1,"name":"attack","version":"0","language":"python","ops":["quote.parse"]}}\n')
    elif mode == "notutf8":
        sys.stdout.buffer.write(b'{"id":' + rid + b',"output":{"citation":"\xff\xfe"}}\n')
    else:
        sys.stdout.buffer.write(b'{"id":' + rid + b',"output":' + out.encode() + b"}\n")
    sys.stdout.buffer.flush()
