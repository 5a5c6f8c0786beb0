# SPDX-License-Identifier: GPL-2.0
"""What the maintainer's tools that turn the kit's stacks into mail share
(build/tools/export, build/tools/submission): a stack patch read as a
mail with where it comes from (common/upstream/provenance), a stack's
entries and the form of each that applies to a tree, the sender, and a
stack pushed by quilt on a scratch copy of a tree to compare with."""

import email.utils
import os
import re
import shutil
import subprocess
import textwrap
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

TAG = re.compile(r"^([A-Za-z][A-Za-z0-9-]*): (.*)$")
UPSTREAM_LINE = re.compile(r"^commit ([0-9a-f]{12,40}) upstream\.$")
ORIGINAL_LINE = re.compile(r"Original: *common/upstream/(\S+)")
NOTE = re.compile(r"^\[ ?(\d+\.\d+|kit): ")
KIT_PARAGRAPH = re.compile(r"^(Not upstream:|Original: )")
INVALID = re.compile(r"\.invalid>$")


class Bad(Exception):
    """Bad input or usage: one line, exit 2."""


class Provenance(NamedTuple):
    """Where a patch's original stands: STATE mainline (WHERE: the first
    release, SHA its commit), posted (WHERE: the posting) or kit."""
    state: str
    where: str
    sha: str


class Patch(NamedTuple):
    """A stack patch split as a mail: its header fields, its message (the
    subject's [PATCH] prefix gone), and the rest from "---" on."""
    name: str
    author: str
    date: str
    subject: str
    message: List[str]
    rest: str
    prov: Provenance
    backport: bool          # its diff differs from its original's in more than line numbers
    path: str               # the patch's file


# --- reading the kit -------------------------------------------------------

def read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()
    except OSError as e:
        raise Bad(f"{path}: {e.strerror}")


def provenance_table(kit: str) -> Dict[str, Tuple[str, str]]:
    """common/upstream/provenance: original file -> (state, where)."""
    path = os.path.join(kit, "common", "upstream", "provenance")
    table = {}
    for n, line in enumerate(read(path).splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) != 3 or f[1] not in ("mainline", "posted", "kit") or not f[2]:
            raise Bad(f"{path}:{n}: want FILE<TAB>mainline|posted|kit<TAB>WHERE")
        table[f[0]] = (f[1], f[2])
    return table


def original_commit(kit: str, original: str) -> str:
    """The commit an original of common/upstream is (its first line
    "commit SHA"), or ''."""
    first = read(os.path.join(kit, "common", "upstream", original)).split("\n", 1)[0]
    m = re.match(r"^commit ([0-9a-f]{40})$", first)
    return m.group(1) if m else ""


def original_of(kit: str, table: Dict[str, Tuple[str, str]], name: str, header: str) -> str:
    """The file in common/upstream of the original the patch NAME (its
    message HEADER) names; a patch that names none, or an original the
    provenance file lacks, is bad input."""
    original = ""
    for line in header.splitlines():
        m = UPSTREAM_LINE.match(line)
        if m:
            sha = m.group(1)
            hits = [o for o in table if original_commit(kit, o).startswith(sha) or sha[:12] in o]
            original = hits[0] if hits else ""
            break
        m = ORIGINAL_LINE.search(line)
        if m:
            original = m.group(1)
            break
    if not original:
        raise Bad(f"{name}: names no original (neither 'commit SHA upstream.' nor "
                  "'Original: common/upstream/FILE'); add one before exporting")
    if original not in table:
        raise Bad(f"{name}: its original {original} has no line in common/upstream/provenance")
    return original


def diff_lines(text: str) -> List[str]:
    """The diff of a patch as it changes files, line numbers aside: from
    its first "--- " line on, without git's "diff --git" and "index"
    lines, each hunk header reduced to "@@", and without a mail
    signature ("-- " and what follows)."""
    out: List[str] = []
    on = False
    for line in text.split("\n"):
        if line == "-- ":
            break
        if not on:
            on = line.startswith("--- ") and line != "--- "
            if not on:
                continue
        if line.startswith(("diff --git ", "index ")):
            continue
        out.append("@@" if line.startswith("@@ ") else line)
    while out and not out[-1]:
        out.pop()
    return out


def provenance_of(kit: str, table: Dict[str, Tuple[str, str]], original: str, header: str) -> Provenance:
    """Where a patch (its message HEADER) comes from, by ORIGINAL, the
    file in common/upstream it names (original_of)."""
    m = next((UPSTREAM_LINE.match(x) for x in header.splitlines() if UPSTREAM_LINE.match(x)), None)
    sha = m.group(1) if m else ""
    state, where = table[original]
    if state == "mainline":
        sha = original_commit(kit, original) or sha
        if not re.fullmatch(r"[0-9a-f]{40}", sha):
            raise Bad(f"common/upstream/{original}: mainline, but its first line is not 'commit SHA' (40 hex)")
    return Provenance(state, where, sha if state == "mainline" else "")


def parse_patch(kit: str, table: Dict[str, Tuple[str, str]], path: str) -> Patch:
    """A stack patch as a mail: From, Date, Subject, then the message up to
    the "---" line, then the rest (diffstat and diff)."""
    text = read(path)
    name = os.path.basename(path)
    head, sep, rest = text.partition("\n---\n")
    if not sep:
        raise Bad(f"{path}: no '---' line between the message and the diff")
    lines = head.split("\n")
    fields: Dict[str, str] = {}
    i = 0
    last = ""
    while i < len(lines) and lines[i]:
        m = TAG.match(lines[i])
        if last and lines[i][0] in " \t":
            fields[last] += " " + lines[i].strip()      # a folded field goes on
        elif not m:
            raise Bad(f"{path}:{i + 1}: not a mail header line: {lines[i][:60]}")
        else:
            last = m.group(1)
            fields[last] = m.group(2)
        i += 1
    for f in ("From", "Date", "Subject"):
        if not fields.get(f):
            raise Bad(f"{path}: no {f}: line in its header")
    message = lines[i + 1:]
    while message and not message[-1]:
        message.pop()
    subject = re.sub(r"^\[PATCH[^]]*\] *", "", fields["Subject"])
    original = original_of(kit, table, name, head)
    prov = provenance_of(kit, table, original, head)
    # (Changed: more than the line numbers differ from the original, the
    # diff itself; a note that explains offsets alone changes nothing.)
    backport = prov.state != "kit" and \
        diff_lines(read(os.path.join(kit, "common", "upstream", original))) != diff_lines("---\n" + rest)
    try:
        email.utils.parsedate_to_datetime(fields["Date"])
    except (TypeError, ValueError):
        raise Bad(f"{path}: Date: {fields['Date']}: not a mail date (e.g. Mon, 5 Oct 2020 01:14:54 -0700)")
    return Patch(name, fields["From"], fields["Date"], subject, message, "---\n" + rest, prov, backport, path)


def series_entries(kit: str, series_file: str) -> List[List[str]]:
    """The entries of SERIES_FILE through build/matrix (its one reader)."""
    r = subprocess.run([os.path.join(kit, "build", "matrix"), "series", series_file],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        err = r.stderr.strip().splitlines()
        raise Bad(re.sub(r"^matrix: ", "", err[0]) if err else f"{series_file}: cannot read it")
    return [line.split() for line in r.stdout.splitlines() if line.split()]


def release_of(kit: str, tree: str) -> str:
    """TREE's release, VERSION.PATCHLEVEL.SUBLEVEL, through build/matrix
    release (the one reader of a tree's Makefile)."""
    r = subprocess.run([os.path.join(kit, "build", "matrix"), "release", tree],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        err = r.stderr.strip().splitlines()
        raise Bad(re.sub(r"^matrix: ", "", err[0]) if err else f"{tree}/Makefile: no release")
    return r.stdout.strip()


# --- choosing forms on a scratch tree --------------------------------------

def touched(text: str) -> List[str]:
    """The files a patch's diff names (its +++ lines, a/ b/ taken off)."""
    out = []
    for line in text.splitlines():
        if line.startswith("+++ ") or line.startswith("--- "):
            p = line[4:].split("\t")[0].strip()
            if p == "/dev/null":
                continue
            p = p.split("/", 1)[1] if "/" in p else p
            if p.startswith("/") or ".." in p.split("/"):
                raise Bad(f"a patch names {p}, outside the tree")
            out.append(p)
    return out


def scratch_tree(tree: str, files: Sequence[str], dest: str) -> None:
    """Copy the tree's Makefile, fs/ext4 and every file of FILES to DEST."""
    for rel in ["Makefile"] + sorted(set(files)):
        src = os.path.join(tree, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copyfile(src, os.path.join(dest, rel))
    ext4 = os.path.join(tree, "fs", "ext4")
    if not os.path.isdir(ext4):
        raise Bad(f"{tree}: no fs/ext4 in it; give the kernel tree the stack is for")
    for f in sorted(os.listdir(ext4)):
        if os.path.isfile(os.path.join(ext4, f)):
            os.makedirs(os.path.join(dest, "fs", "ext4"), exist_ok=True)
            shutil.copyfile(os.path.join(ext4, f), os.path.join(dest, "fs", "ext4", f))


def patch_applies(dest: str, path: str, dry: bool) -> bool:
    """Whether patch(1) applies PATH to DEST at zero fuzz (and applies it
    unless DRY)."""
    argv = ["patch", "-p1", "-F0", "-f", "-s", "--no-backup-if-mismatch", "-r", "-", "-i", path]
    if dry:
        argv.append("--dry-run")
    return subprocess.run(argv, cwd=dest, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def choose_forms(kit: str, stack: str, entries: List[List[str]], tree: Optional[str], work: str) -> List[str]:
    """One patch an entry: without a tree, the series file's own (the
    plain quilt series, the form of the release matrix.yaml verifies);
    with a tree, the form the kit's own kernels take, build/lib.sh's
    resolve_series: the first that applies at zero fuzz after the entries
    before it (an entry without forms is its own patch, and applies or not
    when the caller pushes it).  A chosen form that does not apply (none of
    the entry's does) is bad input.  WORK is made if it is not there."""
    if not tree or all(len(e) == 1 for e in entries):
        return [e[0] for e in entries]
    os.makedirs(work, exist_ok=True)
    rc, out = run(["sh", "-c", 'top=$1; . "$top/build/lib.sh"; resolve_series "$2" "$3" "$4"', "sh",
                   kit, os.path.abspath(stack), "\n".join(" ".join(e) for e in entries), os.path.abspath(tree)], work)
    chosen = out.split()
    if rc != 0 or len(chosen) != len(entries):
        raise Bad(f"{stack}: cannot choose its forms for {tree}: {out.strip()[-200:]}")
    files = [f for e in entries for p in e for f in touched(read(os.path.join(stack, p)))]
    dest = os.path.join(work, "choose")
    scratch_tree(tree, files, dest)
    for e, form in zip(entries, chosen):
        if not patch_applies(dest, os.path.join(stack, form), False):
            raise Bad(f"{stack}: no form of '{' | '.join(e)}' applies to {tree} at zero fuzz "
                      "(build/tools/apply --dry-run says why)")
    return chosen


def sender(kit: str) -> str:
    """The sender, "Name <email>" from git config: the one who signs off."""
    def get(key: str) -> str:
        r = subprocess.run(["git", "-C", kit, "config", key], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True)
        return r.stdout.strip()
    name, mail = get("user.name"), get("user.email")
    if not name or not mail:
        raise Bad("git config user.name and user.email are not set: the export signs off as the sender")
    return f"{name} <{mail}>"


def run(argv: Sequence[str], cwd: str, env: Optional[Dict[str, str]] = None) -> Tuple[int, str]:
    r = subprocess.run(list(argv), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, errors="replace", env=env)
    return r.returncode, r.stdout


def clean_env() -> Dict[str, str]:
    """The environment for quilt, patch and git: none of the caller's
    QUILT_*, patch's or git's settings; a fixed committer."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("QUILT_", "GIT_")) and k not in ("POSIXLY_CORRECT", "VERSION_CONTROL",
                                                                  "PATCH_GET", "SIMPLE_BACKUP_SUFFIX")}
    env.update({"LC_ALL": "C", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent",
                "GIT_COMMITTER_NAME": "export check", "GIT_COMMITTER_EMAIL": "check@invalid",
                "GIT_AUTHOR_NAME": "export check", "GIT_AUTHOR_EMAIL": "check@invalid"})
    return env


def kit_result(stack: str, chosen: List[str], dest: str) -> Tuple[bool, str]:
    """The kit's own way, quilt push of the chosen forms, on DEST."""
    env = clean_env()
    pdir = os.path.join(os.path.dirname(dest), "kit-patches")
    os.makedirs(pdir, exist_ok=True)
    for p in chosen:
        os.makedirs(os.path.dirname(os.path.join(pdir, p)), exist_ok=True)
        shutil.copyfile(os.path.join(stack, p), os.path.join(pdir, p))
    with open(os.path.join(pdir, "series"), "w") as f:
        f.write("".join(p + "\n" for p in chosen))
    env.update({"QUILT_PATCHES": pdir, "QUILT_PC": ".pc"})
    rc, out = run(["quilt", "push", "-a", "--fuzz=0", "-q"], dest, env)
    return rc == 0, out


def differing(a: str, b: str) -> List[str]:
    """The files (relative) that differ between trees A and B, quilt's and
    git's own folders aside."""
    def listing(top: str) -> Dict[str, bytes]:
        out = {}
        for root, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d not in (".pc", ".git")]
            for f in files:
                p = os.path.join(root, f)
                with open(p, "rb") as fh:
                    out[os.path.relpath(p, top)] = fh.read()
        return out
    la, lb = listing(a), listing(b)
    return sorted(k for k in set(la) | set(lb) if la.get(k) != lb.get(k))


class Message(NamedTuple):
    """A stack patch's message as it leaves the kit: without the kit's own
    paragraphs ("Not upstream:", "Original: common/upstream/...", which
    the formats' provenance headers replace) and without a sign-off by an
    address that cannot receive mail; its [ X.Y: ] notes apart (NOTES,
    each as one line, "X.Y: text"), or kept in place (KEEP_NOTES).  The
    kit's own notes ("[ kit: ... ]": why the kit carries it, and where)
    never leave: they are in NOTES, never in LINES."""
    lines: List[str]
    notes: List[str]


def clean_message(message: Sequence[str], keep_notes: bool) -> Message:
    out: List[str] = []
    notes: List[str] = []
    lines = list(message)
    if lines and UPSTREAM_LINE.match(lines[0]):
        lines = lines[1:]
        while lines and not lines[0]:
            lines = lines[1:]
    i = 0
    while i < len(lines):
        line = lines[i]
        if NOTE.match(line):
            note = [line]
            while not note[-1].rstrip().endswith("]") and i + 1 < len(lines):
                i += 1
                note.append(lines[i])
            notes.append(" ".join(x.strip() for x in note).strip("[] "))
            if keep_notes and not notes[-1].startswith("kit:"):
                out += note
        elif KIT_PARAGRAPH.match(line):
            while i + 1 < len(lines) and lines[i + 1] and not KIT_PARAGRAPH.match(lines[i + 1]):
                i += 1
            while i + 1 < len(lines) and not lines[i + 1] and (not out or not out[-1]):
                i += 1
        elif line.startswith("Signed-off-by: ") and INVALID.search(line):
            pass
        else:
            out.append(line)
        i += 1
    while out and not out[-1]:
        out.pop()
    return Message(out, notes)


def with_tags(lines: Sequence[str], tags: Sequence[str]) -> List[str]:
    """LINES with TAGS added to its trailer block: after a blank line when
    its last paragraph is prose, not "Tag: value" lines and notes."""
    out = list(lines)
    last = []
    for line in reversed(out):
        if not line:
            break
        last.append(line)
    is_trailers = bool(last) and all(TAG.match(x) or x.startswith(("[", " ", "(")) for x in last)
    if tags and out and not is_trailers:
        out.append("")
    return out + [t for t in tags if t not in out]


def author_of(p: "Patch", who: str) -> str:
    """The author a patch leaves the kit with: the kit's own patches
    (an .invalid address, which no one can answer) are the sender's."""
    return who if INVALID.search(p.author) else p.author


# --- mail as git writes it --------------------------------------------------

# The scratch repositories' commits have fixed names and dates, so they are
# the same on every machine.
COMMITTER = {"GIT_COMMITTER_NAME": "ext4 backport kit", "GIT_COMMITTER_EMAIL": "submission@invalid",
             "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z"}


def git(args: Sequence[str], cwd: str, extra: dict = None) -> Tuple[int, str]:
    env = clean_env()
    env.update(COMMITTER)
    env.update({"GIT_AUTHOR_NAME": "ext4 backport kit", "GIT_AUTHOR_EMAIL": "submission@invalid",
                "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z"})
    env.update(extra or {})
    return run(["git"] + list(args), cwd, env)


def must(rc_out: Tuple[int, str], what: str) -> str:
    rc, out = rc_out
    if rc != 0:
        raise Bad(f"{what}: {' / '.join(out.strip().splitlines()[-3:])}")
    return out


def maintainers(tree: str, script: str, patches: Sequence[str]) -> Tuple[List[str], List[str]]:
    """To: (the maintainers) and Cc: (everyone else) that the tree's
    get_maintainer.pl (SCRIPT, a path in TREE) gives for PATCHES."""
    rc, out = run(["perl", script, "--no-git", "--no-git-fallback", "--rolestats"]
                  + list(patches), tree)
    if rc != 0:
        raise Bad(f"{tree}/{script} failed: {' / '.join(out.strip().splitlines()[-2:])}")
    to, cc = [], []
    for line in out.splitlines():
        # 'NAME <ADDR> (ROLE)'; a name may hold parentheses, a role not.
        m = re.match(r"^(.*\S)\s+\(([^()]*)\)$", line.strip())
        if "@" not in line:
            continue
        if not m or "@" not in m.group(1):
            raise Bad(f"{tree}/{script}: cannot read '{line.strip()}'")
        (to if m.group(2).startswith("maintainer") else cc).append(m.group(1))
    return to, cc


def wrap(text: str, width: int = 72) -> str:
    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False))


def send_dry(files: Sequence[str], who: str, cwd: str) -> Tuple[bool, str]:
    """git send-email --dry-run over FILES: whether every mail rendered."""
    rc, out = run(["git", "send-email", "--dry-run", "--confirm=never", "--no-validate", "--quiet",
                   "--from=" + who, "--smtp-server=/bin/false", "--suppress-cc=all"] + list(files), cwd)
    n = len(re.findall(r"^Dry-Sent ", out, re.M))
    return rc == 0 and n == len(files), out if rc else f"{n} of {len(files)} mails rendered"
