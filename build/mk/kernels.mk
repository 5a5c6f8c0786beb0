# SPDX-License-Identifier: GPL-2.0
# Kernels: one per series and variant (KERNELS), in
# KIT_CACHE/out/X.Y/VARIANT-SRCKEY-CONFIGKEY[-STACK]/IMAGE (bzImage; Image
# for arm64), the keys being what it is made of (build/plan.c).  Each builds on the variant
# before it in the same object tree (patched on vanilla, a flavour on
# patched: only the stack's files recompile); a sanitizer or fstests
# kernel (VARIANT-san, VARIANT-fstests) and a kernel of another arch
# (VARIANT@ARCH) have an object tree of their own; each is configured with
# the kit's fragment, its arch's and its kind's one after another
# (KIND_CONFIGS), and built by its arch's compiler (p_kbuild: matrix.yaml's
# arches).
# RESULTS/X.Y/VARIANT.kernel (KERNEL_NAMES) names the kernel the run
# takes, rewritten only when it changes: a kernel taken again from the
# cache (older than the last boot, of another) is booted again.
.PHONY: kernels

FIX_A_ORIG := $(wildcard common/upstream/A-*.patch)

$(KIND_CONFIGS):
	@mkdir -p $(@D)
	@cat $^ >$@.tmp.$$$$ && mv -f $@.tmp.$$$$ $@

# For example, 6.1 patched: build/kernel/kernel 6.1 patched SRCDIR OBJDIR OUTDIR
# versions/6.1, under the tree's lock.  (KIT_NEWER_THAN, its prerequisites:
# under the lock, a kernel newer than each, which another make built since
# this one looked, is not built again.)
$(KERNELS):
	$(REC)@$(call guarded,$(p_failed),build,KIT_NEWER_THAN="$^" KIT_CONFIG=$(p_config) KIT_VARIANT_NAME=$(p_variant) KIT_FIX_A="$(p_fix_a)" KIT_FIX_A_ORIG=$(FIX_A_ORIG) \
	  KIT_SOURCE="$(p_source)" $(p_kbuild) \
	  flock $(p_srcdir).lock build/kernel/kernel $(p_series) $(p_stackv) $(p_srcdir) $(p_objdir) $(@D) $(p_stack))

$(KERNEL_NAMES): FORCE
	@mkdir -p $(@D) && echo $(p_kernel) >$@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

kernels: $(KERNELS)
