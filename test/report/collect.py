# SPDX-License-Identifier: GPL-2.0
"""The report's collection: what a run left in its results folder (the
plan, each variant's cells.json, the corpus' judged.json, the gates'
and fstests' records, the failure markers), held to the keys the plan
implies (Keys: build/key), made into one results.json (collect()).  A
record of other keys is stale, an ERROR; a planned cell without a record
is an ERROR naming the step that failed.  test/report/report's docstring
describes the folder and the records."""
import datetime
import json
import os
import subprocess
import sys

from model import Results

PROG = "report"
SCHEMA = 4


def die(msg):
    print("%s: %s" % (PROG, msg), file=sys.stderr)
    sys.exit(2)


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return None


def kernel_release(tree):
    """The release TREE's Makefile names, as build/matrix release (the
    one reader of it) says; None when there is no tree or it names none."""
    if not tree or not os.path.isfile(os.path.join(tree, "Makefile")):
        return None
    p = subprocess.run([os.path.join(TOP, "build", "matrix"), "release", tree], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, universal_newlines=True)
    return p.stdout.strip() if p.returncode == 0 else None


def marker(path):
    text = read(path)
    return text.strip().splitlines()[-1] if text and text.strip() else None


def series_failure(res, series):
    """Why nothing of a series ran: its fetch, source or unpack failed."""
    for step in ("fetch", "source", "unpack"):
        why = marker(os.path.join(res, series, step + ".failed"))
        if why:
            return "not run: %s %s failed: %s" % (series, step, why)
    return None


def tools_failure(res):
    """Why no boot of this run stands: the image tool or the guest program
    did not build (their markers, RESULTS/tools/NAME.failed)."""
    tools = os.path.join(res, "tools")
    for f in sorted(os.listdir(tools)) if os.path.isdir(tools) else []:
        why = marker(os.path.join(tools, f)) if f.endswith(".failed") else None
        if why:
            return "not run: %s" % why
    return None


def failure_of(res, series, variant, chain):
    """Why a cell has no verdict: a failed build of the image tool or the
    guest program, a failed image, a failed step of its
    series, a failed build of a variant it is built on, or its own failed
    build, boot or judge (markers of this run: make matrix clears them)."""
    why = tools_failure(res)
    if why:
        return why
    images = os.path.join(res, "images")
    if os.path.isdir(images):
        for f in sorted(os.listdir(images)):
            why = marker(os.path.join(images, f)) if f.endswith(".failed") else None
            if why:
                return "not run: the image %s failed: %s" % (f[:-len(".failed")], why)
    why = series_failure(res, series)
    if why:
        return why
    # (the variants it is built on: those before it of its own arch, whose
    # object tree it shares; another arch's failure is not its own)
    arch = variant.partition("@")[2]
    for base in [b for b in chain[:-1] if b.partition("@")[2] == arch]:
        why = marker(os.path.join(res, series, base, "build.failed"))
        if why:
            return "not run: the %s %s kernel failed to build: %s" % (series, base, why)
    for step in ("build", "boot", "judge"):
        why = marker(os.path.join(res, series, variant, step + ".failed"))
        if why:
            return why
    return None


HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))


class Keys:
    """What the plan implies each record was made from, by build/key (the
    one place keys are computed; the boot and the judge wrote theirs with
    it): a record whose keys differ is stale, an ERROR, never a pass."""

    def __init__(self, images):
        self.images = images
        self.memo = {}
        self.batch = None

    def key(self, *args):
        """build/key ARGS' output; each asked once, of one build/key batch
        for the whole report (a process a key cost most of its time)."""
        if args not in self.memo:
            rc, out = self.ask(args)
            if rc != 0:
                die("build/key %s: %s" % (" ".join(args), out or "failed"))
            self.memo[args] = out
        return self.memo[args]

    def ask(self, args):
        """The status and output (the message, when it failed) of build/key
        ARGS: a request of the batch, or a process of its own for words a
        request line cannot hold (a tab or a newline)."""
        key = os.path.join(TOP, "build", "key")
        if any("\t" in a or "\n" in a for a in args):
            p = subprocess.run([key] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
            return p.returncode, (p.stdout if p.returncode == 0 else p.stderr).strip()
        if self.batch is None:
            self.batch = subprocess.Popen([key, "batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          universal_newlines=True)
        try:
            self.batch.stdin.write("\t".join(args) + "\n")
            self.batch.stdin.flush()
        except BrokenPipeError:
            pass
        rc, tab, out = self.batch.stdout.readline().rstrip("\n").partition("\t")
        if not tab or not rc.isdigit():
            die("build/key batch: no answer to %s" % " ".join(args))
        return int(rc), out.replace("\t", "\n").strip()

    def close(self):
        if self.batch:
            self.batch.stdin.close()
            self.batch.wait()
            self.batch = None

    def expects(self, series, variant, cases):
        """Which expect file each case of a variant is judged by, as the
        judge asks (build/matrix expects), with its key; None for all when
        the matrix cannot say (then no verdict of the variant stands)."""
        sv = variant.split("@")[0]
        sv = sv[:-len("-san")] if sv.endswith("-san") else sv
        memo = ("expects", series, sv)
        if memo not in self.memo:
            matrix = os.environ.get("KIT_MATRIX", os.path.join(TOP, "matrix.yaml"))
            cmd = [os.path.join(TOP, "build", "matrix"), "-C", os.path.dirname(os.path.abspath(matrix)),
                   "-c", os.environ.get("KIT_CASES_DIR", os.path.join(TOP, "test", "cases")),
                   "expects", matrix, series, sv] + list(cases)
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
            found = dict(l.split("\t", 1) for l in p.stdout.splitlines() if "\t" in l)
            self.memo[memo] = ({c: self.key("file", f) for c, f in found.items()} if p.returncode == 0
                               else (p.stderr.strip().splitlines() or ["build/matrix expects failed"])[-1])
        return self.memo[memo]

    def case(self, case, cases):
        """A case's key (build/key cases, all of the run's at once)."""
        cases = list(cases) if case in cases else [case]
        memo = ("cases",) + tuple(cases)
        if memo not in self.memo:
            self.memo[memo] = dict(l.split("=", 1) for l in self.key("cases", self.images, *cases).splitlines())
        return self.memo[memo].get(case, "-")

    def source(self, spec):
        """The key a kernel of a series must carry for its source, from
        the plan's spec: a Debian .deb by what matrix.lock pins
        (KIT_LOCK), a tarball or tree by itself; {} when the plan says
        nothing of it."""
        if not spec:
            return {}
        if spec[0] == "debian" and len(spec) == 3:
            lock = os.environ.get("KIT_LOCK", os.path.join(TOP, "matrix.lock"))
            return {"source": self.key("locked", lock, spec[1], spec[2])}
        if spec[0] in ("tarball", "tree") and len(spec) == 2:
            return {"source": self.key("source", spec[0], spec[1])}
        return {"source": "cannot say: %s" % " ".join(spec)}

    def cell(self, series, variant, image, case, cases, source=None, vanilla=None):
        """The keys a case's cell must carry; VANILLA, the kernel of the
        vanilla boot a variant is held to (none for vanilla itself)."""
        exp = self.expects(series, variant, cases)
        want = dict({"kernel": self.key("file", image), "guest": self.key("guest", "guest", self.key("set", "prog")),
                     "case": self.case(case, cases), "judge": self.key("set", "judge"),
                     "expect": exp.get(case, "-") if isinstance(exp, dict) else "cannot say: " + exp},
                    **self.source(source))
        if vanilla:
            want["vanilla"] = self.key("file", vanilla)
        return want

    def corpus(self, image, vanilla, folder, source=None):
        return dict({"kernel": self.key("file", image), "guest": self.key("guest", "corpus", self.key("set", "prog")),
                     "corpus": self.key("corpus", folder), "vanilla": self.key("file", vanilla),
                     "judge": self.key("set", "judge"),
                     "explain": self.key("dir", os.environ.get("KIT_CORPUS_EXPECT", os.path.join(TOP, "test", "corpus")))},
                    **self.source(source))


def stale(record, want, again="make matrix"):
    """Why a record is not of what the plan implies: the names of the keys
    that differ, in a phrase ending with the command to run AGAIN; None
    when every key is as planned."""
    have = record.get("keys") or {}
    if not have:
        return "stale: made by a kit that recorded no keys; run %s again" % again
    differ = [k for k in want if have.get(k) != want[k]]
    if not differ:
        return None
    return "stale: made from another %s than this run's; run %s again" % (", ".join(differ), again)


def collect(res):
    plan = read(os.path.join(res, "plan.tsv"))
    if plan is None:
        die("%s/plan.tsv: missing; run make matrix" % res)
    cases, series, cells, corpus, gates, kit, fst = [], [], {}, None, {}, None, {}
    width = {"kit": 4, "case": 2, "series": 5, "cell": 5, "corpus": 3, "gate": 5, "fstests": 7}
    for n, line in enumerate(plan.splitlines(), 1):
        f = line.split("\t")
        if not line:
            continue
        # (A series that runs may say what its source is: KIND INPUT, or
        # debian PACKAGE VERSION, which the kernels' source key is held to.)
        if width.get(f[0]) != len(f) and not (f[0] == "series" and len(f) == 6 and f[2] == "run"):
            die("%s/plan.tsv:%d: malformed line: %s" % (res, n, line))
        if f[0] == "kit":
            if kit:
                die("%s/plan.tsv:%d: a second kit line" % (res, n))
            kit = {"kit": f[1], "images": f[2], "shard": f[3], "results": res}
            keys = Keys(f[2])
        elif f[0] == "case":
            cases.append(f[1])
        elif f[0] == "corpus":
            if corpus:
                die("%s/plan.tsv:%d: a second corpus" % (res, n))
            index = read(os.path.join(f[2], "index"))
            corpus = {"name": f[1], "dir": f[2],
                      "images": [l.split()[0] for l in (index or "").splitlines() if l.strip()]}
        elif f[0] == "gate":
            if any(g == f[2] for g, _, _ in gates.get(f[1], [])):
                die("%s/plan.tsv:%d: gate %s %s planned twice" % (res, n, f[1], f[2]))
            gates.setdefault(f[1], []).append((f[2], f[3], f[4]))
        elif f[0] == "fstests":
            kernels = dict(w.split("=", 1) for w in f[3].split() if "=" in w)
            if f[1] in fst or len(kernels) != len(f[3].split()) or "vanilla" not in kernels:
                die("%s/plan.tsv:%d: fstests %s: planned twice, or not VARIANT=KERNEL with vanilla: %s" % (res, n, f[1], line))
            fst[f[1]] = (f[2], [w.split("=", 1)[0] for w in f[3].split()], kernels, f[4].split(), f[5], f[6])
        elif f[0] == "series":
            if any(s["name"] == f[1] for s in series):
                die("%s/plan.tsv:%d: series %s planned twice" % (res, n, f[1]))
            series.append({"name": f[1], "status": f[2], "verified": f[3], "extra": f[4],
                           "source": f[5].split() if len(f) == 6 else None})
        else:
            if (f[2], f[3], f[4]) in cells.get(f[1], []) or any(v == f[2] for v, _, _ in cells.get(f[1], [])):
                die("%s/plan.tsv:%d: cell %s %s planned twice" % (res, n, f[1], f[2]))
            cells.setdefault(f[1], []).append((f[2], f[3], f[4]))
    if not kit:
        die("%s/plan.tsv: no kit line; run make matrix again" % res)
    # The image set as this run left it (after its images were made).
    kit["images"] = keys.key("images", kit["images"], *cases)
    out = []
    for s in series:
        name = s["name"]
        variants = [v for v, _, _ in cells.get(name, [])]
        if s["status"] == "shard":
            out.append({"name": name, "status": "elsewhere", "shard": s["extra"],
                        "verified": s["verified"] or "-", "variants": variants,
                        "stacks": {v: h for v, _, h in cells.get(name, [])}, "cells": []})
            continue
        if s["status"] == "skip":
            out.append({"name": name, "status": "skipped", "reason": s["extra"],
                        "variants": variants, "stacks": {v: h for v, _, h in cells.get(name, [])}, "cells": []})
            continue
        entry = {"name": name, "kernel": kernel_release(s["extra"]) or name + ".y",
                 "verified": s["verified"] or "-", "status": "run", "variants": variants,
                 "stacks": {}, "cells": []}
        for i, (variant, image, stack) in enumerate(cells.get(name, [])):
            entry["stacks"][variant] = stack
            path = os.path.join(res, name, variant, "cells.json")
            judged = read(path)
            try:
                record = json.loads(judged) if judged else None
                if record is not None and not isinstance(record.get("cells"), list):
                    raise ValueError("no cells")
            except (ValueError, AttributeError) as e:
                die("%s: not a judged record (%s); run make matrix again" % (path, e))
            why = failure_of(res, name, variant, variants[:i + 1])
            if corpus:
                # (judged against vanilla of its own arch: vanilla@ARCH)
                at = variant.partition("@")[2]
                base = "vanilla@" + at if at else "vanilla"
                entry.setdefault("corpus", []).extend(
                    corpus_records(res, name, variant, image, corpus, why, keys,
                                   dict((v, k) for v, k, _ in cells[name]).get(base, "-"), s["source"]))
            if record and record.get("image") == image and not why:
                by_case = {c["case"]: c for c in record["cells"]}
                # (Every variant but vanilla is held to vanilla of its arch.)
                sv = variant.partition("@")[0]
                at = variant.partition("@")[2]
                held_to = None if sv == "vanilla" else dict((v, k) for v, k, _ in cells[name]).get(
                    "vanilla@" + at if at else "vanilla", "-")
                for c in cases:
                    cell = by_case.get(c)
                    if cell is None:
                        cell = error_cell(c, variant, "not run: the boot had no such case", "")
                    else:
                        old = stale(cell, keys.cell(name, variant, image, c, cases, s["source"], held_to))
                        if old:
                            cell = error_cell(c, variant, old, cell.get("log", ""), cell.get("keys"))
                    entry["cells"].append(cell)
                continue
            if not why:
                why = ("not run: an earlier step failed (see make's output)" if not record
                       else "not run: the verdicts on record are of another kernel (%s)" % record.get("image"))
            # A kernel that did not build: its build log says why.
            log = os.path.join(os.path.dirname(image), "build.log")
            log = log if image != "-" and os.path.isfile(log) and marker(
                os.path.join(res, name, variant, "build.failed")) else ""
            for c in cases:
                entry["cells"].append(error_cell(c, variant, why, log))
        if name in gates:
            entry["gates"] = [gate_record(res, name, g, folder, key, keys, cases) for g, folder, key in gates[name]]
        if name in fst:
            entry["fstests"], entry["fstests_run"] = fstests_records(res, name, *fst[name], keys=keys)
        out.append(entry)
    keys.close()
    if corpus and not corpus["images"]:
        die("%s/index: no images; run make matrix again" % corpus["dir"])
    d = {
        "schema": SCHEMA,
        "date": now(),
        "run": kit,
        "cases": cases,
        "series": out,
    }
    if corpus:
        d["corpus"] = {"name": corpus["name"], "images": corpus["images"]}
    d["totals"] = Results(d).totals
    return d


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def lines_of(path):
    return [l for l in (read(path) or "").splitlines() if l.strip()]


def gate_record(res, series, name, folder, key, keys, cases):
    """One gate of one series, from its folder: PASS (nothing new), FAIL
    (a finding vanilla's build or the original has not, or a variant that
    does not build) or ERROR (the gate did not run, or vanilla did not
    build: nothing to hold the others against)."""
    rec = {"gate": name, "status": "ERROR", "reason": "", "log": folder}
    why = series_failure(res, series)
    kind, _, arch = name.partition("@")
    # What a gate needs fetched, each fetch with a marker of its own: the
    # default arch's linux-config (config, shipped), another arch's
    # (config@ARCH), the source package a config is made from (any config).
    fetches = (["fetch"] if name in ("config", "shipped") else []) + \
        (["fetch@" + arch] if kind == "config" and arch else []) + (["fetch-source"] if kind == "config" else [])
    m = next((x for x in (marker(os.path.join(res, series, "gates", f + ".failed")) for f in fetches) if x), None) or \
        marker(os.path.join(res, series, "gates", name + ".failed"))
    why = why or m
    images = os.path.join(res, "images")
    if not why and name == "shipped":
        why = tools_failure(res)
    if not why and name == "shipped" and os.path.isdir(images):
        bad = [f for f in sorted(os.listdir(images)) if f.endswith(".failed") and marker(os.path.join(images, f))]
        if bad:
            why = "not run: the image %s failed: %s" % (bad[0][:-len(".failed")], marker(os.path.join(images, bad[0])))
    tsv = os.path.join(folder, {"checkpatch": "checkpatch.tsv", "shipped": "shipped.tsv"}.get(name, "gate.tsv"))
    have = [l.split("\t")[1] for l in lines_of(tsv) if l.startswith("key\t")]
    if not why and os.path.exists(tsv) and have != [key]:
        why = ("not run: %s holds the results of another run (key %s, this run's %s): "
               "a step before it failed, or make gates was not run again" % (tsv, have[0] if have else "none", key))
    if name == "checkpatch":
        rows = [l.split("\t") for l in lines_of(tsv) if not l.startswith("key\t")]
        if why or not rows or any(len(r) != 6 for r in rows):
            rec["reason"] = why or "not run: no %s (see make's output)" % tsv
            return rec
        rec["patches"] = []
        for p, stacks, errors, new, warnings, checks in rows:
            rec["patches"].append({
                "patch": p, "stacks": stacks.split(","), "errors": int(errors), "new": int(new),
                "warnings": int(warnings), "checks": int(checks),
                "messages": lines_of(os.path.join(folder, p + ".txt")),
                "new_errors": lines_of(os.path.join(folder, p + ".new"))})
        bad = [q for q in rec["patches"] if q["new"]]
        rec["status"] = "FAIL" if bad else "PASS"
        rec["reason"] = "; ".join("%s: %s" % (q["patch"], e) for q in bad for e in q["new_errors"])
        return rec
    if name == "shipped":
        rows = [l.split("\t") for l in lines_of(tsv) if not l.startswith("key\t")]
        if not why and len(rows) == 1 and rows[0][0] == "skip" and len(rows[0]) == 2:
            rec["status"], rec["reason"] = "SKIP", rows[0][1]
            return rec
        if why or not rows or any(len(r) != 5 for r in rows):
            rec["reason"] = why or "not run: no %s (see make's output)" % tsv
            return rec
        rec["kernel"] = rows[0][4]
        rec["boots"] = []
        bad, stale_cells = [], []
        for v, ok, n, how, rel in rows:
            rec["boots"].append({"variant": v, "passed": int(ok), "cases": int(n), "module": how})
            try:
                cells = json.loads(read(os.path.join(folder, v, "cells.json")) or "{}").get("cells", [])
            except ValueError:
                cells = []
            bad += ["%s %s: %s (want %s)" % (v, c["case"], c["actual"], c["expected"]) for c in cells if c["status"] != "PASS"]
            # Its verdicts are of this run's guest, images and judge (the
            # kernel is Debian's own, keyed by the gate; the expect files
            # are its prerequisites).
            for c in cells:
                want = {"guest": keys.key("guest", "guest", keys.key("set", "prog")),
                        "case": keys.case(c["case"], cases), "judge": keys.key("set", "judge")}
                old = stale(c, want)
                if old:
                    stale_cells.append("%s %s: %s" % (v, c["case"], old))
            if int(ok) != int(n) and not bad:
                bad.append("%s: %d of %d cases as expected" % (v, int(ok), int(n)))
        if stale_cells:
            rec["reason"] = "; ".join(stale_cells[:3]) + ("; ..." if len(stale_cells) > 3 else "")
            return rec
        rec["status"] = "FAIL" if bad else "PASS"
        rec["reason"] = "; ".join(bad)
        return rec
    rows = [l.split("\t") for l in lines_of(tsv) if not l.startswith("key\t")]
    conf = [r for r in rows if r[0] == "config" and len(r) == 4]
    rows = [r for r in rows if r[0] != "config"]
    if why or not conf or not rows or any(len(r) != 7 for r in rows):
        rec["reason"] = why or "not run: no %s (see make's output)" % tsv
        return rec
    rec["config"] = conf[0][1]
    rec["ext4"] = conf[0][2].replace("ext4=", "")
    rec["sparse"] = conf[0][3].replace("sparse=", "")
    if kind == "config":
        # (config@ARCH: Debian's config of another arch, distro-config@ARCH;
        # Debian's config is linux-config's, or made from the source
        # package linux: build/gates/gate-build's config line says which)
        rec["gate"] = ("distro-config" if conf[0][1].startswith(("linux-config", "linux ")) else "defconfig") + \
            ("@" + arch if arch else "")
    rec["variants"] = []
    for v, st, gcc, gcc_new, sp, sp_new, secs in rows:
        rec["variants"].append({"variant": v, "status": st, "gcc": int(gcc), "gcc_new": int(gcc_new),
                                "sparse": int(sp), "sparse_new": int(sp_new), "seconds": int(secs),
                                "new": lines_of(os.path.join(folder, v + ".new"))})
    base = rec["variants"][0]
    failed = [v for v in rec["variants"] if v["status"] != "ok"]
    if base["variant"] != "vanilla" or base["status"] == "build-failed":
        rec["reason"] = "vanilla does not build under %s (vanilla.log)" % rec["config"]
    elif failed:
        rec["status"] = "FAIL"
        rec["reason"] = "; ".join("%s: %s" % (v["variant"], "does not build (%s.log)" % v["variant"]
                                              if v["status"] == "build-failed" else ", ".join(v["new"]))
                                  for v in failed)
    else:
        rec["status"] = "PASS"
    return rec


def fstests_records(res, series, folder, variants, kernels, tests, why, root, keys):
    """fstests on one series, a record a test and variant other than
    vanilla, from test/fstests/judge-fstests' verdict.json: PASS (passes, or fixed:
    vanilla fails), FAIL (fails where vanilla passes, or vanilla passes
    and the variant did not run it: not run, or absent from its results),
    SKIP (not run where vanilla does not pass, expunged, or a baseline
    failure: fails on vanilla too; or no fstests tree was given), ERROR (no
    result, or no verdict for the planned kernels: a step failed, or the
    verdict on record is of other kernels, or its keys are not those of
    this plan's kernels, tests, root image ROOT and kit: stale).  Returns the
    records and what the run was: {"variants", "seconds", "log"}."""
    info = {"variants": variants, "seconds": {}, "wall": {}, "log": folder}

    def rec(t, v, status, reason, **kw):
        r = {"test": t, "variant": v, "status": status, "verdict": "no result", "vanilla": "", "result": "",
             "seconds": 0, "reason": reason, "kernel": kernels[v], "log": ""}
        r.update(kw)
        return r
    if folder == "-":
        return [rec(t, v, "SKIP", why) for v in variants[1:] for t in tests], info
    fail = series_failure(res, series)
    m = marker(os.path.join(res, "fstests-root.failed"))
    fail = fail or ("not run: the fstests root filesystem failed: " + m if m else None)
    path = os.path.join(folder, "verdict.json")
    text = read(path)
    try:
        verdict = json.loads(text) if text else None
        if verdict is not None and not (isinstance(verdict.get("tests"), list) and isinstance(verdict.get("kernels"), dict)):
            raise ValueError("no tests or kernels")
    except (ValueError, AttributeError) as e:
        die("%s: not a fstests verdict (%s); run make matrix FSTESTS=1 again" % (path, e))
    if verdict:
        info["seconds"], info["wall"] = verdict.get("seconds", {}), verdict.get("wall", {})
    by = {t["test"]: t for t in (verdict or {}).get("tests", [])}

    def fst_want(v):
        """The keys a variant's run must carry: its kernel, the tests
        planned, the root image's own key and the kit's steps."""
        return {"kernel": keys.key("file", kernels[v]), "tests": keys.key("words", *tests) if tests else "-",
                "root": (read(root + ".key") or "-").strip(), "run": keys.key("set", "fstests"),
                "judge": keys.key("set", "fstests-judge"),
                "expunges": keys.key("file", os.path.join(TOP, "test", "fstests", "expunges", series))}
    out = []
    # One judgement of all the variants: a step of any that failed leaves
    # every variant without a verdict of this run.
    for k in variants:
        m = marker(os.path.join(res, series, k + "-fstests", "build.failed"))
        fail = fail or ("not run: the %s-fstests kernel did not build: %s" % (k, m) if m else None) or \
            marker(os.path.join(folder, k + ".failed"))
    fail = fail or marker(os.path.join(folder, "judge.failed"))
    for v in variants[1:]:
        why_v = fail
        if not why_v and verdict is None:
            why_v = "not run: no %s (an earlier step failed: see make's output)" % path
        if not why_v and any(verdict["kernels"].get(k) != kernels[k] for k in ("vanilla", v)):
            why_v = "not run: the fstests verdicts on record are of other kernels (%s)" % verdict["kernels"].get(v)
        if not why_v:
            for k in ("vanilla", v):
                old = stale({"keys": (verdict.get("keys") or {}).get(k)}, fst_want(k), "make matrix FSTESTS=1")
                if old:
                    why_v = "%s (%s's run)" % (old, k)
                    break
        for t in tests + [t for t in by if t not in tests]:
            if why_v or t not in by or v not in by[t]["verdicts"]:
                out.append(rec(t, v, "ERROR", why_v or "not run: the fstests verdict has no such test"))
                continue
            base, got, word = by[t]["results"]["vanilla"], by[t]["results"][v], by[t]["verdicts"][v]
            why = by[t].get("reasons", {})
            mine = "; ".join("%s: %s" % (k, why[k]) for k in ("vanilla", v) if why.get(k) and not (
                k == "vanilla" and why[k] == why.get(v)))
            status = {"PASS": "PASS", "FAIL": "FAIL", "ERROR": "ERROR", "BASELINE": "SKIP", "SKIP": "SKIP"}[word]
            out.append(rec(t, v, status, "" if status == "PASS" else mine or word, verdict=word,
                           vanilla=base["status"], result=got["status"], seconds=got["seconds"],
                           fixed=word == "PASS" and base["status"] in ("fail", "timeout", "error"),
                           log=os.path.join(folder, got.get("log", v))))
    return out, info


def corpus_records(res, series, variant, image, corpus, why, keys, vanilla, source=None):
    """The judged corpus records of one kernel, or an ERROR record an image
    saying why there are none (as for the cells); a record of other inputs
    than the plan's (KEYS; VANILLA: the baseline kernel) is stale."""
    base = os.path.join(res, series, "corpus")
    path = os.path.join(base, variant, "judged.json")
    if not why:
        fetch = marker(os.path.join(res, "corpus.failed"))
        why = ("not run: the corpus fetch failed: " + fetch if fetch else
               marker(os.path.join(base, variant + "-boot.failed")) or
               marker(os.path.join(base, variant + "-judge.failed")))
    text = read(path)
    try:
        record = json.loads(text) if text else None
        if record is not None and not isinstance(record.get("records"), list):
            raise ValueError("no records")
    except (ValueError, AttributeError) as e:
        die("%s: not a judged corpus record (%s); run make matrix again" % (path, e))
    if not why and record and record.get("image") == image and record.get("corpus") == corpus["dir"]:
        by = {r["image"]: r for r in record["records"]}
        want = keys.corpus(image, vanilla, corpus["dir"], source)
        out = []
        for i in corpus["images"]:
            r = by.get(i)
            old = stale(r, want) if r else None
            out.append(corpus_error(i, variant, "not run: the corpus boot had no such image", "") if not r
                       else corpus_error(i, variant, old, r.get("log", ""), r.get("keys")) if old else r)
        return out
    if not why:
        why = ("not run: an earlier step failed (see make's output)" if not record
               else "not run: the corpus verdicts on record are of another kernel or corpus (%s)"
               % record.get("image"))
    return [corpus_error(i, variant, why, "") for i in corpus["images"]]


def corpus_error(image, variant, reason, log, keys=None):
    return {"image": image, "variant": variant, "status": "ERROR", "shared": False,
            "verdict": "no result", "vanilla": "", "reason": reason, "explained": "",
            "kernel": "", "diff": "", "log": log, "keys": keys or {}}


def error_cell(case, variant, reason, log, keys=None):
    return {"case": case, "variant": variant, "status": "ERROR", "leaks": False, "expected": "-",
            "actual": "no result", "reason": reason, "kernel": "", "diff": "",
            "expect": "", "log": log, "keys": keys or {}}
