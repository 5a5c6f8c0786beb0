#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make fstests without a tree is a SKIP naming KIT_FSTESTS; the test list
# and the expunges as data; test/run-fstests reading what the guest left
# (a stand-in QEMU writes it); test/judge-fstests' rule: no new failure.
. "$(dirname "$0")/lib.sh"


test_expect_success 'without KIT_FSTESTS make fstests is a SKIP that names it' '
	make -C "$TOP" -s fstests SERIES=6.1 KIT_FSTESTS= RESULTS="$trash/r" >out 2>&1 &&
	test_grep "^6.1 fstests: SKIP: no fstests tree given; set KIT_FSTESTS" out && test ! -e r/fstests
'
test_expect_success 'make fstests wants a series of matrix.yaml' '
	test_must_fail make -C "$TOP" -s fstests SERIES=9.9 2>err && test_grep "9.9. is not a series of matrix.yaml" err &&
	test_must_fail make -C "$TOP" -s fstests 2>err && test_grep "say which series" err
'
test_expect_success "the list: a test a line with its reason, the kit's own tests among them" '
	sed "s/#.*//" "$TOP/fstests/list" | awk "NF { print \$1 }" >tests &&
	! awk "NF != 1 || \$1 !~ /^(ext4|generic)\/[0-9][0-9][0-9]/" tests | grep . &&
	! grep -v "^#" "$TOP/fstests/list" | grep -v "^ *$" | grep -v "[^ ]  *# ." &&
	for t in "$TOP"/fstests/tests/*/*; do
		case $t in *.out) continue ;; esac
		grep -qx "${t#"$TOP/fstests/tests/"}" tests || { echo "$t is not in fstests/list"; exit 1; }
		test -x "$t" && test -f "$t.out" && head -1 "$t.out" | grep -qx "QA output created by ${t##*/}" || exit 1
	done
'
test_expect_success 'each expunge names its reason' '
	for f in "$TOP"/fstests/expunges/*; do
		[ -f "$f" ] || continue
		! grep -v "^#" "$f" | grep -v "^ *$" | grep -v "# ." || { echo "$f: a line without a reason"; exit 1; }
	done
'
test_expect_success 'the series expunges leave the run, the rest of the list is run in its order' '
	mkdir -p fst && : >fst/check &&
	make -C "$TOP" -n -s "$trash/r/fstests/6.1/vanilla/fstests.tsv" SERIES=6.1 KIT_FSTESTS="$trash/fst" RESULTS="$trash/r" >plan 2>&1 &&
	grep "test/run-fstests 6.1 vanilla" plan >run &&
	test_grep " ext4/990-shared-blocks ext4/053 " run &&
	for t in $(sed -n "s/^[ 	]*\([^ 	#][^ 	#]*\).*/\1/p" "$TOP/fstests/expunges/6.1" 2>/dev/null); do
		! grep -q " $t\( \|$\)" run || { echo "$t is expunged but run"; exit 1; }
	done
'

# A stand-in QEMU: the guest's results, as FAKE_RESULTS says, written as the
# tar the real guest leaves on the last disk.
cat >qemu <<-'Q'
#!/bin/sh
console= last=
for a; do
	case $a in
	file:*) console=${a#file:} ;;
	file=*) last=${a#file=}; last=${last%%,*} ;;
	esac
done
d=$(mktemp -d) && echo 9.9.9 >$d/kernel
n=0
for r in $FAKE_RESULTS; do
	n=$((n + 1)); mkdir $d/$n
	echo "${r%%:*}" >$d/$n/test; echo 3 >$d/$n/seconds
	case ${r#*:} in
	pass) echo 0 >$d/$n/rc; echo '<testsuite><testcase name="t" time="3"/></testsuite>' >$d/$n/result.xml ;;
	fail) echo 1 >$d/$n/rc; echo '<testsuite><testcase name="t" time="4"><failure message="- output mismatch (see x.out.bad)"/></testcase></testsuite>' >$d/$n/result.xml ;;
	notrun) echo 0 >$d/$n/rc; echo '<testsuite><testcase name="t"><skipped message="kernel too old"/></testcase></testsuite>' >$d/$n/result.xml ;;
	timeout) echo 124 >$d/$n/rc ;;
	unknown) echo 0 >$d/$n/rc; echo "ext4/999 - unknown test, ignored" >$d/$n/check.out ;;
	esac
done
[ -n "$FAKE_HANG" ] || { tar -C $d -cf "$last" . && echo "kit-fstests: end" >"$console"; }
rm -rf $d
Q
chmod +x qemu
run() {
	: >kernel && : >root.img && KIT_QEMU=$trash/qemu KIT_FSTESTS_DISK=1 run-fstests 9.9 vanilla kernel root.img o "$@" >/dev/null
}
test_expect_success 'run-fstests reads pass, fail, not run, a bound hit and an unknown test from the guest' '
	FAKE_RESULTS="a/001:pass a/002:fail a/003:notrun a/004:timeout a/005:unknown" run a/001 a/002 a/003 a/004 a/005 &&
	printf "a/001\tpass\t3\t\na/002\tfail\t4\t- output mismatch (see x.out.bad)\na/003\tnotrun\t3\tkernel too old\na/004\ttimeout\t3\tstopped after the bound (check.out)\na/005\terror\t3\text4/999 - unknown test, ignored\n" >want &&
	test_cmp want o/fstests.tsv
'
test_expect_success 'a guest that never finishes leaves every test an error, never a pass' '
	FAKE_HANG=1 FAKE_RESULTS="a/001:pass" run a/001 a/002 &&
	test "$(cut -f2 o/fstests.tsv | sort -u)" = error && test_grep "the guest left no results" o/fstests.tsv
'

# variant VARIANT TEST:STATUS...: a fstests.tsv as run-fstests writes it.
variant() {
	mkdir -p j/$1 && v=$1 && shift &&
	for r; do printf "%s\t%s\t5\t%s\n" "${r%%:*}" "${r#*:}" "$(echo "${r#*:}" | sed "s/pass//")"; done >j/$v/fstests.tsv
}
test_expect_success 'a test vanilla passes and a variant fails is FAIL, exit 1' '
	rm -rf j && variant vanilla a/1:pass a/2:pass && variant patched a/1:pass a/2:fail &&
	test_must_fail 1 judge-fstests 9.9 j none vanilla patched >out &&
	test_grep "^a/2	pass	fail	FAIL	patched: fail (vanilla: pass): fail$" j/verdict.tsv &&
	test_grep "1 passed, 1 failed, 0 baseline, 0 skipped (no new failure on any variant: NO)" out
'
test_expect_success 'a failure on both is baseline; one vanilla has alone is fixed; a timeout is a failure' '
	rm -rf j && variant vanilla a/1:fail a/2:fail a/3:pass && variant patched a/1:fail a/2:pass a/3:timeout &&
	variant hardened a/1:fail a/2:pass a/3:pass &&
	test_must_fail 1 judge-fstests 9.9 j none vanilla patched hardened >out &&
	test_grep "^a/1	fail	fail	fail	BASELINE	BASELINE	" j/verdict.tsv &&
	test_grep "^a/2	fail	pass	pass	PASS	PASS	patched: fixed: vanilla fail" j/verdict.tsv &&
	test_grep "^a/3	pass	timeout	pass	FAIL	PASS	" j/verdict.tsv
'
test_expect_success 'not run is SKIP with its reason; all alike passes, exit 0; JUnit agrees' '
	rm -rf j && variant vanilla a/1:pass a/2:notrun && variant patched a/1:pass a/2:notrun &&
	judge-fstests 9.9 j none vanilla patched >out &&
	test_grep "(no new failure on any variant: yes)" out &&
	python3 -c "
import xml.etree.ElementTree as ET
s = ET.parse(\"j/junit.xml\").getroot().find(\"testsuite\")
assert s.get(\"name\") == \"9.9/patched/fstests\" and s.get(\"tests\") == \"2\" and s.get(\"skipped\") == \"1\" and s.get(\"failures\") == \"0\""
'
test_expect_success 'an expunged test is SKIP with its reason; one without a reason is refused' '
	rm -rf j && variant vanilla a/1:pass && variant patched a/1:pass &&
	echo "a/9  # hangs the guest on 9.9 (vanilla)" >exp && judge-fstests 9.9 j exp vanilla patched >out &&
	test_grep "^a/9	expunged	expunged	SKIP	expunged: hangs the guest on 9.9 (vanilla)$" j/verdict.tsv &&
	echo "a/8" >>exp && test_must_fail 2 judge-fstests 9.9 j exp vanilla patched 2>err &&
	test_grep "exp:2: a/8 is expunged without a reason" err
'
test_expect_success 'variants that ran other tests than vanilla are refused' '
	rm -rf j && variant vanilla a/1:pass && variant patched a/2:pass &&
	test_must_fail 2 judge-fstests 9.9 j none vanilla patched 2>err && test_grep "other tests than vanilla" err
'
test_done
