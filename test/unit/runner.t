#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# test/run-guest and test/report with a stand-in for QEMU: a guest that
# answers, never answers, panics, hangs in one case or reports trouble.
# None of these may come out as a pass.
. "$(dirname "$0")/lib.sh"
export KIT_CACHE="$trash/cache" KIT_CASES_DIR="$trash/cases" KIT_IMAGES="$trash/images"
export KIT_QEMU="$trash/fake-qemu" KIT_GUEST_INIT="$trash/init" KIT_GUEST_TIMEOUT=3

setup() {
	mkdir -p cases images cache && : >init && chmod +x init && touch kernel &&
	for c in a b c; do
		mkdir -p cases/$c && echo "ro" >cases/$c/mount && printf "mount: ok\nkmsg~ hello $c\n" >cases/$c/expect &&
		: >images/$c.img && : >images/$c.img.manifest || return 1
	done
	# The stand-in reads the plan from the initramfs, as the real guest does.
	cat >fake-qemu <<-'Q'
	#!/bin/sh
	while [ $# -gt 0 ]; do [ "$1" = -initrd ] && rd=$2; shift; done
	plan=$(cpio -i --quiet --to-stdout plan <"$rd")
	[ "$FAKE" = silent ] && exec sleep 60
	echo "KTAP version 1"
	n=0
	echo "$plan" | while read -r dev c mode; do
		n=$((n + 1))
		echo "# case $n $c"
		case "$FAKE:$c" in
		hang:b) exec sleep 60 ;;
		panic:b) echo "Kernel panic - not syncing: Attempted to kill init!"; exit 0 ;;
		trouble:b) echo "# out: mount: ok"; echo "# kmsg: hello b"; echo "not ok $n b # ERROR kernel trouble: WARNING: at fs/ext4"; continue ;;
		wrong:b) echo "# out: mount: EUCLEAN"; echo "# kmsg: hello b"; echo "ok $n b"; continue ;;
		esac
		echo "# out: mount: ok"; echo "some kernel line"; echo "# kmsg: hello $c"; echo "ok $n $c"
	done
	Q
	chmod +x fake-qemu
}
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
