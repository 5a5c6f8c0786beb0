#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# test/run-guest and test/report with a stand-in for QEMU: a guest that
# answers, never answers, panics, hangs in one case or reports trouble.
# None of these may come out as a pass.
. "$(dirname "$0")/lib.sh"
. "$TOP/test/unit/fake-guest.sh"

st() { awk -F'\t' -v c="$1" '$3 == c { print $4 }' r/cells.tsv; }

test_expect_success 'a guest that answers as expected passes every case in one boot' '
	setup && FAKE=ok run-guest 9.9 vanilla kernel r && test "$(st a)$(st b)$(st c)" = PASSPASSPASS &&
	test -f r/boot1.log && test ! -f r/boot2.log
'
test_expect_success 'a guest that never answers is TIMEOUT, never a pass' '
	setup && FAKE=silent run-guest 9.9 vanilla kernel r &&
	test "$(st a)$(st b)$(st c)" = TIMEOUTTIMEOUTTIMEOUT && test_grep "TIMEOUT 3 seconds" r/cells.tsv
'
test_expect_success 'a panic in one case is ERROR there, and the later cases still run' '
	setup && FAKE=panic run-guest 9.9 vanilla kernel r &&
	test "$(st a):$(st b):$(st c)" = PASS:ERROR:PASS && test -f r/boot2.log &&
	test_grep "Kernel panic" r/cells.tsv
'
test_expect_success 'a case that hangs is TIMEOUT, the others keep their verdicts' '
	setup && FAKE=hang run-guest 9.9 vanilla kernel r &&
	test "$(st a):$(st b):$(st c)" = PASS:TIMEOUT:PASS
'
test_expect_success 'kernel trouble reported by the guest is ERROR, whatever the mount did' '
	setup && FAKE=trouble run-guest 9.9 vanilla kernel r && test "$(st b)" = ERROR
'
test_expect_success 'a verdict other than expected is FAIL, with a .failed diff' '
	setup && FAKE=wrong run-guest 9.9 vanilla kernel r && test "$(st b)" = FAIL &&
	test_grep "^+mount: EUCLEAN" r/cases/b.failed
'
test_expect_success 'an expected kernel message that is missing is FAIL' '
	setup && echo "kmsg~ never printed" >>cases/c/expect && FAKE=ok run-guest 9.9 vanilla kernel r &&
	test "$(st c)" = FAIL && test_grep "kernel log lacks: never printed" r/cases/c.failed
'
test_expect_success 'the report counts cells, lists SKIP rows and fails on any mismatch' '
	setup && mkdir -p res/9.9 && FAKE=ok run-guest 9.9 vanilla kernel res/9.9/vanilla &&
	FAKE=wrong run-guest 9.9 patched kernel res/9.9/patched &&
	printf "5.4\ttree source not found: set KIT_SRC_5_4\n" >res/skipped.tsv &&
	test_must_fail 1 report res 9.9 "a b c" >out 2>&1 &&
	test "$(tail -1 out)" = "5 passed, 1 failed, 6 skipped" &&
	test_grep "^5.4 .*SKIP  tree source not found: set KIT_SRC_5_4" out &&
	test_grep "FAIL  refused EUCLEAN (want mounted)" out &&
	python3 -c "import json,sys; d=json.load(open(\"res/results.json\")); sys.exit(not (d[\"totals\"][\"failed\"] == 1 and len(d[\"series\"][0][\"cells\"]) == 6))"
'
test_done
