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
VECRUN_SRCS = harness/vecrun.c $(sort $(wildcard harness/vec_*.c))
VECRUN_HDRS = $(wildcard harness/vec_*.h)
VECRUN_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -pthread -Wall -Wextra \
                $(if $(filter reference,$(IMPL)),-DVECRUN_EXACT)
VECTORS_DIR = vectors

.PHONY: vecrun check-vectors check-vectors-valgrind bless

vecrun: $(VECRUN)

$(VECRUN): $(VECRUN_SRCS) $(VECRUN_HDRS) conformance/tests/ct_notes.h $(TRACE_DEPS) config.mk mk/vectors.mk
	@mkdir -p $(@D)
	$(CC) $(VECRUN_CFLAGS) $(CFLAGS) $(CFLAGS_AUTO) $(TRACE_CFLAGS) -o $@ $(VECRUN_SRCS) \
	    $(LDFLAGS) $(LDFLAGS_AUTO) $(TRACE_LIBS)

check-vectors: $(VECRUN)
	$(VECRUN) --dir $(VECTORS_DIR) --run-all

check-vectors-valgrind: $(VECRUN)
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
	$(PYTHON) harness/bless.py --vecrun $(VECRUN) --dir $(VECTORS_DIR) $(if $(WRITE),--write)
