#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/tools/export on a fixture kit and tree: each format's files and
# headers from the kit's provenance data (a mainline backport, a posted
# patch, the kit's own), the format's rules read back, the export applied
# with the format's own tool and held to the kit's stack, forms chosen on
# the tree, bad input in one line with nothing written.
. "$(dirname "$0")/lib.sh"

SHA=aaaaaaaaaaaabbbbbbbbbbbbccccccccccccdddd
LORE=https://lore.kernel.org/linux-ext4/1@example.org/
printf "[user]\n\tname = Suse Sender\n\temail = sender@suse.cz\n" >"$trash/gitconfig-suse"
export KIT_BUILD="${BIN%/bin}"
printf "[user]\n\tname = Test Sender\n\temail = sender@example.org\n" >"$trash/gitconfig"
export GIT_CONFIG_GLOBAL="$trash/gitconfig"

# A copy of the kit's programs with three originals (mainline, posted, the
# kit's), a 9.9 stack of them (an entry whose own patch does not apply to
# the tree, with a form in forms/9.9.0-9.9.5 that does) with a hardened flavour, and a 9.9.3 tree.
fixture() {
	rm -rf kit t ex && mkdir -p kit/common/upstream kit/versions/9.9/forms/9.9.0-9.9.5 t/fs/ext4 &&
	cp -rp "$TOP/build" kit/ &&
	printf "commit %s\nRepository: torvalds/linux\n\next4: mainline fix\n" "$SHA" >kit/common/upstream/Z-aaaaaaaaaaaa-mainline.patch &&
	echo "as posted" >kit/common/upstream/Y-posted.patch && echo "the kit's" >kit/common/upstream/X-kit.patch &&
	printf "# fixture\nZ-aaaaaaaaaaaa-mainline.patch\tmainline\tv9.8-rc1\nY-posted.patch\tposted\t$LORE\nX-kit.patch\tkit\t-\n" \
		>kit/common/upstream/provenance &&
	printf "VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 3\n" >t/Makefile &&
	printf "one\ntwo\nthree\nfour\nfive\n" >t/fs/ext4/super.c && printf "alpha\nbeta\ngamma\n" >t/fs/ext4/ext4.h &&
	mail "Up Author <up@example.org>" "[PATCH] ext4: mainline fix" \
		"commit $SHA upstream.

Upstream's message.

Signed-off-by: Up Author <up@example.org>
[ 9.9: context moved ]" super.c "one two three four five" "one TWO three four five" >kit/versions/9.9/m.patch &&
	{ sed -n "/^---\$/,\$p" kit/versions/9.9/m.patch | sed "s/^@@ -1,5 +1,5 @@/@@ -10,5 +10,5 @@ int f(void)/"; } >>kit/common/upstream/Z-aaaaaaaaaaaa-mainline.patch &&
	mail "Poster <p@example.org>" "[PATCH] Fix a posted thing" \
		"The posted message.

Not upstream: posted, reviewed, never merged.
Original: common/upstream/Y-posted.patch

Signed-off-by: Poster <p@example.org>
[ kit: carried in the default flavour. ]" super.c "one TWO three four five" "one TWO THREE four five" >kit/versions/9.9/p.patch &&
	{ echo "as posted" && sed -n "/^---\$/,\$p" kit/versions/9.9/p.patch; } >kit/common/upstream/Y-posted.patch &&
	mail "Kit <kit@example.invalid>" "[PATCH] ext4: the kit's fix, first form" \
		"Original: common/upstream/X-kit.patch" super.c "one TWO THREE fourX five" "one TWO THREE FOUR five" >kit/versions/9.9/k.patch &&
	mail "Kit <kit@example.invalid>" "[PATCH] ext4: the kit's fix" \
		"Original: common/upstream/X-kit.patch" super.c "one TWO THREE four five" "one TWO THREE FOUR five" >kit/versions/9.9/forms/9.9.0-9.9.5/k.patch &&
	mail "Kit <kit@example.invalid>" "[PATCH] ext4: a hardened fix with a subject folded
 over two lines" "Original: common/upstream/X-kit.patch" ext4.h "alpha beta gamma" "alpha BETA gamma" >kit/versions/9.9/h.patch &&
	printf "m.patch\np.patch\nk.patch\n" >kit/versions/9.9/series &&
	printf "m.patch\np.patch\nk.patch\nh.patch\n" >kit/versions/9.9/series.hardened
}

# mail FROM SUBJECT MESSAGE FILE OLD NEW: a stack patch that changes
# fs/ext4/FILE from the words OLD to the words NEW, a line each.
mail() {
	printf "From: %s\nDate: Mon, 5 Oct 2020 01:14:54 -0700\nSubject: %s\n\n%s\n---\n" "$1" "$2" "$3" &&
	printf "%s\n" $5 >mail.old && printf "%s\n" $6 >mail.new &&
	{ diff -u --label "a/fs/ext4/$4" --label "b/fs/ext4/$4" mail.old mail.new; test $? = 1; }
}
treesum() { (cd t && find . -type f | LC_ALL=C sort | xargs sha256sum) | sha256sum; }
x() { kit/build/tools/export "$@"; }

test_expect_success 'debian: DEP-3 fields from the provenance, each patch under bugfix/ or features/, the series in quilt'"'"'s place' '
	fixture && git -C kit init -q && git -C kit add -A && GIT_COMMITTER_DATE=2026-01-02T03:04:05Z git -C kit commit -q -m fixture &&
	x --tree t --flavour hardened debian 9.9 ex >log && test_grep "4 patches of versions/9.9/series.hardened" log &&
	d=ex/debian/patches && test_grep "^bugfix/all/ext4-shared-blocks/m.patch$" $d/series &&
	test_grep "^bugfix/all/ext4-shared-blocks/k.patch$" $d/series && test_grep "^features/all/ext4-hardened/h.patch$" $d/series &&
	test "$(grep -c "k.patch" $d/series)" = 1 &&
	m=$d/bugfix/all/ext4-shared-blocks/m.patch p=$d/bugfix/all/ext4-shared-blocks/p.patch k=$d/bugfix/all/ext4-shared-blocks/k.patch && ! grep -q fourX $k &&
	test_grep "^Origin: upstream, https://git.kernel.org/linus/$SHA$" $m && test_grep "^Forwarded: not-needed$" $m &&
	test_grep "^Applied-Upstream: v9.8-rc1, " $m && test_grep "^Last-Update: 2026-01-02$" $m &&
	! grep -q "^commit $SHA upstream" $m && test_grep "^Description: ext4: mainline fix$" $m &&
	sed -n 2p $m | grep -qx " Upstream.s message." && sed -n 3p $m | grep -qx " \." &&
	test_grep "^Origin: other, $LORE$" $p && test_grep "^Forwarded: $LORE$" $p &&
	test_grep "^Origin: vendor$" $k && test_grep "^Forwarded: no$" $k &&
	test_grep "^Author: Test Sender <sender@example.org>$" $k && ! grep -q "invalid\|Original:\|Not upstream\|kit: carried" $k $p &&
	test_grep "^ \[ 9.9: context moved \]$" $m &&
	test_grep "^Description: ext4: a hardened fix with a subject folded over two lines$" $d/features/all/ext4-hardened/h.patch &&
	x --verify debian ex &&
	sed -i "s/^+TWO\$/+TWo/" kit/versions/9.9/m.patch && rm -rf ex && x --flavour hardened debian 9.9 ex >/dev/null &&
	test_grep "^Origin: backport, https://git.kernel.org/linus/$SHA$" $m
'

test_expect_success 'stable-queue: an mbox each with "commit SHA upstream." first; what mainline lacks is refused, nothing written' '
	fixture && test_must_fail 1 x --tree t stable-queue 9.9 ex 2>err && test ! -e ex &&
	test_grep "queue-9.9/p.patch: no .commit SHA upstream\.. first: not in mainline" err &&
	test_grep "queue-9.9/k.patch: no .commit SHA upstream\.. first" err && test $(wc -l <err) = 2 &&
	echo m.patch >kit/versions/9.9/series && x --tree t stable-queue 9.9 ex >log &&
	q=ex/queue-9.9 && test "$(cat $q/series)" = m.patch &&
	test "$(head -1 $q/m.patch)" = "From $SHA Mon Sep 17 00:00:00 2001" &&
	test "$(sed -n "/^\$/{n;p;q}" $q/m.patch)" = "commit $SHA upstream." &&
	sed -i "s/^commit $SHA upstream\.\$/Original: common\/upstream\/Z-aaaaaaaaaaaa-mainline.patch/" kit/versions/9.9/m.patch &&
	rm -rf ex && x --tree t stable-queue 9.9 ex >/dev/null && test "$(sed -n "/^\$/{n;p;q}" $q/m.patch)" = "commit $SHA upstream." &&
	test_grep "^Subject: ext4: mainline fix$" $q/m.patch &&
	test "$(sed -n "/^---\$/{g;p;q};h" $q/m.patch)" = "Signed-off-by: Test Sender <sender@example.org>"
'

test_expect_success 'android: the prefix by provenance, the cherry-pick line or Link, then Bug, Change-Id and the sign-off, last' '
	fixture && printf "m.patch\np.patch\n" >kit/versions/9.9/series && x --tree t --bug 4242 android 9.9 ex >log &&
	a=ex/android && test "$(cat $a/series | wc -l)" = 2 &&
	m=$a/0001-UPSTREAM-ext4-mainline-fix.patch p=$a/0002-FROMLIST-Fix-a-posted-thing.patch &&
	test_grep "^Subject: \[PATCH\] UPSTREAM: ext4: mainline fix$" $m && test_grep "^(cherry picked from commit $SHA)$" $m &&
	! grep -q "upstream\.$" $m && ! grep -q "cherry picked\|kit: carried" $p &&
	sed -n "/^---\$/q;p" $p | tail -5 >last && sed -n 1p last | grep -qx "" && sed -n 2p last | grep -qx "Bug: 4242" &&
	sed -n 3p last | grep -qx "Link: $LORE" && sed -n 4p last | grep -qx "Change-Id: I[0-9a-f]\{40\}" &&
	sed -n 5p last | grep -qx "Signed-off-by: Test Sender <sender@example.org>" &&
	sed -n "/^---\$/q;p" $m | tail -4 | head -3 | sed -n 3p | grep -qx "(cherry picked from commit $SHA)" &&
	id=$(grep "^Change-Id:" $p) && rm -rf ex && x --tree t --bug 4242 android 9.9 ex >/dev/null &&
	test "$(grep "^Change-Id:" $p)" = "$id" && test "$(grep -h "^Change-Id:" $a/*.patch | sort -u | wc -l)" = 2 &&
	x --verify android ex &&
	sed -i "s/^+TWO\$/+TWo/" kit/versions/9.9/m.patch && rm -rf ex && x --bug 4242 android 9.9 ex >/dev/null &&
	test_grep "^Subject: \[PATCH\] BACKPORT: ext4: mainline fix$" $a/0001-BACKPORT-ext4-mainline-fix.patch
'
test_expect_success 'android: a patch never posted is refused, not labelled ANDROID:; a posting not on lore is refused' '
	fixture && test_must_fail 2 x --tree t --bug 4242 android 9.9 ex 2>err && test ! -e ex &&
	test_grep "^export: android: k.patch: never posted upstream, and Android.s common kernel takes fixes upstream first" err &&
	printf "m.patch\np.patch\n" >kit/versions/9.9/series && sed -i "s|$LORE|https://lists.example/ext4/1|" kit/common/upstream/provenance &&
	test_must_fail 2 x --tree t --bug 4242 android 9.9 ex 2>err &&
	test_grep "android: p.patch: FROMLIST wants the posting.s lore.kernel.org link, and common/upstream/provenance gives https://lists.example/ext4/1" err
'

test_expect_success 'suse: Patch-mainline (a release with Git-commit, Submitted, Never), References, Acked-by' '
	fixture && GIT_CONFIG_GLOBAL=$trash/gitconfig-suse x --tree t --bug bsc#77 suse 9.9 ex >/dev/null &&
	s=ex/suse && test_grep "^	patches.suse/k.patch$" $s/series.conf &&
	test_grep "^Patch-mainline: v9.8-rc1$" $s/patches.suse/m.patch && test_grep "^Git-commit: $SHA$" $s/patches.suse/m.patch &&
	test_grep "^Patch-mainline: Submitted, $LORE$" $s/patches.suse/p.patch &&
	test_grep "^Patch-mainline: Never, " $s/patches.suse/k.patch && ! grep -q "^Git-commit" $s/patches.suse/k.patch &&
	test_grep "^References: bsc#77$" $s/patches.suse/p.patch && test_grep "^Acked-by: Suse Sender <sender@suse.cz>$" $s/patches.suse/p.patch
'
test_expect_success 'suse: without a SUSE address among a patch.s sign-offs, acks, reviews and author it is refused, naming them' '
	fixture && test_must_fail 2 x --tree t --bug bsc#77 suse 9.9 ex 2>err && test ! -e ex &&
	test_grep "suse: SUSE.s check-patchhdr wants a SUSE address (@suse.com, .de or .cz) in a Signed-off-by, Acked-by, From, Reviewed-by of each patch, and Test Sender <sender@example.org> (the sender, from git config) has none, nor do m.patch p.patch k.patch" err &&
	sed -i "s/^Signed-off-by: Poster <p@example.org>$/&\nReviewed-by: A Reviewer <r@suse.de>/" kit/versions/9.9/p.patch &&
	test_must_fail 2 x --tree t --bug bsc#77 suse 9.9 ex 2>err && test_grep "has none, nor do m.patch k.patch:" err
'

test_expect_success '--check: each format applied with its own tool gives the files of the kit'"'"'s stack; the tree is only read' '
	fixture && before=$(treesum) &&
	for f in debian android suse; do
		case $f in android) bug="--bug 1" ;; suse) bug="--bug bsc#1" ;; *) bug= ;; esac
		for fl in "" "--flavour hardened"; do
			[ "$f$fl" != "android--flavour hardened" ] || continue
			rm -rf ex && GIT_CONFIG_GLOBAL=$trash/gitconfig${bug:+-suse} x --check --tree t $fl $bug $f 9.9 ex >log 2>&1 || { cat log; exit 1; }
			test_grep "the same files as the kit" log || exit 1
		done
		[ $f != debian ] || printf "m.patch\np.patch\n" >kit/versions/9.9/series
	done &&
	echo m.patch >kit/versions/9.9/series && rm -rf ex && x --check --tree t stable-queue 9.9 ex >log &&
	test_grep "the same files as the kit" log &&
	test "$(treesum)" = "$before" &&
	! ls -a . | grep -q "^\.export\."
'

test_expect_success 'a form is chosen on the tree; without one, every entry is the series file.s own patch' '
	fixture && x --tree t debian 9.9 ex >/dev/null && ! grep -q fourX ex/debian/patches/bugfix/all/ext4-shared-blocks/k.patch &&
	rm -rf ex && x debian 9.9 ex >/dev/null && grep -q fourX ex/debian/patches/bugfix/all/ext4-shared-blocks/k.patch
'

test_expect_success 'bad input is one line, exit 2, and writes nothing' '
	fixture && mkdir ex && test_must_fail 2 x --tree t debian 9.9 ex 2>err && test_grep "exists" err && rmdir ex &&
	test_must_fail 2 x --tree t rpm 9.9 ex 2>err && test_grep "not one of" err &&
	test_must_fail 2 x --tree t android 9.9 ex 2>err && test_grep "bug number" err &&
	test_must_fail 2 x --tree t suse 9.9 ex 2>err && test_grep "reference" err &&
	test_must_fail 2 x --tree t --bug 12 debian 9.9 ex 2>err && test_grep "is a URL" err &&
	test_must_fail 2 x debian 9.7 ex 2>err && test_grep "no such stack" err &&
	for s in 9.9/../9.9 ../9.9 9.9/ .; do
		test_must_fail 2 x --tree t debian "$s" ex 2>err && test_grep "SERIES=$s: not a series name" err || return 1
	done &&
	sed -i "/^Original:/d" kit/versions/9.9/forms/9.9.0-9.9.5/k.patch && test_must_fail 2 x --tree t debian 9.9 ex 2>err &&
	test_grep "k.patch: names no original" err && test $(wc -l <err) = 1 &&
	fixture && sed -i "/^Y-posted/d" kit/common/upstream/provenance && test_must_fail 2 x --tree t debian 9.9 ex 2>err &&
	test_grep "Y-posted.patch has no line in common/upstream/provenance" err &&
	test ! -e ex && ! ls -a . | grep -q "^\.export\."
'

test_expect_success '--verify: each format'"'"'s rules, read back, fail on a broken export, a line a failure' '
	fixture && x --tree t --flavour hardened debian 9.9 deb >/dev/null &&
	GIT_CONFIG_GLOBAL=$trash/gitconfig-suse x --tree t --bug bsc#9 suse 9.9 sus >/dev/null &&
	printf "m.patch\np.patch\n" >kit/versions/9.9/series && x --tree t --bug 9 android 9.9 and >/dev/null &&
	p=deb/debian/patches/bugfix/all/ext4-shared-blocks/m.patch &&
	sed -i "s/^Origin: upstream/Origin: downstream/" $p && test_must_fail 1 x --verify debian deb 2>err &&
	test_grep "Origin: .downstream. is not upstream, backport, vendor or other" err && test $(wc -l <err) = 1 &&
	sed -i "s/^Origin: downstream, .*/Origin: other, ext4 backport kit/" $p && test_must_fail 1 x --verify debian deb 2>err &&
	test_grep "Origin: .ext4 backport kit. after .other,. is not a URL or commit:" err &&
	sed -i "s/^Origin: other, .*/Origin: upstream, https:\/\/git.kernel.org\/linus\/$SHA/" $p &&
	sed -i "s/^ Upstream.s message\.$/Upstream.s message./" $p && test_must_fail 1 x --verify debian deb 2>err &&
	test_grep "lintian.s DEP-3 reader (Deb822) cannot read it, line 2: not a field: Upstream" err &&
	sed -i "s/^Upstream.s message\.$/ &/; s/^\(Forwarded: .*\)/\1\nLast-Update: 5 Oct 2020/" $p &&
	test_must_fail 1 x --verify debian deb 2>err && test_grep "Last-Update" err &&
	sed -i "s/^Last-Update: .*/Last-Update: 2020-10-05/; s/^Forwarded: .*/Forwarded: sent to the list/" $p &&
	x --verify debian deb >/dev/null &&
	sed -i "s/^Forwarded: .*/Forwarded: /" $p && test_must_fail 1 x --verify debian deb 2>err && test_grep "Forwarded: empty" err &&
	sed -i "s/^Forwarded: .*/Forwarded: no\nForwarded: no/" $p &&
	test_must_fail 1 x --verify debian deb 2>err && test_grep "given 2 times" err &&
	rm -rf deb && x --tree t --flavour hardened debian 9.9 deb >/dev/null && sed -i "s/^Origin: upstream, /Origin: /" $p &&
	grep -q "^Origin: https://" $p && x --verify debian deb >/dev/null &&
	sed -i "/^Change-Id:/d" and/android/0002-FROMLIST-Fix-a-posted-thing.patch && test_must_fail 1 x --verify android and 2>err &&
	test_grep "0002-FROMLIST.*no .Change-Id: I<40 hex>. in its last paragraph" err && test $(wc -l <err) = 1 &&
	sed -i "s|^Link: .*|Link: https://lists.example/ext4/1|" and/android/0002-FROMLIST-Fix-a-posted-thing.patch &&
	test_must_fail 1 x --verify android and 2>err && test_grep "FROMLIST without a Link: to the posting on lore.kernel.org" err &&
	sed -i "/^(cherry picked/d" and/android/0001-UPSTREAM-ext4-mainline-fix.patch && test_must_fail 1 x --verify android and 2>err &&
	test_grep "UPSTREAM without" err &&
	sed -i "s/^Subject: \[PATCH\] FROMLIST: /Subject: [PATCH] /" and/android/0002-FROMLIST-Fix-a-posted-thing.patch &&
	test_must_fail 1 x --verify android and 2>err && test_grep "no Android prefix" err &&
	sed -i "/^Git-commit:/d" sus/suse/patches.suse/m.patch && test_must_fail 1 x --verify suse sus 2>err &&
	test_grep "without a Git-commit" err &&
	sed -i "s/^Patch-mainline: Never, .*/Patch-mainline: Never/" sus/suse/patches.suse/k.patch && test_must_fail 1 x --verify suse sus 2>err &&
	test_grep "k.patch: Patch-mainline: .Never." err &&
	sed -i "s/^Patch-mainline: Never$/Patch-mainline: No, not yet/" sus/suse/patches.suse/k.patch && test_must_fail 1 x --verify suse sus 2>err &&
	test_grep "k.patch: Patch-mainline: .No, not yet.: use .Not yet. or .Never." err &&
	sed -i "s/sender@suse.cz/sender@opensuse.org/" sus/suse/patches.suse/k.patch &&
	test_must_fail 1 x --verify suse sus 2>err && test_grep "k.patch: no SUSE address (@suse.com, .de or .cz)" err &&
	echo m.patch >kit/versions/9.9/series && x --tree t stable-queue 9.9 sq >/dev/null && x --verify stable-queue sq &&
	sed -i "s/^Subject: /Subject: [PATCH] /" sq/queue-9.9/m.patch && test_must_fail 1 x --verify stable-queue sq 2>err &&
	test_grep "keeps a \[PATCH\] prefix" err &&
	sed -i "s/^commit $SHA upstream\.\$/Some text./" sq/queue-9.9/m.patch && test_must_fail 1 x --verify stable-queue sq 2>err &&
	test_grep "not in mainline" err
'

test_expect_success '--check fails, exit 1, OUT not made, when the stack does not apply to the tree' '
	fixture && printf "one\nzwei\nthree\nfour\nfive\n" >t/fs/ext4/super.c && mv kit/versions/9.9/forms/9.9.0-9.9.5/k.patch kit/versions/9.9/k.patch && rm -r kit/versions/9.9/forms &&
	test_must_fail 1 x --check --tree t debian 9.9 ex 2>err && test_grep "does not apply" err && test ! -e ex
'

test_expect_success 'the comparison of the two results names each file that differs, and only those' '
	mkdir -p c1/fs/ext4 c2/fs/ext4 c1/.pc c2/.git && echo a >c1/fs/ext4/x.c && echo a >c2/fs/ext4/x.c &&
	echo b >c1/fs/ext4/y.c && echo B >c2/fs/ext4/y.c && echo only >c2/fs/ext4/z.c && echo q >c1/.pc/s && echo g >c2/.git/h &&
	python3 -c "import importlib.machinery, sys
m = importlib.machinery.SourceFileLoader(\"export\", sys.argv[1]).load_module()
print(\" \".join(m.differing(\"c1\", \"c2\")))" "$TOP/build/tools/export" >diff &&
	test "$(cat diff)" = "fs/ext4/y.c fs/ext4/z.c"
'

test_done
