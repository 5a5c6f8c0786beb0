#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The reports of a (stand-in) matrix run: results.json is collected from
# the judged cells and the plan, and the table, junit.xml, results.ktap and
# matrix.html are rendered from it alone, with the same totals.
. "$(dirname "$0")/lib.sh"
. "$TOP/test/unit/fake-guest.sh"
command -v "${KIT_CHROMIUM:-chromium}" >/dev/null && test_set_prereq CHROMIUM
python3 -c "import jsonschema" 2>/dev/null && test_set_prereq JSONSCHEMA

# plan [SUBLEVEL]: what make would write for a run of 9.9 (vanilla,
# patched) on the kernel "kernel", with 5.4 skipped.
plan() {
	mkdir -p kc/src/9.9 &&
	printf "VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = %s\n" "${1:-3}" >kc/src/9.9/Makefile &&
	{
		printf "kit\t%s\t%s\t%s\n" "${KIT_ID:-c0}" "$trash/images" "${SHARD_OF:--}"
		printf "case\t%s\n" a b c
		printf "series\t9.9\trun\t9.9.3\t%s\n" "$trash/kc/src/9.9"
		printf "cell\t9.9\t%s\t%s\t-\n" vanilla kernel patched kernel
		printf "series\t5.4\tskip\t5.4.301\tno tree given: set KIT_SRC_5_4\n"
		printf "cell\t5.4\t%s\t-\t-\n" vanilla patched
	} >res/plan.tsv
}
run_matrix() {
	setup && rm -rf res && mkdir -p res/9.9 && booted res/9.9 && plan "$@" &&
	{ report res >report.out 2>&1 || :; }
}

test_expect_success 'the table counts cells, lists SKIP rows and fails on any mismatch' '
	run_matrix && test_must_fail 1 report res >out 2>&1 &&
	test "$(tail -1 out)" = "5 passed, 1 failed, 6 skipped" &&
	test_grep "^5.4 .*SKIP  no tree given: set KIT_SRC_5_4" out &&
	test_grep "FAIL  refused EUCLEAN (want mounted)" out &&
	test_grep "9.9 patched b: FAIL: mount: EUCLEAN, expected ok (expect) (log: " out
'
test_expect_success JSONSCHEMA 'results.json follows its schema, junit.xml parses and agrees' '
	run_matrix && python3 -c "
import json, jsonschema, xml.etree.ElementTree as ET
jsonschema.validate(json.load(open(\"res/results.json\")), json.load(open(\"$TOP/test/report/results.schema.json\")))
r = ET.parse(\"res/junit.xml\").getroot()
f = r.findall(\"./testsuite/testcase/failure\")
assert len(r.findall(\"./testsuite/testcase\")) == 12 and len(f) == 1, \"junit counts\"
assert \"refused EUCLEAN\" in f[0].get(\"message\") and \"boot1.log\" in f[0].text
"
'
test_expect_success JSONSCHEMA 'a results.json off its schema is caught' '
	run_matrix && sed -i "s/\"status\": \"PASS\"/\"status\": \"GOOD\"/" res/results.json &&
	test_must_fail python3 -c "
import json, jsonschema
jsonschema.validate(json.load(open(\"res/results.json\")), json.load(open(\"$TOP/test/report/results.schema.json\")))"
'
test_expect_success 'the summary (a cover letter'"'"'s) counts what the table counts, in 72 columns' '
	run_matrix && report --summary res/results.json >sum &&
	test_grep "^9.9    9.9.3      3/3           2/3$" sum && test_grep "^5.4    not run: no tree given" sum &&
	test "$(tail -1 sum)" = "totals: $(tail -1 report.out)" && ! awk "length(\$0) > 72" sum | grep . &&
	sed -i "s/\"passed\": 5/\"passed\": 6/" res/results.json && test_must_fail 2 report --summary res/results.json 2>err &&
	test_grep "its cells count" err
'
test_expect_success 'results.ktap says not ok for the cell that failed' '
	run_matrix && test_grep "^    not ok 2 b # FAIL$" res/results.ktap &&
	test_grep "^not ok 2 9.9.patched$" res/results.ktap && test_grep "^ok 1 9.9.vanilla$" res/results.ktap &&
	test_grep "^ok 3 5.4.vanilla # SKIP" res/results.ktap
'
test_expect_success 'every report is rendered from results.json alone' '
	run_matrix && rm -rf res/9.9 res/plan.tsv && { report --render res/results.json >again.out 2>&1 || :; } &&
	test "$(tail -1 again.out)" = "5 passed, 1 failed, 6 skipped" &&
	sed -i "s/\"status\": \"FAIL\"/\"status\": \"PASS\"/; s/\"failed\": 1/\"failed\": 0/; s/\"passed\": 5/\"passed\": 6/" res/results.json &&
	report --render res/results.json >again.out &&
	test "$(tail -1 again.out)" = "6 passed, 0 failed, 6 skipped" && ! grep -q "not ok" res/results.ktap
'
# kcidb.json: the kit's own promises of it (the schema is kcidb-io's, below).
test_expect_success 'kcidb.json: a test a cell, with its status; every build and checkout it names is there' '
	run_matrix && python3 -c "
import json, re
d = json.load(open(\"res/kcidb.json\"))
assert d[\"version\"] == {\"major\": 5, \"minor\": 3}, d[\"version\"]
ids = [o[\"id\"] for k in (\"checkouts\", \"builds\", \"tests\") for o in d[k]]
assert len(ids) == len(set(ids)) and all(i.startswith(\"ext4_backport_kit:\") for i in ids), ids
co = {c[\"id\"] for c in d[\"checkouts\"]}
b = {x[\"id\"]: x for x in d[\"builds\"]}
assert all(x[\"checkout_id\"] in co for x in b.values()) and all(t[\"build_id\"] in b for t in d[\"tests\"])
st = sorted((t[\"misc\"][\"series\"], t[\"misc\"][\"variant\"], t[\"misc\"][\"name\"], t[\"status\"]) for t in d[\"tests\"])
assert len(st) == 12 and st.count((\"9.9\", \"patched\", \"b\", \"FAIL\")) == 1, st
assert sum(s[3] == \"PASS\" for s in st) == 5 and sum(s[3] == \"SKIP\" for s in st) == 6, st
fail = [t for t in d[\"tests\"] if t[\"status\"] == \"FAIL\"][0]
assert fail[\"path\"] == \"ext4_backport.case.b\" and \"mount: EUCLEAN, expected ok\" in fail[\"log_excerpt\"], fail
assert fail[\"misc\"][\"expected\"] == \"mounted\" and fail[\"misc\"][\"keys\"][\"kernel\"], fail
bs = sorted((x[\"misc\"][\"series\"], x[\"misc\"][\"variant\"], x[\"status\"]) for x in b.values())
assert bs == [(\"5.4\", \"patched\", \"SKIP\"), (\"5.4\", \"vanilla\", \"SKIP\"),
              (\"9.9\", \"patched\", \"PASS\"), (\"9.9\", \"vanilla\", \"PASS\")], bs
assert b[fail[\"build_id\"]][\"misc\"][\"kernel_key\"] == fail[\"misc\"][\"keys\"][\"kernel\"]
" &&
	sed -i "s/^\(cell	9.9	patched	kernel\)	-\$/\1	abcdefabcdef/" res/plan.tsv && { report res >/dev/null 2>&1 || :; } &&
	python3 -c "
import json
d = json.load(open(\"res/kcidb.json\"))
co = sorted(c[\"id\"] for c in d[\"checkouts\"])
assert len(co) == 3 and sum(c.endswith(\"+abcdefabcdef\") for c in co) == 1, co
b = {x[\"misc\"][\"variant\"]: x for x in d[\"builds\"] if x[\"misc\"][\"series\"] == \"9.9\"}
assert b[\"patched\"][\"checkout_id\"].endswith(\"+abcdefabcdef\") and \"+\" not in b[\"vanilla\"][\"checkout_id\"], b
"
'
test_expect_success 'make kcidb-submit writes it with the origin given, refuses a bad one, and sends nothing' '
	run_matrix && make -s -C "$TOP" kcidb-submit KIT_BUILD="$trash/kb" RESULTS="$trash/res" KCIDB_ORIGIN=my_lab >out &&
	test_grep "kcidb.json: 2 checkouts, 4 builds, 12 tests, origin my_lab, KCIDB schema 5.3" out &&
	test_grep "^Nothing was sent" out && test_grep "kcidb-submit -p PROJECT -t TOPIC <" out &&
	test "$(grep -c "\"ext4_backport_kit:" res/kcidb.json)" = 0 && test_grep "\"my_lab:" res/kcidb.json &&
	cp res/kcidb.json before.json &&
	test_must_fail make -s -C "$TOP" kcidb-submit KIT_BUILD="$trash/kb" RESULTS="$trash/res" KCIDB_ORIGIN=My-Lab 2>err &&
	test_grep "KCIDB_ORIGIN=My-Lab: KCIDB takes an origin of lower-case letters, digits and _ only" err &&
	cmp before.json res/kcidb.json
'
# KernelCI's own schema: only with a kcidb-io source tree given by path
# (KIT_KCIDB_IO; the kit fetches nothing).
test -n "$KIT_KCIDB_IO" && test -f "$KIT_KCIDB_IO/kcidb_io/__init__.py" && test_set_prereq KCIDB_IO
test_expect_success KCIDB_IO 'kcidb.json is valid by kcidb-io'"'"'s schema; a status it does not know is caught' '
	run_matrix && kcidb-check "$KIT_KCIDB_IO" res/kcidb.json >out && test_grep "res/kcidb.json: valid, KCIDB schema 5.3" out &&
	sed -i "0,/\"status\": \"PASS\"/s//\"status\": \"GOOD\"/" res/kcidb.json &&
	test_must_fail 1 kcidb-check "$KIT_KCIDB_IO" res/kcidb.json >out && test_grep "not valid KCIDB 5.3 at .*status: .GOOD. is not one of" out
'
# A python3 first on PATH (a pyenv shim, a virtualenv) is not the kit's:
# make runs PYTHON (Debian's by default) for its scripts, through
# $(BIN)/python3 at the head of every recipe's PATH.
test_expect_success 'make runs the kit'"'"'s Python (PYTHON), not the first python3 on PATH' '
	run_matrix && mkdir -p shim && printf "#!/bin/sh\n: >%s/shim-ran\nexec /usr/bin/python3 \"\$@\"\n" "$trash" >shim/python3 &&
	chmod +x shim/python3 && { PATH=$trash/shim:$PATH make -s -C "$TOP" report KIT_BUILD="$trash/kb" RESULTS="$trash/res" >out 2>&1 || :; } &&
	test_grep "^5 passed, 1 failed, 6 skipped" out && test ! -e shim-ran &&
	{ PATH=$trash/shim:$PATH make -s -C "$TOP" report KIT_BUILD="$trash/kb" RESULTS="$trash/res" PYTHON="$trash/shim/python3" >out 2>&1 || :; } &&
	test_grep "^5 passed, 1 failed, 6 skipped" out && test -e shim-ran &&
	test_must_fail make -s -C "$TOP" report KIT_BUILD="$trash/kb" RESULTS="$trash/res" PYTHON=python4 2>err &&
	test_grep "PYTHON=python4: not an interpreter; name Python 3 by its path" err
'
test_expect_success 'a planned cell without verdicts is ERROR, naming the failed step' '
	run_matrix && rm res/9.9/patched/cells.json &&
	echo "kernel: 9.9: p.patch of series does not apply" >res/9.9/patched/build.failed &&
	test_must_fail 1 report res >out &&
	test "$(tail -1 out)" = "3 passed, 3 failed, 6 skipped" &&
	test_grep "9.9 patched 3 cases: ERROR: kernel: 9.9: p.patch of series does not apply" out
'
test_expect_success 'a failed build voids the verdicts of the variants built on it' '
	run_matrix && echo "kernel: 9.9 vanilla: build failed" >res/9.9/vanilla/build.failed &&
	test_must_fail 1 report res >out &&
	test "$(tail -1 out)" = "0 passed, 6 failed, 6 skipped" &&
	test_grep "9.9 patched 3 cases: ERROR: not run: the 9.9 vanilla kernel failed to build: kernel: 9.9 vanilla: build failed" out
'
test_expect_success 'a failed build of one arch voids no verdict of another arch' '
	run_matrix && guest ok vanilla@arm64 res/9.9/vanilla@arm64 >/dev/null && guest ok patched@arm64 res/9.9/patched@arm64 >/dev/null &&
	sed -i "/^cell	9.9	patched	/a cell	9.9	vanilla@arm64	kernel	-\ncell	9.9	patched@arm64	kernel	-" res/plan.tsv &&
	echo "kernel: 9.9 vanilla: build failed" >res/9.9/vanilla/build.failed &&
	test_must_fail 1 report res >out &&
	test_grep "9.9 patched 3 cases: ERROR: not run: the 9.9 vanilla kernel failed to build" out &&
	! grep "patched@arm64.*failed to build" out && test "$(tail -1 out)" = "6 passed, 6 failed, 6 skipped"
'
test_expect_success 'a failed boot or judge of vanilla does not void the verdicts built on it' '
	run_matrix && echo "judge: something" >res/9.9/vanilla/judge.failed &&
	test_must_fail 1 report res >out && test "$(tail -1 out)" = "2 passed, 4 failed, 6 skipped" &&
	test_grep "9.9 vanilla 3 cases: ERROR: judge: something" out &&
	test_grep "9.9 patched b: FAIL: mount: EUCLEAN, expected ok" out
'
test_expect_success 'a failed image voids every verdict: the boot did not see it' '
	run_matrix && mkdir -p res/images && echo "mkimage: r:1: bad" >res/images/b.failed &&
	test_must_fail 1 report res >out && test "$(tail -1 out)" = "0 passed, 6 failed, 6 skipped" &&
	test_grep "9.9 vanilla 3 cases: ERROR: not run: the image b failed: mkimage: r:1: bad" out
'
test_expect_success 'a series planned twice, a malformed plan or cells.json is one line, no report left' '
	run_matrix && sed -n "/^series\t9.9/p" res/plan.tsv >>res/plan.tsv &&
	test_must_fail 2 report res 2>err && test_grep "series 9.9 planned twice" err && ! test -e res/results.json &&
	run_matrix && echo "cell	9.9" >>res/plan.tsv && test_must_fail 2 report res 2>err &&
	test_grep "plan.tsv:[0-9]*: malformed line" err &&
	run_matrix && echo "{" >res/9.9/patched/cells.json && test_must_fail 2 report res 2>err &&
	test_grep "cells.json: not a judged record" err && ! grep -q Traceback err
'
test_expect_success 'verdicts of another kernel are stale, never reported' '
	run_matrix && sed -i "s/\tpatched\tkernel\t/\tpatched\tother-kernel\t/" res/plan.tsv &&
	test_must_fail 1 report res >out && test_grep "9.9 patched 3 cases: ERROR: not run: the verdicts on record are of another kernel" out
'
test_expect_success 'a verdict made from another image, expect file, kernel or judge is stale, never a pass' '
	run_matrix && echo more >>images/b.img && test_must_fail 1 report res >out &&
	test_grep "9.9 vanilla b: ERROR: stale: made from another case than this run.s; run make matrix again" out &&
	test_grep "9.9 patched b: ERROR: stale: made from another case" out &&
	run_matrix && echo "mount: ok" >cases/a/expect.patched && test_must_fail 1 report res >out &&
	test_grep "9.9 patched a: ERROR: stale: made from another expect than" out &&
	! grep "9.9 vanilla a: ERROR" out &&
	run_matrix && echo other >kernel && test_must_fail 1 report res >out &&
	test_grep "9.9 vanilla 3 cases: ERROR: stale: made from another kernel than" out &&
	run_matrix && sed -i "s/\"judge\": \"/\"judge\": \"0/" res/9.9/vanilla/cells.json && test_must_fail 1 report res >out &&
	test_grep "9.9 vanilla 3 cases: ERROR: stale: made from another judge than" out
'
test_expect_success 'a kernel built from another source than matrix.lock pins, or from a tree since changed, is stale' '
	printf "source one\n" >src.deb && sum=$(sha256sum <src.deb | cut -d" " -f1) &&
	printf "linux-source-9.9 9.9.3-1 %s\n" "$sum" >lock && key source debian src.deb >source.key &&
	run_matrix && sed -i "s|^\(series	9.9	run	.*\)$|\1	debian linux-source-9.9 9.9.3-1|" res/plan.tsv &&
	KIT_LOCK=lock test_must_fail 1 report res >out && test "$(tail -1 out)" = "5 passed, 1 failed, 6 skipped" &&
	printf "linux-source-9.9 9.9.3-1 %064d\n" 0 >lock && KIT_LOCK=lock test_must_fail 1 report res >out &&
	test_grep "9.9 vanilla 3 cases: ERROR: stale: made from another source than this run.s" out &&
	mkdir -p t && printf "VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 3\n" >t/Makefile && key source tree t >source.key &&
	run_matrix && sed -i "s|^\(series	9.9	run	.*\)$|\1	tree $trash/t|" res/plan.tsv &&
	test_must_fail 1 report res >out && test "$(tail -1 out)" = "5 passed, 1 failed, 6 skipped" &&
	echo "EXTRAVERSION = -rc1" >>t/Makefile && test_must_fail 1 report res >out &&
	test_grep "9.9 patched 3 cases: ERROR: stale: made from another source than this run.s" out
'
test_expect_success 'a verdict without keys (an older kit) is stale, never a pass' '
	run_matrix && python3 -c "
import json
p = \"res/9.9/vanilla/cells.json\"
d = json.load(open(p))
for c in d[\"cells\"]:
    del c[\"keys\"]
json.dump(d, open(p, \"w\"))" &&
	test_must_fail 1 report res >out &&
	test_grep "9.9 vanilla 3 cases: ERROR: stale: made by a kit that recorded no keys" out
'
test_expect_success 'a failed build of the guest program or image tool voids every verdict' '
	run_matrix && mkdir -p res/tools && echo "the guest program build failed (exit 1)" >res/tools/guest-init.failed &&
	test_must_fail 1 report res >out && test "$(tail -1 out)" = "0 passed, 6 failed, 6 skipped" &&
	test_grep "9.9 vanilla 3 cases: ERROR: not run: the guest program build failed (exit 1)" out
'
test_expect_success 'the image set is keyed after the run made its images' '
	run_matrix && a=$(python3 -c "import json; print(json.load(open(\"res/results.json\"))[\"run\"][\"images\"])") &&
	echo new >>images/c.img && { report res >/dev/null 2>&1 || :; } &&
	b=$(python3 -c "import json; print(json.load(open(\"res/results.json\"))[\"run\"][\"images\"])") &&
	test "$a" != "$b" && test "$b" = "$(key images "$trash/images" a b c)"
'
test_expect_success 'the table says which release a stack was verified on' '
	run_matrix 3 && test_grep "^  9.9    9.9.3        9.9.3$" report.out &&
	python3 -c "import json; s = json.load(open(\"res/results.json\"))[\"series\"][0]; assert (s[\"kernel\"], s[\"verified\"]) == (\"9.9.3\", \"9.9.3\"), s"
'
test_expect_success 'a tree of another sublevel is marked as such' '
	run_matrix 7 &&
	test_grep "^  9.9    9.9.7        9.9.3 (another sublevel: the stack applied at zero fuzz)$" report.out &&
	test_grep "<td>9.9.7</td><td>9.9.3</td>" res/matrix.html
'
test_expect_success 'a pass that leaks is marked, never a plain ok, in every report' '
	run_matrix && echo "feature shared_blocks on" >cases/b/recipe && key made b >images/b.img.key &&
	guest ok vanilla res/9.9/vanilla >/dev/null &&
	printf "mount: ok\nfiles: 1 bad (first: b: content differs)\nkmsg~ hello b\n" >cases/b/expect.patched &&
	guest leak patched res/9.9/patched >/dev/null && report res >out 2>&1 &&
	test "$(tail -1 out)" = "6 passed, 0 failed, 6 skipped" &&
	test_grep "^       b  *ok    mounted  *leak  mounted, LEAKS$" out &&
	test_grep "known weakness of that" out &&
	test_grep "# b: leak: as expected, a known weakness" res/results.ktap &&
	test_grep "class=\"cell ok-leak\"" res/matrix.html &&
	python3 -c "
import xml.etree.ElementTree as ET
t = [c for c in ET.parse(\"res/junit.xml\").getroot().iter(\"testcase\") if c.find(\"./properties/property[@name=\x27known-weakness\x27]\") is not None]
assert [(c.get(\"classname\"), c.get(\"name\")) for c in t] == [(\"9.9.patched\", \"b\")], t
assert t[0].findtext(\"system-out\").startswith(\"leak: as expected\") and t[0].find(\"failure\") is None" &&
	python3 -c "import json; c = [c for c in json.load(open(\"res/results.json\"))[\"series\"][0][\"cells\"] if c[\"leaks\"]]; assert [(x[\"case\"], x[\"variant\"], x[\"status\"]) for x in c] == [(\"b\", \"patched\", \"PASS\")], c"
'
test_expect_success CHROMIUM 'every reader sees the same totals; the page renders in chromium' '
	run_matrix && check-reports res >out &&
	test_grep "agree: 5 passed, 1 failed, 6 skipped" out &&
	test_grep "rendered in chromium: 5 passed, 1 failed, 6 skipped; 12 cells" out &&
	test -s res/matrix.png
'
test_expect_success JSONSCHEMA 'a table that disagrees with results.json is caught' '
	run_matrix && sed -i "\$s/.*/6 passed, 0 failed, 6 skipped/" res/table.txt &&
	test_must_fail check-reports res 2>err && test_grep "the table ends" err
'
test_expect_success JSONSCHEMA 'a kcidb.json that disagrees with results.json is caught' '
	run_matrix && sed -i "0,/\"status\": \"FAIL\"/s//\"status\": \"PASS\"/" res/kcidb.json &&
	test_must_fail check-reports res 2>err && test_grep "kcidb.json: 6 PASS, 6 SKIP of 12 tests; results.json 5 passed" err
'
test_expect_success CHROMIUM 'a page whose counts do not render is caught' '
	run_matrix && sed -i "s/<script>.*//" res/matrix.html && test_must_fail check-reports res 2>err
'
# with_corpus [patched STATUS]: the run above, with a corpus of two images
# (x, y) planned and judged for 9.9 (vanilla, patched); patched's y is
# STATUS (PASS by default), or no record at all when STATUS is "none".
with_corpus() {
	mkdir -p corp && printf "x 0 4096 -\ny 1048576 4096 -\n" >corp/index && : >corp/disk &&
	printf "corpus\tsrc 1.0-1\t%s\n" "$trash/corp" >>res/plan.tsv &&
	keys=$(printf "{\"kernel\": \"%s\", \"guest\": \"%s\", \"corpus\": \"%s\", \"vanilla\": \"%s\", \"judge\": \"%s\", \"explain\": \"%s\"}" \
		"$(key file kernel)" "$(key guest corpus "$(key set prog)")" "$(key corpus "$trash/corp")" "$(key file kernel)" "$(key set judge)" "$(key dir "$TOP/test/corpus")") &&
	for v in vanilla patched; do
		mkdir -p res/9.9/corpus/$v &&
		st=PASS && reason= && { [ $v = vanilla ] || { st=${1:-PASS}; [ $st = PASS ] || reason="mount: EUCLEAN, expected ok on vanilla"; }; } &&
		[ "$st" = none ] && continue
		python3 -c "
import json, sys
v, st, reason, corp, keys = sys.argv[1:6]
recs = [dict(image=i, variant=v, status=s, shared=False, verdict=\"refused EUCLEAN\" if s == \"FAIL\" else \"mounted, 3 files, 9 bytes\",
             vanilla=\"\" if v == \"vanilla\" else \"mounted, 3 files, 9 bytes\", reason=r, explained=\"\", kernel=\"\", diff=\"\",
             log=\"boot1.log\", keys=json.loads(keys)) for i, s, r in ((\"x\", \"PASS\", \"\"), (\"y\", st, reason))]
json.dump(dict(series=\"9.9\", variant=v, image=\"kernel\", corpus=corp, records=recs), open(\"res/9.9/corpus/%s/judged.json\" % v, \"w\"))
" $v $st "$reason" "$trash/corp" "$keys" || return 1
	done
}
test_expect_success 'the corpus is a line a kernel in the table, a record an image in every report' '
	run_matrix && with_corpus FAIL && test_must_fail 1 report res >out 2>&1 &&
	test "$(tail -1 out)" = "8 passed, 2 failed, 10 skipped" &&
	test_grep "^corpus src 1.0-1: 2 images, each kernel.s verdicts against its vanilla.s:$" out &&
	test_grep "^  9.9    vanilla      corpus 2: 2 mount, 0 refused, baseline, 0 oops$" out &&
	test_grep "^  9.9    patched      corpus 2: 1 mount, 1 refused, 1 differ, 0 oops$" out &&
	test_grep "9.9 patched corpus y: FAIL: mount: EUCLEAN, expected ok on vanilla" out &&
	test_grep "^    not ok 2 y # FAIL$" res/results.ktap && test_grep "^not ok 6 9.9.patched.corpus$" res/results.ktap &&
	test_grep "^ok 8 5.4.patched.corpus # SKIP" res/results.ktap
'
test_expect_success 'corpus verdicts of another corpus folder or baseline kernel are stale, never a pass' '
	run_matrix && with_corpus && echo "z 2097152 4096 -" >>corp/index && test_must_fail 1 report res >out 2>&1 &&
	test_grep "9.9 vanilla 2 corpus images: ERROR: stale: made from another corpus than this run.s" out &&
	run_matrix && with_corpus && sed -i "s/\"vanilla\": \"[0-9a-f]*\"/\"vanilla\": \"0\"/" res/9.9/corpus/patched/judged.json &&
	test_must_fail 1 report res >out 2>&1 && test_grep "9.9 patched corpus x: ERROR: stale: made from another vanilla than" out &&
	! grep "9.9 vanilla .*corpus.*ERROR" out
'
test_expect_success 'another arch: its own block of the table; its corpus held to its own vanilla, never the default arch'"'"'s' '
	run_matrix && with_corpus && echo arm >kernel64 && echo armp >kernel64p &&
	sed -i "/^cell	9.9	patched	/a cell	9.9	vanilla@arm64	$trash/kernel64	-\ncell	9.9	patched@arm64	$trash/kernel64p	-" res/plan.tsv &&
	arm_corpus() {
		mkdir -p res/9.9/corpus/patched@arm64 &&
		sed -e "s/\"variant\": \"patched\"/\"variant\": \"patched@arm64\"/g" \
			-e "s/\"kernel\": \"$(key file kernel)\"/\"kernel\": \"$(key file kernel64p)\"/g" \
			-e "s/\"vanilla\": \"$(key file kernel)\"/\"vanilla\": \"$1\"/g" \
			-e "s|\"image\": \"kernel\"|\"image\": \"$trash/kernel64p\"|" \
			res/9.9/corpus/patched/judged.json >res/9.9/corpus/patched@arm64/judged.json
	} &&
	arm_corpus "$(key file kernel64)" && { report res >out 2>&1 || :; } &&
	! grep "patched@arm64 .*corpus.*stale" out && test_grep "9.9    patched@arm64 corpus 2: 2 mount, 0 refused, 0 differ" out &&
	test_grep "^series case  *vanilla  *patched$" out && test_grep "^series case  *vanilla@arm64  *patched@arm64$" out &&
	arm_corpus "$(key file kernel)" && { report res >out 2>&1 || :; } &&
	test_grep "9.9 patched@arm64 2 corpus images: ERROR: stale: made from another vanilla than" out
'
test_expect_success 'a corpus boot with no verdicts is ERROR for every image, never a pass' '
	run_matrix && with_corpus none && echo "run-corpus: kernel: no such kernel image" >res/9.9/corpus/patched-boot.failed &&
	test_must_fail 1 report res >out 2>&1 &&
	test_grep "9.9 patched 2 corpus images: ERROR: run-corpus: kernel: no such kernel image" out &&
	test_grep "corpus 2: 0 mount, 0 refused, 0 differ, 0 oops, 2 no verdict" out
'
test_expect_success CHROMIUM 'with the corpus, every reader sees the same totals' '
	run_matrix && with_corpus FAIL && { report res >/dev/null 2>&1 || :; } && check-reports res >out &&
	test_grep "agree: 8 passed, 2 failed, 10 skipped" out &&
	test_grep "rendered in chromium: 8 passed, 2 failed, 10 skipped; 20 cells" out
'
# with_fstests [KERNEL]: fstests planned for 9.9 on the kernels k-vanilla
# and k-patched, and judged (test/fstests/judge-fstests) on runs that booted
# KERNEL-vanilla and KERNEL-patched (k by default): a/1 passes on both, a/2
# is fixed, a/3 fails on patched alone, a/4 is not run, a/5 fails on both.
# Each run's keys are those of these kernels, these tests and the root
# image root.img (its key r1), as run-fstests writes them.
with_fstests() {
	echo r1 >root.img.key &&
	for v in vanilla patched; do
		mkdir -p res/9.9/fstests/$v && echo "${1:-k}-$v" >res/9.9/fstests/$v/kernel && echo 40 >res/9.9/fstests/$v/wall &&
		printf "kernel=%s\ntests=%s\nroot=r1\nrun=%s\n" "$("$TOP/build/key" file "${1:-k}-$v")" \
			"$("$TOP/build/key" words a/1 a/2 a/3 a/4 a/5)" "$("$TOP/build/key" set fstests)" >res/9.9/fstests/$v/keys || return 1
	done &&
	printf "a/1\tpass\t5\t\na/2\tfail\t6\t- output mismatch\na/3\tpass\t7\t\na/4\tnotrun\t1\ttoo old\na/5\tfail\t2\t- output mismatch\n" \
		>res/9.9/fstests/vanilla/fstests.tsv &&
	printf "a/1\tpass\t5\t\na/2\tpass\t6\t\na/3\tfail\t7\t- output mismatch\na/4\tnotrun\t1\ttoo old\na/5\tfail\t2\t- output mismatch\n" \
		>res/9.9/fstests/patched/fstests.tsv &&
	{ "$TOP/test/fstests/judge-fstests" 9.9 res/9.9/fstests none vanilla patched >/dev/null; test $? = 3; } &&
	printf "fstests\t9.9\t%s\tvanilla=k-vanilla patched=k-patched\ta/1 a/2 a/3 a/4 a/5\t-\t%s\n" res/9.9/fstests "$trash/root.img" >>res/plan.tsv
}
test_expect_success 'fstests: a record a test and variant beside vanilla, in every report' '
	run_matrix && with_fstests && test_must_fail 1 report res >out 2>&1 &&
	test "$(tail -1 out)" = "7 passed, 2 failed, 8 skipped" &&
	test_grep "^  9.9    patched: 1 pass, 1 fixed, 1 FAIL, 1 baseline, 1 skipped; 21 s in tests (vanilla 21 s), 40 s a boot (vanilla 40 s)$" out &&
	test_grep "^         a/2  *fail  *pass fixed$" out && test_grep "^         a/3  *pass  *fail FAIL$" out &&
	test_grep "^         a/5  *fail  *fail baseline$" out &&
	test_grep "9.9 patched fstests a/3: FAIL: patched: fail (vanilla: pass): - output mismatch" out &&
	test_grep "^    not ok 3 a/3 # FAIL$" res/results.ktap && test_grep "^    ok 4 a/4 # SKIP" res/results.ktap &&
	test_grep "^not ok [0-9]* 9.9.patched.fstests$" res/results.ktap &&
	python3 -c "
import xml.etree.ElementTree as ET
s = [s for s in ET.parse(\"res/junit.xml\").getroot() if s.get(\"name\") == \"9.9/fstests\"][0]
assert (s.get(\"tests\"), s.get(\"failures\"), s.get(\"skipped\")) == (\"5\", \"1\", \"2\"), s.attrib
assert s[2].get(\"classname\") == \"9.9.patched.fstests\" and s[2].find(\"failure\") is not None" &&
	test_grep "<table class=\"fstests\" id=\"fstests-9.9\">" res/matrix.html
'
# readers TOTALS: check-reports agrees on TOTALS; the page is read in
# chromium where there is one, else check-reports must say it could not.
readers() {
	if test_have_prereq CHROMIUM; then
		check-reports res >out && test_grep "rendered in chromium: $1; " out
	else
		KIT_CHROMIUM=false test_must_fail check-reports res >out 2>err && test_grep "chromium could not render" err
	fi &&
	test_grep "agree: $1$" out
}
test_expect_success JSONSCHEMA 'fstests: every reader sees the same totals' '
	run_matrix && with_fstests && { report res >/dev/null 2>&1 || :; } && readers "7 passed, 2 failed, 8 skipped"
'
test_expect_success 'fstests verdicts of other kernels, or a run that failed, are ERROR for each test, never a pass' '
	run_matrix && with_fstests old && test_must_fail 1 report res >out 2>&1 &&
	test_grep "9.9 patched 5 fstests tests: ERROR: not run: the fstests verdicts on record are of other kernels (old-patched)" out &&
	run_matrix && with_fstests && echo "run-fstests: no root" >res/9.9/fstests/vanilla.failed &&
	test_must_fail 1 report res >out 2>&1 && test_grep "9.9 patched 5 fstests tests: ERROR: run-fstests: no root" out &&
	test "$(tail -1 out)" = "5 passed, 6 failed, 6 skipped"
'
test_expect_success 'fstests verdicts of other tests, another root image or another run-fstests are stale: ERROR, never a pass' '
	run_matrix && with_fstests && sed -i "s/a\/4 a\/5	-	/a\/4	-	/" res/plan.tsv && test_must_fail 1 report res >out 2>&1 &&
	test_grep "9.9 patched 5 fstests tests: ERROR: stale: made from another tests than this run.s; run make matrix FSTESTS=1 again (vanilla.s run)" out &&
	run_matrix && with_fstests && echo r2 >root.img.key && test_must_fail 1 report res >out 2>&1 &&
	test_grep "9.9 patched 5 fstests tests: ERROR: stale: made from another root than this run.s" out &&
	run_matrix && with_fstests && sed -i "s/^run=.*/run=0123456789abcdef/" res/9.9/fstests/patched/keys &&
	{ "$TOP/test/fstests/judge-fstests" 9.9 res/9.9/fstests none vanilla patched >/dev/null; test $? = 3; } &&
	test_must_fail 1 report res >out 2>&1 &&
	test_grep "9.9 patched 5 fstests tests: ERROR: stale: made from another run than this run.s; run make matrix FSTESTS=1 again (patched.s run)" out &&
	run_matrix && with_fstests && rm res/9.9/fstests/patched/keys &&
	{ "$TOP/test/fstests/judge-fstests" 9.9 res/9.9/fstests none vanilla patched >/dev/null; test $? = 3; } &&
	test_must_fail 1 report res >out 2>&1 &&
	test_grep "9.9 patched 5 fstests tests: ERROR: stale: made from another kernel, tests, root, run than this run.s" out
'
test_expect_success 'fstests without a tree: each planned test SKIP, naming KIT_FSTESTS' '
	run_matrix && printf "fstests\t9.9\t-\tvanilla=k-vanilla patched=k-patched\ta/1 a/2\tno fstests tree given: set KIT_FSTESTS\t-\n" >>res/plan.tsv &&
	test_must_fail 1 report res >out 2>&1 && test "$(tail -1 out)" = "5 passed, 1 failed, 8 skipped" &&
	test_grep "^         SKIP: no fstests tree given: set KIT_FSTESTS$" out
'
test_expect_success 'fstests: a step of any variant that failed, or no verdict at all, leaves every variant ERROR' '
	run_matrix && with_fstests && mkdir -p res/9.9/hardened-fstests &&
	echo "build: no space left" >res/9.9/hardened-fstests/build.failed &&
	sed -i "s/^\(fstests.*\)vanilla=k-vanilla patched=k-patched/\1vanilla=k-vanilla patched=k-patched hardened=k-hardened/" res/plan.tsv &&
	test_must_fail 1 report res >out 2>&1 &&
	test_grep "9.9 patched 5 fstests tests: ERROR: not run: the hardened-fstests kernel did not build: build: no space left" out &&
	test_grep "9.9 hardened 5 fstests tests: ERROR: not run: the hardened-fstests kernel did not build" out &&
	run_matrix && with_fstests && rm res/9.9/fstests/verdict.json && test_must_fail 1 report res >out 2>&1 &&
	test_grep "9.9 patched 5 fstests tests: ERROR: not run: no res/9.9/fstests/verdict.json" out
'
test_expect_success 'fstests: no result from check on either kernel is ERROR, never fixed nor baseline' '
	run_matrix && with_fstests && sed -i "s/^a\/2	fail	6	.*/a\/2	error	0	the guest left no results/" res/9.9/fstests/vanilla/fstests.tsv &&
	{ "$TOP/test/fstests/judge-fstests" 9.9 res/9.9/fstests none vanilla patched >/dev/null; test $? = 3; } &&
	test_must_fail 1 report res >out 2>&1 &&
	test_grep "9.9 patched fstests a/2: ERROR: patched: no result on vanilla to hold it against: the guest left no results" out &&
	test_grep "^         a/2  *error  *ERROR$" out
'
test_expect_success JSONSCHEMA 'fstests: with no result on vanilla, every reader sees the same totals' '
	run_matrix && with_fstests && sed -i "s/^a\/2	fail	6	.*/a\/2	error	0	the guest left no results/" res/9.9/fstests/vanilla/fstests.tsv &&
	{ "$TOP/test/fstests/judge-fstests" 9.9 res/9.9/fstests none vanilla patched >/dev/null; test $? = 3; } &&
	{ report res >/dev/null 2>&1 || :; } && readers "6 passed, 3 failed, 8 skipped"
'
# lost_coverage: the run of with_fstests where patched did not run a/1
# (vanilla passes it) and its results lack a/3 (vanilla passes it) and a/4
# (not run on vanilla either), judged again.
lost_coverage() {
	with_fstests && sed -i "s/^a\/1	pass	5	$/a\/1	notrun	0	requires a newer kernel/; /^a\/[34]	/d" res/9.9/fstests/patched/fstests.tsv &&
	{ "$TOP/test/fstests/judge-fstests" 9.9 res/9.9/fstests none vanilla patched >/dev/null; test $? = 3; }
}
test_expect_success 'fstests: a test vanilla passes that a variant did not run is FAIL in every report' '
	run_matrix && lost_coverage && test_must_fail 1 report res >out 2>&1 &&
	test "$(tail -1 out)" = "6 passed, 4 failed, 7 skipped" &&
	test_grep "^         a/1  *pass  *notrun FAIL$" out && test_grep "^         a/3  *pass  *absent FAIL$" out &&
	test_grep "^         a/4  *notrun  *ERROR$" out &&
	test_grep "9.9 patched fstests a/1: FAIL: patched: vanilla passes, this variant did not run it (not run: requires a newer kernel): coverage lost" out &&
	test_grep "9.9 patched fstests a/3: FAIL: patched: vanilla passes, this variant did not run it (not in patched/fstests.tsv): coverage lost" out &&
	test_grep "^    not ok 1 a/1 # FAIL$" res/results.ktap && test_grep "^    not ok 3 a/3 # FAIL$" res/results.ktap &&
	python3 -c "
import xml.etree.ElementTree as ET
s = [s for s in ET.parse(\"res/junit.xml\").getroot() if s.get(\"name\") == \"9.9/fstests\"][0]
assert (s.get(\"failures\"), s.get(\"errors\"), s.get(\"skipped\")) == (\"2\", \"1\", \"1\"), s.attrib"
'
test_expect_success JSONSCHEMA 'fstests: with coverage lost and a result missing, every reader sees the same totals' '
	run_matrix && lost_coverage && { report res >/dev/null 2>&1 || :; } && readers "6 passed, 4 failed, 7 skipped"
'
test_done
