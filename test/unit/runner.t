#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# test/guest/run-guest and test/judge/judge with a stand-in for QEMU: a guest that
# answers, never answers, panics, hangs in one case or reports trouble.
# None of these may come out as a pass; the judge decides from the boot's
# raw output, and an edited expectation is judged again without a boot.
. "$(dirname "$0")/lib.sh"
. "$TOP/test/unit/fake-guest.sh"

test_expect_success 'a guest that answers as expected passes every case in one boot' '
	setup && guest ok vanilla r &&
	test "$(st r a)$(st r b)$(st r c)" = PASSPASSPASS &&
	test -f r/boot1.log && test ! -f r/boot2.log
'
test_expect_success 'a boot waits while KIT_BOOT_GATE is held, and its time limit starts after the wait' '
	setup && : >gate && rm -f held.end &&
	{ flock -x gate sh -c "sleep 3; : >held.end" & } && sleep 0.5 &&
	KIT_BOOT_GATE=$trash/gate KIT_GUEST_TIMEOUT=2 guest ok vanilla r &&
	test -e held.end && test "$(st r a)$(st r b)$(st r c)" = PASSPASSPASS && wait
'
test_expect_success 'a watched case ends its report with the blocks the boot wrote to its disk, the image untouched' '
	setup && for c in a b c; do
		head -c 16384 /dev/zero >images/$c.img && key made $c >images/$c.img.key || return 1
	done &&
	echo "ro watch" >cases/a/mount && echo "ro probe-rw watch" >cases/b/mount &&
	FAKE=scribble run-guest 9.9 vanilla kernel r &&
	test "$(tail -1 r/cases/a.out)" = "written: none" &&
	test "$(tail -1 r/cases/b.out)" = "written: 1 block: 5" &&
	! grep -q "^written:" r/cases/c.out &&
	head -c 16384 /dev/zero >zero && cmp zero images/b.img
'
test_expect_success 'a case whose boot wrote to its watched disk says so in its phrase' '
	setup && for c in a b c; do
		head -c 16384 /dev/zero >images/$c.img && key made $c >images/$c.img.key || return 1
	done &&
	echo "ro watch" >cases/a/mount && echo "ro watch" >cases/b/mount &&
	printf "mount: ok\nwritten: none\n" >cases/a/expect && printf "mount: ok\nwritten: none\n" >cases/b/expect &&
	FAKE=scribble run-guest 9.9 vanilla kernel r && judge 9.9 vanilla r &&
	test "$(st r a)" = PASS && test "$(st r a actual)" = mounted &&
	test "$(st r b)" = FAIL && test "$(st r b actual)" = "mounted, wrote 1 block" &&
	test "$(st r b expected)" = mounted
'
test_expect_success 'written: blocks of the image size, the first 16 listed; a copy that cannot be compared is unknown, never none' '
	. "$TOP/test/guest/guest-lib.sh" && head -c 65536 /dev/zero >w.img && cp w.img w.copy &&
	printf "\001" | dd of=w.img bs=1 seek=1048 conv=notrunc 2>/dev/null && cp w.img w.copy &&
	test "$(written w.img w.copy)" = none &&
	for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		printf Y | dd of=w.copy bs=1 seek=$((k * 2048 + 7)) conv=notrunc 2>/dev/null || return 1
	done &&
	test "$(written w.img w.copy)" = "16 blocks: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" &&
	printf Y | dd of=w.copy bs=1 seek=$((31 * 2048)) conv=notrunc 2>/dev/null &&
	test "$(written w.img w.copy)" = "17 blocks: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 ..." &&
	case "$(written w.img nothing)" in unknown*) ;; *) false ;; esac &&
	head -c 100 /dev/zero >short && case "$(written w.img short)" in unknown*) ;; *) false ;; esac
'
test_expect_success 'a boot without its arch'"'"'s emulator or a channel stops before booting, naming what is missing' '
	setup && rm -f fake-qemu.args && for v in KIT_QEMU KIT_CONSOLE KIT_CONSOLE_QEMU KIT_KTAP KIT_KTAP_QEMU; do
		(unset $v && FAKE=ok test_must_fail 2 run-guest 9.9 vanilla kernel rn) 2>err &&
		test_grep "run-guest: $v is not set" err && ! test -e rn/boot.tsv && ! test -e fake-qemu.args || return 1
	done &&
	(KIT_QEMU="$trash/no-such-qemu -M virt" && FAKE=ok test_must_fail 2 run-guest 9.9 vanilla kernel rn) 2>err &&
	test_grep "run-guest: $trash/no-such-qemu, this arch.s emulator (KIT_QEMU), is not installed" err && ! test -e rn/boot.tsv
'
test_expect_success 'the boot only records; it writes no verdict' '
	setup && FAKE=wrong run-guest 9.9 vanilla kernel r && test -f r/boot.tsv &&
	test ! -f r/cells.json && test_grep "^b	DONE	" r/boot.tsv
'
test_expect_success 'a guest that never answers is TIMEOUT, never a pass' '
	setup && guest silent vanilla r &&
	test "$(st r a)$(st r b)$(st r c)" = TIMEOUTTIMEOUTTIMEOUT &&
	test_grep "TIMEOUT 3 seconds" r/cells.json
'
test_expect_success 'a panic in one case is ERROR there, and the later cases still run' '
	setup && guest panic vanilla r &&
	test "$(st r a):$(st r b):$(st r c)" = PASS:ERROR:PASS && test -f r/boot2.log &&
	test_grep "Kernel panic" r/cells.json
'
test_expect_success 'a case that hangs is TIMEOUT, the others keep their verdicts' '
	setup && guest hang vanilla r &&
	test "$(st r a):$(st r b):$(st r c)" = PASS:TIMEOUT:PASS
'
test_expect_success 'kernel trouble reported by the guest is ERROR, whatever the mount did' '
	setup && guest trouble vanilla r && test "$(st r b)" = ERROR
'
test_expect_success 'a verdict other than expected is FAIL, its reason the difference' '
	setup && guest wrong vanilla r && test "$(st r b)" = FAIL &&
	test "$(st r b reason)" = "mount: EUCLEAN, expected ok (expect)" &&
	test "$(st r b kernel)" = "" && test_grep "^+mount: EUCLEAN" r/cases/b.failed
'
test_expect_success 'an expected kernel message that is missing is FAIL' '
	setup && echo "kmsg~ never printed" >>cases/c/expect && guest ok vanilla r &&
	test "$(st r c)" = FAIL && test "$(st r c reason)" = "kernel log lacks: never printed (expect)" &&
	test_grep "kernel log lacks: never printed" r/cases/c.failed
'
test_expect_success 'a kernel message the case forbids is FAIL, one it does not is PASS' '
	setup && echo "kmsg! hello" >>cases/c/expect && guest ok vanilla r &&
	test "$(st r c)" = FAIL && test "$(st r c reason)" = "kernel log has: hello c (the case forbids '"'hello'"') (expect)" &&
	echo "kmsg! EXT4-fs error" >>cases/b/expect && judge 9.9 vanilla r &&
	test "$(st r b)" = PASS
'
test_expect_success 'an edited expectation is judged again from the same boot' '
	setup && guest wrong vanilla r && test "$(st r b)" = FAIL &&
	printf "mount: EUCLEAN\n" >cases/b/expect.vanilla && judge 9.9 vanilla r &&
	test "$(st r b)" = PASS && test ! -f r/cases/b.failed
'
test_expect_success 'a flavour takes expect.patched unless it has its own' '
	setup && printf "mount: EUCLEAN\n" >cases/b/expect.patched && guest wrong hardened r &&
	test "$(st r b)" = PASS && test "$(st r b expect)" = b/expect.patched &&
	printf "mount: ok\n" >cases/b/expect.hardened && judge 9.9 hardened r vanilla &&
	test "$(st r b)" = FAIL && test "$(st r b expect)" = b/expect.hardened
'
test_expect_success 'after a block_validity remount only the reads that follow count as leaks' '
	setup && guest reval vanilla r && test "$(st r b actual)" = "mounted, revalidated read EUCLEAN" &&
	test "$(st r b leaks)" = False &&
	guest revalleak vanilla r && test "$(st r b actual)" = "mounted, revalidated LEAKS" &&
	test "$(st r b leaks)" = True
'
test_expect_success 'a variant the stack does not have is refused by the judge' '
	setup && FAKE=ok run-guest 9.9 other kernel r &&
	test_must_fail 2 judge 9.9 other r 2>err && test_grep "not a variant of 9.9" err
'
test_expect_success 'a boot that dies before its first case boots once more, its cases judged as ever' '
	setup && guest bootpanic vanilla r >out &&
	test "$(st r a)$(st r b)$(st r c)" = PASSPASSPASS && test -f r/boot2.log && test ! -f r/boot3.log &&
	test_grep "boot 1 died before its first case (Kernel panic - not syncing: IO-APIC + timer doesn.t work!  Boot with apic=debug); its 3 items boot once more" out &&
	test_grep "3 of 3 cases ran to their end, 2 boot(s) (1 again after a boot died before its first case)" out
'
test_expect_success 'a second boot that dies before its first case records every case, with the reason readable' '
	setup && guest bootpanic-always vanilla r >out &&
	test "$(st r a)$(st r b)$(st r c)" = ERRORERRORERROR && test -f r/boot2.log && test ! -f r/boot3.log &&
	test "$(st r a reason)" = "guest stopped without a verdict (qemu exit 0): Kernel panic - not syncing: IO-APIC + timer doesn'"'"'t work!  Boot with apic=debug (log: r/boot2.log)" &&
	test "$(st r c reason)" = "guest never started a case, in two boots (log: r/boot2.log)" &&
	! grep -q "$(printf "\r")" r/boot.tsv
'
test_expect_success 'carriage returns, tabs and a panic in what the guest printed cost no other case its verdict' '
	setup && guest crlf vanilla r &&
	test "$(st r a):$(st r b):$(st r c)" = ERROR:ERROR:PASS && test -f r/boot2.log && test ! -f r/boot3.log &&
	test "$(st r a reason)" = "kernel trouble: WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:10\\text4_fill_super" &&
	test "$(st r b reason)" = "guest stopped without a verdict (qemu exit 0): BUG: kernel NULL pointer dereference, address: 0\\tRIP: ext4_fill_super (log: r/boot1.log)" &&
	test "$(grep -vc "^#" r/boot.tsv)" -eq 3 && ! grep -q "$(printf "\r")" r/boot.tsv
'
test_expect_success 'a guest that stops after a verdict, before the next case started, is that case'"'"'s ERROR' '
	setup && guest afterpanic vanilla r &&
	test "$(st r a):$(st r b):$(st r c)" = ERROR:PASS:PASS && test -f r/boot2.log && test ! -f r/boot3.log &&
	test "$(st r a reason)" = "guest stopped after its verdict, before the next case started (qemu exit 0): Kernel panic - not syncing: Fatal exception in interrupt (log: r/boot1.log)"
'
test_expect_success 'a line of boot.tsv that is not a record is its case'"'"'s ERROR; the others keep their verdicts' '
	setup && guest ok vanilla r && cp r/boot.tsv good &&
	{ grep "^#" good && grep "^a	" good &&
	  printf "b\tERROR\tKernel panic\r with\ta tab\tr/boot1.log\n" && printf "Boot with apic=debug\r\n" &&
	  grep "^c	" good; } >r/boot.tsv &&
	judge 9.9 vanilla r && test "$(st r a):$(st r b):$(st r c)" = PASS:ERROR:PASS &&
	test "$(st r b reason)" = "boot.tsv: not a record (ITEM, state, detail, log): b\\tERROR\\tKernel panic\\r with\\ta tab\\tr/boot1.log; boot.tsv: a line broken off its record: Boot with apic=debug\\r"
'

# The real guest (test/guest/guest-init.c) with the kernel played by files:
# test/unit/guest-init-stub.c.  Every image is refused (EUCLEAN); klog/CASE
# is what the kernel prints during its mount, and after "--- after", once
# the guest has read its log.
command -v cc >/dev/null && test_set_prereq CC
stub_guest() {
	setup && rm -rf klog && mkdir klog &&
	cc -O2 -Wall -I"$TOP/common" -o stub "$TOP/test/unit/guest-init-stub.c" "$TOP/common/sha256.c" &&
	for c in a b c; do printf "mount: EUCLEAN\n" >cases/$c/expect || return 1; done &&
	fake_qemu fake-qemu <<-'Q'
	cpio -i --quiet --to-stdout plan <"$rd" >plan.run
	exec ./stub plan.run
	Q
}
test_expect_success CC 'a WARNING the kernel prints after a case'"'"'s verdict makes that case ERROR, not the next' '
	stub_guest &&
	printf "%s\n" "EXT4-fs (vda): bad geometry" "--- after" "WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:100 ext4_put_super" >klog/a &&
	printf "%s\n" "--- after" "WARNING: CPU: 0 PID: 1 at fs/ext4/inode.c:5 after the last case" >klog/c &&
	guest stub vanilla r && test "$(st r a):$(st r b):$(st r c)" = ERROR:PASS:ERROR &&
	test "$(st r a reason)" = "kernel trouble after its verdict: WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:100 ext4_put_super" &&
	test_grep "^WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:100" r/cases/a.kmsg &&
	test_grep "after the last case" r/cases/c.kmsg
'
test_expect_success CC 'every line of a case'"'"'s kernel log is read and scanned, however long' '
	stub_guest &&
	{ yes "EXT4-fs (vdb): a line of a long log" | head -n 3000 && echo "UBSAN: shift-out-of-bounds in fs/ext4/super.c:7"; } >klog/b &&
	{ yes "EXT4-fs (vdc): a line of a longer log" | head -n 20000 && echo "BUG: KASAN: use-after-free in ext4_xattr_get" &&
	  yes "EXT4-fs (vdc): a line of a longer log" | head -n 20000; } >klog/c &&
	guest stub vanilla r && test "$(st r a):$(st r b):$(st r c)" = PASS:ERROR:ERROR &&
	test "$(st r b reason)" = "kernel trouble: UBSAN: shift-out-of-bounds in fs/ext4/super.c:7" &&
	test "$(grep -c "a line of a long log" r/cases/b.kmsg)" -eq 3000 &&
	test "$(st r c reason)" = "kernel trouble: BUG: KASAN: use-after-free in ext4_xattr_get" &&
	test_grep "^BUG: KASAN: use-after-free in ext4_xattr_get$" r/cases/c.kmsg &&
	test_grep "^\[guest-init: [0-9]* more lines ([0-9]* bytes) of kernel messages not shown; every line was scanned\]$" r/cases/c.kmsg
'
test_expect_success CC 'control characters in a kernel message reach the judge escaped' '
	stub_guest && printf "EXT4-fs (vda): bad\tgeometry\033[0m\r\n" >klog/a && guest stub vanilla r &&
	test "$(st r a):$(st r a kernel)" = "PASS:EXT4-fs (DEV): bad\\tgeometry\\x1b[0m\\r" &&
	test "$(cat r/cases/a.kmsg)" = "EXT4-fs (vda): bad\\tgeometry\\x1b[0m\\r"
'
test_expect_success CC 'each case mounts the disk whose serial is its name; a name no serial gives is that case'"'"'s ERROR, never a guess' '
	stub_guest && rm -f mounted && mkdir -p sysblock/vda sysblock/vdb sysblock/vdd &&
	echo vda >sysblock/vda/serial && echo vdx >sysblock/vdb/serial && echo vdb >sysblock/vdd/serial &&
	guest stub vanilla r && test "$(st r a):$(st r b):$(st r c)" = PASS:PASS:ERROR &&
	test "$(st r c reason)" = "no disk has serial vdc" &&
	printf "a /dev/vda\nb /dev/vdd\n" >want && sort mounted >got && test_cmp want got &&
	test_grep "^# disk vdb is vdd$" r/boot1.ktap
'
test_expect_success CC 'the results go to the KTAP device alone; without it the guest says so on the console and no case counts' '
	stub_guest && rm -rf sysblock dev && mkdir -p dev && : >dev/console &&
	fake_qemu fake-qemu <<-'"'"'Q'"'"' &&
	cpio -i --quiet --to-stdout plan <"$rd" >plan.run
	case $ktap in /*) to=$ktap ;; *) to=$PWD/$ktap ;; esac
	[ -e ktap-missing ] || ln -sf "$to" dev/ttyS1
	exec ./stub plan.run
	Q
	guest stub vanilla r && test "$(st r a):$(st r b):$(st r c)" = PASS:PASS:PASS &&
	! test -s dev/console &&
	: >ktap-missing && rm -f dev/ttyS1 && guest stub vanilla r2 &&
	test "$(st r2 a):$(st r2 b):$(st r2 c)" = ERROR:ERROR:ERROR &&
	test_grep "^guest-init: no KTAP device dev/ttyS1: ENOENT" dev/console && ! grep -q "KTAP version" dev/console
'
# twin: case a sets shared_blocks, so it has a twin, a~twin, booted too.
twin() {
	setup && echo "feature shared_blocks on" >cases/a/recipe && : >images/a~twin.img && : >images/a~twin.img.manifest &&
	key made a~twin >images/a~twin.img.key && rm -f cases/a/twin.* && export KIT_CASES="a a~twin b c"
}
test_expect_success 'an unflagged twin a variant mounts where vanilla refuses it is a FAIL: never weaker than vanilla' '
	twin && FAKE=wrongtwin run-guest 9.9 vanilla kernel vanilla && judge 9.9 vanilla vanilla && guest ok patched r &&
	test "$(st vanilla a~twin)" = PASS && test "$(st vanilla a~twin expected)" = "(the baseline)" &&
	test "$(st r a~twin)" = FAIL &&
	test "$(st r a~twin reason)" = "weaker than vanilla on an unflagged image: mount: ok, where vanilla'"'"'s is EUCLEAN" &&
	test_grep "^+mount: ok" r/cases/a~twin.failed && test "$(st r a)" = PASS
'
test_expect_success 'a twin unlike vanilla is a FAIL unless twin.VARIANT says what and why; one that explains nothing is a FAIL' '
	twin && guest wrongtwin patched r && test "$(st r a~twin)" = FAIL &&
	test "$(st r a~twin reason)" = "mount: EUCLEAN, expected ok on vanilla (an unflagged twin)" &&
	printf "# stricter: refused\nmount: EUCLEAN\n" >cases/a/twin.patched && judge 9.9 patched r vanilla &&
	test "$(st r a~twin)" = PASS && test "$(st r a~twin expect)" = a/twin.patched &&
	printf "mount: EUCLEAN\n" >cases/a/twin.patched && test_must_fail 2 judge 9.9 patched r vanilla 2>err &&
	test_grep "no .# . line says why a~twin differs" err &&
	printf "# no longer\nmount: EUCLEAN\n" >cases/a/twin.patched && guest ok patched r &&
	test "$(st r a~twin)" = FAIL && test_grep "explains a difference: remove it" r/cells.json
'
test_expect_success 'a weaker twin stays a FAIL whatever twin.VARIANT explains' '
	twin && FAKE=wrongtwin run-guest 9.9 vanilla kernel vanilla &&
	printf "# says ok\nmount: ok\n" >cases/a/twin.patched && guest ok patched r &&
	test "$(st r a~twin)" = FAIL && test_grep "weaker than vanilla" r/cells.json
'
test_expect_success 'a case that sets no shared_blocks is its own twin: its expect file cannot make a variant weaker' '
	twin && printf "mount: ok\nfiles: 1 bad (first: b: content differs)\n" >cases/b/expect.patched &&
	guest leak patched r && test "$(st r b)" = FAIL &&
	test "$(st r b reason)" = "weaker than vanilla on an unflagged image: files: 1 bad (first: b: content differs), where vanilla'"'"'s reads no metadata (no such line)"
'
test_expect_success 'a variant held to no vanilla boot of its image is ERROR, never a pass' '
	twin && FAKE=ok KIT_CASES="a b c" run-guest 9.9 vanilla kernel vanilla && guest ok patched r &&
	test "$(st r a~twin)" = ERROR && test_grep "no vanilla record of a~twin" r/cells.json &&
	test_must_fail 2 judge 9.9 patched r 2>err && test_grep "say where vanilla" err
'
unset KIT_CASES
# Last: the extra cases stay in the trash directory.
test_expect_success 'more cases than 26 disks take a second boot, none lost or blamed' '
	rm -rf cases images && setup && for c in d e f g h i j k l m n o p q r s t u v w x y z zz1 zz2 zz3; do
		mkdir -p cases/$c && echo "ro" >cases/$c/mount && : >cases/$c/recipe && printf "mount: ok\nkmsg~ hello $c\n" >cases/$c/expect &&
		: >images/$c.img && : >images/$c.img.manifest || return 1
	done &&
	guest ok vanilla r && test -f r/boot2.log && test ! -f r/boot3.log &&
	test "$(grep -c "	DONE	" r/boot.tsv)" -eq 29 &&
	test "$(st r a)$(st r zz3)" = PASSPASS &&
	test "$(python3 -c "import json; print(sum(c[\"status\"] == \"PASS\" for c in json.load(open(\"r/cells.json\"))[\"cells\"]))")" -eq 29
'
test_done
