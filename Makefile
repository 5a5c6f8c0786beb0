# SPDX-License-Identifier: GPL-2.0
# ext4 backport kit: build every series of matrix.yaml vanilla and patched,
# boot each kernel in QEMU on the image set, and print the verdict table.
#
#   make matrix [VERSIONS="6.1 7.3"]   build, boot, verdicts
#   make check                         unit tests, then the matrix
#   make bump SERIES=6.1               move a Debian pin to the newest served
#
# Series differ in data (matrix.yaml, versions/X.Y) only: the rules below
# are made once per series from the same template.

KIT_CACHE ?= $(if $(XDG_CACHE_HOME),$(XDG_CACHE_HOME),$(HOME)/.cache)/ext4-backport-kit
RESULTS ?= results
KIT_T0 := $(shell date +%s)
export KIT_CACHE KIT_T0 RESULTS

BIN := $(KIT_CACHE)/bin
CFLAGS ?= -O2 -g -Wall -Wextra -Werror=implicit-function-declaration
CONFIG := common/kernel.config
FIX_A_ORIG := $(wildcard common/upstream/A-*.patch)
# Flavours beyond the reviewed fix, each a versions/X.Y/series.FLAVOUR;
# FLAVOURS= leaves them out of the matrix.
FLAVOURS ?= hardened
CASES := $(sort $(notdir $(patsubst %/,%,$(dir $(wildcard test/cases/*/recipe)))))
IMAGES := $(CASES:%=$(KIT_CACHE)/images/%.img)
DEPS := $(KIT_CACHE)/deps.stamp

.PHONY: all matrix kernels images check check-unit review apply bump clean-results FORCE
.DELETE_ON_ERROR:
all: matrix

$(DEPS): build/packages build/deps
	@mkdir -p $(@D)
	@build/deps build/packages
	@touch $@

$(BIN)/matrix: build/matrix.c | $(DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< -lyaml

$(BIN)/mkimage: test/mkimage.c common/sha256.c common/sha256.h | $(DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon -o $@ test/mkimage.c common/sha256.c -lext2fs -lcom_err

$(BIN)/guest-init: test/guest-init.c common/sha256.c common/sha256.h | $(DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon -static -o $@ test/guest-init.c common/sha256.c

# matrix.yaml as make variables; a bad file stops everything here.
$(KIT_CACHE)/matrix.mk: matrix.yaml $(BIN)/matrix $(wildcard test/cases/*/expect*)
	@$(BIN)/matrix mk matrix.yaml >$@.tmp && mv -f $@.tmp $@ || { rm -f $@.tmp; exit 2; }
include $(KIT_CACHE)/matrix.mk

VERSIONS ?= $(SERIES_ALL)
$(foreach s,$(VERSIONS),$(if $(filter $(s),$(SERIES_ALL)),,$(error VERSIONS: '$(s)' is not a series of matrix.yaml (known: $(SERIES_ALL)))))
SUITES := $(sort $(foreach s,$(SERIES_ALL),$(S_$(s)_suite)))
export KIT_SUITES := $(SUITES)

# What a series is built as: shipped, with its stack, and each flavour it has.
flavours = $(foreach f,$(FLAVOURS),$(if $(wildcard $(S_$(1)_stack)/series.$(f)),$(f)))
variants = vanilla patched $(call flavours,$(1))

# Where a series' source comes from: a pinned .deb, or a path the user gives.
src_input = $(if $(filter debian,$(S_$(1)_kind)),$(KIT_CACHE)/debs/$(S_$(1)_package)_$(S_$(1)_version).deb,$(or $($(S_$(1)_env)),$(S_$(1)_path)))
src_ready = $(if $(filter debian,$(S_$(1)_kind)),y,$(if $(call src_input,$(1)),$(wildcard $(call src_input,$(1)))))
skip_reason = $(if $(call src_input,$(1)),$(S_$(1)_kind) $(call src_input,$(1)) does not exist,no $(S_$(1)_kind) given): set $(S_$(1)_env) to a $(1).y kernel $(S_$(1)_kind) (stack verified on $(or $(S_$(1)_verified),no release))

define debian_rules
$(KIT_CACHE)/debs/$(S_$(1)_package)_$(S_$(1)_version).deb: | $(DEPS)
	@build/fetch-debian $(1) $(S_$(1)_package) $(S_$(1)_version) $(S_$(1)_suite) $$@ matrix.lock
endef
$(foreach s,$(SERIES_ALL),$(if $(filter debian,$(S_$(s)_kind)),$(eval $(call debian_rules,$(s)))))

define series_rules
# Rewritten only when the source changes (another path, release or file).
$(KIT_CACHE)/src/$(1).from: $(call src_input,$(1)) FORCE
	@mkdir -p $$(@D)
	@build/source-id $(S_$(1)_kind) $(call src_input,$(1)) >$$@.tmp && \
	  { cmp -s $$@.tmp $$@ && rm -f $$@.tmp || mv -f $$@.tmp $$@; }

# .from carries the source's mtime and size, so it alone says when to
# unpack.  A new source also voids the object tree: its files may be older
# than the objects, and make would keep objects of the old source.
$(KIT_CACHE)/src/$(1).stamp: $(KIT_CACHE)/src/$(1).from | $(DEPS)
	@build/unpack $(1) $(S_$(1)_kind) $(call src_input,$(1)) $(KIT_CACHE)/src/$(1)
	@rm -rf $(KIT_CACHE)/obj/$(1)
	@touch $$@

$(KIT_CACHE)/out/$(1)/vanilla/bzImage: $(KIT_CACHE)/src/$(1).stamp $(CONFIG) build/kernel build/check-config
	@KIT_CONFIG=$(CONFIG) KIT_FIX_A="$(S_$(1)_fix_A)" KIT_FIX_A_ORIG=$(FIX_A_ORIG) \
	  build/kernel $(1) vanilla $(KIT_CACHE)/src/$(1) $(KIT_CACHE)/obj/$(1) $$(@D) $(S_$(1)_stack)

# After vanilla, in the same object tree: only the stack's files recompile.
$(KIT_CACHE)/out/$(1)/patched/bzImage: $(KIT_CACHE)/out/$(1)/vanilla/bzImage $(S_$(1)_stack)/series $(wildcard $(S_$(1)_stack)/*.patch)
	@KIT_CONFIG=$(CONFIG) KIT_FIX_A="$(S_$(1)_fix_A)" KIT_FIX_A_ORIG=$(FIX_A_ORIG) \
	  build/kernel $(1) patched $(KIT_CACHE)/src/$(1) $(KIT_CACHE)/obj/$(1) $$(@D) $(S_$(1)_stack)

$(foreach f,$(call flavours,$(1)),
$(KIT_CACHE)/out/$(1)/$(f)/bzImage: $(KIT_CACHE)/out/$(1)/patched/bzImage $(S_$(1)_stack)/series.$(f) $(wildcard $(S_$(1)_stack)/*.patch)
	@KIT_CONFIG=$(CONFIG) KIT_FIX_A="$(S_$(1)_fix_A)" KIT_FIX_A_ORIG=$(FIX_A_ORIG) \
	  build/kernel $(1) $(f) $(KIT_CACHE)/src/$(1) $(KIT_CACHE)/obj/$(1) $$(@D) $(S_$(1)_stack)
)

$(foreach v,$(call variants,$(1)),
$(RESULTS)/$(1)/$(v)/cells.tsv: $(KIT_CACHE)/out/$(1)/$(v)/bzImage $(IMAGES) $(BIN)/guest-init test/run-guest test/verdict $(wildcard test/cases/*/*) $(KIT_CACHE)/matrix.mk
	@test/run-guest $(1) $(v) $(KIT_CACHE)/out/$(1)/$(v)/bzImage $(RESULTS)/$(1)/$(v)
)
endef
$(foreach s,$(SERIES_ALL),$(eval $(call series_rules,$(s))))

# A series whose source is missing becomes a SKIP row, never a pass.
RUN := $(foreach s,$(VERSIONS),$(if $(call src_ready,$(s)),$(s)))
SKIP := $(filter-out $(RUN),$(VERSIONS))
CELLS := $(foreach s,$(RUN),$(foreach v,$(call variants,$(s)),$(RESULTS)/$(s)/$(v)/cells.tsv))

$(KIT_CACHE)/images/%.img: test/cases/%/recipe $(BIN)/mkimage
	@mkdir -p $(@D)
	@$(BIN)/mkimage $< $@

images: $(IMAGES)
kernels: $(foreach s,$(RUN),$(foreach v,$(call variants,$(s)),$(KIT_CACHE)/out/$(s)/$(v)/bzImage))

matrix: $(CELLS) FORCE
	@mkdir -p $(RESULTS)
	@: >$(RESULTS)/skipped.tsv
	@$(foreach s,$(SKIP),printf '%s\t%s\n' '$(s)' '$(call skip_reason,$(s))' >>$(RESULTS)/skipped.tsv;)
	@KIT_VARIANTS="vanilla patched $(FLAVOURS)" KIT_VERIFIED="$(foreach s,$(RUN),$(s)=$(S_$(s)_verified))" test/report $(RESULTS) "$(RUN)" "$(CASES)"

# The review document of every stack against its originals (lint errors fail).
review:
	@build/review --results $(RESULTS)/results.json $(RESULTS)/review
	@build/review --flavour hardened --results $(RESULTS)/results.json $(RESULTS)/review-hardened

# Apply a stack to your own tree:
#   make apply TREE=... [STACK=versions/X.Y] [APPLY_FLAGS="--dry-run --flavour hardened"]
apply:
	@test -n "$(TREE)" || { echo "make apply: say which tree, e.g. make apply TREE=/usr/src/linux-source-6.1" >&2; exit 2; }
	@build/apply $(APPLY_FLAGS) $(if $(STACK),--stack $(STACK)) $(TREE)

bump:
	@test -n "$(SERIES)" || { echo "make bump: say which, e.g. make bump SERIES=6.1" >&2; exit 2; }
	@build/bump $(SERIES) $(S_$(SERIES)_package) $(S_$(SERIES)_suite) matrix.yaml matrix.lock

check-unit: $(BIN)/matrix $(BIN)/mkimage $(BIN)/guest-init
	@test/run-tests unit

check: $(BIN)/matrix $(BIN)/mkimage $(BIN)/guest-init
	@test/run-tests all

clean-results:
	rm -rf $(RESULTS)
