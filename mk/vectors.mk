# SPDX-License-Identifier: MIT
# mk/vectors.mk -- the golden vectors (vectors/, vectors/README.md): their
# interpreter build/harness/vecrun, built against the implementation under
# test, and
#     make check-vectors            run every vector (each in a process of its
#                                   own); fails on any FAIL or UNRESOLVED
#     make check-vectors-valgrind   the same under valgrind, one vector at a time
#                                   (processes of "fork" and "exec" included)
#     make bless [WRITE=1]          regenerate the exact expectations from the
#                                   reference: shows the diffs, WRITE=1 writes
# The exact expectations are checked only against the reference (IMPL =
# reference: -DVECRUN_EXACT and <posixtrace_sim.h>); 'make check' never
# rewrites a vector.

VECRUN     ?= build/harness/vecrun
VECRUN_SRCS = harness/vec/vecrun.c $(sort $(wildcard harness/vec/vec_*.c)) harness/common/vec_rule_results.c
VECRUN_HDRS = $(wildcard harness/vec/vec_*.h harness/common/*.h) conformance/tests/ct_exec.h
VECRUN_CFLAGS = $(STD_CFLAGS) $(LFS_CFLAGS) -pthread -Wall -Wextra -DVECRUN_VERSION=\"$(VERSION)\" \
                $(if $(filter reference,$(IMPL)),-DVECRUN_EXACT $(CFLAGS) $(CFLAGS_AUTO), \
                     $(CFLAGS) $(filter-out -Werror,$(CFLAGS_AUTO)))
VECTORS_DIR = vectors

.PHONY: vecrun check-vectors check-vectors-valgrind bless

vecrun: $(VECRUN)

# Like a portable test program, vecrun that does not build against the
# implementation under test does not stop the build (harness/build_test.sh):
# $(VECRUN).build.log ends with BUILD-ERROR and harness/run.py reports every
# vector UNRESOLVED, reading their tests from the .vec files
# (harness/unbuilt/vector_list.py).  -Werror is for the reference's header only.
$(VECRUN): $(VECRUN_SRCS) $(VECRUN_HDRS) conformance/tests/ct_notes.h $(TRACE_DEPS) config.mk mk/vectors.mk \
           harness/build_test.sh
	@mkdir -p $(@D)
	sh harness/build_test.sh program harness/vec/vecrun.c $@ 'the report gives every vector BUILD-ERROR' \
	    $(CC) $(VECRUN_CFLAGS) $(TRACE_CFLAGS) $(VECRUN_SRCS) $(LDFLAGS) $(LDFLAGS_AUTO) $(TRACE_LIBS)

# vecrun_built: stops a target that runs vecrun when it did not build.
vecrun_built = @test -x $(VECRUN) || { cat $(VECRUN).build.log >&2 ; \
    echo "error: $(VECRUN) did not build (log: $(VECRUN).build.log)" >&2 ; exit 1 ; }

check-vectors: $(VECRUN)
	$(vecrun_built)
	CT_EXEC_WRAPPER='$(TEST_WRAPPER)' $(TEST_WRAPPER) $(VECRUN) --dir $(VECTORS_DIR) --run-all

check-vectors-valgrind: $(VECRUN)
	$(vecrun_built)
ifeq ($(VALGRIND),)
	@echo "error: valgrind was not found by ./configure: install it ('make deps') and run ./configure again."; exit 1
endif
	@fails=0; n=0; \
	 for id in $$($(VECRUN) --dir $(VECTORS_DIR) --list | cut -f1); do \
	   n=$$((n + 1)); \
	   out=$$($(VALGRIND) -q --error-exitcode=97 --leak-check=full --trace-children=yes \
	          --errors-for-leak-kinds=definite,indirect \
	          $(VECRUN) --timeout 120 --dir $(VECTORS_DIR) --run $$id 2>&1); st=$$?; \
	   case $$st in 0|3|4) ;; *) fails=$$((fails + 1)); \
	     echo "$$id: exit $$st"; echo "$$out" | tail -20 ;; esac; \
	 done; \
	 echo "check-vectors-valgrind: $$n vectors, $$fails with errors"; \
	 test $$fails -eq 0

bless: $(VECRUN)
ifneq ($(IMPL),reference)
	@echo "error: exact expectations come from the reference: run ./configure without --with-trace, then make bless."; exit 1
endif
	$(vecrun_built)
	$(PYTHON) harness/tools/bless.py --vecrun $(VECRUN) --dir $(VECTORS_DIR) $(if $(WRITE),--write)
