# SPDX-License-Identifier: GPL-2.0
"""The report's model: a results.json as every report shows it (Results:
its series and every Cell, the status of each decided once, the totals
counted once).  The views (views.py, kcidb.py) format cells; none
decides a status."""
import dataclasses

# The one model of a results.json: every cell with its final status,
# decided here once, and the totals, counted once.  The table, junit.xml,
# results.ktap and matrix.html (views.py) are views of it: each picks the cells
# it shows by kind, series and variant and formats them; none reads a
# record of results.json, so none can decide a status of its own.

LEAK = "leak: as expected, a known weakness: a file read back metadata"


@dataclasses.dataclass(frozen=True)
class Cell:
    """One verdict of the run, as every report shows it: a case on a
    kernel (kind "case"), an image of the corpus on a kernel ("corpus"),
    a build gate of a series ("gate"), or an fstests test on a variant
    ("fstests"); a series skipped has a SKIP cell for each case and image
    of each variant.  Frozen: a view formats it, never decides it.
      status    PASS, FAIL, ERROR, TIMEOUT or SKIP
      ok        as expected (PASS or SKIP); a cell not ok fails the run
      leak      a file read back metadata (a case)
      weakness  what a cell as expected, yet no plain pass, says in every
                report (LEAK), or ""
      look      how it is shown: ok, refused (refused as expected), leak,
                unexpected or skip
      name      the case, image, gate or test; variant: "" for a gate
      reason, log, kernel, keys   as recorded ("" for a gate's kernel:
                its detail has the one it booted)
      expected, actual    a case's; verdict, vanilla: a corpus image's
                verdicts, or judge-fstests' word and vanilla's result;
                explained (corpus), result, seconds, fixed (fstests)
      detail    a gate's findings (config, sparse, variants, patches,
                boots, kernel)"""
    kind: str
    series: str
    variant: str
    name: str
    status: str
    ok: bool
    leak: bool
    weakness: str
    look: str
    reason: str = ""
    log: str = ""
    kernel: str = ""
    keys: dict = None
    expected: str = ""
    actual: str = ""
    diff: str = ""
    verdict: str = ""
    vanilla: str = ""
    explained: str = ""
    result: str = ""
    seconds: float = 0
    fixed: bool = False
    detail: dict = None


def cell(kind, series, variant, name, status, leak=False, refused=False, **kw):
    """A Cell, its status final: what it means (ok, weakness, look) is
    decided here and nowhere else."""
    ok = status in ("PASS", "SKIP")
    leak = bool(leak)
    weak = LEAK if status == "PASS" and leak else ""
    look = ("skip" if status == "SKIP" else "unexpected" if not ok else "leak" if leak else
            "refused" if refused else "ok")
    return Cell(kind, series, variant, name, status, ok, leak, weak, look, **kw)


@dataclasses.dataclass(frozen=True)
class Series:
    """A series of the run: status run or skipped (then reason), or
    elsewhere (another shard's, counted nowhere)."""
    name: str
    status: str
    variants: list
    stacks: dict
    kernel: str = ""
    verified: str = "-"
    reason: str = ""
    shard: str = ""
    fstests_run: dict = None


class Results:
    """A results.json as the reports show it: its series (run or skipped;
    elsewhere those of other shards) and every cell, the totals counted
    from them once."""

    def __init__(self, d):
        self.date, self.run, self.cases = d["date"], d["run"], d["cases"]
        self.corpus = d.get("corpus")
        self.images = self.corpus["images"] if self.corpus else []
        self.series, self.elsewhere, self.cells = [], [], []
        self._of, self._at = {}, {}
        for s in d["series"]:
            ser = Series(s["name"], s["status"], s["variants"], s.get("stacks", {}), s.get("kernel", ""),
                         s.get("verified", "-"), s.get("reason", ""), s.get("shard", ""), s.get("fstests_run"))
            if ser.status == "elsewhere":
                self.elsewhere.append(ser)
                continue
            self.series.append(ser)
            if ser.status == "skipped":
                for v in ser.variants:
                    for c in self.cases:
                        self._add(cell("case", ser.name, v, c, "SKIP", reason=ser.reason))
                    for i in self.images:
                        self._add(cell("corpus", ser.name, v, i, "SKIP", reason=ser.reason))
                continue
            for c in s["cells"]:
                self._add(cell("case", ser.name, c["variant"], c["case"], c["status"], c["leaks"],
                               c["expected"].startswith("refused"), reason=c["reason"], log=c["log"],
                               kernel=c["kernel"], keys=c.get("keys", {}), expected=c["expected"],
                               actual=c["actual"], diff=c["diff"]))
            for r in s.get("corpus", []):
                self._add(cell("corpus", ser.name, r["variant"], r["image"], r["status"],
                               refused=r["verdict"].startswith("refused"), reason=r["reason"], log=r["log"],
                               kernel=r["kernel"], keys=r.get("keys", {}), diff=r["diff"], verdict=r["verdict"],
                               vanilla=r["vanilla"], explained=r["explained"]))
            for g in s.get("gates", []):
                self._add(cell("gate", ser.name, "", g["gate"], g["status"], reason=g["reason"], log=g["log"],
                               detail={k: g[k] for k in g if k not in ("gate", "status", "reason", "log")}))
            for r in s.get("fstests", []):
                self._add(cell("fstests", ser.name, r["variant"], r["test"], r["status"], reason=r["reason"],
                               log=r["log"], kernel=r["kernel"], verdict=r["verdict"], vanilla=r["vanilla"],
                               result=r["result"], seconds=r["seconds"], fixed=r.get("fixed", False)))
        self.totals = {"passed": sum(c.status == "PASS" for c in self.cells),
                       "failed": sum(not c.ok for c in self.cells),
                       "skipped": sum(c.status == "SKIP" for c in self.cells)}

    def _add(self, c):
        self.cells.append(c)
        self._of.setdefault((c.kind, c.series, None), []).append(c)
        self._of.setdefault((c.kind, c.series, c.variant), []).append(c)
        self._at[(c.kind, c.series, c.variant, c.name)] = c

    def of(self, kind, series, variant=None):
        """The cells of a kind of a series (of one variant), as recorded."""
        return self._of.get((kind, series, variant), [])

    def at(self, kind, series, variant, name):
        """One cell, or None when the run has no such cell."""
        return self._at.get((kind, series, variant, name))

    def variants(self):
        """Every variant of the series shown, in the order first met."""
        seen = []
        for s in self.series:
            seen += [v for v in s.variants if v not in seen]
        return seen


def totals_line(t):
    return "%d passed, %d failed, %d skipped" % (t["passed"], t["failed"], t["skipped"])
