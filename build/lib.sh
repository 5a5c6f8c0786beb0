# SPDX-License-Identifier: GPL-2.0
# Shared by the build/ and test/ scripts: messages and timing.  A program
# sets top, the kit's checkout, before it sources this file; one in a room
# (build/kernel/kernel, test/guest/run-guest, ...) finds it two folders up:
#   top=$(cd "$(dirname "$0")/../.." && pwd)
#   . "$top/build/lib.sh"
# shellcheck shell=sh

: "${top:?is not set: a program sets the kit's folder as top before it sources build/lib.sh}"

prog=${0##*/}
: "${KIT_T0:=$(date +%s)}"

# help_asked "$@": when the first argument is -h or --help, print the
# program's head comment (what it does, its usage, options and exit
# status: the lines after the SPDX line, up to the first that is not a
# comment) and exit 0.
help_asked() {
	case ${1:-} in
	-h | --help)
		sed -n '2,/^[^#]/p' "$0" | sed '/^# SPDX/d; /^[^#]/d; s/^# \{0,1\}//'
		exit 0 ;;
	esac
}

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
	"$top/build/matrix" -C "$(dirname "$1")" get "$1" "$2" "$3" 2>"$mg_err" || mg_rc=$?
	if [ "$mg_rc" -gt 1 ] && ! grep -q ": no series '" "$mg_err"; then
		cat "$mg_err" >&2
		rm -f "$mg_err"
		die "$1: cannot read it (see above)"
	fi
	rm -f "$mg_err"
}

# series_entries LIST: the entries of a stack's series file, one a line:
# the patch the file lists, then its forms for other trees
# (forms/RELEASES/PATCH), separated by spaces, of which a tree takes the
# first that applies at zero fuzz.  The file itself is a plain quilt
# series.  build/matrix is the one reader of the format
# (build/kernel/kernel, apply, regen, review and the stack hash all read it
# through it); a bad file fails with its message.
series_entries() {
	"$top/build/matrix" series "$1"
}

# stack_files STACK PATCHES: the files PATCHES (in STACK) change, one a line.
stack_files() {
	for sf_p in $2; do
		sed -n 's|^+++ [^/]*/\([^	 ]*\).*|\1|p' "$1/$sf_p"
	done | sort -u
}

# first_fit DIR STACK ALTERNATIVES: the first of ALTERNATIVES (patches in
# STACK) that applies to the tree DIR at zero fuzz, offsets allowed
# (build/first-fit, the one rule of it); prints nothing and fails when
# none does.
first_fit() {
	# shellcheck disable=SC2086 # (ALTERNATIVES: words, split on purpose)
	"$top/build/first-fit" "$1" "$2" $3
}

# resolve_series STACK ENTRIES TREE: the patch TREE takes for each entry,
# one a line, as quilt is to push them: the first alternative that applies
# at zero fuzz with the entries before it applied, judged on a scratch copy
# of the files the stack changes (TREE is only read).  An entry none of
# whose alternatives applies gives its first, so pushing it fails and names
# it.
resolve_series() {
	rs_dir=$(mktemp -d "${TMPDIR:-/tmp}/kit-resolve.XXXXXX") || return 1
	for rs_f in $(stack_files "$1" "$2"); do
		[ -f "$3/$rs_f" ] || continue
		mkdir -p "$rs_dir/t/$(dirname "$rs_f")" && cp "$3/$rs_f" "$rs_dir/t/$rs_f" ||
			{ rm -rf "$rs_dir"; return 1; }
	done
	echo "$2" | while read -r rs_e; do
		rs_p=$(first_fit "$rs_dir/t" "$1" "$rs_e") || rs_p=${rs_e%% *}
		patch -d "$rs_dir/t" -p1 -F0 -s -f -r - --no-backup-if-mismatch <"$1/$rs_p" >/dev/null 2>&1 || :
		echo "$rs_p"
	done
	rm -rf "$rs_dir"
}

# patch_header PATCH: the message and tags of a patch, up to its "---".
patch_header() { sed -n '1,/^---$/p' "$1"; }

# original_of PATCH UPSTREAM: which original (in UPSTREAM, the kit's
# common/upstream) a backport comes from: "commit SHA upstream." names one
# by its hash, "Original: common/upstream/FILE" by its file.  Prints
# nothing when it names none.
original_of() {
	oo_sha=$(patch_header "$1" | sed -n 's/^commit \([0-9a-f]\{12,40\}\) upstream\.$/\1/p' | head -1)
	if [ -n "$oo_sha" ]; then
		for oo_o in "$2"/*.patch; do
			grep -q "^commit $oo_sha" "$oo_o" 2>/dev/null && { echo "$oo_o"; return; }
			case ${oo_o##*/} in *"$(echo "$oo_sha" | cut -c1-12)"*) echo "$oo_o"; return ;; esac
		done
		return
	fi
	oo_f=$(patch_header "$1" | sed -n 's|.*Original: *common/upstream/\([^ ]*\).*|\1|p' | head -1)
	[ -n "$oo_f" ] && [ -f "$2/$oo_f" ] && echo "$2/$oo_f"
	return 0
}

# kbuild TREE OBJDIR ARGS...: the kernel's make out of TREE into OBJDIR, its
# build stamp fixed (same sources, same image: timestamp, user, host and
# the build counter) and gcc through ccache ($KIT_CACHE/ccache, paths
# relative to TREE: one tree's objects serve another copy of it), save
# assembler sources, which build/kernel/kcc (run as KIT_CACHE/bin/kcc)
# compiles without it (an .incbin is no dependency ccache sees).  Without
# a remote store ccache runs in depend mode: it keys a result by the
# dependency file gcc writes (kbuild's -Wp,-MMD) instead of running the
# preprocessor first, so a miss costs one compile, not a preprocessing and
# a compile (fs/ext4/ of 6.12 cold on 2 cores: 25 s, as plain gcc, against
# 39 s), and it still finds what the default mode stored.  With a remote
# store it keeps the default mode: ccache 4.7.5 in depend mode finds no
# result in a remote store for a runner with an empty local cache
# (test/unit/farm.t).  From the
# environment, all unset by default:
#   KIT_DISTCC_HOSTS     compile on a distcc farm (DISTCC_HOSTS syntax):
#                        ccache's misses go to distcc, which falls back to
#                        compiling here when the farm fails
#   KIT_CCACHE_REMOTE    ccache's remote storage shared between machines,
#                        in ccache's remote_storage form: a redis server, or an
#                        HTTP store and its path
#   KIT_CCACHE_STATSLOG  a file ccache logs this build's lookups to
#                        (ccache_line reads it)
#   KIT_ARCH, KIT_CROSS  kbuild's ARCH= and CROSS_COMPILE= (matrix.yaml's
#                        arches; x86_64 and none, natively, when unset)
kbuild() (
	kb_tree=$1 kb_obj=$2
	shift 2
	export CCACHE_DIR="${KIT_CACHE:?}/ccache" CCACHE_BASEDIR="$kb_tree" CCACHE_NOHASHDIR=1
	# kcc is run from the cache, so the CC every object's command names is
	# the same for every checkout on one cache (a checkout's own path there
	# would rebuild every object in another).
	kb_cc=$KIT_CACHE/bin/kcc
	if ! cmp -s "${top:?}/build/kernel/kcc" "$kb_cc"; then
		mkdir -p "$KIT_CACHE/bin" && cp "$top/build/kernel/kcc" "$kb_cc.$$" &&
			chmod +x "$kb_cc.$$" && mv -f "$kb_cc.$$" "$kb_cc" || exit 1
	fi
	if [ -n "${KIT_DISTCC_HOSTS:-}" ]; then
		export CCACHE_PREFIX=distcc DISTCC_HOSTS="$KIT_DISTCC_HOSTS"
		export DISTCC_DIR="${DISTCC_DIR:-$KIT_CACHE/distcc}"
		mkdir -p "$DISTCC_DIR"
	fi
	if [ -n "${KIT_CCACHE_REMOTE:-}" ]; then
		export CCACHE_REMOTE_STORAGE="$KIT_CCACHE_REMOTE"
	else
		export CCACHE_DEPEND=1
	fi
	[ -z "${KIT_CCACHE_STATSLOG:-}" ] || export CCACHE_STATSLOG="$KIT_CCACHE_STATSLOG"
	exec make -C "$kb_tree" O="$kb_obj" ARCH="${KIT_ARCH:-x86_64}" CROSS_COMPILE="${KIT_CROSS:-}" CC="$kb_cc ${KIT_CROSS:-}gcc" \
		KBUILD_BUILD_TIMESTAMP=@0 KBUILD_BUILD_USER=kit KBUILD_BUILD_HOST=kit KBUILD_BUILD_VERSION=1 "$@"
)

# kbuild_jobs: how many compiles a build runs at once: KIT_JOBS if set,
# else what the distcc farm takes (distcc -j: the sum of its hosts'
# limits), else (no farm, or no distcc here) this machine's processors.
kbuild_jobs() {
	if [ -n "${KIT_JOBS:-}" ]; then
		echo "$KIT_JOBS"
	elif [ -n "${KIT_DISTCC_HOSTS:-}" ] && kj_n=$(DISTCC_HOSTS=$KIT_DISTCC_HOSTS distcc -j 2>/dev/null) && [ -n "$kj_n" ]; then
		echo "$kj_n"
	else
		nproc
	fi
}

# kbuild_jflag: the -j a kernel build is given: none when make's
# jobserver is there to share (make matrix's JOBS: the build takes the
# slots the run's other steps leave free), else -j and kbuild_jobs.  A
# farm or KIT_JOBS always says its own -j.  A jobserver named in
# MAKEFLAGS whose pipe this process was not given (a recipe line make
# does not treat as its own) does not count: make would build one file
# at a time.
kbuild_jflag() {
	if [ -z "${KIT_JOBS:-}" ] && [ -z "${KIT_DISTCC_HOSTS:-}" ]; then
		kj_fds=$(printf '%s\n' ${MAKEFLAGS:-} | sed -n 's/^--jobserver-\(auth\|fds\)=\([0-9][0-9]*\),\([0-9][0-9]*\)$/\2 \3/p' | tail -1)
		if [ -n "$kj_fds" ] && [ -e "/proc/$$/fd/${kj_fds% *}" ] && [ -e "/proc/$$/fd/${kj_fds#* }" ]; then
			return 0
		fi
	fi
	echo "-j$(kbuild_jobs)"
}

# farm_note: " on distcc HOSTS, ccache remote URL", for a progress line.
farm_note() {
	[ -z "${KIT_DISTCC_HOSTS:-}" ] || printf ' on distcc %s' "$KIT_DISTCC_HOSTS"
	[ -z "${KIT_CCACHE_REMOTE:-}" ] || printf ', ccache remote %s' "${KIT_CCACHE_REMOTE%%|*}"
}

# ccache_line STATSLOG: what ccache did for one build, from its stats log:
# "ccache 812/830 hits (97%), remote 790"; nothing for a build that
# compiled nothing.
ccache_line() {
	[ -s "$1" ] || return 0
	grep -v '^#' "$1" | awk '
		$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { hit++ }
		$1 == "cache_miss" { miss++ }
		$1 == "remote_storage_hit" { remote++ }
		END {
			n = hit + miss
			if (!n) exit
			printf "ccache %d/%d hits (%d%%)", hit, n, 100 * hit / n
			if (remote) printf ", remote %d", remote
			printf "\n"
		}'
}

# debian_config DEB [MEMBER]: the config of one of Debian's kernels out of
# a linux-config-X.Y package, on stdout: MEMBER's (config.arm64_none_arm64:
# matrix.yaml's arches say each arch's), the standard amd64 kernel's
# (config.amd64_none_amd64) when not given.
debian_config() {
	dpkg-deb --fsys-tarfile "$1" | tar -xO --wildcards "*/${2:-config.amd64_none_amd64}.xz" | xz -d
}
