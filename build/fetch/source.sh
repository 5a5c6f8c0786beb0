# SPDX-License-Identifier: GPL-2.0
# One pinned Debian source package, for fetch-corpus (e2fsprogs' images)
# and fetch-source (the linux package's debian/ folder, for a config gate):
# downloaded through the kit's private apt state (apt checks it against
# the signed Sources index) into $KIT_CACHE/apt/source/SRC_VERSION, and
# checked on every call, not only when downloaded: the .dsc against the
# lock (recorded on first fetch), every file asked for against the .dsc.
# What differs is deleted and fetched again, once, then refused.
# Callers set src, ver, suite (src:SUITE), lock and series, and have
# sourced lib.sh and lock.sh.  Sets dl (the folder), dsc (its .dsc's
# name), key (the lock's name, src:SRC) and, once checked, files ("SHA256
# NAME" a line, every file the .dsc lists).
# shellcheck shell=sh

apt=${KIT_CACHE:?KIT_CACHE is not set}/apt
dl=$apt/source/$src\_$ver
dsc=$src\_$(echo "$ver" | sed 's/^[0-9]*://').dsc
key=src:$src
pkg=$src

# source_wanted PART: the names of the files of the .dsc PART asks for:
# all of them, or (debian) the Debian tarball or diff alone.
source_wanted() {
	case $1 in
	all) echo "$files" | cut -d' ' -f2 ;;
	debian) echo "$files" | cut -d' ' -f2 | grep -E '\.debian\.tar\.[a-z0-9]+$|\.diff\.gz$' || : ;;
	esac
}

# source_check PART: the downloads are the pinned ones: the .dsc is what
# the lock says, every file PART asks for what the .dsc says.  0 they are;
# 1 they are not (lock_msg says which file, in one line; advice what to do
# about it).  (The files first: a first fetch records the .dsc only once
# they are what it says.)
source_check() {
	advice="the mirror serves another file than its .dsc names"
	files=$(dsc_sums "$dl/$dsc")
	[ -n "$files" ] || die "$dl/$dsc: no Checksums-Sha256 field; delete $dl to download it again"
	sc_want=$(source_wanted "$1")
	[ -n "$sc_want" ] || die "$dl/$dsc: lists no file of the part '$1'; this source package cannot serve it"
	for f in $sc_want; do
		[ -f "$dl/$f" ] || { lock_msg="$dl/$f: missing, listed in $dsc"; return 1; }
		hash_check "$dl/$f" "$(sha256sum <"$dl/$f" | cut -d' ' -f1)" "$(echo "$files" | awk -v f="$f" '$2 == f { print $1 }')" "$dsc" ||
			return 1
	done
	advice="remove its line from $lock only if you trust the new .dsc"
	lock_check "$lock" "$key" "$ver" "$dl/$dsc"
}

# source_fetch PART: make dl hold the pinned .dsc and the files PART asks
# for (all, or debian: the Debian tarball alone, with apt-get source
# --dsc-only and --diff-only, which leave the upstream tarball out);
# stops (die) when they cannot be had as pinned.
source_fetch() {
	# One process at a time checks and fetches a package: two makes on one
	# cache, or fetch-corpus beside fetch-source, would delete each
	# other's download (rm -rf, then mv).  A second waits on DL.lock, held
	# until it exits, and then finds the package there.
	mkdir -p "$apt/source" && exec 7>>"$dl.lock" && flock 7 || die "$dl.lock: cannot be locked"
	# The downloads are kept in the cache and checked on every run (the
	# Makefile runs the callers every make), not only when downloaded.
	sf_again=
	if [ -f "$dl/$dsc" ] && ! source_check "$1"; then
		echo "$prog: $lock_msg; deleting $dl and fetching it again" >&2
		rm -rf "$dl"
		sf_again="fetched again, still differs: "
	fi
	[ ! -f "$dl/$dsc" ] || return 0
	. "$top/build/fetch/apt-state.sh"
	update
	private apt-cache showsrc "$src" 2>/dev/null | grep -qx "Version: $ver" || {
		update force
		private apt-cache showsrc "$src" 2>/dev/null | grep -qx "Version: $ver"
	} || die "matrix.yaml: $series: source $src $ver is not served by ${suite#src:}; pin a version it serves"
	sf_what="the source of $src $ver"
	[ "$1" = all ] || sf_what="the $1 part of $sf_what"
	stage "$series" "apt: downloading $sf_what from ${suite#src:}"
	sf_part=$dl.part.$$
	trap 'rm -rf "$sf_part"' EXIT INT TERM
	mkdir -p "$sf_part"
	case $1 in
	all) sf_only= ;;
	debian) sf_only="--dsc-only --diff-only" ;;
	esac
	# (--dsc-only and --diff-only exclude each other: one call each.)
	for sf_o in ${sf_only:-""}; do
		# shellcheck disable=SC2086
		(cd "$sf_part" && private apt-get -qq source --download-only $sf_o "$src=$ver") >"$apt/source.log" 2>&1 ||
			{ tail -5 "$apt/source.log" >&2; die "apt-get source $src=$ver failed (log: $apt/source.log)"; }
	done
	[ -f "$sf_part/$dsc" ] || die "apt-get source left no $dsc (log: $apt/source.log)"
	rm -rf "$dl"
	mv "$sf_part" "$dl"
	trap - EXIT INT TERM
	source_check "$1" || { rm -rf "$dl"; die "$lock_msg; ${sf_again}refused ($advice)"; }
}
