# SPDX-License-Identifier: GPL-2.0
# What every recipe of the kit shares: the packages a goal needs, the
# failure markers, the jobserver, and the exit status of a verdict.

define NL


endef

# $(call deps,PURPOSE...): the stamps of the packages those purposes need
# (build/fetch/packages), installed by build/fetch/deps, and the kit's python3.  A
# goal installs only what it uses.
deps = $(foreach g,$(1),$(KIT_BUILD)/deps-$(g).stamp) $(BIN)/python3

# $(call guarded,MARKER,STEP,COMMAND): a step that fails leaves its one-line
# reason in MARKER (lib.sh's die writes it; else the exit status), so the
# report turns the cells it leaves without verdicts into ERROR cells.
# Markers are per step (the plan names each target's as $(p_failed):
# RESULTS/X.Y/{fetch,source,unpack}.failed, RESULTS/X.Y/VARIANT/{build,
# boot,judge}.failed, ...); make matrix clears them all first, so they say
# what failed in this run.  For example, 6.1 patched's build:
#   rm -f results/6.1/patched/build.failed; export KIT_FAILURE_FILE=...;
#   build/kernel/kernel 6.1 patched ... || { rc=$?; ...; echo "build failed
#   (exit $rc)" >results/6.1/patched/build.failed; exit $rc; }
guarded = rm -f $(1); export KIT_FAILURE_FILE=$(1); $(3) || { rc=$$?; mkdir -p $(dir $(1)); [ -s $(1) ] || echo "$(2) failed (exit $$rc)" >$(1); exit $$rc; }

# $(call verdict,COMMAND): exit status 3 is a verdict (a gate found
# something; its tsv says what), not a failure of the step.
verdict = ( $(1) || { rc=$$?; [ $$rc -eq 3 ] || exit $$rc; } )

# The steps of a run share JOBS slots (make matrix JOBS=N, default this
# machine's processors) through make's jobserver: a boot or a download
# takes one, and a kernel or gate build takes as many compiles as are free
# (build/lib.sh's kbuild_jflag), so a boot of one series runs beside the
# compiles of another.  $(REC) marks a recipe line that runs such a build
# as make's own ("+"), for make hands its jobserver only to those; never
# under make -n, which would run the line.  (DRY_RUN: GNU make's manual,
# "Testing Flags"; MAKEFLAGS' first word holds the one-letter flags, -r
# always among them.)
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))
REC = $(if $(DRY_RUN),,+)
