#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/tools/fstests-submission on a fixture kit and a stand-in fstests
# tree (its tools/nextid, tools/mkgroupfile and tools/get_maintainer.pl
# stand-ins): the kit's test as a patch named as fstests' ./new names a
# new test, with the tree's maintainers; each check failing when what it
# checks is broken; the tree only read; the applied copy keeps the tree's
# build products; --verify holds each test to vanilla failing and every
# variant passing, as a run's results.json records them.  And the plan's
# FST_TESTS, which make fstests-submission runs the tests with.
. "$(dirname "$0")/lib.sh"

export KIT_BUILD="${BIN%/bin}"
printf "[user]\n\tname = Test Sender\n\temail = sender@example.org\n" >"$trash/gitconfig"
export GIT_CONFIG_GLOBAL="$trash/gitconfig"
git send-email --help >/dev/null 2>&1 && perl -MMail::Address -e 1 2>/dev/null && test_set_prereq SENDEMAIL
WHO="Test Sender <sender@example.org>"

# A kit with one fstests test (ext4/990-x) whose fix is posted; an
# fstests tree, a git checkout tagged v2099.01.01, with tests ext4/001 and
# ext4/003 (so ./new's next id is 002), a build product and a results/.
fixture() {
	rm -rf kit t out applied && mkdir -p kit/common/upstream kit/test/fstests/tests/ext4 \
		t/common t/tools t/doc t/tests/ext4 t/src t/results &&
	cp -rp "$TOP/build" kit/ &&
	printf "From: Poster <p@example.org>\nDate: Mon, 5 Oct 2020 01:14:54 -0700\nSubject: [PATCH] Fix the\n thing\n\nWhy.\n" \
		>kit/common/upstream/B-posted.patch &&
	printf "B-posted.patch\tposted\thttps://lists.example/ext4/1\n" >kit/common/upstream/provenance &&
	cat >kit/test/fstests/tests/ext4/990-x <<-\EOF &&
	#! /bin/bash
	# SPDX-License-Identifier: GPL-2.0
	# Copyright (c) 2026 The ext4 backport kit authors.  All Rights Reserved.
	#
	# FS QA Test 990-x
	#
	# Test that the thing holds.  It fails on kernels
	# without the fix.
	#
	# A second paragraph.
	#
	. ./common/preamble
	_begin_fstest auto quick mount
	_fixed_by_kernel_commit xxxxxxxxxxxx \
		"Fix the thing"
	echo "the test of 990-x"
	_exit 0
	EOF
	chmod 755 kit/test/fstests/tests/ext4/990-x &&
	printf "QA output created by 990-x\nthe test of 990-x\n" >kit/test/fstests/tests/ext4/990-x.out &&
	printf "# the kit's\next4/990-x\text4: a test of the thing\n" >kit/test/fstests/upstream &&
	printf "#!/bin/bash\n" >t/check && chmod 755 t/check &&
	printf "_exit() { status=\$1; exit; }\n" >t/common/rc &&
	printf "EXT4\nL:\tlinux-ext4@example.org\nF:\ttests/ext4/\n" >t/MAINTAINERS &&
	printf "auto\t\tautomatic\nquick\t\tquick\nmount\t\tmounts\nother\t\tnone\n" >t/doc/group-names.txt &&
	cat >t/tools/nextid <<-\EOF &&
	#!/bin/bash
	# stand-in: the first free three-digit id of tests/$1
	i=1; while [ -e "tests/$1/$(printf %03d $i)" ]; do i=$((i + 1)); done; printf "%s/%03d\n" "$1" "$i"
	EOF
	cat >t/tools/mkgroupfile <<-\EOF &&
	#!/bin/bash
	# stand-in: each numbered test and the groups of its _begin_fstest line
	for f in [0-9][0-9][0-9]; do echo "$f $(sed -n "s/^_begin_fstest //p" "$f")"; done
	EOF
	cat >t/tools/get_maintainer.pl <<-\EOF &&
	print "Maintainer One <m1\@example.org> (maintainer:ALL)\n";
	print "fstests\@example.org (open list:ALL)\n";
	print "linux-ext4\@example.org (open list:EXT4)\n";
	EOF
	chmod 755 t/tools/* &&
	for n in 001 003; do
		printf "#! /bin/bash\n. ./common/preamble\n_begin_fstest auto\n_exit 0\n" >t/tests/ext4/$n &&
		echo "QA output created by $n" >t/tests/ext4/$n.out || return 1
	done &&
	printf "*.o\n/results\n" >t/.gitignore &&
	git -C t init -q && git -C t add -A && git -C t commit -q -m fstests && git -C t tag v2099.01.01 &&
	echo "built" >t/src/prog.o && echo "an old run" >t/results/old &&
	(cd t && find . -path ./.git -prune -o -type f -print | sort | xargs sha256sum) >t.sums
}

submit() { python3 kit/build/tools/fstests-submission --tree t --applied applied out "$@"; }
patchfile() { ls out/0001-*.patch; }

test_expect_success SENDEMAIL 'the test becomes ext4/002, the id ./new gives, under the subject of test/fstests/upstream' '
	fixture && submit >log &&
	test_grep "1 test(s) as ext4/002; every check passed" log &&
	test "$(cat out/tests)" = ext4/002 && test "$(ls out | grep -c "\.patch$")" = 1 &&
	test_grep "^Subject: \[PATCH\] ext4: a test of the thing$" "$(patchfile)" &&
	test_grep "^From: $WHO$" "$(patchfile)" &&
	test_grep "^Signed-off-by: $WHO$" "$(patchfile)"
'

test_expect_success SENDEMAIL 'its message is the test'"'"'s description, rewrapped; below "---" the tree and where the fix stands' '
	sed -n "/^Subject/,/^---$/p" "$(patchfile)" >msg &&
	test_grep "^Test that the thing holds.  It fails on kernels without the fix.$" msg &&
	test_grep "^A second paragraph.$" msg &&
	sed -n "/^---$/,/^ tests/p" "$(patchfile)" | tr "\n" " " >note &&
	test_grep "Against fstests v2099.01.01\." note &&
	test_grep "The kernel fix, \"Fix the thing\": posted at https://lists.example/ext4/1, not merged yet\." note
'

test_expect_success SENDEMAIL 'the patch renames the test in its "FS QA Test" line and golden output alone, mode 755' '
	test_grep "^+# FS QA Test 002$" "$(patchfile)" &&
	test_grep "^+QA output created by 002$" "$(patchfile)" &&
	test_grep "^+echo \"the test of 990-x\"$" "$(patchfile)" &&
	test_grep "^ create mode 100755 tests/ext4/002$" "$(patchfile)" &&
	test "$(grep -c "990-x" "$(patchfile)")" = 2
'

test_expect_success SENDEMAIL 'To: and Cc: are the tree'"'"'s get_maintainer.pl'"'"'s; each check is a line of checks.txt' '
	test_grep "^To: Maintainer One <m1@example.org>$" "$(patchfile)" &&
	test_grep "^Cc: fstests@example.org,$" "$(patchfile)" &&
	for c in maintainers am same groups sendemail; do
		test_grep "^$c	ok	" out/checks.txt || return 1
	done &&
	test_grep "^groups	ok	ext4/002: auto quick mount$" out/checks.txt
'

test_expect_success SENDEMAIL 'the tree is only read; the patch leaves its build products and results out, the copy keeps them' '
	(cd t && find . -path ./.git -prune -o -type f -print | sort | xargs sha256sum) >t.after &&
	test_cmp t.sums t.after && test -z "$(git -C t status --porcelain --ignored=no)" &&
	! grep "prog.o\|results/old" "$(patchfile)" &&
	test -x applied/tests/ext4/002 && test -f applied/tests/ext4/002.out &&
	test "$(cat applied/src/prog.o)" = built &&
	test ! -e applied/results && test ! -e applied/.git
'

test_expect_success SENDEMAIL 'a group the tree does not define fails the groups check, exit 1, the patch still written' '
	fixture && sed -i "s/^_begin_fstest auto quick mount$/_begin_fstest auto quick nosuchgroup/" kit/test/fstests/tests/ext4/990-x &&
	test_must_fail 1 submit >log &&
	test_grep "^groups	FAILED	ext4/002: groups not in doc/group-names.txt: nosuchgroup$" out/checks.txt &&
	test -f "$(patchfile)"
'

test_expect_success 'an id tools/nextid gives that the tree has is refused, exit 2, nothing written' '
	fixture && printf "#!/bin/bash\necho ext4/001\n" >t/tools/nextid &&
	test_must_fail 2 submit 2>err &&
	test_grep "tools/nextid ext4 gave ext4/001, which the tree has" err && test ! -e out && test ! -e applied
'

test_expect_success 'a kit test without its "FS QA Test" line, or an unknown tree, is refused, exit 2, nothing written' '
	fixture && sed -i "/^# FS QA Test/d" kit/test/fstests/tests/ext4/990-x &&
	test_must_fail 2 submit 2>err && test_grep "want one .# FS QA Test 990-x. line" err &&
	test ! -e out && test ! -e applied &&
	fixture && rm t/tools/nextid && test_must_fail 2 submit 2>err &&
	test_grep "^fstests-submission: --tree .*/t: no tools/nextid; give a checkout of fstests" err && test ! -e out
'

test_expect_success 'an OUT this tool did not make is refused, and left as it was' '
	fixture && mkdir out && echo mine >out/file &&
	test_must_fail 2 submit 2>err && test_grep "OUT .*/out: exists, and this tool did not make it" err &&
	test "$(cat out/file)" = mine
'

# results.json of a run with TEST on vanilla (VAN) and patched (PAT).
results() {
	cat >res.json <<-EOF
	{"series": [{"name": "9.9", "kernel": "9.9.3", "fstests": [
	  {"test": "$1", "variant": "patched", "vanilla": "$2", "result": "$3", "reason": "r"},
	  {"test": "$1", "variant": "hardened", "vanilla": "$2", "result": "$3", "reason": "r"}]}]}
	EOF
}

test_expect_success SENDEMAIL '--verify: failing on vanilla and passing on every variant is ok, and the patch says so' '
	fixture && submit >log && results ext4/002 fail pass &&
	python3 kit/build/tools/fstests-submission --verify out res.json 9.9 >log &&
	test_grep "^check	ok	fstests.* check on Linux 9.9.3: ext4/002: vanilla fail, patched pass; ext4/002: vanilla fail, hardened pass$" out/checks.txt &&
	sed -n "/^---$/,/^ tests/p" "$(patchfile)" | tr "\n" " " >note &&
	test_grep "Checked with fstests.* check on Linux 9.9.3: fails without the fix, passes with it (hardened, patched kernels" note
'

test_expect_success SENDEMAIL '--verify: a test that passes on vanilla, or fails on a variant, or never ran, fails, exit 1' '
	for r in "pass pass" "fail fail" "fail notrun"; do
		fixture && submit >log && results ext4/002 $r &&
		test_must_fail 1 python3 kit/build/tools/fstests-submission --verify out res.json 9.9 >log &&
		test_grep "^check	FAILED	" out/checks.txt && ! grep -q "Checked with" "$(patchfile)" || return 1
	done &&
	results ext4/999 fail pass &&
	test_must_fail 1 python3 kit/build/tools/fstests-submission --verify out res.json 9.9 >log &&
	test_grep "ext4/002: not run (9.9 has no fstests record of it)" out/checks.txt
'

plan() { env -u KIT_FSTESTS -u FST_TESTS "$BIN/matrix" plan "$TOP/matrix.yaml" "$@" RESULTS=r KIT_CACHE=/c KIT_BUILD=/b FSTESTS=1 KIT_FSTESTS=/f VERSIONS=7.3; }

test_expect_success 'FST_TESTS: the tests each fstests kernel runs, in a file rewritten when they change' '
	(cd "$TOP" && plan --tsv FST_TESTS="ext4/002 generic/001") >tsv &&
	test_grep "^fstests	7.3	.*	ext4/002 generic/001	-	/c/fstests/root-[0-9a-f]*\.img$" tsv &&
	(cd "$TOP" && plan --mk FST_TESTS="ext4/002") >mk &&
	test_grep "^/b/fstests/7.3.tests: override private p_tests := ext4/002$" mk &&
	test_grep "^r/7.3/fstests/vanilla/fstests.tsv: .* /b/fstests/7.3.tests" mk
'

test_expect_success 'FST_TESTS: a word that is not DIR/NAME is refused, exit 2' '
	(cd "$TOP" && test_must_fail 2 plan --tsv FST_TESTS="ext4") 2>err &&
	test_grep "FST_TESTS: .ext4. is not a test of fstests (DIR/NAME" err
'

test_expect_success SENDEMAIL '--verify refuses a run older than the patches, or none, exit 2' '
	fixture && results ext4/002 fail pass && touch -d @1000000000 res.json && submit >log &&
	test_must_fail 2 python3 kit/build/tools/fstests-submission --verify out res.json 9.9 2>err &&
	test_grep "res.json: no run of these patches (none, or one older than" err &&
	test_must_fail 2 python3 kit/build/tools/fstests-submission --verify out nothing.json 9.9 2>err &&
	! grep -q "^check	" out/checks.txt
'

test_done
