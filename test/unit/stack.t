#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/kernel/kernel: a stack that does not apply is reported with the failing
# patch and file, and leaves the tree unpatched.
. "$(dirname "$0")/lib.sh"
export KIT_CACHE="$trash/cache" KIT_CONFIG="$TOP/common/kernel.config"

tree() {
	rm -rf t s obj out && mkdir -p t/fs/ext4 s && printf "a\nb\nc\n" >t/fs/ext4/super.c && cp t/fs/ext4/super.c pristine &&
	printf "good.patch\nbad.patch\n" >s/series &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n" >s/good.patch &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n z\n" >s/bad.patch
}

test_expect_success 'a patch that does not apply is named, with its file' '
	tree && test_must_fail 1 kernel 9.9 patched t obj out s 2>err &&
	test_grep "bad.patch of .*/series does not apply to t at zero fuzz" err &&
	test_grep "fs/ext4/super.c" err
'
test_expect_success 'after the failure the tree is as unpacked' '
	tree && test_must_fail 1 kernel 9.9 patched t obj out s 2>err &&
	test_grep "bad.patch of .*/series does not apply" err && test_grep "^Applying patch .*good.patch" out/build.log &&
	test_cmp pristine t/fs/ext4/super.c
'
test_expect_success 'a patch that needs fuzz is refused' '
	tree && printf "good.patch\n" >s/series &&
	printf "a\nb\nc-changed\n" >t/fs/ext4/super.c &&
	test_must_fail 1 kernel 9.9 patched t obj out s 2>err &&
	test_grep "good.patch of .* does not apply" err
'
test_expect_success 'a flavour pushes its own series file, not the one pushed before' '
	tree && printf "good.patch\n" >s/series && printf "good.patch\nmore.patch\n" >s/series.x &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -1,3 +1,3 @@\n a\n B\n-c\n+C\n" >s/more.patch &&
	{ kernel 9.9 patched t obj out s >out1 2>&1 || :; } && test_grep "1 patch(es) of versions/9.9/series applied" out1 &&
	{ kernel 9.9 x t obj out s >out2 2>&1 || :; } && test_grep "2 patch(es) of versions/9.9/series.x applied" out2 &&
	test "$(cat t/fs/ext4/super.c | tr -d "\n")" = aBC
'
test_expect_success 'vanilla leaves the tree as unpacked after a flavour' '
	tree && printf "good.patch\n" >s/series.x && { kernel 9.9 x t obj out s >out1 2>&1 || :; } &&
	test_grep "1 patch(es) of versions/9.9/series.x applied" out1 && test "$(tr -d "\n" <t/fs/ext4/super.c)" = aBc &&
	{ kernel 9.9 vanilla t obj out s >out2 2>&1 || :; } && test_cmp pristine t/fs/ext4/super.c && test ! -e t/.pc
'
test_expect_success 'a variant pops what was pushed, after the stacks changed under it' '
	tree && printf "good.patch\n" >s/series && printf "good.patch\nmore.patch\n" >s/series.x &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -1,3 +1,3 @@\n a\n B\n-c\n+C\n" >s/more.patch &&
	{ kernel 9.9 x t obj out s >/dev/null 2>&1 || :; } && test "$(tr -d "\n" <t/fs/ext4/super.c)" = aBC &&
	: >s/mid.patch && printf "good.patch\nmid.patch\nmore.patch\n" >s/series.x &&
	printf "good.patch\nmid.patch\n" >s/series &&
	{ kernel 9.9 patched t obj out s >out1 2>&1 || :; } && test_grep "2 patch(es) of versions/9.9/series applied" out1 &&
	test "$(tr -d "\n" <t/fs/ext4/super.c)" = aBc
'
test_expect_success 'of an entry and its forms the tree takes the first that applies, and quilt sees only it' '
	tree && printf "bad.patch\n" >s/series && mkdir -p s/forms/9.9.0-9.9.3 && cp s/good.patch s/forms/9.9.0-9.9.3/bad.patch &&
	{ kernel 9.9 patched t obj out s >log 2>&1 || :; } &&
	test "$(tr -d "\n" <t/fs/ext4/super.c)" = aBc && echo forms/9.9.0-9.9.3/bad.patch >want && test_cmp want out/series.pushed &&
	test_grep "forms: this tree takes forms/9.9.0-9.9.3/bad.patch" log &&
	test_grep "^forms: quilt push -a --fuzz=0 of versions/9.9/series with 1 form(s): forms/9.9.0-9.9.3/bad.patch$" out/quilt.check &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -1,3 +1,3 @@\n a\n-b\n+B1\n c\n" >s/one.patch &&
	rm -rf s/forms && mkdir -p s/forms/9.9.0-9.9.3 && cp s/good.patch s/forms/9.9.0-9.9.3/one.patch &&
	printf "one.patch\n" >s/series && { kernel 9.9 patched t obj out s >/dev/null 2>&1 || :; } &&
	test "$(tr -d "\n" <t/fs/ext4/super.c)" = aB1c
'
test_expect_success 'first-fit: the first alternative at zero fuzz (offsets allowed), whatever patch.s environment says' '
	rm -rf ff && mkdir -p ff/t ff/s/forms/x && printf "0\n1\na\nb\nc\nd\n" >ff/t/f &&
	printf -- "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n q\n a\n-b\n+B\n c\n" >ff/s/fuzz.patch &&
	printf -- "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n" >ff/s/forms/x/off.patch &&
	test "$("$TOP/build/first-fit" ff/t ff/s fuzz.patch forms/x/off.patch)" = forms/x/off.patch &&
	test "$(POSIXLY_CORRECT=1 VERSION_CONTROL=numbered "$TOP/build/first-fit" ff/t ff/s fuzz.patch forms/x/off.patch)" = forms/x/off.patch &&
	test_must_fail 1 "$TOP/build/first-fit" ff/t ff/s fuzz.patch && test "$(cat ff/t/f)" = "$(printf "0\n1\na\nb\nc\nd")" &&
	(top=$TOP && . "$TOP/build/lib.sh" && test "$(first_fit ff/t ff/s "fuzz.patch forms/x/off.patch")" = forms/x/off.patch)
'
test_expect_success 'a tree that takes no form is pushed from the series file itself; an offset is recorded' '
	tree && printf "# a comment, as quilt allows\ngood.patch\n" >s/series &&
	{ kernel 9.9 patched t obj out s >log 2>&1 || :; } && test "$(tr -d "\n" <t/fs/ext4/super.c)" = aBc &&
	test_grep "^plain: quilt push -a --fuzz=0 of versions/9.9/series: 1 patch(es), no offset, no fuzz$" out/quilt.check &&
	(cd t && QUILT_PATCHES=../s quilt --quiltrc=- applied) >applied && echo good.patch >want && test_cmp want applied &&
	tree && printf "good.patch\n" >s/series && printf "0\n1\n" >t/fs/ext4/super.c && printf "a\nb\nc\n" >>t/fs/ext4/super.c &&
	{ kernel 9.9 patched t obj out s >log 2>&1 || :; } &&
	test_grep "^plain: quilt push -a --fuzz=0 of versions/9.9/series: 1 patch(es), at an offset: good.patch fs/ext4/super.c hunk #1 (2 line(s))$" out/quilt.check &&
	test_grep "at an offset: good.patch fs/ext4/super.c hunk #1 (2 line(s))" log &&
	{ kernel 9.9 vanilla t obj out s >/dev/null 2>&1 || :; } && test ! -e out/quilt.check && test ! -e out/series.pushed
'
test_expect_success 'a series entry outside the stack folder is refused, named; the tree as unpacked' '
	rm -rf t s && tree && cp s/good.patch evil.patch && printf "../evil.patch\n" >s/series &&
	test_must_fail 1 kernel 9.9 patched t obj out s 2>err &&
	test_grep "series:1: .../evil.patch. is outside .*/s (an absolute path, .* or its forms/); name a patch file in that folder" err &&
	test_cmp pristine t/fs/ext4/super.c && test ! -e t/.pc && test ! -e t/evil.patch
'
test_expect_success 'a kernel newer than each of KIT_NEWER_THAN is taken as built; one older than any is built again' '
	tree && printf "good.patch\n" >s/series && mkdir -p out && : >dep1 && : >dep2 &&
	touch -d "-100 seconds" dep1 dep2 && echo made >out/bzImage &&
	KIT_NEWER_THAN="dep1 dep2" kernel 9.9 patched t obj out s >log 2>&1 &&
	test_grep "9.9 *patched: bzImage built meanwhile by another make (out/bzImage)" log &&
	test_cmp pristine t/fs/ext4/super.c && test ! -e out/build.log && test "$(cat out/bzImage)" = made &&
	touch -d "+5 seconds" dep2 &&
	{ KIT_NEWER_THAN="dep1 dep2" kernel 9.9 patched t obj out s >log 2>&1 || :; } &&
	! grep -q "built meanwhile" log && test_grep "^Applying patch .*good.patch" out/build.log &&
	test "$(tr -d "\n" <t/fs/ext4/super.c)" = aBc
'
test_done
