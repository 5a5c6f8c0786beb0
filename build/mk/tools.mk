# SPDX-License-Identifier: GPL-2.0
# The kit's own programs, in KIT_BUILD/bin: the planner (build/matrix.c,
# build/plan.c), the image tool, the fuzzer, the guest program, and the
# Debian packages each needs (KIT_BUILD/deps-PURPOSE.stamp).
.PHONY: tools

$(KIT_BUILD)/deps-%.stamp: build/fetch/packages build/fetch/deps
	@mkdir -p $(@D)
	@build/fetch/deps build/fetch/packages $*
	@touch $@

# Python: Debian's interpreter, the one build/fetch/packages installs the kit's
# modules (python3-yaml, python3-jsonschema) for.  A python3 found first on
# PATH (a virtualenv, a pyenv shim) may lack them, and a shim costs time on
# every call (pyenv's here: 5 calls 5.1 s, 0.43 s direct).  $(BIN)/python3
# points at PYTHON and $(BIN) leads PATH in every recipe, so the kit's
# scripts (#!/usr/bin/env python3) and its python3 calls all run PYTHON.
# A path, not a search: on a machine without Python yet, the link is made
# after build/fetch/deps has installed Debian's, so it names that one.
$(BIN)/python3: FORCE | $(KIT_BUILD)/deps-report.stamp
	@[ "$$(readlink $@)" = "$(PYTHON)" ] || { [ -x "$(PYTHON)" ] || { echo "PYTHON=$(PYTHON): not an interpreter; name Python 3 by its path" >&2; exit 2; }; \
	  mkdir -p $(@D) && ln -sfn $(PYTHON) $@; }

$(BIN)/matrix: build/matrix-main.c build/matrix.c build/matrix.h build/plan.c build/plan.h common/sha256.c common/sha256.h | $(call deps,tools)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon -o $@ build/matrix-main.c build/matrix.c build/plan.c common/sha256.c -lyaml
tools: $(BIN)/matrix

# The image tool and the guest program: a build that fails leaves its
# marker (RESULTS/tools/NAME.failed), so the report names it in every cell
# instead of showing verdicts of the last program that built.
$(BIN)/mkimage: $(shell build/key files image) | $(call deps,tools images)
	@mkdir -p $(@D)
	@$(call guarded,$(RESULTS)/tools/mkimage.failed,the image tool build,$(CC) $(CFLAGS) -Icommon -Itest/image -o $@ test/image/mkimage.c test/image/mutate.c common/sha256.c -lext2fs -lcom_err)

$(BIN)/fuzz: test/fuzz/fuzz.c test/image/mutate.c test/image/mutate.h common/sha256.c common/sha256.h | $(call deps,tools images)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon -Itest/image -o $@ test/fuzz/fuzz.c test/image/mutate.c common/sha256.c -lext2fs -lcom_err

# (The guest program carries the key of its sources beside it, $@.key,
# written only once it built: a boot records that, not the sources' key.)
$(BIN)/guest-init: $(shell build/key files prog) build/key | $(call deps,tools)
	@mkdir -p $(@D)
	@build/key set prog >$@.key.tmp
	@$(call guarded,$(RESULTS)/tools/guest-init.failed,the guest program build,$(CC) $(CFLAGS) -Icommon -static -o $@ test/guest/guest-init.c common/sha256.c)
	@mv -f $@.key.tmp $@.key

