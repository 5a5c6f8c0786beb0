# SPDX-License-Identifier: GPL-2.0
"""The run as KernelCI's database (KCIDB) takes it: one more view of the
report's model (test/report/report's Results), like the table and
junit.xml; it formats cells and decides nothing.

What it produces (KCIDB I/O schema 5.3, as kcidb-io defines it):

  checkouts   one a series and variant that has a stack: the kernel source
              of the series with that variant's stack applied (vanilla's
              has none).  Its id is made of what it is: the series, the
              kernel release, the source's key and the stack's hash, so
              two runs of the same inputs name the same checkout.
  builds      one a series and variant: the kernel the cells booted.  Its
              id carries the kernel's key (build/key), so a kernel the
              cache gave again is the same build.  Status PASS when a cell
              was judged on it, FAIL when its build failed, SKIP when its
              series was not run, MISS when it never came to be judged.
  tests       one a cell: an image case ("ext4_backport.case.NAME"), a
              corpus image ("ext4_backport.corpus.IMAGE"), a gate
              ("ext4_backport.gate.GATE", on the series' first build that
              carries a stack) or an fstests test ("fstests.ext4.001").
              Its id is the run's (kit commit and date) with the cell's
              place, so each run's verdicts are new tests.  The kit's
              status is KCIDB's (TIMEOUT is ERROR); what the cell expected,
              what it saw, its keys and its log's path are under "misc".

Every id starts with the origin, "ORIGIN:", the name KernelCI gives a
submitter (ext4_backport_kit unless one is given)."""
import hashlib
import re

ORIGIN = "ext4_backport_kit"
MAJOR, MINOR = 5, 3
# KCIDB's "path" is dot-separated words of these characters.
WORD = re.compile(r"[^A-Za-z0-9_-]")
ORIGIN_RE = re.compile(r"^[a-z0-9_]+$")
# What the kit writes where a build failed: build/kernel/kernel's marker
# and the report's "the X.Y VARIANT kernel failed to build".
BUILD_FAILED = ("build failed", "failed to build")
EXCERPT = 16384			# KCIDB's maxLength of a log excerpt


def word(s):
    return WORD.sub("_", s) or "_"


def arch_of(variant):
    """The machine a variant's kernel is for: VARIANT@ARCH, or the
    default arch's x86_64."""
    return variant.partition("@")[2] or "x86_64"


def run_id(m):
    """The run, in ids: its kit commit, date and shard, hashed short."""
    text = "%s %s %s" % (m.run.get("kit", ""), m.date, m.run.get("shard", "-"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def build_status(cells, series):
    """A build's status from the cells judged on it (see the module's
    comment)."""
    if series.status == "skipped":
        return "SKIP", series.reason
    if any(c.keys and c.keys.get("kernel") for c in cells):
        return "PASS", ""
    why = next((c.reason for c in cells if c.reason), "")
    return ("FAIL" if any(w in why for w in BUILD_FAILED) else "MISS"), why


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
    for s in m.series:
        first_stacked = None
        for v in s.variants:
            stack = s.stacks.get(v, "-")
            cells = m.of("case", s.name, v) + m.of("corpus", s.name, v)
            source = next((c.keys.get("source") for c in cells if c.keys and c.keys.get("source")), "")
            kernel = next((c.keys.get("kernel") for c in cells if c.keys and c.keys.get("kernel")), "")
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
            status, why = build_status(cells, s)
            bid = "%s:%s-%s-%s" % (origin, s.name, word(v), kernel or "unbuilt-" + run)
            build = {"id": bid, "origin": origin, "checkout_id": co, "architecture": word(arch_of(v)),
                     "start_time": m.date, "status": status,
                     "comment": "the %s kernel of %s" % (v, s.name),
                     "misc": {"series": s.name, "variant": v, "kernel_key": kernel, "kit": m.run.get("kit", "")}}
            if why:
                build["log_excerpt"] = why[-EXCERPT:]
            builds.append(build)
            build_of[(s.name, v)] = bid
            if first_stacked is None and stack != "-":
                first_stacked = bid
        # A gate checks the stacks of its series: it goes on the first
        # build that carries one (or vanilla's, in a series with none).
        build_of[(s.name, "")] = first_stacked or (build_of[(s.name, s.variants[0])] if s.variants else None)
    for c in m.cells:
        bid = build_of.get((c.series, c.variant))
        if bid is None:
            continue
        t = {"id": "%s:%s.%s.%s.%s.%s" % (origin, run, c.series, word(c.variant) or "-", c.kind, c.name),
             "origin": origin, "build_id": bid, "path": test_path(c), "status": test_status(c),
             "start_time": m.date, "environment": {"comment": "QEMU (TCG) guest, %s" % arch_of(c.variant)},
             "misc": misc_of(c)}
        if c.kind == "fstests" and c.seconds:
            t["duration"] = float(c.seconds)
        text = excerpt(c)
        if text:
            t["log_excerpt"] = text
        tests.append(t)
    return {"version": {"major": MAJOR, "minor": MINOR}, "checkouts": checkouts, "builds": builds, "tests": tests}
