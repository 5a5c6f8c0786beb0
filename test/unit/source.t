#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Makefile's source rules: a series is unpacked again, from clean
# objects, whenever its source changes, even to a tree older than the copy.
. "$(dirname "$0")/lib.sh"

# A fake cache: the real programs, dependencies taken as installed.
mkdir -p kit/bin && cp "$BIN/matrix" kit/bin/ &&
for g in tools fetch build images guest report stacks check; do touch kit/deps-$g.stamp; done
kmake() { make -s -C "$TOP" KIT_CACHE="$trash/cache" KIT_BUILD="$trash/kit" "$@"; }

# faketree DIR SUBLEVEL: the least unpack accepts as a 6.18 tree.
faketree() {
	mkdir -p "$1/fs/ext4" &&
	printf 'VERSION = 6\nPATCHLEVEL = 18\nSUBLEVEL = %s\nEXTRAVERSION =\n' "$2" >"$1/Makefile"
}
stamp=cache/src/6.18.stamp
sublevel() { sed -n 's/^SUBLEVEL = //p' cache/src/6.18/Makefile; }

test_expect_success 'a tree given in KIT_SRC_6_18 is unpacked' '
	faketree new 40 && kmake KIT_SRC_6_18="$trash/new" "$trash/$stamp" >out &&
	test "$(sublevel)" = 40
'
test_expect_success 'nothing is unpacked again while the source is the same' '
	touch -d "2000-01-01" new/Makefile && kmake KIT_SRC_6_18="$trash/new" "$trash/$stamp" &&
	touch -d "2001-01-01" cache/src/6.18.from && touch -d "2002-01-01" "$stamp" &&
	kmake KIT_SRC_6_18="$trash/new" "$trash/$stamp" >out &&
	test "$(stat -c %y cache/src/6.18.from "$stamp" | cut -c1-4 | tr "\n" " ")" = "2001 2002 "
'
test_expect_success 'another tree with an older Makefile replaces the copy and the objects' '
	faketree old 26 && touch -d "2000-01-01" old/Makefile &&
	mkdir -p cache/obj/6.18 && touch cache/obj/6.18/stale.o &&
	kmake KIT_SRC_6_18="$trash/old" "$trash/$stamp" >out &&
	test "$(sublevel)" = 26 && ! test -e cache/obj/6.18/stale.o
'
test_expect_success 'a release bump in the same tree is unpacked again' '
	sed -i "s/^SUBLEVEL = 26/SUBLEVEL = 27/" old/Makefile && touch -d "2000-01-01" old/Makefile &&
	kmake KIT_SRC_6_18="$trash/old" "$trash/$stamp" >out &&
	test "$(sublevel)" = 27
'
test_expect_success 'a Debian-served series takes a tree from KIT_SRC_6_1 instead of its .deb' '
	mkdir -p t61/fs/ext4 && printf "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 6\nEXTRAVERSION =\n" >t61/Makefile &&
	kmake KIT_SRC_6_1="$trash/t61" "$trash/cache/src/6.1.stamp" >out 2>&1 &&
	test "$(sed -n "s/^SUBLEVEL = //p" cache/src/6.1/Makefile)" = 6 && test ! -e cache/debs &&
	kmake -n "$trash/cache/src/6.1.stamp" 2>&1 | grep -q "fetch-debian 6.1 "
'
test_expect_success 'source-id refuses a path that does not exist' '
	test_must_fail source-id tree "$trash/nowhere" 2>err &&
	test_grep "nowhere: no such tree" err
'
# checkout DIR: a copy of this checkout, its tools built, its dependencies
# taken as installed.
checkout() {
	mkdir -p "$1" && tar -C "$TOP" --exclude=./.kit --exclude=./results --exclude=./.git --exclude=./.gitlab-ci-local \
		--exclude=./merged --exclude=./public -cf - . | tar -C "$1" -xf - &&
	mkdir -p "$1/.kit/bin" && cp "$BIN/matrix" "$1/.kit/bin/" &&
	for g in tools fetch build images guest report stacks check; do touch "$1/.kit/deps-$g.stamp"; done
}
test_expect_success 'two checkouts on one cache never read each other'"'"'s matrix' '
	checkout a && checkout b && pin=$(a/build/matrix -C a get a/matrix.yaml 7.3 source.debian.version) &&
	b/build/matrix -C b set-version b/matrix.yaml 7.3 7.3.99-1 &&
	env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -n -C b KIT_CACHE="$trash/shared" VERSIONS=7.3 kernels >b.out 2>&1 &&
	test_grep "fetch-debian 7.3 linux-source-7.3 7.3.99-1 " b.out &&
	env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -n -C a KIT_CACHE="$trash/shared" VERSIONS=7.3 kernels >a.out 2>&1 &&
	test_grep "fetch-debian 7.3 linux-source-7.3 $pin " a.out && ! grep -q 7.3.99 a.out
'
test_expect_success 'a kernel is keyed by its stack: another stack is another kernel' '
	checkout c && env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -s -C c --no-print-directory KIT_CACHE="$trash/shared" VERSIONS=7.3 kernels -n >one &&
	echo "# changed" >>c/versions/7.3/series.hardened &&
	env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -s -C c --no-print-directory KIT_CACHE="$trash/shared" VERSIONS=7.3 kernels -n >two &&
	grep -o "out/7.3/hardened-[0-9a-f-]*" one | sort -u >h1 && grep -o "out/7.3/hardened-[0-9a-f-]*" two | sort -u >h2 &&
	test -s h1 && ! test_cmp h1 h2 2>/dev/null &&
	grep -o "out/7.3/patched-[0-9a-f-]*" one | sort -u >p1 && grep -o "out/7.3/patched-[0-9a-f-]*" two | sort -u >p2 &&
	test_cmp p1 p2
'
test_expect_success 'apply, review, report, clean-results build no matrix tools and install no guest or checker' '
	mkdir -p g && tar -C "$TOP" --exclude=./.kit --exclude=./results --exclude=./.git --exclude=./.gitlab-ci-local --exclude=./merged --exclude=./public -cf - . | tar -C g -xf - &&
	for goal in "apply TREE=$trash/none" review report clean-results; do
		{ env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -n -C g $goal >out 2>&1 || :; } &&
		! test -e g/.kit/bin/matrix && ! test -e g/.kit/matrix.mk &&
		! grep -E "deps build/packages .*(guest|check|build|images)" out &&
		! grep -E "mkimage|guest-init|matrix\.c" out || { echo "goal $goal:"; cat out; return 1; }
	done
'
# (make as a CI job runs it: no flags at all, so MAKEFLAGS starts with the
# Makefile's own long option, which once read as -n.)
test_expect_success 'make matrix on a checkout that has no results folder yet' '
	checkout h && (cd h && env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL -u KIT_SRC_5_4 make KIT_CACHE="$trash/shared" \
		RESULTS="$trash/none/results" VERSIONS=5.4 CORPUS= matrix) >out 2>&1 &&
	! grep -q "No such file" out && test -s none/results/plan.tsv && test -s none/results/results.json &&
	test_grep "^0 passed, 0 failed, 93 skipped$" out
'
test_expect_success 'a fresh checkout plans a shard (the matrix is read first)' '
	checkout s && rm -f s/.kit/matrix.mk && env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -s -C s KIT_CACHE="$trash/shared" \
		SHARD=6.1 plan >out 2>&1 &&
	test_grep "^series	6.1	run	" out && test_grep "^series	5.10	shard	[^	]*	5.10$" out
'
test_expect_success 'make -n matrix writes nothing' '
	checkout n && { env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -n -C n KIT_CACHE="$trash/shared" \
		RESULTS="$trash/dry/results" VERSIONS=5.4 matrix >out 2>&1 || :; } && test ! -e dry/results/plan.tsv
'
test_done
