# SPDX-License-Identifier: GPL-2.0
# A run: every cell of the plan (CELLS: each variant's verdicts, the
# corpus', the gates', fstests'), then the report of them all
# (test/report/report: the table, RESULTS/results.json, junit.xml, results.ktap,
# matrix.html, kcidb.json), held to the plan (RESULTS/plan.tsv).
.PHONY: matrix plan cells report kcidb-submit clean-results

cells: $(CELLS)

# A failing step is a cell, not a stop: every other series still runs, the
# report is written, and the exit status says something failed.  A
# compile farm (KIT_DISTCC_HOSTS: build/lib.sh's kbuild) needs its client.
FARM_DEPS := $(if $(KIT_DISTCC_HOSTS),farm)
# The plan is written first, as this make read it: a gate's packages,
# installed during the run, are in the gate key of neither.  One run at a
# time writes a results folder (build/run-owner, this make's PID: each
# line's shell is its child): a second run on it stops (exit 2) before it
# clears a marker or rewrites the plan.
matrix: | $(call deps,tools fetch build images guest report $(FARM_DEPS))
	@mkdir -p $(RESULTS) && build/run-owner take $(RESULTS) $$PPID
	@find $(RESULTS) -name '*.failed' -delete && rm -f $(RESULTS)/.cells-failed $(RESULTS)/*/fstests/verdict.json
	@build/matrix plan matrix.yaml --tsv $(PLAN_ARGS) >$(RESULTS)/plan.tsv.tmp && mv -f $(RESULTS)/plan.tsv.tmp $(RESULTS)/plan.tsv || \
	  { rm -f $(RESULTS)/plan.tsv.tmp $(RESULTS)/plan.tsv; exit 2; }
	@$(MAKE) -k $(if $(filter --jobserver%,$(MAKEFLAGS)),,-j$(JOBS)) --no-print-directory cells || \
	  { $(if $(DRY_RUN),:,mkdir -p $(RESULTS); touch $(RESULTS)/.cells-failed); }
	@rc=0; test/report/report $(RESULTS) || rc=$$?; \
	  [ ! -e $(RESULTS)/.cells-failed ] || [ $$rc -ne 0 ] || rc=1; rm -f $(RESULTS)/.cells-failed; \
	  build/run-owner drop $(RESULTS) $$PPID; exit $$rc

# What a run (of this SHARD) is to do, as the report reads it; runs nothing.
plan:
	@build/matrix plan matrix.yaml --tsv $(PLAN_ARGS)

# Render the reports again from results.json alone; with FROM, merge the
# results.json of several folders (the shards of one run, from any
# machines) into RESULTS, refusing results of another kit commit, stack or
# image set, or a cell present twice.
report: | $(call deps,report)
	@$(if $(FROM),test/report/report --merge $(RESULTS) $(FROM),test/report/report --render $(RESULTS)/results.json)

# The run as KernelCI takes it (RESULTS/kcidb.json, written again with
# KCIDB_ORIGIN, the origin KernelCI gave you), and the commands that send
# it; nothing is sent.  KCIDB_IO: a kcidb-io source tree to validate it
# with first (test/report/kcidb-check).
KCIDB_ORIGIN ?= ext4_backport_kit
kcidb-submit: | $(call deps,report)
	@test/report/report --kcidb $(RESULTS)/results.json $(call sq,$(KCIDB_ORIGIN))
	@$(if $(KCIDB_IO),test/report/kcidb-check $(call sq,$(KCIDB_IO)) $(RESULTS)/kcidb.json)

clean-results:
	rm -rf $(RESULTS)
