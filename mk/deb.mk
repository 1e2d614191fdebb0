# SPDX-License-Identifier: MIT
# mk/deb.mk -- the Debian packages (debian/, debhelper compat 13):
#
#   make deb         libposixtrace0, libposixtrace-dev, posixtrace-tools and
#                    posixtrace-conformance (no -dbgsym packages: not needed
#                    here, and they double lintian's work), built by
#                    dpkg-buildpackage from a copy of the tree in
#                    build/deb/src/ (the .deb files land in
#                    build/deb/), then lintian on them: fails on any lintian
#                    error (warnings are printed; build/deb/lintian.txt)
#   make check-deb   (as root) make deb; a clean Debian 12 root made by
#                    mmdebstrap (minbase; the mirror apt uses here), kept as a
#                    tarball in build/check-deb/ so that the next run only
#                    unpacks it; the four packages installed there with apt;
#                    the installed posixtrace-conformance run in that root
#                    (chroot) against the installed library: fails unless it
#                    conforms.  DEB_MIRROR= and DEB_SUITE= choose another.
#
# Needs debhelper, dpkg-dev, fakeroot, lintian and mmdebstrap (make deps).

DEB_DIR      = build/deb
DEB_SRC      = $(DEB_DIR)/src/posixtrace-$(VERSION)
DEB_PACKAGES = libposixtrace0 libposixtrace-dev posixtrace-tools posixtrace-conformance
DEB_ARCH    := $(shell dpkg --print-architecture 2>/dev/null)
DEB_FILES    = $(foreach p,$(DEB_PACKAGES),$(DEB_DIR)/$(p)_$(VERSION)_$(DEB_ARCH).deb)
DEB_MK      := $(lastword $(MAKEFILE_LIST))

# The suite and mirror of the root: Debian 12 from the mirror this machine's
# apt uses (its first deb.debian.org-like URI), else deb.debian.org.
DEB_SUITE   ?= bookworm
DEB_MIRROR  ?= $(or $(shell sed -n 's/^URIs: *\(http[^ ]*\/debian\)\/*$$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1),\
                    $(shell sed -n 's/^deb  *\(http[^ ]*\/debian\)\/* .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n1),\
                    http://deb.debian.org/debian)
CHECK_DEB    = build/check-deb
CHECK_DEB_ROOT_TAR = $(CHECK_DEB)/root-$(DEB_SUITE).tar
# What the conformance command needs in the root besides the four packages
# (the packages' dependencies, installed by mmdebstrap so that dpkg then
# installs the .deb files without a network).
CHECK_DEB_INCLUDE = python3,make,gcc,libc6-dev

.PHONY: deb check-deb

deb:
	@for t in dpkg-buildpackage dh lintian fakeroot; do command -v $$t >/dev/null || { \
	   echo "deb: $$t is missing: make deps (debhelper, dpkg-dev, lintian, fakeroot)"; exit 1; }; done
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_SRC)
	tar -cf - --exclude=./build --exclude='./build-*' --exclude=./reports --exclude=./.git \
	    --exclude=./config.mk --exclude=./config.log . | tar -xf - -C $(DEB_SRC)
	cd $(DEB_SRC) && DEB_BUILD_OPTIONS="noautodbgsym $(DEB_BUILD_OPTIONS)" dpkg-buildpackage -b -us -uc -rfakeroot -j$(NPROC) > ../../build.log 2>&1 || { \
	   tail -40 ../../build.log; echo "deb: dpkg-buildpackage failed (log: $(DEB_DIR)/build.log)"; exit 1; }
	mv $(DEB_DIR)/src/*.deb $(DEB_DIR)/src/*.changes $(DEB_DIR)/src/*.buildinfo $(DEB_DIR)/
	@ls -l $(DEB_DIR)/*.deb
	lintian --tag-display-limit 0 $(DEB_DIR)/*.changes > $(DEB_DIR)/lintian.txt 2>&1 || true
	@cat $(DEB_DIR)/lintian.txt
	@echo "lintian: $$(grep -c '^E:' $(DEB_DIR)/lintian.txt) errors, $$(grep -c '^W:' $(DEB_DIR)/lintian.txt) warnings, $$(grep -c '^I:' $(DEB_DIR)/lintian.txt) info"
	@! grep -q '^E:' $(DEB_DIR)/lintian.txt

# The root, made once by mmdebstrap (apt and one dpkg run: about a minute,
# where debootstrap took seven or more), as a tarball under build/.
$(CHECK_DEB_ROOT_TAR): $(DEB_MK)
	@command -v mmdebstrap >/dev/null || { echo "check-deb: mmdebstrap is missing: make deps"; exit 1; }
	@mkdir -p $(CHECK_DEB)/cache
	sh maint/check_deb_root.sh make $@ $(DEB_SUITE) $(DEB_MIRROR) $(CURDIR)/$(CHECK_DEB)/cache $(CHECK_DEB_INCLUDE)

check-deb: deb $(CHECK_DEB_ROOT_TAR)
	@test "$$(id -u)" = 0 || { echo "check-deb: needs root (mmdebstrap, chroot)"; exit 1; }
	sh maint/check_deb_root.sh run $(CHECK_DEB_ROOT_TAR) $(CHECK_DEB)/root $(DEB_FILES)
