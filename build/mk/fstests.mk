# SPDX-License-Identifier: GPL-2.0
# fstests, opt-in (make matrix FSTESTS=1, or make fstests SERIES=X.Y: that
# series' matrix with its fstests): vanilla and each variant built once
# more with test/fstests/kernel.config on top of the kit's fragment (the
# variants X-fstests, an object tree of their own), each booted on a Debian
# root filesystem (FST_ROOT, test/fstests/fstests-rootfs: mmdebstrap, cached) with
# a copy of the fstests tree KIT_FSTESTS names (built by you; the kit never
# fetches or builds it) and the kit's own tests (test/fstests/tests/), running
# test/fstests/list less the series' expunges (test/fstests/expunges/X.Y), each test
# bounded (FST_RUNS: RESULTS/X.Y/fstests/VARIANT/fstests.tsv,
# test/fstests/run-fstests); test/fstests/judge-fstests holds each variant to vanilla (no
# new failure) in RESULTS/X.Y/fstests/verdict.json (FST_VERDICTS), which
# the report reads.
.PHONY: fstests

# (Asked every run: test/fstests/fstests-rootfs keeps the image, and its
# time, while the tree's files and the kit's are what it was made of.)
$(FST_ROOT): FORCE | $(call deps,build fstests)
	@$(call guarded,$(RESULTS)/fstests-root.failed,fstests root filesystem,test/fstests/fstests-rootfs $(KIT_FSTESTS) $@)

# The expunge files there are (as expect.list: a file gone runs again).
$(KIT_BUILD)/expunges.list: FORCE
	@mkdir -p $(@D)
	@ls -1 test/fstests/expunges/ 2>/dev/null >$@.tmp; { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

# The tests of each series' run (FST_TESTS, or test/fstests/list less the
# series' expunges), rewritten only when they change.
$(FST_LISTS): FORCE
	@mkdir -p $(@D) && echo $(p_tests) >$@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

$(FST_RUNS): test/fstests/run-fstests $(KIT_BUILD)/expunges.list | $(call deps,guest)
	@$(call guarded,$(p_failed),fstests run,test/fstests/run-fstests $(p_series) $(p_variant) $(p_kernel) $(FST_ROOT) $(@D) $(p_tests))

$(FST_VERDICTS): test/fstests/judge-fstests $(KIT_BUILD)/expunges.list | $(call deps,report)
	@$(call guarded,$(p_failed),fstests judge,$(call verdict,test/fstests/judge-fstests $(p_series) $(@D) test/fstests/expunges/$(p_series) $(p_variants)))

fstests:
	@test -n "$(SERIES)" || { echo "make fstests: say which series, e.g. make fstests SERIES=6.1" >&2; exit 2; }
	@$(if $(filter $(SERIES),$(SERIES_ALL)),,echo "make fstests: '$(SERIES)' is not a series of matrix.yaml ($(SERIES_ALL))" >&2; exit 2)
	@$(if $(KIT_FSTESTS),$(MAKE) --no-print-directory matrix VERSIONS=$(SERIES) FSTESTS=1 SHARD=,echo "$(SERIES) fstests: SKIP: $(FST_NONE)")
