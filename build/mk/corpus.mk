# SPDX-License-Identifier: GPL-2.0
# The image corpus (matrix.yaml corpus:, images nobody here made): fetched
# into CORPUS_DIR (CORPUS_INDEX), each kernel booted on every image of it
# (CORPUS_BOOTS: RESULTS/X.Y/corpus/VARIANT/boot.tsv, test/guest/run-corpus),
# judged against the boot of vanilla of the same arch (CORPUS_VERDICTS:
# .../judged.json).
# CORPUS= (empty) leaves it out.
.PHONY: corpus

KEY_corpus := $(shell build/key files corpus)

# Written whole by build/fetch/fetch-corpus (renamed into place), so the index
# says it is there.  (FORCE: it checks its downloads against matrix.lock on
# every make, and rewrites nothing while they are what the disk is made of.)
$(CORPUS_INDEX): matrix.lock FORCE | $(call deps,fetch)
	@$(call guarded,$(RESULTS)/corpus.failed,corpus fetch,build/fetch/fetch-corpus $(p_source) $(p_version) $(p_suite) '$(p_images)' $(CORPUS_DIR) matrix.lock)
corpus: $(CORPUS_INDEX)

# The corpus' expectation files there are (none is none).
$(KIT_BUILD)/corpus-expect.list: FORCE
	@mkdir -p $(@D)
	@ls -1 test/corpus/ 2>/dev/null >$@.tmp; { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

$(CORPUS_BOOTS): $(CORPUS_INDEX) $(KEY_corpus) build/key
	@$(call guarded,$(p_failed),corpus boot,$(p_guest_env) \
	  test/guest/run-corpus $(p_series) $(p_variant) $(p_kernel) $(CORPUS_DIR) $(@D))

$(CORPUS_VERDICTS): $(KEY_judge) $(BIN)/matrix build/key $(KIT_BUILD)/corpus-expect.list $(wildcard test/corpus/*) | $(call deps,report)
	@$(call guarded,$(p_failed),corpus judge,test/judge/judge --corpus $(p_series) $(p_variant) $(@D) $(p_vanilla))
