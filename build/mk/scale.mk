# SPDX-License-Identifier: GPL-2.0
# Mount times of large images, opt-in (make mount-time): every case of
# test/scale booted MOUNT_ROUNDS times on every variant of the series the
# heavy proofs run on (FUZZ_SERIES: by default the two newest this run
# has); test/scale/run-mount-time writes RESULTS/mount-time/ and prints
# a table of the medians.  The images (about 430 MiB of disk each) are
# made in KIT_BUILD/scale/.
.PHONY: mount-time

MOUNT_ROUNDS ?= 3
SCALE_CASES := $(notdir $(patsubst %/,%,$(dir $(wildcard test/scale/*/mount))))
ifneq ($(and $(filter mount-time,$(MAKECMDGOALS)),$(FUZZ_ERROR)),)
$(error $(FUZZ_ERROR))
endif

$(KIT_BUILD)/scale/%.img: test/scale/%/recipe $(BIN)/mkimage | $(call deps,images)
	@mkdir -p $(@D)
	@rm -f $@ $@.manifest $@.meta
	@echo "image $* (test/scale)" && $(BIN)/mkimage $< $@

mount-time: $(fuzz_kernels) $(SCALE_CASES:%=$(KIT_BUILD)/scale/%.img) $(BIN)/guest-init | $(call deps,guest report)
	@KIT_IMAGES=$(KIT_BUILD)/scale $(FUZZ_GUEST_ENV) \
	  test/scale/run-mount-time $(RESULTS)/mount-time $(MOUNT_ROUNDS) $(FUZZ_KERNELS)
