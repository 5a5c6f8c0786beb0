#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The reports of a (stand-in) matrix run: results.json against its schema,
# junit.xml parsed, matrix.html rendered in headless Chromium.
. "$(dirname "$0")/lib.sh"
export KIT_CACHE="$trash/cache" KIT_CASES_DIR="$trash/cases" KIT_IMAGES="$trash/images"
export KIT_QEMU="$trash/fake-qemu" KIT_GUEST_INIT="$trash/init" KIT_GUEST_TIMEOUT=3
command -v chromium >/dev/null && test_set_prereq CHROMIUM
python3 -c "import jsonschema" 2>/dev/null && test_set_prereq JSONSCHEMA

setup() {
	mkdir -p cases images cache && : >init && chmod +x init && touch kernel &&
	for c in a b c; do
		mkdir -p cases/$c && echo "ro" >cases/$c/mount && printf "mount: ok\nkmsg~ hello $c\n" >cases/$c/expect &&
		: >images/$c.img && : >images/$c.img.manifest || return 1
	done
	# The stand-in reads the plan from the initramfs, as the real guest does.
	cat >fake-qemu <<-'Q'
	#!/bin/sh
	while [ $# -gt 0 ]; do [ "$1" = -initrd ] && rd=$2; shift; done
	plan=$(cpio -i --quiet --to-stdout plan <"$rd")
	[ "$FAKE" = silent ] && exec sleep 60
	echo "KTAP version 1"
	n=0
	echo "$plan" | while read -r dev c mode; do
		n=$((n + 1))
		echo "# case $n $c"
		case "$FAKE:$c" in
		hang:b) exec sleep 60 ;;
		panic:b) echo "Kernel panic - not syncing: Attempted to kill init!"; exit 0 ;;
		trouble:b) echo "# out: mount: ok"; echo "# kmsg: hello b"; echo "not ok $n b # ERROR kernel trouble: WARNING: at fs/ext4"; continue ;;
		wrong:b) echo "# out: mount: EUCLEAN"; echo "# kmsg: hello b"; echo "ok $n b"; continue ;;
		esac
		echo "# out: mount: ok"; echo "some kernel line"; echo "# kmsg: hello $c"; echo "ok $n $c"
	done
	Q
	chmod +x fake-qemu
}
st() { awk -F'\t' -v c="$1" '$3 == c { print $4 }' r/cells.tsv; }

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
test_done
