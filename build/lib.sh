# SPDX-License-Identifier: GPL-2.0
# Shared by the build/ and test/ scripts: messages and timing.
# shellcheck shell=sh

prog=${0##*/}
: "${KIT_T0:=$(date +%s)}"

# die MESSAGE: one line naming the input and what to do, then exit 1.
# Under make, the same line goes to KIT_FAILURE_FILE: the report names it
# in the cells the failed step leaves without verdicts.
die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	if [ -n "${KIT_FAILURE_FILE:-}" ]; then
		mkdir -p "$(dirname "$KIT_FAILURE_FILE")" &&
			printf '%s: %s\n' "$prog" "$*" >"$KIT_FAILURE_FILE" || :
	fi
	exit 1
}

# stage SERIES WHAT: one progress line with the time since the run began.
stage() {
	now=$(date +%s)
	printf '[%5ss] %-5s %s\n' "$((now - KIT_T0))" "$1" "$2"
}

# since T: seconds elapsed since T, as "NNs".
since() {
	printf '%ss' "$(($(date +%s) - $1))"
}

# atomic_write DEST: copy stdin to DEST through a temporary name.
atomic_write() {
	tmp="$1.tmp.$$"
	cat >"$tmp" && mv -f "$tmp" "$1" || { rm -f "$tmp"; return 1; }
}

# matrix_get MATRIX SERIES KEY: one field of SERIES, as build/matrix (the
# one reader of matrix.yaml) reads it; empty when the file records none
# (or has no such series).  Any other failure (a bad matrix.yaml, a tool
# that does not build) stops the caller with build/matrix's message.
matrix_get() {
	mg_err=$(mktemp "${TMPDIR:-/tmp}/kit-matrix.XXXXXX")
	mg_rc=0
	"$(dirname "$0")/../build/matrix" -C "$(dirname "$1")" get "$1" "$2" "$3" 2>"$mg_err" || mg_rc=$?
	if [ "$mg_rc" -gt 1 ] && ! grep -q ": no series '" "$mg_err"; then
		cat "$mg_err" >&2
		rm -f "$mg_err"
		die "$1: cannot read it (see above)"
	fi
	rm -f "$mg_err"
}
