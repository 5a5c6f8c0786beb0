#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The harness itself: lib.sh and test/unit/run-tests, each run on small scripts
# made here, judged by the TAP and the summary they print.
. "$(dirname "$0")/lib.sh"

# script NAME: h/NAME.t, the tests on stdin between the harness and test_done.
script() {
	mkdir -p h &&
	{ printf 'KIT_TEST_TOP="%s"; . "%s/test/unit/lib.sh"\n' "$TOP" "$TOP" && cat && echo test_done; } >"h/$1.t"
}
# unit DIR NAME: DIR/NAME.t, a raw TAP script (stdin) for run-tests.
unit() { mkdir -p "$1" && cat >"$1/$2.t"; }

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

test_expect_success 'test_have_prereq is true for a prerequisite set, false for one not set' '
	script prereq <<-\T &&
	test_set_prereq HAVE
	test_expect_success "set" "test_have_prereq HAVE"
	test_expect_success "not set" "! test_have_prereq LACK && ! test_have_prereq HAV"
	T
	sh h/prereq.t >out 2>&1 && printf "ok 1 - set\nok 2 - not set\n1..2\n" >want && test_cmp want out
'
test_expect_success 'test_matched fails on a glob that matched nothing' '
	mkdir -p g && : >g/a && test_matched g/* &&
	test_must_fail test_matched g/*.none 2>err && test_grep "nothing matches g/\*.none" err
'
test_expect_success 'run-tests: a script that exits non-zero is a failure, with its status' '
	unit u1 exit3 <<-\T &&
	echo "ok 1 - fine"
	echo "1..1"
	exit 3
	T
	KIT_UNIT_DIR=u1 test_must_fail 1 run-tests unit >out &&
	test_grep "^not ok - exit3.t exited with status 3$" out &&
	test_grep "^1 passed, 1 failed, 0 skipped$" out
'
test_expect_success 'run-tests: a plan that differs from the tests run is a failure' '
	unit u2 liar <<-\T &&
	echo "ok 1 - fine"
	echo "1..2"
	T
	KIT_UNIT_DIR=u2 test_must_fail 1 run-tests unit >out &&
	test_grep "^not ok - liar.t: plan says 2, ran 1$" out &&
	test_grep "^1 passed, 1 failed, 0 skipped$" out
'
test_expect_success 'run-tests: a failed test is counted once, its status 1 with it' '
	unit u3 fails <<-\T &&
	echo "ok 1 - fine"
	echo "not ok 2 - broken"
	echo "1..2"
	exit 1
	T
	KIT_UNIT_DIR=u3 test_must_fail 1 run-tests unit >out &&
	test_grep "^not ok 2 - broken$" out && ! grep -q "exited with status" out &&
	test_grep "^1 passed, 1 failed, 0 skipped$" out
'
test_expect_success 'run-tests: scripts that keep their promises pass' '
	unit u4 good <<-\T &&
	echo "ok 1 - fine"
	echo "ok 2 # SKIP not here (missing X)"
	echo "1..2"
	T
	KIT_UNIT_DIR=u4 run-tests unit >out &&
	test_grep "^good.t  *1 passed, 0 failed, 1 skipped" out &&
	test_grep "^1 passed, 0 failed, 1 skipped$" out
'
test_expect_success 'run-tests: its log is a new file, not a name known in advance' '
	unit u5 good <<-\T &&
	echo "ok 1 - fine"
	echo "1..1"
	T
	mkdir -p tmp && echo precious >victim &&
	TMPDIR=$trash/tmp KIT_UNIT_DIR=u5 sh -c "ln -s \"\$0\" \"\$TMPDIR/kit-tests.\$\$\" && exec run-tests unit" \
		"$trash/victim" >out &&
	echo precious >want && test_cmp want victim
'
test_expect_success 'run-tests: scripts run at once, each with a KIT_BUILD of its own, shown in the order of the list' '
	# Each waits (5 s at most) for the other to have started: one at a
	# time, the first gives up and fails.
	for n in a b; do
		o=b && [ $n = a ] || o=a
		unit u6 $n <<-T || return 1
		mkdir -p "\$KIT_BUILD" && echo $n >"\$KIT_BUILD/mine" && : >"$trash/u6-$n.started"
		i=0; while [ ! -e "$trash/u6-$o.started" ] && [ \$i -lt 25 ]; do sleep 0.2; i=\$((i + 1)); done
		[ -e "$trash/u6-$o.started" ] && [ "\$(cat "\$KIT_BUILD/mine")" = $n ] && echo "ok 1 - $n" || echo "not ok 1 - $n"
		echo "1..1"
		T
	done &&
	KIT_TEST_JOBS=2 KIT_UNIT_DIR=u6 run-tests unit >out &&
	test "$(sed -n "s/^\([ab]\).t .*/\1/p" out | tr -d "\n")" = ab &&
	test_grep "^2 passed, 0 failed, 0 skipped$" out &&
	rm -f u6-*.started && KIT_TEST_JOBS=1 KIT_UNIT_DIR=u6 test_must_fail 1 run-tests unit >out &&
	test_grep "^not ok 1 - a$" out
'
test_expect_success 'a script run through a link, or with no trash folder, stops before its first test' '
	mkdir -p l/x/y && ln -s "$TOP/test/unit/lib.sh" l/x/y/lib.sh && ln -s "$TOP/test/unit/config.t" l/x/y/config.t &&
	test_must_fail 1 env -u KIT_TEST_TOP sh l/x/y/config.t >out 2>&1 &&
	test_grep "^Bail out! l/x/y/config.t: run it from its checkout" out && ! grep -q "^ok" out &&
	test_must_fail 1 env TMPDIR="$trash/none" sh "$TOP/test/unit/config.t" >out 2>&1 &&
	test_grep "^Bail out! .*config.t: no trash folder under $trash/none" out && ! grep -q "^ok" out
'
test_expect_success 'run-tests all: the matrix runs beside the unit tests, at the lowest priority, its boots held until they end' '
	# A stand-in make logs when it starts and at which nice level, then
	# when KIT_BOOT_GATE lets a boot through (flock -s, as guest-lib.sh
	# takes it; 10 s at most); the one unit script logs its own start and
	# end, 1 s apart.
	mkdir -p fakebin &&
	cat >fakebin/make <<-EOF &&
	#!/bin/sh
	now() { date +%s.%N; }
	case "\$*" in
	*matrix*) echo "\$(now) matrix-start nice=\$(cut -d" " -f19 /proc/self/stat) args=\$*" >>"$trash/all.log"
		i=0; while ! flock -n -s "\$KIT_BOOT_GATE" true && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
		echo "\$(now) boots-open" >>"$trash/all.log"; echo "matrix output"; echo "1 passed, 0 failed, 0 skipped" ;;
	*) exit 0 ;;
	esac
	EOF
	chmod +x fakebin/make && : >all.log &&
	unit u7 slow <<-T &&
	echo "\$(date +%s.%N) unit-start" >>"$trash/all.log"; sleep 1
	echo "\$(date +%s.%N) unit-end" >>"$trash/all.log"; echo "ok 1 - slow"; echo "1..1"
	T
	PATH="$trash/fakebin:$PATH" RESULTS=none KIT_CHECK_GATES_CONFIG=5.10 KIT_UNIT_DIR=u7 test_must_fail 1 run-tests all >out 2>&1 &&
	# (at EVENT: its line in time order)
	sort -n all.log | cut -d" " -f2 >order &&
	at() { grep -n "^$1\$" order | cut -d: -f1; } &&
	test "$(at matrix-start)" -lt "$(at unit-end)" && test "$(at unit-end)" -lt "$(at boots-open)" &&
	test_grep "matrix-start nice=19 args=.* matrix GATES=1 GATES_ALLMOD= GATES_CONFIG=5.10$" all.log &&
	# The unit script, then the matrix output, in that order.
	sed -n -e "s/^\(slow.t\) .* passed.*/\1/p" -e "s/^# the unit tests ended after [0-9]* s; \(the matrix began beside them, its boots from now on\)$/\1/p" \
		-e "/^matrix output$/p" -e "/^1 passed/p" out >shown &&
	printf "slow.t\nthe matrix began beside them, its boots from now on\nmatrix output\n1 passed, 0 failed, 0 skipped\n" >want &&
	test_cmp want shown &&
	# An absolute RESULTS is where the reports are read, as make wrote them.
	PATH="$trash/fakebin:$PATH" RESULTS=$trash/abs-results KIT_CHECK_GATES_CONFIG=5.10 KIT_UNIT_DIR=u7 test_must_fail 1 run-tests all >out 2>&1 &&
	test_grep "can.t cd to $trash/abs-results\$" out
'
test_done
