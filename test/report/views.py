# SPDX-License-Identifier: GPL-2.0
"""The report's views of the model (model.Results): the text table, the
72-column summary of a cover letter, JUnit XML, KTAP and the HTML page.
Each picks the cells it shows and formats them; none decides a status.
(kcidb.py is one more view, KernelCI's.)"""
import html
import os
import textwrap
import xml.etree.ElementTree as ET

from model import totals_line

def gates_line(gates):
    """'distro-config ok: W=1 +0 (vanilla 0), sparse +0 (vanilla 1); checkpatch 0 errors, 15 warnings'."""
    parts = []
    for g in gates:
        word = {"PASS": "ok", "FAIL": "FAIL", "ERROR": "ERROR", "SKIP": "SKIP"}[g.status]
        d = g.detail
        if g.status == "ERROR" and "variants" not in d and "patches" not in d and "boots" not in d:
            parts.append("%s ERROR" % g.name)
        elif g.status == "SKIP":
            parts.append("%s SKIP" % g.name)
        elif g.name == "shipped":
            parts.append("shipped %s %s: %s" % (d["kernel"], word, ", ".join(
                "%s %d/%d (%s ext4.ko)" % (b["variant"], b["passed"], b["cases"], b["module"]) for b in d["boots"])))
        elif g.name == "checkpatch":
            ps = d["patches"]
            parts.append("checkpatch %d errors%s, %d warnings" % (
                sum(q["errors"] for q in ps), " (%d new)" % sum(q["new"] for q in ps) if g.status != "PASS" else "",
                sum(q["warnings"] for q in ps)))
        else:
            vs = d["variants"]
            parts.append("%s %s: W=1 +%d (vanilla %d), %s" % (
                g.name, word, sum(v["gcc_new"] for v in vs), vs[0]["gcc"], sparse_words(g)))
    return "; ".join(parts)


def sparse_refused(g):
    """The tree's refusal of sparse (a gate's detail says so), or ""."""
    sp = (g.detail or {}).get("sparse", "")
    return sp[len("refused:"):] if sp.startswith("refused:") else ""


def sparse_words(g):
    vs = g.detail["variants"]
    return ("sparse not run (%s refused by the tree)" % sparse_refused(g) if sparse_refused(g) else
            "sparse +%d (vanilla %d)" % (sum(v["sparse_new"] for v in vs), vs[0]["sparse"]))


def fstests_line(recs, info, v):
    """'patched: 16 pass, 1 fixed, 1 skipped; 612 s in tests' for a variant."""
    rs = [r for r in recs if r.variant == v]
    n = {w: sum(r.status == w for r in rs) for w in ("PASS", "FAIL", "ERROR", "SKIP")}
    fixed = sum(r.fixed for r in rs)
    base = sum(r.verdict == "BASELINE" for r in rs)
    bits = ["%d pass" % (n["PASS"] - fixed)] + (["%d fixed" % fixed] if fixed else []) + \
        (["%d FAIL" % n["FAIL"]] if n["FAIL"] else []) + (["%d ERROR" % n["ERROR"]] if n["ERROR"] else []) + \
        (["%d baseline" % base] if base else []) + (["%d skipped" % (n["SKIP"] - base)] if n["SKIP"] - base else [])
    secs, wall = info["seconds"], info.get("wall", {})
    return "%s: %s%s%s" % (v, ", ".join(bits), "; %d s in tests (vanilla %d s)" % (secs[v], secs["vanilla"])
                           if v in secs and "vanilla" in secs else "",
                           ", %d s a boot (vanilla %d s)" % (wall[v], wall["vanilla"]) if v in wall and "vanilla" in wall else "")


def corpus_line(recs, baseline):
    """'206: 166 mount, 40 refused, 0 differ, 0 oops' for one kernel."""
    n = len(recs)
    mounted = sum(r.verdict.startswith("mounted") for r in recs)
    refused = sum(r.verdict.startswith("refused") for r in recs)
    differ = sum(r.status == "FAIL" for r in recs)
    oops = sum(r.status == "ERROR" and r.reason.startswith("kernel trouble") for r in recs)
    other = sum(r.status in ("ERROR", "TIMEOUT") for r in recs) - oops
    explained = sum(r.status == "PASS" and bool(r.explained) for r in recs)
    s = "corpus %d: %d mount, %d refused" % (n, mounted, refused)
    s += ", baseline" if baseline else ", %d differ" % differ
    if explained:
        s += " (%d explained)" % explained
    s += ", %d oops" % oops
    if other:
        s += ", %d no verdict" % other
    return s


KINDS = ("case", "corpus", "gate", "fstests")
# How a list of cells not as expected names them: one, and more than one.
ONE = {"case": "%s", "corpus": "corpus %s", "gate": "%s", "fstests": "fstests %s"}
MANY = {"case": "cases", "corpus": "corpus images", "fstests": "fstests tests"}


def table(m):
    V = m.variants()
    out = []

    def word(c):
        if c is None:
            return "-"
        if c.status == "PASS":
            return "%-5s %s" % ("leak" if c.look == "leak" else "ok", c.actual)
        if c.status == "FAIL":
            return "%-5s %s (want %s)" % ("FAIL", c.actual, c.expected)
        return "%-5s %s" % (c.status, c.actual)

    # A block of columns an arch (VARIANT@ARCH: matrix.yaml's arches), the
    # default arch's first: three columns a block read at a glance, twelve
    # do not.
    groups = {}
    for v in V:
        groups.setdefault(v.partition("@")[2], []).append(v)
    groups = list(groups.items())
    run = [s for s in m.series if s.status == "run"]
    # (The case column as wide as its longest name: a twin's is long.)
    cw = max([30] + [len(c) for c in m.cases])
    for g, (at, GV) in enumerate(groups):
        if g:
            out.append("")
        out.append(("%-6s %-*s" % ("series", cw, "case") + "".join(" %-34s" % v for v in GV)).rstrip())
        for n, s in enumerate(run):
            if n:
                out.append("")
            for i, case in enumerate(m.cases):
                line = "%-6s %-*s" % (s.name if i == 0 else "", cw, case)
                line += "".join(" %-34s" % word(m.at("case", s.name, v, case)) for v in GV)
                out.append(line.rstrip())
    skipped = [s for s in m.series if s.status == "skipped"]
    for i, s in enumerate(skipped):
        if run or i:
            out.append("")
        out.append("%-6s %-*s SKIP  %s" % (s.name, cw, "(every case)", s.reason))
    for i, s in enumerate(m.elsewhere):
        if (run or skipped) and not i:
            out.append("")
        out.append("%-6s %-*s shard %s's, not this run's (make report FROM= merges the shards)"
                   % (s.name, cw, "(every case)", s.shard))
    if m.corpus and run:
        out.append("")
        out.append("corpus %s: %d images, each kernel's verdicts against its vanilla's:"
                   % (m.corpus["name"], len(m.images)))
        vw = max([12] + [len(v) for s in run for v in s.variants])
        for s in run:
            for v in s.variants:
                out.append("  %-6s %-*s %s" % (s.name, vw, v, corpus_line(m.of("corpus", s.name, v), v.partition("@")[0] == "vanilla")))
        told = [r for s in run for r in m.of("corpus", s.name) if r.status == "PASS" and r.explained]
        if told:
            out.append("differs from vanilla, as its expectation file (test/corpus/) says:")
            for r in told:
                out.append("  %s %s %s: %s (vanilla: %s): %s" % (r.series, r.variant, r.name,
                                                                  r.verdict, r.vanilla, r.explained))
    if run:
        out.append("")
        out.append("kernel tested, and the release its stack was verified on:")
        for s in run:
            vf = s.verified
            note = ("no release recorded" if vf == "-" else vf if vf == s.kernel
                    else vf + " (another sublevel: the stack applied at zero fuzz)")
            out.append("  %-6s %-12s %s" % (s.name, s.kernel, note))
    gated = [s for s in run if m.of("gate", s.name)]
    if gated:
        out.append("")
        out.append("build gates: fs/ext4/ with W=1 and sparse, +N findings vanilla's build has not; checkpatch --strict:")
        for s in gated:
            out.append("  %-6s gates: %s" % (s.name, gates_line(m.of("gate", s.name))))
            for g in m.of("gate", s.name):
                if g.status == "SKIP":
                    out.append("         %s SKIP: %s" % (g.name, g.reason))
    tested = [s for s in run if m.of("fstests", s.name)]
    if tested:
        out.append("")
        out.append("fstests: each test on vanilla and each variant; the rule: no new failure against vanilla:")
        for s in tested:
            recs, info = m.of("fstests", s.name), s.fstests_run
            vs = info["variants"][1:]
            out.append("  %-6s %s" % (s.name, "; ".join(fstests_line(recs, info, v) for v in vs)))
            if all(r.status == "SKIP" and r.verdict == "no result" for r in recs):
                out.append("         SKIP: %s" % recs[0].reason)
                continue
            out.append(("         %-24s %-9s" % ("", "vanilla") + "".join(" %-16s" % v for v in vs)).rstrip())
            for t in [r.name for r in m.of("fstests", s.name, vs[0])]:
                rs = [m.at("fstests", s.name, v, t) for v in vs]
                van = next((r.vanilla for r in rs if r and r.vanilla), "-")
                out.append(("         %-24s %-9s" % (t, van) + "".join(" %-16s" % (
                    "-" if r is None else r.status if r.status == "ERROR" else
                    r.result + (" fixed" if r.fixed else " FAIL" if r.status == "FAIL" else
                                " baseline" if r.verdict == "BASELINE" else "")) for r in rs)).rstrip())
    weak = sum(1 for s in run for c in m.of("case", s.name) if c.weakness)
    if weak:
        out.append("")
        out.append("leak: as expected, and a file read back metadata: a known weakness of that")
        out.append("variant (%d cell%s), not a plain pass" % (weak, "" if weak == 1 else "s"))
    bad = [c for kind in KINDS for s in run for c in m.of(kind, s.name) if not c.ok]
    if bad:
        out.append("")
        out.append("not as expected:")
        # Alike cells of one series and variant (a kernel that did not
        # build) read as one line, naming how many; each gate is a line.
        groups = []
        for c in bad:
            alike = (c.series, c.variant, c.status, c.reason) + (() if c.kind == "fstests" else (c.kernel, c.log))
            if groups and c.kind != "gate" and groups[-1][0] == (c.kind, alike):
                groups[-1][1].append(c)
            else:
                groups.append(((c.kind, alike), [c]))
        for (kind, _), cs in groups:
            c = cs[0]
            which = ONE[kind] % c.name if len(cs) == 1 else "%d %s" % (len(cs), MANY[kind])
            out.append("  %s %s %s: %s: %s%s (log: %s)" % (
                c.series, c.variant or "gate", which, c.status, c.reason,
                "; kernel: " + c.kernel if c.kernel else "", c.log or "-"))
    return out


def summary(m, width=72):
    """The run in plain text no wider than WIDTH, for a cover letter: a
    line a series (its kernel, then for each variant its image cases as
    expected of all, and its known weaknesses), the corpus of each
    variant, the gates and fstests, the totals.  A view: it counts the
    cells' looks, it decides nothing."""
    run = [s for s in m.series if s.status == "run"]
    V = m.variants()
    out = [("%-6s %-10s" % ("series", "kernel") + "".join(" %-13s" % v for v in V)).rstrip()]

    def cases(s, v):
        cs = m.of("case", s.name, v)
        if not cs:
            return "-"
        ok = sum(c.ok for c in cs)
        leak = sum(c.look == "leak" for c in cs)
        return "%d/%d%s" % (ok, len(cs), " %d leak" % leak if leak else "")

    def corpus(s, v):
        cs = m.of("corpus", s.name, v)
        return "%d/%d" % (sum(c.ok for c in cs), len(cs)) if cs else "-"

    for s in run:
        out.append(("%-6s %-10s" % (s.name, s.kernel) + "".join(" %-13s" % cases(s, v) for v in V)).rstrip())
        if m.corpus:
            out.append(("%-6s %-10s" % ("", "corpus") + "".join(" %-13s" % corpus(s, v) for v in V)).rstrip())
    for s in m.series:
        if s.status == "skipped":
            out += textwrap.wrap("%-6s not run: %s" % (s.name, s.reason), width, subsequent_indent=" " * 7)
    notes = []
    if m.corpus:
        notes.append("cases: the image cases as expected, of %d; corpus: the %d images of %s whose "
                     "verdict is vanilla's or explained" % (len(m.cases), len(m.images), m.corpus["name"]))
    else:
        notes.append("cases: the image cases as expected, of %d" % len(m.cases))
    if any(c.look == "leak" for s in run for c in m.of("case", s.name)):
        notes.append("leak: as expected, and a file read back metadata (a known weakness of that variant)")
    for s in run:
        if m.of("gate", s.name):
            notes.append("%s gates: %s" % (s.name, gates_line(m.of("gate", s.name))))
        if m.of("fstests", s.name):
            info = s.fstests_run
            notes.append("%s fstests: %s" % (s.name, "; ".join(
                fstests_line(m.of("fstests", s.name), info, v) for v in info["variants"][1:])))
    notes.append("totals: " + totals_line(m.totals))
    for n in notes:
        out += textwrap.wrap(n, width, subsequent_indent="  ")
    return out


def junit_class(c):
    return {"case": "%s.%s", "corpus": "%s.%s.corpus", "gate": "%s.gates%.0s",
            "fstests": "%s.%s.fstests"}[c.kind] % (c.series, c.variant)


def junit_text(c):
    """A cell's JUnit message and text."""
    if c.kind == "case":
        return ("%s: expected %s, got %s: %s" % (c.status, c.expected, c.actual, c.reason),
                "\n".join(x for x in (c.diff, "kernel: " + c.kernel if c.kernel else "", "log: " + (c.log or "-")) if x))
    if c.kind == "corpus":
        return ("%s: %s (vanilla: %s): %s" % (c.status, c.verdict, c.vanilla or "-", c.reason),
                "\n".join(x for x in (c.diff, "kernel: " + c.kernel if c.kernel else "", "log: " + (c.log or "-")) if x))
    if c.kind == "fstests":
        return ("%s: %s" % (c.status, c.reason), "vanilla: %s; %s: %s\nkernel: %s\nlog: %s" % (
            c.vanilla or "-", c.variant, c.result or "-", c.kernel, c.log or "-"))
    d = c.detail
    if d.get("patches"):
        text = "\n".join("%s (%s): %d errors (%d new), %d warnings, %d checks%s" % (
            q["patch"], ",".join(q["stacks"]), q["errors"], q["new"], q["warnings"], q["checks"],
            "".join("\n  " + m for m in q["messages"])) for q in d["patches"])
    else:
        text = "\n".join("%s: %s, W=1 %d (+%d), sparse %d (+%d), %ds" % (
            v["variant"], v["status"], v["gcc"], v["gcc_new"], v["sparse"], v["sparse_new"],
            v["seconds"]) for v in d.get("variants", []))
        if sparse_refused(c):
            text += "\nsparse not run: %s refused by the tree" % sparse_refused(c)
    if d.get("boots"):
        text = "\n".join("%s: %d of %d cases as expected, %s ext4.ko on %s" % (
            b["variant"], b["passed"], b["cases"], b["module"], d["kernel"]) for b in d["boots"])
    return "%s: %s" % (c.status, c.reason), text + "\nlog: " + c.log


def junit_suite(root, name, cells):
    ts = ET.SubElement(root, "testsuite", name=name, tests=str(len(cells)),
                       failures=str(sum(c.status == "FAIL" for c in cells)),
                       errors=str(sum(c.status in ("ERROR", "TIMEOUT") for c in cells)),
                       skipped=str(sum(c.status == "SKIP" for c in cells)))
    for c in cells:
        tc = ET.SubElement(ts, "testcase", classname=junit_class(c), name=c.name,
                           **({"time": "%g" % c.seconds} if c.kind == "fstests" else {}))
        if c.weakness:
            # Passed, never plainly: a property a reader can count, and
            # the words GitLab shows beside the test.
            props = ET.SubElement(tc, "properties")
            ET.SubElement(props, "property", name="known-weakness", value="leak")
            ET.SubElement(tc, "system-out").text = "%s (log: %s)" % (c.weakness, c.log or "-")
        if c.status == "SKIP":
            ET.SubElement(tc, "skipped", message=c.reason)
            continue
        message, text = junit_text(c)
        if c.status != "PASS":
            el = ET.SubElement(tc, "failure" if c.status == "FAIL" else "error", type=c.status, message=message)
            el.text = text
        elif c.kind in ("gate", "fstests"):
            ET.SubElement(tc, "system-out").text = ("fixed: " if c.fixed else "") + text


def junit(m, path):
    root = ET.Element("testsuites", name="ext4-backport-kit", timestamp=m.date)
    for s in m.series:
        for v in s.variants:
            junit_suite(root, "%s/%s" % (s.name, v), m.of("case", s.name, v))
    for s in m.series if m.images else []:
        for v in s.variants:
            junit_suite(root, "%s/%s/corpus" % (s.name, v), m.of("corpus", s.name, v))
    for kind in ("gate", "fstests"):
        for s in m.series:
            if m.of(kind, s.name):
                junit_suite(root, "%s/%s" % (s.name, {"gate": "gates"}.get(kind, kind)), m.of(kind, s.name))
    ET.ElementTree(root).write(path + ".tmp", encoding="UTF-8", xml_declaration=True)
    os.replace(path + ".tmp", path)


def ktap_lines(i, c):
    """A cell's test line, after its diagnostics."""
    if c.status == "SKIP":
        return ["    ok %d %s # SKIP %s" % (i, c.name, c.reason)]
    if not c.ok:
        return ["    # %s" % c.reason, "    not ok %d %s # %s" % (i, c.name, c.status)]
    notes = ["%s: %s" % (c.name, c.weakness)] if c.weakness else []
    if sparse_refused(c):
        notes.append("%s: sparse not run (%s refused by the tree)" % (c.name, sparse_refused(c)))
    if c.fixed:
        notes.append("%s: fixed: %s on vanilla" % (c.name, c.vanilla))
    return ["    # " + n for n in notes] + ["    ok %d %s" % (i, c.name)]


def ktap(m, path):
    """KTAP v1, a subtest per series and variant: a cell not as expected is
    'not ok', so any KTAP parser counts it."""
    subtests = [("%s.%s" % (s.name, v), s, m.of("case", s.name, v)) for s in m.series for v in s.variants]
    subtests += [("%s.%s.corpus" % (s.name, v), s, m.of("corpus", s.name, v))
                 for s in (m.series if m.images else []) for v in s.variants]
    subtests += [("%s.gates" % s.name, s, m.of("gate", s.name)) for s in m.series if m.of("gate", s.name)]
    subtests += [("%s.%s.fstests" % (s.name, v), s, m.of("fstests", s.name, v))
                 for s in m.series if m.of("fstests", s.name) for v in s.fstests_run["variants"][1:]]
    out = ["KTAP version 1", "1..%d" % len(subtests)]
    for n, (name, s, cells) in enumerate(subtests, 1):
        out.append("    KTAP version 1")
        out.append("    # Subtest: %s" % name)
        if s.status == "skipped":
            out.append("    1..0")
            out.append("ok %d %s # SKIP %s" % (n, name, s.reason))
            continue
        out.append("    1..%d" % len(cells))
        for i, c in enumerate(cells, 1):
            out += ktap_lines(i, c)
        out.append("%s %d %s" % ("ok" if all(c.ok for c in cells) else "not ok", n, name))
    t = m.totals
    out.append("# Totals: pass:%d fail:%d skip:%d" % (t["passed"], t["failed"], t["skipped"]))
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(path + ".tmp", path)


CSS = """body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}
td,th{border:1px solid #999;padding:.25em .45em;font-size:90%}
td.cell a{color:inherit;text-decoration:none}.ok-mount{background:#bfe8bf}
.ok-refused{background:#bcd4f0}.ok-leak{background:#f7c97f}.unexpected{background:#f2a3a3;font-weight:bold}
.skip{background:#ddd;color:#555}th.v{font-weight:normal}"""
# A cell's look, as the page's class.
CLASS = {"ok": "ok-mount", "refused": "ok-refused", "leak": "ok-leak", "unexpected": "unexpected", "skip": "skip"}


def link(log, base):
    """A log's address from the page in BASE: paths in results.json are
    absolute or relative to the checkout make ran in (the reports are
    rendered there)."""
    return os.path.relpath(os.path.abspath(log), base) if log else ""


def page_cell(c, title, text, base):
    """A cell of the page's grids: its status for the page's counts."""
    x = html.escape
    if c is None:
        return '<td class="none">-</td>'
    if c.look == "skip":
        return '<td class="cell skip" data-status="SKIP">skip</td>'
    return '<td class="cell %s" data-status="%s" title="%s"><a href="%s">%s</a></td>' % (
        CLASS[c.look], c.status, x(title), x(link(c.log or "", base)), x(text))


def page(m, path):
    x = html.escape
    base = os.path.dirname(os.path.abspath(path))
    run = m.run
    h = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8"><title>ext4 backport kit: matrix</title>',
         "<style>%s</style></head><body>" % CSS,
         "<h1>ext4 backport kit: verdict matrix</h1>",
         '<p>Run %s of kit <code>%s</code>, image set <code>%s</code>%s. <span id="counts"></span></p>' % (
             x(m.date), x(run["kit"]), x(run["images"]),
             ", shard " + x(run["shard"]) if run["shard"] != "-" else
             ", merged from %d folders" % len(run["from"]) if run.get("from") else ""),
         '<table id="kernels"><tr><th>series</th><th>kernel</th><th>stack verified on</th>'
         "<th>stacks</th><th>status</th></tr>"]
    for s in m.series:
        stacks = " ".join("%s <code>%s</code>" % (x(v), x(hh)) for v, hh in s.stacks.items())
        if s.status == "run":
            h.append("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>run</td></tr>"
                     % (x(s.name), x(s.kernel), x(s.verified), stacks or "-"))
        else:
            h.append("<tr><td>%s</td><td>-</td><td>-</td><td>-</td><td>skipped: %s</td></tr>"
                     % (x(s.name), x(s.reason)))
    for s in m.elsewhere:
        h.append("<tr><td>%s</td><td>-</td><td>%s</td><td>-</td><td>shard %s's, not this run's</td></tr>"
                 % (x(s.name), x(s.verified), x(s.shard)))
    h.append('</table>\n<p>Legend: <span class="ok-mount">mounts as expected</span> '
             '<span class="ok-refused">refused as expected</span> '
             '<span class="ok-leak">as expected, but a file read back metadata (a known weakness)</span> '
             '<span class="unexpected">not as expected</span> '
             '<span class="skip">skipped</span></p>')
    head = ("".join('<th colspan="%d">%s</th>' % (len(s.variants), x(s.name)) for s in m.series) + "</tr><tr>",
            "".join('<th class="v">%s</th>' % x(v) for s in m.series for v in s.variants) + "</tr>")
    h.append('<table id="grid"><tr><th rowspan="2">case</th>' + head[0])
    h.append(head[1])
    for case in m.cases:
        row = ["<tr><th>%s</th>" % x(case)]
        for s in m.series:
            for v in s.variants:
                c = m.at("case", s.name, v, case)
                row.append(page_cell(c, c and "expected: %s; %s" % (c.expected, c.reason or c.kernel),
                                     c and ("" if c.status == "PASS" else c.status + ": ") + c.actual, base))
        h.append("".join(row) + "</tr>")
    h.append("</table>")
    if m.images:
        h.append("<h2>corpus %s: %d images, each kernel against its vanilla</h2>" % (x(m.corpus["name"]), len(m.images)))
        h.append('<table id="corpus-lines">' + "".join(
            "<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (x(s.name), x(v), x(
                corpus_line(m.of("corpus", s.name, v), v.partition("@")[0] == "vanilla")))
            for s in m.series if s.status == "run" for v in s.variants) + "</table>")
        h.append('<table id="corpus"><tr><th rowspan="2">image</th>' + head[0])
        h.append(head[1])
        for i in m.images:
            row = ["<tr><th>%s</th>" % x(i)]
            for s in m.series:
                for v in s.variants:
                    r = m.at("corpus", s.name, v, i)
                    row.append(page_cell(r, r and "vanilla: %s; %s" % (r.vanilla or "-", r.reason or r.explained or r.kernel),
                                         r and ("" if r.status == "PASS" else r.status + ": ") + (
                                             "ok" if r.status == "PASS" and r.verdict.startswith("mounted") else r.verdict),
                                         base))
            h.append("".join(row) + "</tr>")
        h.append("</table>")
    gated = [s for s in m.series if m.of("gate", s.name)]
    if gated:
        h.append("<h2>build gates: fs/ext4/ with W=1 and sparse against vanilla's build; checkpatch --strict</h2>")
        h.append('<table id="gates"><tr><th>series</th><th>gate</th><th>verdict</th><th>detail</th></tr>')
        for s in gated:
            for g in m.of("gate", s.name):
                detail = gates_line([g]) + ("; " + g.reason if g.reason else "")
                if g.look == "skip":
                    h.append('<tr><td>%s</td><td>%s</td><td class="cell skip" data-status="SKIP">skip</td><td>%s</td></tr>'
                             % (x(s.name), x(g.name), x(detail)))
                    continue
                h.append('<tr><td>%s</td><td>%s</td><td class="cell %s" data-status="%s"><a href="%s">%s</a></td><td>%s</td></tr>'
                         % (x(s.name), x(g.name), CLASS[g.look], g.status, x(link(g.log, base)), g.status, x(detail)))
        h.append("</table>")
    tested = [s for s in m.series if m.of("fstests", s.name)]
    if tested:
        h.append("<h2>fstests: each test on vanilla and each variant; no new failure against vanilla</h2>")
    for s in tested:
        info = s.fstests_run
        vs = info["variants"][1:]
        h.append('<table class="fstests" id="fstests-%s"><tr><th>%s</th><th>vanilla</th>%s</tr>' % (
            x(s.name), x(s.name), "".join("<th>%s</th>" % x(v) for v in vs)))
        for t in [r.name for r in m.of("fstests", s.name, vs[0])]:
            rs = [m.at("fstests", s.name, v, t) for v in vs]
            van = next((r.vanilla for r in rs if r and r.vanilla), "-")
            row = ["<tr><th>%s</th><td>%s</td>" % (x(t), x(van))]
            for r in rs:
                if r is None:
                    row.append('<td class="none">-</td>')
                    continue
                text = r.status if r.status == "ERROR" else r.result + (
                    " (fixed)" if r.fixed else " (baseline)" if r.verdict == "BASELINE" else "")
                if r.look == "skip":
                    row.append('<td class="cell skip" data-status="SKIP" title="%s">%s</td>' % (x(r.reason), x(text or "skip")))
                    continue
                row.append('<td class="cell %s" data-status="%s" title="%s"><a href="%s">%s</a></td>' % (
                    CLASS[r.look], r.status, x(r.reason or "%.0f s" % r.seconds), x(link(r.log or info["log"], base)), x(text)))
            h.append("".join(row) + "</tr>")
        for label, secs in (("seconds in tests", info["seconds"]), ("seconds a boot", info.get("wall", {}))):
            if secs:
                h.append("<tr><th>%s</th>%s</tr>" % (label, "".join("<td>%d</td>" % secs.get(v, 0) for v in info["variants"])))
        h.append("</table>")
    h.append('<script>(function(){var c={PASS:0,FAIL:0,SKIP:0},t=document.querySelectorAll("td.cell");'
             't.forEach(function(e){var s=e.dataset.status;if(s==="PASS")c.PASS++;else if(s==="SKIP")c.SKIP++;else c.FAIL++;});'
             'document.getElementById("counts").textContent=c.PASS+" passed, "+c.FAIL+" failed, "+c.SKIP+" skipped";})();</script>')
    h.append("</body></html>")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(h) + "\n")
    os.replace(path + ".tmp", path)
