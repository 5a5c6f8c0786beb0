# SPDX-License-Identifier: GPL-2.0
# The image cases: each case's image (test/cases/CASE/recipe, made by the
# image tool into KIT_BUILD/images), each kernel booted on all of them in
# QEMU (BOOTS: RESULTS/X.Y/VARIANT/boot.tsv, test/guest/run-guest), and the
# verdicts judged against the cases' expect files (VERDICTS:
# RESULTS/X.Y/VARIANT/cells.json, test/judge/judge).
.PHONY: images

IMAGES := $(CASES:%=$(KIT_BUILD)/images/%.img)
images: $(IMAGES)

# (Each image carries the key of what it was made from beside it, $@.key.)
$(KIT_BUILD)/images/%.img: test/cases/%/recipe $(BIN)/mkimage build/key
	@mkdir -p $(@D)
	@build/key made $* >$@.key.tmp
	@$(call guarded,$(RESULTS)/images/$*.failed,image $*,$(BIN)/mkimage $< $@)
	@mv -f $@.key.tmp $@.key

# A case's unflagged twin (CASE~twin, the plan's CASES name it when the
# recipe sets shared_blocks): the same recipe, that line left out.  (The
# shorter stem wins, so this rule, not the one above, makes it.)
$(KIT_BUILD)/images/%~twin.img: test/cases/%/recipe $(BIN)/mkimage build/key
	@mkdir -p $(@D)
	@build/key made $*~twin >$@.key.tmp
	@$(call guarded,$(RESULTS)/images/$*~twin.failed,image $*~twin,$(BIN)/mkimage --twin $< $@)
	@mv -f $@.key.tmp $@.key

# What the boots and the judge are made of (build/key files SET): the
# files of each set are their prerequisites, and the same files are hashed
# into the keys their records carry, which the report checks.
KEY_guest := $(shell build/key files guest)
KEY_judge := $(shell build/key files judge)

# The expect files there are: rewritten only when one comes or goes.
$(KIT_BUILD)/expect.list: FORCE
	@mkdir -p $(@D)
	@ls -1 test/cases/*/expect* >$@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

# The guest program of another arch than the default one (GUEST_INITS, the
# plan's: guest-init-TRIPLET; tools.mk builds the default one), by its
# cross compiler (p_cc, from matrix.yaml's arches), static.
$(GUEST_INITS): $(shell build/key files prog) build/key | $(call deps,tools)
	@mkdir -p $(@D)
	@build/key set prog >$@.key.tmp
	@$(call guarded,$(RESULTS)/tools/$(@F).failed,the guest program build ($(p_cc)),$(p_cc) $(CFLAGS) -Icommon -static -o $@ test/guest/guest-init.c common/sha256.c)
	@mv -f $@.key.tmp $@.key

# The boot depends on the kernel and the images, not on what is expected.
# For example: test/guest/run-guest 6.1 patched KERNEL results/6.1/patched.
# (The plan names each boot's guest program, its arch's, as a prerequisite
# and in p_guest_env with the arch's emulator and channels.)
$(BOOTS): $(IMAGES) $(KEY_guest) build/key $(wildcard test/cases/*/mount)
	@$(call guarded,$(p_failed),boot,$(p_guest_env) KIT_CASES="$(CASES)" KIT_IMAGES=$(KIT_BUILD)/images \
	  KIT_STACK_HASH=$(p_stack_hash) test/guest/run-guest $(p_series) $(p_variant) $(p_kernel) $(@D))

# An edited, added or removed expect file is judged again, without a boot.
$(VERDICTS): $(KEY_judge) $(BIN)/matrix build/key matrix.yaml $(KIT_BUILD)/expect.list $(wildcard test/cases/*/expect*) | $(call deps,report)
	@$(call guarded,$(p_failed),judge,test/judge/judge $(p_series) $(p_variant) $(@D) $(p_vanilla))
