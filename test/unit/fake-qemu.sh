# SPDX-License-Identifier: GPL-2.0
# fake_qemu FILE: a stand-in QEMU at FILE: it takes QEMU's arguments as
# test/guest/guest-lib.sh gives them (rd: the initramfs, console: the file
# of chardev "con", ktap: that of chardev "ktap", where its stdout then
# goes; append: the kernel's command line; drives: the disks' files, in
# order; every argument a line in FILE.args) and goes on
# with the body on stdin, the guest's part.
# shellcheck shell=sh
fake_qemu() {
	{
		cat <<-'Q'
		#!/bin/sh
		printf "%s\n" "$@" >"$0.args"
		while [ $# -gt 0 ]; do
			case $1 in
			-initrd) rd=$2 ;;
			-drive) d=${2#file=}; drives="${drives:-} ${d%%,*}" ;;
			-chardev) case $2 in
				file,id=con,path=*) console=${2#file,id=con,path=} ;;
				file,id=ktap,path=*) ktap=${2#file,id=ktap,path=} ;;
				esac ;;
			-append) append=$2 ;;
			esac
			shift
		done
		exec >"$ktap"
		Q
		cat
	} >"$1" && chmod +x "$1"
}
