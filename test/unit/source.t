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
# src SERIES [VAR=VALUE...]: where make unpacks SERIES' source for that
# source (the plan's series line says; the folder is keyed by the source).
src() {
	sr_s=$1 && shift &&
	kmake plan VERSIONS="$sr_s" "$@" | awk -F"\t" -v s="$sr_s" '$1 == "series" && $2 == s { print $5 }'
}
sublevel() { sed -n 's/^SUBLEVEL = //p' "$1/Makefile"; }

test_expect_success 'a tree given in KIT_SRC_6_18 is unpacked' '
	faketree new 40 && d=$(src 6.18 KIT_SRC_6_18="$trash/new") && test -n "$d" &&
	kmake KIT_SRC_6_18="$trash/new" "$d.stamp" >out &&
	test "$(sublevel "$d")" = 40
'
test_expect_success 'a tree of another series, or whose Makefile names no release, is refused, naming it' '
	faketree other 3 && sed -i "s/^PATCHLEVEL = 18/PATCHLEVEL = 17/" other/Makefile &&
	d=$(src 6.18 KIT_SRC_6_18="$trash/other") && test_must_fail kmake KIT_SRC_6_18="$trash/other" "$d.stamp" >out 2>&1 &&
	test_grep "other: holds a 6.17 kernel, not 6.18; give a 6.18.y tree" out &&
	sed -i "/^SUBLEVEL/d" other/Makefile && d=$(src 6.18 KIT_SRC_6_18="$trash/other") &&
	test_must_fail kmake KIT_SRC_6_18="$trash/other" "$d.stamp" >out 2>&1 &&
	test_grep "other: .*/Makefile: no VERSION, PATCHLEVEL and SUBLEVEL lines; give a kernel tree" out && test ! -e "$d"
'
test_expect_success 'nothing is unpacked again while the source is the same' '
	d=$(src 6.18 KIT_SRC_6_18="$trash/new") &&
	touch -d "2000-01-01" new/Makefile && kmake KIT_SRC_6_18="$trash/new" "$d.stamp" &&
	touch -d "2001-01-01" "$d.from" && touch -d "2002-01-01" "$d.stamp" &&
	kmake KIT_SRC_6_18="$trash/new" "$d.stamp" >out &&
	test "$(stat -c %y "$d.from" "$d.stamp" | cut -c1-4 | tr "\n" " ")" = "2001 2002 "
'
test_expect_success 'another tree at the same path, with an older Makefile, replaces the copy and the objects' '
	d=$(src 6.18 KIT_SRC_6_18="$trash/new") && o=$(echo "$d" | sed "s|/src/|/obj/|") &&
	mkdir -p "$o" "$o-san" && touch "$o/stale.o" "$o-san/stale.o" &&
	mv new new.1 && faketree new 26 && touch -d "2000-01-01" new/Makefile &&
	kmake KIT_SRC_6_18="$trash/new" "$d.stamp" >out &&
	test "$(sublevel "$d")" = 26 && ! test -e "$o/stale.o" && ! test -e "$o-san/stale.o"
'
test_expect_success 'two sources of one series are two trees: neither deletes or takes the other' '
	faketree other 12 && d=$(src 6.18 KIT_SRC_6_18="$trash/new") && e=$(src 6.18 KIT_SRC_6_18="$trash/other") &&
	test "$d" != "$e" && o=$(echo "$d" | sed "s|/src/|/obj/|") && mkdir -p "$o" && touch "$o/kept.o" &&
	kmake KIT_SRC_6_18="$trash/other" "$e.stamp" >out &&
	test "$(sublevel "$e")" = 12 && test "$(sublevel "$d")" = 26 && test -e "$o/kept.o"
'
test_expect_success 'a release bump in the same tree is unpacked again' '
	d=$(src 6.18 KIT_SRC_6_18="$trash/new") &&
	sed -i "s/^SUBLEVEL = 26/SUBLEVEL = 27/" new/Makefile && touch -d "2000-01-01" new/Makefile &&
	kmake KIT_SRC_6_18="$trash/new" "$d.stamp" >out &&
	test "$(sublevel "$d")" = 27
'
# builtin DIR: a 6.18 tree that was built in, with kbuild's clean rule.
builtin() {
	faketree "$1" 50 &&
	printf "mrproper:\n\trm -rf .config include/config arch/x86/include/generated\n" >>"$1/Makefile" &&
	mkdir -p "$1/include/config" "$1/arch/x86/include/generated" "$1/arch/arm64/include/generated" &&
	touch "$1/.config" "$1/include/config/auto.conf" "$1/arch/x86/include/generated/a.h" "$1/arch/arm64/include/generated/b.h"
}
test_expect_success 'a tree that was built in is copied clean, for every arch; the tree itself is left as it was' '
	builtin built && (cd built && find . | sort) >before &&
	d=$(src 6.18 KIT_SRC_6_18="$trash/built") && kmake KIT_SRC_6_18="$trash/built" "$d.stamp" >out 2>&1 &&
	test_grep "built was built in; its copy is cleaned" out &&
	test "$(sublevel "$d")" = 50 && ! test -e "$d/.config" && ! test -e "$d/include/config" &&
	! test -e "$d/arch/x86/include/generated" && ! test -e "$d/arch/arm64/include/generated" &&
	(cd built && find . | sort) >after && test_cmp before after
'
test_expect_success 'a built tree whose make mrproper fails is refused, named, and nothing is left' '
	builtin broken && sed -i "/^mrproper:/,\$d" broken/Makefile && d=$(src 6.18 KIT_SRC_6_18="$trash/broken") &&
	test_must_fail kmake KIT_SRC_6_18="$trash/broken" "$d.stamp" >out 2>&1 &&
	test_grep "broken: was built in, and make mrproper fails in the kit.s copy" out &&
	! test -e "$d" && ! ls -d "$d".unpack.* 2>/dev/null
'
test_expect_success 'a Debian-served series takes a tree from KIT_SRC_6_1 instead of its .deb' '
	mkdir -p t61/fs/ext4 && printf "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 6\nEXTRAVERSION =\n" >t61/Makefile &&
	d=$(src 6.1 KIT_SRC_6_1="$trash/t61") &&
	kmake KIT_SRC_6_1="$trash/t61" "$d.stamp" >out 2>&1 &&
	test "$(sublevel "$d")" = 6 && test ! -e cache/debs &&
	d=$(src 6.1) && kmake -n "$d.stamp" 2>&1 | grep -q "fetch-debian 6.1 "
'
test_expect_success 'an edit inside fs/ext4, its mtime kept, is another source: copied again' '
	faketree ed 40 && echo "int a;" >ed/fs/ext4/super.c && d=$(src 6.18 KIT_SRC_6_18="$trash/ed") &&
	kmake KIT_SRC_6_18="$trash/ed" "$d.stamp" >out && test "$(cat "$d/fs/ext4/super.c")" = "int a;" &&
	cp -p ed/fs/ext4/super.c stamp.c && echo "int b;" >ed/fs/ext4/super.c && touch -r stamp.c ed/fs/ext4/super.c &&
	kmake KIT_SRC_6_18="$trash/ed" "$d.stamp" >out && test "$(cat "$d/fs/ext4/super.c")" = "int b;"
'
test_expect_success 'a file changed anywhere else in the tree is another source' '
	faketree el 40 && mkdir -p el/mm && echo x >el/mm/a.c && d=$(src 6.18 KIT_SRC_6_18="$trash/el") &&
	kmake KIT_SRC_6_18="$trash/el" "$d.stamp" >out && k1=$(key source tree "$trash/el") &&
	echo y >el/mm/a.c && touch -d "2001-01-01" el/mm/a.c && test "$(key source tree "$trash/el")" != "$k1" &&
	kmake KIT_SRC_6_18="$trash/el" "$d.stamp" >out && test "$(cat "$d/mm/a.c")" = y
'
test_expect_success 'a git checkout is its HEAD tree and its changes: an edit, an untracked file, not an ignored one' '
	faketree g 40 && echo "int a;" >g/fs/ext4/super.c && echo "*.o" >g/.gitignore &&
	git -C g init -q && git -C g add -A && git -C g -c user.name=t -c user.email=t@invalid commit -q -m t &&
	k0=$(source-id tree "$trash/g") && printf "%s\n" "$k0" | grep -q "^git [0-9a-f]" &&
	echo junk >g/fs/ext4/super.o && test "$(source-id tree "$trash/g")" = "$k0" &&
	echo "int b;" >g/fs/ext4/super.c && k1=$(source-id tree "$trash/g") && test "$k1" != "$k0" &&
	git -C g checkout -q -- fs/ext4/super.c && test "$(source-id tree "$trash/g")" = "$k0" &&
	echo new >g/fs/ext4/new.c && test "$(source-id tree "$trash/g")" != "$k0" && rm g/fs/ext4/new.c &&
	git -C g -c user.name=t -c user.email=t@invalid commit -q --allow-empty -m e && test "$(source-id tree "$trash/g")" = "$k0"
'
test_expect_success 'a tree that is one folder of a git repository is that folder'"'"'s tree' '
	mkdir -p repo && faketree repo/common 40 && echo a >repo/other && git -C repo init -q && git -C repo add -A &&
	git -C repo -c user.name=t -c user.email=t@invalid commit -q -m t && k0=$(source-id tree "$trash/repo/common") &&
	echo b >repo/other && test "$(source-id tree "$trash/repo/common")" = "$k0" &&
	echo x >repo/common/fs/ext4/x.c && test "$(source-id tree "$trash/repo/common")" != "$k0"
'
# (5.4 has no tree here: a run that got past the lock would plan a skip and build nothing.)
test_expect_success 'a second run on a results folder in use stops before it clears a marker or the plan' '
	mkdir -p r/6.1/patched && echo "boot failed" >r/6.1/patched/boot.failed && echo plan >r/plan.tsv &&
	{ sleep 60 & } && holder=$! && echo "$holder" >r/.run.pid &&
	{ kmake matrix RESULTS="$trash/r" VERSIONS=5.4 CORPUS=0 >out 2>err; echo $? >rc; kill "$holder"; } &&
	test "$(cat rc)" = 2 && test_grep "r is being written by another run (make, pid $holder)" err &&
	test "$(cat r/6.1/patched/boot.failed)" = "boot failed" && test "$(cat r/plan.tsv)" = plan &&
	run-owner take r $$ && test "$(cut -d" " -f1 r/.run.pid)" = $$ && run-owner drop r 1 && test -e r/.run.pid &&
	run-owner drop r $$ && ! test -e r/.run.pid &&
	echo "999999999 $(ps -o pgid= -p $$ | tr -d " ")" >r/.run.pid && test_must_fail 2 run-owner take r 1 2>err &&
	test_grep "another run (make, pid 999999999)" err &&
	echo "999999999 999999999" >r/.run.pid && run-owner take r 1 && test "$(cut -d" " -f1 r/.run.pid)" = 1
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
test_expect_success 'make help prints the goals and every setting the plan reads, building nothing' '
	mkdir -p h && tar -C "$TOP" --exclude=./.kit --exclude=./results --exclude=./.git -cf - Makefile README.md docs build | tar -C h -xf - &&
	env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -s -C h help >out 2>&1 && ! test -e h/.kit &&
	test_grep "make matrix \[VERSIONS" out &&
	for v in $(sed -n "/^PLAN_SETTINGS :=/,/[^\\\\]$/p" "$TOP/Makefile" | sed "s/^PLAN_SETTINGS :=//; s/\\\\$//"); do
		grep -q "^| .*\`$v\`" out || { echo "help lacks $v"; return 1; }
	done
'
test_expect_success 'apply, review, report, clean-results build no matrix tools and install no guest or checker' '
	mkdir -p g && tar -C "$TOP" --exclude=./.kit --exclude=./results --exclude=./.git --exclude=./.gitlab-ci-local --exclude=./merged --exclude=./public -cf - . | tar -C g -xf - &&
	for goal in "apply TREE=$trash/none" review report clean-results; do
		{ env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -n -C g $goal >out 2>&1 || :; } &&
		! test -e g/.kit/bin/matrix &&
		! grep -E "deps build/fetch/packages .*(guest|check|build|images)" out &&
		! grep -E "mkimage|guest-init|matrix\.c" out || { echo "goal $goal:"; cat out; return 1; }
	done
'
# (make as a CI job runs it: no flags at all, so MAKEFLAGS starts with the
# Makefile's own long option, which once read as -n.)
test_expect_success 'make matrix on a checkout that has no results folder yet' '
	checkout h && (cd h && env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL -u KIT_SRC_5_4 make KIT_CACHE="$trash/shared" \
		RESULTS="$trash/none/results" VERSIONS=5.4 CORPUS= matrix) >out 2>&1 &&
	! grep -q "No such file" out && test -s none/results/plan.tsv && test -s none/results/results.json &&
	n=$(grep -c "^case	" none/results/plan.tsv) && test "$n" -gt "$(ls -d "$TOP"/test/cases/*/ | wc -l)" &&
	test_grep "^0 passed, 0 failed, $((n * 3)) skipped$" out
'
test_expect_success 'a fresh checkout plans a shard (the matrix is read first)' '
	checkout s && rm -f s/.kit/bin/matrix && env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -s -C s KIT_CACHE="$trash/shared" \
		SHARD=6.1 plan >out 2>&1 &&
	test_grep "^series	6.1	run	" out && test_grep "^series	5.10	shard	[^	]*	5.10$" out
'
# (It may build the planner, .kit/bin/matrix: make -n plans with it.)
test_expect_success 'make -n matrix writes nothing of the run: no results, nothing in the cache' '
	checkout n && { env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -n -C n KIT_CACHE="$trash/dry/cache" \
		RESULTS="$trash/dry/results" VERSIONS="5.4 6.1" GATES=1 matrix >out 2>&1 || :; } &&
	test_grep "build/fetch/fetch-debian 6.1 linux-source-6.1 " out && test_grep "build/kernel/kernel 6.1 hardened " out &&
	test ! -e dry/results && test ! -e dry/cache
'
# A stand-in mirror (apt-cache, apt-get in mirror/, every call logged in
# apt-called) serving the file mirror/served as linux-source-7.3 at the pin.
mirror() {
	pin=$(awk '$1 == "linux-source-7.3" { print $2 }' "$TOP/matrix.lock") &&
	mkdir -p mirror etc && rm -f apt-called &&
	echo "deb http://m.example/debian bookworm main" >etc/sources.list &&
	echo "deb http://m.example/security bookworm-security main" >>etc/sources.list &&
	printf "#!/bin/sh\necho \"apt-cache \$*\" >>%s/apt-called\necho \" linux-source-7.3 | %s | http://m.example/debian trixie-backports/main amd64 Packages\"\n" "$trash" "$pin" >mirror/apt-cache &&
	printf "#!/bin/sh\necho \"apt-get \$*\" >>%s/apt-called\nfor a; do last=\$a; done\ncase \$last in update) ;; *=*) cp %s/mirror/served \"\${last%%%%=*}_x_all.deb\" ;; esac\n" "$trash" "$trash" >mirror/apt-get &&
	chmod +x mirror/apt-cache mirror/apt-get
}
# dmake CHECKOUT CACHE ARGS...: its make, the mirror above on PATH.
dmake() {
	dm_dir=$1 dm_cache=$2
	shift 2
	env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL PATH="$trash/mirror:$PATH" KIT_APT_ETC="$trash/etc" KIT_HOST_CODENAME=bookworm \
		make -s -C "$dm_dir" --no-print-directory KIT_CACHE="$trash/$dm_cache" VERSIONS=7.3 "$@"
}
# src73 DIR CACHE: where DIR's make unpacks 7.3 (the plan says; keyed by
# the source).
src73() { dmake "$1" "$2" plan | awk -F"\t" '$1 == "series" && $2 == "7.3" { print $5 }'; }
test_expect_success 'a cached .deb is checked against matrix.lock on every make: one that differs is fetched again, then refused' '
	checkout k && mirror && deb=cache-k/debs/linux-source-7.3_$pin.deb && mkdir -p cache-k/debs &&
	src=$(src73 k cache-k) && test -n "$src" &&
	echo garbage >mirror/served && cp mirror/served "$deb" && touch -d 2000-01-01 "$deb" &&
	sed -i "s/^\(linux-source-7.3 [^ ]*\) .*/\1 0000000000000000000000000000000000000000000000000000000000000000/" k/matrix.lock &&
	test_must_fail dmake k cache-k "$src.from" >out 2>err &&
	test_grep "^fetch-debian: $trash/$deb: sha256 $(sha256sum <mirror/served | cut -d" " -f1), expected 0\{64\} (matrix.lock: linux-source-7.3 $pin); fetched again, still differs: refused" err &&
	test_grep "download linux-source-7.3=$pin" apt-called && ! test -e "$src.from" && ! test -e "$deb"
'
test_expect_success 'a cached .deb that is the locked one is taken as it is on every make, no apt asked' '
	checkout g && mirror && deb=cache-g/debs/linux-source-7.3_$pin.deb && mkdir -p cache-g/debs &&
	echo pretend >"$deb" && sed -i "s/^\(linux-source-7.3 [^ ]*\) .*/\1 $(sha256sum <"$deb" | cut -d" " -f1)/" g/matrix.lock &&
	src=$(src73 g cache-g) && test -n "$src" &&
	dmake g cache-g "$src.from" >out 2>err && dmake g cache-g "$src.from" >out 2>err &&
	test_grep "^debian $trash/$deb$" "$src.from" && ! test -e apt-called
'
test_expect_success 'the gates'"'"' config .deb is checked on every make that runs the gates' '
	checkout c2 && pin=$(awk "\$1 == \"linux-config-7.3\" { print \$2 }" c2/matrix.lock) &&
	cfg="$trash/cache-c/debs/linux-config-7.3_$pin.deb" && mkdir -p cache-c/debs && : >"$cfg" &&
	dmake c2 cache-c GATES=1 -n "$cfg" >out 2>&1 &&
	test_grep "build/fetch/fetch-debian 7.3 linux-config-7.3 $pin .* $cfg matrix.lock" out
'
test_expect_success 'the corpus downloads are checked on every make too' '
	checkout c3 && index="$trash/cache-c3/corpus/e2fsprogs_1.47.0-2/index" &&
	mkdir -p "${index%/index}" && : >"$index" && dmake c3 cache-c3 -n "$index" >out 2>&1 &&
	test_grep "build/fetch/fetch-corpus e2fsprogs 1.47.0-2 bookworm .* matrix.lock" out
'
test_done
