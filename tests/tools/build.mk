# SPDX-License-Identifier: GPL-2.0
#
# tests/tools/: README.md, beside this file, says what it is and may use.

# Included by tools/Makefile, so paths are relative to tools/: TT is here.
TT := ../tests/tools
TEST_CFLAGS = $(TOOL_CFLAGS) -I. -I../tests/lib -MMD -MP
TAP_O := $(OBJ)/tests/tap.o

TESTS := $(O)/tests/logformat_test $(O)/tests/liblog_test $(O)/tests/fifo_test \
	 $(O)/tests/logread_test \
	 $(O)/tests/ctlparse_test $(O)/tests/ctlapply_test \
	 $(O)/tests/cgparse_test $(O)/tests/collect_test \
	 $(O)/tests/logset_test $(O)/tests/output_test \
	 $(O)/tests/logdev_test
TESTS += $(O)/tests/prioname_test $(O)/tests/nslogd_test
# nslogd's control socket (logd)
TESTS += $(O)/tests/nslogd_control_test
TESTS += $(O)/tests/nslogd_reader_test
# nslogd's client of init's property service (logd.ready)
TESTS += $(O)/tests/nslogd_prop_test
# what nslogd keeps once set up (the drop itself only as root)
TESTS += $(O)/tests/nslogd_priv_test
# nslog-syslogd: parser, framing, record, store, control, sockets
TESTS += $(O)/tests/syslogd_test
# The shell tests, run after the programs.
TEST_SCRIPTS := $(addprefix $(TT)/,cli_test.sh android_test.sh apply_test.sh \
		json_test.sh collector_test.sh journal_test.sh)
# Run by journal_test.sh, against a journald of its own.
TEST_PROGS := $(O)/tests/journalpos_test
# Helpers of the shell tests.
TEST_PROGS += $(O)/tests/json_emit
# Built with the tools, run in the VM against the module (tests/containers/).
VM_PROGS += $(O)/tests/liblog_calls $(O)/tests/liblog_retry
# Android sources, unchanged (android/): android_test.sh builds them from
# an install; these are for the VM.
ANDROID_PROGS := $(patsubst $(TT)/android/%.c,$(O)/tests/android/%, \
		 $(wildcard $(TT)/android/*.c))
VM_PROGS += $(ANDROID_PROGS)
# A program on Android's read API alone (../tests/android/).
VM_PROGS += $(O)/tests/read_list
UAPI_TESTS := $(O)/abi/uapi_test $(if $(HAVE_CXX),$(O)/abi/uapi_test_cxx)

$(O)/tests $(O)/abi $(O)/tests/android:
	mkdir -p $@

$(TAP_O): ../tests/lib/tap.c
	@mkdir -p $(@D)
	$(CC) $(TOOL_CFLAGS) -MMD -MP -c -o $@ $<

# Every test that prints TAP lines links the helper.
$(TESTS) $(O)/tests/journalpos_test: $(TAP_O)

# Linked with one program's archive (and lib/'s, after it).
$(O)/tests/cgparse_test: $(SHARED_A)
$(O)/tests/prioname_test: $(NSLOG_A) $(SHARED_A)
$(O)/tests/ctlparse_test $(O)/tests/ctlapply_test: $(NSLOGCTL_A) $(SHARED_A)
$(O)/tests/collect_test $(O)/tests/logdev_test: $(COLLECTOR_A) $(SHARED_A)
$(O)/tests/logset_test $(O)/tests/output_test $(O)/tests/journalpos_test: \
	$(COLLECTOR_A) $(SHARED_A)
$(O)/tests/logset_test $(O)/tests/output_test $(O)/tests/journalpos_test: \
	TEST_LIBS = $(SYSTEMD_LIBS)
$(O)/tests/json_emit: $(COLLECTOR_A) $(SHARED_A)
$(O)/tests/logformat_test: $(NSLOGCAT_A) $(SHARED_A) $(O)/libnslog.a
# nslogd's archive built with $(CC); the test also runs the static program.
$(O)/tests/nslogd_test: $(NSLOGD_A) $(SHARED_A) | $(O)/nslogd
$(O)/tests/nslogd_control_test: $(NSLOGD_A) $(SHARED_A) | $(O)/nslogd
$(O)/tests/nslogd_reader_test: $(NSLOGD_A) $(SHARED_A)
$(O)/tests/nslogd_prop_test: $(NSLOGD_A) $(SHARED_A) | $(O)/nslogd
$(O)/tests/nslogd_priv_test: $(NSLOGD_A) $(SHARED_A) | $(O)/nslogd
$(O)/tests/syslogd_test: $(SYSLOGD_A) $(SHARED_A) | $(O)/nslog-syslogd

$(O)/tests/cgparse_test $(O)/tests/json_emit $(O)/tests/prioname_test \
$(O)/tests/ctlparse_test $(O)/tests/ctlapply_test $(O)/tests/collect_test \
$(O)/tests/logset_test $(O)/tests/output_test $(O)/tests/journalpos_test \
$(O)/tests/logformat_test $(O)/tests/nslogd_test $(O)/tests/logdev_test \
$(O)/tests/nslogd_control_test $(O)/tests/nslogd_reader_test \
$(O)/tests/nslogd_prop_test $(O)/tests/nslogd_priv_test \
$(O)/tests/syslogd_test: \
	$(O)/tests/%: $(TT)/%.c | $(O)/tests
	$(CC) $(TEST_CFLAGS) -o $@ $< $(filter %.o %.a,$^) $(TEST_LIBS)

# Linked against the shared library, to test what it exports: liblog_test
# and logread_test (the read API, on the FIFOs of fakedev.h); an
# Android-style program and one that logs before the module is loaded and
# after (for the VM).
$(O)/tests/liblog_test $(O)/tests/logread_test $(O)/tests/liblog_calls \
$(O)/tests/liblog_retry: $(O)/tests/%: $(TT)/%.c $(O)/liblog.so | $(O)/tests
	$(CC) $(TEST_CFLAGS) -pthread -o $@ $< $(filter %.o,$^) -L$(O) -llog \
		-Wl,-rpath,'$$ORIGIN/..'

# Android sources, unchanged, for the VM (tests/containers/tools.sh): built
# as android_test.sh builds them from an install, against the headers and
# -llog alone.
$(O)/tests/android/%: $(TT)/android/%.c $(PUB_H) $(O)/liblog.so \
		      | $(O)/tests/android
	$(CC) -std=gnu11 $(WARN) $(CPPFLAGS) $(CFLAGS) -Iliblog/include \
		-I$(UAPI) -o $@ $< -L$(O) -llog \
		-Wl,-rpath,'$$ORIGIN/../..'

# Written against <log/log_read.h> only; run in the VM.
$(O)/tests/read_list: ../tests/android/read_list.c $(READ_H) $(O)/liblog.so \
		      | $(O)/tests
	$(CC) $(TOOL_CFLAGS) -o $@ $< -L$(O) -llog -Wl,-rpath,'$$ORIGIN/..'

# nslogcat end to end, on packet-mode FIFOs.
$(O)/tests/fifo_test: $(TT)/fifo_test.c | $(O)/tests
	$(CC) $(TEST_CFLAGS) -o $@ $< $(TAP_O)

$(O)/abi/uapi_test: ../tests/abi/uapi_test.c $(UAPI_H) | $(O)/abi
	$(CC) $(BASE_CFLAGS) -o $@ $<

$(O)/abi/uapi_test_cxx: ../tests/abi/uapi_test.c $(UAPI_H) | $(O)/abi
	$(CXX) $(BASE_CXXFLAGS) -x c++ -o $@ $<
