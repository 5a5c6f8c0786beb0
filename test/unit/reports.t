#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The reports of a (stand-in) matrix run: results.json against its schema,
# junit.xml parsed, matrix.html rendered in headless Chromium.
. "$(dirname "$0")/lib.sh"
. "$TOP/test/unit/fake-guest.sh"
command -v chromium >/dev/null && test_set_prereq CHROMIUM
python3 -c "import jsonschema" 2>/dev/null && test_set_prereq JSONSCHEMA

run_matrix() {
	setup && rm -rf res && mkdir -p res/9.9 && FAKE=ok run-guest 9.9 vanilla kernel res/9.9/vanilla >/dev/null &&
	FAKE=wrong run-guest 9.9 patched kernel res/9.9/patched >/dev/null &&
	printf "5.4\tno tree given: set KIT_SRC_5_4\n" >res/skipped.tsv &&
	{ report res 9.9 "a b c" >report.out 2>&1 || :; }
}

test_expect_success JSONSCHEMA 'results.json follows its schema, junit.xml parses and agrees' '
	run_matrix && python3 -c "
import json, jsonschema, xml.etree.ElementTree as ET
jsonschema.validate(json.load(open(\"res/results.json\")), json.load(open(\"$TOP/test/results.schema.json\")))
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
jsonschema.validate(json.load(open(\"res/results.json\")), json.load(open(\"$TOP/test/results.schema.json\")))"
'
test_expect_success CHROMIUM 'the page renders in chromium with the counts of results.json' '
	run_matrix && check-reports res >out && test_grep "rendered in chromium: 5 passed, 1 failed, 6 skipped; 12 cells" out &&
	test -s res/matrix.png
'
test_expect_success CHROMIUM 'a page whose counts do not render is caught' '
	run_matrix && sed -i "s/<script>.*//" res/matrix.html && test_must_fail check-reports res 2>err
'
# report_verified SUBLEVEL: a run of 9.9.SUBLEVEL whose stack was verified on 9.9.3.
report_verified() {
	run_matrix && mkdir -p kc/src/9.9 &&
	printf "VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = %s\n" "$1" >kc/src/9.9/Makefile &&
	{ KIT_CACHE=$trash/kc KIT_VERIFIED="5.4=5.4.286 9.9=9.9.3" report res 9.9 "a b c" >report.out 2>&1 || :; }
}
test_expect_success 'the table says which release a stack was verified on' '
	report_verified 3 && test_grep "^  9.9    9.9.3        9.9.3$" report.out &&
	test_grep "\"kernel\": \"9.9.3\", \"verified\": \"9.9.3\"" res/results.json
'
test_expect_success 'a tree of another sublevel is marked as such' '
	report_verified 7 &&
	test_grep "^  9.9    9.9.7        9.9.3 (another sublevel: the stack applied at zero fuzz)$" report.out &&
	test_grep "<td>9.9.7</td><td>9.9.3</td>" res/matrix.html
'
test_done
