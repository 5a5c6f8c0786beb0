#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# test/image/mkimage.c: each case's image has the layout it promises, checked with
# dumpe2fs, debugfs and e2fsck; images are byte-identical when rebuilt.
. "$(dirname "$0")/lib.sh"
CASES=$TOP/test/cases
# A TMPDIR with a quote in it: mkimage must not hand it to a shell.
oddtmp="$trash/odd'; touch injected; : '"

# dumpe2fs may complain about the very layout a case makes: keep its output.
img() { $BIN/mkimage "$CASES/$1/recipe" "$1.img" 2>err.mk && { dumpe2fs "$1.img" >"$1.dump" 2>/dev/null || :; }; }
# field GROUP WHAT: the location dumpe2fs gives for a group's "Block bitmap" etc.
field() { awk -v g="Group $1:" -v w="$2 at" 'index($0, g) == 1 { on = 1; next } /^Group / { on = 0 }
	on && index($0, w) { sub(".*" w " ", ""); sub(/[ -].*/, ""); print; exit }' "$3"; }
# The files come out of the image (debugfs, no mount) equal to the manifest.
contents_match() {
	rm -rf x && mkdir x && debugfs -R "rdump / x" "$1" 2>/dev/null &&
	(cd x/* 2>/dev/null || cd x; sha256sum -c --quiet "$OLDPWD/$1.manifest")
}

test_expect_success 'plain: 8 groups, 64bit, flex_bg, metadata_csum, e2fsck clean' '
	img plain && test_grep "^Filesystem features:.* 64bit flex_bg .*metadata_csum" plain.dump &&
	test $(grep -c "^Group [0-9]" plain.dump) -eq 8 && e2fsck -fn plain.img
'
test_expect_success 'plain: every file matches the manifest' '
	img plain && test $(wc -l <plain.img.manifest) -ge 7 && contents_match plain.img
'
# Apart by a second at least, so a time taken from the build clock (the
# tree's ctime, which mke2fs -d copies) would show; the same second hides it.
test_expect_success 'two builds of one recipe a second apart are byte-identical' '
	img plain && mv plain.img first.img && mv plain.img.manifest first.img.manifest &&
	sleep 1 && img plain && cmp first.img plain.img && test_cmp first.img.manifest plain.img.manifest
'
test_expect_success 'shared-bitmaps: every bitmap of every group on one block, flag set' '
	img shared-bitmaps && test_grep "^Filesystem features:.* shared_blocks" shared-bitmaps.dump &&
	b=$(field 0 "Block bitmap" shared-bitmaps.dump) && test -n "$b" &&
	for g in 0 1 2 3 4 5 6 7; do
		test "$(field $g "Block bitmap" shared-bitmaps.dump)" = "$b" &&
		test "$(field $g "Inode bitmap" shared-bitmaps.dump)" = "$b" || return 1
	done
'
test_expect_success 'shared-bitmaps: the shared block is all ones, no UNINIT flag left' '
	img shared-bitmaps && b=$(field 0 "Block bitmap" shared-bitmaps.dump) &&
	test "$(dd if=shared-bitmaps.img bs=1024 skip=$b count=1 2>/dev/null | od -An -v -tx1 | tr -d " \n" | tr -d f)" = "" &&
	! grep -q "UNINIT" shared-bitmaps.dump
'
test_expect_success 'shared-bitmaps: descriptor checksums verify, bitmap checksums agree across groups' '
	img shared-bitmaps && ! grep -q "EXPECTED" shared-bitmaps.dump &&
	test $(grep "Block bitmap at" shared-bitmaps.dump | sed "s/.*csum //" | sort -u | wc -l) -eq 1 &&
	test $(grep "Inode bitmap at" shared-bitmaps.dump | sed "s/.*csum //" | sort -u | wc -l) -eq 1 &&
	! grep -q "csum 0x00000000" shared-bitmaps.dump && contents_match shared-bitmaps.img
'
test_expect_success 'a broken descriptor checksum would be seen by that check' '
	img shared-bitmaps && printf "\377" | dd of=shared-bitmaps.img bs=1 seek=$((2048 + 64 * 3 + 30)) conv=notrunc 2>/dev/null &&
	dumpe2fs shared-bitmaps.img 2>/dev/null | grep -q "EXPECTED"
'
test_expect_success 'shared-bitmaps: e2fsck refuses any bitmap overlap, flag or not (it is no oracle here)' '
	img shared-bitmaps && test_must_fail e2fsck -fn shared-bitmaps.img >fsck 2>&1 &&
	grep -qi "bitmap" fsck
'
test_expect_success 'overlap-noflag: the same layout without the flag' '
	img overlap-noflag && ! grep -q "shared_blocks" overlap-noflag.dump &&
	test "$(field 5 "Inode bitmap" overlap-noflag.dump)" = "$(field 0 "Block bitmap" overlap-noflag.dump)"
'
test_expect_success 'shared-data: identical files share their blocks, e2fsck accepts it with the flag' '
	img shared-data && test_grep "shared_blocks" shared-data.dump &&
	a=$(debugfs -R "blocks same.0" shared-data.img 2>/dev/null) && test -n "$a" &&
	test "$(debugfs -R "blocks same.2" shared-data.img 2>/dev/null)" = "$a" &&
	e2fsck -fn shared-data.img && contents_match shared-data.img
'
test_expect_success 'bitmap-on-superblock: group 3 block bitmap at the superblock' '
	img bitmap-on-superblock && test "$(field 3 "Block bitmap" bitmap-on-superblock.dump)" = 1
'
test_expect_success 'bitmap-on-gdt: group 3 block bitmap on the descriptor table' '
	img bitmap-on-gdt && test "$(field 3 "Block bitmap" bitmap-on-gdt.dump)" = 2
'
test_expect_success 'bitmap-past-end: group 3 block bitmap beyond the last block' '
	img bitmap-past-end && test "$(field 3 "Block bitmap" bitmap-past-end.dump)" -gt 16383
'
test_expect_success 'itable-overlap: group 1 inode table is group 0 inode table' '
	img itable-overlap && test "$(field 1 "Inode table" itable-overlap.dump)" = "$(field 0 "Inode table" itable-overlap.dump)"
'
test_expect_success 'sb-overlap: group 0 block bitmap on group 1 backup superblock' '
	img sb-overlap && test "$(field 0 "Block bitmap" sb-overlap.dump)" = 2049 &&
	test_grep "^  Backup superblock at 2049," sb-overlap.dump
'
test_expect_success 'the placed cases are refused by e2fsck (stated: it refuses these layouts)' '
	for c in bitmap-on-superblock bitmap-on-gdt bitmap-past-end itable-overlap sb-overlap; do
		img $c && { test_must_fail e2fsck -fn $c.img >/dev/null 2>&1 || return 1; }
	done
'
test_expect_success 'leak-inode-table: one-block points into group 1 inode table, bitmaps shared' '
	img leak-inode-table && it=$(field 1 "Inode table" leak-inode-table.dump | cut -d- -f1) &&
	test "$(debugfs -R "blocks one-block" leak-inode-table.img 2>/dev/null | tr -d " ")" = "$it" &&
	test "$(field 4 "Inode bitmap" leak-inode-table.dump)" = "$(field 0 "Block bitmap" leak-inode-table.dump)"
'
test_expect_success 'leak-superblock and leak-journal point one-block at a backup superblock and into the journal' '
	img leak-superblock && test "$(debugfs -R "blocks one-block" leak-superblock.img 2>/dev/null | tr -d " ")" = 2049 &&
	img leak-journal && b=$(debugfs -R "blocks one-block" leak-journal.img 2>/dev/null | tr -d " ") &&
	debugfs -R "icheck $b" leak-journal.img 2>/dev/null | grep -q "^$b[[:space:]]*8$"
'
test_expect_success 'shared-bitmap-on-gdt: the one bitmap block is group 1 backup descriptor block' '
	img shared-bitmap-on-gdt && test "$(field 0 "Block bitmap" shared-bitmap-on-gdt.dump)" = 2050 &&
	test "$(field 7 "Inode bitmap" shared-bitmap-on-gdt.dump)" = 2050 &&
	test "$(dd if=shared-bitmap-on-gdt.img bs=1024 skip=2050 count=1 2>/dev/null | od -An -v -tx1 | tr -d " \nf")" = ""
'
test_expect_success '--twin: the same image without the shared_blocks flag, nothing else changed' '
	img shared-bitmaps && $BIN/mkimage --twin "$CASES/shared-bitmaps/recipe" twin.img &&
	{ dumpe2fs twin.img >twin.dump 2>/dev/null || :; } && ! grep -q "^Filesystem features:.* shared_blocks" twin.dump &&
	test "$(field 3 "Block bitmap" twin.dump)" = "$(field 3 "Block bitmap" shared-bitmaps.dump)" &&
	test_cmp shared-bitmaps.img.manifest twin.img.manifest &&
	test_must_fail 2 $BIN/mkimage --twins "$CASES/shared-bitmaps/recipe" x.img 2>err && test_grep "usage" err
'
test_expect_success 'block-size 4096 and mmp-block: 4k blocks from block 0, an MMP block no filesystem has' '
	img leak-mmp-past-end && test_grep "^Block size: *4096" leak-mmp-past-end.dump &&
	test_grep "^First block: *0" leak-mmp-past-end.dump &&
	dumpe2fs -h leak-mmp-past-end.img 2>/dev/null | grep -q "^MMP block number: *18446744073709551615" &&
	printf "mmp-block 5\n" >r1 && test_must_fail 1 $BIN/mkimage r1 r1.img 2>err &&
	test_grep "mmp-block without mke2fs-feature mmp" err && test ! -e r1.img &&
	printf "mke2fs-feature mmp\nmmp-block -1\n" >r2 && test_must_fail 2 $BIN/mkimage r2 r2.img 2>err &&
	test_grep "usage: mmp-block N" err &&
	printf "block-size 2048\n" >r3 && test_must_fail 2 $BIN/mkimage r3 r3.img 2>err && test_grep "usage: block-size 4096" err
'
test_expect_success 'a bad recipe is one clear error and leaves no image' '
	echo "share-bitmaps" >r && echo "block-bitmap x at gdt" >>r &&
	test_must_fail 2 $BIN/mkimage r out.img 2>err && test_grep "^mkimage: r:2: .x. is not a small number" err &&
	test ! -e out.img && test ! -e out.img.manifest && ! ls out.img.* 2>/dev/null
'
test_expect_success 'an unknown directive is refused' '
	echo "frobnicate" >r && test_must_fail 2 $BIN/mkimage r out.img 2>err &&
	test_grep "r:1: unknown directive .frobnicate." err && test ! -e out.img
'
test_expect_success 'a group the image lacks is refused, not half-written' '
	echo "block-bitmap 99 at gdt" >r && test_must_fail 1 $BIN/mkimage r out.img 2>err &&
	test_grep "no group 99" err && test ! -e out.img && ! ls out.img.* 2>/dev/null
'
test_expect_success 'its scratch tree goes, under a TMPDIR a shell would misread' '
	mkdir -p "$oddtmp" && TMPDIR=$oddtmp $BIN/mkimage "$CASES/plain/recipe" odd.img &&
	test -s odd.img && ls -A "$oddtmp" >left && test_cmp /dev/null left && test ! -e injected
'
test_expect_success 'shared-bitmaps-fitrim: a fake shared bitmap, free counts that agree with it' '
	img shared-bitmaps-fitrim && b=$(field 0 "Block bitmap" shared-bitmaps-fitrim.dump) &&
	dd if=shared-bitmaps-fitrim.img bs=1024 skip="$b" count=1 2>/dev/null | od -An -v -tx1 | tr -s " \n" "\n" | grep . >bytes &&
	test "$(head -128 bytes | sort -u)" = 00 && test "$(tail -n +129 bytes | sort -u)" = ff &&
	test "$(grep -c "^  1024 free blocks, 64 free inodes" shared-bitmaps-fitrim.dump)" -eq 8
'
test_expect_success 'share-keep-uninit: uninitialised groups stay so, with their own counts and no bitmap checksum' '
	img shared-bitmaps-uninit-panic && d=shared-bitmaps-uninit-panic.dump && ! grep -q "EXPECTED" $d &&
	test "$(grep -c "^Group [1-7]: .*BLOCK_UNINIT" $d)" -ge 3 && ! grep -q "^Group 0: .*UNINIT" $d &&
	grep -A3 "^Group [1-7]: .*BLOCK_UNINIT" $d | grep "Block bitmap at" >uninit &&
	test "$(sed "s/.*csum //" uninit | sort -u)" = 0x00000000 &&
	grep -A8 "^Group [1-7]: .*BLOCK_UNINIT" $d | grep -q "^  1790 free blocks" &&
	printf "share-keep-uninit\n" >r && test_must_fail $BIN/mkimage r out.img 2>err &&
	test_grep "share-keep-uninit without share-bitmaps" err && ! test -e out.img
'
test_expect_success 'share-fill needs a byte, and share-bitmaps' '
	printf "share-bitmaps\nshare-fill 256\n" >r && test_must_fail 2 $BIN/mkimage r out.img 2>err &&
	test_grep "share-fill: 256 is not a byte" err &&
	printf "share-fill 0\n" >r && test_must_fail $BIN/mkimage r out.img 2>err &&
	test_grep "share-fill without share-bitmaps" err && ! test -e out.img
'
test_expect_success 'mount-opts: the superblock carries its own mount options' '
	img overlap-noflag-sb-opts && test_grep "^Mount options: *noblock_validity$" overlap-noflag-sb-opts.dump &&
	printf "mount-opts %065d\n" 0 >r && test_must_fail 2 $BIN/mkimage r out.img 2>err &&
	test_grep "usage: mount-opts OPTIONS" err
'
test_expect_success 'errors: the superblock says what a kernel does on an error' '
	printf "errors panic\n" >r && $BIN/mkimage r out.img && dumpe2fs -h out.img 2>/dev/null >out.dump &&
	test_grep "^Errors behavior: *Panic$" out.dump &&
	printf "errors remount-ro\n" >r && $BIN/mkimage r out.img && dumpe2fs -h out.img 2>/dev/null >out.dump &&
	test_grep "^Errors behavior: *Remount read-only$" out.dump &&
	printf "errors reboot\n" >r && test_must_fail 2 $BIN/mkimage r out2.img 2>err &&
	test_grep "usage: errors continue|remount-ro|panic" err && ! test -e out2.img
'
test_expect_success 'mke2fs-feature: an MMP block, quota files, an orphan file, and places in each' '
	printf "mke2fs-feature mmp\nmke2fs-feature orphan_file\n" >r && $BIN/mkimage r f.img && e2fsck -fn f.img >/dev/null 2>&1 &&
	dumpe2fs -h f.img 2>/dev/null >f.dump && test_grep "^Filesystem features:.* mmp" f.dump && test_grep "^Filesystem features:.* orphan_file" f.dump &&
	img leak-mmp && test -n "$(sed -n "s/^MMP block number: *//p" leak-mmp.dump)" &&
	test "$(debugfs -R "bmap one-block 0" leak-mmp.img 2>/dev/null)" = "$(sed -n "s/^MMP block number: *//p" leak-mmp.dump)" &&
	mv leak-mmp.img mmp-first.img && sleep 1 && img leak-mmp && cmp mmp-first.img leak-mmp.img &&
	test_grep "^ *mmp_update_time: 1600000000$" leak-mmp.dump &&
	img leak-quota-file && test -n "$(debugfs -R "bmap <3> 0" leak-quota-file.img 2>/dev/null)" && test "$(debugfs -R "bmap one-block 0" leak-quota-file.img 2>/dev/null)" = "$(debugfs -R "bmap <3> 0" leak-quota-file.img 2>/dev/null)" &&
	img leak-orphan-file && o=$(sed -n "s/^Orphan file inode: *//p" leak-orphan-file.dump) && test -n "$o" &&
	test "$(debugfs -R "bmap one-block 0" leak-orphan-file.img 2>/dev/null)" = "$(debugfs -R "bmap <$o> 0" leak-orphan-file.img 2>/dev/null)" &&
	printf "point one-block at mmp\n" >r && test_must_fail $BIN/mkimage r g.img 2>err &&
	test_grep "mmp: the image has no MMP block (mke2fs-feature mmp)" err && ! test -e g.img &&
	printf "mke2fs-feature quota\nmke2fs-feature quota\n" >r && test_must_fail 2 $BIN/mkimage r g.img 2>err &&
	test_grep "mke2fs-feature quota twice" err &&
	printf "mke2fs-feature casefold\n" >r && test_must_fail 2 $BIN/mkimage r g.img 2>err &&
	test_grep "usage: mke2fs-feature mmp|quota|orphan_file" err
'
test_expect_success 'resize-extra-slot: inode 7 names its double-indirect block in its first slot too' '
	img leak-resize-dind-misshapen && d=$(debugfs -R "bmap one-block 0" leak-resize-dind-misshapen.img 2>/dev/null) &&
	test -n "$d" && test "$(debugfs -R "bmap <7> 0" leak-resize-dind-misshapen.img 2>/dev/null)" = "$d" &&
	img leak-resize-dind && test "$(debugfs -R "bmap <7> 0" leak-resize-dind.img 2>/dev/null)" = 0
'
test_expect_success 'covering-itable: group 1 inode table starts 4 blocks before its backup superblock' '
	img covering-itable && test "$(field 1 "Inode table" covering-itable.dump)" = 2045 &&
	test "$(debugfs -R "blocks one-block" covering-itable.img 2>/dev/null | tr -d " ")" = 2049 &&
	img covering-itable-shared && test "$(field 1 "Inode table" covering-itable-shared.dump)" = 2045
'
test_expect_success 'a place offset is a signed block count inside the image' '
	printf "inode-table 1 at gdt +3\n" >r && $BIN/mkimage r out.img &&
	dumpe2fs out.img 2>/dev/null >out.dump && test "$(field 1 "Inode table" out.dump)" = 5 &&
	rm -f out.img* && printf "inode-table 1 at gdt -70000\n" >r && test_must_fail 2 $BIN/mkimage r out.img 2>err &&
	test_grep "r:1: offset -70000: at most 65536 blocks" err &&
	printf "inode-table 1 at superblock -5\n" >r && test_must_fail 1 $BIN/mkimage r out.img 2>err &&
	test_grep "offset -5 goes below block 0" err &&
	printf "inode-table 1 at past-end -1\n" >r && $BIN/mkimage r out.img && rm -f out.img* &&
	printf "inode-table 1 at inode-table 7 +20000\n" >r && test_must_fail 1 $BIN/mkimage r out.img 2>err &&
	test_grep "outside the image" err && test ! -e out.img
'
test_expect_success 'journal-file: the journal in a linked, immutable regular inode; e2fsck clean' '
	img journal-file && j=$(sed -n "s/^Journal inode: *//p" journal-file.dump) && test "$j" -gt 11 &&
	debugfs -R "ls -l /" journal-file.img 2>/dev/null | grep -q "^ *$j  *100600 .* \.journal$" &&
	debugfs -R "stat <$j>" journal-file.img 2>/dev/null | grep -q "Flags: 0x80010" &&
	debugfs -R "stat <8>" journal-file.img 2>/dev/null | grep -q "Mode:  0000" &&
	test_grep "^e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  \.journal$" journal-file.img.manifest &&
	e2fsck -fn journal-file.img
'
test_expect_success 'quota-file-link: the user quota file in a linked regular inode the superblock names' '
	img leak-quota-file-link && q=$(sed -n "s/^User quota inode: *//p" leak-quota-file-link.dump) && test "$q" -gt 11 &&
	debugfs -R "ls -l /" leak-quota-file-link.img 2>/dev/null | grep -q "^ *$q  *100600 .* aquota\.user$" &&
	debugfs -R "stat <3>" leak-quota-file-link.img 2>/dev/null | grep -q "Mode:  0000" &&
	test_grep "^e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  aquota\.user$" leak-quota-file-link.img.manifest &&
	debugfs -R "dump /aquota.user q.out" leak-quota-file-link.img 2>/dev/null && test -s q.out &&
	echo "$(sha256sum <q.out | cut -d" " -f1)  aquota.user" >want && test_cmp want leak-quota-file-link.img.meta
'
test_expect_success 'quota-file-link needs the quota feature, and one plain name' '
	rm -f out.img* && printf "quota-file-link usr aquota.user\n" >r && test_must_fail 1 $BIN/mkimage r out.img 2>err &&
	test_grep "has no user quota file" err && test ! -e out.img &&
	printf "mke2fs-feature quota\nquota-file-link prj q\n" >r && test_must_fail 2 $BIN/mkimage r out.img 2>err &&
	test_grep "usage: quota-file-link usr|grp NAME" err && test ! -e out.img
'
test_expect_success 'journal-file takes one plain name' '
	rm -f out.img* && printf "journal-file a/b\n" >r && test_must_fail 2 $BIN/mkimage r out.img 2>err &&
	test_grep "usage: journal-file NAME" err && test ! -e out.img
'
test_expect_success 'leak-resize-dind: one-block points at the resize inode double-indirect block' '
	img leak-resize-dind &&
	d=$(debugfs -R "stat <7>" leak-resize-dind.img 2>/dev/null | sed -n "s/^(DIND):\([0-9]*\).*/\1/p") && test -n "$d" &&
	test "$(debugfs -R "blocks one-block" leak-resize-dind.img 2>/dev/null | tr -d " ")" = "$d"
'
test_expect_success 'bigalloc: clusters of 16 blocks, first data block 0, superblock at 1; e2fsck clean' '
	img bigalloc && test_grep "^Filesystem features:.* bigalloc" bigalloc.dump &&
	test_grep "^First block: *0$" bigalloc.dump && test_grep "^Cluster size: *16384$" bigalloc.dump &&
	test_grep "Primary superblock at 1, Group descriptors at 2-2" bigalloc.dump &&
	e2fsck -fn bigalloc.img && contents_match bigalloc.img
'
test_expect_success 'bigalloc-leak-gdt: one-block is the primary descriptor block, not the superblock' '
	img bigalloc-leak-gdt && test "$(debugfs -R "blocks one-block" bigalloc-leak-gdt.img 2>/dev/null | tr -d " ")" = 2 &&
	img leak-superblock && test "$(debugfs -R "blocks one-block" leak-superblock.img 2>/dev/null | tr -d " ")" = 2049
'
test_expect_success 'covering-journal: the journal, content and all, starts 4 blocks before group 1 backup superblock' '
	img covering-journal && j=$(sed -n "s/^Journal inode: *//p" covering-journal.dump) &&
	test "$(debugfs -R "blocks <$j>" covering-journal.img 2>/dev/null | tr " " "\n" | grep . | head -1)" = 2045 &&
	test "$(debugfs -R "blocks <$j>" covering-journal.img 2>/dev/null | wc -w)" -eq 1024 &&
	test "$(dd if=covering-journal.img bs=1024 skip=2045 count=1 2>/dev/null | od -An -N4 -tx1 | tr -d " ")" = c03b3998 &&
	test "$(debugfs -R "blocks one-block" covering-journal.img 2>/dev/null | tr -d " ")" = 2049
'
test_expect_success 'journal-at refuses a place the journal does not fit' '
	printf "journal-at past-end\n" >r && test_must_fail 1 $BIN/mkimage r out.img 2>err &&
	test_grep "journal-at: 1024 blocks from .* do not fit in the image" err && test ! -e out.img
'
test_expect_success 'meta_bg: 32 groups of 512 blocks, descriptor blocks in groups 0, 1, 15, 16, 17, 31; e2fsck clean' '
	img meta-bg && test_grep "^Filesystem features:.* meta_bg" meta-bg.dump &&
	test $(grep -c "^Group [0-9]" meta-bg.dump) -eq 32 &&
	test "$(grep -c "Group descriptor at" meta-bg.dump)" -eq 6 &&
	e2fsck -fn meta-bg.img && contents_match meta-bg.img
'
test_expect_success 'meta-bg-leak-gdt: one-block is group 16 descriptor block; meta-gdt needs meta_bg' '
	img meta-bg-leak-gdt && test "$(debugfs -R "blocks one-block" meta-bg-leak-gdt.img 2>/dev/null | tr -d " ")" = 8193 &&
	grep -A1 "^Group 16:" meta-bg-leak-gdt.dump | grep -q "Group descriptor at 8193" &&
	printf "point one-block at meta-gdt 16\n" >r && test_must_fail 1 $BIN/mkimage r out.img 2>err &&
	test_grep "meta-gdt: the image has no meta_bg" err && test ! -e out.img &&
	printf "meta_bg\nbigalloc\n" >r && test_must_fail 1 $BIN/mkimage r out.img 2>err &&
	test_grep "bigalloc and meta_bg: one layout at a time" err
'
# recipe NAME: NAME/recipe (stdin), a recipe of this test's own.
recipe() { mkdir -p "$1" && cat >"$1/recipe"; }
test_expect_success 'journal-pending: a committed transaction sets the flag the disk lacks, as a replay by e2fsprogs shows' '
	recipe jp <<-\R &&
	share-bitmaps
	feature shared_blocks off
	journal-pending superblock shared_blocks on
	R
	$BIN/mkimage jp/recipe jp.img && dumpe2fs -h jp.img >before 2>/dev/null &&
	test_grep "^Filesystem features:.* needs_recovery" before && ! grep -q shared_blocks before &&
	debugfs -R logdump jp.img >log 2>&1 && test_grep "^Found expected sequence 1, type 2 (commit block)" log &&
	cp jp.img replayed.img && debugfs -w -R journal_run replayed.img >/dev/null 2>&1 &&
	dumpe2fs -h replayed.img >after 2>err && test_grep "^Filesystem features:.* shared_blocks" after &&
	! grep -q needs_recovery after && ! grep -qi checksum err &&
	sleep 1 && $BIN/mkimage jp/recipe again.img && cmp jp.img again.img
'
test_expect_success 'journal-pending: a logged block filled with a byte is what a replay leaves there' '
	recipe jf <<-\R &&
	journal-pending inode-table 2 +3 fill 170
	R
	$BIN/mkimage jf/recipe jf.img && b=$(dumpe2fs jf.img 2>/dev/null | sed -n "s/^  Inode table at \([0-9]*\)-.*/\1/p" | sed -n 3p) &&
	test -n "$b" && dd if=jf.img bs=1024 skip=$((b + 3)) count=1 2>/dev/null | od -An -v -tx1 | sort -u >disk &&
	! grep -q "aa aa aa aa" disk &&
	debugfs -w -R journal_run jf.img >/dev/null 2>&1 &&
	dd if=jf.img bs=1024 skip=$((b + 3)) count=1 2>/dev/null | od -An -v -tx1 | sort -u >replayed &&
	test "$(cat replayed)" = " aa aa aa aa aa aa aa aa aa aa aa aa aa aa aa aa"
'
test_expect_success 'journal-stale leaves the transaction in a log without needs_recovery; journal-errno records an errno' '
	recipe js <<-\R &&
	journal-pending superblock
	journal-stale
	journal-errno 5
	R
	$BIN/mkimage js/recipe js.img && dumpe2fs -h js.img >h 2>/dev/null &&
	! grep -q needs_recovery h && test_grep "^Journal errno: *-5$" h && test_grep "^Journal start: *1$" h &&
	debugfs -R logdump js.img >log 2>&1 && test_grep "^Found expected sequence 1, type 2 (commit block)" log &&
	printf "journal-stale\n" >js/recipe && test_must_fail 1 $BIN/mkimage js/recipe y.img 2>err &&
	test_grep "journal-stale without journal-pending" err && ! test -e y.img
'
test_expect_success 'journal-pending: the flag only on the superblock, a fill only a byte' '
	recipe jbad <<-\R &&
	journal-pending gdt shared_blocks on
	R
	test_must_fail 2 $BIN/mkimage jbad/recipe x.img 2>err && test_grep "only the superblock carries the flag" err &&
	printf "journal-pending gdt fill 256\n" >jbad/recipe &&
	test_must_fail 2 $BIN/mkimage jbad/recipe x.img 2>err && test_grep "fill: 256 is not a byte" err &&
	! test -e x.img
'
test_expect_success 'IMAGE.meta: what a file pointed at metadata reads, from the image as written' '
	img leak-superblock && echo "$(dd if=leak-superblock.img bs=1024 skip=2049 count=1 2>/dev/null | sha256sum | cut -d" " -f1)  one-block" >want &&
	test_cmp want leak-superblock.img.meta &&
	img journal-file && debugfs -R "dump /.journal j.out" journal-file.img 2>/dev/null && test -s j.out &&
	echo "$(sha256sum <j.out | cut -d" " -f1)  .journal" >want && test_cmp want journal-file.img.meta &&
	img plain && test_cmp /dev/null plain.img.meta
'
test_expect_success 'leak-dir-block, -extent-leaf, -xattr-block: one-block is another inode'"'"'s metadata; e2fsck clean without the point' '
	img leak-dir-block && d=$(debugfs -R "bmap dir/nested 0" leak-dir-block.img 2>/dev/null) && test -n "$d" &&
	test "$(debugfs -R "bmap one-block 0" leak-dir-block.img 2>/dev/null)" = "$d" &&
	img leak-extent-leaf && debugfs -R "ex dir/big" leak-extent-leaf.img 2>/dev/null >ex &&
	test "$(grep -c "^ 1/ 1 " ex)" = 5 && l=$(awk "\$1 == \"0/\" { print \$8 }" ex) && test -n "$l" &&
	test "$(debugfs -R "bmap one-block 0" leak-extent-leaf.img 2>/dev/null)" = "$l" &&
	img leak-xattr-block && a=$(debugfs -R "stat dir/small" leak-xattr-block.img 2>/dev/null | sed -n "s/.*File ACL: \([0-9]*\).*/\1/p") &&
	test -n "$a" && test "$a" -gt 0 && test "$(debugfs -R "bmap one-block 0" leak-xattr-block.img 2>/dev/null)" = "$a" &&
	debugfs -R "ea_get dir/small user.kit" leak-xattr-block.img 2>/dev/null | grep -q . &&
	recipe sx <<-\R &&
	split dir/big
	xattr dir/small 600
	R
	$BIN/mkimage sx/recipe sx.img && e2fsck -fn sx.img >fsck.out 2>&1 && contents_match sx.img
'
test_expect_success 'split, xattr and the places of an inode'"'"'s metadata refuse what they cannot make' '
	recipe s1 <<-\R &&
	point one-block at extent-leaf dir/big
	R
	test_must_fail 1 $BIN/mkimage s1/recipe s1.img 2>err && test_grep "extent-leaf dir/big: its extents fit in its inode (split it first: split dir/big)" err &&
	recipe s2 <<-\R &&
	point one-block at xattr-block dir/small
	R
	test_must_fail 1 $BIN/mkimage s2/recipe s2.img 2>err && test_grep "xattr-block dir/small: it has no attribute block" err &&
	recipe s3 <<-\R &&
	point one-block at dir-block dir/small
	R
	test_must_fail 1 $BIN/mkimage s3/recipe s3.img 2>err && test_grep "dir-block dir/small: not a directory" err &&
	recipe s4 <<-\R &&
	split one-block
	R
	test_must_fail 1 $BIN/mkimage s4/recipe s4.img 2>err && test_grep "split one-block: not one extent of five blocks or more" err &&
	recipe s5 <<-\R &&
	xattr dir/small 9000
	R
	test_must_fail 2 $BIN/mkimage s5/recipe s5.img 2>err && test_grep "s5/recipe:1: xattr: SIZE is 64 to 900 bytes, not 9000" err &&
	! ls s1.img* s2.img* s3.img* s4.img* s5.img* 2>/dev/null
'
test_expect_success 'indirect: files mapped by direct and indirect blocks read as before; e2fsck clean' '
	recipe ind <<-\R &&
	indirect dir/big
	indirect block-and-a-byte
	R
	$BIN/mkimage ind/recipe ind.img && e2fsck -fn ind.img >fsck.out 2>&1 && contents_match ind.img &&
	debugfs -R "stat dir/big" ind.img 2>/dev/null >big.stat && test_grep "Flags: 0x0\$" big.stat &&
	test_grep "(IND):[0-9]*, (12-267):.*(DIND):[0-9]*, (IND):[0-9]*, (268-292):" big.stat &&
	! grep -q EXTENTS big.stat
'
test_expect_success 'uninit-tail: the directory in the last inode, in its group'"'"'s unused tail, its blocks checksummed for it' '
	recipe ut <<-\R &&
	uninit-tail dir/nested
	R
	$BIN/mkimage ut/recipe ut.img && dumpe2fs ut.img >ut.dump 2>/dev/null &&
	debugfs -R "ls -l /dir" ut.img 2>/dev/null | grep -q "^ *512  *40755 .* nested *\$" &&
	sed -n "/^Group 7:/,\$p" ut.dump >g7 && test_grep " 1 unused inodes" g7 &&
	debugfs -R "ls /dir/nested" ut.img >ls.out 2>&1 && ! grep -qi checksum ls.out &&
	test_grep "512  (12) \." ls.out &&
	debugfs -R "cat /dir/nested/seven-blocks" ut.img 2>/dev/null | sha256sum | cut -c1-64 >got &&
	sed -n "s/  dir\/nested\/seven-blocks\$//p" ut.img.manifest >want && test_cmp want got &&
	test_must_fail 4 e2fsck -fn ut.img >fsck.out 2>&1 &&
	test_grep "references inode 512 found in group 7.s unused inodes area" fsck.out
'
test_expect_success 'map-evasions-shared: a shared attribute block read as data, an inline flag, an unused tail' '
	img map-evasions-shared && i=map-evasions-shared.img &&
	a=$(debugfs -R "stat dir/small" $i 2>/dev/null | sed -n "s/.*File ACL: \([0-9]*\).*/\1/p") &&
	test -n "$a" && test "$a" -gt 0 &&
	test "$(debugfs -R "stat one-block" $i 2>/dev/null | sed -n "s/.*File ACL: \([0-9]*\).*/\1/p")" = "$a" &&
	test "$(debugfs -R "bmap one-block 0" $i 2>/dev/null)" = "$a" &&
	debugfs -R "stat block-and-a-byte" $i >bb.stat 2>/dev/null && test_grep "Flags: 0x10000000\$" bb.stat &&
	debugfs -R "ls -l /dir" $i 2>/dev/null | grep -q "^ *512  *40755 .* nested *\$" &&
	sed -n "/^Group 7:/,\$p" map-evasions-shared.dump >g7 && test_grep " 1 unused inodes" g7
'
test_expect_success 'every case on the plain shared layout: one block of all ones, one checksum each, whatever else its recipe changes' '
	for r in "$CASES"/*/recipe; do
		c=$(basename "$(dirname "$r")") &&
		grep -qx "share-bitmaps" "$r" && ! grep -q "^share-\(fill\|keep-uninit\)" "$r" || continue
		img "$c" && b=$(field 0 "Block bitmap" "$c.dump") &&
		test "$(dd if="$c.img" bs=1024 skip=$b count=1 2>/dev/null | od -An -v -tx1 | tr -d " \nf")" = "" &&
		test $(grep "Block bitmap at" "$c.dump" | sed "s/.*csum //" | sort -u | wc -l) -eq 1 &&
		test $(grep "Inode bitmap at" "$c.dump" | sed "s/.*csum //" | sort -u | wc -l) -eq 1 &&
		debugfs -R "stat /" "$c.img" >/dev/null 2>"$c.err" && ! grep -qi "checksum does not match" "$c.err" ||
		{ echo "$c: its shared block or bitmap checksums" >&2; return 1; }
	done
'
test_expect_success 'size and dind-at: dir/big 269 blocks long, its double-indirect block'"'"'s first slot on the superblock' '
	img dind-on-superblock && i=dind-on-superblock.img &&
	debugfs -R "stat dir/big" $i >big.stat 2>/dev/null && test_grep "Size: 275456\$" big.stat &&
	test_grep "(DIND):[0-9]*, (IND):1, (268):" big.stat &&
	sed -n "s/  dir\/big\$//p" $i.manifest >want &&
	recipe sz <<-\R &&
	size dir/big 275456
	R
	$BIN/mkimage sz/recipe sz.img && e2fsck -fn sz.img >fsck.out 2>&1 && contents_match sz.img &&
	sed -n "s/  dir\/big\$//p" sz.img.manifest >got && test_cmp want got &&
	recipe sz2 <<-\R &&
	size hello.txt 3
	R
	test_must_fail 1 $BIN/mkimage sz2/recipe sz2.img 2>err && test_grep "size hello.txt: its text is fixed" err &&
	recipe sz3 <<-\R &&
	size dir/none 3
	R
	test_must_fail 1 $BIN/mkimage sz3/recipe sz3.img 2>err && test_grep "size dir/none: no such file in the tree" err &&
	! ls sz2.img* sz3.img* 2>/dev/null
'
test_expect_success 'acl, indirect, inline-flag and uninit-tail refuse what they cannot make' '
	recipe u1 <<-\R &&
	inline-flag one-block
	R
	test_must_fail 1 $BIN/mkimage u1/recipe u1.img 2>err && test_grep "inline-flag one-block: it maps its blocks with extents.*(make it indirect first: indirect one-block)" err &&
	recipe u2 <<-\R &&
	split dir/big
	indirect dir/big
	R
	test_must_fail 1 $BIN/mkimage u2/recipe u2.img 2>err && test_grep "indirect dir/big: its extent tree has blocks of its own" err &&
	recipe u3 <<-\R &&
	uninit-tail one-block
	R
	test_must_fail 1 $BIN/mkimage u3/recipe u3.img 2>err && test_grep "uninit-tail one-block: not a directory without subdirectories" err &&
	recipe u4 <<-\R &&
	indirect dir/small dind-at superblock
	R
	test_must_fail 1 $BIN/mkimage u4/recipe u4.img 2>err && test_grep "indirect dir/small dind-at: 1 blocks need no double-indirect block" err &&
	recipe u5 <<-\R &&
	acl one-block gdt
	R
	test_must_fail 2 $BIN/mkimage u5/recipe u5.img 2>err && test_grep "u5/recipe:1: usage: acl FILE at PLACE" err &&
	recipe u6 <<-\R &&
	uninit-tail dir
	R
	test_must_fail 1 $BIN/mkimage u6/recipe u6.img 2>err && test_grep "uninit-tail dir: not a directory without subdirectories" err &&
	! ls u1.img* u2.img* u3.img* u4.img* u5.img* u6.img* 2>/dev/null
'
test_done
