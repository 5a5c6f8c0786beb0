# SPDX-License-Identifier: GPL-2.0
# Sources: each series' Debian source package, fetched and checked against
# matrix.lock (DEBS, with the gates' linux-config packages; DEBSRCS), or its tree or
# tarball by path, unpacked into KIT_CACHE/src/X.Y-SRCKEY (SRC_STAMPS);
# and the image corpus (corpus.mk).  Planned: DEBS, DEBSRCS, SRC_FROMS,
# SRC_STAMPS.
.PHONY: sources

# The private apt state's suites: every series' and the corpus'; its
# architectures: this machine's and those of the run's arches (APT_ARCHES,
# the plan's: matrix.yaml's debian_arch).
export KIT_SUITES := $(SUITES)
export KIT_APT_ARCHES := $(APT_ARCHES)

# (FORCE: fetch-debian checks a .deb already there against matrix.lock on
# every make, before anything reads it, and fetches it again if it differs.)
$(DEBS): FORCE | $(call deps,fetch)
	@$(call guarded,$(p_failed),$(p_step),build/fetch/fetch-debian $(p_series) $(p_package) $(p_version) $(p_suite) $@ matrix.lock)

# The .dsc and Debian tarball of a series' source package, for a config
# gate that makes Debian's config of an arch from it (DEBSRCS: matrix.yaml's
# config_source); checked against matrix.lock on every make, as a .deb.
$(DEBSRCS): FORCE | $(call deps,fetch)
	@$(call guarded,$(p_failed),config fetch,build/fetch/fetch-source $(p_series) $(p_source) $(p_version) $(p_suite) debian matrix.lock)

# SRCDIR.from says what the source is (build/fetch/source-id: its path, mtime
# and size), rewritten only when that changes.  (Its temporary file is
# this shell's own: two makes on one cache may both write it at once.)
$(SRC_FROMS): FORCE
	@mkdir -p $(@D)
	@$(call guarded,$(p_failed),source,build/fetch/source-id $(p_kind) $(p_input) >$@.tmp.$$$$) && \
	  { cmp -s $@.tmp.$$$$ $@ && rm -f $@.tmp.$$$$ || mv -f $@.tmp.$$$$ $@; }

# .from alone says when to unpack.  A new source also voids the object
# trees: their files may be older than the objects, and make would keep
# objects of the old source.
$(SRC_STAMPS): | $(call deps,build)
	@mkdir -p $(KIT_CACHE)/src
	@$(call guarded,$(p_failed),unpack,flock $(p_srcdir).lock build/fetch/unpack $(p_series) $(p_kind) $(p_input) $(p_srcdir) $(p_objdirs))
	@touch $@

# The run's sources and the corpus, fetched and unpacked (make check starts
# this beside its unit tests).
sources: $(SRC_STAMPS) corpus
