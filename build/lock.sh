# SPDX-License-Identifier: GPL-2.0
# The lock file (matrix.lock): its one reader and writer, for the scripts
# that fetch what it pins (fetch-debian, fetch-corpus, bump).  Sourced after
# lib.sh; kept apart from it, which keys every kernel, so that a change
# here rebuilds none.
# shellcheck shell=sh

# The lock: "NAME VERSION SHA256" a line, sorted, the hash each pinned
# download must have.  A file is checked on every use, never only when
# downloaded (lock_check); every writer goes through lock_edit.

# lock_edit LOCK AWK-ARGS...: rewrite LOCK through awk (AWK-ARGS: options
# and program; LOCK's lines in, the new lines out, sorted), one writer at a
# time and whole or not at all.  Every writer (fetch-debian under make -j,
# fetch-corpus, bump) takes the same flock, on LOCK's folder: the file
# itself is replaced by a rename, so a lock on it would be a lock on a file
# that is gone.
lock_edit() (
	le_lock=$1
	shift
	le_in=$le_lock
	[ -e "$le_in" ] || le_in=/dev/null
	le_tmp=$le_lock.tmp.$$
	exec 8<"$(dirname "$le_lock")" && flock 8 &&
		awk "$@" "$le_in" >"$le_tmp" && LC_ALL=C sort -u -o "$le_tmp" "$le_tmp" &&
		mv -f "$le_tmp" "$le_lock" || { rm -f "$le_tmp"; exit 1; }
)

# lock_get LOCK NAME VERSION: the sha256 LOCK pins NAME VERSION to;
# nothing when it has no such line (or there is no LOCK).
lock_get() {
	awk -v p="$2" -v v="$3" '$1 == p && $2 == v { print $3; exit }' "$1" 2>/dev/null || :
}

# lock_check LOCK NAME VERSION FILE [AS]: FILE (AS in messages) is what
# LOCK pins NAME VERSION to.  0: it is, or LOCK had no line for NAME
# VERSION and now has FILE's hash (trust on first use: commit it).  1: it
# is not; lock_msg says so in one line, the file, the expected and the
# actual hash.  Whoever gets 1 deletes FILE and fetches it once more the
# way it fetched it first, checks again, and on a second 1 stops with
# lock_msg.
lock_check() {
	lc_sum=$(sha256sum <"$4" | cut -d' ' -f1) && [ -n "$lc_sum" ] || die "${5:-$4}: cannot read it"
	lc_known=$(lock_get "$1" "$2" "$3")
	if [ -z "$lc_known" ]; then
		# (One line a version even when two fetches record at once.)
		lock_edit "$1" -v p="$2" -v v="$3" -v s="$lc_sum" \
			'$1 == p && $2 == v { f = 1 } { print } END { if (!f) print p, v, s }' ||
			die "$1: cannot record $2 $3 in it; check that its folder is writable"
		lc_known=$(lock_get "$1" "$2" "$3")
		[ "$lc_known" != "$lc_sum" ] ||
			stage "${series:--}" "lock: recorded $2 $3 sha256 $lc_sum in $(basename "$1") (commit it)"
	fi
	hash_check "${5:-$4}" "$lc_sum" "$lc_known" "$1: $2 $3"
}

# hash_check AS SUM EXPECTED WHERE: 0 when SUM is EXPECTED; else 1 and
# lock_msg is the one line that says so (WHERE pins the file to EXPECTED).
hash_check() {
	[ "$2" != "$3" ] || return 0
	lock_msg="$1: sha256 $2, expected $3 ($4)"
	return 1
}

# dsc_sums DSC: the files a Debian source package's .dsc lists, "SHA256
# NAME" a line (its Checksums-Sha256 field); nothing when it has none.
dsc_sums() {
	awk '/^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 } on && NF == 3 { print $1, $3 }' "$1"
}
