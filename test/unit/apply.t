#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/tools/apply on fixture trees: all or nothing, verdicts per patch (already
# present, partly present, conflict, blocked), wrong version, bad input,
# undo, git trees and trees with their own quilt stack.
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
	@@ -1,5 +1,5 @@ int fill(void)
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
# The fixture with a quilt stack of its own pushed, as dpkg-source -x or a
# distro's patch workflow leaves a tree: its .pc, patches and series.
own_stack() {
	fixture && printf "int dir;\n" >t/fs/ext4/dir.c && mkdir t/patches &&
	printf -- "--- a/fs/ext4/dir.c\n+++ b/fs/ext4/dir.c\n@@ -1 +1 @@\n-int dir;\n+int dir = 1;\n" >t/patches/own.patch &&
	echo own.patch >t/patches/series && (cd t && quilt --quiltrc=- push -aq >/dev/null)
}
# A quilt that pushes one patch and then fails, as a push that breaks half-way.
fake_quilt() {
	mkdir -p fake && real=$(command -v quilt) && cat >fake/quilt <<-Q && chmod +x fake/quilt
	#!/bin/sh
	case " \$* " in *" push "*) "$real" --quiltrc=- push -q >/dev/null; exit 1 ;; esac
	exec "$real" "\$@"
	Q
}

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
test_expect_success 'a conflict changes nothing, exits 4, names file, hunk, function and the line that differs' '
	fixture && printf "one\nzwei\nthree\nfour\nfive\n" >t/fs/ext4/super.c && before=$(treesum) &&
	test_must_fail 4 apply --stack 9.9 t >out && test_grep "a.patch: CONFLICT" out &&
	test_grep "fs/ext4/super.c hunk #1 (int fill(void)): line 2 reads .zwei., the patch expects .two.$" out &&
	test "$(treesum)" = "$before" && test ! -e t/.pc && test ! -e t/.kit-apply
'
test_expect_success 'a conflict where the tree lacks a line of the hunk names that line, at the tree.s line number' '
	fixture && printf "one\nthree\nfour\nfive\n" >t/fs/ext4/super.c && test_must_fail 4 apply --stack 9.9 t >out &&
	test_grep "fs/ext4/super.c hunk #1 (int fill(void)): line 2 reads .three., the patch expects .two. before it (the file lacks that line)$" out
'
test_expect_success 'a conflict where the tree has a line more in the hunk names that line' '
	fixture && printf "one\ntwo\nextra\nthree\nfour\nfive\n" >t/fs/ext4/super.c && test_must_fail 4 apply --stack 9.9 t >out &&
	test_grep "fs/ext4/super.c hunk #1 (int fill(void)): line 3 reads .extra., a line the patch does not have (it expects .three. next)$" out
'
test_expect_success 'a conflict in white space only says so' '
	fixture && printf "one\ntwo \nthree\nfour\nfive\n" >t/fs/ext4/super.c && test_must_fail 4 apply --stack 9.9 t >out &&
	test_grep "fs/ext4/super.c hunk #1 (int fill(void)): line 2 reads .two ., the patch expects .two. (they differ in white space only)$" out
'
test_expect_success 'a patch that fails only because an earlier one did is blocked by it' '
	fixture && printf "one\nzwei\nthree\nfour\nfive\n" >t/fs/ext4/super.c &&
	test_must_fail 4 apply --stack 9.9 t >out && test_grep "b.patch: BLOCKED by a.patch" out &&
	printf "alpha\nBETA?\ngamma\n" >t/fs/ext4/ext4.h && test_must_fail 4 apply --stack 9.9 t >out &&
	test_grep "b.patch: CONFLICT" out && test_grep "fs/ext4/ext4.h hunk #1: line 2 reads .BETA?., the patch expects .beta." out
'
test_expect_success 'a half-applied patch is partly present, naming the hunks there and missing' '
	fixture && patch -s -d t -p1 <9.9/a.patch && sed -i "s/^beta$/BETA/" t/fs/ext4/ext4.h && before=$(treesum) &&
	test_must_fail 4 apply --stack 9.9 t >out && test_grep "a.patch: already present" out &&
	test_grep "b.patch: PARTLY PRESENT: present: fs/ext4/ext4.h hunk #1; missing: fs/ext4/super.c hunk #1$" out &&
	test "$(treesum)" = "$before"
'
# calls G-BODY: a tree whose f() calls call() and whose g() has G-BODY, and
# a 9.9 stack whose one patch adds that call to g().
calls() {
	fixture && printf "int f(void)\n{\n\tlock();\n\tcall();\n\tunlock();\n}\n\nint g(void)\n{\n$1}\n" >t/fs/ext4/super.c &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -9,4 +9,5 @@ int g(void)\n {\n \tlock();\n+\tcall();\n \tunlock();\n }\n" >9.9/a.patch &&
	echo a.patch >9.9/series
}
test_expect_success 'a patch whose lines another function already has is applied where it belongs, not already present' '
	calls "\tlock();\n\tunlock();\n" && apply --stack 9.9 t >out && test_grep "a.patch: applies cleanly" out &&
	test "$(grep -c "call();" t/fs/ext4/super.c)" = 2 && test "$(sed -n 11p t/fs/ext4/super.c)" = "	call();"
'
test_expect_success 'a patch that does not fit where it belongs is a conflict, though another function has its lines' '
	calls "\tlock();\n\twait();\n\tunlock();\n" && before=$(treesum) && test_must_fail 4 apply --stack 9.9 t >out &&
	test_grep "a.patch: CONFLICT" out && ! grep "already present" out && test "$(treesum)" = "$before"
'
test_expect_success 'a hunk whose lines another function has does not make its patch partly present' '
	calls "\tlock();\n\twait();\n\tunlock();\n" &&
	printf -- "--- a/fs/ext4/ext4.h\n+++ b/fs/ext4/ext4.h\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n" >>9.9/a.patch &&
	test_must_fail 4 apply --stack 9.9 t >out && test_grep "a.patch: CONFLICT" out &&
	test_grep "fs/ext4/super.c hunk #1 (int g(void)): line 11 reads ..wait();., a line the patch does not have (it expects ..unlock();. next); the lines it adds are at line 2, in int f(void), not in the function the patch names$" out
'
test_expect_success 'under --force each hunk says where it landed: line, offset, function' '
	fixture && mv 9.9 9.8 && printf "a.patch\n" >9.8/series &&
	printf "/* new */\nint fill(void)\n{\n\tone;\n\ttwo;\n\tthree;\n\tfour;\n}\n" >t/fs/ext4/super.c &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -2,5 +2,5 @@ int fill(void)\n {\n \tone;\n-\ttwo;\n+\tTWO;\n \tthree;\n \tfour;\n" >9.8/a.patch &&
	apply --force --stack 9.8 t >out && test_grep "a.patch: applies cleanly" out &&
	test_grep "fs/ext4/super.c hunk #1: at line 3, offset 1 line(s), in int fill(void)$" out
'
# landing FUNCTION-OF-THE-@@-LINE: a 9.8 stack whose one hunk lands, with
# an offset, after a label and in front of a macro at column 0 that is
# part of its context.
landing() {
	fixture && mv 9.9 9.8 && printf "a.patch\n" >9.8/series &&
	printf "/* new */\nstatic int fill_a_super_block_with_a_long_name(struct super_block *sb, int silent)\n{\n\tone;\nout:\n\ttwo;\nDEFINE(x);\n\tthree;\n\tfour;\n}\n" >t/fs/ext4/super.c &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -5,5 +5,5 @@ %s\n \ttwo;\n DEFINE(x);\n-\tthree;\n+\tTHREE;\n \tfour;\n }\n" "$1" >9.8/a.patch
}
test_expect_success 'where a hunk lands names the function before it, not a label or a macro of its context' '
	landing "out:" && apply --dry-run --force --stack 9.8 t >out &&
	test_grep "fs/ext4/super.c hunk #1: at line 6, offset 1 line(s), in static int fill_a_super_block_with_a_long_name(struct super_block \*sb, int silent)$" out
'
test_expect_success 'where a hunk lands: no warning when the patch names the function, or the label diff names' '
	landing "static int fill_a_super_block_with_a_long_name(struct super_block *sb, int silent)" &&
	apply --dry-run --force --stack 9.8 t >out && ! grep "the patch says" out &&
	landing "out:" && apply --dry-run --force --stack 9.8 t >out && ! grep "the patch says" out
'
test_expect_success 'where a hunk lands: the function is compared on its first 40 characters, as GNU diff keeps it' '
	landing "static int fill_a_super_block_with_a_long_name(struct super_block *sb, int quiet)" &&
	apply --dry-run --force --stack 9.8 t >out && ! grep "the patch says" out &&
	landing "static int fill_a_super_block_with_a_lon" && apply --dry-run --force --stack 9.8 t >out && ! grep "the patch says" out
'
test_expect_success 'where a hunk lands: a function other than the patch names is said' '
	landing "int other(void)" && apply --dry-run --force --stack 9.8 t >out &&
	test_grep "in static int fill_a_super_block_with_a_long_name(struct super_block \*sb, int silent) (the patch says: int other(void))$" out
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
	mkdir -p nov/fs/ext4 && echo "all:" >nov/Makefile && test_must_fail 2 apply --stack 9.9 nov 2>err &&
	test_grep "no VERSION, PATCHLEVEL and SUBLEVEL" err
'
test_expect_success 'undo restores the tree byte for byte' '
	fixture && before=$(treesum) && apply --stack 9.9 t >/dev/null && test "$(treesum)" != "$before" &&
	apply --undo t >/dev/null && test "$(treesum)" = "$before" && test ! -e t/.pc && test ! -e t/.kit-apply
'
# treestate: every entry of t with its type, mode, size, mtime and content.
treestate() { (cd t && find . -printf "%y %m %s %T@ %p\n" | LC_ALL=C sort && find . -type f | LC_ALL=C sort | xargs sha256sum); }
test_expect_success 'a sibling tree sharing the files (cp -al) is left as it was: content, inode and times' '
	fixture && touch -d 2001-01-01 t/fs/ext4/super.c t/fs/ext4/ext4.h && rm -rf sib && cp -al t sib &&
	sibstate() { stat -c "%i %h %Y %n" sib/fs/ext4/super.c sib/fs/ext4/ext4.h && cat sib/fs/ext4/*; } &&
	before=$(treesum) && sib0=$(sibstate | sed "s/^\([0-9]*\) 2 /\1 1 /") &&
	apply --stack 9.9 t >/dev/null && test "$(sibstate)" = "$sib0" &&
	test "$(stat -c %Y sib/fs/ext4/super.c)" = "$(date -d 2001-01-01 +%s)" &&
	apply --undo t >/dev/null && test "$(sibstate)" = "$sib0" && test "$(treesum)" = "$before" &&
	test "$(stat -c %Y t/fs/ext4/super.c)" -gt "$(date -d 2001-01-01 +%s)" && ! ls t/fs/ext4/.*.kit-own 2>/dev/null
'
test_expect_success 'undo is refused (exit 1), not said done, when quilt cannot read its own record' '
	fixture && apply --stack 9.9 t >/dev/null && echo 1 >t/.kit-apply/pc/.version &&
	test_must_fail 1 apply --undo t >out 2>err && ! grep undone out &&
	test_grep THREE t/fs/ext4/super.c && test -d t/.kit-apply/pc
'
test_expect_success 'a patch naming a file outside the tree is bad input (exit 2), nothing changed' '
	fixture && sed -i "s#^+++ b/fs/ext4/ext4.h#+++ b/../../victim#" 9.9/b.patch && before=$(treesum) &&
	test_must_fail 2 apply --stack 9.9 t >out 2>err &&
	test_grep "changes .\.\./\.\./victim., outside the tree" err && test "$(treesum)" = "$before" && test ! -e t/.kit-apply
'
test_expect_success 'undo --dry-run says what undo would remove and restore, and changes nothing' '
	fixture && apply --stack 9.9 t >/dev/null && before=$(treestate) && apply --dry-run --undo t >out &&
	test_grep "t: undo would remove a.patch b.patch and .*/t/.kit-apply, restoring fs/ext4/ext4.h, fs/ext4/super.c (--dry-run: nothing changed)$" out &&
	test "$(treestate)" = "$before" && test "$(sed -n 3p t/fs/ext4/super.c)" = THREE
'
test_expect_success 'undo --dry-run of an undo that would fail says so (exit 1) and changes nothing' '
	fixture && apply --stack 9.9 t >/dev/null && echo edited >>t/fs/ext4/ext4.h && before=$(treestate) &&
	test_must_fail 1 apply --dry-run --undo t >out 2>err &&
	test_grep "t: undo would fail: .*/t/fs/ext4/ext4.h is not as the apply left it (edited, or the tree updated since); take that change out, then undo (--dry-run: nothing changed)$" err && test "$(treestate)" = "$before"
'
test_expect_success 'an undo that quilt would stop half-way changes nothing (exit 1)' '
	fixture && printf "int dir;\n" >t/fs/ext4/dir.c && printf "c.patch\na.patch\nb.patch\n" >9.9/series &&
	printf -- "--- a/fs/ext4/dir.c\n+++ b/fs/ext4/dir.c\n@@ -1 +1 @@\n-int dir;\n+int dir = 1;\n" >9.9/c.patch &&
	apply --stack 9.9 t >/dev/null && rm t/.kit-apply/sums && echo edited >>t/fs/ext4/dir.c && before=$(treestate) &&
	test_must_fail 1 apply --undo t >out 2>err && test_grep "t: undo would fail: c.patch does not come off cleanly, a file it changes was edited since the apply (.*/t/fs/ext4/dir.c); take that edit out, then undo (nothing changed)$" err && test $(wc -l <err) -eq 1 &&
	test "$(treestate)" = "$before"
'
# old_times: the files of t and the kit's patches dated 2001, as a copy
# that keeps times leaves them (cp -p of a backup, tar, rsync -t): quilt
# then takes the files for unchanged since its push, and checks nothing.
old_times() { find t/fs t/.kit-apply/patches -type f -exec touch -d "2001-02-03 04:05:06" {} +; }
test_expect_success 'undo refuses (exit 1) a file changed since the apply, naming it, though its time is old; nothing changed' '
	fixture && apply --stack 9.9 t >/dev/null && sed -i "s/^gamma$/GAMMA/" t/fs/ext4/ext4.h && old_times &&
	before=$(treestate) && test_must_fail 1 apply --undo t >out 2>err &&
	test_grep "^apply: $trash/t: undo would fail: $trash/t/fs/ext4/ext4.h is not as the apply left it (edited, or the tree updated since); take that change out, then undo (nothing changed)$" err &&
	test $(wc -l <err) -eq 1 && test "$(treestate)" = "$before"
'
test_expect_success 'undo of an older kit.s apply (no sums) checks every file with quilt: a change is refused (exit 1), nothing changed' '
	fixture && apply --stack 9.9 t >/dev/null && rm -f t/.kit-apply/sums && sed -i "s/^gamma$/GAMMA/" t/fs/ext4/ext4.h &&
	old_times && before=$(treestate) && test_must_fail 1 apply --undo t >out 2>err &&
	test_grep "t: undo would fail: b.patch does not come off cleanly" err && test "$(treestate)" = "$before"
'
test_expect_success 'undo of an earlier kit.s apply with its data in .pc, after the tree moved, undoes it' '
	fixture && before=$(treesum) && mkdir t/.kit-apply && cp 9.9/a.patch t/.kit-apply/ && echo a.patch >t/.kit-apply/series &&
	(cd t && QUILT_PC=.pc QUILT_PATCHES=$PWD/.kit-apply QUILT_SERIES=$PWD/.kit-apply/series quilt --quiltrc=- push -aq >/dev/null) &&
	mv t moved && mv moved t && mv t t2 && apply --undo t2 >out && mv t2 t && test "$(treesum)" = "$before" &&
	test ! -e t/.pc && test ! -e t/.kit-apply
'
test_expect_success 'undo of an apply after the tree moved undoes it' '
	fixture && before=$(treesum) && apply --stack 9.9 t >/dev/null && mv t t2 && apply --undo t2 >out &&
	mv t2 t && test "$(treesum)" = "$before" && test ! -e t/.kit-apply
'
test_expect_success 'undo of a .kit-apply with no quilt data it can read is refused (exit 1), not claimed; nothing changed' '
	fixture && mkdir t/.kit-apply && cp 9.9/a.patch t/.kit-apply/ && echo a.patch >t/.kit-apply/series &&
	patch -s -d t -p1 <9.9/a.patch && before=$(treestate) && test_must_fail 1 apply --undo t >out 2>err &&
	test_grep "^apply: $trash/t: .*/t/.kit-apply holds no quilt data of the kit.s" err && test $(wc -l <err) -eq 1 &&
	test "$(treestate)" = "$before"
'
test_expect_success 'the undo hint is a command to paste from any folder: script and tree by absolute path, quoted' '
	d=$(printf "sp ace/it\047s") && mkdir -p "$d" && (cd "$d" && fixture) &&
	(cd "$TOP" && build/tools/apply --stack "$trash/$d/9.9" "$trash/$d/t") >out &&
	cmd=$(sed -n "s/.*; undo with: //p" out) && test "${cmd%% *}" = "$TOP/build/tools/apply" &&
	(cd / && sh -c "$cmd") >undo && test_grep "t: undone, the tree is as before the apply" undo && test ! -e "$d/t/.kit-apply"
'
test_expect_success 'a tree whose path has | & \ and a space is named as it is, in every message of apply and undo' '
	d="p|q&r\\c s" && mkdir -p "$d" && (cd "$d" && fixture) && T=$trash/$d/t &&
	apply --stack "$d/9.9" "$d/t" >out && grep -F -- "$T: applied a.patch b.patch; undo with: " out &&
	rm "$d/t/.kit-apply/sums" && echo edited >>"$d/t/fs/ext4/ext4.h" && test_must_fail 1 apply --undo "$d/t" 2>err &&
	grep -F -- "apply: $T: undo would fail: b.patch does not come off cleanly, a file it changes was edited since the apply ($T/fs/ext4/ext4.h, $T/fs/ext4/super.c); take that edit out, then undo (nothing changed)" err &&
	sed -i "\$d" "$d/t/fs/ext4/ext4.h" && apply --undo "$d/t" >out && grep -Fx -- "$T: undone, the tree is as before the apply" out
'
# mtimes: the time of every file of t.
mtimes() { (cd t && find . -type f -printf "%T@ %p\n" | LC_ALL=C sort); }
test_expect_success 'after undo a build redoes what was built from the patched files' '
	fixture && printf "super.o: fs/ext4/super.c\n\tcat fs/ext4/super.c >super.o\n" >>t/Makefile &&
	make -s -C t super.o && cp t/super.o first && apply --stack 9.9 t >/dev/null && make -s -C t super.o &&
	test "$(sed -n 3p t/super.o)" = THREE && apply --undo t >/dev/null && make -s -C t super.o && test_cmp first t/super.o
'
test_expect_success 'undo leaves the files it restored newer than the patched ones, and their content and mode as before' '
	fixture && chmod 640 t/fs/ext4/super.c && touch -d "2001-02-03 04:05:06.789" t/fs/ext4/super.c t/fs/ext4/ext4.h &&
	sum=$(treesum) && modes=$(cd t && find . -printf "%m %p\n" | LC_ALL=C sort) && apply --stack 9.9 t >/dev/null &&
	touch -r t/fs/ext4/super.c patched && apply --undo t >/dev/null && test "$(treesum)" = "$sum" &&
	test "$(cd t && find . -printf "%m %p\n" | LC_ALL=C sort)" = "$modes" &&
	test t/fs/ext4/super.c -nt patched && test t/fs/ext4/ext4.h -nt patched
'
test_expect_success 'on a git tree nothing of quilt reaches the index' '
	fixture && git -C t init -q && git -C t add -A && git -C t -c user.name=k -c user.email=k@k commit -qm base &&
	apply --stack 9.9 t >/dev/null && test -z "$(git -C t diff --cached --name-only)" &&
	test "$(git -C t diff --name-only | LC_ALL=C sort | tr "\n" " ")" = "fs/ext4/ext4.h fs/ext4/super.c " &&
	apply --undo t >/dev/null && git -C t diff --exit-code && test -z "$(git -C t status --porcelain)"
'
test_expect_success 'a tree with its own quilt stack: a refused apply leaves it byte for byte' '
	own_stack && printf "one\nzwei\nthree\nfour\nfive\n" >t/fs/ext4/super.c && before=$(treesum) &&
	test_must_fail 4 apply --stack 9.9 t >out && test "$(treesum)" = "$before"
'
test_expect_success 'a tree with its own quilt stack: a failed push leaves it byte for byte' '
	own_stack && fake_quilt && before=$(treesum) &&
	PATH=$trash/fake:$PATH test_must_fail 1 apply --stack 9.9 t >out 2>err &&
	test_grep "quilt push failed after a clean check; what the kit changed is restored" err &&
	test "$(treesum)" = "$before" && test ! -e t/.kit-apply
'
test_expect_success 'a failed push gives the files it changed their times back' '
	fixture && fake_quilt && touch -d "2001-02-03 04:05:06.789" t/fs/ext4/super.c t/fs/ext4/ext4.h && before=$(mtimes) &&
	PATH=$trash/fake:$PATH test_must_fail 1 apply --stack 9.9 t >out 2>err && test "$(mtimes)" = "$before"
'
test_expect_success 'a tree with its own quilt stack: apply and undo leave it byte for byte, its stack intact' '
	own_stack && before=$(treesum) && apply --stack 9.9 t >out && test_grep "applied a.patch b.patch" out &&
	test "$(cd t && quilt --quiltrc=- applied)" = own.patch && apply --undo t >/dev/null &&
	test "$(treesum)" = "$before" && (cd t && quilt --quiltrc=- pop -aq >/dev/null) && test "$(cat t/fs/ext4/dir.c)" = "int dir;"
'
test_expect_success 'QUILT_* variables and a quiltrc are not read' '
	own_stack && before=$(treesum) && mkdir -p home && printf "QUILT_PC=.pc\nQUILT_PATCH_OPTS=-R\n" >home/.quiltrc &&
	HOME=$trash/home QUILT_PC=.pc QUILT_PATCHES=patches QUILT_SERIES=series QUILT_PATCH_OPTS=-R \
		apply --stack 9.9 t >/dev/null && test "$(sed -n 3p t/fs/ext4/super.c)" = THREE &&
	test "$(cd t && quilt --quiltrc=- applied)" = own.patch && test -d t/.kit-apply/pc &&
	HOME=$trash/home QUILT_PC=.pc apply --undo t >/dev/null && test "$(treesum)" = "$before"
'
test_expect_success 'a git tree with staged and unstaged changes: apply and undo leave it byte for byte' '
	fixture && git -C t init -q && git -C t add -A && git -C t -c user.name=k -c user.email=k@k commit -qm base &&
	echo staged >t/fs/ext4/new.c && git -C t add fs/ext4/new.c && echo unstaged >>t/Makefile &&
	git -C t status --porcelain >/dev/null && before=$(treesum) &&
	apply --stack 9.9 t >/dev/null && apply --undo t >/dev/null && test "$(treesum)" = "$before"
'
test_expect_success 'undo removes what an earlier kit applied with its data in .pc' '
	fixture && before=$(treesum) && mkdir t/.kit-apply && cp 9.9/a.patch t/.kit-apply/ && echo a.patch >t/.kit-apply/series &&
	(cd t && QUILT_PC=.pc QUILT_PATCHES=$PWD/.kit-apply QUILT_SERIES=$PWD/.kit-apply/series quilt --quiltrc=- push -aq >/dev/null) &&
	test "$(sed -n 2p t/fs/ext4/super.c)" = TWO && apply --undo t >/dev/null && test "$(treesum)" = "$before"
'
test_expect_success 'an earlier apply in place is not applied over' '
	fixture && printf "a.patch\n" >9.9/series && apply --stack 9.9 t >/dev/null && before=$(treesum) &&
	printf "a.patch\nb.patch\n" >9.9/series && test_must_fail 2 apply --stack 9.9 t 2>err &&
	test_grep "an earlier apply is in place (.*/t/.kit-apply); undo it first" err && test "$(treesum)" = "$before" &&
	apply --dry-run --stack 9.9 t >out && test "$(treesum)" = "$before" &&
	test_grep "^note: an earlier apply is in place (.*/t/.kit-apply): the real run would refuse it (exit 2); undo it first: " out
'
# Bad input: exit 2, one line naming the path and what to do, nothing changed.
test_expect_success 'an empty tree name is bad input, not the current directory' '
	fixture && before=$(treesum) && (cd t && test_must_fail 2 apply --stack ../9.9 "") 2>err &&
	test_grep "the tree is an empty name; name a kernel tree" err && test "$(treesum)" = "$before" && test $(wc -l <err) -eq 1
'
test_expect_success 'a missing tree is bad input' '
	test_must_fail 2 apply --stack 9.9 gone 2>err && test_grep "^apply: gone: no such directory; name a kernel tree$" err
'
test_expect_success 'a tree without fs/ext4 is bad input, not a conflict' '
	fixture && rm -r t/fs/ext4 && before=$(treesum) && test_must_fail 2 apply --stack 9.9 t 2>err &&
	test_grep "t: no fs/ext4; name a kernel tree with the ext4 sources" err && test "$(treesum)" = "$before"
'
test_expect_success 'a series entry outside the stack folder is refused (exit 2), naming it; nothing written' '
	fixture && mkdir -p k/s && mv 9.9 k/s/ && mv k/s/9.9/b.patch k/evil.patch && printf "a.patch\n../../evil.patch\n" >k/s/9.9/series &&
	before=$(treestate) && test_must_fail 2 apply --stack k/s/9.9 t >out 2>err &&
	test_grep "^apply: .*/k/s/9.9/series:2: .../../evil.patch. is outside .*/k/s/9.9 (an absolute path, .* or its forms/); name a patch file in that folder$" err &&
	test $(wc -l <err) -eq 1 && test "$(treestate)" = "$before" && test ! -e t/evil.patch && test ! -e t/.kit-apply
'
test_expect_success 'a missing --stack folder is named' '
	fixture && test_must_fail 2 apply --stack nowhere/9.9 t 2>err &&
	test_grep "^apply: nowhere/9.9: no such stack folder (--stack)" err
'
test_expect_success 'an option without its value is a usage error' '
	fixture && test_must_fail 2 apply t --stack 2>err && test_grep "^usage:" err
'
ro_prereq() {
	if [ "$(id -u)" != 0 ]; then test_set_prereq RO_TREE
	elif unshare -m sh -c "mount --bind -o ro \"$trash\" \"$trash\"" 2>/dev/null; then test_set_prereq RO_TREE; fi
}
ro_prereq
# ro CMD...: CMD with the tree t read-only (a read-only mount as root).
ro() {
	if [ "$(id -u)" != 0 ]; then chmod -R a-w t && rc=0 && "$@" || rc=$?; chmod -R u+w t; return $rc; fi
	unshare -m sh -c "mount --bind -o ro t t && exec \"\$@\"" sh "$@"
}
test_expect_success RO_TREE 'an unwritable tree is bad input, named; a dry run still reads it' '
	fixture && before=$(treesum) && test_must_fail 2 ro apply --stack 9.9 t 2>err &&
	test_grep "t: not writable; make it writable or apply to a copy" err && test $(wc -l <err) -eq 1 &&
	ro apply --dry-run --stack 9.9 t >out && test_grep "would apply a.patch b.patch" out && test "$(treesum)" = "$before"
'
test_expect_success RO_TREE 'a dry run of an unwritable tree says that the real run would refuse it' '
	fixture && ro apply --dry-run --stack 9.9 t >out &&
	test_grep "^note: .*/t is not writable: the real run would refuse it (exit 2); make it writable or apply to a copy$" out
'
test_expect_success 'a tree of symbolic links (cp -as) is refused (exit 2), dry run or not, naming the first link; nothing changed' '
	fixture && mv t real && cp -as "$trash/real" t && before=$(cd real && find . -type f -exec sha256sum {} + | LC_ALL=C sort) &&
	test_must_fail 2 apply --dry-run --stack 9.9 t >out 2>err &&
	test_grep "^apply: $trash/t/fs/ext4/ext4.h: a symbolic link, and patch changes only real files (what it points to is not this tree): apply to a copy of real files (cp -a, not cp -as)$" err &&
	test $(wc -l <err) -eq 1 && test_must_fail 2 apply --stack 9.9 t >out 2>err && test_grep "ext4.h: a symbolic link" err &&
	test "$(cd real && find . -type f -exec sha256sum {} + | LC_ALL=C sort)" = "$before" && test -n "$before" &&
	test ! -e t/.kit-apply && test -L t/fs/ext4/super.c
'
test_expect_success 'a tree whose fs/ext4 is a symbolic link is refused (exit 2), naming it' '
	fixture && mv t/fs/ext4 ext4 && ln -s "$trash/ext4" t/fs/ext4 && test_must_fail 2 apply --dry-run --stack 9.9 t 2>err &&
	test_grep "^apply: $trash/t/fs/ext4: a symbolic link" err
'
test_expect_success 'a file the stack changes that is not a regular file is refused (exit 2)' '
	fixture && rm t/fs/ext4/ext4.h && mkfifo t/fs/ext4/ext4.h && test_must_fail 2 apply --dry-run --stack 9.9 t 2>err &&
	test_grep "^apply: $trash/t/fs/ext4/ext4.h: not a regular file" err
'
# A copy of the kit with two more stacks, 9.8 and 9.12, around a 9.10 tree.
kit_around() {
	rm -rf kit && mkdir -p kit/test && cp -rp "$TOP/build" "$TOP/common" "$TOP/versions" "$TOP/matrix.yaml" kit/ &&
	cp -rp "$TOP/test/cases" kit/test/ && mkdir kit/versions/9.8 kit/versions/9.12 &&
	fixture && sed -i "s/^PATCHLEVEL = 9/PATCHLEVEL = 10/" t/Makefile && printf "pad\none\ntwo\nthree\n" >t/fs/ext4/super.c &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n" >kit/versions/9.8/a.patch &&
	printf -- "--- a/fs/ext4/ext4.h\n+++ b/fs/ext4/ext4.h\n@@ -1,3 +1,3 @@\n alpha\n-BETA?\n+BETA!\n gamma\n" >kit/versions/9.8/c.patch &&
	echo a.patch >kit/versions/9.8/series && printf "a.patch\nc.patch\n" >kit/versions/9.8/series.hardened &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -1,3 +1,3 @@\n eins\n-zwei\n+ZWEI\n drei\n" >kit/versions/9.12/z.patch &&
	echo z.patch >kit/versions/9.12/series
}
test_expect_success 'a tree of no kit series is refused, naming the nearest stacks and what a dry run of each says' '
	kit_around && before=$(treesum) && KIT_BUILD=$TOP/.kit test_must_fail 2 kit/build/tools/apply t >out 2>err &&
	test_grep "the kit has no stack for 9.10" out &&
	test_grep "^  versions/9.8: applies at offsets; hardened: conflicts in ext4.h$" out &&
	test_grep "^  versions/9.12: conflicts in super.c$" out &&
	test_grep "^apply: no stack for 9.10; --force takes versions/9.8, the nearest that applies (2 release(s) away; see above)" err &&
	test "$(treesum)" = "$before"
'
test_expect_success 'with --force a tree of no kit series takes the nearest stack that applies' '
	kit_around && KIT_BUILD=$TOP/.kit kit/build/tools/apply --force t >out &&
	test_grep "using versions/9.8, the nearest that applies, 2 release(s) away (--force)" out && test "$(sed -n 3p t/fs/ext4/super.c)" = TWO
'
test_expect_success 'with --force and a flavour none of the nearest applies with: refused (exit 2), as the hint said, nothing changed' '
	kit_around && before=$(treesum) && KIT_BUILD=$TOP/.kit test_must_fail 2 kit/build/tools/apply --flavour hardened t >out 2>err &&
	test_grep "^apply: no stack for 9.10, and none of the nearest applies with the hardened flavour (see above); nothing to force" err &&
	KIT_BUILD=$TOP/.kit test_must_fail 2 kit/build/tools/apply --force --flavour hardened t >out 2>err &&
	test_grep "^apply: no stack for 9.10, and none of the nearest applies with the hardened flavour" err &&
	test $(wc -l <err) -eq 1 && test "$(treesum)" = "$before" && test ! -e t/.kit-apply
'
test_expect_success 'with --force, of the nearest stacks that apply the one fewer releases away is taken' '
	kit_around && mv kit/versions/9.12 kit/versions/9.11 && cp kit/versions/9.8/a.patch kit/versions/9.11/z.patch &&
	KIT_BUILD=$TOP/.kit kit/build/tools/apply --dry-run --force t >out &&
	test_grep "using versions/9.11, the nearest that applies, 1 release(s) away (--force)" out
'
test_expect_success 'with --force, of two stacks as near that apply the newer is taken' '
	kit_around && cp kit/versions/9.8/a.patch kit/versions/9.12/z.patch && KIT_BUILD=$TOP/.kit kit/build/tools/apply --dry-run --force t >out &&
	test_grep "using versions/9.12, the nearest that applies, 2 release(s) away (--force)" out
'
test_expect_success 'the distance between series counts a major version as 20 releases' '
	kit_around && sed -i "s/^VERSION = 9/VERSION = 8/; s/^PATCHLEVEL = 10/PATCHLEVEL = 19/" t/Makefile &&
	rm -r kit/versions/9.8 && mkdir kit/versions/8.15 && cp kit/versions/9.12/z.patch kit/versions/9.12/series kit/versions/8.15/ &&
	sed -i "s/ eins/ one/; s/-zwei/-two/; s/+ZWEI/+TWO/; s/ drei/ three/" kit/versions/8.15/z.patch && cp kit/versions/8.15/z.patch kit/versions/9.12/ &&
	mv kit/versions/9.12 kit/versions/9.1 && KIT_BUILD=$TOP/.kit kit/build/tools/apply --dry-run --force t >out &&
	test_grep "using versions/9.1, the nearest that applies, 2 release(s) away (--force)" out
'
# preimage PATCH TREE: the files PATCH changes, as it expects them: each
# hunk's old side at its line, the function of its @@ line just before it,
# a distinct filler line everywhere else.
preimage() {
	awk -v tree="$2" '
		function flush() { if (out != "") { print "}" >out; close(out) } }
		/^\+\+\+ / { flush(); f = $2; sub(/^[^\/]*\//, "", f); out = tree "/" f; n = 0
			d = out; sub(/\/[^\/]*$/, "", d); system("mkdir -p \"" d "\""); next }
		/^@@ / { split($2, o, ","); start = substr(o[1], 2); fn = $0; sub(/^@@ [^@]* @@ ?/, "", fn)
			while (n < start - 2) print "/* filler " ++n " */" >out
			if (n < start - 1) print (fn != "" ? fn : "/* filler " n + 1 " */") >out
			n = start - 1; next }
		out != "" && /^[ -]/ { print substr($0, 2) >out; n++ }
		END { flush() }' "$1"
}
A54=ext4-handle-add_system_zone-failure-in-ext4_setup_system_zone
# tree54 FORM: a 5.4.301 tree with what the first three entries of the
# 5.4 stack touch (A, B, FITRIM), its ext4_setup_system_zone() from the A
# form FORM expects ("" for the three-argument 5.4.y form,
# "forms/with-ce9f24cccdc0/" for trees with ce9f24cccdc0); s54/5.4, the 5.4 stack with those three entries
# alone (the later ones touch super.c again, which preimage cannot join).
tree54() {
	rm -rf s54 && mkdir s54 && cp -r "$TOP/versions/5.4" s54/5.4 &&
	grep -v "^#" "$TOP/versions/5.4/series" | head -n 3 >s54/5.4/series &&
	test_grep "^$A54.patch$" s54/5.4/series && test -f s54/5.4/forms/with-ce9f24cccdc0/$A54.patch && test_grep "^ext4-refuse-fitrim" s54/5.4/series &&
	rm -rf t && mkdir -p t/fs/ext4 && printf "VERSION = 5\nPATCHLEVEL = 4\nSUBLEVEL = 301\n" >t/Makefile &&
	for p in fix-ext4-regression-in-v5.9-rc2-on-ro-fs-with-overlapped-bitmaps ext4-refuse-fitrim-when-shared_blocks-is-set \
		$1ext4-handle-add_system_zone-failure-in-ext4_setup_system_zone; do
		preimage "$TOP/versions/5.4/$p.patch" t || return 1
	done
}
test_expect_success 'a 5.4 tree whose add_system_zone() takes ino gets the form of A for it, and A is in its code' '
	tree54 forms/with-ce9f24cccdc0/ && test_must_fail 1 check-fix-a t "$TOP"/common/upstream/A-*.patch 2>/dev/null &&
	apply --stack s54/5.4 t >out && test_grep "^  $A54.patch: its form for trees with-ce9f24cccdc0, forms/with-ce9f24cccdc0/$A54.patch, applies cleanly$" out &&
	test_grep "applied forms/with-ce9f24cccdc0/$A54.patch fix-ext4-regression" out &&
	check-fix-a t "$TOP"/common/upstream/A-*.patch >fixa && test_grep "fix A present" fixa
'
test_expect_success 'a 5.4.y tree (three arguments) gets the first form of A' '
	tree54 "" && apply --stack s54/5.4 t >out && test_grep "^  $A54.patch: applies cleanly$" out &&
	check-fix-a t "$TOP"/common/upstream/A-*.patch >/dev/null
'
test_expect_success 'a tree with A in another form: A is skipped, said so, and B applied' '
	tree54 forms/with-ce9f24cccdc0/ && patch -s -d t -p1 <"$TOP/versions/5.4/forms/with-ce9f24cccdc0/$A54.patch" &&
	sed -i "0,/^\t\t\tif (ret)$/s//\t\t\tif (ret < 0)/" t/fs/ext4/block_validity.c &&
	apply --stack s54/5.4 t >out && test_grep "^  $A54.patch: present in another form, skipped (fix A present: all [0-9]* add_system_zone() calls" out &&
	test_grep "applied fix-ext4-regression-in-v5.9-rc2-on-ro-fs-with-overlapped-bitmaps.patch ext4-refuse-fitrim-when-shared_blocks-is-set.patch (1 already present, skipped)" out
'
test_expect_success 'a tree without A that no form fits: each form says why, and the code check too' '
	tree54 forms/with-ce9f24cccdc0/ && sed -i "s/^\t\tcond_resched();$/\t\tcond_resched(); \/* distro *\//" t/fs/ext4/block_validity.c && before=$(treesum) &&
	test_must_fail 4 apply t >out && test_grep "^  $A54.patch: CONFLICT$" out &&
	test_grep "^    form forms/with-ce9f24cccdc0/$A54.patch (trees with-ce9f24cccdc0):$" out &&
	test_grep "fs/ext4/block_validity.c hunk #1 (int ext4_setup_system_zone(struct super_block \*sb)): line 258 reads" out &&
	test_grep "^    code check: .*fix A (e7bfb5c9bb3d) is missing: 1 add_system_zone() call" out && test "$(treesum)" = "$before"
'
test_expect_success 'a 5.4 tree that lacks cond_resched() in the loop A changes: the conflict names that line' '
	tree54 forms/with-ce9f24cccdc0/ && sed -i "/^\t\tcond_resched();$/d" t/fs/ext4/block_validity.c &&
	n=$(awk "/^\t\tif \(ext4_bg_has_super\(sb, i\) &&\$/ { print NR; exit }" t/fs/ext4/block_validity.c) && test -n "$n" &&
	test_must_fail 4 apply t >out &&
	test_grep "block_validity.c hunk #1 (int ext4_setup_system_zone(struct super_block \*sb)): line $n reads ...if (ext4_bg_has_super(sb, i) &&., the patch expects ...cond_resched();. before it (the file lacks that line)$" out
'
test_expect_success 'the code check names the tree.s own file and says what the tree needs, not what the kit.s maintainers do' '
	tree54 forms/with-ce9f24cccdc0/ && sed -i "s/^\t\tcond_resched();$/\t\tcond_resched(); \/* distro *\//" t/fs/ext4/block_validity.c &&
	test_must_fail 4 apply t >out && grep "^    code check: " out >said &&
	test_grep "^    code check: $trash/t/fs/ext4/block_validity.c: fix A (e7bfb5c9bb3d) is missing: 1 add_system_zone() call(s) in ext4_setup_system_zone() ignore the return value; none of the stack.s 2 forms of A fits this code (see above): it needs a form of A written for it, in the stack.s forms/, named for its release$" said &&
	! grep -e matrix.yaml -e kit-apply\\. said
'
test_expect_success 'a conflict names the line of the user.s file, in the function the hunk names, and the nearest form' '
	rm -rf t s && mkdir -p t/fs/ext4 s/9.9/forms/9.9.0-9.9.1 s/9.9/forms/android9-9.9 &&
	printf "VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 3\nEXTRAVERSION =\n" >t/Makefile &&
	printf "/* top */\nint early(void)\n{\n\treturn 0;\n}\nint commit(int sync);\nint commit(int sync)\n{\n\tif (!sbh || gone)\n\t\treturn 0;\n\twrite();\n}\nint quota(void)\n{\n\tif (!q)\n\t\treturn -EINVAL;\n\tif (gone)\n\t\treturn 0;\n}\n" >t/fs/ext4/super.c &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -1,2 +1,5 @@\n /* top */\n+/* one */\n+/* two */\n+/* three */\n int early(void)\n" >s/9.9/a.patch &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -11,5 +11,6 @@ int commit(int sync)\n {\n \tif (!sbh)\n \t\treturn -EINVAL;\n+\tif (shared) return -EROFS;\n \tif (gone)\n \t\treturn 0;\n" >s/9.9/c.patch &&
	sed "s/sbh)/sbh2)/" s/9.9/c.patch >s/9.9/forms/9.9.0-9.9.1/c.patch &&
	{ cat s/9.9/c.patch; printf -- "@@ -20,3 +20,4 @@ int commit(int sync)\n x\n+y\n z\n w\n"; } >s/9.9/forms/android9-9.9/c.patch &&
	printf "a.patch\nc.patch\n" >s/9.9/series && before=$(treesum) &&
	test_must_fail 4 apply --stack s/9.9 t >out &&
	test_grep "^  a.patch: applies cleanly$" out && test_grep "^  c.patch: CONFLICT$" out &&
	test_grep "^    fs/ext4/super.c hunk #1 (int commit(int sync)): line 9 reads .	if (!sbh || gone)., the patch expects .	if (!sbh). before it (the file lacks that line)$" out &&
	test_grep "^    form forms/9.9.0-9.9.1/c.patch (releases 9.9.0-9.9.1):$" out &&
	test_grep "^    nearest: c.patch (the series. own), 1 of 1 hunk(s) not in this tree; none of the 3 forms fits: this tree needs a form of its own" out &&
	! grep -q "if (!q)" out && test "$(treesum)" = "$before"
'
test_expect_success 'a hunk that runs past the function its @@ line names is said where it differs, in what follows' '
	rm -rf t s && mkdir -p t/fs/ext4 s/9.9 && printf "VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 3\nEXTRAVERSION =\n" >t/Makefile &&
	printf "/* top */\nstatic int f1(void)\n{\n\tint a;\n\ta = 1;\n\treturn a;\n}\n\nstatic int f2(long a)\n{\n\treturn a;\n}\n" >t/fs/ext4/super.c &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -5,6 +5,7 @@ static int f1(void)\n \ta = 1;\n \treturn a;\n }\n \n+/* new */\n static int f2(int a)\n {\n \treturn a;\n" >s/9.9/n.patch &&
	echo n.patch >s/9.9/series && test_must_fail 4 apply --stack s/9.9 t >out &&
	test_grep "^    fs/ext4/super.c hunk #1 (static int f1(void)): line 9 reads .static int f2(long a)., the patch expects .static int f2(int a).$" out
'
test_expect_success 'the shipped stacks are found by the tree version' '
	fixture && sed -i "s/^VERSION = 9/VERSION = 6/; s/^PATCHLEVEL = 9/PATCHLEVEL = 1/" t/Makefile &&
	test_must_fail 4 apply --dry-run t >out && test_grep "stack versions/6.1/series (verified on 6.1.192)" out &&
	test_grep "note: this tree is 6.1.3, the stack was verified on 6.1.192" out
'
test_done
