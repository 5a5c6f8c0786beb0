#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Image fuzzing without a kernel: test/fuzz/fuzz.c is deterministic and its
# findings rebuild from a recipe; test/judge/judge --fuzz and test/fuzz/run-fuzz
# against a stand-in QEMU.
. "$(dirname "$0")/lib.sh"
pc_guest
. "$TOP/test/unit/fake-qemu.sh"
CASES=$TOP/test/cases

base() { [ -f plain.img ] || $BIN/mkimage "$CASES/plain/recipe" plain.img; }

test_expect_success 'the same seed makes byte-identical images, zones and log' '
	base && $BIN/fuzz 7 0 20 a plain.img && $BIN/fuzz 7 0 20 b plain.img &&
	cmp a/disk b/disk && cmp a/index b/index && cmp a/mutations b/mutations && diff -r a/zones b/zones &&
	test $(wc -l <a/index) -ge 15
'
test_expect_success 'another seed makes other images' '
	base && $BIN/fuzz 7 0 5 a plain.img && $BIN/fuzz 8 0 5 b plain.img && ! cmp -s a/disk b/disk
'
test_expect_success 'a batch is the same images as the whole run' '
	base && $BIN/fuzz 7 0 20 a plain.img && $BIN/fuzz 7 12 3 b plain.img &&
	for i in 12 13 14; do
		cmp a/zones/s7-$i-plain b/zones/s7-$i-plain || return 1
	done
'
test_expect_success 'a finding rebuilds from its recipe: the base case, then mutate SEED64' '
	base && $BIN/fuzz 7 3 1 a plain.img && seed=$(awk "{ print \$2 }" a/mutations) &&
	{ cat "$CASES/plain/recipe" && echo "mutate $seed"; } >r && $BIN/mkimage r m.img &&
	cmp m.img a/disk && cmp m.img.zone a/zones/s7-3-plain
'
test_expect_success 'every mutation is in the log, in words' '
	base && $BIN/fuzz 7 0 20 a plain.img &&
	test $(wc -l <a/mutations) -eq 20 &&
	! grep -v -E "^s7-[0-9]+-plain ([0-9a-f]{16}|-) [a-z]" a/mutations
'
# one-block is one whole block: its sha256 is its block's.
test_expect_success 'the zone lists the superblock, and no file data' '
	base && $BIN/fuzz 7 0 1 a plain.img &&
	sb=$(dd if=a/disk bs=1024 skip=1 count=1 2>/dev/null | sha256sum | cut -d" " -f1) &&
	test_grep "^$sb$" a/zones/s7-0-plain &&
	data=$(awk "\$2 == \"one-block\" { print \$1 }" plain.img.manifest) && test -n "$data" &&
	! grep -q "^$data$" a/zones/s7-0-plain
'
# Found by make fuzz FUZZ_SEED=1: inode bitmap 7 moved onto /dir/big's
# block 578 (the shared all-ones block copied there), then on again: the
# file reads all ones from a block outside the zone, no leak.
test_expect_success 'content a file block outside the zone holds after the mutation is no leak' '
	{ cat "$CASES/shared-bitmaps/recipe" && echo "mutate a80950010b18b8cd"; } >r && $BIN/mkimage r m.img &&
	b578=$(dd if=m.img bs=1024 skip=578 count=1 2>/dev/null | sha256sum | cut -d" " -f1) &&
	! grep -q "^$b578$" m.img.zone && test $(wc -l <m.img.zone) -gt 100
'
test_expect_success 'a bad seed in a recipe is one clear error' '
	{ cat "$CASES/plain/recipe" && echo "mutate xyz"; } >r &&
	test_must_fail 2 $BIN/mkimage r m.img 2>err && test_grep "mutate: .xyz. is not a hex seed" err
'

# failing_build: ./failing, mutate.c built with a realloc that fails on the
# call FAIL_REALLOC names (1 the first; libext2fs, its inline functions
# included before, keeps the real one):
# "failing add" fills a list past its first growth, "failing mutate IMAGE
# SEED ZONE" prints mutate_file's result, the calls to realloc, and WHAT.
failing_build() {
	[ -x failing ] && return 0
	cat >failing.c <<'C' &&
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ext2fs/ext2fs.h>

static int calls;

static void *failing_realloc(void *p, size_t n)
{
	const char *at = getenv("FAIL_REALLOC");

	if (at && ++calls == atoi(at))
		return NULL;
	if (!at)
		calls++;
	return realloc(p, n);
}

#define realloc failing_realloc
#include "mutate.c"
#undef realloc

int main(int argc, char **argv)
{
	char what[1024];

	if (argc == 2 && !strcmp(argv[1], "add")) {
		struct blocks l = { 0 };
		blk64_t i;

		for (i = 0; i < 257; i++)
			add(&l, i);
		printf("%zu blocks, room for %zu;", l.n, l.cap);
		add(&l, 257);
		for (i = 0; i < l.n && l.b[i] == (i < 256 ? i : 257); i++)
			;
		printf(" then %zu blocks, room for %zu, %s\n", l.n, l.cap, i == l.n ? "in order" : "out of order");
		free(l.b);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "mutate")) {
		int rc = mutate_file(argv[2], strtoull(argv[3], NULL, 16), argv[4], what, sizeof(what));

		printf("%d %d %s\n", rc, calls, what);
		return 0;
	}
	return 2;
}
C
	cc -O2 -Wall -Wextra -I"$TOP/test/image" -I"$TOP/common" -o failing failing.c "$TOP/common/sha256.c" -lext2fs -lcom_err
}
test_expect_success 'a list of blocks that cannot grow keeps its blocks and its room as they were' '
	failing_build && FAIL_REALLOC=2 ./failing add >out &&
	echo "256 blocks, room for 256; then 257 blocks, room for 512, in order" >want && test_cmp want out
'
test_expect_success 'a mutation whose block lists cannot grow fails, saying so, and writes no zone' '
	base && failing_build && cp plain.img m.img && ./failing mutate m.img 7 m.zone >out &&
	grep -q "^0 " out && test -s m.zone && calls=$(cut -d" " -f2 out) && test "$calls" -ge 4 && k=1 &&
	while [ "$k" -le "$calls" ]; do
		rm -f m.zone && cp plain.img m.img && FAIL_REALLOC=$k ./failing mutate m.img 7 m.zone >out &&
		grep -q "^-1 .* (no zone: out of memory)$" out && test ! -e m.zone || { echo "realloc $k failing:"; cat out; exit 1; }
		k=$((k + 1))
	done
'

# The stand-in QEMU of run-fuzz: every image mounts; an image named in
# FAKE_LEAK reads a zone block, one in FAKE_OOPS oopses.
fake() {
	base && : >init && chmod +x init && : >kernel && mkdir -p imgs cases/plain &&
	cp plain.img imgs/plain.img && cp "$CASES/plain/recipe" cases/plain/ &&
	fake_qemu fake-qemu <<-'Q'
	echo "KTAP version 1"
	n=0
	cpio -i --quiet --to-stdout corpus <"$rd" | tail -n +2 | while read -r img off size; do
		n=$((n + 1))
		echo "# case $n $img"
		echo "# out: mount: ok"
		echo "# out: walk: 2 dirs, 3 files, 0 links, 99 bytes, 0 errors, sha256 1111"
		case " $FAKE_OOPS " in *" $img "*) echo "not ok $n $img # ERROR kernel trouble: BUG: KASAN: slab-out-of-bounds"; continue ;; esac
		case " $FAKE_NOZONE " in *" $img "*) echo "# out: umount: ok"; echo "ok $n $img"; continue ;; esac
		case " $FAKE_LEAK " in
		*" $img "*) echo "# out: zone: 40 blocks, 2 read through a file (first: /dir/big)" ;;
		*) echo "# out: zone: 40 blocks, 0 read through a file" ;;
		esac
		echo "# out: umount: ok"; echo "ok $n $img"
	done
	Q
}
fuzz_() {
	KIT_QEMU="$trash/fake-qemu" KIT_GUEST_INIT="$trash/init" KIT_IMAGES=imgs KIT_CASES_DIR=cases \
	KIT_FUZZ=$BIN/fuzz KIT_FUZZ_BATCH=4 KIT_FUZZ_KERNELS="9.9:patched:kernel 9.9:hardened:kernel" \
		run-fuzz 5 10 out plain
}
test_expect_success 'no violation: every image of every batch on every kernel, exit 0' '
	fake && fuzz_ >log &&
	test_grep "^fuzz seed 5: 10 mutations tried" log &&
	test_grep "^9.9    hardened     10 images: 10 mount, 0 refused, 0 oops, 0 hangs, 0 leaks, .* 0 violations$" log &&
	test_grep "^no violation$" log && test $(ls out/9.9/hardened | wc -l) -eq 3
'
test_expect_success 'a leak fails the hardened kernel only, and is kept as a case that rebuilds' '
	fake && FAKE_LEAK="s5-6-plain" test_must_fail 1 fuzz_ >log &&
	test_grep "^9.9    patched .* 1 leak (a known weakness), .* 0 violations$" log &&
	test_grep "^9.9    hardened .* 1 violation$" log &&
	test_grep "2 block(s) of the system zone read through a file (first: /dir/big)" out/repro/fuzz-s5-6-plain/NOTE &&
	test "$(cat out/repro/fuzz-s5-6-plain/mount)" = ro &&
	$BIN/mkimage out/repro/fuzz-s5-6-plain/recipe r.img && $BIN/fuzz 5 6 1 again imgs/plain.img && cmp r.img again/disk
'
test_expect_success 'a mounted image whose reads nothing measured is no pass: unmeasured, a violation' '
	fake && FAKE_NOZONE="s5-3-plain" test_must_fail 1 fuzz_ >log &&
	test_grep "^9.9    hardened .* 0 leaks, 1 unmeasured, .* 1 violation$" log &&
	test_grep "unmeasured: mounted, but no zone line" out/repro/fuzz-s5-3-plain/NOTE
'
test_expect_success 'an oops is a violation on every kernel' '
	fake && FAKE_OOPS="s5-1-plain" test_must_fail 1 fuzz_ >log &&
	test_grep "^9.9    patched .* 1 oops, .* 1 violation$" log &&
	test -d out/repro/fuzz-s5-1-plain
'
test_expect_success 'the time bound stops before the next batch' '
	fake && KIT_FUZZ_SECONDS=0 fuzz_ >log && test_grep "stopped at the time bound (0s) after 0 images" log
'
test_expect_success 'make fuzz takes every case but those with a nofuzz file (one line: why)' '
	make -C "$TOP" -n fuzz FUZZ_SERIES=7.3 KIT_CACHE="$trash/kc" RESULTS="$trash/r" >fz 2>&1 &&
	grep -o "test/fuzz/run-fuzz .*" fz | tr " " "\n" >args &&
	test_grep "^plain$" args && ! grep -q "^errors-panic$" args && ! grep -q "^errors-sb-opts$" args &&
	for c in "$TOP"/test/cases/*/nofuzz; do test "$(wc -l <"$c")" -eq 1 || return 1; done
'
test_done
