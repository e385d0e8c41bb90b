#!/usr/bin/env python3
"""A stand-in sweep child for the orchestrator tests: reads --request, writes --result like the real child, and
misbehaves on demand through the MODE variable (ok, slow, hang, crash, garbage, invalid, binary, exit127). Every start is
appended to $CHILD_LOG with the child id, the mode and NCCL_PROTO as this process sees it."""
import json, os, signal, sys, time

args = sys.argv[1:]
req = args[args.index("--request") + 1]
res = args[args.index("--result") + 1]
mode = os.environ.get("MODE", "ok")
request = json.load(open(req))
with open(os.environ["CHILD_LOG"], "a") as log:
    log.write("%s %s %s %s\n" % (request["child"], mode, os.environ.get("NCCL_PROTO", "unset"), ",".join(request["collectives"])))


def row(size, busbw):
    place = {"timeUs": size / (busbw * 1e3), "algBwGBps": busbw, "busBwGBps": busbw, "wrong": {"value": 0},
             "maxError": {"absent": "the #wrong layout counts wrong elements instead"}}
    return {"sizeBytes": size, "count": size // 4, "type": "float", "redop": {"value": "sum"}, "root": {"value": -1},
            "outOfPlace": place, "inPlace": {"value": place}}


log_file = os.environ.get("NCCL_DEBUG_FILE")
if log_file:  # what NCCL_DEBUG=INFO would write: the version, a channel and a tuning line
    host, pid = os.uname().nodename, os.getpid()
    with open(log_file.replace("%h", host).replace("%p", str(pid)), "w") as nl:
        nl.write("%s:%d:%d [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n" % (host, pid, pid))
        nl.write("%s:%d:%d [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read\n" % (host, pid, pid))
        nl.write("%s:%d:%d [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..1}\n" % (host, pid, pid))

if mode == "exit127":
    sys.stderr.write("nccl-doctor: symbol lookup error: libnccl.so.2: undefined symbol: ncclCommInitRankConfig\n")
    sys.exit(127)
with open(res, "a") as out:
    for i, c in enumerate(request["collectives"]):
        if mode == "hang":
            print("NCCL INFO waiting for rank 1", flush=True)
            time.sleep(600)
        if mode == "crash" and i == 1:
            sys.stderr.write("about to fault\n")
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGSEGV)
        if mode == "garbage":
            out.write("this is not json at all\n")
            out.flush()
            continue
        if mode == "invalid":
            out.write(json.dumps({"size": 1, "value": 2}) + "\n")
            out.flush()
            continue
        if mode == "slow":
            time.sleep(0.4)
        line = {"collective": c, "ncclVersion": "2.27.5", "ncclLibrary": "/opt/nccl/lib/libnccl.so.2", "worldSize": 2,
                "rows": [row(1 << 20, 10.0 + i), row(1 << 21, 12.0 + i)], "failure": None}
        if mode == "binary":  # bytes that are not UTF-8: on stdout, a line of them, and one inside a whole result line
            sys.stdout.buffer.write(b"\xff\xfe NCCL INFO caf\xe9\n")
            sys.stdout.flush()
            out.flush()
            with open(res, "ab") as raw:
                raw.write(b"\xff\xfe\xfd\n")
                raw.write(json.dumps(line).encode().replace(b"/opt/nccl/lib", b"/opt/nccl/lib\xe9") + b"\n")
            continue
        out.write(json.dumps(line) + "\n")
        out.flush()
