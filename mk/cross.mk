# SPDX-License-Identifier: MIT
# mk/cross.mk -- the suite cross-built for another architecture and run under
# qemu-user (README.md, "Another machine"; harness/wrappers/qemu-user):
#
#   make check-cross ARCH=armhf    (or s390x; arm64 too)
#         copies the source tree into build-ARCH/ (the native build/ is not
#         touched), configures it there with --host=TRIPLET --enable-werror and
#         the qemu-user test wrapper, builds, and runs the Check unit tests, the
#         golden logs, the KSP vectors (the kernel simulator's .kev files pinned by
#         SHA-256, vectors/ksp/sim/) and the conformance run against the
#         reference (reports in reports/ARCH/); fails if any of them fails
#   make check-cross-conformance ARCH=armhf   the conformance run only (CI's
#         cheaper subset)
#   make deps-cross                the Debian packages this needs
#
# CROSS_TIME_FACTOR (default 10) stretches every time limit: qemu-user runs a
# test 3 to 20 times slower than the machine.  The pytest suite of the harness
# is not run for the target: it tests the host's Python tooling.

ARCH ?= armhf
CROSS_TIME_FACTOR ?= 10
cross_triplet_armhf = arm-linux-gnueabihf
cross_triplet_arm64 = aarch64-linux-gnu
cross_triplet_s390x = s390x-linux-gnu
CROSS_TRIPLET = $(or $(cross_triplet_$(ARCH)),$(error ARCH=$(ARCH): expected armhf, arm64 or s390x))
CROSS_DIR = build-$(ARCH)
CROSS_WRAPPER = $(CURDIR)/harness/wrappers/qemu-user
CROSS_REPORTS = $(CURDIR)/reports/$(ARCH)
# Debian's cross compilers, the target's C library, qemu-user, and the target's
# Check (a multiarch package: needs 'dpkg --add-architecture ARCH').
CROSS_DEB_ARCHES = armhf s390x
CROSS_PACKAGES = qemu-user gcc-arm-linux-gnueabihf libc6-dev-armhf-cross \
                 gcc-s390x-linux-gnu libc6-dev-s390x-cross
CROSS_MULTIARCH_PACKAGES = $(foreach a,$(CROSS_DEB_ARCHES),check:$(a))

.PHONY: check-cross check-cross-conformance cross-configure cross-build cross-build-conformance \
        deps-cross

# The source tree, without builds, reports and configuration, into
# build-ARCH/; tar keeps the files' times, so an unchanged file is not rebuilt.
cross-configure:
	@mkdir -p $(CROSS_DIR)
	tar -cf - --exclude='./build*' --exclude=./reports --exclude=./.git \
	    --exclude=./config.mk --exclude=./config.log . | tar -xf - -C $(CROSS_DIR)
	@mkdir -p $(CROSS_DIR)/reports
	cd $(CROSS_DIR) && { test config.mk -nt configure && \
	    grep -q '^TEST_WRAPPER = $(CROSS_WRAPPER)$$' config.mk || \
	    ./configure --enable-werror --host=$(CROSS_TRIPLET) \
	        --with-test-wrapper='$(CROSS_WRAPPER)' TIME_FACTOR=$(CROSS_TIME_FACTOR); }

cross-build: cross-configure
	$(MAKE) -C $(CROSS_DIR) --no-print-directory all build/tests/check_reference conformance-build \
	    build/harness/golden_logs

# What the conformance run needs only (the library, the tests, vecrun,
# kvecrun and tracedump): CI's cheaper subset skips the unit tests' build.
cross-build-conformance: cross-configure
	$(MAKE) -C $(CROSS_DIR) --no-print-directory conformance-build

# Each part runs even when one before it failed; the target fails at the end.
# The parts run in build-ARCH/ without copying the tree again.
check-cross: cross-build
	@start=$$(date +%s); failed=; \
	 for t in check-unit check-golden-logs check-ksp; do \
	   echo "== $(ARCH): make $$t"; t0=$$(date +%s); \
	   $(MAKE) -C $(CROSS_DIR) --no-print-directory $$t || failed="$$failed $$t"; \
	   echo "== $(ARCH): make $$t: $$(( $$(date +%s) - t0 )) s"; \
	 done; \
	 $(MAKE) --no-print-directory cross-run-conformance || failed="$$failed conformance"; \
	 echo "check-cross ARCH=$(ARCH): $$(( $$(date +%s) - start )) s$${failed:+; failed:$$failed}"; \
	 test -z "$$failed"

check-cross-conformance: cross-build-conformance
	@$(MAKE) --no-print-directory cross-run-conformance

.PHONY: cross-run-conformance
cross-run-conformance:
	@mkdir -p $(CROSS_REPORTS)
	@start=$$(date +%s); st=0; \
	 $(MAKE) -C $(CROSS_DIR) --no-print-directory check-conformance \
	     CONFORMANCE_FLAGS='--reports $(CROSS_REPORTS) --name "posixtrace reference ($(ARCH), qemu-user)" $(CONFORMANCE_FLAGS)' || st=$$?; \
	 echo $$st > $(CROSS_REPORTS)/exit-status; \
	 echo "conformance ARCH=$(ARCH): $$(( $$(date +%s) - start )) s, reports in reports/$(ARCH)/"; \
	 exit $$st

# apt-get update may fail on one foreign architecture's index (a mirror being
# synced): the install says whether what is needed could be had.
deps-cross:
	@command -v dpkg >/dev/null && command -v apt-get >/dev/null || { \
	   echo "deps-cross: this needs Debian's dpkg and apt-get; install by hand: $(CROSS_PACKAGES) $(CROSS_MULTIARCH_PACKAGES)"; exit 1; }; \
	 missing=; \
	 for p in $(CROSS_PACKAGES) $(CROSS_MULTIARCH_PACKAGES); do \
	   case "$$(dpkg-query -W -f='$${Status}' $$p 2>/dev/null)" in \
	     *" installed") ;; \
	     *) missing="$$missing $$p" ;; \
	   esac; \
	 done; \
	 if [ -z "$$missing" ]; then echo "deps-cross: all installed"; exit 0; fi; \
	 echo "deps-cross: installing$$missing"; \
	 set -x; \
	 for a in $(CROSS_DEB_ARCHES); do \
	   dpkg --print-foreign-architectures | grep -qx $$a || $(SUDO) dpkg --add-architecture $$a; done; \
	 $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update || true; \
	 $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing
