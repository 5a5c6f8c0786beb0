# SPDX-License-Identifier: GPL-2.0
# Image fuzzing, opt-in (make fuzz): FUZZ_COUNT mutated images of the image
# cases (seeded: the same FUZZ_SEED makes the same images) booted on every
# variant of FUZZ_SERIES (the plan's: by default the two newest series this
# run has; with SANITIZE=1 the sanitizer kernels too), bounded by
# FUZZ_SECONDS; test/fuzz/run-fuzz writes RESULTS/fuzz/.
.PHONY: fuzz

FUZZ_SEED ?= 1
FUZZ_COUNT ?= 2000
FUZZ_SECONDS ?= 3600
# A case whose image asks the kernel to panic on an error is no base for
# mutations (test/cases/NAME/nofuzz says why): a mutated image that mounts
# and then errs panics at its own request, not the kernel's fault.
NOFUZZ := $(notdir $(patsubst %/,%,$(dir $(wildcard test/cases/*/nofuzz))))
FUZZ_CASES ?= $(filter-out $(NOFUZZ) %~twin,$(CASES))
fuzz_kernels = $(foreach k,$(FUZZ_KERNELS),$(word 3,$(subst :, ,$(k))))
ifneq ($(and $(filter fuzz,$(MAKECMDGOALS)),$(FUZZ_ERROR)),)
$(error $(FUZZ_ERROR))
endif

fuzz: $(fuzz_kernels) $(FUZZ_CASES:%=$(KIT_BUILD)/images/%.img) $(BIN)/fuzz $(BIN)/guest-init | $(call deps,guest report)
	@KIT_FUZZ_KERNELS="$(FUZZ_KERNELS)" \
	  KIT_FUZZ_SECONDS=$(FUZZ_SECONDS) KIT_FUZZ=$(BIN)/fuzz KIT_IMAGES=$(KIT_BUILD)/images $(FUZZ_GUEST_ENV) \
	  $(if $(SANITIZE),KIT_GUEST_MEM=1G KIT_GUEST_TIMEOUT=900 KIT_GUEST_STALL=180) \
	  test/fuzz/run-fuzz $(FUZZ_SEED) $(FUZZ_COUNT) $(RESULTS)/fuzz $(FUZZ_CASES)
