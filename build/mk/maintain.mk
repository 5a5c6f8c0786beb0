# SPDX-License-Identifier: GPL-2.0
# The maintainers' tools: the review document of every stack against its
# originals (make review: build/tools/review, RESULTS/review*/; lint errors
# fail), a stack applied to your own tree (make apply: build/tools/apply), a
# Debian pin moved to the newest release served (make bump: build/tools/bump),
# a stack in a distribution's format (make export: build/tools/export, OUT/).
.PHONY: review apply bump export

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
export: | $(call deps,stacks)
	@test -n "$(FORMAT)" && test -n "$(SERIES)" && test -n "$(OUT)" || \
	  { echo "make export: say what, e.g. make export FORMAT=debian SERIES=6.1 OUT=/tmp/6.1-debian" >&2; exit 2; }
	@build/tools/export $(if $(FLAVOUR),--flavour '$(FLAVOUR)') $(if $(TREE),--tree '$(TREE)') \
	  $(if $(BUG),--bug '$(BUG)') $(if $(CHECK),--check) '$(FORMAT)' '$(SERIES)' '$(OUT)'
