#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# .gitlab-ci.yml: one matrix job for each series of matrix.yaml, no more,
# no fewer; each job runs its series as a shard (SHARD=X.Y) into a folder
# of its own, which the report job merges.  With gitlab-ci-local here
# (make ci-local installs it), its own reading of the file agrees.
. "$(dirname "$0")/lib.sh"

GCL=$(ls -d "$KIT_CACHE"/gitlab-ci-local-*/node_modules/.bin/gitlab-ci-local 2>/dev/null | tail -1)
[ -n "$GCL" ] && test_set_prereq GCL
python3 -c "import yaml" 2>/dev/null && test_set_prereq PYYAML

test_expect_success PYYAML 'the matrix jobs are the series of matrix.yaml, in its order' '
	"$TOP/build/matrix" -C "$TOP" list "$TOP/matrix.yaml" >want &&
	python3 -c "
import sys, yaml
ci = yaml.safe_load(open(sys.argv[1]))
for s in ci[\"matrix\"][\"parallel\"][\"matrix\"][0][\"SERIES\"]:
    print(s)" "$TOP/.gitlab-ci.yml" >got && test_cmp want got
'
test_expect_success PYYAML 'each job is a shard of one series with its own results folder; the report merges them all' '
	python3 -c "
import sys, yaml
ci = yaml.safe_load(open(sys.argv[1]))
m = ci[\"matrix\"]
assert any(\"SHARD=\\\"\$SERIES\\\"\" in l and \"RESULTS=\\\"results/\$SERIES\\\"\" in l for l in m[\"script\"]), m[\"script\"]
assert m[\"artifacts\"][\"paths\"] == [\"results/\$SERIES/\"] and m[\"artifacts\"][\"when\"] == \"always\"
r = ci[\"report\"]
assert r[\"needs\"] == [\"matrix\"] and r[\"when\"] == \"always\"
assert any(\"make report FROM=\" in l for l in r[\"script\"])
assert ci[\"pages\"][\"artifacts\"][\"paths\"] == [\"public/\"]" "$TOP/.gitlab-ci.yml"
'
test_expect_success GCL 'gitlab-ci-local reads it: the unit job, a matrix job a series, report, pages' '
	mkdir -p gcl && cp "$TOP/.gitlab-ci.yml" gcl/ && git -C gcl init -q &&
	git -C gcl add .gitlab-ci.yml && git -C gcl -c user.name=kit -c user.email=kit@localhost commit -q -m ci &&
	(cd gcl && "$GCL" --list) >list 2>/dev/null &&
	for s in $("$TOP/build/matrix" -C "$TOP" list "$TOP/matrix.yaml"); do
		grep -q "^matrix: \[$s\] " list || { cat list; exit 1; }
	done &&
	test "$(grep -c "^matrix: \[" list)" = "$("$TOP/build/matrix" -C "$TOP" list "$TOP/matrix.yaml" | wc -l)" &&
	grep -q "^report .*always" list && grep -q "^pages " list && grep -q "^unit " list
'
test_done
