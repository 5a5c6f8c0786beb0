#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Mount times of large images (make mount-time): the image tool's scale
# op, and test/scale/run-mount-time against a stand-in QEMU.
. "$(dirname "$0")/lib.sh"
pc_guest
. "$TOP/test/unit/fake-qemu.sh"

test_expect_success 'scale: FILES more files, a thousand a directory, in MIB MiB, none in the manifest' '
	printf "scale 1500 32\n" >r && $BIN/mkimage r s.img &&
	$BIN/mkimage "$TOP/test/cases/plain/recipe" p.img && cmp s.img.manifest p.img.manifest &&
	test "$(stat -c %s s.img)" -eq $((32 << 20)) &&
	e2fsck -fn s.img >fsck 2>&1 &&
	debugfs -R "ls -p /many" s.img 2>/dev/null | grep -c "/[0-9][0-9][0-9]/" >dirs && test "$(cat dirs)" -eq 2 &&
	debugfs -R "ls -p /many/001" s.img 2>/dev/null | grep -c "/100644/.*/4096/" >n && test "$(cat n)" -eq 500 &&
	debugfs -R "stat /many/001/0499" s.img 2>/dev/null | grep -q "Size: 4096"
'
test_expect_success 'scale: files that cannot fit are refused, and no image is left' '
	printf "scale 100000 16\n" >r && test_must_fail 2 $BIN/mkimage r x.img 2>err &&
	test_grep "do not fit" err && test ! -e x.img
'

# The stand-in QEMU: each planned case mounts in FAKE_US_<kernel's file
# name> microseconds, the next number of that list each boot (a counter
# file per kernel), and a case named in FAKE_REFUSE_<kernel> is refused
# with EUCLEAN; a kernel named in FAKE_DIE prints nothing.  Lines end in
# CR LF, as the serial line gives them.
fake() {
	: >init && chmod +x init && : >kv && : >kh && : >kx && mkdir -p imgs &&
	for c in big plain; do
		: >imgs/$c.img && : >imgs/$c.img.manifest && mkdir -p cases/$c && echo ro >cases/$c/mount &&
		echo "scale 1000 16" >cases/$c/recipe || return 1
	done &&
	fake_qemu fake-qemu <<-'Q'
	kernel=$(sed -n "/^-kernel\$/{n;p;}" "$0.args") && k=${kernel##*/}
	case " ${FAKE_DIE:-} " in *" $k "*) exit 0 ;; esac
	n=$(cat "$0.$k" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"$0.$k"
	eval "times=\${FAKE_US_$k:-}; refuse=\${FAKE_REFUSE_$k:-}"
	us=$(echo $times | cut -d" " -f$n)
	echo "KTAP version 1"
	i=0
	cpio -i --quiet --to-stdout plan <"$rd" | while read -r dev c mode; do
		i=$((i + 1))
		printf "# case %s %s\r\n# mount-time %s %s\r\n" $i $c $c $us
		case " $refuse " in
		*" $c "*) printf "# out: mount: EUCLEAN\r\n" ;;
		*) printf "# out: mount: ok\r\n# out: umount: ok\r\n" ;;
		esac
		printf "ok %s %s\r\n" $i $c
	done
	Q
}
mount_time() {
	KIT_QEMU="$trash/fake-qemu" KIT_GUEST_INIT="$trash/init" KIT_IMAGES=imgs KIT_GUEST_STALL=5 KIT_GUEST_TIMEOUT=10 \
	KIT_SCALE_DIR=cases run-mount-time out "$@"
}
test_expect_success 'the median of each kernel and image, refusals by name, every round in the record' '
	fake && FAKE_US_kv="1000 3000 2000" FAKE_US_kh="9000 7000 8500" FAKE_REFUSE_kv=big \
		mount_time 3 9.9:vanilla:kv 9.9:hardened:kh >log &&
	test_grep "^series  *variant  *big  *plain$" log &&
	test_grep "^9.9  *vanilla  *EUCLEAN  *2.0 ms$" log &&
	test_grep "^9.9  *hardened  *8.5 ms  *8.5 ms$" log &&
	test "$(grep -c -v "^#" out/mount-time.tsv)" -eq 12 &&
	test_grep "^9.9	hardened	big	2	7000	ok$" out/mount-time.tsv &&
	test_grep "^9.9	vanilla	big	1	1000	EUCLEAN$" out/mount-time.tsv
'
test_expect_success 'a boot that prints nothing fails the run, and its kernel shows no time' '
	fake && FAKE_US_kv="1000" FAKE_DIE=kx test_must_fail 1 mount_time 1 9.9:vanilla:kv 9.9:hardened:kx >log &&
	test_grep "^9.9  *vanilla  *1.0 ms  *1.0 ms$" log &&
	test_grep "^9.9  *hardened  *no record  *no record$" log
'
test_expect_success 'usage: ROUNDS a count, kernels as SERIES:VARIANT:BZIMAGE' '
	test_must_fail 2 run-mount-time out 0 9.9:vanilla:kv 2>err && test_grep "not a count" err &&
	test_must_fail 2 run-mount-time out 1 kv 2>err && test_grep "not SERIES:VARIANT:BZIMAGE" err
'
test_done
