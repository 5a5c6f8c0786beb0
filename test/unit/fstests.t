#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make fstests without a tree is a SKIP naming KIT_FSTESTS; the test list
# and the expunges as data; test/fstests/run-fstests reading what the guest left
# (a stand-in QEMU writes it); test/fstests/judge-fstests' rule: no new failure.
. "$(dirname "$0")/lib.sh"


test_expect_success 'without KIT_FSTESTS make fstests is a SKIP that names it' '
	make -C "$TOP" -s fstests SERIES=6.1 KIT_FSTESTS= RESULTS="$trash/r" >out 2>&1 &&
	test_grep "^6.1 fstests: SKIP: no fstests tree given: set KIT_FSTESTS" out && test ! -e r
'
test_expect_success 'make matrix FSTESTS=1 plans each series: its kernels (vanilla first), its tests, or why not' '
	mkdir -p fst && : >fst/check &&
	make -C "$TOP" -s plan FSTESTS=1 KIT_FSTESTS="$trash/fst" VERSIONS=6.1 RESULTS="$trash/r" >plan &&
	grep "^fstests	6.1	" plan >line && test "$(wc -l <line)" = 1 &&
	test "$(cut -f3 line)" = "$trash/r/6.1/fstests" && test "$(cut -f6 line)" = - &&
	cut -f7 line | grep -x ".*/fstests/root-[0-9a-f]*\.img" &&
	cut -f4 line | grep "^vanilla=[^ ]*/vanilla-fstests-[^ ]*/bzImage patched=[^ ]*/patched-fstests-" &&
	test "$(cut -f5 line)" = "$(sed "s/#.*//" "$TOP/test/fstests/list" | awk "NF { print \$1 }" | grep -vxF -f /dev/null | tr "\n" " " | sed "s/ $//")" &&
	make -C "$TOP" -s plan FSTESTS=1 KIT_FSTESTS= VERSIONS=6.1 >plan &&
	grep "^fstests	6.1	-	vanilla=" plan | cut -f6 >why && test_grep "^no fstests tree given: set KIT_FSTESTS" why &&
	make -C "$TOP" -s plan KIT_FSTESTS="$trash/fst" VERSIONS=6.1 >plan && ! grep "^fstests" plan
'
test_expect_success 'make fstests runs the series matrix with fstests on each variant, judged, in one report' '
	mkdir -p fst && : >fst/check &&
	make -C "$TOP" -n fstests SERIES=6.1 KIT_FSTESTS="$trash/fst" RESULTS="$trash/r" >plan 2>&1 &&
	for v in vanilla patched hardened; do
		grep -c "test/fstests/run-fstests 6.1 $v .*/$v-fstests-" plan | grep -qx 1 &&
		grep -q "build/kernel/kernel 6.1 $v .*/obj/6.1-[0-9a-f]*-fstests " plan &&
		grep -q "run-guest 6.1 $v " plan || { echo "6.1 $v: not planned"; exit 1; }
	done &&
	test_grep "judge-fstests 6.1 $trash/r/6.1/fstests test/fstests/expunges/6.1 vanilla patched hardened" plan &&
	test_grep "test/report/report $trash/r" plan && ! grep "run-fstests [0-9.]* " plan | grep -v " 6.1 " && test ! -e r/plan.tsv
'
test_expect_success 'make fstests wants a series of matrix.yaml' '
	test_must_fail make -C "$TOP" -s fstests SERIES=9.9 2>err && test_grep "9.9. is not a series of matrix.yaml" err &&
	test_must_fail make -C "$TOP" -s fstests 2>err && test_grep "say which series" err
'
test_expect_success "the list: a test a line with its reason, the kit's own tests among them" '
	sed "s/#.*//" "$TOP/test/fstests/list" | awk "NF { print \$1 }" >tests &&
	! awk "NF != 1 || \$1 !~ /^(ext4|generic)\/[0-9][0-9][0-9]/" tests | grep . &&
	! grep -v "^#" "$TOP/test/fstests/list" | grep -v "^ *$" | grep -v "[^ ]  *# ." &&
	test_matched "$TOP"/test/fstests/tests/*/* && n=0 &&
	for t in "$TOP"/test/fstests/tests/*/*; do
		case $t in *.out) continue ;; esac
		grep -qx "${t#"$TOP/test/fstests/tests/"}" tests || { echo "$t is not in test/fstests/list"; exit 1; }
		test -x "$t" && test -f "$t.out" && head -1 "$t.out" | grep -qx "QA output created by ${t##*/}" || exit 1
		n=$((n + 1))
	done && test "$n" -gt 0
'
# checkout DIR: a copy of this checkout, its matrix reader built, its
# dependencies taken as installed (as source.t makes one).
checkout() {
	rm -rf "$1" && mkdir -p "$1" &&
	tar -C "$TOP" --exclude=./.kit --exclude=./results --exclude=./.git --exclude=./.gitlab-ci-local \
		--exclude=./merged --exclude=./public -cf - . | tar -C "$1" -xf - &&
	mkdir -p "$1/.kit/bin" && cp "$BIN/matrix" "$1/.kit/bin/" &&
	for g in tools fetch build images guest report stacks check; do touch "$1/.kit/deps-$g.stamp"; done
}
test_expect_success 'the series expunges leave the run, the rest of the list is run in its order' '
	checkout k && mkdir -p k/test/fstests/expunges fst && : >fst/check &&
	printf "# a fixture\next4/054  # refused here\n  generic/050\t# a tab before the reason\n" >k/test/fstests/expunges/6.1 &&
	env -u KIT_BUILD -u MAKEFLAGS -u MAKELEVEL make -C k -n -s "$trash/r/6.1/fstests/vanilla/fstests.tsv" FSTESTS=1 \
		KIT_FSTESTS="$trash/fst" RESULTS="$trash/r" >plan 2>&1 &&
	sed -n "s#.*test/fstests/run-fstests 6.1 vanilla [^ ]* [^ ]* $trash/r/6.1/fstests/vanilla \([^|]*\) ||.*#\1#p" plan >run &&
	sed "s/#.*//" "$TOP/test/fstests/list" | awk "NF { print \$1 }" | grep -vx -e ext4/054 -e generic/050 | tr "\n" " " >want &&
	test "$(cat run) " = "$(cat want)" && test_grep "^ext4/990-shared-blocks ext4/053 ext4/059 ext4/025 generic/294 " run
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
	tabbed) echo 0 >$d/$n/rc; printf "ext4/999 -\tunknown test, ignored\033[0m\n" >$d/$n/check.out ;;
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
test_expect_success 'what check printed reaches fstests.tsv with its control characters escaped' '
	FAKE_RESULTS="a/001:tabbed a/002:pass" run a/001 a/002 &&
	printf "a/001\terror\t3\text4/999 -\\\\tunknown test, ignored\\\\x1b[0m\na/002\tpass\t3\t\n" >want &&
	test_cmp want o/fstests.tsv
'
test_expect_success 'run-fstests names the kernel it booted and the time it took; a second run on the same folder is refused' '
	FAKE_RESULTS="a/001:pass" run a/001 && test "$(cat o/kernel)" = kernel && grep -qx "[0-9][0-9]*" o/wall &&
	( flock 9 && ! run a/001 2>err ) 9>o.lock && test_grep "o: another fstests run writes there" err &&
	test "$(cat o/fstests.tsv)" = "$(printf "a/001\tpass\t3\t")"
'
test_expect_success 'run-fstests records its keys: the kernel, the tests asked, the root image and itself' '
	FAKE_RESULTS="a/001:pass" run a/001 &&
	printf "kernel=%s\ntests=%s\nroot=-\nrun=%s\n" "$("$TOP/build/key" file kernel)" "$("$TOP/build/key" words a/001)" \
		"$("$TOP/build/key" set fstests)" >want && test_cmp want o/keys &&
	echo r7 >root.img.key && FAKE_RESULTS="a/001:pass a/002:pass" run a/001 a/002 && test_grep "^root=r7$" o/keys &&
	test_grep "^tests=$("$TOP/build/key" words a/001 a/002)$" o/keys && rm root.img.key
'
test_expect_success 'a guest that never finishes is a failed step, its tests errors, never a pass' '
	FAKE_HANG=1 FAKE_RESULTS="a/001:pass" test_must_fail run a/001 a/002 2>err &&
	test_grep "run-fstests: vanilla: the guest left no results" err &&
	test "$(cut -f2 o/fstests.tsv | sort -u)" = error && test_grep "the guest left no results" o/fstests.tsv
'

# variant VARIANT TEST:STATUS...: a fstests.tsv as run-fstests writes it,
# and the kernel it names.
variant() {
	mkdir -p j/$1 && v=$1 && shift && echo "kernel-$v" >j/$v/kernel &&
	for r; do printf "%s\t%s\t5\t%s\n" "${r%%:*}" "${r#*:}" "$(echo "${r#*:}" | sed "s/pass//")"; done >j/$v/fstests.tsv
}
# row TEST: "vanilla's status, each variant's status and word, the reason"
# of verdict.json.
row() {
	python3 -c "
import json, sys
d = json.load(open(\"j/verdict.json\"))
t = [t for t in d[\"tests\"] if t[\"test\"] == sys.argv[1]][0]
why = t[\"reasons\"]
print(\" \".join([t[\"results\"][v][\"status\"] for v in d[\"variants\"]] + [t[\"verdicts\"][v] for v in d[\"variants\"][1:]]) + \": \" +
      \"; \".join(\"%s: %s\" % (v, why[v]) for v in d[\"variants\"] if v in why))
" "$1"
}
test_expect_success 'a test vanilla passes and a variant fails is FAIL, exit 3 (a verdict)' '
	rm -rf j && variant vanilla a/1:pass a/2:pass && variant patched a/1:pass a/2:fail &&
	test_must_fail 3 judge-fstests 9.9 j none vanilla patched >out &&
	test "$(row a/2)" = "pass fail FAIL: patched: fail (vanilla: pass): fail" &&
	test "$(row a/1)" = "pass pass PASS: " &&
	test_grep "^9.9 fstests: 1 passed, 1 failed, 0 errors, 0 baseline, 0 skipped on patched against vanilla (NEW FAILURES OR NO RESULT)$" out
'
test_expect_success 'a failure on both is baseline; one vanilla has alone is fixed; a timeout is a failure' '
	rm -rf j && variant vanilla a/1:fail a/2:fail a/3:pass && variant patched a/1:fail a/2:pass a/3:timeout &&
	variant hardened a/1:fail a/2:pass a/3:pass &&
	test_must_fail 3 judge-fstests 9.9 j none vanilla patched hardened >out &&
	row a/1 | grep "^fail fail fail BASELINE BASELINE: patched: fail on vanilla too" &&
	row a/2 | grep "^fail pass pass PASS PASS: patched: fixed: vanilla fail" &&
	row a/3 | grep "^pass timeout pass FAIL PASS: patched: timeout (vanilla: pass)"
'
test_expect_success 'no result (an error) on either side is ERROR, never fixed nor a baseline, exit 3' '
	rm -rf j && variant vanilla a/1:error a/2:error a/3:pass && variant patched a/1:pass a/2:error a/3:error &&
	test_must_fail 3 judge-fstests 9.9 j none vanilla patched >out &&
	row a/1 | grep "^error pass ERROR: patched: no result on vanilla to hold it against" &&
	row a/2 | grep "^error error ERROR: patched: no result: " && row a/3 | grep "^pass error ERROR: patched: no result: " &&
	test_grep "0 passed, 0 failed, 3 errors" out
'
test_expect_success 'not run is SKIP with its reason; all alike passes, exit 0; kernels and logs are recorded' '
	rm -rf j && variant vanilla a/1:pass a/2:notrun && variant patched a/1:pass a/2:notrun &&
	judge-fstests 9.9 j none vanilla patched >out &&
	test_grep "(no new failure)$" out && row a/2 | grep "^notrun notrun SKIP: vanilla: not run: notrun; patched: notrun$" &&
	python3 -c "
import json
d = json.load(open(\"j/verdict.json\"))
assert d[\"kernels\"] == {\"vanilla\": \"kernel-vanilla\", \"patched\": \"kernel-patched\"}, d[\"kernels\"]
assert d[\"tests\"][1][\"results\"][\"patched\"][\"log\"] == \"patched/raw/2\" and d[\"seconds\"][\"patched\"] == 10, d"
'
test_expect_success 'a test vanilla passes and a variant did not run is FAIL: the variant lost coverage' '
	rm -rf j && variant vanilla a/1:pass a/2:notrun && variant patched a/1:notrun a/2:notrun &&
	test_must_fail 3 judge-fstests 9.9 j none vanilla patched >out &&
	test "$(row a/1)" = "pass notrun FAIL: patched: vanilla passes, this variant did not run it (not run: notrun): coverage lost" &&
	row a/2 | grep "^notrun notrun SKIP: " &&
	test_grep "^9.9 fstests: 0 passed, 1 failed, 0 errors, 0 baseline, 1 skipped on patched against vanilla (NEW FAILURES OR NO RESULT)$" out
'
test_expect_success 'a test absent from a variant.s results is judged: FAIL where vanilla passes, else no result' '
	rm -rf j && variant vanilla a/1:pass a/2:fail a/3:pass && variant patched a/3:pass &&
	test_must_fail 3 judge-fstests 9.9 j none vanilla patched >out &&
	test "$(row a/1)" = "pass absent FAIL: patched: vanilla passes, this variant did not run it (not in patched/fstests.tsv): coverage lost" &&
	test "$(row a/2)" = "fail absent ERROR: patched: no result: not in patched/fstests.tsv" &&
	test "$(row a/3)" = "pass pass PASS: " &&
	python3 -c "
import json
t = json.load(open(\"j/verdict.json\"))[\"tests\"]
assert \"log\" not in t[0][\"results\"][\"patched\"] and t[2][\"results\"][\"patched\"][\"log\"] == \"patched/raw/1\", t"
'
# The expunges of the kit's own test/fstests/expunges, read as the judge reads
# them (none yet: each series' vanilla runs the whole list).
ls "$TOP"/test/fstests/expunges/* >/dev/null 2>&1 && test_set_prereq EXPUNGES
test_expect_success EXPUNGES 'each expunge of test/fstests/expunges names its reason, as test/fstests/judge-fstests reads it' '
	rm -rf j && variant vanilla a/1:pass && variant patched a/1:pass && test_matched "$TOP"/test/fstests/expunges/* &&
	for f in "$TOP"/test/fstests/expunges/*; do
		judge-fstests 9.9 j "$f" vanilla patched >/dev/null || { echo "$f: refused by judge-fstests (above)"; exit 1; }
	done
'
test_expect_success 'an expunged test is SKIP with its reason; one without a reason is refused' '
	rm -rf j && variant vanilla a/1:pass && variant patched a/1:pass &&
	echo "a/9  # hangs the guest on 9.9 (vanilla)" >exp && judge-fstests 9.9 j exp vanilla patched >out &&
	test "$(row a/9)" = "expunged expunged SKIP: vanilla: expunged: hangs the guest on 9.9 (vanilla); patched: expunged: hangs the guest on 9.9 (vanilla)" &&
	echo "a/8" >>exp && test_must_fail 2 judge-fstests 9.9 j exp vanilla patched 2>err &&
	test_grep "exp:2: a/8 is expunged without a reason" err
'
test_expect_success 'an expunged test that ran all the same is judged: vanilla passes, the variant fails, FAIL' '
	rm -rf j && variant vanilla a/1:pass a/2:pass && variant patched a/1:fail a/2:pass &&
	echo "a/1  # slow on 9.9" >exp && test_must_fail 3 judge-fstests 9.9 j exp vanilla patched >out &&
	row a/1 | grep "^pass fail FAIL: patched: fail (vanilla: pass)"
'
test_expect_success 'a line of fstests.tsv that is not a record is its test'"'"'s ERROR; the others keep their verdicts' '
	rm -rf j && variant vanilla a/1:pass a/2:pass a/3:pass && variant patched a/1:pass a/2:pass a/3:fail &&
	printf "a/1\tpass\t5\t\na/2\tfail\t5\tcheck said\ta tab\r\nand a newline\na/3\tfail\t5\tfail\n" >j/patched/fstests.tsv &&
	test_must_fail 3 judge-fstests 9.9 j none vanilla patched >out &&
	test "$(row a/1)" = "pass pass PASS: " && row a/3 | grep "^pass fail FAIL: " &&
	test "$(row a/2)" = "pass error ERROR: patched: no result: j/patched/fstests.tsv:2: not a record (TEST, status, seconds, message): a/2\\tfail\\t5\\tcheck said\\ta tab\\r; j/patched/fstests.tsv:3: a line broken off its record: and a newline"
'
test_expect_success 'variants that ran tests vanilla did not, or no kernel named, are refused' '
	rm -rf j && variant vanilla a/1:pass && variant patched a/2:pass &&
	test_must_fail 2 judge-fstests 9.9 j none vanilla patched 2>err && test_grep "other tests than vanilla" err &&
	variant patched a/1:pass && rm j/patched/kernel &&
	test_must_fail 2 judge-fstests 9.9 j none vanilla patched 2>err && test_grep "j/patched/kernel: missing" err
'
# A built fstests tree (stand-ins for what fstests-rootfs looks for) and a
# stand-in mmdebstrap that writes a root filesystem of one file.
rootfs_fixture() {
	rm -rf ft bin rc root.img* && mkdir -p ft/common ft/ltp ft/src ft/tools ft/tests/ext4 bin rc &&
	printf "#!/bin/bash\n" >ft/check && printf "_exit() { exit; }\n" >ft/common/rc &&
	printf "#!/bin/sh\n" >ft/ltp/fsstress && printf "#!/bin/sh\n" >ft/src/godown &&
	printf "#!/bin/sh\nls >\"\$1\"\n" >ft/tools/mkgroupfile &&
	chmod 755 ft/check ft/ltp/fsstress ft/src/godown ft/tools/mkgroupfile &&
	cat >bin/mmdebstrap <<-\EOF &&
	#!/bin/sh
	for a; do case $a in *.part) out=$a ;; esac; done
	mkdir -p "$out.d" && echo "base 1" >"$out.d/kit-packages" && tar -C "$out.d" -cf "$out" . && rm -rf "$out.d"
	EOF
	chmod 755 bin/mmdebstrap
}
rootfs() { PATH="$PWD/bin:$PATH" KIT_CACHE="$PWD/rc" KIT_HOST_CODENAME=bookworm fstests-rootfs ft root.img; }

test_expect_success 'fstests-rootfs keeps an image of the same tree and kit, time and all; a tree file changed makes it again' '
	rootfs_fixture && rootfs >log && test_grep "root filesystem ready" log && test -s root.img &&
	touch -d @1000000000 root.img && rootfs >log && test_grep "root filesystem up to date" log &&
	test "$(stat -c %Y root.img)" = 1000000000 &&
	echo "# changed" >>ft/common/rc && rootfs >log && test_grep "root filesystem ready" log &&
	test "$(stat -c %Y root.img)" != 1000000000
'

test_expect_success 'fstests-rootfs refuses a tree whose common/ has no _exit (before v2025.04.13), naming it' '
	rootfs_fixture && echo "# none" >ft/common/rc &&
	test_must_fail rootfs 2>err && test ! -e root.img &&
	test_grep "ft: its common/ has no _exit (fstests before v2025.04.13); the kit.s tests need v2025.04.13 or later" err
'

test_done
