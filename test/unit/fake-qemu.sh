# SPDX-License-Identifier: GPL-2.0
# fake_qemu FILE: a stand-in QEMU at FILE: it takes QEMU's arguments as
# test/guest/guest-lib.sh gives them (rd: the initramfs, console: the first
# serial file, ktap: the second, where its stdout then goes; drives: the
# disks' files, in order) and goes on
# with the body on stdin, the guest's part.
# shellcheck shell=sh
fake_qemu() {
	{
		cat <<-'Q'
		#!/bin/sh
		n=0
		while [ $# -gt 0 ]; do
			case $1 in
			-initrd) rd=$2 ;;
			-drive) d=${2#file=}; drives="${drives:-} ${d%%,*}" ;;
			-serial) n=$((n + 1)); [ $n -eq 1 ] && console=${2#file:}; [ $n -eq 2 ] && ktap=${2#file:} ;;
			esac
			shift
		done
		exec >"$ktap"
		Q
		cat
	} >"$1" && chmod +x "$1"
}
