#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make matrix SHARD=I/N and make report FROM="DIR...": which series a shard
# takes (the real Makefile's plan), a shard's own report, and the merge of
# shards' results folders: equal to one run cell for cell, a missing shard
# never a pass, and each refusal one line naming the folder and the field.
. "$(dirname "$0")/lib.sh"
. "$TOP/test/unit/fake-guest.sh"

# The plan make would write (nothing runs), of the real matrix.yaml.
plan_of() {
	make -C "$TOP" -s plan KIT_CACHE="$trash/kc" RESULTS="$trash/r" VERSIONS="5.10 6.1 6.12 7.2 7.3" "$@"
}
test_expect_success 'SHARD=I/N takes every Nth series of VERSIONS, whole, and plans the others as theirs' '
	plan_of SHARD=1/3 >p1 && plan_of SHARD=2/3 >p2 && plan_of SHARD=3/3 >p3 &&
	test "$(awk -F"\t" "\$1 == \"series\" && \$3 != \"shard\" { print \$2 }" p1 | tr "\n" " ")" = "5.10 7.2 " &&
	test "$(awk -F"\t" "\$1 == \"series\" && \$3 != \"shard\" { print \$2 }" p2 | tr "\n" " ")" = "6.1 7.3 " &&
	test "$(awk -F"\t" "\$1 == \"series\" && \$3 != \"shard\" { print \$2 }" p3 | tr "\n" " ")" = "6.12 " &&
	test_grep "^series	6.1	shard	[^	]*	2/3$" p1 && test_grep "^kit	[0-9a-f+]*	[^	]*/images	1/3$" p1 &&
	test "$(grep -c "^cell	" p1)" = "$(grep -c "^cell	" p3)" &&
	plan_of >whole && test_grep "^kit	.*	-$" whole && ! grep -q "	shard	" whole
'
test_expect_success 'SHARD=X.Y takes that series, and plans the others as their own shards' '
	plan_of SHARD=6.12 >p &&
	test "$(awk -F"\t" "\$1 == \"series\" && \$3 != \"shard\" { print \$2 }" p)" = 6.12 &&
	test_grep "^series	7.3	shard	[^	]*	7.3$" p && test_grep "^kit	.*	6.12$" p
'
test_expect_success 'a SHARD that is neither stops make, naming it' '
	for bad in 0/3 4/3 x 1/ /3 5.4; do
		test_must_fail 2 plan_of SHARD=$bad 2>err || return 1
		test_grep "SHARD: .$bad. is neither I/N with 1 <= I <= N (SHARD=2/3) nor a series of VERSIONS (SHARD=6.1)" err || return 1
	done
'

# One judged boot of each variant of 9.9 (patched fails case b), which
# every series of these runs takes as its own.
judged() {
	setup && rm -rf j && mkdir j && booted j &&
	for s in 7.7 8.8; do
		mkdir -p versions/$s && cp versions/9.9/* versions/$s/ &&
		printf "  - name: \"%s\"\n    source:\n      tree: {env: KIT_SRC_%s}\n    stack: versions/%s\n    fixes: {A: upstream v5.9-rc2, B: stack}\n" \
			"$s" "$(echo $s | tr . _)" "$s" >>m.yaml || return 1
	done
}
# run_dir DIR SHARD: DIR as make matrix leaves it, of the series 7.7, 8.8
# and 9.9 (or ONLY those); SHARD I/3 runs the I-th, X.Y that one, - all;
# SKIPPED names one its shard skips (no tree given there).  KIT_ID,
# IMAGES_DIR (its images folder) and STACK change what it says it is of.
run_dir() {
	rm -rf "$1" && mkdir -p "$1" &&
	{
		printf "kit\t%s\t%s\t%s\n" "${KIT_ID:-c0}" "$trash/${IMAGES_DIR:-images}" "$2"
		printf "case\t%s\n" a b c
		i=0
		for s in ${ONLY:-7.7 8.8 9.9}; do
			i=$((i + 1))
			if { [ "$2" = - ] || [ "$2" = "$i/3" ] || [ "$2" = "$s" ]; } && [ "$s" = "${SKIPPED:-}" ]; then
				printf "series\t%s\tskip\t%s.1\tno tree given\n" "$s" "$s"
			elif [ "$2" = - ] || [ "$2" = "$i/3" ] || [ "$2" = "$s" ]; then
				printf "series\t%s\trun\t%s.1\t-\n" "$s" "$s"
				cp -r j "$1/$s" || return 1
			else
				case $2 in */*) owner=$i/3 ;; *) owner=$s ;; esac
				printf "series\t%s\tshard\t%s.1\t%s\n" "$s" "$s" "$owner"
			fi
			printf "cell\t%s\tvanilla\tkernel\t-\n" "$s"
			printf "cell\t%s\tpatched\tkernel\t%s\n" "$s" "${STACK:-abcdefabcdef}"
		done
	} >"$1/plan.tsv" && { report "$1" >"$1.out" 2>&1 || :; }
}
shards() {
	judged && run_dir whole - && run_dir s1 1/3 && run_dir s2 2/3 && run_dir s3 3/3
}
# same A B: the series of two results.json, cell for cell.
same() {
	python3 - "$1" "$2" <<-'P'
	import json, sys
	a, b = (json.load(open(p)) for p in sys.argv[1:3])
	assert a["cases"] == b["cases"] and a["totals"] == b["totals"], (a["totals"], b["totals"])
	assert a["series"] == b["series"], "the series differ"
	P
}

test_expect_success 'a shard reports its own series; the others are named, counted nowhere' '
	shards && test_must_fail 1 report --render s2/results.json >out &&
	test "$(tail -1 out)" = "5 passed, 1 failed, 0 skipped" &&
	test_grep "^7.7 .*shard 1/3.s, not this run.s" out && test_grep "^8.8 *a " out &&
	! grep -q "^9.9 *a " out && test_grep "shard 2/3" s2/matrix.html
'
test_expect_success 'the three shards merged are the single run, cell for cell, table and all' '
	shards && test_must_fail 1 report --merge merged s1 s2 s3 >out &&
	same whole/results.json merged/results.json &&
	sed -n "/^series/,/^reports:/p" whole.out | grep -v "^reports:" >want &&
	sed -n "/^series/,/^reports:/p" out | grep -v "^reports:" >got && test_cmp want got &&
	test "$(tail -1 out)" = "$(tail -1 whole.out)" &&
	python3 -c "import json; r = json.load(open(\"merged/results.json\"))[\"run\"]; assert [f[\"shard\"] for f in r[\"from\"]] == [\"1/3\", \"2/3\", \"3/3\"] and r[\"shard\"] == \"-\""
'
test_expect_success 'shards moved elsewhere (another machine.s folders) merge with their logs where they are now' '
	shards && for d in s1 s2 s3; do
		python3 -c "
import json, sys
d = sys.argv[1]; p = d + \"/results.json\"; r = json.load(open(p))
assert r[\"run\"][\"results\"] == d, r[\"run\"]
for s in r[\"series\"]:
    for c in s[\"cells\"]:
        c[\"log\"] = \"%s/%s/%s/boot1.log\" % (d, s[\"name\"], c[\"variant\"])
json.dump(r, open(p, \"w\"))" $d || return 1
	done &&
	mkdir -p far && mv s1 s2 s3 far/ && test_must_fail 1 report --merge merged far/s1 far/s2 far/s3 >out &&
	test_grep "9.9 patched b: FAIL: .*(log: far/s3/9.9/patched/boot1.log)" out &&
	python3 -c "
import json
for s in json.load(open(\"merged/results.json\"))[\"series\"]:
    for c in s[\"cells\"]:
        assert c[\"log\"].startswith(\"far/s\") and c[\"log\"].endswith(\"/%s/%s/boot1.log\" % (s[\"name\"], c[\"variant\"])), c[\"log\"]"
'
test_expect_success 'shards of which some ran fstests and some did not are refused, naming both' '
	shards && python3 -c "
import json
p = \"s1/results.json\"; r = json.load(open(p))
for s in r[\"series\"]:
    if s[\"status\"] == \"run\":
        s[\"fstests\"] = [dict(test=\"a/1\", variant=\"patched\", status=\"PASS\", verdict=\"PASS\", vanilla=\"pass\", result=\"pass\",
                              seconds=1, reason=\"\", kernel=\"k\", log=\"x\")]
        s[\"fstests_run\"] = dict(variants=[\"vanilla\", \"patched\"], seconds={}, log=\"x\")
json.dump(r, open(p, \"w\"))" &&
	test_must_fail 2 report --merge merged s1 s2 s3 2>err &&
	test_grep "^report: s2: fstests .not planned., s1 has .planned.: results of different runs are not merged" err
'
test_expect_success 'in any order, through make report FROM=' '
	shards && test_must_fail make -C "$TOP" -s report FROM="$trash/s3 $trash/s1 $trash/s2" RESULTS="$trash/m2" >out &&
	test "$(tail -1 out)" = "$(tail -1 whole.out)" &&
	python3 -c "
import json
a, b = (json.load(open(p)) for p in (\"whole/results.json\", \"m2/results.json\"))
key = lambda s: s[\"name\"]
assert sorted(a[\"series\"], key=key) == sorted(b[\"series\"], key=key) and a[\"totals\"] == b[\"totals\"]"
'
test_expect_success 'runs of other VERSIONS (a CI job a series) merge as shards do' '
	shards && ONLY=7.7 run_dir v1 - && ONLY="8.8 9.9" run_dir v2 - &&
	test_must_fail 1 report --merge merged v1 v2 >out && same whole/results.json merged/results.json
'
test_expect_success 'a job a series (SHARD=X.Y) merges the same; a missing job is not run, never passed' '
	shards && run_dir j1 7.7 && run_dir j2 8.8 && run_dir j3 9.9 &&
	test_must_fail 1 report --merge merged j1 j2 j3 >out && same whole/results.json merged/results.json &&
	test_must_fail 1 report --merge merged j1 j3 >out &&
	test_grep "8.8 patched 3 cases: ERROR: not run: shard 8.8 has no folder among FROM" out
'
test_expect_success 'a series its shard skipped merges as a skipped row, its stacks compared all the same' '
	shards && SKIPPED=8.8 run_dir s2 2/3 && test_must_fail 1 report --merge merged s1 s2 s3 >out &&
	test_grep "^8.8 .*SKIP  no tree given" out && test "$(tail -1 out)" = "10 passed, 2 failed, 6 skipped" &&
	SKIPPED=8.8 STACK=0123456789ab run_dir s2 2/3 && test_must_fail 2 report --merge merged s1 s2 s3 2>err &&
	test_grep "s2: stacks of 7.7" err
'
test_expect_success 'a shard missing: its cells are ERROR, not run, never passed' '
	shards && test_must_fail 1 report --merge merged s1 s3 >out &&
	test "$(tail -1 out)" = "10 passed, 8 failed, 0 skipped" &&
	test_grep "8.8 vanilla 3 cases: ERROR: not run: shard 2/3 has no folder among FROM" out &&
	python3 -c "
import json
s = [s for s in json.load(open(\"merged/results.json\"))[\"series\"] if s[\"name\"] == \"8.8\"][0]
assert len(s[\"cells\"]) == 6 and all(c[\"status\"] == \"ERROR\" for c in s[\"cells\"])"
'

# refused NAME 'how to make folder s2 differ' 'the one line wanted' [FOLDERS]
refused() {
	MAKE_IT=$2 WANT=$3 FOLDERS=${4:-s1 s2 s3}
	test_expect_success "$1" '
		shards && rm -rf merged && eval "$MAKE_IT" &&
		test_must_fail 2 report --merge merged $FOLDERS >out 2>err &&
		printf "%s\n" "$WANT" >want && test_cmp want err && test ! -e merged/results.json && test ! -s out
	'
}
refused 'another kit commit is refused' 'KIT_ID=c1 run_dir s2 2/3' \
	'report: s2: kit commit "c1", s1 has "c0": results of different runs are not merged'
test_expect_success 'another image set is refused' '
	shards && rm -rf merged images1 && cp -r images images1 && echo x >>images1/a.img &&
	IMAGES_DIR=images1 run_dir s2 2/3 &&
	test_must_fail 2 report --merge merged s1 s2 s3 >out 2>err &&
	echo "report: s2: image set \"$(key images "$trash/images1" a b c)\", s1 has \"$(key images "$trash/images" a b c)\": results of different runs are not merged" >want &&
	test_cmp want err && test ! -e merged/results.json
'
refused 'other cases are refused' 'sed -i "s/^case\tc$/case\td/" s2/plan.tsv && mkdir -p s2/8.8 && report s2 >/dev/null 2>&1; :' \
	'report: s2: cases ["a", "b", "d"], s1 has ["a", "b", "c"]: results of different runs are not merged'
refused 'another stack is refused, naming the series' 'STACK=0123456789ab run_dir s2 2/3' \
	'report: s2: stacks of 7.7 {"vanilla": "-", "patched": "0123456789ab"}, s1 has {"vanilla": "-", "patched": "abcdefabcdef"}: results of different stacks are not merged'
refused 'shards of another split are refused' 'run_dir s2 2/3 && sed -i "1s|2/3$|2/4|" s2/plan.tsv && report s2 >/dev/null 2>&1; :' \
	'report: s2: split "4 shards", s1 has "3 shards": results of different runs are not merged'
refused 'a shard given twice is a cell present twice' ':' \
	'report: s1: series 7.7 (run) is also in s1: a cell present twice; give each shard'"'"'s folder once' 's1 s2 s1'
refused 'a whole run with a shard is refused' ':' \
	'report: s2: split "3 shards", whole has "whole run": results of different runs are not merged' 'whole s2'
refused 'two whole runs are cells present twice' 'cp -r whole whole2' \
	'report: whole2: series 7.7 (run) is also in whole: a cell present twice; give each shard'"'"'s folder once' 'whole whole2'
refused 'a folder without results.json is refused' 'rm s2/results.json' \
	'report: s2: no results.json; give the results folder of a make matrix run'

test_done
