#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/tools/review on fixture stacks: identical and context-only accepted, a
# functional deviation without a note, a missing upstream reference and a
# dropped tag flagged.
. "$(dirname "$0")/lib.sh"

orig() {
	mkdir -p up && cat >up/X-fix.patch <<-'P'
	From: A Author <a@example.org>
	Subject: [PATCH] foo: fix the bar

	Because.

	Signed-off-by: A Author <a@example.org>
	Fixes: 123456789abc ("foo: add bar")
	---
	--- a/foo.c
	+++ b/foo.c
	@@ -10,3 +10,3 @@ int f(void)
	 a
	-b
	+c
	 d
	P
}
# stack NAME: versions/9.9 holding one patch made from the original by SED.
stack() {
	rm -rf v && mkdir -p v/9.9 && echo p.patch >v/9.9/series &&
	sed -e 's|^Because.$|Because.\n\nOriginal: common/upstream/X-fix.patch|' -e "$1" up/X-fix.patch >v/9.9/p.patch
}
review_it() { review --versions v --upstream up --results none out; }

test_expect_success 'an identical backport is accepted as identical' '
	orig && stack "" && review_it >log 2>&1 && test_grep "Class: \*\*identical\*\*" out/review.md
'
test_expect_success 'other line numbers and context on one side are context-only, accepted' '
	orig && stack "s/^@@ -10,3 +10,3 @@/@@ -40,3 +40,3 @@/; s/^ d$/ e/" &&
	review_it >log 2>&1 && test_grep "Class: \*\*context-only\*\*" out/review.md
'
test_expect_success 'a renamed function around the same lines is context-only' '
	orig && stack "s/^@@ -10,3 +10,3 @@ int f(void)/@@ -40,3 +40,3 @@ static int __f(void)/" &&
	review_it >log 2>&1 && test_grep "Class: \*\*context-only\*\*" out/review.md &&
	orig && stack "s/^@@ -10,3 +10,3 @@ int f(void)/@@ -40,3 +40,3 @@ int g(void)/" &&
	review_it >log 2>&1 && test_grep "Class: \*\*context-only\*\*" out/review.md
'
test_expect_success 'the same lines landing in another function or between other lines are functional' '
	orig && stack "s/^@@ -10,3 +10,3 @@ int f(void)/@@ -40,3 +40,3 @@ int g(void)/; s/^ d$/ e/" &&
	test_must_fail 1 review_it 2>err >/dev/null &&
	test_grep "9.9/p.patch: deviates functionally from X-fix.patch without a" err &&
	test_grep "^1. foo.c: .-b. lands in g after .a. and before .e.; the original.s in f after .a. and before .d.$" out/review.md &&
	orig && stack "s/^ a$/ x/; s/^ d$/ y/" && test_must_fail 1 review_it 2>err >/dev/null &&
	test_grep "^1. foo.c: .-b. lands in f after .x. and before .y.; the original.s in f after .a. and before .d.$" out/review.md
'
test_expect_success 'a check moved into another case of a switch is functional, not a rebase' '
	mkdir -p up && cat >up/X-fix.patch <<-\P &&
	From: A Author <a@example.org>
	Subject: [PATCH] foo: refuse FITRIM

	Signed-off-by: A Author <a@example.org>
	---
	--- a/ioctl.c
	+++ b/ioctl.c
	@@ -10,7 +10,9 @@ long foo_ioctl(struct file *filp, unsigned int cmd)
	 	case FITRIM:
	 	{
	 		struct fstrim_range range;
	+		if (shared)
	+			return -EROFS;
	 
	 		if (!capable(CAP_SYS_ADMIN))
	 			return -EPERM;
	P
	rm -rf v && mkdir -p v/9.9 && echo p.patch >v/9.9/series &&
	sed -e "s|^Signed-off-by|Original: common/upstream/X-fix.patch\n\nSigned-off-by|" \
	    -e "s/@@ -10,7 +10,9 @@/@@ -40,7 +40,9 @@/" -e "s/case FITRIM:/case FOO_IOC_SWAP_BOOT:/" \
	    -e "s/struct fstrim_range range;/int err;/" -e "s/!capable(CAP_SYS_ADMIN)/!(filp->f_mode \& FMODE_WRITE)/" \
	    -e "s/-EPERM;/-EBADF;/" up/X-fix.patch >v/9.9/p.patch &&
	test_must_fail 1 review_it 2>err >/dev/null &&
	test_grep "Class: \*\*functional\*\*" out/review.md &&
	test_grep "lands in foo_ioctl after .int err;. and before .if (!(filp->f_mode & FMODE_WRITE)).; the original.s in foo_ioctl after .struct fstrim_range range;. and before .if (!capable(CAP_SYS_ADMIN))." out/review.md
'
test_expect_success 'a functional deviation without a note is a lint error' '
	orig && stack "s/^+c$/+C/" && test_must_fail 1 review_it 2>err >/dev/null &&
	test_grep "9.9/p.patch: deviates functionally from X-fix.patch without a .\[ 9.9: ... \]. note" err &&
	test_grep "Class: \*\*functional\*\*" out/review.md
'
test_expect_success 'the same deviation with its note passes' '
	orig && stack "s/^+c$/+C/; s/^---$/[ 9.9: C, because 9.9 spells it so. ]\n---/" &&
	review_it >log 2>&1 && test_grep "> \[ 9.9: C, because" out/review.md
'
test_expect_success 'a patch naming no original is a lint error' '
	orig && stack "" && sed -i "/^Original:/d" v/9.9/p.patch && test_must_fail 1 review_it 2>err >/dev/null &&
	test_grep "9.9/p.patch: no upstream reference" err
'
test_expect_success 'a dropped Signed-off-by or Fixes of the original is a lint error' '
	orig && stack "/^Fixes:/d" && test_must_fail 1 review_it 2>err >/dev/null &&
	test_grep "the original.s .Fixes: 123456789abc" err
'
test_expect_success 'another author than the original is a lint error' '
	orig && stack "s/^From: A Author/From: Somebody Else/" && test_must_fail 1 review_it 2>err >/dev/null &&
	test_grep "author .Somebody Else" err
'
test_expect_success 'the HTML page is written beside the Markdown' '
	orig && stack "" && review_it >/dev/null 2>&1 && test_grep "<h2 id=\"s9.9\">9.9</h2>" out/review.html
'
test_expect_success 'every form of an entry is reviewed against its original, and named for its releases' '
	orig && stack "" && mkdir -p v/9.9/forms/9.9.0-9.9.4 && sed "s/^+c$/+C/" v/9.9/p.patch >v/9.9/forms/9.9.0-9.9.4/p.patch &&
	test_must_fail 1 review_it 2>err >/dev/null &&
	test_grep "9.9/forms/9.9.0-9.9.4/p.patch: deviates functionally from X-fix.patch without a .\[ 9.9: ... \]. note" err &&
	test_grep "^1. p.patch; its forms for other trees: 9.9.0-9.9.4$" out/review.md
'
test_expect_success 'the verdicts name what the flavour refuses and where it still leaks' '
	orig && stack "" && cat >res.json <<-\J &&
	{"schema": 2, "series": [{"name": "9.9", "status": "run", "kernel": "9.9.1", "stacks": {}, "cells": [
	 {"case": "a", "variant": "vanilla", "status": "PASS", "actual": "refused EUCLEAN", "leaks": false},
	 {"case": "a", "variant": "patched", "status": "PASS", "actual": "refused EUCLEAN", "leaks": false},
	 {"case": "b", "variant": "patched", "status": "PASS", "actual": "ro ok, read EUCLEAN, rw ok", "leaks": false},
	 {"case": "c", "variant": "patched", "status": "PASS", "actual": "ro ok, LEAKS, rw EINVAL", "leaks": true},
	 {"case": "d", "variant": "patched", "status": "FAIL", "actual": "refused EIO", "leaks": false},
	 {"case": "e", "variant": "patched", "status": "PASS", "actual": "mounted", "leaks": false},
	 {"case": "f", "variant": "vanilla", "status": "PASS", "actual": "ro ok, LEAKS, rw ok", "leaks": true}]}]}
	J
	review --versions v --upstream up --results res.json out >log 2>&1 &&
	test_grep "^Refused by this flavour, at mount or at first read, as expected: a (refused EUCLEAN), b (ro ok, read EUCLEAN, rw ok)\.$" out/review.md &&
	test_grep "^Known weaknesses (as expected, but a file read metadata back): c\.$" out/review.md
'
test_expect_success 'fstests on the series are named: passes, what vanilla fails and the variant fixes, new failures' '
	orig && stack "" && cat >res.json <<-\J &&
	{"schema": 3, "series": [{"name": "9.9", "status": "run", "kernel": "9.9.1", "stacks": {}, "cells": [], "fstests": [
	 {"test": "ext4/990", "variant": "patched", "status": "PASS", "fixed": true},
	 {"test": "generic/001", "variant": "patched", "status": "PASS"},
	 {"test": "generic/002", "variant": "patched", "status": "FAIL"},
	 {"test": "ext4/053", "variant": "patched", "status": "SKIP"},
	 {"test": "generic/001", "variant": "hardened", "status": "FAIL"}]}]}
	J
	review --versions v --upstream up --results res.json out >log 2>&1 &&
	test_grep "^fstests (make matrix FSTESTS=1; the rule: no new failure against vanilla): 4 tests on patched against vanilla: 2 pass (fixed: ext4/990), 1 new failures (generic/002), 0 errors, 1 skipped or baseline\.$" out/review.md
'
test_expect_success 'the real trees: oldest and newest applied, oldest booted, and the oldest booted for each other arch' '
	orig && stack "" && mkdir -p common && : >common/a.config && cat >m.yaml <<-Y &&
	arches:
	  x86_64: {arch: x86_64, cross: "", target: bzImage, image: b, config: common/a.config, packages: build, qemu: q,
	           console: c, console_qemu: q, ktap: k, ktap_qemu: q}
	  arm64: {arch: arm64, cross: a-, target: Image, image: i, config: common/a.config, packages: build, qemu: q,
	          console: c, console_qemu: q, ktap: k, ktap_qemu: q}
	series:
	  - name: "9.9"
	    source: {tree: {env: KIT_SRC_9_9}}
	    stack: v/9.9
	    fixes: {A: upstream v5.9-rc2, B: stack}
	    trees:
	      - {release: 9.9.3, from: "tree three", applied: [patched], booted: [patched, patched@arm64]}
	      - {release: 9.9.1, from: "tree one", applied: [patched], booted: [patched@arm64]}
	      - {release: 9.9.7, from: "tree seven", applied: [patched]}
	Y
	review --versions v --upstream up --results none --matrix m.yaml out >log 2>&1 &&
	test_grep "real trees: applied from 9.9.1 (tree one) to 9.9.7 (tree seven); oldest booted 9.9.3 (tree three); for other arches, oldest booted: arm64 9.9.1" out/review.md &&
	test_grep "^| 9.9 | - | 9.9.1 | 9.9.7 | 3 | 9.9.3 | - | none |$" out/review.md &&
	mkdir -p v/9.9/forms/9.9.0-9.9.2 v/9.9/forms/android99-9.9 && cp v/9.9/p.patch v/9.9/forms/9.9.0-9.9.2/ &&
	cp v/9.9/p.patch v/9.9/forms/android99-9.9/ && rm -rf out &&
	review --versions v --upstream up --results none --matrix m.yaml out >log 2>&1 &&
	test_grep "^| 9.9 | - | 9.9.1 | 9.9.7 | 3 | 9.9.3 | - | 9.9.0-9.9.2 (1), android99-9.9 (1) |$" out/review.md &&
	sed -i "/^    trees:/i\\    walked: {from: \"a history\", first: 9.9.0, last: 9.9.8, states: 5, took: [patched]}" m.yaml && rm -rf out &&
	review --versions v --upstream up --results none --matrix m.yaml out >log 2>&1 &&
	test_grep "^| 9.9 | - | 9.9.1 | 9.9.7 | 3 | 9.9.3 | 9.9.0-9.9.8 (5 states) | 9.9.0-9.9.2 (1), android99-9.9 (1) |$" out/review.md
'
test_expect_success 'the shipped stacks have no lint error' '
	review --results none out2 >log 2>&1 && test_grep "9 series, 0 lint error" log
'
test_done
