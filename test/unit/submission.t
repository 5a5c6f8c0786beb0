#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/tools/submission on a fixture kit and tree, with stand-ins for the
# tree's get_maintainer.pl and checkpatch.pl: the v2 series (a posted fix
# with its author, the kit's own patches by the sender) and the RFC one
# on top, as git format-patch writes them; cover letters with the run's
# summary and checkpatch's warnings explained; each check failing when
# what it checks is broken; nothing half-written, the tree only read.
. "$(dirname "$0")/lib.sh"

export KIT_BUILD="${BIN%/bin}"
# (The fixture kit is no git checkout: its commit is said so, as a CI
# copy says it; results.json names the same.)
export KIT_COMMIT=c0
printf "[user]\n\tname = Test Sender\n\temail = sender@example.org\n" >"$trash/gitconfig"
export GIT_CONFIG_GLOBAL="$trash/gitconfig"
git send-email --help >/dev/null 2>&1 && perl -MMail::Address -e 1 2>/dev/null && test_set_prereq SENDEMAIL
WHO="Test Sender <sender@example.org>"

# mail FROM SUBJECT MESSAGE OLD NEW: a stack patch that changes
# fs/ext4/super.c from the words OLD to the words NEW, a line each.
mail() {
	printf "From: %s\nDate: Mon, 5 Oct 2020 01:14:54 -0700\nSubject: %s\n\n%s\n---\n" "$1" "$2" "$3" &&
	printf "%s\n" $4 >mail.old && printf "%s\n" $5 >mail.new &&
	{ diff -u --label a/fs/ext4/super.c --label b/fs/ext4/super.c mail.old mail.new; test $? = 1; }
}

# A kit with a 9.9 stack (a posted fix, the kit's own patch) and a
# hardened flavour of one more; a 9.9.3 tree with stand-in scripts; a
# results.json of one run.
fixture() {
	rm -rf kit t res sub repo && mkdir -p kit/common/upstream kit/versions/9.9 kit/test t/fs/ext4 t/scripts res &&
	cp -rp "$TOP/build" kit/ && cp -rp "$TOP/test/report" kit/test/ &&
	echo "as posted" >kit/common/upstream/B-posted.patch && echo "the kit's" >kit/common/upstream/X-kit.patch &&
	printf "commit 0123456789abcdef0123456789abcdef01234567\n\next4: the commit it fixes\n" >kit/common/upstream/A-0123456789ab-fixed.patch &&
	printf "A-0123456789ab-fixed.patch\tmainline\tv9.8-rc1\nB-posted.patch\tposted\thttps://lists.example/ext4/1\nX-kit.patch\tkit\t-\n" \
		>kit/common/upstream/provenance &&
	printf "^WARNING: Prefer explained things\tbecause the fixture says so\n" >kit/common/upstream/checkpatch-explained &&
	mail "Poster <p@example.org>" "[PATCH] Fix a posted thing" "The posted message.

Not upstream: posted, reviewed, never merged.
Original: common/upstream/B-posted.patch

Signed-off-by: Poster <p@example.org>
Fixes: 0123456789ab (\"ext4: the commit it fixes\")
Reviewed-by: Reviewer <r@example.org>
[ 9.9: moved to the new place ]" "one two three" "one TWO three" >kit/versions/9.9/b.patch &&
	mail "ext4 backport kit <kit@users.invalid>" "[PATCH] ext4: the kit's guard" "Why the guard.

Not upstream: a kit patch.
Original: common/upstream/X-kit.patch

Signed-off-by: ext4 backport kit <kit@users.invalid>" "one TWO three" "one TWO THREE" >kit/versions/9.9/k.patch &&
	mail "ext4 backport kit <kit@users.invalid>" "[PATCH] ext4: a hardened one" "Stricter.

Original: common/upstream/X-kit.patch

Signed-off-by: ext4 backport kit <kit@users.invalid>" "one TWO THREE" "ONE TWO THREE" >kit/versions/9.9/h.patch &&
	printf "b.patch\nk.patch\n" >kit/versions/9.9/series && printf "b.patch\nk.patch\nh.patch\n" >kit/versions/9.9/series.hardened &&
	printf "series:\n  - name: \"9.9\"\n    source:\n      tree: {env: KIT_SRC_9_9}\n    stack: versions/9.9\n    verified: 9.9.3\n    fixes: {A: upstream v9.8-rc1, B: stack}\n" >kit/matrix.yaml &&
	PATCHED=$(cd kit && build/matrix hash matrix.yaml 9.9 patched) && HARDENED=$(cd kit && build/matrix hash matrix.yaml 9.9 hardened) &&
	export PATCHED HARDENED &&
	printf "VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 3\n" >t/Makefile && printf "one\ntwo\nthree\n" >t/fs/ext4/super.c &&
	echo "EXT4 FILE SYSTEM" >t/MAINTAINERS &&
	cat >t/scripts/get_maintainer.pl <<-\EOF &&
	print "Maintainer One <m1\@example.org> (maintainer:EXT4 FILE SYSTEM)\n";
	print "Reviewer Two <r2\@example.org> (reviewer:EXT4 FILE SYSTEM)\n";
	print "linux-ext4\@vger.kernel.org (open list:EXT4 FILE SYSTEM)\n";
	EOF
	cat >t/scripts/checkpatch.pl <<-\EOF &&
	# --strict FILE: a WARNING for each "WARNME", an ERROR for each "ERRME"
	my $f = $ARGV[-1]; open(my $h, "<", $f) or die; my ($e, $w) = (0, 0);
	while (<$h>) { if (/WARNME(\S*)/) { print "WARNING: Prefer $1 things\n"; $w++ } if (/ERRME/) { print "ERROR: bad\n"; $e++ } }
	print "total: $e errors, $w warnings, 0 checks, 10 lines checked\n";
	EOF
	python3 - <<-\EOF
	import json, os
	cell = lambda v: {"case": "a", "variant": v, "status": "PASS", "leaks": False, "keys": {}, "expected": "mounted",
	                  "actual": "mounted", "reason": "", "kernel": "", "diff": "", "expect": "a/expect", "log": ""}
	d = {"schema": 4, "date": "2026-12-06T00:00:00Z", "run": {"kit": "c0", "images": "i", "shard": "-", "results": "res"},
	     "cases": ["a"], "corpus": None, "totals": {"passed": 3, "failed": 0, "skipped": 0},
	     "series": [{"name": "9.9", "kernel": "9.9.3", "verified": "9.9.3", "status": "run",
	                 "variants": ["vanilla", "patched", "hardened"], "stacks": {"vanilla": "-", "patched": os.environ["PATCHED"], "hardened": os.environ["HARDENED"]},
	                 "cells": [cell(v) for v in ("vanilla", "patched", "hardened")], "corpus": []}]}
	json.dump(d, open("res/results.json", "w"))
	EOF
}
treesum() { (cd t && find . -type f | LC_ALL=C sort | xargs sha256sum) | sha256sum; }
x() { kit/build/tools/submission --tree t --series 9.9 --results res/results.json --repo repo "$@" sub; }
# rerun: results.json as make matrix would write it again for the stacks
# as they are now (an edited patch is another stack).
rerun() {
	python3 -c "
import json, subprocess
d = json.load(open(\"res/results.json\"))
for v in (\"patched\", \"hardened\"):
    d[\"series\"][0][\"stacks\"][v] = subprocess.check_output([\"build/matrix\", \"hash\", \"matrix.yaml\", \"9.9\", v], cwd=\"kit\").decode().strip()
json.dump(d, open(\"res/results.json\", \"w\"))"
}

test_expect_success SENDEMAIL 'the v2 series: the posted fix by its author, Fixes and stable, the sender signs off, the v2 note below ---' '
	fixture && before=$(treesum) && x >log && test "$(treesum)" = "$before" &&
	ls sub/v2 >v2 && test "$(wc -l <v2)" = 3 && b=sub/v2/$(sed -n 2p v2) k=sub/v2/$(sed -n 3p v2) &&
	test_grep "^Subject: \[PATCH v2 1/2\] ext4: fix a posted thing$" $b && test_grep "^From: $WHO$" $b &&
	id=$(sed -n "s/^Message-ID: //Ip" sub/v2/v2-0000-cover-letter.patch) && test -n "$id" &&
	test_grep "^In-Reply-To: $id$" $b && test_grep "^In-Reply-To: $id$" $k && grep -qi "^Message-ID: <" $b &&
	test "$(sed -n "/^\$/{n;p;q}" $b)" = "From: Poster <p@example.org>" &&
	! grep -q "Not upstream\|^Original:\|^\[ 9.9" $b &&
	sed -n "/^Signed-off-by: Poster/,/^---\$/p" $b >tags &&
	test "$(cat tags)" = "$(printf "%s\n" "Signed-off-by: Poster <p@example.org>" "Fixes: 0123456789ab (\"ext4: the commit it fixes\")" \
		"Reviewed-by: Reviewer <r@example.org>" "Cc: stable@vger.kernel.org # 9.8+" "Signed-off-by: $WHO" ---)" &&
	sed -n "/^---\$/,/^\$/p" $b | tr "\n" " " | grep -q " v2: rebased onto Linux 9.9.3; 9.9: moved to the new place; the subject prefixed .ext4:., as the list.s patches are\. " &&
	test_grep "^v1: https://lists.example/ext4/1$" $b &&
	test_grep "^From: $WHO$" $k && ! grep -q "^From: ext4 backport kit" $k && ! grep -q "users.invalid" $k &&
	test_grep "^v2: new in this version\.$" $k &&
	test "$(sed -n "/^Why the guard\.\$/,/^---\$/p" $k)" = "$(printf "%s\n" "Why the guard." "" \
		"Cc: stable@vger.kernel.org # 9.8+: 1/2: ext4: fix a posted thing" "Signed-off-by: $WHO" ---)" &&
	sed -n "/^The posted message\.\$/,/^Signed-off-by: Poster/p" $b | tr "\n" " " >para &&
	grep -q "^The posted message\.  Stable: take this fix only together with the patch after it in its series, which keeps such a filesystem read-only once it mounts and names this fix as its prerequisite\. Alone it lets .*  Signed-off-by: Poster" para

'

test_expect_success SENDEMAIL 'the RFC series on top, and both cover letters: the run, the tree, checkpatch, the recipients' '
	fixture && x >log &&
	test_grep "^Subject: \[RFC PATCH 1/1\] ext4: a hardened one$" sub/rfc/0001-*.patch &&
	for c in sub/v2/v2-0000-cover-letter.patch sub/rfc/0000-cover-letter.patch; do
		grep -q "^  9.9    9.9.3      1/1           1/1           1/1$" $c && grep -q "^  totals: 3 passed, 0 failed, 0 skipped$" $c &&
		grep -q "fs/ext4 of Linux 9.9.3" $c && tr "\n" " " <$c | grep -q "checkpatch.pl --strict: 0 errors, 0 warnings, 0 checks\. " &&
		grep -q "^To: Maintainer One <m1@example.org>$" $c && grep -q "^Cc: Reviewer Two <r2@example.org>,$" $c &&
		! grep -q "\*\*\* \(SUBJECT\|BLURB\) HERE" $c || { echo "$c:"; cat $c; exit 1; }
	done &&
	! awk "length(\$0) > 72" sub/v2/v2-0000-cover-letter.patch | grep -v "^Subject:\|^Cc:\|^To:" &&
	test_grep "^Changes since v1 (https://lists.example/ext4/1):$" sub/v2/v2-0000-cover-letter.patch &&
	test_grep "^- 1/2: rebased onto Linux 9.9.3; 9.9: moved to the new place; the$" sub/v2/v2-0000-cover-letter.patch &&
	test_grep "^- 2/2: new in this version\.$" sub/v2/v2-0000-cover-letter.patch &&
	tr "\n" " " <sub/v2/v2-0000-cover-letter.patch | tr -s " " >cover1 &&
	grep -q "What the 2020 thread asked, answered from the run above (Linux 9.9.3): - Which images: .* 1 image cases, 0 of them flagged\. - Which kernels mount them: not every vanilla kernel above refuses .* - How the RFC keeps invalid images refused: .* in 9.9: 0 of the 1 cases (vanilla.s in 9.9: 0)" cover1 &&
	tr "\n" " " <sub/v2/v2-0000-cover-letter.patch | grep -q "For stable: patch 1 must not travel without patch 2, which keeps such a filesystem read-only once it mounts\. .* It carries \"Cc: stable@vger.kernel.org # 9.8+: 1/2: \.\.\.\", the form of stable-kernel-rules that names a prerequisite" &&
	! grep -q "^Cc: stable@\|Stable: take" sub/rfc/0001-*.patch
'

# up: a git repository of an upstream tree (9.10.0, tagged v9.10, one
# commit after the tag), as the ext4 tree or mainline would be.
upstream() {
	rm -rf up && mkdir -p up/fs/ext4 && printf "VERSION = 9\nPATCHLEVEL = 10\nSUBLEVEL = 0\n" >up/Makefile &&
	printf "one\ntwo\nthree\n" >up/fs/ext4/super.c && echo "EXT4 FILE SYSTEM" >up/MAINTAINERS && echo other >up/README &&
	git -C up init -q && git -C up add -A && git -C up -c user.name=U -c user.email=u@example.org commit -q -m "Linux 9.10" &&
	git -C up tag v9.10 && echo more >>up/README && git -C up -c user.name=U -c user.email=u@example.org commit -q -am later
}
upstate() { (cd up && git status --porcelain && git for-each-ref && git worktree list --porcelain && git rev-parse HEAD && ls -a .git); }

test_expect_success SENDEMAIL 'against a tree the sender names: base-commit, its release in the notes, the repository only read' '
	fixture && upstream && before=$(upstate) && x --upstream up --rev v9.10 >log && test "$(upstate)" = "$before" &&
	tag=$(git -C up rev-parse v9.10) && test_grep "^base-commit: $tag$" sub/v2/v2-0000-cover-letter.patch &&
	test_grep "^base-commit: $tag$" sub/rfc/0000-cover-letter.patch &&
	test "$(grep -c "^prerequisite-patch-id: " sub/rfc/0000-cover-letter.patch)" = 2 &&
	test_grep "patches applied by git am onto ${tag%${tag#????????????}} (v9.10 of --upstream, Linux 9.10.0)" sub/checks.txt &&
	test_grep "^v2: rebased onto Linux 9.10.0; 9.9: moved to the new place" sub/v2/v2-0001-*.patch &&
	tr "\n" " " <sub/v2/v2-0000-cover-letter.patch | grep -q "against commit ${tag%${tag#????????????}} (Linux 9.10.0; base-commit below); the kernels above were built from Linux 9.9.3 with the same stack\." &&
	x >log && ! grep -q "^base-commit:" sub/v2/*.patch sub/rfc/*.patch &&
	tr "\n" " " <sub/v2/v2-0000-cover-letter.patch | grep -q "no ext4 or mainline tree was named (KIT_UPSTREAM), so there is no base-commit\." &&
	test_must_fail 2 x --upstream up --rev nosuch 2>err && test_grep "^submission: --rev nosuch: no such commit in .*/up; name a branch, tag or commit of it$" err &&
	test_must_fail 2 x --upstream t 2>err && test_grep "^submission: --upstream t: no git repository there" err &&
	test_must_fail 2 x --rev v9.10 2>err && test_grep "^submission: --rev v9.10: names a commit of --upstream, which is not given" err
'

test_expect_success SENDEMAIL 'every check is ok, a line each in checks.txt; the repository is made once, again when the tree changed' '
	fixture && x >log && test "$(cut -f1,2 sub/checks.txt | tr "\t\n" ": ")" = "ok:am ok:same ok:maintainers ok:checkpatch ok:sendemail ok:b4 " && test_grep "^ok	b4	b4 am (offline) took 2 patches; git am of its mbox gives the same fs/ext4" sub/checks.txt &&
	test_grep "2 + 1 patches applied by git am" sub/checks.txt && test_grep "rendered all 5 mails" sub/checks.txt &&
	c=$(git -C repo rev-parse HEAD) && touch -d @0 repo/.git/kept && x >log && test -e repo/.git/kept &&
	test "$(git -C repo rev-parse HEAD)" = "$c" &&
	echo changed >t/fs/ext4/other.c && x >log && test ! -e repo/.git/kept && git -C repo show --stat HEAD | grep -q other.c
'

test_expect_success SENDEMAIL 'a checkpatch warning is explained beside it, or fails the check; an error fails it' '
	fixture && sed -i "s/^Why the guard\.$/Why the guard. WARNMEexplained/" kit/versions/9.9/k.patch && rerun && x >log &&
	grep -A1 "^  v2 2: WARNING: Prefer explained things" sub/v2/v2-0000-cover-letter.patch | grep -q "because the fixture says so" &&
	sed -i "s/WARNMEexplained/WARNMEother/" kit/versions/9.9/k.patch && rerun && rm -rf repo && test_must_fail 1 x >log &&
	test_grep "^submission: checkpatch: FAIL: .*1 of them not explained" log && test_grep "^FAIL	checkpatch" sub/checks.txt &&
	sed -i "s/WARNMEother/ERRME/" kit/versions/9.9/k.patch && rerun && test_must_fail 1 x >log &&
	test_grep "checkpatch: FAIL: --strict: 1 errors" log
'

test_expect_success 'claims come only from matching proof: another kit, another stack, a missing variant or a FAIL is refused' '
	fixture && KIT_COMMIT=c1 test_must_fail 2 x 2>err && test ! -e sub &&
	test_grep "^submission: --results .*/res/results.json: made by kit c0, and these patches are of kit c1; run make matrix again, then make submission$" err &&
	sed -i "s/^Why the guard\.$/Why the guard, edited./" kit/versions/9.9/k.patch && test_must_fail 2 x 2>err &&
	test_grep "9.9 patched was run with stack [0-9a-f]*, and its stack is [0-9a-f]* now" err &&
	fixture && sed -i "s/\"hardened\"\]/\"hardened-x\"]/" res/results.json &&
	python3 -c "
import json
d = json.load(open(\"res/results.json\"))
d[\"series\"][0][\"cells\"] = [c for c in d[\"series\"][0][\"cells\"] if c[\"variant\"] != \"hardened\"]
json.dump(d, open(\"res/results.json\", \"w\"))" && test_must_fail 2 x 2>err && test_grep "9.9 has no hardened verdicts" err &&
	fixture && sed -i "s/\"status\": \"PASS\"/\"status\": \"FAIL\"/g" res/results.json && test_must_fail 2 x 2>err &&
	test_grep "3 verdict(s) not as expected (9.9 vanilla a: FAIL, ...); nothing is claimed tested over a failure" err &&
	fixture && sed -i "s/\"name\": \"9.9\"/\"name\": \"9.8\"/" res/results.json && test_must_fail 2 x 2>err &&
	test_grep "9.9 was not run there" err
'
test_expect_success SENDEMAIL 'a name with parentheses from get_maintainer.pl is read whole; a line it cannot read stops' '
	fixture && cat >t/scripts/get_maintainer.pl <<-\EOF &&
	print "Maintainer One <m1\@example.org> (maintainer:EXT4 FILE SYSTEM)\n";
	print "\"Reviewer Two (Corp)\" <r2\@example.org> (reviewer:EXT4 FILE SYSTEM)\n";
	EOF
	x >log && test_grep "^Cc: \"Reviewer Two (Corp)\" <r2@example.org>$" sub/v2/v2-0000-cover-letter.patch &&
	echo "print \"odd\@line\n\";" >>t/scripts/get_maintainer.pl && test_must_fail 2 x 2>err && test_grep "cannot read .odd@line." err &&
	test "$(ls -a | grep -c "^\.submission\.")" = 0
'

test_expect_success 'a folder or repository it did not make is never replaced; a failure half way leaves nothing' '
	fixture && mkdir -p mine && echo keep >mine/keep && test_must_fail 2 kit/build/tools/submission --tree t --series 9.9 \
		--results res/results.json --repo repo mine 2>err && test_grep "this tool did not make it" err && test -e mine/keep &&
	git init -q theirs && test_must_fail 2 kit/build/tools/submission --tree t --series 9.9 \
		--results res/results.json --repo theirs sub 2>err && test_grep "this tool did not make it" err && test -d theirs/.git &&
	echo "print \"nothing\n\";" >t/scripts/checkpatch.pl && test_must_fail 2 x 2>err && test_grep "gave no totals" err &&
	test ! -e sub && test "$(ls -a | grep -c "^\.submission\.")" = 0 && test "$(ls -a repo/.. | grep -c "^\.repo\.")" = 0
'

test_expect_success 'a patch git am cannot apply fails the am check, exit 1' '
	fixture && printf "one\nzwei\nthree\n" >t/fs/ext4/super.c && test_must_fail 1 x >log 2>&1 &&
	test_grep "^submission: am: FAIL: b.patch does not apply with git am" log && test_grep "^FAIL	am" sub/checks.txt
'

test_expect_success SENDEMAIL 'what b4 cannot take, or takes otherwise, fails the b4 check' '
	fixture && mkdir -p fakebin && cat >fakebin/b4 <<-\EOF && chmod +x fakebin/b4 &&
	#!/bin/sh
	# b4 am -m - -o OUT: keeps the first mail only, as a b4 that lost the thread would
	while [ $# -gt 1 ]; do [ "$1" = -o ] && out=$2; shift; done
	awk "/^From [0-9a-f]{40} /{n++} n==2" >"$out/x.mbx"; echo "Total patches: 1"
	EOF
	{ PATH="$PWD/fakebin:$PATH" x >log; test $? = 1; } && test_grep "^FAIL	b4	b4 am: " sub/checks.txt &&
	test_grep "^submission: b4: FAIL" log
'

# reports: upstream reports in the fixture kit: one its case shows on
# vanilla (case a, closed by the posted fix, original B, and the hardened
# patch, original X), one whose case (b) this run did not boot.
reports() {
	mkdir -p kit/common/upstream/reports kit/test/cases/a kit/test/cases/b &&
	printf "%s\n" "Subject: A file reads a thing" "Cases: a" "Escapes: 0123456789ab (\"ext4: the commit it fixes\")" \
		"Closed-by: B X" "" "What goes wrong, in words." >kit/common/upstream/reports/shown.report &&
	printf "%s\n" "Subject: Another file reads another thing" "Cases: b" "Escapes: 0123456789ab (\"ext4: the commit it fixes\")" \
		"Closed-by: X" "" "Never booted." >kit/common/upstream/reports/unshown.report &&
	python3 -c "
import json
d = json.load(open(\"res/results.json\"))
for c in d[\"series\"][0][\"cells\"]:
    c[\"leaks\"] = c[\"variant\"] == \"vanilla\"
json.dump(d, open(\"res/results.json\", \"w\"))"
}
test_expect_success SENDEMAIL 'the RFC reports the holes vanilla has as well, only those the run shows, with the patch that closes each' '
	fixture && reports && x >log && tr "\n" " " <sub/rfc/0000-cover-letter.patch | tr -s " " >rfc &&
	grep -q "Holes that vanilla has as well\. .* 1\. A file reads a thing\. What goes wrong, in words\. Shown by a: vanilla reads metadata through the file on 9\.9; with these series it is stopped on each\. It escapes the check of 0123456789ab (\"ext4: the commit it fixes\")\. Closed by v2 1/2, v2 2/2, RFC 1/1\. Not shown by this run, so not claimed here: Another file reads another thing (b)\." rfc &&
	! grep -q "Holes that" sub/v2/v2-0000-cover-letter.patch &&
	! awk "length(\$0) > 72" sub/rfc/0000-cover-letter.patch | grep -v "^Subject:\|^Cc:\|^To:"
'
test_expect_success 'a report without its fields, or naming what the kit lacks, is bad input' '
	fixture && reports && x >/dev/null &&
	sed -i "/^Escapes:/d" kit/common/upstream/reports/shown.report &&
	test_must_fail 2 x 2>err && test_grep "shown.report: its header is not the four lines Subject, Cases, Escapes, Closed-by (missing: Escapes)" err &&
	reports && sed -i "s/^Cases: a/Cases: nosuch/" kit/common/upstream/reports/shown.report &&
	test_must_fail 2 x 2>err && test_grep "shown.report: names no case of test/cases: nosuch" err &&
	reports && sed -i "s/^Closed-by: B X/Closed-by: Z/" kit/common/upstream/reports/shown.report &&
	test_must_fail 2 x 2>err && test_grep "shown.report: Closed-by: names no original of common/upstream: Z" err &&
	test -f sub/checks.txt
'
test_expect_success 'bad input is one line, exit 2, and the last submission stays' '
	fixture && mkdir -p sub && echo old >sub/keep &&
	rm res/results.json && test_must_fail 2 x 2>err && test_grep "no such file; run make matrix first" err &&
	test $(wc -l <err) = 1 && fixture && mkdir -p sub && echo old >sub/keep &&
	rm t/scripts/checkpatch.pl && test_must_fail 2 x 2>err && test_grep "no scripts/checkpatch.pl" err &&
	fixture && mkdir -p sub && echo old >sub/keep &&
	test_must_fail 2 kit/build/tools/submission --tree t --series 9.7 --results res/results.json --repo repo sub 2>err &&
	test_grep "no such stack" err && test "$(cat sub/keep)" = old
'

test_done
