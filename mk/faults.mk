# SPDX-License-Identifier: MIT
# mk/faults.mk -- the fault loop (issue 20 item 1; harness/faults/):
#
#   make fault-loop      builds build/harness/fault_loop: the scenario of
#                        harness/faults/fault_loop.c linked with the reference's
#                        static library, every call of the functions below going
#                        through harness/faults/fault_inject.c (-Wl,--wrap)
#   make check-faults    runs harness/tests/test_fault_loop.py: every N of every
#                        kind (about 100 runs, 10 s; make check runs it too,
#                        with the rest of harness/tests)
FAULT_LOOP = build/harness/fault_loop
FAULT_WRAPS = write pwrite pwrite64 fsync fdatasync ftruncate ftruncate64 mmap mmap64 \
              malloc calloc realloc shm_open open open64
FAULT_SRCS = harness/faults/fault_loop.c harness/faults/fault_inject.c

.PHONY: fault-loop check-faults
fault-loop: $(FAULT_LOOP)

$(FAULT_LOOP): $(FAULT_SRCS) harness/faults/fault_inject.h $(LIB_A) config.mk mk/faults.mk
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Iharness/faults -o $@ $(FAULT_SRCS) $(LIB_A) \
	    $(foreach f,$(FAULT_WRAPS),-Wl,--wrap=$(f)) $(ALL_LDFLAGS) -rdynamic -pthread -lrt

check-faults: $(FAULT_LOOP)
	$(PYTHON) -m pytest -q harness/tests/test_fault_loop.py

# The harness's pytest suite runs the loop (harness/tests/test_fault_loop.py):
# make check builds the driver first.
check-pytest: $(FAULT_LOOP)
