# SPDX-License-Identifier: GPL-2.0
# Shared by test/guest/run-guest (the image cases) and test/guest/run-corpus (the
# e2fsprogs images): one bounded boot, the guest's KTAP split per item, and
# what each planned item came to.  Callers set: out (the output folder),
# accel, limit, stall, mem, series, variant and boot (the boot's
# number).  The arch's emulator and channels come from the environment,
# as the plan gives them from matrix.yaml's arches (a PC's in brackets);
# each must be set, and the emulator installed; a caller without one stops
# here, named:
#   KIT_QEMU          the emulator and its machine (qemu-system-x86_64)
#   KIT_CONSOLE       the kernel's console device (ttyS0)
#   KIT_CONSOLE_QEMU  QEMU's arguments that connect it to chardev "con",
#                     the boot log (-serial chardev:con)
#   KIT_KTAP          the device the guest writes its KTAP to (ttyS1)
#   KIT_KTAP_QEMU     QEMU's arguments that connect it to chardev "ktap",
#                     the KTAP file (-serial chardev:ktap)
# (Each a word or words of letters, digits and ._-=,:/+, which
# build/matrix checks: they are split on spaces, never quoted.)
# shellcheck shell=sh

for gl_v in KIT_QEMU KIT_CONSOLE KIT_CONSOLE_QEMU KIT_KTAP KIT_KTAP_QEMU; do
	eval "gl_set=\${$gl_v:-}"
	[ -n "$gl_set" ] || {
		echo "${prog:-guest-lib}: $gl_v is not set: the arch's emulator and channels come from the plan (make matrix, or matrix.yaml's arches by hand)" >&2
		exit 2
	}
done
gl_q=${KIT_QEMU%% *}
command -v "$gl_q" >/dev/null || {
	echo "${prog:-guest-lib}: $gl_q, this arch's emulator (KIT_QEMU), is not installed: make matrix installs it with the arch's packages (matrix.yaml's arches)" >&2
	exit 2
}

# The items a boot that died before its first case left to boot once more,
# and how many boots were such a second one.
st_again= retries=0

# guest_boot KERNEL INITRD LOG KTAP [QEMU ARGS...]: one boot, bounded by
# $limit seconds in all and by $stall seconds without a new line from the
# guest or the kernel (a hung mount costs that, not the whole limit).
# Sets rc: QEMU's exit, 124 when a bound stopped it.
guest_boot() {
	gb_kernel=$1 gb_initrd=$2 gb_log=$3 gb_ktap=$4
	shift 4
	: >"$gb_ktap"
	: >"$gb_log"
	# The console (ttyS0 on a PC) carries the kernel's messages, the KTAP
	# device (ttyS1) the guest's report; the guest program finds the
	# latter in its environment (KIT_KTAP=, a word of the command line).
	# no_timer_check: an x86 kernel checks at boot that its timer ticks, by
	# counting the ticks that arrive in a delay of ten; a TCG guest on a
	# loaded host gets too few of them in that time and the kernel panics
	# ("IO-APIC + timer doesn't work!") before init.  KVM guests skip the
	# check the same way; other architectures ignore the parameter.  The
	# TSC and the delay loop are left alone: under TCG the guest's TSC and
	# its timers both follow the host's clock, so load does not make them
	# disagree, and the kernel takes its delay loop from the TSC without
	# timing a loop of its own; nothing else at boot bounds how fast a
	# guest must run.
	# KIT_BOOT_GATE, a lock file another program holds while its own work
	# must come first (make check's unit tests, whose timeouts a TCG guest
	# beside them would stretch): the boot waits for it, and its bounds
	# start after the wait.
	[ -z "${KIT_BOOT_GATE:-}" ] || flock -s "$KIT_BOOT_GATE" true
	# shellcheck disable=SC2086
	timeout -k 5 "$limit" $KIT_QEMU -accel "$accel" -m "${mem:-256M}" -smp 1 -nodefaults -display none \
		-chardev "file,id=con,path=$gb_log" $KIT_CONSOLE_QEMU \
		-chardev "file,id=ktap,path=$gb_ktap" $KIT_KTAP_QEMU -monitor none -no-reboot \
		-kernel "$gb_kernel" -initrd "$gb_initrd" \
		-append "console=$KIT_CONSOLE KIT_KTAP=$KIT_KTAP panic=-1 quiet no_timer_check" "$@" </dev/null >"$gb_log.qemu" 2>&1 &
	gb_pid=$!
	# Watched five times a second: a boot that ends costs at most a fifth
	# of a second more; gb_quiet counts fifths without output.
	gb_last= gb_quiet=0 gb_stalled=
	while kill -0 "$gb_pid" 2>/dev/null; do
		sleep 0.2
		gb_now=$(cat "$gb_ktap" "$gb_log" | wc -c)
		if [ "$gb_now" = "$gb_last" ]; then
			gb_quiet=$((gb_quiet + 1))
		else
			gb_quiet=0 gb_last=$gb_now
		fi
		if [ "$gb_quiet" -ge $((stall * 5)) ]; then
			gb_stalled=y
			kill "$gb_pid" 2>/dev/null || :
			break
		fi
	done
	rc=0
	wait "$gb_pid" || rc=$?
	[ -z "$gb_stalled" ] || rc=124
	[ -s "$gb_log.qemu" ] || rm -f "$gb_log.qemu"
	[ -s "$gb_ktap" ] || cp "$gb_log" "$gb_ktap"
}

# written IMAGE COPY: which filesystem blocks of IMAGE's writable COPY a
# boot changed: "none", or "N blocks: B B ..." (the first 16, then "...");
# "unknown (...)" when the two cannot be compared, never "none".  The
# block size is the image's own (its superblock's s_log_block_size).
written() {
	if [ ! -f "$1" ] || [ ! -f "$2" ] || [ "$(wc -c <"$1")" != "$(wc -c <"$2")" ]; then
		echo "unknown (no image, no copy, or their sizes differ)"
		return 0
	fi
	wr_log=$(od -An -tu4 -j 1048 -N 4 "$1" | tr -d ' ')
	wr_bs=$((1024 << ${wr_log:-0}))
	{ cmp -l "$1" "$2" 2>/dev/null; echo "rc $?"; } | awk -v bs="$wr_bs" '
		$1 == "rc" { rc = $2; next }
		{ b = int(($1 - 1) / bs); if (b != last || n == 0) { if (n < 16) list = list " " b; n++; last = b } }
		END {
			if (rc > 1) print "unknown (cmp failed)"
			else if (n == 0) print "none"
			else printf "%d block%s:%s%s\n", n, (n == 1 ? "" : "s"), list, (n > 16 ? " ..." : "")
		}'
}

# tsv_text TEXT: TEXT as one field of a TSV record: tab, carriage return
# and newline written as \t, \r and \n, any other control character as
# \xHH.  What the guest and the kernel print is data from an untrusted
# source; a record is split on newlines and tabs alone.
tsv_text() {
	printf '%s' "$1" | LC_ALL=C awk '
		BEGIN {
			for (i = 1; i < 32; i++)
				esc[sprintf("%c", i)] = sprintf("\\x%02x", i)
			esc[sprintf("%c", 127)] = "\\x7f"
			esc["\t"] = "\\t"
			esc["\r"] = "\\r"
		}
		{
			s = ""
			for (i = 1; i <= length($0); i++) {
				ch = substr($0, i, 1)
				s = s ((ch in esc) ? esc[ch] : ch)
			}
			printf "%s%s", (NR > 1 ? "\\n" : ""), s
		}'
}

# record ITEM STATUS DETAIL: one line of OUT/status.tsv (ITEM, status,
# detail, the boot's number), written once; the detail is often the
# guest's or the kernel's words, so it goes through tsv_text.
record() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$(tsv_text "$3")" "$boot" >>"$out/status.tsv"
}

# console_why LOG: the kernel's last words worth a reason (its first panic,
# BUG or Oops line), without the console's carriage return.
console_why() {
	LC_ALL=C grep -a -E 'Kernel panic|BUG:|Oops' "$1" 2>/dev/null | head -1 | LC_ALL=C sed 's/\r$//' | cut -c1-160
}

# split_ktap KTAP: OUT/cases/ITEM.{out,kmsg,ktap} from the guest's report
# (lines the parser does not know are ignored, as KTAP asks).  Kernel
# messages after an item's verdict ("# after N ITEM") go on its .kmsg;
# trouble among them ("# trouble after N ITEM: LINE") is its .late.
split_ktap() {
	tr -d '\r' <"$1" | awk -v dir="$out/cases" '
		/^# case [0-9]+ / { c = $4; printf "" >(dir "/" c ".out"); printf "" >(dir "/" c ".kmsg"); next }
		/^# after [0-9]+ / { c = $4; next }
		/^# trouble after [0-9]+ / { t = $5; sub(/:$/, "", t); sub(/^# trouble after [0-9]+ [^ ]+ /, ""); print >(dir "/" t ".late"); next }
		c != "" && /^# out: / { sub(/^# out: /, ""); print >>(dir "/" c ".out"); next }
		c != "" && /^# kmsg: / { sub(/^# kmsg: /, ""); print >>(dir "/" c ".kmsg"); next }
		/^(not )?ok [0-9]+ / { n = ($1 == "not") ? $4 : $3; print >(dir "/" n ".ktap"); c = ""; next }'
}

# settle REMAINING PLANNED LOG KTAP: record what each planned item of the
# boot came to; the first without a verdict is the culprit (TIMEOUT or
# ERROR), the rest go to the next boot.  Sets next (items still to run).
#
# A boot that ended before its first case started (no KTAP from the
# guest, or no "# case" line of it and no verdict) is no item's doing, and
# a loaded host can stop a kernel that boots well: the first time, nothing
# is recorded and the same items boot once more (next is REMAINING); the
# second time every planned item is recorded, the first with the reason.
# A guest that stopped after a verdict, before the next case started, is
# the trouble of the case before, as its late kernel messages are: that
# case is ERROR or TIMEOUT, and the next goes to the next boot.
settle() {
	st_started=" $(LC_ALL=C tr -d '\r' <"$4" | LC_ALL=C sed -n 's/^# case [0-9][0-9]* \([^ ]*\)$/\1/p' | tr '\n' ' ')"
	st_why=$(tsv_text "$(console_why "$3")")
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		st_state=TIMEOUT st_bound="$limit seconds"
		[ -z "$gb_stalled" ] || st_bound="$stall seconds without output"
	else
		st_state=ERROR st_bound=
	fi
	# The first planned item without a verdict, and the one before it.
	st_culprit= st_prev= st_after= st_never=
	for st_c in $1; do
		case $2 in *" $st_c "*) ;; *) continue ;; esac
		[ -f "$out/cases/$st_c.ktap" ] || { st_culprit=$st_c; break; }
		st_prev=$st_c
	done
	case $st_culprit:$st_started in
	:* | *" $st_culprit "*) ;;
	*)
		if [ -n "$st_prev" ]; then
			st_after=$st_prev st_culprit=
		elif [ "$st_again" != "$1" ]; then
			st_again=$1 next=$1 retries=$((retries + 1))
			stage "$series" "$variant: boot $boot died before its first case${st_why:+ ($st_why)}; its $(echo $2 | wc -w) items boot once more"
			return 0
		else
			st_never=y
		fi
		;;
	esac
	next= st_past=
	for st_c in $1; do
		case $2 in
		*" $st_c "*) ;;
		*) next="$next $st_c"; continue ;;
		esac
		if [ -n "$st_past" ]; then
			if [ -n "$st_never" ]; then
				record "$st_c" "$st_state" "guest never started a case, in two boots (log: $3)"
			else
				next="$next $st_c"
			fi
		elif [ "$st_c" = "$st_culprit" ]; then
			st_past=y
			if [ "$st_state" = TIMEOUT ]; then
				record "$st_c" TIMEOUT "# TIMEOUT $st_bound${st_why:+: $st_why} (log: $3)"
			else
				record "$st_c" ERROR "guest stopped without a verdict (qemu exit $rc)${st_why:+: $st_why} (log: $3)"
			fi
		elif [ "$st_c" = "$st_after" ]; then
			st_past=y
			st_own=
			if grep -q '^not ok' "$out/cases/$st_c.ktap"; then
				st_own="$(head -1 "$out/cases/$st_c.ktap" | sed 's/.*# ERROR //'); then "
			fi
			if [ "$st_state" = TIMEOUT ]; then
				record "$st_c" TIMEOUT "$st_own# TIMEOUT $st_bound after its verdict, before the next case started${st_why:+: $st_why} (log: $3)"
			else
				record "$st_c" ERROR "${st_own}guest stopped after its verdict, before the next case started (qemu exit $rc)${st_why:+: $st_why} (log: $3)"
			fi
		elif grep -q '^not ok' "$out/cases/$st_c.ktap"; then
			record "$st_c" ERROR "$(head -1 "$out/cases/$st_c.ktap" | sed 's/.*# ERROR //')"
		elif [ -s "$out/cases/$st_c.late" ]; then
			record "$st_c" ERROR "kernel trouble after its verdict: $(head -1 "$out/cases/$st_c.late")"
		else
			record "$st_c" DONE -
		fi
	done
}

# boot_record ITEMS KEY VALUE [KEY VALUE]...: OUT/boot.tsv, for
# test/judge/judge, from what each item came to (OUT/status.tsv): a header
# ("#<TAB>image<TAB>$kernel", then "#<TAB>KEY<TAB>VALUE" a pair: what the
# boot was of, its keys among them), then ITEM, state, detail, boot log a
# line.  Written last and whole, so a boot.tsv says the boot is over.
boot_record() {
	br_items=$1
	shift
	{
		printf '#\timage\t%s\n' "$kernel"
		while [ $# -ge 2 ]; do
			printf '#\t%s\t%s\n' "$1" "$2"
			shift 2
		done
		for br_c in $br_items; do
			touch "$out/cases/$br_c.out" "$out/cases/$br_c.kmsg"
			awk -F'\t' -v c="$br_c" -v out="$out" '$1 == c { printf "%s\t%s\t%s\t%s/boot%s.log\n", $1, $2, $3, out, $4; exit }' "$out/status.tsv"
		done
	} >"$out/boot.tsv.tmp"
	mv -f "$out/boot.tsv.tmp" "$out/boot.tsv"
}
