# SPDX-License-Identifier: GPL-2.0
# ext4 backport kit: build every series of matrix.yaml as shipped, patched
# and in each flavour, boot each kernel in QEMU on the image set, judge the
# verdicts, and print the table.  The goals (docs/ has them all):
#
#   make matrix [VERSIONS=...] [FLAVOURS=...] [ARCHES=...] [CORPUS=] [SANITIZE=1] [GATES=1] [FSTESTS=1] [SHARD=I/N] [JOBS=N]
#   make gates | check | check-unit | check-farm | ci-local
#   make report [FROM="DIR..."] | kcidb-submit [KCIDB_ORIGIN=...] [KCIDB_IO=DIR] | fuzz | mount-time | fstests SERIES=X.Y | plan
#   make apply TREE=... | export FORMAT=... SERIES=X.Y OUT=... | submission | fstests-submission KIT_FSTESTS=...
#   make review | bump SERIES=X.Y | clean-results | help
#
# One program plans, make runs.  What a run is (its series, variants,
# kernels and their keys, boots, gates, fstests, shards) is computed by
# build/matrix plan (build/plan.c) from matrix.yaml, the checkout and the
# settings below, and read here as lists of targets with their
# prerequisites; the recipes are in build/mk/, a file per concern, and
# read what the plan gives each target as $(p_NAME).  The report holds
# every record to the keys of the same plan (RESULTS/plan.tsv).

KIT_CACHE ?= $(if $(XDG_CACHE_HOME),$(XDG_CACHE_HOME),$(HOME)/.cache)/ext4-backport-kit
# What this checkout derives from its own files (its programs, the images)
# lives with the checkout: two checkouts on one cache never read each
# other's.  The cache holds what is keyed by what it is: downloads,
# unpacked trees, objects, ccache, kernels by their keys.
KIT_BUILD ?= $(CURDIR)/.kit
RESULTS ?= results
KIT_T0 := $(or $(KIT_T0),$(shell date +%s))
export KIT_CACHE KIT_BUILD KIT_T0 RESULTS
BIN := $(KIT_BUILD)/bin
# Python: Debian's interpreter, the one build/fetch/packages installs the kit's
# modules for; $(BIN)/python3 points at it and $(BIN) leads PATH in every
# recipe (build/mk/tools.mk says why).
PYTHON ?= /usr/bin/python3
export PATH := $(BIN):$(PATH)
CFLAGS ?= -O2 -g -Wall -Wextra -Werror=implicit-function-declaration
# The steps of a run share JOBS slots through make's jobserver (recipes.mk).
JOBS ?= $(shell nproc)

# No built-in rules (-r): make's own "%.out: %" (cp) overwrote a test's
# expected output with the test, the test being newer.
MAKEFLAGS += -r
.SUFFIXES:
.DELETE_ON_ERROR:
.PHONY: all FORCE
all: matrix

# make help: the goals (this file's head) and the settings a run takes, as
# docs/matrix.md's table gives them (the one place they are written).
.PHONY: help
help:
	@sed -n '/^#   make matrix/,/^#$$/p' Makefile | sed '$$d;s/^# \{0,1\}//'
	@echo "  ./kit help: the programs behind the goals, run directly; docs/: a page a concern"
	@echo
	@awk '/^## Settings of a run/ { p = 1; next } p && /^#/ { exit } p' docs/matrix.md

# The settings a run is planned from (docs/matrix.md: "Settings of a run"), passed to the
# planner only when given, so that its defaults are the planner's.  (Taken
# here, before the plan defines VERSIONS and the others as it reads them.)
PLAN_SETTINGS := RESULTS KIT_CACHE KIT_BUILD VERSIONS FLAVOURS SANITIZE CORPUS SHARD GATES \
	GATES_CONFIG GATES_ALLMOD GATES_SHIPPED FSTESTS KIT_FSTESTS FST_TESTS FUZZ_SERIES ARCHES
# Every variable of make's command line goes too: one may name a series'
# tree (KIT_SRC_X_Y, or the source.tree.env of matrix.yaml), and $(shell)
# does not see them in its environment.  (Single-quoted for the shell.)
plan_word = '$(1)=$(subst ','\'',$($(1)))'
PLAN_ARGS := $(foreach v,$(sort $(PLAN_SETTINGS) $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v)))),$(if $(filter undefined,$(origin $(v))),,$(call plan_word,$(v))))

include build/mk/recipes.mk
include build/mk/tools.mk

# Goals that need no plan do not build the planner (nor install what it
# needs): a user applying a stack to a tree has no use for it.
LIGHT_GOALS := apply $(if $(TREE),export) review clean-results tools report help $(BIN)/matrix
ifneq ($(filter-out $(LIGHT_GOALS),$(or $(MAKECMDGOALS),all)),)
# The plan as make text (build/plan.c, --mk), evaluated here: nothing is
# written, so make -n runs nothing and writes nothing of the run.  ($(shell)
# turns newlines into spaces: the text comes with record separators, put
# back as newlines.  A bad setting is the planner's $(error ...).)
RS := $(shell printf '\036')
PLAN_MK := $(shell { build/matrix plan matrix.yaml --mk $(PLAN_ARGS) || echo '$$(error the plan failed: see the line above)'; } | tr '\n' '\036')
$(eval $(subst $(RS),$(NL),$(PLAN_MK)))
$(if $(PLAN_OK),,$(error the plan (build/matrix plan) did not come whole: see above))
endif

include build/mk/sources.mk
include build/mk/kernels.mk
include build/mk/boot.mk
include build/mk/corpus.mk
include build/mk/gates.mk
include build/mk/fstests.mk
include build/mk/run.mk
include build/mk/fuzz.mk
include build/mk/scale.mk
include build/mk/maintain.mk
include build/mk/check.mk
