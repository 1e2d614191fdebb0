# SPDX-License-Identifier: MIT
# mk/install.mk -- 'make install' and 'make uninstall': the libraries, the
# headers, posixtrace.pc, the tools, the man pages (man/), the documents, and
# the conformance suite with its command posixtrace-conformance
# (harness/installed/README.md).  The directories are configure's GNU ones
# (config.mk: bindir, libdir, includedir, datadir, mandir, docdir, ...);
# DESTDIR= stages the whole tree under another root, PREFIX= moves prefix.
#
# As root, without DESTDIR, into a prefix whose libdir the dynamic loader
# searches, the new shared library is found only once the loader's cache is
# rebuilt: install then runs ldconfig (LDCONFIG=, if it is there); a staged
# install (DESTDIR=, a package build) never does, the package's own trigger
# does it on the target.

.PHONY: install install-lib install-tools install-man install-doc install-suite uninstall

# The man pages, man/manN/*.N as installed under MANDIR/manN: one a command,
# posixtrace(7), and a page a header of section 3 with a link (a symbolic
# link in the tree, installed as one) for each function it declares
# (harness/tests/test_man_pages.py checks them).
MAN_PAGES = $(sort $(wildcard man/man[1-8]/*.[1-8]))

# The conformance suite as installed: what the runner and the build of the
# tests read (harness/installed/README.md lists it and says why), under
# DATADIR/posixtrace/conformance; the command in bindir finds it from its own
# place (relative paths written at install time), so a staged or moved tree
# works as well.
SUITE_DIR = $(datadir)/posixtrace/conformance
SUITE_FIND = find conformance spec vectors/README.md vectors/trc mk/std.mk mk/harness.mk mk/vectors.mk \
    harness/README.md harness/run.py harness/std_cflags.py harness/build_test.sh harness/probe.sh \
    harness/compiler_errors.sh harness/runner harness/reporting harness/rules harness/unbuilt \
    harness/profile harness/vec harness/common harness/schemas harness/wrappers \
    -type f ! -name '*.pyc' ! -path '*/__pycache__/*'
SUITE_COMMAND = harness/installed/posixtrace-conformance.py
# A path relative to bindir, for the command (it may be staged under DESTDIR
# or moved with its prefix).
rel_to_bindir = $(shell $(PYTHON) -c 'import os,sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' '$(1)' '$(bindir)')

LDCONFIG ?= ldconfig

install: install-lib install-tools install-man install-doc install-suite
	@if [ -z "$(DESTDIR)" ] && [ "$(ENABLE_SHARED)" != no ] && [ "$$(id -u)" = 0 ]; then \
	   ldc=$$(command -v $(LDCONFIG) || { [ -x /sbin/$(LDCONFIG) ] && echo /sbin/$(LDCONFIG); }); \
	   if [ -n "$$ldc" ]; then echo "$$ldc  (the dynamic loader's cache: $(libdir)/$(LIB_SONAME))"; $$ldc; \
	   else echo "install: no $(LDCONFIG) here: run it (as root) before using $(LIB_SONAME)"; fi; \
	 fi

install-lib: lib
	install -d $(DESTDIR)$(libdir)/pkgconfig $(DESTDIR)$(includedir) $(DESTDIR)$(SYSTYPES_DIR)
ifneq ($(ENABLE_STATIC),no)
	install -m 644 $(LIB_A) $(DESTDIR)$(libdir)/
endif
ifneq ($(ENABLE_SHARED),no)
	install -m 644 build/lib/$(LIB_SO_REAL) $(DESTDIR)$(libdir)/
	ln -sf $(LIB_SO_REAL) $(DESTDIR)$(libdir)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(libdir)/libposixtrace.so
endif
	install -m 644 $(INSTALL_HEADERS) $(DESTDIR)$(includedir)/
	install -m 644 include/sys/types.h $(DESTDIR)$(SYSTYPES_DIR)/
	install -m 644 $(PC_FILE) $(DESTDIR)$(libdir)/pkgconfig/

install-tools: tools
ifneq ($(TOOLS),)
	install -d $(DESTDIR)$(bindir)
	install -m 755 $(TOOLS) $(DESTDIR)$(bindir)/
endif

install-man:
	@for p in $(MAN_PAGES); do \
	   d=$(DESTDIR)$(mandir)/$${p#man/}; install -d "$${d%/*}" || exit 1; \
	   if [ -L "$$p" ]; then ln -sf "$$(readlink "$$p")" "$$d"; \
	   else install -m 644 "$$p" "$$d"; fi || exit 1; \
	 done; echo "installed $(words $(MAN_PAGES)) man pages under $(DESTDIR)$(mandir)"

install-doc:
	install -d $(DESTDIR)$(docdir)
	install -m 644 README.md LICENSE reference/posix/CHOICES.md $(DESTDIR)$(docdir)/

# The suite's files keep their modes' meaning: scripts stay executable.
install-suite:
	@$(SUITE_FIND) | sort | while read -r f; do \
	   m=644; { [ -x "$$f" ] || [ "$$(head -c2 "$$f")" = "#!" ]; } && m=755; \
	   install -D -m $$m "$$f" "$(DESTDIR)$(SUITE_DIR)/$$f" || exit 1; \
	 done
	sed -e 's|@VERSION@|$(VERSION)|g' harness/installed/suite.mk > $(DESTDIR)$(SUITE_DIR)/Makefile
	install -m 755 configure $(DESTDIR)$(SUITE_DIR)/configure
	install -d $(DESTDIR)$(bindir)
	sed -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@SUITE_REL@|$(call rel_to_bindir,$(SUITE_DIR))|g' \
	    -e 's|@INCLUDE_REL@|$(call rel_to_bindir,$(includedir))|g' \
	    -e 's|@LIB_REL@|$(call rel_to_bindir,$(libdir))|g' \
	    $(SUITE_COMMAND) > $(DESTDIR)$(bindir)/posixtrace-conformance
	chmod 755 $(DESTDIR)$(bindir)/posixtrace-conformance
	@echo "installed the conformance suite in $(DESTDIR)$(SUITE_DIR) ($(DESTDIR)$(bindir)/posixtrace-conformance)"

uninstall:
	rm -f $(DESTDIR)$(libdir)/libposixtrace.a $(DESTDIR)$(libdir)/libposixtrace.so \
	      $(DESTDIR)$(libdir)/$(LIB_SONAME) $(DESTDIR)$(libdir)/$(LIB_SO_REAL) \
	      $(DESTDIR)$(libdir)/pkgconfig/posixtrace.pc \
	      $(addprefix $(DESTDIR)$(includedir)/,$(notdir $(INSTALL_HEADERS))) \
	      $(DESTDIR)$(SYSTYPES_DIR)/types.h \
	      $(addprefix $(DESTDIR)$(bindir)/,$(notdir $(TOOLS)) posixtrace-conformance) \
	      $(patsubst man/%,$(DESTDIR)$(mandir)/%,$(MAN_PAGES)) \
	      $(addprefix $(DESTDIR)$(docdir)/,README.md LICENSE CHOICES.md)
	rm -rf $(DESTDIR)$(SUITE_DIR)
	-rmdir $(DESTDIR)$(SYSTYPES_DIR) $(DESTDIR)$(includedir)/posixtrace $(DESTDIR)$(docdir) \
	       $(DESTDIR)$(datadir)/posixtrace 2>/dev/null

# The install's own tests (maint/install_tests/, a minute or two: a CI step,
# not part of 'make check'): make install into a DESTDIR and the installed
# posixtrace-conformance run there against the installed reference; ldconfig
# as root without DESTDIR only; configure's GNU directories; what
# --disable-static and --disable-shared leave out.
.PHONY: check-install
check-install: all
	$(PYTHON) -m pytest -q maint/install_tests
