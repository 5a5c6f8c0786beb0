# SPDX-License-Identifier: GPL-2.0
# Shared by the build/ and test/ scripts: messages and timing.
# shellcheck shell=sh

prog=${0##*/}
: "${KIT_T0:=$(date +%s)}"

# die MESSAGE: one line naming the input and what to do, then exit 1.
die() {
	printf '%s: %s\n' "$prog" "$*" >&2
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

# matrix_verified MATRIX SERIES: the release SERIES' stack was verified on,
# as matrix.yaml records it (empty when it records none).
matrix_verified() {
	awk -v s="$2" '/^  - name:/ { on = ($0 ~ "\"" s "\"") } on && /verified:/ { print $2; exit }' "$1" 2>/dev/null || :
}
