// SPDX-License-Identifier: GPL-2.0
/*
 * uapi_test: the layout of include/uapi/linux/nslogger.h, checked once by
 * the compiler (static assertions) and once at run time (TAP-style "ok N"
 * lines and an "N passed, N failed" summary).
 *
 * Builds as C (gnu11) and as C++11, so both languages see the same ABI:
 * make -C tools uapi-test.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <linux/nslogger.h>

#ifdef __cplusplus
#define UAPI_STATIC_ASSERT(e, msg)	static_assert(e, msg)
#else
#define UAPI_STATIC_ASSERT(e, msg)	_Static_assert(e, msg)
#endif

#define FIELD(type, f)		(((type *)0)->f)
#define FSIZE(type, f)		sizeof(FIELD(type, f))
#define FUNSIGNED(type, f)	((__typeof__(FIELD(type, f)))-1 > \
				 (__typeof__(FIELD(type, f)))0)

#define V1	struct logger_entry
#define V2	struct logger_entry_v2
#define NSE	struct nslog_entry
#define NSE2	struct nslog_entry2
#define RLY	struct nslog_relay

/* Every check is a constant expression: asserted statically and at run. */
#define UAPI_CHECKS(X)							\
	X(sizeof(V1) == 20)						\
	X(__alignof__(V1) == 4)						\
	X(offsetof(V1, len) == 0)					\
	X(offsetof(V1, __pad) == 2)					\
	X(offsetof(V1, pid) == 4)					\
	X(offsetof(V1, tid) == 8)					\
	X(offsetof(V1, sec) == 12)					\
	X(offsetof(V1, nsec) == 16)					\
	X(offsetof(V1, msg) == 20)					\
	X(FSIZE(V1, len) == 2 && FUNSIGNED(V1, len))			\
	X(FSIZE(V1, __pad) == 2 && FUNSIGNED(V1, __pad))		\
	X(FSIZE(V1, pid) == 4 && !FUNSIGNED(V1, pid))			\
	X(FSIZE(V1, tid) == 4 && !FUNSIGNED(V1, tid))			\
	X(FSIZE(V1, sec) == 4 && !FUNSIGNED(V1, sec))			\
	X(FSIZE(V1, nsec) == 4 && !FUNSIGNED(V1, nsec))			\
	X(sizeof(V2) == 24)						\
	X(__alignof__(V2) == 4)						\
	X(offsetof(V2, len) == 0)					\
	X(offsetof(V2, hdr_size) == 2)					\
	X(offsetof(V2, pid) == 4)					\
	X(offsetof(V2, tid) == 8)					\
	X(offsetof(V2, sec) == 12)					\
	X(offsetof(V2, nsec) == 16)					\
	X(offsetof(V2, euid) == 20)					\
	X(offsetof(V2, msg) == 24)					\
	X(FSIZE(V2, len) == 2 && FUNSIGNED(V2, len))			\
	X(FSIZE(V2, hdr_size) == 2 && FUNSIGNED(V2, hdr_size))		\
	X(FSIZE(V2, pid) == 4 && !FUNSIGNED(V2, pid))			\
	X(FSIZE(V2, tid) == 4 && !FUNSIGNED(V2, tid))			\
	X(FSIZE(V2, sec) == 4 && !FUNSIGNED(V2, sec))			\
	X(FSIZE(V2, nsec) == 4 && !FUNSIGNED(V2, nsec))			\
	X(FSIZE(V2, euid) == 4 && FUNSIGNED(V2, euid))			\
	X(LOGGER_ENTRY_MAX_PAYLOAD == 4076)				\
	X(NSLOG_ENTRY_MAX_LEN == 56 + 4076)				\
	X(NSLOG_ENTRY2_MAX_LEN == 72 + 4076)				\
	X(NSLOG_ENTRY_VERSION == 0x4e53)				\
	X(NSLOG_ENTRY_KERNEL == 1)					\
	X(sizeof(NSE) == 56)						\
	X(offsetof(NSE, len) == 0)					\
	X(offsetof(NSE, hdr_size) == 2)					\
	X(offsetof(NSE, pid) == 4)					\
	X(offsetof(NSE, tid) == 8)					\
	X(offsetof(NSE, euid) == 12)					\
	X(offsetof(NSE, seq) == 16)					\
	X(offsetof(NSE, order) == 24)					\
	X(offsetof(NSE, lost) == 32)					\
	X(offsetof(NSE, time_ns) == 40)					\
	X(offsetof(NSE, log_id) == 48)					\
	X(offsetof(NSE, flags) == 52)					\
	X(offsetof(NSE, msg) == 56)					\
	X(FSIZE(NSE, len) == 2 && FUNSIGNED(NSE, len))			\
	X(FSIZE(NSE, hdr_size) == 2 && FUNSIGNED(NSE, hdr_size))	\
	X(FSIZE(NSE, pid) == 4 && !FUNSIGNED(NSE, pid))			\
	X(FSIZE(NSE, tid) == 4 && !FUNSIGNED(NSE, tid))			\
	X(FSIZE(NSE, euid) == 4 && FUNSIGNED(NSE, euid))		\
	X(FSIZE(NSE, seq) == 8 && FUNSIGNED(NSE, seq))			\
	X(FSIZE(NSE, order) == 8 && FUNSIGNED(NSE, order))		\
	X(FSIZE(NSE, lost) == 8 && FUNSIGNED(NSE, lost))		\
	X(FSIZE(NSE, time_ns) == 8 && !FUNSIGNED(NSE, time_ns))		\
	X(FSIZE(NSE, log_id) == 4 && FUNSIGNED(NSE, log_id))		\
	X(FSIZE(NSE, flags) == 4 && FUNSIGNED(NSE, flags))		\
	X(NSLOG_ENTRY_RELAYED == 2)					\
	X(NSLOG_ENTRY_UNVERIFIED == 4)					\
	X(NSLOG_ENTRY2_VERSION == 0x4e54)				\
	X(sizeof(NSE2) == 72)						\
	X(offsetof(NSE2, len) == 0)					\
	X(offsetof(NSE2, hdr_size) == 2)				\
	X(offsetof(NSE2, pid) == 4)					\
	X(offsetof(NSE2, tid) == 8)					\
	X(offsetof(NSE2, euid) == 12)					\
	X(offsetof(NSE2, seq) == 16)					\
	X(offsetof(NSE2, order) == 24)					\
	X(offsetof(NSE2, lost) == 32)					\
	X(offsetof(NSE2, time_ns) == 40)				\
	X(offsetof(NSE2, log_id) == 48)					\
	X(offsetof(NSE2, flags) == 52)					\
	X(offsetof(NSE2, relay_pid) == 56)				\
	X(offsetof(NSE2, __reserved) == 60)				\
	X(offsetof(NSE2, stored_ns) == 64)				\
	X(offsetof(NSE2, msg) == 72)					\
	X(FSIZE(NSE2, relay_pid) == 4 && !FUNSIGNED(NSE2, relay_pid))	\
	X(FSIZE(NSE2, stored_ns) == 8 && !FUNSIGNED(NSE2, stored_ns))	\
	X(sizeof(RLY) == 56)						\
	X(offsetof(RLY, pid) == 0)					\
	X(offsetof(RLY, uid) == 4)					\
	X(offsetof(RLY, tid) == 8)					\
	X(offsetof(RLY, log_id) == 12)					\
	X(offsetof(RLY, time_ns) == 16)					\
	X(offsetof(RLY, flags) == 24)					\
	X(offsetof(RLY, len) == 28)					\
	X(offsetof(RLY, payload) == 32)					\
	X(offsetof(RLY, __reserved) == 40)				\
	X(FSIZE(RLY, pid) == 4 && !FUNSIGNED(RLY, pid))			\
	X(FSIZE(RLY, uid) == 4 && FUNSIGNED(RLY, uid))			\
	X(FSIZE(RLY, tid) == 4 && !FUNSIGNED(RLY, tid))			\
	X(FSIZE(RLY, time_ns) == 8 && !FUNSIGNED(RLY, time_ns))		\
	X(FSIZE(RLY, payload) == 8 && FUNSIGNED(RLY, payload))		\
	X(NSLOG_RELAY_KEEP_EXITED == 1)					\
	X(NSLOG_RELAY_WRITER_SET == 2)					\
	X(NSLOG_RELAY_FILE_LOG == 4)					\
	X(NSLOG_IOC_RELAY == _IOW(0xAE, 0x45, struct nslog_relay))	\
	X(_IOC_SIZE(NSLOG_IOC_RELAY) == 56)				\
	X(sizeof(struct nslog_info) == 40)				\
	X(offsetof(struct nslog_info, set_id) == 0)			\
	X(offsetof(struct nslog_info, ns_id) == 8)			\
	X(offsetof(struct nslog_info, head_seq) == 16)			\
	X(offsetof(struct nslog_info, tail_seq) == 24)			\
	X(offsetof(struct nslog_info, log_id) == 32)			\
	X(offsetof(struct nslog_info, flags) == 36)			\
	X(NSLOG_INFO_DEAD == 1)						\
	X(sizeof(struct nslog_seek) == 16)				\
	X(offsetof(struct nslog_seek, seq) == 0)			\
	X(offsetof(struct nslog_seek, lost) == 8)			\
	X(NSLOG_IOC_INFO == _IOR(0xAE, 0x41, struct nslog_info))	\
	X(NSLOG_IOC_SEEK == _IOWR(0xAE, 0x42, struct nslog_seek))	\
	X(_IOC_SIZE(NSLOG_IOC_INFO) == 40)				\
	X(_IOC_SIZE(NSLOG_IOC_SEEK) == 16)				\
	X(NSLOG_IOC_SET_SIZE == _IOW(0xAE, 0x43, __u32))		\
	X(_IOC_SIZE(NSLOG_IOC_SET_SIZE) == 4)				\
	X(NSLOGFS_SUPER_MAGIC == 0x6e736c66)				\
	X(__LOGGERIO == 0xAE)						\
	X(LOGGER_GET_LOG_BUF_SIZE == 0xAE01)				\
	X(LOGGER_GET_LOG_LEN == 0xAE02)					\
	X(LOGGER_GET_NEXT_ENTRY_LEN == 0xAE03)				\
	X(LOGGER_FLUSH_LOG == 0xAE04)					\
	X(LOGGER_GET_VERSION == 0xAE05)					\
	X(LOGGER_SET_VERSION == 0xAE06)					\
	X(LOGGER_GET_LOG_BUF_SIZE == _IO(0xAE, 1))			\
	X(LOGGER_GET_LOG_LEN == _IO(0xAE, 2))				\
	X(LOGGER_GET_NEXT_ENTRY_LEN == _IO(0xAE, 3))			\
	X(LOGGER_FLUSH_LOG == _IO(0xAE, 4))				\
	X(LOGGER_GET_VERSION == _IO(0xAE, 5))				\
	X(LOGGER_SET_VERSION == _IO(0xAE, 6))				\
	X(_IOC_DIR(LOGGER_SET_VERSION) == _IOC_NONE)			\
	X(_IOC_SIZE(LOGGER_SET_VERSION) == 0)				\
	X(NSLOG_PRIO_VERBOSE == 2)					\
	X(NSLOG_PRIO_DEBUG == 3)					\
	X(NSLOG_PRIO_INFO == 4)						\
	X(NSLOG_PRIO_WARN == 5)						\
	X(NSLOG_PRIO_ERROR == 6)					\
	X(NSLOG_PRIO_FATAL == 7)					\
	X(NSLOG_EVENT_INT == 0)						\
	X(NSLOG_EVENT_LONG == 1)					\
	X(NSLOG_EVENT_STRING == 2)					\
	X(NSLOG_EVENT_LIST == 3)					\
	X(sizeof(LOGGER_LOG_MAIN) == sizeof("log_main"))		\
	X(sizeof(LOGGER_LOG_EVENTS) == sizeof("log_events"))		\
	X(sizeof(LOGGER_LOG_RADIO) == sizeof("log_radio"))		\
	X(sizeof(LOGGER_LOG_SYSTEM) == sizeof("log_system"))

#define UAPI_STATIC(e)	UAPI_STATIC_ASSERT(e, #e);
UAPI_CHECKS(UAPI_STATIC)

static int uapi_passed;
static int uapi_failed;

static void uapi_check(int ok, const char *what)
{
	if (ok)
		uapi_passed++;
	else
		uapi_failed++;
	printf("%sok %d - %s\n", ok ? "" : "not ",
	       uapi_passed + uapi_failed, what);
}

/* Run-time only: string contents are not constant expressions in C. */
static void uapi_check_names(void)
{
	uapi_check(!strcmp(LOGGER_LOG_MAIN, "log_main"),
		   "LOGGER_LOG_MAIN is \"log_main\"");
	uapi_check(!strcmp(LOGGER_LOG_EVENTS, "log_events"),
		   "LOGGER_LOG_EVENTS is \"log_events\"");
	uapi_check(!strcmp(LOGGER_LOG_RADIO, "log_radio"),
		   "LOGGER_LOG_RADIO is \"log_radio\"");
	uapi_check(!strcmp(LOGGER_LOG_SYSTEM, "log_system"),
		   "LOGGER_LOG_SYSTEM is \"log_system\"");
}

/* A v1 record laid over bytes decodes as the ABI document says. */
static void uapi_check_overlay(void)
{
	static const unsigned char raw[] = {
		3, 0, 0, 0,		/* len 3, __pad 0 */
		0x39, 0x30, 0, 0,	/* pid 12345 (little-endian hosts) */
		0x3a, 0x30, 0, 0,	/* tid 12346 */
		1, 0, 0, 0,		/* sec 1 */
		2, 0, 0, 0,		/* nsec 2 */
		4, 'x', 0,		/* payload */
	};
	struct logger_entry e;
	int little = 1;

	if (!*(unsigned char *)&little) {
		uapi_check(1, "# SKIP byte overlay on a big-endian host");
		return;
	}
	memcpy(&e, raw, sizeof(e));
	uapi_check(e.len == 3 && e.__pad == 0 && e.pid == 12345 &&
		   e.tid == 12346 && e.sec == 1 && e.nsec == 2 &&
		   raw[offsetof(struct logger_entry, msg)] == 4,
		   "a 20-byte header read from bytes has the right fields");
}

int main(void)
{
#ifdef __cplusplus
	printf("# uapi_test (C++ %ld)\n", (long)__cplusplus);
#else
	printf("# uapi_test (C %ld)\n", (long)__STDC_VERSION__);
#endif
	printf("# V1 = struct logger_entry, V2 = struct logger_entry_v2,\n"
	       "# NSE = struct nslog_entry,\n"
	       "# FSIZE = size of the field, FUNSIGNED = its type is unsigned\n");
#define UAPI_RUN(e)	uapi_check(e, #e);
	UAPI_CHECKS(UAPI_RUN)
	uapi_check_names();
	uapi_check_overlay();
	printf("%d passed, %d failed\n", uapi_passed, uapi_failed);
	return uapi_failed ? 1 : 0;
}
