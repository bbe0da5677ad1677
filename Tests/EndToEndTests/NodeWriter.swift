import Foundation

/// A node's container logs written the way its runtime and kubelet write them, for `spytail run` to read:
/// `pods/<namespace>_<pod>_<uid>/<container>/<restart>.log` in CRI lines (conmon's `+00:00` times and
/// containerd's `Z` ones), long lines cut into `P` parts with the other stream's lines between them, containers
/// restarting (`1.log` beside `0.log`), and kubelet's rotation while written: `0.log` renamed to
/// `0.log.<YYYYmmdd-HHMMSS>` and the runtime reopening, then every rotated file but the newest compressed as
/// kubelet does (`.gz.tmp` written, renamed to `.gz`, the original removed).
///
/// Each application line is `seq=N id=<namespace>/<pod>/<container> stream=<s> …`; the script prints, as
/// JSON, what it wrote: per id the count of lines and the length of each long line.
enum NodeWriter {
    static let script = #"""
        import gzip, json, os, random, shutil, sys, time
        root, pods, rounds, seed, part, rotate_at, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
        rng = random.Random(seed)
        clock = [1795168800]
        def stamp(runtime, nanos):
            s = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(clock[0]))
            if runtime == "conmon":
                return "%s.%09d+00:00" % (s, nanos)
            frac = ("%09d" % nanos).rstrip("0")
            return s + ("." + frac if frac else "") + "Z"
        namespaces = ["shop", "kube-system", "batch"]
        containers, wrote = [], {}
        def open_log(c):
            c["file"] = open(os.path.join(c["dir"], "%d.log" % c["restart"]), "ab", buffering=0)
        def write(c, stream, text, final=True):
            chunks = [text[i:i + part] for i in range(0, max(len(text), 1), part)] or [""]
            out = []
            for k, chunk in enumerate(chunks):
                tag = "F" if final and k == len(chunks) - 1 else "P"
                out.append(("%s %s %s %s\n" % (stamp(c["runtime"], rng.randrange(10**9)), stream, tag, chunk)).encode())
            return out
        def rotate(c):
            c["file"].close()
            live = os.path.join(c["dir"], "%d.log" % c["restart"])
            clock[0] += 1
            os.rename(live, live + "." + time.strftime("%Y%m%d-%H%M%S", time.gmtime(clock[0])))
            open_log(c)
            rotated = sorted(n for n in os.listdir(c["dir"]) if n.startswith("%d.log." % c["restart"]) and not n.endswith((".gz", ".tmp")))
            for name in rotated[:-1]:
                path = os.path.join(c["dir"], name)
                with open(path, "rb") as src, gzip.open(path + ".gz.tmp", "wb") as dst:
                    shutil.copyfileobj(src, dst)
                os.rename(path + ".gz.tmp", path + ".gz")
                os.remove(path)
        start = time.monotonic()
        for r in range(rounds):
            if r < pods:  # a pod starts each round until all run
                p = r
                ns, pod, uid = namespaces[p % 3], "web-%d" % p, "%08x-0000-4000-8000-%012x" % (p, p)
                for name in ("app", "sidecar"):
                    d = os.path.join(root, "%s_%s_%s" % (ns, pod, uid), name)
                    os.makedirs(d)
                    c = {"dir": d, "id": "%s/%s/%s" % (ns, pod, name), "restart": 0, "seq": 0,
                         "runtime": "conmon" if p % 2 else "containerd", "held": None}
                    open_log(c)
                    containers.append(c)
                    wrote[c["id"]] = {"lines": 0, "long": {}}
            for c in containers:
                for _ in range(rng.randrange(1, 3)):
                    c["seq"] += 1
                    stream = "stderr" if rng.random() < 0.3 else "stdout"
                    text = "seq=%d id=%s stream=%s %s" % (c["seq"], c["id"], stream, "x" * rng.randrange(0, 40))
                    if rng.random() < 0.05:
                        text += " long " + "y" * rng.randrange(part, 4 * part)
                        wrote[c["id"]]["long"][c["seq"]] = len(text)
                    lines = write(c, stream, text)
                    if len(lines) > 1 and rng.random() < 0.5:  # the other stream writes between the parts
                        c["seq"] += 1
                        other = "stdout" if stream == "stderr" else "stderr"
                        between = write(c, other, "seq=%d id=%s stream=%s between parts" % (c["seq"], c["id"], other))
                        lines = lines[:1] + between + lines[1:]
                    for physical in lines:  # one write each, as the runtime writes a part when it has it
                        c["file"].write(physical)
                    wrote[c["id"]]["lines"] = c["seq"]
                if c["file"].tell() > rotate_at:
                    rotate(c)
                if rng.random() < 0.004:  # the container restarts: a new log beside the old one
                    c["file"].close()
                    c["restart"] += 1
                    open_log(c)
            if rate > 0:
                delay = start + (r + 1) / rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
        for c in containers:
            c["file"].close()
        print(json.dumps(wrote))
        """#

    /// What the writer printed: per container id, its line count and its long lines' lengths by seq.
    struct Wrote {
        var lines: [String: Int]
        var long: [String: [Int: Int]]

        init(json: Data) throws {
            let object = try JSONSerialization.jsonObject(with: json) as? [String: [String: Any]] ?? [:]
            lines = object.mapValues { $0["lines"] as? Int ?? 0 }
            long = object.mapValues { ($0["long"] as? [String: Int] ?? [:]).reduce(into: [:]) { $0[Int($1.key)!] = $1.value } }
        }

        var total: Int { lines.values.reduce(0, +) }
    }
}
