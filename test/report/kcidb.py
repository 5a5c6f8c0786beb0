# SPDX-License-Identifier: GPL-2.0
"""The run as KernelCI's database (KCIDB) takes it: one more view of the
report's model (model.py's Results), like the table and junit.xml; it
formats cells and decides no verdict.

What it produces (KCIDB I/O schema 5.3, as kcidb-io defines it):

  checkouts   one a series and stack: the kernel source of the series
              with that stack applied (vanilla's has none).  Its id is
              made of what it is: the series, the kernel release, the
              source's key and the stack's hash, so two runs of the same
              inputs name the same checkout.
  builds      one a series and variant: the kernel its cells booted.  Its
              id carries that kernel's key (build/key), taken from the
              cells judged on it this run (PASS or FAIL; a stale record's
              keys are not this run's), so a kernel the cache gave again is
              the same build.  Status PASS when a cell was judged on it,
              SKIP when its series was not run, MISS when no cell was (the
              first cell's reason says why: a build, a boot or an earlier
              step that failed).  fstests boots kernels of its own (their
              own config): one build a series and variant more, PASS when
              one of its tests ran.
  tests       one a cell: an image case ("ext4_backport.case.NAME"), a
              corpus image ("ext4_backport.corpus.IMAGE"), a gate
              ("ext4_backport.gate.GATE", on the series' first build that
              carries a stack) or an fstests test ("fstests.ext4.001").
              Its id is the run's (kit commit, date and shard) with the
              cell's place, so each run's verdicts are new tests.  The kit's
              status is KCIDB's (TIMEOUT is ERROR); what the cell expected,
              what it saw, its keys and its log's path are under "misc".

Every id starts with the origin, "ORIGIN:", the name KernelCI gives a
submitter (ext4_backport_kit unless one is given).  A variant without
"@ARCH" is of the default arch, x86_64 (matrix.yaml's first arch)."""
import hashlib
import re

ORIGIN = "ext4_backport_kit"
MAJOR, MINOR = 5, 3
DEFAULT_ARCH = "x86_64"
# KCIDB's "path" is dot-separated words of these characters.
WORD = re.compile(r"[^A-Za-z0-9_-]")
ORIGIN_RE = re.compile(r"^[a-z0-9_]+$")
EXCERPT = 16384			# KCIDB's maxLength of a log excerpt


def word(s):
    return WORD.sub("_", s) or "_"


def arch_of(variant):
    """The machine a variant's kernel is for: VARIANT@ARCH, or the
    default arch."""
    return variant.partition("@")[2] or DEFAULT_ARCH


def run_id(m):
    """The run, in ids: its kit commit, date and shard, hashed short."""
    text = "%s %s %s" % (m.run.get("kit", ""), m.date, m.run.get("shard", "-"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def judged_key(cells, name):
    """The key NAME of the cells judged this run (PASS or FAIL: a stale
    or failed record's keys are not this run's), or ""."""
    return next((c.keys[name] for c in cells if c.status in ("PASS", "FAIL") and c.keys and c.keys.get(name)), "")


def build_status(cells, series, kernel):
    """A build's status and why (see the module's comment)."""
    if series.status == "skipped":
        return "SKIP", series.reason
    if kernel:
        return "PASS", ""
    return "MISS", next((c.reason for c in cells if c.reason), "")


def test_status(c):
    return "ERROR" if c.status == "TIMEOUT" else c.status


def excerpt(c):
    """What a reader of the test needs first: why it is not a plain pass,
    and what differed."""
    text = "\n".join(x for x in (c.reason, c.weakness, c.diff) if x)
    return text[-EXCERPT:]


def test_path(c):
    if c.kind == "fstests":
        return "fstests." + ".".join(word(p) for p in c.name.split("/"))
    return "ext4_backport.%s.%s" % (c.kind, word(c.name))


def misc_of(c):
    misc = {"series": c.series, "variant": c.variant, "kind": c.kind, "name": c.name, "status": c.status,
            "as_expected": c.ok}
    for k in ("expected", "actual", "verdict", "vanilla", "explained", "result", "kernel", "log", "weakness"):
        v = getattr(c, k)
        if v:
            misc[k] = v
    if c.leak:
        misc["leak"] = True
    if c.keys:
        misc["keys"] = dict(c.keys)
    if c.fixed:
        misc["fixed"] = True
    return misc


def kcidb(m, origin=ORIGIN):
    """The KCIDB report of the model M (checkouts, builds, tests), as a
    dict ready for json.dump."""
    if not ORIGIN_RE.match(origin):
        raise ValueError("origin %r: KCIDB takes lower-case letters, digits and _ only" % origin)
    run = run_id(m)
    checkouts, builds, tests = [], [], []
    build_of = {}

    def build(s, v, co, suffix, kernel, status, why, comment):
        bid = "%s:%s-%s%s-%s" % (origin, s.name, word(v), suffix, kernel or "unbuilt-" + run)
        b = {"id": bid, "origin": origin, "checkout_id": co,
             "architecture": word(arch_of(v)).replace("-", "_"), "start_time": m.date, "status": status,
             "comment": comment,
             "misc": {"series": s.name, "variant": v, "kernel_key": kernel, "kit": m.run.get("kit", "")}}
        if why:
            b["log_excerpt"] = why[-EXCERPT:]
        builds.append(b)
        return bid

    for s in m.series:
        first_stacked, co_of = None, {}
        for v in s.variants:
            stack = s.stacks.get(v, "-")
            cells = m.of("case", s.name, v) + m.of("corpus", s.name, v)
            source = judged_key(cells, "source")
            kernel = judged_key(cells, "kernel")
            co = "%s:%s-%s%s%s" % (origin, s.name, s.kernel or "unknown", "-" + source if source else "",
                                   "+" + stack if stack != "-" else "")
            if not any(x["id"] == co for x in checkouts):
                checkouts.append({
                    "id": co, "origin": origin,
                    "comment": "Linux %s%s" % (s.kernel or s.name, ", the kit's %s stack %s" % (v.partition("@")[0], stack)
                                               if stack != "-" else ", as its source gave it"),
                    "start_time": m.date, "valid": s.status == "run",
                    "misc": {"series": s.name, "kernel": s.kernel, "stack": stack, "source_key": source,
                             "verified": s.verified, "kit": m.run.get("kit", "")}})
            status, why = build_status(cells, s, kernel)
            build_of[(s.name, v)] = build(s, v, co, "", kernel, status, why, "the %s kernel of %s" % (v, s.name))
            co_of[v] = co
            if first_stacked is None and stack != "-":
                first_stacked = build_of[(s.name, v)]
        for v in dict.fromkeys(c.variant for c in m.of("fstests", s.name)):
            fst = m.of("fstests", s.name, v)
            ran = any(c.status in ("PASS", "FAIL") for c in fst)
            build_of[("fstests", s.name, v)] = build(
                s, v, co_of.get(v) or next(iter(co_of.values()), ""), "-fstests", "", "PASS" if ran else "MISS",
                "" if ran else next((c.reason for c in fst if c.reason), ""),
                "the %s kernel of %s that fstests booted (its own config)" % (v, s.name))
        # A gate checks the stacks of its series: it goes on the first
        # build that carries one (or vanilla's, in a series with none).
        build_of[(s.name, "")] = first_stacked or (build_of[(s.name, s.variants[0])] if s.variants else None)
    for c in m.cells:
        bid = build_of.get(("fstests", c.series, c.variant) if c.kind == "fstests" else (c.series, c.variant))
        if bid is None:
            continue
        t = {"id": "%s:%s.%s.%s.%s.%s" % (origin, run, c.series, word(c.variant) if c.variant else "-", c.kind,
                                          c.name),
             "origin": origin, "build_id": bid, "path": test_path(c), "status": test_status(c),
             "start_time": m.date, "misc": misc_of(c)}
        if c.kind != "gate":
            # (A gate is builds and checks on the host, or boots of its own.)
            t["environment"] = {"comment": "QEMU (TCG) guest, %s" % arch_of(c.variant)}
        if c.kind == "fstests" and c.seconds:
            t["duration"] = float(c.seconds)
        text = excerpt(c)
        if text:
            t["log_excerpt"] = text
        tests.append(t)
    return {"version": {"major": MAJOR, "minor": MINOR}, "checkouts": checkouts, "builds": builds, "tests": tests}
