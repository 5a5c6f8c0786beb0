# SPDX-License-Identifier: GPL-2.0
# ext4 backport kit: build every series of matrix.yaml as shipped, patched
# and in each flavour, boot each kernel in QEMU on the image set, judge the
# verdicts, and print the table.
#
#   make matrix [VERSIONS="6.1 7.3"] [FLAVOURS=...] [CORPUS=] [SANITIZE=1] [GATES=1] [FSTESTS=1] [JOBS=N]
#                                      build, boot, judge, report (JOBS steps at once)
#   make gates [GATES_ALLMOD="5.10 7.3"]   the matrix and its build gates
#   make check                         unit tests, then the matrix with its gates
#   make check-farm                    distcc, remote ccache and shards on real kernels
#   make ci-local                      the CI pipeline (.gitlab-ci.yml) run here
#   make matrix SHARD=2/3 | SHARD=6.1  the 2nd of 3 shares of the series, or one
#   make report [FROM="DIR..."]        render results/results.json again, or
#                                      merge the results folders of shards
#   make fuzz [FUZZ_SERIES=...] [FUZZ_COUNT=2000] [FUZZ_SEED=1]   mutated images
#   make fstests SERIES=6.1 KIT_FSTESTS=...   that series' matrix with fstests
#   make bump SERIES=6.1               move a Debian pin to the newest served
#   make apply TREE=...  |  make review  |  make clean-results
#
# Series differ in data (matrix.yaml, versions/X.Y) only: the rules below
# are made once per series and variant from the same templates.

KIT_CACHE ?= $(if $(XDG_CACHE_HOME),$(XDG_CACHE_HOME),$(HOME)/.cache)/ext4-backport-kit
# What this checkout derives from its own files (its programs, the matrix
# as make variables, the images) lives with the checkout: two checkouts on
# one cache never read each other's.  The cache holds what is keyed by what
# it is: downloads, unpacked trees, objects, ccache, kernels by stack hash.
KIT_BUILD ?= $(CURDIR)/.kit
RESULTS ?= results
KIT_T0 := $(or $(KIT_T0),$(shell date +%s))
export KIT_CACHE KIT_BUILD KIT_T0 RESULTS

BIN := $(KIT_BUILD)/bin
# Python: Debian's interpreter, the one build/packages installs the kit's
# modules (python3-yaml, python3-jsonschema) for.  A python3 found first on
# PATH (a virtualenv, a pyenv shim) may lack them, and a shim costs time on
# every call (pyenv's here: 5 calls 5.1 s, 0.43 s direct).  $(BIN)/python3
# points at PYTHON and $(BIN) leads PATH in every recipe, so the kit's
# scripts (#!/usr/bin/env python3) and its python3 calls all run PYTHON.
# A path, not a search: on a machine without Python yet, the link is made
# after build/deps has installed Debian's, so it names that one.
PYTHON ?= /usr/bin/python3
export PATH := $(BIN):$(PATH)
CFLAGS ?= -O2 -g -Wall -Wextra -Werror=implicit-function-declaration
CONFIG := common/kernel.config
FIX_A_ORIG := $(wildcard common/upstream/A-*.patch)
CASES := $(sort $(notdir $(patsubst %/,%,$(dir $(wildcard test/cases/*/recipe)))))
IMAGES := $(CASES:%=$(KIT_BUILD)/images/%.img)

# No built-in rules: make's own "%.out: %" (cp) overwrote a test's expected
# output with the test, the test being newer.
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:
.PHONY: all matrix plan gates cells sources check-farm ci-local fstests kernels images corpus fuzz check check-unit report review apply bump clean-results tools FORCE
.DELETE_ON_ERROR:
all: matrix

# Packages by purpose (build/packages): a goal installs only what it uses.
# Every goal that asks for packages gets the kit's python3 too.
deps = $(foreach g,$(1),$(KIT_BUILD)/deps-$(g).stamp) $(BIN)/python3
$(KIT_BUILD)/deps-%.stamp: build/packages build/deps
	@mkdir -p $(@D)
	@build/deps build/packages $*
	@touch $@

$(BIN)/python3: FORCE | $(KIT_BUILD)/deps-report.stamp
	@[ "$$(readlink $@)" = "$(PYTHON)" ] || { [ -x "$(PYTHON)" ] || { echo "PYTHON=$(PYTHON): not an interpreter; name Python 3 by its path" >&2; exit 2; }; \
	  mkdir -p $(@D) && ln -sfn $(PYTHON) $@; }

$(BIN)/matrix: build/matrix.c common/sha256.c common/sha256.h | $(call deps,tools)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon -o $@ build/matrix.c common/sha256.c -lyaml
tools: $(BIN)/matrix

# The image tool and the guest program: a build that fails leaves its
# marker (RESULTS/tools/NAME.failed), so the report names it in every cell
# instead of showing verdicts of the last program that built.
$(BIN)/mkimage: $(shell build/key files image) | $(call deps,tools images)
	@mkdir -p $(@D)
	@$(call guarded,$(RESULTS)/tools/mkimage.failed,the image tool build,$(CC) $(CFLAGS) -Icommon -Itest -o $@ test/mkimage.c test/mutate.c common/sha256.c -lext2fs -lcom_err)

$(BIN)/fuzz: test/fuzz.c test/mutate.c test/mutate.h common/sha256.c common/sha256.h | $(call deps,tools images)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon -Itest -o $@ test/fuzz.c test/mutate.c common/sha256.c -lext2fs -lcom_err

# (The guest program carries the key of its sources beside it, $@.key,
# written only once it built: a boot records that, not the sources' key.)
$(BIN)/guest-init: $(shell build/key files prog) build/key | $(call deps,tools)
	@mkdir -p $(@D)
	@build/key set prog >$@.key.tmp
	@$(call guarded,$(RESULTS)/tools/guest-init.failed,the guest program build,$(CC) $(CFLAGS) -Icommon -static -o $@ test/guest-init.c common/sha256.c)
	@mv -f $@.key.tmp $@.key

# Goals that never read the matrix as make variables do not build its reader.
LIGHT_GOALS := apply review clean-results tools report $(BIN)/matrix
ifneq ($(filter-out $(LIGHT_GOALS),$(or $(MAKECMDGOALS),all)),)
# matrix.yaml as make variables; a bad file stops everything here.
STACK_FILES := $(wildcard versions/*/series versions/*/series.* versions/*/*.patch)
$(KIT_BUILD)/matrix.mk: matrix.yaml $(BIN)/matrix $(STACK_FILES)
	@$(BIN)/matrix mk matrix.yaml >$@.tmp && mv -f $@.tmp $@ || { rm -f $@.tmp; exit 2; }
include $(KIT_BUILD)/matrix.mk
endif

VERSIONS ?= $(SERIES_ALL)
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))
override VERSIONS := $(strip $(call uniq,$(VERSIONS)))
# (checked once matrix.mk is read: make reads the Makefile again after
# making it)
$(if $(SERIES_ALL),$(foreach s,$(VERSIONS),$(if $(filter $(s),$(SERIES_ALL)),,$(error VERSIONS: '$(s)' is not a series of matrix.yaml (known: $(SERIES_ALL))))))
# The image corpus (matrix.yaml corpus:), booted on every kernel; CORPUS=
# (empty) leaves it out.  Its source package comes through the same apt
# state, so its suite is among the private state's suites.
CORPUS ?= $(if $(CORPUS_source),$(CORPUS_source)_$(CORPUS_version))
CORPUS_DIR := $(KIT_CACHE)/corpus/$(CORPUS_source)_$(CORPUS_version)
SUITES := $(sort $(foreach s,$(SERIES_ALL),$(S_$(s)_suite)) $(if $(CORPUS_suite),src:$(CORPUS_suite)))
export KIT_SUITES := $(SUITES)

# What a series is built as: shipped, with its stack, and each flavour its
# stack has (versions/X.Y/series.F); FLAVOURS= leaves the flavours out.
flavours_of = $(filter-out vanilla patched,$(S_$(1)_variants))
FLAVOURS ?= $(sort $(foreach s,$(SERIES_ALL),$(call flavours_of,$(s))))
# SANITIZE=1: patched and each flavour built once more with the sanitizers
# (common/sanitize.config on top of the kit's fragment) in an object tree
# of their own, booted on the image cases and the corpus: the variants
# X-san, whose stack and expected verdicts are X's.  fstests' kernels are
# the same kind of variant: X-fstests, fstests/kernel.config on top.
SANITIZE ?=
variants = vanilla patched $(filter $(FLAVOURS),$(call flavours_of,$(1)))$(if $(SANITIZE), patched-san $(addsuffix -san,$(filter $(FLAVOURS),$(call flavours_of,$(1)))))
KINDS := san fstests
kind = $(firstword $(foreach k,$(KINDS),$(if $(filter %-$(k),$(1)),$(k))))
stackv = $(patsubst %-$(call kind,$(1)),%,$(1))
san = $(filter %-san,$(1))
# The variant a variant builds on, in the same object tree.
base_of = $(if $(filter vanilla vanilla-fstests patched-san,$(2)),,$(if $(filter patched,$(call stackv,$(2))),vanilla,patched)$(if $(call kind,$(2)),-$(call kind,$(2))))
KIND_CONFIG_san := $(KIT_BUILD)/sanitize.config
KIND_CONFIG_fstests := $(KIT_BUILD)/fstests.config
$(KIT_BUILD)/sanitize.config: $(CONFIG) common/sanitize.config
$(KIT_BUILD)/fstests.config: $(CONFIG) fstests/kernel.config
$(KIND_CONFIG_san) $(KIND_CONFIG_fstests):
	@mkdir -p $(@D)
	@cat $^ >$@.tmp && mv -f $@.tmp $@
config_of = $(if $(call kind,$(1)),$(KIND_CONFIG_$(call kind,$(1))),$(CONFIG))
# Kernels are keyed by what they are: the source, the config with how it
# is built (the kit's build scripts: two checkouts on one cache never take
# each other's kernel for their own) and the stack pushed.
RECIPE := build/kernel build/lib.sh build/push-stack build/check-config
CONFIG_HASH := $(shell cat $(CONFIG) $(RECIPE) | sha256sum | cut -c1-8)
KIND_HASH_san := $(shell cat $(CONFIG) common/sanitize.config $(RECIPE) | sha256sum | cut -c1-8)
KIND_HASH_fstests := $(shell cat $(CONFIG) fstests/kernel.config $(RECIPE) | sha256sum | cut -c1-8)
stack_hash = $(S_$(1)_hash_$(call stackv,$(2)))
kdir = $(KIT_CACHE)/out/$(1)/$(2)-$(SRCKEY_$(1))-$(if $(call kind,$(2)),$(KIND_HASH_$(call kind,$(2))),$(CONFIG_HASH))$(if $(call stack_hash,$(1),$(2)),-$(call stack_hash,$(1),$(2)))
kernel = $(call kdir,$(1),$(2))/bzImage
# The guest of a sanitizer kernel is slower and needs room for the shadow.
guest_env = $(if $(call san,$(1)),KIT_GUEST_MEM=1G KIT_GUEST_TIMEOUT=900 KIT_GUEST_STALL=180)

# Where a series' source comes from: a pinned .deb, or a path the user gives.
# KIT_SRC_X_Y (the series' dots as underscores) gives any series a kernel
# tree by path, a Debian-served one included, so a distribution's own tree
# of that series goes through the same proof.
src_override = $(KIT_SRC_$(subst .,_,$(1)))
src_kind = $(if $(call src_override,$(1)),tree,$(S_$(1)_kind))
src_input = $(if $(filter debian,$(call src_kind,$(1))),$(KIT_CACHE)/debs/$(S_$(1)_package)_$(S_$(1)_version).deb,$(or $(call src_override,$(1)),$($(S_$(1)_env)),$(S_$(1)_path)))
src_ready = $(if $(filter debian,$(call src_kind,$(1))),y,$(if $(call src_input,$(1)),$(wildcard $(call src_input,$(1)))))
skip_reason = $(if $(call src_input,$(1)),$(call src_kind,$(1)) $(call src_input,$(1)) does not exist,no $(call src_kind,$(1)) given): set $(or $(S_$(1)_env),KIT_SRC_$(subst .,_,$(1))) to a $(1).y kernel $(call src_kind,$(1)) (stack verified on $(or $(S_$(1)_verified),no release))
# What the report holds a kernel's source key to (build/key): a Debian
# .deb by what matrix.lock pins, a tarball or tree by itself.
src_spec = $(if $(filter debian,$(call src_kind,$(1))),debian $(S_$(1)_package) $(S_$(1)_version),$(call src_kind,$(1)) $(call src_input,$(1)))
# (after src_input: the key is of the source this run takes)
srckey = $(shell printf '%s' '$(call src_input,$(1))' | sha256sum | cut -c1-8)
$(foreach s,$(SERIES_ALL),$(eval SRCKEY_$(s) := $(call srckey,$(s))))

# Where a series' source is unpacked and built, keyed by the source this
# run takes (SRCKEY: two checkouts with other pins on one cache never
# delete or take each other's tree): srcdir SERIES (with .from, .stamp and
# .lock beside it), objdir SERIES [KIND], gatedir SERIES GATE.
srcdir = $(KIT_CACHE)/src/$(1)-$(SRCKEY_$(1))
objdir = $(KIT_CACHE)/obj/$(1)-$(SRCKEY_$(1))$(if $(2),-$(2))
gatedir = $(KIT_CACHE)/gates/$(1)-$(SRCKEY_$(1))-$(2)

# $(call guarded,MARKER,STEP,COMMAND): a step that fails leaves its one-line
# reason in MARKER (lib.sh's die writes it; else the exit status), so the
# report turns the cells it leaves without verdicts into ERROR cells.
# Markers are per step: RESULTS/images/CASE.failed, RESULTS/X.Y/{fetch,
# source,unpack}.failed, RESULTS/X.Y/VARIANT/{build,boot,judge}.failed;
# make matrix clears them all first, so they say what failed in this run.
guarded = rm -f $(1); export KIT_FAILURE_FILE=$(1); $(3) || { rc=$$?; mkdir -p $(dir $(1)); [ -s $(1) ] || echo "$(2) failed (exit $$rc)" >$(1); exit $$rc; }

# The steps of a run share JOBS slots (make matrix JOBS=N, default this
# machine's processors) through make's jobserver: a boot or a download
# takes one, and a kernel or gate build takes as many compiles as are
# free (build/lib.sh's kbuild_jflag), so a boot of one series runs beside
# the compiles of another and no core waits on a download.  $(REC) marks
# a recipe line that runs such a build as make's own ("+"), for make
# hands its jobserver only to those; never under make -n, which would
# run the line.
JOBS ?= $(shell nproc)
REC = $(if $(DRY_RUN),,+)

# (FORCE: fetch-debian checks a .deb already there against matrix.lock on
# every make, before anything reads it, and fetches it again if it differs.)
define debian_rules
$(KIT_CACHE)/debs/$(S_$(1)_package)_$(S_$(1)_version).deb: FORCE | $(call deps,fetch)
	@$$(call guarded,$(RESULTS)/$(1)/fetch.failed,fetch,build/fetch-debian $(1) $(S_$(1)_package) $(S_$(1)_version) $(S_$(1)_suite) $$@ matrix.lock)
endef
$(foreach s,$(SERIES_ALL),$(if $(filter debian,$(call src_kind,$(s))),$(eval $(call debian_rules,$(s)))))

define series_rules
# Rewritten only when the source changes (another path, release or file).
$(call srcdir,$(1)).from: $(call src_input,$(1)) FORCE
	@mkdir -p $$(@D)
	@$$(call guarded,$(RESULTS)/$(1)/source.failed,source,build/source-id $(call src_kind,$(1)) $(call src_input,$(1)) >$$@.tmp) && \
	  { cmp -s $$@.tmp $$@ && rm -f $$@.tmp || mv -f $$@.tmp $$@; }

# .from carries the source's mtime and size, so it alone says when to
# unpack.  A new source also voids the object tree: its files may be older
# than the objects, and make would keep objects of the old source.
$(call srcdir,$(1)).stamp: $(call srcdir,$(1)).from | $(call deps,build)
	@mkdir -p $(KIT_CACHE)/src
	@$$(call guarded,$(RESULTS)/$(1)/unpack.failed,unpack,flock $(call srcdir,$(1)).lock build/unpack $(1) $(call src_kind,$(1)) $(call src_input,$(1)) $(call srcdir,$(1)) \
	  $(call objdir,$(1)) $(foreach k,$(KINDS),$(call objdir,$(1),$(k))))
	@touch $$@
endef

# What the boots and the judge are made of (build/key files SET): the
# files of each set are their prerequisites, and the same files are hashed
# into the keys their records carry, which the report checks.
KEY_guest := $(shell build/key files guest)
KEY_corpus := $(shell build/key files corpus)
KEY_judge := $(shell build/key files judge)

# One variant: its kernel (after the variant it builds on, in the same
# object tree: only the stack's files recompile), its boot, its verdicts.
# RESULTS/X.Y/VARIANT.kernel names the kernel the run takes, rewritten only
# when it changes: a kernel taken again from the cache (older than the
# last boot, of another) is booted again.
define variant_rules
$(RESULTS)/$(1)/$(2).kernel: FORCE
	@mkdir -p $$(@D) && echo $(call kernel,$(1),$(2)) >$$@.tmp && { cmp -s $$@.tmp $$@ && rm -f $$@.tmp || mv -f $$@.tmp $$@; }

$(call kernel,$(1),$(2)): $(call srcdir,$(1)).stamp $(call config_of,$(2)) build/kernel build/lib.sh build/check-config $(S_$(1)_list_$(call stackv,$(2))) $(S_$(1)_patches_$(call stackv,$(2))) $(if $(call base_of,$(1),$(2)),$(call kernel,$(1),$(call base_of,$(1),$(2))))
	$$(REC)@$$(call guarded,$(RESULTS)/$(1)/$(2)/build.failed,build,KIT_CONFIG=$(call config_of,$(2)) KIT_VARIANT_NAME=$(2) KIT_FIX_A="$(S_$(1)_fix_A)" KIT_FIX_A_ORIG=$(FIX_A_ORIG) \
	  KIT_SOURCE="$(call src_kind,$(1)) $(call src_input,$(1))" \
	  flock $(call srcdir,$(1)).lock build/kernel $(1) $(call stackv,$(2)) $(call srcdir,$(1)) $(call objdir,$(1),$(call kind,$(2))) $$(@D) $(S_$(1)_stack))

# The corpus: the same kernel on every image of it, judged against vanilla's.
$(RESULTS)/$(1)/corpus/$(2)/boot.tsv: $(call kernel,$(1),$(2)) $(RESULTS)/$(1)/$(2).kernel $(CORPUS_DIR)/index $(BIN)/guest-init $(KEY_corpus) build/key
	@$$(call guarded,$(RESULTS)/$(1)/corpus/$(2)-boot.failed,corpus boot,$(call guest_env,$(2)) KIT_GUEST_INIT=$(BIN)/guest-init \
	  test/run-corpus $(1) $(2) $(call kernel,$(1),$(2)) $(CORPUS_DIR) $(RESULTS)/$(1)/corpus/$(2))
$(RESULTS)/$(1)/corpus/$(2)/judged.json: $(RESULTS)/$(1)/corpus/$(2)/boot.tsv $(RESULTS)/$(1)/corpus/vanilla/boot.tsv $(KEY_judge) $(BIN)/matrix build/key $(KIT_BUILD)/corpus-expect.list $(wildcard test/corpus/*) | $(call deps,report)
	@$$(call guarded,$(RESULTS)/$(1)/corpus/$(2)-judge.failed,corpus judge,test/judge --corpus $(1) $(2) $(RESULTS)/$(1)/corpus/$(2) $(RESULTS)/$(1)/corpus/vanilla)

# The boot depends on the kernel and the images, not on what is expected.
$(RESULTS)/$(1)/$(2)/boot.tsv: $(call kernel,$(1),$(2)) $(RESULTS)/$(1)/$(2).kernel $(IMAGES) $(BIN)/guest-init $(KEY_guest) build/key $(wildcard test/cases/*/mount)
	@$$(call guarded,$(RESULTS)/$(1)/$(2)/boot.failed,boot,$(call guest_env,$(2)) KIT_CASES="$(CASES)" KIT_IMAGES=$(KIT_BUILD)/images KIT_GUEST_INIT=$(BIN)/guest-init \
	  KIT_STACK_HASH=$(or $(call stack_hash,$(1),$(2)),-) test/run-guest $(1) $(2) $(call kernel,$(1),$(2)) $(RESULTS)/$(1)/$(2))

# An edited, added or removed expect file is judged again, without a boot.
$(RESULTS)/$(1)/$(2)/cells.json: $(RESULTS)/$(1)/$(2)/boot.tsv $(KEY_judge) $(BIN)/matrix build/key matrix.yaml $(KIT_BUILD)/expect.list $(wildcard test/cases/*/expect*) | $(call deps,report)
	@$$(call guarded,$(RESULTS)/$(1)/$(2)/judge.failed,judge,test/judge $(1) $(2) $(RESULTS)/$(1)/$(2))
endef
# The build gates (make gates, or make matrix GATES=1): fs/ext4/ of each
# variant under the configuration the distribution ships (Debian's
# linux-config-X.Y of the pinned release; for a tree series, its
# x86_64_defconfig with every ext4 option, common/gates-ext4.config) and,
# for GATES_ALLMOD (the oldest and newest series of the run, all shards
# together), allmodconfig,
# with W=1 and sparse, each in an object tree of its own; checkpatch on
# every patch of every stack; for a Debian-served series, Debian's own
# kernel booted with ext4.ko built here (build/gate-shipped).  Findings are
# verdicts (exit status 3, the tsv says which); only a gate that cannot run
# leaves a marker.  GATES_CONFIG names the series whose config gate runs
# (every series of the run by default): make check takes the oldest and
# the newest (GATES_ENDS; given to test/run-tests as
# KIT_CHECK_GATES_CONFIG, which only its make matrix reads, not the unit
# tests' makes), to stay within its hour on a fresh machine;
# checkpatch and the shipped kernel run on every series.
GATES ?=
GATES_ENDS = $(shell printf '%s\n' $(READY) | sort -V | sed -n '1p;$$p' | sort -u)
GATES_ALLMOD ?= $(GATES_ENDS)
GATES_CONFIG ?= $(RUN)
GATE_FRAGMENT := common/gates-ext4.config
cfgpkg = $(patsubst linux-source-%,linux-config-%,$(S_$(1)_package))
cfgdeb = $(KIT_CACHE)/debs/$(call cfgpkg,$(1))_$(S_$(1)_version).deb
gate_config = $(if $(filter debian,$(call src_kind,$(1))),distro:$(call cfgdeb,$(1)),defconfig:$(GATE_FRAGMENT))
gate_variants = vanilla patched $(filter $(FLAVOURS),$(call flavours_of,$(1)))
config_gate = $(filter $(1),$(GATES_CONFIG))
gate_kinds = $(if $(call config_gate,$(1)),config) $(if $(filter $(1),$(GATES_ALLMOD)),allmodconfig) checkpatch $(if $(filter debian,$(call src_kind,$(1))),shipped)
gate_file = $(RESULTS)/$(1)/gates/$(2)/$(if $(filter checkpatch shipped,$(2)),$(2),gate).tsv
gate_stack = $(sort $(foreach v,$(call gate_variants,$(1)),$(S_$(1)_list_$(v)) $(S_$(1)_patches_$(v))))
# A series' tree is pushed to one variant at a time (each step holds its
# lock), so the steps that push run in a fixed order, the gates after the
# kernels and the shipped kernel after the config gate: a step waiting on
# the lock would hold a JOBS slot and do nothing.  (A gate whose kernels
# failed to build does not run; the report says so.)
after_kernels = | $(foreach v,$(call gate_variants,$(1)),$(call kernel,$(1),$(v)))
after_config_gate = $(call after_kernels,$(1)) $(if $(call config_gate,$(1)),$(call gate_file,$(1),config))
# What a series' gates are of: variants, stacks, source, configuration and
# tools.  (Read once a make; the gates' packages are installed by the make
# that runs the gates, so the plan's make and the gates' make read the
# same tools.)  Written into each gate's result and the plan: a result of another
# key (a gate make did not run again after a failed prerequisite) is stale.
TOOLS_ID := $(shell { gcc --version | head -1; sparse --version 2>/dev/null; } | sha256sum | cut -c1-8)
gate_key = $(shell printf '%s\n' '$(call gate_variants,$(1))' '$(foreach v,$(call gate_variants,$(1)),$(call stack_hash,$(1),$(v)))' \
	'$(SRCKEY_$(1))' '$(call gate_config,$(1))' '$(TOOLS_ID)' | sha256sum | cut -c1-12)
# (exit status 3 is a verdict, not a failure of the step)
verdict = ( $(1) || { rc=$$$$?; [ $$$$rc -eq 3 ] || exit $$$$rc; } )

define gate_rules
$(KIT_BUILD)/gates/$(1).key: FORCE
	@mkdir -p $$(@D) && echo $(call gate_key,$(1)) >$$@.tmp && { cmp -s $$@.tmp $$@ && rm -f $$@.tmp || mv -f $$@.tmp $$@; }
$(if $(filter debian,$(call src_kind,$(1))),$(call cfgdeb,$(1)): FORCE | $(call deps,fetch)
	@$$(call guarded,$(RESULTS)/$(1)/gates/fetch.failed,config fetch,build/fetch-debian $(1) $(call cfgpkg,$(1)) $(S_$(1)_version) $(S_$(1)_suite) $$@ matrix.lock))

$(call gate_file,$(1),config): $(call srcdir,$(1)).stamp $(patsubst defconfig:%,%,$(patsubst distro:%,%,$(call gate_config,$(1)))) build/gate-build build/push-stack build/lib.sh $(KIT_BUILD)/gates/$(1).key $(call gate_stack,$(1)) | $(call deps,build gates)
$(call gate_file,$(1),config): $(call after_kernels,$(1))
	$$(REC)@$$(call guarded,$(RESULTS)/$(1)/gates/config.failed,gates,$(call verdict,KIT_GATE_KEY=$(call gate_key,$(1)) flock $(call srcdir,$(1)).lock build/gate-build $(1) $(call gate_config,$(1)) \
	  $(call srcdir,$(1)) $(S_$(1)_stack) $(call gatedir,$(1),config) $$(@D) $(call gate_variants,$(1))))

$(call gate_file,$(1),allmodconfig): $(call srcdir,$(1)).stamp build/gate-build build/push-stack build/lib.sh $(KIT_BUILD)/gates/$(1).key $(call gate_stack,$(1)) | $(call deps,build gates)
$(call gate_file,$(1),allmodconfig): $(call after_config_gate,$(1))
	$$(REC)@$$(call guarded,$(RESULTS)/$(1)/gates/allmodconfig.failed,gates,$(call verdict,KIT_GATE_KEY=$(call gate_key,$(1)) flock $(call srcdir,$(1)).lock build/gate-build $(1) allmodconfig \
	  $(call srcdir,$(1)) $(S_$(1)_stack) $(call gatedir,$(1),allmodconfig) $$(@D) $(call gate_variants,$(1))))

$(call gate_file,$(1),checkpatch): $(call srcdir,$(1)).stamp build/gate-checkpatch build/lib.sh $(KIT_BUILD)/gates/$(1).key $(call gate_stack,$(1)) $(wildcard common/upstream/*.patch) | $(call deps,gates)
$(call gate_file,$(1),checkpatch): $(call after_kernels,$(1))
	@$$(call guarded,$(RESULTS)/$(1)/gates/checkpatch.failed,checkpatch,$(call verdict,KIT_GATE_KEY=$(call gate_key,$(1)) flock -s $(call srcdir,$(1)).lock \
	  build/gate-checkpatch $(1) $(call srcdir,$(1)) $(S_$(1)_stack) common/upstream $$(@D) $(call gate_variants,$(1))))

# Debian's own kernel of the release, its shipped ext4.ko and ours built
# against its headers (SKIP when this machine's gcc is not the one it was
# built with), booted on the image cases.
$(call gate_file,$(1),shipped): $(call srcdir,$(1)).stamp $(call cfgdeb,$(1)) build/gate-shipped build/push-stack build/fetch-debian build/apt-state.sh build/lib.sh $(KIT_BUILD)/gates/$(1).key $(call gate_stack,$(1)) \
	  $(IMAGES) $(BIN)/guest-init $(KEY_guest) $(KEY_judge) $(BIN)/matrix build/key matrix.yaml $(wildcard test/cases/*/mount) $(KIT_BUILD)/expect.list $(wildcard test/cases/*/expect*) | $(call deps,guest report gates)
$(call gate_file,$(1),shipped): $(call after_config_gate,$(1))
	$$(REC)@$$(call guarded,$(RESULTS)/$(1)/gates/shipped.failed,shipped kernel,$(call verdict,KIT_GATE_KEY=$(call gate_key,$(1)) KIT_CASES="$(CASES)" \
	  KIT_IMAGES=$(KIT_BUILD)/images KIT_GUEST_INIT=$(BIN)/guest-init flock $(call srcdir,$(1)).lock build/gate-shipped $(1) $(S_$(1)_version) $(S_$(1)_suite) $(call cfgdeb,$(1)) $(call srcdir,$(1)) $(S_$(1)_stack) \
	  $(call gatedir,$(1),shipped) $$(@D) matrix.lock $(call gate_variants,$(1))))
endef
$(foreach s,$(SERIES_ALL),$(eval $(call gate_rules,$(s))))

$(foreach s,$(SERIES_ALL),$(eval $(call series_rules,$(s))))
$(foreach s,$(SERIES_ALL),$(foreach v,$(call variants,$(s)),$(eval $(call variant_rules,$(s),$(v)))))

# SHARD=I/N: this run takes the I-th of N shares of VERSIONS, dealt
# round-robin in VERSIONS' order, a series whole with all its variants (so
# its incremental builds still help); SHARD=X.Y takes that one series (a
# CI job a series).  The others are planned as another shard's, so make
# report FROM="DIR..." merges the shards' results and knows what is missing.
SHARD ?=
# (checked once matrix.mk is read, as VERSIONS is)
ifneq ($(and $(SHARD),$(SERIES_ALL)),)
ifneq ($(filter $(SHARD),$(VERSIONS)),)
SHARD_MAP := $(foreach s,$(VERSIONS),$(s)=$(s))
else
$(if $(shell echo '$(SHARD)' | awk -F/ 'NF == 2 && $$1 ~ /^[1-9][0-9]*$$/ && $$2 ~ /^[1-9][0-9]*$$/ && $$1 + 0 <= $$2 + 0 { print "ok" }'),,$(error SHARD: '$(SHARD)' is neither I/N with 1 <= I <= N (SHARD=2/3) nor a series of VERSIONS (SHARD=6.1)))
SHARD_MAP := $(shell printf '%s\n' $(VERSIONS) | awk -v n=$(lastword $(subst /, ,$(SHARD))) '{ print $$0 "=" (NR - 1) % n + 1 "/" n }')
endif
endif
shard_of = $(patsubst $(1)=%,%,$(filter $(1)=%,$(SHARD_MAP)))
MINE := $(if $(SHARD),$(foreach s,$(VERSIONS),$(if $(filter $(SHARD),$(call shard_of,$(s))),$(s))),$(VERSIONS))
# A series whose source is missing becomes a SKIP row, never a pass.
READY := $(foreach s,$(VERSIONS),$(if $(call src_ready,$(s)),$(s)))
RUN := $(filter $(MINE),$(READY))
SKIP := $(filter-out $(RUN),$(MINE))
# (fstests: the section below)
fst_verdict = $(RESULTS)/$(1)/fstests/verdict.json
CELLS := $(foreach s,$(RUN),$(foreach v,$(call variants,$(s)),$(RESULTS)/$(s)/$(v)/cells.json $(if $(CORPUS),$(RESULTS)/$(s)/corpus/$(v)/judged.json)) \
	$(if $(GATES),$(foreach k,$(call gate_kinds,$(s)),$(call gate_file,$(s),$(k)))) \
	$(if $(and $(FSTESTS),$(KIT_FSTESTS)),$(call fst_verdict,$(s))))

# The expect files there are: rewritten only when one comes or goes.
$(KIT_BUILD)/expect.list: FORCE
	@mkdir -p $(@D)
	@ls -1 test/cases/*/expect* >$@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }
# The same for the corpus' expectation files (none is none).
$(KIT_BUILD)/corpus-expect.list: FORCE
	@mkdir -p $(@D)
	@ls -1 test/corpus/ 2>/dev/null >$@.tmp; { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

# (Each image carries the key of what it was made from beside it, $@.key.)
$(KIT_BUILD)/images/%.img: test/cases/%/recipe $(BIN)/mkimage build/key
	@mkdir -p $(@D)
	@build/key made $* >$@.key.tmp
	@$(call guarded,$(RESULTS)/images/$*.failed,image $*,$(BIN)/mkimage $< $@)
	@mv -f $@.key.tmp $@.key

# Written whole by build/fetch-corpus (renamed into place), so the index
# says it is there.  (FORCE: it checks its downloads against matrix.lock on
# every make, and rewrites nothing while they are what the disk is made of.)
$(CORPUS_DIR)/index: matrix.lock FORCE | $(call deps,fetch)
	@$(call guarded,$(RESULTS)/corpus.failed,corpus fetch,build/fetch-corpus $(CORPUS_source) $(CORPUS_version) $(CORPUS_suite) '$(CORPUS_images)' $(CORPUS_DIR) matrix.lock)
corpus: $(if $(CORPUS),$(CORPUS_DIR)/index)
# The run's sources and the corpus, fetched and unpacked (make check starts
# this beside its unit tests).
sources: $(foreach s,$(RUN),$(call srcdir,$(s)).stamp) corpus

images: $(IMAGES)
kernels: $(foreach s,$(RUN),$(foreach v,$(call variants,$(s)),$(call kernel,$(s),$(v))))
cells: $(CELLS)

# What this run is to do, for the report: what it is of (the kit's commit,
# the folder of its images, whose set the report keys once they are made,
# the shard), cases, series (those of another shard too,
# with their stacks), and each cell's kernel (a verdict of another kernel
# is stale, never reported).
TAB := $(shell printf '\t')
define NL


endef
plan = kit$(TAB)$(shell build/kit-id)$(TAB)$(KIT_BUILD)/images$(TAB)$(or $(SHARD),-)$(NL)$(foreach c,$(CASES),case$(TAB)$(c)$(NL))$(if $(CORPUS),corpus$(TAB)$(CORPUS_source) $(CORPUS_version)$(TAB)$(CORPUS_DIR)$(NL))$(foreach s,$(VERSIONS),series$(TAB)$(s)$(TAB)$(if $(filter $(s),$(RUN)),run$(TAB)$(S_$(s)_verified)$(TAB)$(call srcdir,$(s))$(TAB)$(call src_spec,$(s)),$(if $(filter $(s),$(SKIP)),skip$(TAB)$(S_$(s)_verified)$(TAB)$(call skip_reason,$(s)),shard$(TAB)$(S_$(s)_verified)$(TAB)$(call shard_of,$(s))))$(NL)$(foreach v,$(call variants,$(s)),cell$(TAB)$(s)$(TAB)$(v)$(TAB)$(call kernel,$(s),$(v))$(TAB)$(or $(call stack_hash,$(s),$(v)),-)$(NL))$(if $(GATES),$(if $(filter $(s),$(RUN)),$(foreach k,$(call gate_kinds,$(s)),gate$(TAB)$(s)$(TAB)$(k)$(TAB)$(RESULTS)/$(s)/gates/$(k)$(TAB)$(call gate_key,$(s))$(NL))))$(if $(FSTESTS),$(if $(filter $(s),$(RUN)),fstests$(TAB)$(s)$(TAB)$(if $(KIT_FSTESTS),$(RESULTS)/$(s)/fstests,-)$(TAB)$(foreach v,$(call fst_variants,$(s)),$(v)=$(call kernel,$(s),$(v)-fstests))$(TAB)$(call fst_tests,$(s))$(TAB)$(if $(KIT_FSTESTS),-,$(FST_NONE))$(NL))))

PLAN_TEXT = $(subst $(NL) ,$(NL),$(subst $(NL) ,$(NL),$(plan)))
# make -n expands recipes without running them: the plan is not written.
# (MAKEFLAGS starts with the one-letter flags, "ns", when there are any;
# else with a long option or a variable, which say nothing of -n.)
DRY_RUN = $(if $(findstring =,$(firstword $(MAKEFLAGS))),,$(findstring n,$(filter-out -%,$(firstword $(MAKEFLAGS)))))
# What a run (of this SHARD) is to do, as the report reads it; runs nothing.
# (Through a file: $(file >/dev/stdout) truncates a log that make plan >>
# appends to.)
plan:
	@$(if $(DRY_RUN),,$(file >$(KIT_BUILD)/plan.tsv,$(PLAN_TEXT)))cat $(KIT_BUILD)/plan.tsv

# A failing step is a cell, not a stop: every other series still runs, the
# report is written, and the exit status says something failed.
# A compile farm (KIT_DISTCC_HOSTS: build/lib.sh's kbuild) needs its
# client here.
FARM_DEPS := $(if $(KIT_DISTCC_HOSTS),farm)
matrix: | $(call deps,tools fetch build images guest report $(FARM_DEPS))
	@mkdir -p $(RESULTS) && find $(RESULTS) -name '*.failed' -delete && rm -f $(RESULTS)/.cells-failed $(RESULTS)/*/fstests/verdict.json
	@$(MAKE) -k $(if $(filter --jobserver%,$(MAKEFLAGS)),,-j$(JOBS)) --no-print-directory cells || { mkdir -p $(RESULTS); touch $(RESULTS)/.cells-failed; }
	@$(if $(DRY_RUN),,$(shell mkdir -p $(RESULTS))$(file >$(RESULTS)/plan.tsv,$(PLAN_TEXT)))rc=0; test/report $(RESULTS) || rc=$$?; \
	  [ ! -e $(RESULTS)/.cells-failed ] || [ $$rc -ne 0 ] || rc=1; rm -f $(RESULTS)/.cells-failed; exit $$rc

# The matrix with its build gates, in one report.
gates:
	@$(MAKE) --no-print-directory matrix GATES=1

# fstests, opt-in (make matrix FSTESTS=1, or make fstests SERIES=X.Y: that
# series' matrix with its fstests): vanilla and each variant built once
# more with fstests/kernel.config on top of the kit's fragment (the
# variants X-fstests, an object tree of their own), each booted on a Debian
# root filesystem (build/fstests-rootfs: mmdebstrap, cached) with a copy of
# the fstests tree KIT_FSTESTS names (built by you; the kit never fetches or
# builds it) and the kit's own tests (fstests/tests/), running fstests/list
# less the series' expunges (fstests/expunges/X.Y), each test bounded
# (test/run-fstests); test/judge-fstests holds each variant to vanilla (no
# new failure) in RESULTS/X.Y/fstests/verdict.json, which the report reads.
FSTESTS ?=
KIT_FSTESTS ?=
fst_variants = $(call gate_variants,$(1))
FST_TESTS := $(shell sed 's/\#.*//' fstests/list)
fst_expunged = $(shell sed -n 's/^[ \t]*\([^ \t\#][^ \t\#]*\).*/\1/p' fstests/expunges/$(1) 2>/dev/null)
FST_ROOT := $(KIT_CACHE)/fstests/root-$(shell printf '%s' '$(abspath $(KIT_FSTESTS))' | sha256sum | cut -c1-8).img
$(FST_ROOT): build/fstests-rootfs fstests/packages fstests/guest-init $(wildcard fstests/tests/*/*) $(KIT_FSTESTS)/check | $(call deps,build fstests)
	@$(call guarded,$(RESULTS)/fstests-root.failed,fstests root filesystem,build/fstests-rootfs $(KIT_FSTESTS) $@)
fst_tests = $(filter-out $(call fst_expunged,$(1)),$(FST_TESTS))

# The expunge files there are (as expect.list: a file gone runs again).
$(KIT_BUILD)/expunges.list: FORCE
	@mkdir -p $(@D)
	@ls -1 fstests/expunges/ 2>/dev/null >$@.tmp; { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

define fstests_rules
$(RESULTS)/$(1)/fstests/$(2)/fstests.tsv: $(call kernel,$(1),$(2)-fstests) $(FST_ROOT) test/run-fstests fstests/list $(KIT_BUILD)/expunges.list $(wildcard fstests/expunges/$(1)) | $(call deps,guest)
	@$$(call guarded,$(RESULTS)/$(1)/fstests/$(2).failed,fstests run,test/run-fstests $(1) $(2) $(call kernel,$(1),$(2)-fstests) $(FST_ROOT) $$(@D) $(call fst_tests,$(1)))
endef
define fstests_series_rules
$(call fst_verdict,$(1)): $(foreach v,$(call fst_variants,$(1)),$(RESULTS)/$(1)/fstests/$(v)/fstests.tsv) test/judge-fstests $(KIT_BUILD)/expunges.list $(wildcard fstests/expunges/$(1)) | $(call deps,report)
	@$$(call guarded,$(RESULTS)/$(1)/fstests/judge.failed,fstests judge,$(call verdict,test/judge-fstests $(1) $(RESULTS)/$(1)/fstests fstests/expunges/$(1) $(call fst_variants,$(1))))
endef
$(foreach s,$(SERIES_ALL),$(foreach v,$(call fst_variants,$(s)),$(eval $(call variant_rules,$(s),$(v)-fstests))$(eval $(call fstests_rules,$(s),$(v)))))
$(foreach s,$(SERIES_ALL),$(eval $(call fstests_series_rules,$(s))))
FST_NONE := no fstests tree given: set KIT_FSTESTS to a built fstests checkout (the kit never fetches or builds it)

fstests:
	@test -n "$(SERIES)" || { echo "make fstests: say which series, e.g. make fstests SERIES=6.1" >&2; exit 2; }
	@$(if $(filter $(SERIES),$(SERIES_ALL)),,echo "make fstests: '$(SERIES)' is not a series of matrix.yaml ($(SERIES_ALL))" >&2; exit 2)
	@$(if $(KIT_FSTESTS),$(MAKE) --no-print-directory matrix VERSIONS=$(SERIES) FSTESTS=1 SHARD=,echo "$(SERIES) fstests: SKIP: $(FST_NONE)")

# Image fuzzing, opt-in: FUZZ_COUNT mutated images of the image cases
# (seeded: the same FUZZ_SEED makes the same images) booted on every
# variant of FUZZ_SERIES (by default the two newest series this run has;
# with SANITIZE=1 the sanitizer kernels too), bounded by FUZZ_SECONDS.
FUZZ_SEED ?= 1
FUZZ_COUNT ?= 2000
FUZZ_SECONDS ?= 3600
FUZZ_SERIES ?= $(shell printf '%s\n' $(RUN) | sort -V | tail -2)
# A case whose image asks the kernel to panic on an error is no base for
# mutations (test/cases/NAME/nofuzz says why): a mutated image that mounts
# and then errs panics at its own request, not the kernel's fault.
NOFUZZ := $(notdir $(patsubst %/,%,$(dir $(wildcard test/cases/*/nofuzz))))
FUZZ_CASES ?= $(filter-out $(NOFUZZ),$(CASES))
fuzz: $(foreach s,$(FUZZ_SERIES),$(foreach v,$(call variants,$(s)),$(call kernel,$(s),$(v)))) \
	  $(FUZZ_CASES:%=$(KIT_BUILD)/images/%.img) $(BIN)/fuzz $(BIN)/guest-init | $(call deps,guest report)
	@KIT_FUZZ_KERNELS="$(foreach s,$(FUZZ_SERIES),$(foreach v,$(call variants,$(s)),$(s):$(v):$(call kernel,$(s),$(v))))" \
	  KIT_FUZZ_SECONDS=$(FUZZ_SECONDS) KIT_FUZZ=$(BIN)/fuzz KIT_IMAGES=$(KIT_BUILD)/images KIT_GUEST_INIT=$(BIN)/guest-init \
	  $(if $(SANITIZE),KIT_GUEST_MEM=1G KIT_GUEST_TIMEOUT=900 KIT_GUEST_STALL=180) \
	  test/run-fuzz $(FUZZ_SEED) $(FUZZ_COUNT) $(RESULTS)/fuzz $(FUZZ_CASES)

# Render the reports again from results.json alone; with FROM, merge the
# results.json of several folders (the shards of one run, from any
# machines) into RESULTS, refusing results of another kit commit, stack or
# image set, or a cell present twice.
report: | $(call deps,report)
	@$(if $(FROM),test/report --merge $(RESULTS) $(FROM),test/report --render $(RESULTS)/results.json)

# The review document of every stack against its originals (lint errors fail).
review: | $(call deps,stacks report)
	@fl=$$(for s in $$(build/matrix list matrix.yaml); do build/matrix variants matrix.yaml $$s; done | tr ' ' '\n' | \
	  grep -vx 'vanilla\|patched' | sort -u) || exit 2; \
	  for f in "" $$fl; do \
	  build/review $${f:+--flavour $$f} --results $(RESULTS)/results.json $(RESULTS)/review$${f:+-$$f} || exit 1; done

# Apply a stack to your own tree:
#   make apply TREE=... [STACK=versions/X.Y] [APPLY_FLAGS="--dry-run --flavour hardened"]
apply: | $(call deps,stacks)
	@test -n "$(TREE)" || { echo "make apply: say which tree, e.g. make apply TREE=/usr/src/linux-source-6.1" >&2; exit 2; }
	@build/apply $(APPLY_FLAGS) $(if $(STACK),--stack $(STACK)) $(TREE)

bump: | $(call deps,fetch)
	@test -n "$(SERIES)" || { echo "make bump: say which, e.g. make bump SERIES=6.1" >&2; exit 2; }
	@build/bump $(SERIES) matrix.yaml matrix.lock

check-unit: $(BIN)/matrix $(BIN)/mkimage $(BIN)/fuzz $(BIN)/guest-init | $(call deps,tools images build stacks report check gates)
	@test/run-tests unit

check: $(BIN)/matrix $(BIN)/mkimage $(BIN)/fuzz $(BIN)/guest-init | $(call deps,tools fetch build images guest report stacks check gates)
	@KIT_CHECK_GATES_CONFIG="$(GATES_ENDS)" test/run-tests all

# The CI pipeline (.gitlab-ci.yml) run here by gitlab-ci-local from the
# npm registry (the last version that runs on Node.js 20), shell executor,
# each job in its own copy of the checkout, on this machine's KIT_CACHE;
# CI_JOBS at once.  The merged report: .gitlab-ci-local/artifacts/report/merged/.
GCL_VERSION := 4.73.0
GCL := $(KIT_CACHE)/gitlab-ci-local-$(GCL_VERSION)/node_modules/.bin/gitlab-ci-local
CI_JOBS ?= 2
$(GCL): | $(call deps,ci)
	@command -v npm >/dev/null || { echo "make ci-local: no npm here; install Node.js 20 or newer with npm" >&2; exit 2; }
	@npm install --prefix $(KIT_CACHE)/gitlab-ci-local-$(GCL_VERSION) --no-audit --no-fund --loglevel=error gitlab-ci-local@$(GCL_VERSION) >/dev/null
# (What this make exports, KIT_BUILD above all, stays out of the jobs: each
# job is a checkout of its own.)
ci-local: $(GCL)
	@env -u KIT_BUILD -u KIT_T0 -u RESULTS -u KIT_SUITES -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	  $(GCL) --shell-isolation --no-artifacts-to-source --concurrency $(CI_JOBS) --variable KIT_CACHE=$(KIT_CACHE) $(CI_LOCAL_FLAGS)

# The compile farm, the shared cache and the shards on whole kernels
# (test/farm): a distccd and a redis-server on 127.0.0.1; about 10 minutes
# once make matrix has run.  FARM_SERIES (6.1) is built, SHARD_SERIES
# (5.10 6.1 7.3) sharded.
check-farm: | $(call deps,tools fetch build images guest report check farm)
	@FARM_SERIES="$(or $(FARM_SERIES),6.1)" SHARD_SERIES="$(or $(SHARD_SERIES),5.10 6.1 7.3)" test/farm $(KIT_CACHE)/farm-check

clean-results:
	rm -rf $(RESULTS)
