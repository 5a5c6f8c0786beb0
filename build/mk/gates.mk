# SPDX-License-Identifier: GPL-2.0
# The build gates (make gates, or make matrix GATES=1), each a verdict in
# RESULTS/X.Y/gates/GATE/: fs/ext4/ of each variant built under the
# configuration the distribution ships (config: Debian's linux-config-X.Y
# of the pinned release; for a tree series, its x86_64_defconfig with every
# ext4 option, common/gates-ext4.config) and under allmodconfig, with W=1
# and sparse, each in an object tree of its own (GATES_BUILD,
# build/gates/gate-build); checkpatch on every patch of every stack
# (GATES_CHECKPATCH); for a Debian-served series, Debian's own kernel
# booted with ext4.ko built here (GATES_SHIPPED, build/gates/gate-shipped).
# Findings are verdicts (exit status 3, the tsv says which); only a gate
# that cannot run leaves a marker.
#
# Which series run which gate is the plan's: GATES_CONFIG names the series
# whose config gate runs (every series of the run by default; make check
# takes the oldest, to stay within its hour on a fresh machine),
# GATES_ALLMOD those of allmodconfig (GATES_ENDS, the oldest and newest, by
# default).  Every gate result carries its series' gate key (variants,
# stacks, source, configuration, compilers: KIT_BUILD/gates/X.Y.key); one
# of another key is stale.  A series' tree is pushed to one variant at a
# time, so the gates come after the kernels and the shipped kernel after
# the config gate: a step waiting on the lock would hold a JOBS slot.
.PHONY: gates

$(GATE_KEYS): FORCE
	@mkdir -p $(@D) && echo $(p_key) >$@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

# For example: build/gates/gate-build 6.1 distro:LINUX-CONFIG.deb SRCDIR versions/6.1
# GATEDIR results/6.1/gates/config vanilla patched hardened.
$(GATES_BUILD): build/gates/gate-build build/kernel/push-stack build/lib.sh | $(call deps,build gates)
	$(REC)@$(call guarded,$(p_failed),gates,$(call verdict,KIT_GATE_KEY=$(p_key) $(p_gate_env) flock $(p_srcdir).lock build/gates/gate-build $(p_series) $(p_gate_config) \
	  $(p_srcdir) $(p_stack) $(p_gatedir) $(@D) $(p_variants)))

$(GATES_CHECKPATCH): build/gates/gate-checkpatch build/lib.sh $(wildcard common/upstream/*.patch) | $(call deps,gates)
	@$(call guarded,$(p_failed),checkpatch,$(call verdict,KIT_GATE_KEY=$(p_key) flock -s $(p_srcdir).lock \
	  build/gates/gate-checkpatch $(p_series) $(p_srcdir) $(p_stack) common/upstream $(@D) $(p_variants)))

# Debian's own kernel of the release, its shipped ext4.ko and ours built
# against its headers (SKIP when this machine's gcc is not the one it was
# built with), booted on the image cases.
$(GATES_SHIPPED): build/gates/gate-shipped build/kernel/push-stack build/fetch/fetch-debian build/fetch/apt-state.sh build/lib.sh \
	  $(IMAGES) $(BIN)/guest-init $(KEY_guest) $(KEY_judge) $(BIN)/matrix build/key matrix.yaml $(wildcard test/cases/*/mount) \
	  $(KIT_BUILD)/expect.list $(wildcard test/cases/*/expect*) | $(call deps,guest report gates)
	$(REC)@$(call guarded,$(p_failed),shipped kernel,$(call verdict,KIT_GATE_KEY=$(p_key) KIT_CASES="$(CASES)" \
	  KIT_IMAGES=$(KIT_BUILD)/images $(p_guest_env) flock $(p_srcdir).lock build/gates/gate-shipped $(p_series) $(p_version) $(p_suite) $(p_cfgdeb) $(p_srcdir) $(p_stack) \
	  $(p_gatedir) $(@D) matrix.lock $(p_variants)))

# The matrix with its build gates, in one report.
gates:
	@$(MAKE) --no-print-directory matrix GATES=1
