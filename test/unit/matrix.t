#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/matrix: the schema of matrix.yaml and its error messages.
. "$(dirname "$0")/lib.sh"

good() {
	mkdir -p versions/6.1 test/cases/plain && touch versions/6.1/series test/cases/plain/expect.alt
	cat >m.yaml <<'Y'
series:
  - name: "6.1"
    source:
      debian: {package: linux-source-6.1, version: 6.1.192-3, suite: bookworm-security}
    stack: versions/6.1
    fixes: {A: upstream v5.9-rc2, B: stack}
Y
}

# bad NAME 'sed edit' 'expected message': the edit must give exactly it.
bad() {
	EDIT=$2 WANT=$3
	test_expect_success "$1" '
		good && sed -e "$EDIT" m.yaml >b.yaml &&
		test_must_fail 2 $BIN/matrix check b.yaml 2>err &&
		printf "%s\n" "$WANT" >want && cmp want err || { cat err; false; }
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
test_done
