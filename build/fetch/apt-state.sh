# SPDX-License-Identifier: GPL-2.0
# The kit's private apt state (own lists, sources and cache under
# $KIT_CACHE/apt; the system's are never touched), for fetch-debian and bump.
# Callers set: series, suite, pkg.
# shellcheck shell=sh

apt=${KIT_CACHE:?KIT_CACHE is not set}/apt
# No usable mirror: apt-sources has said why; stop before writing anything.
sources=$("$top/build/fetch/apt-sources" ${KIT_SUITES:-$suite}) || exit
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/parts"

# Fetches run at once under make -j (they once raced on one shared
# sources.list.new): the list is written under the lock the update takes
# (never changed under another fetch's update), through a name of this
# fetch's own, renamed into place only when it differs.
(
	flock 9 &&
	new=$(mktemp "$apt/sources.list.XXXXXX") &&
	printf '%s\n' "$sources" >"$new" && chmod 644 "$new" || { rm -f "${new:-}"; exit 1; }
	if cmp -s "$new" "$apt/sources.list"; then
		rm -f "$new"
	else
		mv -f "$new" "$apt/sources.list" && rm -f "$apt/updated" || { rm -f "$new"; exit 1; }
	fi
) 9>"$apt/lock" || die "$apt: cannot write sources.list there; check the folder"

# As root apt falls back to an unsandboxed download anyway (the cache is
# not readable by _apt): say so, instead of a warning on every fetch.
sandbox=
[ "$(id -u)" -ne 0 ] || sandbox="-o APT::Sandbox::User=root"

# The architectures whose packages the lists hold: KIT_APT_ARCHES (make's:
# this machine's and those of the run's other arches, amd64 arm64), else
# apt's own default.
arches=
for a in ${KIT_APT_ARCHES:-}; do
	arches="$arches -o APT::Architectures::=$a"
done

# Private state: own lists, sources and cache; the system's are untouched.
private() {
	tool=$1
	shift
	# shellcheck disable=SC2086
	"$tool" $arches -o Dir::State::Lists="$apt/lists" -o Dir::Etc::sourcelist="$apt/sources.list" \
		-o Dir::Etc::sourceparts="$apt/parts" -o Dir::Cache="$apt" \
		-o Dir::Cache::archives="$apt/archives" -o Dir::State::status=/dev/null \
		-o APT::Get::AllowUnauthenticated=false -o Acquire::AllowInsecureRepositories=false \
		-o Debug::NoLocking=true $sandbox "$@"
}

update() {
	(
		flock 9
		# Another fetch may have updated while this one waited.
		if [ "${1:-}" = force ] || [ -z "$(find "$apt/updated" -mmin -360 2>/dev/null)" ]; then
			stage "$series" "apt: updating the private lists ($suite and the rest)"
			private apt-get -qq update >"$apt/update.log" 2>&1 ||
				{ tail -5 "$apt/update.log" >&2; die "apt-get update failed (log: $apt/update.log); check the mirrors in $apt/sources.list"; }
			grep -E '^(W|E):' "$apt/update.log" >&2 || :
			touch "$apt/updated"
		fi
	) 9>"$apt/lock"
}

served() {
	private apt-cache madison "$pkg" 2>/dev/null | awk -F'|' -v v="$ver" -v s="$suite" '
		{ gsub(/ /, "", $2); if ($2 == v && index($3, " " s "/")) found = 1 } END { exit !found }'
}

newest() {
	private apt-cache madison "$pkg" 2>/dev/null | awk -F'|' -v s="$suite" '
		index($3, " " s "/") { gsub(/ /, "", $2); print $2; exit }'
}

