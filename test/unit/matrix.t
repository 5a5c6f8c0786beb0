#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/matrix: the schema of matrix.yaml and its error messages.
. "$(dirname "$0")/lib.sh"

good() {
	mkdir -p versions/6.1 test/cases/plain && rm -rf versions/6.1/series.* versions/6.1/forms &&
	echo "# the stack" >versions/6.1/series && echo "b.patch  # the fix" >>versions/6.1/series &&
	echo B >versions/6.1/b.patch && touch test/cases/plain/expect.alt test/cases/plain/expect
	cat >m.yaml <<'Y'
series:
  - name: "6.1"
    source:
      debian: {package: linux-source-6.1, version: 6.1.192-3, suite: bookworm-security}
    stack: versions/6.1
    fixes: {A: upstream v5.9-rc2, B: stack}
Y
}

# bad NAME 'sed edit' 'expected message' [FIXTURE]: the edit of FIXTURE's
# m.yaml (good by default) must give exactly it.
bad() {
	EDIT=$2 WANT=$3 FIXTURE=${4:-good}
	test_expect_success "$1" '
		$FIXTURE && sed -e "$EDIT" m.yaml >b.yaml &&
		test_must_fail 2 $BIN/matrix check b.yaml 2>err &&
		printf "%s\n" "$WANT" >want && test_cmp want err
	'
}

test_expect_success 'the repository matrix.yaml is valid' '
	$BIN/matrix -C "$TOP" check "$TOP/matrix.yaml"
'
test_expect_success 'mk prints one variable per field and the series list' '
	good && $BIN/matrix mk m.yaml >mk &&
	test_grep "^S_6.1_version := 6.1.192-3$" mk &&
	test_grep "^S_6.1_fix_A := upstream v5.9-rc2$" mk &&
	test_grep "^SERIES_ALL := 6.1$" mk
'
bad 'malformed YAML gives line and column' 's/^    stack: versions.6.1/    stack: [versions/' \
	"b.yaml:6:10: did not find expected ',' or ']'"
bad 'an unknown key is refused' 's/^    stack:/    stak:/' "b.yaml:5:5: series: unknown key 'stak'"
bad 'a missing field is named' '/^    fixes:/d' "b.yaml:2:5: 6.1: missing field 'fixes'"
bad 'a stack folder that does not exist' 's|versions/6.1|versions/9.9|' \
	"b.yaml:5:12: stack: folder 'versions/9.9' has no quilt series file"
bad 'a fix status that is neither stack nor upstream' 's/B: stack/B: maybe/' \
	"b.yaml:6:38: fixes: B: 'maybe' is neither 'stack' nor 'upstream <release>'"
bad 'a debian source without its version' 's/ version: 6.1.192-3,//' \
	"b.yaml:4:15: debian: missing field 'version'"
bad 'two sources at once' 's/^      debian:/      tree: {env: KIT_SRC}\n      debian:/' \
	'b.yaml:4:7: source: give exactly one of debian, tree, tarball'
bad 'a series name that is no series' 's/name: "6.1"/name: six/' "b.yaml:2:11: name: 'six' is not a series like 6.1"
# arches: each entry whole, its values what make and the shell can take.
arches() {
	good && mkdir -p common/arch && touch common/arch/a.config && cat >>m.yaml <<'Y'
arches:
  x86_64: {arch: x86_64, cross: "", target: bzImage, image: arch/x86/boot/bzImage, config: common/arch/a.config,
           packages: build guest, qemu: qemu-system-x86_64, console: ttyS0, console_qemu: "-serial chardev:con",
           ktap: ttyS1, ktap_qemu: "-serial chardev:ktap"}
  arm64: {arch: arm64, cross: aarch64-linux-gnu-, target: Image, image: arch/arm64/boot/Image, config: common/arch/a.config,
          packages: build arm64, qemu: qemu-system-aarch64 -M virt, console: ttyAMA0, console_qemu: "-serial chardev:con",
          ktap: hvc0, ktap_qemu: "-device virtio-serial-pci -device virtconsole,chardev=ktap"}
Y
}
bad_arch() { bad "$1" "$2" "$3" arches; }
test_expect_success 'arches: a whole entry is valid' 'arches && $BIN/matrix check m.yaml'
bad_arch 'arches: an unknown key is refused' 's/ target:/ targ:/' "b.yaml:8:37: x86_64: unknown key 'targ'"
bad_arch 'arches: a missing field is named' 's/ktap: ttyS1, //' "b.yaml:8:11: x86_64: missing field 'ktap'"
bad_arch 'arches: a name with an @ is refused' 's/^  x86_64:/  x86@64:/' \
	"b.yaml:8:3: arches: 'x86@64' is not a name of lower-case letters, digits, _ and -"
bad_arch 'arches: a cross compiler is a prefix' 's/cross: ""/cross: aarch64-linux-gnu/' \
	"b.yaml:8:33: cross: 'aarch64-linux-gnu' is not a compiler prefix like aarch64-linux-gnu-"
bad_arch 'arches: QEMU arguments the shell would read otherwise are refused' 's/qemu: qemu-system-x86_64/qemu: "qemu-system-x86_64 $(id)"/' \
	"b.yaml:9:41: qemu: 'qemu-system-x86_64 \$(id)' has a character the kit does not allow (\$)"
bad_arch 'arches: the config fragment must be there' 's|common/arch/a.config|common/arch/none.config|' \
	"b.yaml:8:92: config: no file common/arch/none.config"
bad_arch 'arches: an image path out of the object tree is refused' 's|image: arch/x86/boot/bzImage|image: ../bzImage|' \
	"b.yaml:8:61: image: '../bzImage' is not a path inside the object tree"
test_expect_success 'a tree booted on another arch: VARIANT@ARCH of an arch of arches:, of a stack it took' '
	arches &&
	printf "    trees:\n      - {release: 6.1.5, from: here, applied: [patched], booted: [patched, patched@arm64]}\n" >t &&
	sed "/^    fixes:/r t" m.yaml >a.yaml && mv a.yaml m.yaml && $BIN/matrix check m.yaml &&
	$BIN/matrix trees m.yaml 6.1 >out && test "$(cat out)" = "6.1.5	patched	patched,patched@arm64	here" &&
	sed "s/patched@arm64/patched@sparc/" m.yaml >b.yaml && test_must_fail 2 $BIN/matrix check b.yaml 2>err &&
	test_grep "booted: .patched@sparc. is not a variant of another arch of arches: (VARIANT@ARCH)" err &&
	sed "s/patched@arm64/patched@x86_64/" m.yaml >b.yaml && test_must_fail 2 $BIN/matrix check b.yaml 2>err &&
	test_grep "booted: .patched@x86_64. is not a variant of another arch" err &&
	sed "s/booted: \[patched, patched@arm64\]/booted: [hardened@arm64]/" m.yaml >b.yaml && test_must_fail 2 $BIN/matrix check b.yaml 2>err &&
	test_grep "hardened@arm64" err
'
test_expect_success 'a series listed twice is refused' '
	good && sed -n "2,\$p" m.yaml >>m.yaml && test_must_fail 2 $BIN/matrix check m.yaml 2>err &&
	test_grep "series .6.1. listed twice" err
'
test_expect_success 'an expect override must name an existing file' '
	good && printf "    expect: {plain: {vanilla: expect.nope}}\n" >>m.yaml &&
	test_must_fail 2 $BIN/matrix check m.yaml 2>err && test_grep "no file test/cases/plain/expect.nope" err &&
	sed -i s/expect.nope/expect.alt/ m.yaml && $BIN/matrix mk m.yaml >mk &&
	test_grep "^S_6.1_expect_plain_vanilla := expect.alt$" mk
'
test_expect_success 'an empty file is an error, not an empty matrix' '
	: >e.yaml && test_must_fail 2 $BIN/matrix check e.yaml 2>err && test_grep "empty file" err
'
test_expect_success 'get reads one field by its path; an absent one exits 1' '
	good && test "$($BIN/matrix get m.yaml 6.1 source.debian.version)" = 6.1.192-3 &&
	test "$($BIN/matrix get m.yaml 6.1 fixes.A)" = "upstream v5.9-rc2" &&
	test_must_fail 1 $BIN/matrix get m.yaml 6.1 verified >out && test ! -s out &&
	test_must_fail 2 $BIN/matrix get m.yaml 9.9 verified 2>err && test_grep "no series .9.9." err
'
test_expect_success 'trees: each tree a release of the series, where it came from, the stacks applied and booted' '
	good && echo "hardened.patch" >versions/6.1/series.hardened && echo H >versions/6.1/hardened.patch &&
	cat >>m.yaml <<-\Y &&
	    trees:
	      - {release: 6.1.25, from: "a vendor tree (x/y, 0123)", applied: [patched, hardened]}
	      - {release: 6.1.192, from: "Debian, the matrix.s own", applied: [patched, hardened], booted: [hardened]}
	Y
	$BIN/matrix check m.yaml && $BIN/matrix trees m.yaml 6.1 >t &&
	printf "6.1.25\tpatched,hardened\t-\ta vendor tree (x/y, 0123)\n6.1.192\tpatched,hardened\thardened\tDebian, the matrix.s own\n" >want &&
	test_cmp want t
'

test_expect_success 'trees: a release of another series, an unknown or vanilla stack, or a boot without its apply is refused' '
	for edit in "s/release: 6.1.25/release: 6.10.1/" "s/applied: \[patched, hardened\]}/applied: [patched, mine]}/" \
		"s/applied: \[patched, hardened\]}/applied: [vanilla]}/" "s/booted: \[hardened\]/booted: [hardened, hardened]/" \
		"s/, applied: \[patched, hardened\], booted/, applied: [patched], booted/"; do
		good && echo "hardened.patch" >versions/6.1/series.hardened && echo H >versions/6.1/hardened.patch &&
		cat >>m.yaml <<-\Y &&
		    trees:
		      - {release: 6.1.25, from: "a vendor tree", applied: [patched, hardened]}
		      - {release: 6.1.192, from: "Debian", applied: [patched, hardened], booted: [hardened]}
		Y
		sed -i "$edit" m.yaml && test_must_fail 2 $BIN/matrix check m.yaml 2>err || return 1
	done &&
	test_grep "booted: .hardened. is not among applied" err
'
test_expect_success 'variants come from the stack: series, then each series.FLAVOUR' '
	good && test "$($BIN/matrix variants m.yaml 6.1)" = "vanilla patched" &&
	printf "b.patch\nh.patch\n" >versions/6.1/series.hardened && echo H >versions/6.1/h.patch &&
	cp versions/6.1/series versions/6.1/series.zz-test &&
	test "$($BIN/matrix variants m.yaml 6.1)" = "vanilla patched hardened zz-test" &&
	$BIN/matrix mk m.yaml >mk &&
	test_grep "^S_6.1_patches_hardened := versions/6.1/b.patch versions/6.1/h.patch$" mk
'
test_expect_success 'a flavour name that is no name is refused' '
	good && cp versions/6.1/series versions/6.1/series.Bad &&
	test_must_fail 2 $BIN/matrix check m.yaml 2>err && test_grep "Bad. is not a flavour name" err
'
test_expect_success 'a series file naming a patch that is not there is refused' '
	good && echo "gone.patch" >>versions/6.1/series &&
	test_must_fail 2 $BIN/matrix check m.yaml 2>err &&
	test_grep "versions/6.1/series lists .gone.patch., which is not in versions/6.1" err
'
test_expect_success 'the stack hash covers the series file and every patch it pushes' '
	good && printf "b.patch\nh.patch\n" >versions/6.1/series.hardened && echo H >versions/6.1/h.patch &&
	p=$($BIN/matrix hash m.yaml 6.1 patched) && h=$($BIN/matrix hash m.yaml 6.1 hardened) &&
	echo H2 >versions/6.1/h.patch && test "$($BIN/matrix hash m.yaml 6.1 patched)" = "$p" &&
	h2=$($BIN/matrix hash m.yaml 6.1 hardened) && test "$h2" != "$h" &&
	echo B2 >versions/6.1/b.patch && test "$($BIN/matrix hash m.yaml 6.1 patched)" != "$p" &&
	echo "# a comment" >>versions/6.1/series.hardened && test "$($BIN/matrix hash m.yaml 6.1 hardened)" != "$h2" &&
	test "$($BIN/matrix hash m.yaml 6.1 vanilla)" = -
'
test_expect_success 'the stack hash covers every form of an entry' '
	good && mkdir -p versions/6.1/forms/6.1.0-6.1.9 && echo C >versions/6.1/forms/6.1.0-6.1.9/b.patch &&
	p=$($BIN/matrix hash m.yaml 6.1 patched) && echo C2 >versions/6.1/forms/6.1.0-6.1.9/b.patch &&
	test "$($BIN/matrix hash m.yaml 6.1 patched)" != "$p"
'
test_expect_success 'series: a patch a line; its forms follow it, the range that ends newest first, then the kinds of tree' '
	good && echo C >versions/6.1/c.patch && printf "# top\n\nb.patch  # the fix\nc.patch\n" >versions/6.1/series &&
	for f in 6.1.0-6.1.5 6.1.40-and-later 6.1.3-6.1.9 android14-6.1 6.1.6-6.1.9; do
		mkdir -p versions/6.1/forms/$f && echo "$f" >versions/6.1/forms/$f/b.patch || return 1
	done &&
	$BIN/matrix series versions/6.1/series >out &&
	printf "%s\n" "b.patch forms/6.1.40-and-later/b.patch forms/6.1.6-6.1.9/b.patch forms/6.1.3-6.1.9/b.patch forms/6.1.0-6.1.5/b.patch forms/android14-6.1/b.patch" c.patch >want &&
	test_cmp want out && $BIN/matrix check m.yaml
'
test_expect_success 'series: plain quilt reads the same patches, in the same order, as the kit' '
	good && echo C >versions/6.1/c.patch && printf "# top\nb.patch  # the fix\n\nc.patch\n" >versions/6.1/series &&
	mkdir -p versions/6.1/forms/6.1.0-6.1.5 && echo F >versions/6.1/forms/6.1.0-6.1.5/c.patch &&
	$BIN/matrix series versions/6.1/series | cut -d" " -f1 >kit &&
	(cd versions/6.1 && QUILT_PATCHES=. quilt --quiltrc=- series) >quilt && test_cmp kit quilt &&
	for s in "$TOP"/versions/*/series*; do
		$BIN/matrix series "$s" | cut -d" " -f1 >kit &&
		(cd "${s%/*}" && QUILT_PATCHES=. QUILT_SERIES=${s##*/} quilt --quiltrc=- series) >quilt &&
		test_cmp kit quilt || return 1
	done
'
test_expect_success 'series: alternatives, options, a patch listed twice, a missing patch are refused with the line' '
	good && echo C >versions/6.1/c.patch && echo "b.patch | c.patch" >versions/6.1/series &&
	test_must_fail 2 $BIN/matrix series versions/6.1/series 2>err &&
	test_grep "series:1: one patch a line, as quilt reads it: put the other forms of an entry in versions/6.1/forms/FOR/ under the entry.s name" err &&
	echo "b.patch -p0" >versions/6.1/series && test_must_fail 2 $BIN/matrix series versions/6.1/series 2>err &&
	test_grep "series:1: .-p0. after a patch: the kit takes no quilt options" err &&
	test_must_fail 2 $BIN/matrix check m.yaml 2>err && test_grep "stack: versions/6.1/series:1: .-p0. after a patch" err &&
	printf "b.patch\nc.patch\nb.patch\n" >versions/6.1/series && test_must_fail 2 $BIN/matrix series versions/6.1/series 2>err &&
	test_grep "series:3: .b.patch. is listed twice" err &&
	echo "gone.patch" >versions/6.1/series && test_must_fail 2 $BIN/matrix series versions/6.1/series 2>err &&
	test_grep "lists .gone.patch., which is not in versions/6.1" err
'
test_expect_success 'series: what plain quilt reads otherwise is refused: an indented #, a # in a name, a carriage return, ./' '
	good && printf "b.patch  # quilt takes a comment after white space\n# and in the first column\n" >versions/6.1/series &&
	$BIN/matrix series versions/6.1/series >out && echo b.patch >want && test_cmp want out &&
	(cd versions/6.1 && QUILT_PATCHES=. quilt --quiltrc=- series) >quilt && test_cmp want quilt &&
	printf "  # indented\nb.patch\n" >versions/6.1/series && test_must_fail 2 $BIN/matrix series versions/6.1/series 2>err &&
	test_grep "series:1: an indented .#.: quilt reads it as a patch named .#." err &&
	(cd versions/6.1 && QUILT_PATCHES=. quilt --quiltrc=- series) | grep -qx "#" &&
	printf "b.patch#x\n" >versions/6.1/series && test_must_fail 2 $BIN/matrix series versions/6.1/series 2>err &&
	test_grep "series:1: .b.patch#x.: quilt reads a .#. in a name as part of it" err &&
	printf "b.patch\r\n" >versions/6.1/series && test_must_fail 2 $BIN/matrix series versions/6.1/series 2>err &&
	test_grep "series:1: a carriage return" err &&
	printf "./b.patch\n" >versions/6.1/series && test_must_fail 2 $BIN/matrix series versions/6.1/series 2>err &&
	test_grep "series:1: ..\/b.patch.: name the patch without ..\/." err
'
test_expect_success 'forms: a range of another series, or with leading zeros, is refused' '
	good && mkdir -p versions/6.1/forms/6.2.0-6.2.9 && echo F >versions/6.1/forms/6.2.0-6.2.9/b.patch &&
	test_must_fail 2 $BIN/matrix check m.yaml 2>err &&
	test_grep "stack: versions/6.1/forms/6.2.0-6.2.9: releases of 6.2, not of 6.1" err &&
	rm -rf versions/6.1/forms && mkdir -p versions/6.1/forms/6.01.0-6.1.9 && echo F >versions/6.1/forms/6.01.0-6.1.9/b.patch &&
	test_must_fail 2 $BIN/matrix check m.yaml 2>err && test_grep "forms/6.01.0-6.1.9: not a folder of forms" err
'
test_expect_success 'forms: a folder that names no trees, a form of no entry, a form listed in a series are refused' '
	good && mkdir -p versions/6.1/forms/Old && echo F >versions/6.1/forms/Old/b.patch &&
	test_must_fail 2 $BIN/matrix series versions/6.1/series 2>err &&
	test_grep "versions/6.1/forms/Old: not a folder of forms: name it for the trees its forms are for" err &&
	for f in 6.1.9-6.1.3 6.1.3-6.2.9 6.1.3- 6.1-6.1.9; do
		rm -rf versions/6.1/forms && mkdir -p versions/6.1/forms/$f && echo F >versions/6.1/forms/$f/b.patch &&
		test_must_fail 2 $BIN/matrix check m.yaml 2>err && test_grep "forms/$f: not a folder of forms" err || return 1
	done &&
	rm -rf versions/6.1/forms && mkdir -p versions/6.1/forms/6.1.0-6.1.9 && echo F >versions/6.1/forms/6.1.0-6.1.9/z.patch &&
	test_must_fail 2 $BIN/matrix check m.yaml 2>err &&
	test_grep "stack: versions/6.1/forms/6.1.0-6.1.9/z.patch is the form of no entry" err &&
	rm versions/6.1/forms/6.1.0-6.1.9/z.patch && echo F >versions/6.1/forms/6.1.0-6.1.9/b.patch &&
	echo forms/6.1.0-6.1.9/b.patch >versions/6.1/series &&
	test_must_fail 2 $BIN/matrix series versions/6.1/series 2>err && test_grep "is outside versions/6.1 (an absolute path, .... or its forms/)" err
'
test_expect_success 'series: an entry outside the stack folder (.., an absolute path) is refused with the line' '
	good && mkdir -p versions/6.1/sub && echo X >versions/x.patch && echo S >versions/6.1/sub/s.patch &&
	printf "b.patch\nsub/s.patch\n" >versions/6.1/series && $BIN/matrix series versions/6.1/series >/dev/null &&
	for w in ../x.patch sub/../../x.patch "$trash/versions/x.patch"; do
		printf "b.patch\n%s\n" "$w" >versions/6.1/series &&
		test_must_fail 2 $BIN/matrix series versions/6.1/series >out 2>err && test ! -s out &&
		echo "matrix: versions/6.1/series:2: '\''$w'\'' is outside versions/6.1 (an absolute path, '\''..'\'' or its forms/); name a patch file in that folder" >want &&
		test_cmp want err &&
		test_must_fail 2 $BIN/matrix check m.yaml 2>err &&
		echo "m.yaml:5:12: stack: versions/6.1/series:2: '\''$w'\'' is outside versions/6.1 (an absolute path, '\''..'\'' or its forms/); name a patch file in that folder" >want &&
		test_cmp want err || return 1
	done
'
test_expect_success 'walked: read back as a line; a range that ends before it starts, no states, an unknown stack refused' '
	good && sed "s/^    fixes:/    walked: {from: \"a history\", first: 6.1.2, last: 6.1.9, states: 4, took: [patched]}\n    fixes:/" m.yaml >w.yaml &&
	$BIN/matrix check w.yaml && printf "6.1.2\t6.1.9\t4\tpatched\ta history\n" >want && $BIN/matrix walked w.yaml 6.1 >out && test_cmp want out &&
	sed "s/last: 6.1.9/last: 6.1.1/" w.yaml >b.yaml && test_must_fail 2 $BIN/matrix check b.yaml 2>err &&
	test_grep "last: .6.1.1. is not a release of 6.1 from 6.1.2 on" err &&
	sed "s/states: 4/states: 0/" w.yaml >b.yaml && test_must_fail 2 $BIN/matrix check b.yaml 2>err && test_grep "states: a count of at least 1" err &&
	sed "s/took: \[patched\]/took: [hardened]/" w.yaml >b.yaml && test_must_fail 2 $BIN/matrix check b.yaml 2>err && test_grep "hardened" err &&
	sed "s/first: 6.1.2/first: 6.2.2/" w.yaml >b.yaml && test_must_fail 2 $BIN/matrix check b.yaml 2>err && test_grep "first: .6.2.2. is not a release of 6.1" err
'
test_expect_success 'expect: the override, then expect.VARIANT, expect.patched for a flavour, then expect' '
	good && cp versions/6.1/series versions/6.1/series.hardened &&
	printf "    expect: {plain: {hardened: expect.alt}}\n" >>m.yaml &&
	test "$($BIN/matrix expect m.yaml 6.1 plain hardened)" = ./test/cases/plain/expect.alt &&
	test "$($BIN/matrix expect m.yaml 6.1 plain vanilla)" = ./test/cases/plain/expect &&
	touch test/cases/plain/expect.patched &&
	test "$($BIN/matrix expect m.yaml 6.1 plain vanilla)" = ./test/cases/plain/expect &&
	test "$($BIN/matrix expect m.yaml 6.1 plain patched)" = ./test/cases/plain/expect.patched &&
	test "$($BIN/matrix -c elsewhere expect m.yaml 6.1 plain patched 2>&1)" != ./test/cases/plain/expect.patched &&
	rm test/cases/plain/expect.patched
'
test_expect_success 'twins: the cases whose recipe sets shared_blocks; a twin is judged by CASE/twin.VARIANT, there or not' '
	good && mkdir -p test/cases/flagged && printf "# feature shared_blocks on\nfeature  shared_blocks on # set\n" >test/cases/flagged/recipe &&
	printf "feature shared_blocks off\n" >test/cases/plain/recipe &&
	$BIN/matrix twins m.yaml flagged plain >out && echo flagged >want && test_cmp want out &&
	test_must_fail 2 $BIN/matrix twins m.yaml nosuch 2>err && test_grep "nosuch: no such case" err &&
	test "$($BIN/matrix expect m.yaml 6.1 flagged~twin patched)" = ./test/cases/flagged/twin.patched &&
	test_must_fail 2 $BIN/matrix expect m.yaml 6.1 plain~twin patched 2>err && test_grep "has no twin" err &&
	rm -r test/cases/flagged test/cases/plain/recipe
'
test_expect_success 'an override for a variant the stack does not have is refused' '
	good && printf "    expect: {plain: {hardened: expect.alt}}\n" >>m.yaml &&
	test_must_fail 2 $BIN/matrix check m.yaml 2>err &&
	test_grep "expect case: .hardened. is not a variant of 6.1 (vanilla patched)" err
'
test_expect_success 'set-version rewrites that one value, nothing else of the file' '
	good && sed -i "s/version: 6.1.192-3/version: \"6.1.192-3\"/" m.yaml && cp m.yaml before &&
	$BIN/matrix set-version m.yaml 6.1 6.1.200-1~bpo12+1 &&
	sed "s/\"6.1.192-3\"/\"6.1.200-1~bpo12+1\"/" before >want && test_cmp want m.yaml
'
test_expect_success 'set-version refuses what it could not write back, and writes nothing' '
	good && cp m.yaml before &&
	test_must_fail 2 $BIN/matrix set-version m.yaml 6.1 "6.1, evil: 1" 2>err &&
	test_grep "is not a Debian version the kit can write" err && test_cmp before m.yaml &&
	sed -i "s/      debian: .*/      tree: {env: KIT_SRC_6_1}/" m.yaml && cp m.yaml before &&
	test_must_fail 2 $BIN/matrix set-version m.yaml 6.1 6.1.200-1 2>err &&
	test_grep "no debian source with a version" err && test_cmp before m.yaml
'
bad 'a fix release with a shell character is refused' 's/A: upstream v5.9-rc2/A: upstream v5.9`id`/' \
	"b.yaml:6:16: fixes: A: release 'v5.9\`id\`' has a character the kit does not allow (\`)"
bad 'a value that would break make is refused' 's/version: 6.1.192-3/version: "1:6.1.192-3"/' \
	"b.yaml:4:52: version: '1:6.1.192-3' has a character the kit does not allow (:)"
test_expect_success 'a flavour takes what patched is told by an override, unless told itself' '
	good && cp versions/6.1/series versions/6.1/series.hardened &&
	printf "    expect: {plain: {patched: expect.alt}}\n" >>m.yaml &&
	test "$($BIN/matrix expect m.yaml 6.1 plain hardened)" = ./test/cases/plain/expect.alt &&
	touch test/cases/plain/expect.hardened &&
	test "$($BIN/matrix expect m.yaml 6.1 plain hardened)" = ./test/cases/plain/expect.hardened &&
	rm test/cases/plain/expect.hardened
'
corpus_yaml() {
	good && { printf "corpus:\n  debian: {source: e2fsprogs, version: 1.47.0-2, suite: bookworm}\n  images: %s\n" "$1" && cat m.yaml; } >c.yaml
}
test_expect_success 'corpus: made make variables, its pattern kept as written' '
	corpus_yaml "tests/*/image.gz" && $BIN/matrix mk c.yaml >out &&
	test_grep "^CORPUS_source := e2fsprogs$" out && test_grep "^CORPUS_suite := bookworm$" out &&
	test_grep "^CORPUS_images := tests/\*/image.gz$" out
'
test_expect_success 'corpus: a pattern that leaves the source or needs quoting is refused' '
	corpus_yaml "../x/*.gz" && test_must_fail 2 $BIN/matrix check c.yaml 2>err &&
	test_grep "c.yaml:3:11: images: .../x/\*.gz. is not a pattern of files inside the source" err &&
	corpus_yaml "\"a;b\"" && test_must_fail 2 $BIN/matrix check c.yaml 2>err &&
	test_grep "images: .a;b. has a character the kit does not allow (;)" err
'
test_expect_success 'corpus: an unknown key is refused' '
	good && { printf "corpus:\n  debian: {source: e, version: 1, suite: s, arch: x}\n  images: a\n" && cat m.yaml; } >c.yaml &&
	test_must_fail 2 $BIN/matrix check c.yaml 2>err && test_grep "arch" err
'
test_expect_success 'release: what a tree.s Makefile names, the one reader of it; none is exit 1, naming the file' '
	mkdir -p rt && printf "# SPDX\nVERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\nEXTRAVERSION = -rc1\nNAME = x\n" >rt/Makefile &&
	test "$(matrix release rt)" = 6.1.192 &&
	sed -i "/^SUBLEVEL/d" rt/Makefile && test_must_fail 1 matrix release rt 2>err &&
	test_grep "rt/Makefile: no VERSION, PATCHLEVEL and SUBLEVEL lines; give a kernel tree" err &&
	printf "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 1x\n" >rt/Makefile && test_must_fail 1 matrix release rt 2>/dev/null &&
	test_must_fail 1 matrix release nowhere 2>err && test_grep "nowhere/Makefile: No such file" err
'
# One direction of use: the planner uses the reader, never the reverse.
test_expect_success 'build/matrix.c uses nothing of build/plan.c; only build/matrix-main.c joins them' '
	cc -c -I"$TOP/common" -o m.o "$TOP/build/matrix.c" && cc -c -I"$TOP/common" -o p.o "$TOP/build/plan.c" &&
	nm -u m.o | awk "{ print \$NF }" | sort -u >m.undef && nm --defined-only -g p.o | awk "{ print \$3 }" | sort -u >p.def &&
	comm -12 m.undef p.def >both && { ! test -s both || { echo "matrix.c uses of plan.c:"; cat both; false; }; } &&
	nm -u p.o | awk "{ print \$NF }" | sort -u >p.undef && nm --defined-only -g m.o | awk "{ print \$3 }" | sort -u >m.def &&
	comm -12 p.undef m.def >used && test -s used
'

test_done
