# SPDX-License-Identifier: GPL-2.0
# The maintainers' tools: the review document of every stack against its
# originals (make review: build/tools/review, RESULTS/review*/; lint errors
# fail), a stack applied to your own tree (make apply: build/tools/apply), a
# Debian pin moved to the newest release served (make bump: build/tools/bump),
# a stack in a distribution's format (make export: build/tools/export, OUT/),
# the upstream submission from the newest series' tree and the run's
# results.json (make submission: build/tools/submission,
# RESULTS/submission/, its repository in KIT_CACHE/submission/), and the
# kit's own fstests as fstests takes new tests (make fstests-submission).
.PHONY: review apply bump export submission fstests-submission

review: | $(call deps,stacks report)
	@fl=$$(for s in $$(build/matrix list matrix.yaml); do build/matrix variants matrix.yaml $$s; done | tr ' ' '\n' | \
	  grep -vx 'vanilla\|patched' | sort -u) || exit 2; \
	  for f in "" $$fl; do \
	  build/tools/review $${f:+--flavour $$f} --results $(RESULTS)/results.json $(RESULTS)/review$${f:+-$$f} || exit 1; done

#   make apply TREE=... [STACK=versions/X.Y] [APPLY_FLAGS="--dry-run --flavour hardened"]
apply: | $(call deps,stacks)
	@test -n "$(TREE)" || { echo "make apply: say which tree, e.g. make apply TREE=/usr/src/linux-source-6.1" >&2; exit 2; }
	@build/tools/apply $(APPLY_FLAGS) $(if $(STACK),--stack $(STACK)) $(TREE)

bump: | $(call deps,fetch)
	@test -n "$(SERIES)" || { echo "make bump: say which, e.g. make bump SERIES=6.1" >&2; exit 2; }
	@build/tools/bump $(SERIES) matrix.yaml matrix.lock

#   make export FORMAT=debian|stable-queue|android|suse SERIES=X.Y OUT=DIR
#               [FLAVOUR=hardened] [TREE=...] [BUG=...] [CHECK=1]
# sq WORD: WORD quoted for the shell, whatever it holds.
sq = '$(subst ','\'',$(1))'

# Without TREE, the series' own tree (fetched and unpacked if need be) is
# taken, brought back to vanilla under its lock (build/kernel/push-stack),
# as the matrix's kernels start from it.
EXPORT_TREE = $(or $(TREE),$(SRCDIR.$(SERIES)))
EXPORT_FLAGS = $(if $(FLAVOUR),--flavour $(call sq,$(FLAVOUR))) --tree $(call sq,$(EXPORT_TREE)) \
  $(if $(BUG),--bug $(call sq,$(BUG))) $(if $(CHECK),--check)
export: $(if $(TREE),,$(if $(SRCDIR.$(SERIES)),$(SRCDIR.$(SERIES)).stamp)) | $(call deps,stacks)
	@test -n $(call sq,$(FORMAT)) && test -n $(call sq,$(SERIES)) && test -n $(call sq,$(OUT)) || \
	  { echo "make export: say what, e.g. make export FORMAT=debian SERIES=6.1 OUT=/tmp/6.1-debian" >&2; exit 2; }
	@test -n $(call sq,$(EXPORT_TREE)) || { echo "make export: SERIES="$(call sq,$(SERIES))": no tree of it in this run; give TREE=" >&2; exit 2; }
	@$(if $(TREE),,$(call vanilla_then,$(SERIES),$(EXPORT_TREE))) build/tools/export $(EXPORT_FLAGS) \
	  $(call sq,$(FORMAT)) $(call sq,$(SERIES)) $(call sq,$(OUT))

# vanilla_then SERIES,TREE: a command prefix that pops the stack of the
# kit's own tree of SERIES under its lock, then runs the command.
vanilla_then = flock $(call sq,$(2).lock) sh -c 's=$$0 t=$$1; shift; build/kernel/push-stack "$$s" vanilla "$$t" \
  versions/"$$s" $(RESULTS)/maintain $(RESULTS)/maintain/vanilla.log >/dev/null && exec "$$@"' $(call sq,$(1)) $(call sq,$(2))

# The newest series of the run by version (the plan's RUN_NEWEST), or
# SERIES=; its tree, popped to vanilla.  KIT_UPSTREAM (a git repository
# of the ext4 tree or of mainline) and KIT_UPSTREAM_REV (its commit,
# HEAD when unset): the tree the mails go against, with its base-commit.
SUBMIT := $(or $(SERIES),$(RUN_NEWEST))
SUBMIT_TREE = $(SRCDIR.$(SUBMIT))
submission: $(if $(SUBMIT_TREE),$(SUBMIT_TREE).stamp) | $(call deps,submission report)
	@test -n "$(SUBMIT_TREE)" || { echo "make submission: SERIES=$(SUBMIT) is not a series this run has a tree of" >&2; exit 2; }
	@mkdir -p $(RESULTS)/maintain $(KIT_CACHE)/submission
	@$(call vanilla_then,$(SUBMIT),$(SUBMIT_TREE)) build/tools/submission --tree $(SUBMIT_TREE) --series $(SUBMIT) \
	  --results $(RESULTS)/results.json --repo $(KIT_CACHE)/submission/$(notdir $(SUBMIT_TREE)) \
	  $(if $(KIT_UPSTREAM),--upstream $(call sq,$(KIT_UPSTREAM)) $(if $(KIT_UPSTREAM_REV),--rev $(call sq,$(KIT_UPSTREAM_REV)))) \
	  $(RESULTS)/submission

# The kit's own fstests as patches to the fstests tree KIT_FSTESTS names
# (build/tools/fstests-submission: RESULTS/submission/fstests/, and a copy
# of that tree with them applied, KIT_CACHE/submission/fstests-applied),
# then held to fstests' own check in a run of their own: SUBMIT's series,
# each variant's fstests kernel on that copy, those tests alone, no corpus
# (RESULTS/submission/fstests-run/).  Each must fail on vanilla and pass on
# every variant (fstests-submission --verify reads that run's results.json).
FST_SUBMIT_COPY = $(KIT_CACHE)/submission/fstests-applied
fstests-submission: | $(call deps,submission report)
	@test -n $(call sq,$(KIT_FSTESTS)) || { echo "make fstests-submission: $(FST_NONE)" >&2; exit 2; }
	@test -n "$(SUBMIT_TREE)" || { echo "make fstests-submission: SERIES=$(SUBMIT) is not a series this run has a tree of" >&2; exit 2; }
	@mkdir -p $(RESULTS)/submission $(KIT_CACHE)/submission
	@build/tools/fstests-submission --tree $(call sq,$(KIT_FSTESTS)) --applied $(FST_SUBMIT_COPY) $(RESULTS)/submission/fstests
	@rm -f $(RESULTS)/submission/fstests-run/results.json
	@$(MAKE) --no-print-directory matrix VERSIONS=$(SUBMIT) FSTESTS=1 CORPUS= SHARD= KIT_FSTESTS=$(FST_SUBMIT_COPY) \
	  FST_TESTS="$$(cat $(RESULTS)/submission/fstests/tests)" RESULTS=$(RESULTS)/submission/fstests-run || :
	@build/tools/fstests-submission --verify $(RESULTS)/submission/fstests $(RESULTS)/submission/fstests-run/results.json $(SUBMIT)
