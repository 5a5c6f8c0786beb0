# SPDX-License-Identifier: GPL-2.0
# A small TAP harness in the manner of git's t/test-lib.sh: one behaviour
# per test, setup inside the test, named prerequisites that skip with a
# reason, test_must_fail that counts a crash as an error.  Bodies run with
# set -e and must be &&-chained (KIT_TEST_CHAIN_LINT=0 turns the check off).
# shellcheck shell=sh

# The checkout: the script's own, or KIT_TEST_TOP for a script written
# elsewhere that sources this file by its path (harness.t's).
TOP=${KIT_TEST_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
# A script run through a link elsewhere (or a checkout without this file)
# must stop here: a test that copies or cleans $TOP would act on the wrong
# folder (a link in /tmp made $TOP "/", and a test copied the machine).
[ -f "$TOP/test/unit/lib.sh" ] || { echo "Bail out! $0: run it from its checkout (test/unit/), not through a link"; exit 1; }
BIN=${KIT_BUILD:-$TOP/.kit}/bin
: "${KIT_CACHE:?KIT_CACHE is not set}"
# The kit's programs by their names: each room's folder, then build/ (the
# planner, key, kit-id); the rooms come first, as build/kernel is a folder.
rooms=
for room in build/fetch build/kernel build/gates build/tools test/image test/guest \
	test/judge test/report test/fuzz test/fstests test/farm test/scale test/unit; do
	rooms=$rooms$TOP/$room:
done
PATH=$rooms$TOP/build:$BIN:$PATH
export KIT_T0=$(date +%s)
# pc_guest: the channels of a PC's emulator, as matrix.yaml's x86_64 gives
# them, for a test that boots a stand-in QEMU (its own KIT_QEMU) without
# make's plan.
pc_guest() {
	export KIT_CONSOLE=ttyS0 KIT_CONSOLE_QEMU="-serial chardev:con" KIT_KTAP=ttyS1 KIT_KTAP_QEMU="-serial chardev:ktap"
}
# Every test runs in its own trash folder; none may run anywhere else (a
# full disk once left mktemp empty, and the tests ran in the checkout).
trash=$(mktemp -d "${TMPDIR:-/tmp}/kit-unit.XXXXXX") && [ -d "$trash" ] && cd "$trash" ||
	{ echo "Bail out! $0: no trash folder under ${TMPDIR:-/tmp} (disk full?)"; exit 1; }
trap 'rm -rf "$trash"' EXIT
n=0 failed=0 prereqs=" "

test_set_prereq() { prereqs="$prereqs$1 "; }
# test_have_prereq PREREQ: true when PREREQ was set (git's, for one name),
# for a test that does more where it can: if test_have_prereq X; then ...
test_have_prereq() { [ "${prereqs#* $1 }" != "$prereqs" ]; }

# test_expect_success [PREREQ] NAME 'COMMANDS'
test_expect_success() {
	if [ $# -eq 3 ]; then need=$1; shift; else need=; fi
	n=$((n + 1))
	if [ -n "$need" ] && ! test_have_prereq "$need"; then
		echo "ok $n # SKIP $1 (missing $need)"
		return 0
	fi
	# KIT_TEST_ONLY=REGEX (grep -E): only the tests whose title matches.
	if [ -n "${KIT_TEST_ONLY:-}" ] && ! printf "%s\n" "$1" | grep -Eq -- "$KIT_TEST_ONLY"; then
		echo "ok $n # SKIP $1 (not in KIT_TEST_ONLY)"
		return 0
	fi
	# Chain lint (git's test_run_): a body chained with && stops at the
	# failing first link, so it must exit 117.  Output is discarded.
	if [ "${KIT_TEST_CHAIN_LINT:-1}" != 0 ]; then
		(eval "(exit 117) && $2
(exit \$?)") >/dev/null 2>&1
		lint=$?
	else
		lint=117
	fi
	if [ $lint -ne 117 ]; then
		failed=$((failed + 1))
		echo "not ok $n - $1"
		echo "#   broken &&-chain or run-away here-doc (the body goes on after a failure)"
		return 0
	fi
	# A plain statement, not a condition: there set -e would be ignored
	# (so call test_expect_success as a statement, too).
	(set -e; eval "$2") >"$trash/out.$n" 2>&1
	status=$?
	if [ $status -eq 0 ]; then
		echo "ok $n - $1"
	else
		failed=$((failed + 1))
		echo "not ok $n - $1"
		sed 's/^/#   /' "$trash/out.$n"
	fi
}

# test_must_fail [CODE] CMD...: CMD must fail (with CODE if given), and not
# by a signal.
test_must_fail() {
	want=
	case $1 in [0-9]*) want=$1; shift ;; esac
	rc=0
	"$@" || rc=$?
	if [ $rc -eq 0 ]; then echo "test_must_fail: '$*' succeeded" >&2; return 1; fi
	if [ $rc -gt 128 ]; then echo "test_must_fail: '$*' died of signal $((rc - 128))" >&2; return 1; fi
	if [ -n "$want" ] && [ $rc -ne "$want" ]; then echo "test_must_fail: '$*' exited $rc, not $want" >&2; return 1; fi
	return 0
}

# test_matched PATH...: a glob's expansion names files that exist (one that
# matched nothing is the pattern itself, and a loop over it passes silently).
test_matched() {
	[ -e "$1" ] && return 0
	echo "test_matched: nothing matches $1" >&2
	return 1
}

# test_cmp WANT GOT: the files are equal, else the diff is shown.
test_cmp() {
	diff -u -- "$1" "$2"
}

# test_grep PATTERN FILE: like grep -q, but shows FILE when it fails.
test_grep() {
	grep -q -- "$1" "$2" && return 0
	echo "no '$1' in $2:" >&2
	sed 's/^/| /' "$2" >&2
	return 1
}

test_done() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}

