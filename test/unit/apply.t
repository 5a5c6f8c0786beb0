#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/apply on fixture trees: all or nothing, already present, conflicts,
# wrong version, undo, git trees.
. "$(dirname "$0")/lib.sh"

# A 9.9.3 tree and a two-patch stack for 9.9 (the second builds on the first).
fixture() {
	rm -rf t 9.9 9.8 && mkdir -p t/fs/ext4 9.9 &&
	printf "VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 3\nEXTRAVERSION =\n" >t/Makefile &&
	printf "one\ntwo\nthree\nfour\nfive\n" >t/fs/ext4/super.c &&
	printf "alpha\nbeta\ngamma\n" >t/fs/ext4/ext4.h &&
	cat >9.9/a.patch <<-P &&
	--- a/fs/ext4/super.c
	+++ b/fs/ext4/super.c
	@@ -1,5 +1,5 @@
	 one
	-two
	+TWO
	 three
	 four
	 five
	P
	cat >9.9/b.patch <<-P &&
	--- a/fs/ext4/super.c
	+++ b/fs/ext4/super.c
	@@ -1,5 +1,5 @@
	 one
	 TWO
	-three
	+THREE
	 four
	 five
	--- a/fs/ext4/ext4.h
	+++ b/fs/ext4/ext4.h
	@@ -1,3 +1,3 @@
	 alpha
	-beta
	+BETA
	 gamma
	P
	printf "a.patch\nb.patch\n" >9.9/series
}
treesum() { (cd t && find . -type f | LC_ALL=C sort | xargs sha256sum) | sha256sum; }

test_expect_success 'a clean tree gets the whole stack, in order' '
	fixture && apply --stack 9.9 t >out && test_grep "a.patch: applies cleanly" out &&
	test_grep "b.patch: applies cleanly" out &&
	test "$(sed -n 3p t/fs/ext4/super.c)" = THREE && test "$(sed -n 2p t/fs/ext4/ext4.h)" = BETA
'
test_expect_success 'a second run says already present (exit 3) and changes nothing' '
	fixture && apply --stack 9.9 t >/dev/null && before=$(treesum) &&
	test_must_fail 3 apply --stack 9.9 t >out && test_grep "every patch is already present" out &&
	test "$(treesum)" = "$before"
'
test_expect_success 'a tree with one patch pre-applied gets only the other' '
	fixture && patch -s -d t -p1 <9.9/a.patch && apply --stack 9.9 t >out &&
	test_grep "a.patch: already present" out && test_grep "applied b.patch (1 already present, skipped)" out
'
test_expect_success 'a conflict changes nothing, exits 4 and names file and hunk' '
	fixture && printf "one\nzwei\nthree\nfour\nfive\n" >t/fs/ext4/super.c && before=$(treesum) &&
	test_must_fail 4 apply --stack 9.9 t >out && test_grep "a.patch: CONFLICT" out &&
	test_grep "fs/ext4/super.c: Hunk #1 FAILED" out && test "$(treesum)" = "$before" &&
	test ! -e t/.pc && test ! -e t/.kit-apply
'
test_expect_success 'dry-run reports and changes nothing' '
	fixture && before=$(treesum) && apply --dry-run --stack 9.9 t >out &&
	test_grep "would apply a.patch b.patch" out && test "$(treesum)" = "$before" && test ! -e t/.pc
'
test_expect_success 'a stack for another series is refused (exit 2) unless forced' '
	fixture && mv 9.9 9.8 && test_must_fail 2 apply --stack 9.8 t 2>err &&
	test_grep "9.8 is for 9.8, the tree is 9.9.3; refusing" err &&
	apply --force --stack 9.8 t >out && test_grep "warning: using the 9.8 stack" out
'
test_expect_success 'a tree without a version is bad input' '
	mkdir -p nov && echo "all:" >nov/Makefile && test_must_fail 2 apply --stack 9.9 nov 2>err &&
	test_grep "no VERSION, PATCHLEVEL and SUBLEVEL" err
'
test_expect_success 'undo restores the tree byte for byte' '
	fixture && before=$(treesum) && apply --stack 9.9 t >/dev/null && test "$(treesum)" != "$before" &&
	apply --undo t >/dev/null && test "$(treesum)" = "$before" && test ! -e t/.pc && test ! -e t/.kit-apply
'
test_expect_success 'on a git tree nothing of quilt reaches the index' '
	fixture && git -C t init -q && git -C t add -A && git -C t -c user.name=k -c user.email=k@k commit -qm base &&
	apply --stack 9.9 t >/dev/null && test -z "$(git -C t diff --cached --name-only)" &&
	test "$(git -C t diff --name-only | LC_ALL=C sort | tr "\n" " ")" = "fs/ext4/ext4.h fs/ext4/super.c " &&
	apply --undo t >/dev/null && test -z "$(git -C t status --porcelain)"
'
test_expect_success 'the shipped stacks are found by the tree version' '
	fixture && sed -i "s/^VERSION = 9/VERSION = 6/; s/^PATCHLEVEL = 9/PATCHLEVEL = 1/" t/Makefile &&
	test_must_fail 4 apply --dry-run t >out && test_grep "stack versions/6.1/series (verified on 6.1.192)" out &&
	test_grep "note: this tree is 6.1.3, the stack was verified on 6.1.192" out
'
test_done
