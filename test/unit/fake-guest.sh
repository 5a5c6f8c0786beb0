# SPDX-License-Identifier: GPL-2.0
# A stand-in for QEMU and the guest, for tests of the runner and reports:
# it reads the plan from the initramfs and answers as $FAKE says: ok,
# silent (never answers), panic, hang, trouble, wrong, leak, reval or
# revalleak (in case b); bootpanic (the first boot panics before the
# guest starts, as the x86 timer check does on a loaded host),
# bootpanic-always (every boot does), crlf (carriage returns and tabs in
# the console and the report; case a has kernel trouble, case b dies),
# afterpanic (the kernel panics after case a's verdict), scribble (a
# byte written to case b's disk).
# shellcheck shell=sh
export KIT_CACHE="$trash/cache" KIT_CASES_DIR="$trash/cases" KIT_IMAGES="$trash/images"
export KIT_QEMU="$trash/fake-qemu" KIT_GUEST_INIT="$trash/init" KIT_GUEST_TIMEOUT=3
export KIT_MATRIX="$trash/m.yaml"
pc_guest
. "$TOP/test/unit/fake-qemu.sh"

# A matrix of one series, 9.9, for the judge's expect lookups.
fake_matrix() {
	mkdir -p versions/9.9 && echo "p.patch" >versions/9.9/series && : >versions/9.9/p.patch &&
	printf "p.patch\nq.patch\n" >versions/9.9/series.hardened && : >versions/9.9/q.patch &&
	cat >m.yaml <<-Y
	series:
	  - name: "9.9"
	    source:
	      tree: {env: KIT_SRC_9_9}
	    stack: versions/9.9
	    fixes: {A: upstream v5.9-rc2, B: stack}
	Y
}

# guest FAKE VARIANT DIR: boot the stand-in, then judge what it said.
# (A variant other than vanilla is judged against vanilla's boot beside
# its folder, as make judges it; one the guest "ok" makes when there is none.)
guest() {
	set -- "$1" "$2" "$3" "$(dirname "$3")/vanilla"
	case $2 in
	vanilla) set -- "$1" "$2" "$3" ;;
	*) [ -f "$4/boot.tsv" ] || FAKE=ok run-guest 9.9 vanilla kernel "$4" >/dev/null || return 1 ;;
	esac
	FAKE=$1 run-guest 9.9 "$2" kernel "$3" && judge 9.9 "$2" "$3" ${4:+"$4"}
}

# booted DIR: guest ok vanilla DIR/vanilla and guest wrong patched
# DIR/patched, the two boots most report tests read.  They are made once
# for each set of their inputs (the kernel, the guest program, the
# stand-in QEMU, the matrix, the keys beside them (source.key, init.key),
# the stacks, the cases, the images and the guest's settings) and copied
# from there after that.
booted() {
	in=$({ cat kernel init fake-qemu m.yaml && env | grep -E "^(KIT_|FAKE=)" | LC_ALL=C sort &&
		{ find . -maxdepth 1 -name "*.key" -type f -print0 && find versions cases images -type f -print0; } |
		LC_ALL=C sort -z | xargs -0 sha256sum; } | sha256sum) &&
	memo=$trash/boots/${in%% *} &&
	if [ -d "$memo" ]; then
		cp -pR "$memo/." "$1/"
	else
		guest ok vanilla "$1/vanilla" >/dev/null && guest wrong patched "$1/patched" >/dev/null &&
		mkdir -p "$memo" && cp -pR "$1/." "$memo/"
	fi
}

# st DIR CASE [FIELD]: a field (status by default) of one judged cell.
st() {
	python3 -c "import json,sys; print(next(c[sys.argv[3]] for c in json.load(open(sys.argv[1] + \"/cells.json\"))[\"cells\"] if c[\"case\"] == sys.argv[2]))" "$1" "$2" "${3:-status}"
}

setup() {
	fake_matrix && mkdir -p cases images cache && : >init && chmod +x init && touch kernel && rm -rf booted vanilla &&
	key set prog >init.key &&
	for c in a b c; do
		mkdir -p cases/$c && rm -f cases/$c/expect.* && echo "ro" >cases/$c/mount && : >cases/$c/recipe &&
		printf "mount: ok\nkmsg~ hello $c\n" >cases/$c/expect &&
		: >images/$c.img && : >images/$c.img.manifest && key made $c >images/$c.img.key || return 1
	done
	# The stand-in reads the plan from the initramfs, as the real guest does.
	# What the guest says goes to the second serial port, as in the real one.
	fake_qemu fake-qemu <<-'Q'
	plan=$(cpio -i --quiet --to-stdout plan <"$rd")
	[ "$FAKE" = silent ] && exec sleep 60
	case $FAKE in
	bootpanic*)
		if [ "$FAKE" = bootpanic-always ] || [ ! -e booted ]; then
			: >booted
			printf "Kernel panic - not syncing: IO-APIC + timer doesn't work!  Boot with apic=debug\r\n" >"$console"
			exit 0
		fi ;;
	esac
	echo "KTAP version 1"
	# scribble: a byte written into block 5 of case b's disk.
	if [ "$FAKE" = scribble ]; then
		for d in $drives; do
			case $d in */b.img) printf X | dd of="$d" bs=1 seek=5121 conv=notrunc 2>/dev/null ;; esac
		done
	fi
	n=0
	echo "$plan" | while read -r dev c mode; do
		n=$((n + 1))
		echo "# case $n $c"
		case "$FAKE:$c" in
		hang:b) exec sleep 60 ;;
		panic:b) echo "Kernel panic - not syncing: Attempted to kill init!" >"$console"; exit 0 ;;
		trouble:b) echo "# out: mount: ok"; echo "# kmsg: hello b"; echo "not ok $n b # ERROR kernel trouble: WARNING: at fs/ext4"; continue ;;
		wrong:b) echo "# out: mount: EUCLEAN"; echo "# kmsg: hello b"; echo "ok $n b"; continue ;;
		wrongtwin:a~twin) echo "# out: mount: EUCLEAN"; echo "# kmsg: hello a~twin"; echo "ok $n a~twin"; continue ;;
		crlf:a) printf "# out: mount: ok\r\n# kmsg: hello a\r\nnot ok $n a # ERROR kernel trouble: WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:10\text4_fill_super\r\n"; continue ;;
		crlf:b)
			printf "# out: mount: ok\r\n# kmsg: \thello b\r\n"
			printf "BUG: kernel NULL pointer dereference, address: 0\tRIP: ext4_fill_super\r\nKernel panic - not syncing: Fatal exception\r\n" >"$console"
			exit 0 ;;
		afterpanic:a)
			echo "# out: mount: ok"; echo "# kmsg: hello a"; echo "ok $n a"
			echo "Kernel panic - not syncing: Fatal exception in interrupt" >"$console"
			exit 0 ;;
		leak:b) echo "# out: mount: ok"; echo "# out: files: 1 bad (first: b: content differs)"; echo "# kmsg: hello b"; echo "ok $n b"; continue ;;
		reval:b | revalleak:b)
			echo "# out: mount: ok"; echo "# out: files: 1 bad (first: b: content differs)"; echo "# out: revalidate: ok"
			if [ "$FAKE" = reval ]; then echo "# out: files: 1 bad (first: b: EUCLEAN)"; else echo "# out: files: 1 bad (first: b: content differs)"; fi
			echo "# kmsg: hello b"; echo "ok $n b"; continue ;;
		esac
		echo "# out: mount: ok"; echo "some kernel line"; echo "# kmsg: hello $c"; echo "ok $n $c"
	done
	Q
}
