# SPDX-License-Identifier: GPL-2.0
# The kit's own tests: the unit tests (make check-unit: test/unit/run-tests
# unit, test/unit/*.t), those and then the matrix with its gates (make
# check, the README's test command), the CI pipeline run here (make
# ci-local), and the compile farm, shared cache and shards on real kernels
# (make check-farm: test/farm/farm).
.PHONY: check check-unit ci-local check-farm

check-unit: $(BIN)/matrix $(BIN)/mkimage $(BIN)/fuzz $(BIN)/guest-init | $(call deps,tools images build stacks report check gates submission)
	@test/unit/run-tests unit

# (The oldest series this machine has, the first of GATES_ENDS, goes to
# test/unit/run-tests as KIT_CHECK_GATES_CONFIG, which only its make matrix
# turns into GATES_CONFIG, not the unit tests' makes: the config gate of
# one series, the one whose tree sparse still takes, keeps make check
# within its hour on a fresh 2-core machine; make gates runs every one.)
check: $(BIN)/matrix $(BIN)/mkimage $(BIN)/fuzz $(BIN)/guest-init | $(call deps,tools fetch build images guest report stacks check gates submission)
	@KIT_CHECK_GATES_CONFIG="$(firstword $(GATES_ENDS))" test/unit/run-tests all

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
	@env -u KIT_BUILD -u KIT_T0 -u RESULTS -u KIT_SUITES -u KIT_APT_ARCHES -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	  $(GCL) --shell-isolation --no-artifacts-to-source --concurrency $(CI_JOBS) --variable KIT_CACHE=$(KIT_CACHE) $(CI_LOCAL_FLAGS)

# The compile farm, the shared cache and the shards on whole kernels
# (test/farm/farm): a distccd and a redis-server on 127.0.0.1; about 10 minutes
# once make matrix has run.  FARM_SERIES (6.1) is built, SHARD_SERIES
# (5.10 6.1 7.3) sharded.
check-farm: | $(call deps,tools fetch build images guest report check farm)
	@FARM_SERIES="$(or $(FARM_SERIES),6.1)" SHARD_SERIES="$(or $(SHARD_SERIES),5.10 6.1 7.3)" test/farm/farm $(KIT_CACHE)/farm-check
