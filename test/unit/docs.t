#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The documentation held to the code, both ways: every make goal the pages
# name is a goal of the Makefile, and every goal is named on a page; every
# setting of a run is a row of docs/matrix.md's table, and every row names
# a setting the plan reads (or one make reads beside it); every page of
# docs/ is linked from the first page, and every link between pages leads
# to a page.
. "$(dirname "$0")/lib.sh"

cd "$TOP" || exit 1
pages="README.md docs/*.md"
# goals: every .PHONY goal of the Makefile and build/mk/ (FORCE and all
# are make's plumbing, no goal a user names).
# A goal has a rule of its own, too.
goals() {
	for g in $(cat Makefile build/mk/*.mk | sed -n "s/^\.PHONY: *//p" | tr " " "\n" | grep . | grep -vx "FORCE\|all" | sort -u); do
		! grep -q "^$g:" Makefile build/mk/*.mk || echo "$g"
	done
}
# named: every goal the pages name: `make GOAL` in a code span, or a line
# of a code block that runs make GOAL; a kernel tree's own goals
# (mrproper) are the tree's, not the kit's.
named() {
	{ grep -ohE "\`make [a-z][a-z0-9-]*" $pages; grep -ohE "^    (\\\$ )?make [a-z][a-z0-9-]*" $pages; } |
		sed "s/.*make //" | grep -vx "mrproper" | sort -u
}
# settings: the rows of docs/matrix.md's table of the settings of a run,
# a name each.
settings() {
	awk "/^## Settings of a run/ { p = 1; next } p && /^#/ { exit } p" docs/matrix.md |
		sed -n "s/^| \(\`[A-Z][^|]*\) |.*/\1/p" | tr "," "\n" | tr -d "\` " | grep . | sort -u
}
plan_settings() { sed -n "/^PLAN_SETTINGS :=/,/[^\\\\]\$/p" Makefile | sed "s/^PLAN_SETTINGS :=//; s/\\\\\$//" | tr " \t" "\n\n" | grep . | sort -u; }

test_expect_success 'every goal a page names is a goal of the Makefile, and every goal is named on a page' '
	goals >"$trash/goals" && named >"$trash/named" && test -s "$trash/goals" && test -s "$trash/named" &&
	comm -13 "$trash/goals" "$trash/named" >"$trash/unknown" && comm -23 "$trash/goals" "$trash/named" >"$trash/unnamed" &&
	{ ! test -s "$trash/unknown" || { echo "named on a page, no goal of the Makefile:"; cat "$trash/unknown"; false; }; } &&
	{ ! test -s "$trash/unnamed" || { echo "goals no page names:"; cat "$trash/unnamed"; false; }; }
'
test_expect_success 'every setting of a run is a row of docs/matrix.md, and every row a setting make or the plan reads' '
	settings >"$trash/rows" && plan_settings >"$trash/plan" && test -s "$trash/rows" && test -s "$trash/plan" &&
	comm -13 "$trash/rows" "$trash/plan" >"$trash/undocumented" &&
	{ ! test -s "$trash/undocumented" || { echo "settings of the plan without a row:"; cat "$trash/undocumented"; false; }; } &&
	for s in $(comm -23 "$trash/rows" "$trash/plan"); do
		case $s in
		KIT_SRC_X_Y) grep -q "KIT_SRC_%s" build/plan.c ;;
		*) grep -qw "$s" Makefile build/mk/*.mk ;;
		esac || { echo "row $s: neither the plan nor make reads it"; return 1; }
	done
'
# The names the planner validates (build/plan.c's setting_names) are the
# names make passes it (PLAN_SETTINGS), so make help's table, held to the
# one, is held to the other.
test_expect_success 'the settings make passes the planner are the ones it validates' '
	sed -n "/setting_names\[NSETTINGS\] = {/,/};/p" build/plan.c | grep -o "\"[A-Z_]*\"" | tr -d "\"" | sort -u >"$trash/c" &&
	plan_settings >"$trash/plan" && test -s "$trash/c" && test_cmp "$trash/c" "$trash/plan"
'
test_expect_success 'every page of docs/ is linked from the first page; every link between pages leads to one' '
	for f in docs/*.md; do
		grep -q "(docs/${f#docs/})" README.md || { echo "README.md does not link $f"; return 1; }
	done &&
	for f in $pages; do
		for l in $(grep -o "](\([A-Za-z0-9./_-]*\.md\))" "$f" | sed "s/^](//; s/)\$//"); do
			test -f "$(dirname "$f")/$l" || { echo "$f: links $l, no such page"; return 1; }
		done
	done
'
test_expect_success 'the first page stays a first page: the two set-up commands, under 150 lines' '
	test "$(wc -l <README.md)" -le 150 &&
	test "$(grep -c "^    apt-get install -y make && make matrix\|^    make check " README.md)" = 2
'

# The programs users run directly: ./kit lists them, and each answers
# --help with what it does, its usage and its exit codes, exit 0.
test_expect_success './kit lists every program users run; each answers --help with its usage and exit codes' '
	./kit help >"$trash/help" && test "$(sed 1d "$trash/help" | wc -l)" -ge 8 &&
	for c in $(sed 1d "$trash/help" | awk "{ print \$1 }"); do
		./kit "$c" --help >"$trash/out" 2>&1 </dev/null || { echo "./kit $c --help: exit $?"; return 1; }
		grep -qi "usage:" "$trash/out" && grep -qi "exit" "$trash/out" ||
			{ echo "./kit $c --help says no usage or no exit codes"; return 1; }
	done &&
	test_must_fail 2 ./kit nosuch 2>"$trash/err" && test_grep "kit: nosuch: no such command; ./kit help lists them" "$trash/err"
'
test_expect_success 'every ./kit command is named on a page of docs/' '
	for c in $(./kit help | sed 1d | awk "{ print \$1 }"); do
		grep -q "\./kit $c" README.md docs/*.md || { echo "no page names ./kit $c"; return 1; }
	done
'

test_done
