#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Makefile's source rules: a series is unpacked again, from clean
# objects, whenever its source changes, even to a tree older than the copy.
. "$(dirname "$0")/lib.sh"

# A fake cache: the real programs, dependencies taken as installed.
mkdir -p cache/bin && cp "$BIN/matrix" cache/bin/ && touch cache/deps.stamp
kmake() { make -s -C "$TOP" KIT_CACHE="$trash/cache" "$@"; }

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
test_expect_success 'source-id refuses a path that does not exist' '
	test_must_fail source-id tree "$trash/nowhere" 2>err &&
	test_grep "nowhere: no such tree" err
'
test_done
