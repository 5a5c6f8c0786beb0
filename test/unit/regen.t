#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/tools/regen: a stack rewritten against a tree keeps its headers and then
# applies there with no offset; one that cannot apply changes nothing.
. "$(dirname "$0")/lib.sh"

# A tree where the stack's context sits two lines lower than it was made for.
fixture() {
	rm -rf t s && mkdir -p t/fs/ext4 s &&
	printf "new\nlines\none\ntwo\nthree\nfour\n" >t/fs/ext4/super.c &&
	cat >s/a.patch <<-P &&
	From: A Person <a@example.org>
	Subject: [PATCH] two becomes TWO

	Signed-off-by: A Person <a@example.org>
	[ 9.9: a note ]
	---
	 fs/ext4/super.c | 2 +-
	 1 file changed, 1 insertion(+), 1 deletion(-)

	--- a/fs/ext4/super.c
	+++ b/fs/ext4/super.c
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	P
	cat >s/b.patch <<-P &&
	Subject: [PATCH] three becomes THREE
	---
	--- a/fs/ext4/super.c
	+++ b/fs/ext4/super.c
	@@ -2,3 +2,3 @@
	 TWO
	-three
	+THREE
	 four
	P
	printf "a.patch\nb.patch\n" >s/series
}

test_expect_success 'every patch is rewritten to apply with no offset' '
	fixture && regen s t >out && test_grep "2 of 2 patch(es) regenerated" out &&
	for p in a b; do patch -d t -p1 -F0 <s/$p.patch >p.out && ! grep -q offset p.out || exit 1; done &&
	test "$(sed -n 4,5p t/fs/ext4/super.c | tr "\n" " ")" = "TWO THREE "
'
test_expect_success 'the header, tags and notes are kept; the diffstat is new' '
	fixture && regen s t >out &&
	sed -n 1,6p s/a.patch >head && printf "%s\n" "From: A Person <a@example.org>" "Subject: [PATCH] two becomes TWO" "" \
		"Signed-off-by: A Person <a@example.org>" "[ 9.9: a note ]" "---" >want && test_cmp want head &&
	test_grep "^ fs/ext4/super.c | 2 +-$" s/a.patch && test_grep "^ fs/ext4/super.c | 2 +-$" s/b.patch
'
test_expect_success 'a second run changes nothing' '
	fixture && regen s t >/dev/null && cp -r s s0 && regen s t >out &&
	test_grep "0 of 2 patch(es) regenerated" out && diff -r s0 s && rm -rf s0
'
test_expect_success 'a patch that needs fuzz stops it, and no patch is rewritten' '
	fixture && sed -i "s/^four$/FOUR/" t/fs/ext4/super.c && printf "five\n" >>t/fs/ext4/super.c &&
	sed -i "s/^ four$/ fourish/" s/b.patch && cp -r s s0 &&
	test_must_fail 1 regen s t 2>err && test_grep "b.patch: does not apply" err && diff -r s0 s && rm -rf s0
'
test_expect_success 'of an entry and its forms the one that applies is regenerated, the other is left as it is' '
	fixture && mkdir -p s/forms/9.9.0-9.9.2 && cp s/a.patch s/forms/9.9.0-9.9.2/a.patch &&
	sed -e "s/^ one$/ uno/" -e "s/TWO/ZWEI/" s/a.patch >s/a-own.patch && mv s/a-own.patch s/a.patch && cp s/a.patch want &&
	regen s t >out &&
	test_grep "a.patch: not for this tree (forms/9.9.0-9.9.2/a.patch is), unchanged" out && test_grep "2 of 2 patch(es) regenerated" out &&
	test_cmp want s/a.patch && patch -d t -p1 -F0 <s/forms/9.9.0-9.9.2/a.patch >p.out && ! grep -q offset p.out
'
test_done
