# SPDX-License-Identifier: GPL-2.0
#
# tests/fuzz/: README.md, beside this file, says what it is and how to run it.
#
# Included by tools/Makefile (paths relative to tools/). The harnesses link
# the tools' own archives, which must then be built by clang with the same
# sanitizers: so the targets below exist only with FUZZ=1, which switches
# the whole build to clang, and in a build directory of their own (the
# top-level Makefile uses O=build/fuzz: make fuzz-tools, and the corpus
# replay of make test-host).
#
#   make -C tools O=../build/fuzz FUZZ=1 fuzz		build the harnesses
#   make -C tools O=../build/fuzz FUZZ=1 fuzz-replay	run each on its corpus
#   make -C tools O=../build/fuzz FUZZ=1 fuzz-run	fuzz each in turn
#	(FUZZ_RUNS=N and/or FUZZ_SECONDS=N each; FUZZERS="a b" for some)

FZ := ../tests/fuzz
# One harness a parser; each is $(FZ)/NAME_fuzz.c, with corpus/NAME/.
FUZZERS_ALL := logformat nslogcat liblog_read liblog_events liblog_tagmap \
	       collector_rec collector_state nslogctl_rules nslogd_dgram \
	       nslogd_rdcmd nslogd_control nslogd_eventtag
FUZZERS ?= $(FUZZERS_ALL)
FUZZ_RUNS ?=
FUZZ_SECONDS ?=

.PHONY: fuzz fuzz-run fuzz-replay

ifeq ($(FUZZ),1)

CC = clang
# -O1 as libFuzzer's documentation builds; every finding is fatal.
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
CFLAGS = -O1 -g -fno-omit-frame-pointer $(FUZZ_SAN) \
	 -fsanitize=fuzzer-no-link -Wno-gnu-variable-sized-type-not-at-end
FUZZ_CFLAGS = $(TOOL_CFLAGS) -I. -I$(FZ) -fsanitize=fuzzer -MMD -MP
FZCHECK_O := $(OBJ)/fuzz/fzcheck.o
FUZZ_BINS := $(patsubst %,$(O)/fuzz/%_fuzz,$(FUZZERS_ALL))

$(O)/fuzz:
	mkdir -p $@

$(FZCHECK_O): $(FZ)/fzcheck.c
	@mkdir -p $(@D)
	$(CC) $(TOOL_CFLAGS) -MMD -MP -c -o $@ $<

# Each harness's archives: the program's, then lib/'s (and liblog).
$(O)/fuzz/logformat_fuzz: $(SHARED_A)
$(O)/fuzz/nslogcat_fuzz: $(NSLOGCAT_A) $(SHARED_A) $(O)/liblog.a
$(O)/fuzz/liblog_read_fuzz $(O)/fuzz/liblog_events_fuzz \
$(O)/fuzz/liblog_tagmap_fuzz: $(O)/liblog.a $(SHARED_A)
$(O)/fuzz/collector_rec_fuzz $(O)/fuzz/collector_state_fuzz: \
	$(COLLECTOR_A) $(SHARED_A)
$(O)/fuzz/collector_rec_fuzz $(O)/fuzz/collector_state_fuzz: \
	FUZZ_LIBS = $(SYSTEMD_LIBS)
$(O)/fuzz/nslogctl_rules_fuzz: $(NSLOGCTL_A) $(SHARED_A)
$(O)/fuzz/nslogd_dgram_fuzz $(O)/fuzz/nslogd_rdcmd_fuzz \
$(O)/fuzz/nslogd_control_fuzz $(O)/fuzz/nslogd_eventtag_fuzz: \
	$(NSLOGD_A) $(SHARED_A)

$(FUZZ_BINS): $(O)/fuzz/%: $(FZ)/%.c $(FZCHECK_O) | $(O)/fuzz
	$(CC) $(FUZZ_CFLAGS) -o $@ $< $(filter %.o %.a,$^) $(FUZZ_LIBS)

fuzz: $(FUZZ_BINS)

# The corpus only, each input run once: the regression test.
fuzz-replay: $(FUZZ_BINS)
	sh $(FZ)/run.sh --replay $(O) $(FUZZERS)

fuzz-run: $(FUZZ_BINS)
	FUZZ_RUNS='$(FUZZ_RUNS)' FUZZ_SECONDS='$(FUZZ_SECONDS)' \
		sh $(FZ)/run.sh --fuzz $(O) $(FUZZERS)

-include $(wildcard $(OBJ)/fuzz/*.d $(O)/fuzz/*.d)

else

fuzz fuzz-run fuzz-replay:
	@echo "$@: the harnesses need the tools built by clang with sanitizers:" \
	      "make fuzz-tools (or FUZZ=1 and an O of their own)" >&2; exit 1

endif
