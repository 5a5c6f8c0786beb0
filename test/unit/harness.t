#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The harness itself: lib.sh run on small scripts made here, judged by the
# TAP they print.
. "$(dirname "$0")/lib.sh"

# script NAME: h/NAME.t, the tests on stdin between the harness and test_done.
script() {
	mkdir -p h &&
	{ printf '. "%s/test/unit/lib.sh"\n' "$TOP" && cat && echo test_done; } >"h/$1.t"
}

test_expect_success 'a body that goes on after a failing line fails' '
	script false-true <<-\T &&
	test_expect_success "false then true" "
		false
		true
	"
	T
	test_must_fail 1 sh h/false-true.t >out &&
	test_grep "^not ok 1 - false then true$" out
'
test_expect_success 'set -e applies to the body, with the chain lint off too' '
	script false-true <<-\T &&
	test_expect_success "false then true" "
		false
		true
	"
	T
	KIT_TEST_CHAIN_LINT=0 test_must_fail 1 sh h/false-true.t >out &&
	test_grep "^not ok 1 - false then true$" out
'
test_expect_success 'a broken &&-chain is flagged, though each line succeeds' '
	script broken <<-\T &&
	test_expect_success "broken" "
		echo a >x
		test -f x
	"
	T
	test_must_fail 1 sh h/broken.t >out &&
	test_grep "^not ok 1 - broken$" out && test_grep "^#   broken &&-chain" out &&
	KIT_TEST_CHAIN_LINT=0 sh h/broken.t >out && test_grep "^ok 1 - broken$" out
'
test_expect_success 'a good chain passes, and the plan counts every test' '
	script good <<-\T &&
	test_expect_success "good" "
		echo a >x &&
		test -f x
	"
	test_expect_success "loop" "
		for f in a b; do
			echo \$f >\$f || return 1
		done &&
		test -f b
	"
	T
	sh h/good.t >out && printf "ok 1 - good\nok 2 - loop\n1..2\n" >want && test_cmp want out
'
test_expect_success 'test_must_fail counts a signal as an error' '
	script signal <<-\T &&
	test_expect_success "killed" "
		test_must_fail sh -c \"kill -TERM \\\$\\\$\"
	"
	test_expect_success "plain failure" "
		test_must_fail 3 sh -c \"exit 3\"
	"
	T
	test_must_fail 1 sh h/signal.t >out &&
	test_grep "^not ok 1 - killed$" out && test_grep "died of signal 15" out &&
	test_grep "^ok 2 - plain failure$" out
'
test_expect_success 'test_cmp shows the difference' '
	script cmp <<-\T &&
	test_expect_success "differ" "
		echo one >want && echo two >got && test_cmp want got
	"
	T
	test_must_fail 1 sh h/cmp.t >out &&
	test_grep "^#   -one$" out && test_grep "^#   +two$" out
'

test_done
