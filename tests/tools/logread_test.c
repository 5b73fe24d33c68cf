// SPDX-License-Identifier: GPL-2.0
/*
 * logread_test: libnslog's read API (<log/log_read.h>, <log/nslog_read.h>)
 * and event tag map (<log/event_tag_map.h>).
 *
 * The logs are fakedev.h's FIFOs in packet mode: the read side of a logger
 * device without its ioctls.  The test plays the kernel, writing whole
 * records, and for the header versions the module's LOGGER_SET_VERSION
 * (fakeioctl.h: this program's ioctl() comes before libc's for
 * liblog.so.0 too).  Regular files play devices that are not: read() of 0,
 * or bytes that are no record.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <log/event_tag_map.h>
#include <log/log_read.h>
#include <log/nslog_read.h>
#include "fakedev.h"
#include "fakeioctl.h"
#include "tap.h"

static char dir[64];
static int fd_main = -1, fd_system = -1, fd_events = -1;

/* A version 1 or 2 record of pid @pid, message @msg, tag "t", INFO. */
static void put(int fd, int version, int pid, uint32_t sec, int nsec,
		const char *msg)
{
	unsigned char p[512];
	size_t m = strlen(msg) + 1;

	memcpy(p, "\4t", 3);
	memcpy(p + 3, msg, m);
	fakedev_put(fd, version, pid, sec, nsec, 1000 + (uint32_t)pid, p,
		    3 + m);
}

static const char *msg_text(struct log_msg *m)
{
	return (const char *)m->buf + m->entry.hdr_size + 3;
}

static struct logger_list *list_new(int mode, unsigned int tail, pid_t pid)
{
	struct logger_list *l = android_logger_list_alloc(mode, tail, pid);

	if (l)
		nslog_logger_list_set_dev_dir(l, dir);
	return l;
}

/* Every record until -EAGAIN, as "MSG/LID " words; returns the last ret. */
static int read_all(struct logger_list *l, char *out, size_t size)
{
	struct log_msg m;
	size_t n = 0;
	int ret;

	out[0] = '\0';
	while ((ret = android_logger_list_read(l, &m)) > 0)
		n += (size_t)snprintf(out + n, size - n, "%s/%u ",
				      msg_text(&m), m.entry.lid);
	return ret;
}

static void test_merge(void)
{
	struct logger_list *l = list_new(ANDROID_LOG_RDONLY |
					 ANDROID_LOG_NONBLOCK, 0, 0);
	char got[512];
	int ret;

	tap_ok(android_logger_open(l, LOG_ID_MAIN) &&
	       android_logger_open(l, LOG_ID_SYSTEM) &&
	       android_logger_open(l, LOG_ID_EVENTS),
	       "open: main, system and events");
	tap_ok(android_logger_open(l, LOG_ID_MAIN) ==
	       android_logger_open(l, LOG_ID_MAIN),
	       "open: a log opened twice is the same logger");
	put(fd_main, 1, 1, 100, 1, "m1");
	put(fd_main, 1, 1, 100, 40, "m2");
	put(fd_main, 1, 1, 102, 0, "m3");
	put(fd_system, 1, 2, 100, 20, "s1");
	put(fd_system, 1, 2, 101, 0, "s2");
	put(fd_events, 1, 3, 100, 30, "e1");
	ret = read_all(l, got, sizeof(got));
	tap_str("merge: records in (sec, nsec) order, each with its log id", got,
		"m1/0 s1/3 e1/2 m2/0 s2/3 m3/0 ");
	tap_int("merge: -EAGAIN once every log is empty (NONBLOCK)", ret,
		-EAGAIN);

	put(fd_main, 1, 1, 5, 0, "first");
	put(fd_system, 1, 1, 5, 0, "second");
	put(fd_main, 1, 1, 5, 0, "third");
	put(fd_system, 1, 1, 0x80000000u, 0, "2038");
	put(fd_main, 1, 1, 0x7fffffffu, 0, "2037");
	read_all(l, got, sizeof(got));
	tap_str("merge: ties go to the log opened first; sec is unsigned", got,
		"first/0 third/0 second/3 2037/0 2038/3 ");
	android_logger_list_free(l);
}

static void test_merge_late(void)
{
	struct logger_list *l = list_new(ANDROID_LOG_NONBLOCK, 0, 0);
	struct log_msg m;
	char got[256];

	android_logger_open(l, LOG_ID_MAIN);
	android_logger_open(l, LOG_ID_SYSTEM);
	put(fd_main, 1, 1, 1, 0, "a1");
	put(fd_main, 1, 1, 5, 0, "a5");
	android_logger_list_read(l, &m);
	put(fd_system, 1, 1, 3, 0, "b3");
	snprintf(got, sizeof(got), "%s ", msg_text(&m));
	read_all(l, got + strlen(got), sizeof(got) - strlen(got));
	tap_str("merge: an empty log is read again for every record", got,
		"a1 b3/3 a5/0 ");
	android_logger_list_free(l);
}

static void test_header(void)
{
	struct logger_list *l = list_new(ANDROID_LOG_NONBLOCK, 0, 0);
	struct log_msg m;
	int ret;

	android_logger_open(l, LOG_ID_SYSTEM);
	put(fd_system, 1, 7, 1700000000, 123, "v1");
	ret = android_logger_list_read(l, &m);
	tap_ok(ret == 28 + 6 && m.entry.hdr_size == 28 && m.entry.len == 6 &&
	       m.entry.pid == 7 && m.entry.tid == 8 &&
	       m.entry.sec == 1700000000 && m.entry.nsec == 123 &&
	       m.entry.lid == LOG_ID_SYSTEM && m.entry.uid == UINT32_MAX &&
	       !memcmp(m.buf + 28, "\4t\0v1", 6),
	       "header: a version 1 record becomes version 4, uid unknown");
	put(fd_system, 2, 7, 1700000000, 123, "v2");
	ret = android_logger_list_read(l, &m);
	tap_ok(ret == 34 && m.entry.hdr_size == 28 && m.entry.uid == 1007 &&
	       m.entry_v4.lid == LOG_ID_SYSTEM,
	       "header: a version 2 record's euid becomes the uid");
	android_logger_list_free(l);
}

/*
 * A list of main alone asking for header @header of a module that knows
 * nslogger's versions up to @newest (or fails with @err): the versions it
 * asked, as fake_ioctl_asked() writes them, in @asked; the list, open.
 */
static struct logger_list *versions_open(int header, int newest, int err,
					 char *asked, size_t size)
{
	struct logger_list *l = list_new(ANDROID_LOG_NONBLOCK, 0, 0);
	struct logger *lg;

	fake_ioctl_reset(newest);
	fake_ioctl.err = err;
	fake_ioctl.on = true;
	nslog_logger_list_set_header(l, header);
	lg = android_logger_open(l, LOG_ID_MAIN);
	fake_ioctl.on = false;
	fake_ioctl_asked(asked, size);
	if (!lg) {
		snprintf(asked, size, "open failed: %s", strerror(errno));
		android_logger_list_free(l);
		return NULL;
	}
	return l;
}

static void test_header_versions(void)
{
	struct nslog_entry2 h = {
		.pid = 5, .tid = 6, .euid = 1005, .seq = 9, .order = 30,
		.time_ns = 1700000000000000007LL,
		.flags = NSLOG_ENTRY_RELAYED, .relay_pid = 77,
		.stored_ns = 1700000001000000000LL,
	};
	struct logger_list *l;
	struct log_msg m;
	char asked[64];
	int ret;

	l = list_new(0, 0, 0);
	tap_ok(!nslog_logger_list_set_header(l, NSLOG_ENTRY2_VERSION) &&
	       nslog_logger_list_set_header(l, NSLOG_ENTRY2_VERSION + 1) ==
	       -EINVAL,
	       "header: NSLOG_ENTRY2_VERSION may be asked for, no later one");
	android_logger_list_free(l);
	l = versions_open(NSLOG_ENTRY2_VERSION, NSLOG_ENTRY2_VERSION, 0,
			  asked, sizeof(asked));
	tap_str("header 0x4e54: today's module grants it, nothing else asked",
		asked, "0x4e54");
	fakedev_put_ns(fd_main, 72, &h, "\4t\0r", 5);
	ret = l ? android_logger_list_read(l, &m) : -1;
	tap_ok(ret == 72 + 5 && m.entry.hdr_size == 72 &&
	       ((struct nslog_entry2 *)m.buf)->relay_pid == 77 &&
	       ((struct nslog_entry2 *)m.buf)->stored_ns ==
	       1700000001000000000LL &&
	       ((struct nslog_entry2 *)m.buf)->flags == NSLOG_ENTRY_RELAYED &&
	       !memcmp(m.buf + 72, "\4t\0r", 5),
	       "header 0x4e54: the record as the device gave it, 72 bytes");
	android_logger_list_free(l);

	l = versions_open(NSLOG_ENTRY2_VERSION, NSLOG_ENTRY_VERSION, 0,
			  asked, sizeof(asked));
	tap_str("header 0x4e54: a module older than relays refuses it "
		"(EINVAL): 0x4e53 next", asked, "0x4e54 0x4e53");
	h.flags = 0;
	fakedev_put_ns(fd_main, 56, &h, "\4t\0o", 5);
	ret = l ? android_logger_list_read(l, &m) : -1;
	tap_ok(ret == 56 + 5 && m.entry.hdr_size == 56 &&
	       ((struct nslog_entry *)m.buf)->order == 30 &&
	       !memcmp(m.buf + 56, "\4t\0o", 5),
	       "header 0x4e54 from an older module: its 56-byte header");
	android_logger_list_free(l);

	l = versions_open(NSLOG_ENTRY2_VERSION, 0, 0, asked, sizeof(asked));
	tap_str("header 0x4e54: Android's driver refuses both: version 2",
		asked, "0x4e54 0x4e53 2");
	put(fd_main, 2, 7, 1700000000, 0, "v2");
	ret = l ? android_logger_list_read(l, &m) : -1;
	tap_ok(ret == 28 + 6 && m.entry.hdr_size == 28 && m.entry.uid == 1007,
	       "header 0x4e54 from Android's driver: version 4, with the euid");
	android_logger_list_free(l);

	l = versions_open(NSLOG_ENTRY2_VERSION, NSLOG_ENTRY2_VERSION, ENOTTY,
			  asked, sizeof(asked));
	tap_str("header 0x4e54: another error than EINVAL is no older module: "
		"version 2 next, and the open does not fail", asked,
		l ? "0x4e54 2" : "open failed");
	android_logger_list_free(l);

	l = versions_open(NSLOG_ENTRY_VERSION, NSLOG_ENTRY2_VERSION, 0,
			  asked, sizeof(asked));
	tap_str("header 0x4e53: asked alone, as before", asked, "0x4e53");
	android_logger_list_free(l);

	l = versions_open(0, NSLOG_ENTRY2_VERSION, 0, asked, sizeof(asked));
	tap_str("header 0: version 2 alone, as before", asked, "2");
	android_logger_list_free(l);
}

static void test_tail_and_filters(void)
{
	struct logger_list *l;
	log_time start = { .tv_sec = 200, .tv_nsec = 500 };
	char got[256];
	int ret;

	put(fd_main, 1, 1, 100, 0, "a");
	put(fd_system, 1, 2, 101, 0, "b");
	put(fd_main, 1, 1, 102, 0, "c");
	put(fd_system, 1, 2, 103, 0, "d");
	l = list_new(ANDROID_LOG_RDONLY | ANDROID_LOG_NONBLOCK, 2, 0);
	android_logger_open(l, LOG_ID_MAIN);
	android_logger_open(l, LOG_ID_SYSTEM);
	ret = read_all(l, got, sizeof(got));
	tap_str("tail: 2 gives the last two records of the merge", got,
		"c/0 d/3 ");
	tap_int("tail: then -EAGAIN", ret, -EAGAIN);
	put(fd_main, 1, 1, 104, 0, "e");
	read_all(l, got, sizeof(got));
	tap_str("tail: later records follow", got, "e/0 ");
	android_logger_list_free(l);

	put(fd_main, 1, 1, 100, 0, "a");
	put(fd_system, 1, 2, 101, 0, "b");
	put(fd_main, 1, 1, 102, 0, "c");
	put(fd_system, 1, 2, 103, 0, "d");
	put(fd_system, 1, 1, 104, 0, "e");
	l = list_new(ANDROID_LOG_NONBLOCK, 2, 1);
	android_logger_open(l, LOG_ID_MAIN);
	android_logger_open(l, LOG_ID_SYSTEM);
	read_all(l, got, sizeof(got));
	tap_str("pid: tail 2 of pid 1 only", got, "c/0 e/3 ");
	android_logger_list_free(l);

	put(fd_main, 1, 1, 200, 499, "early");
	put(fd_main, 1, 1, 200, 500, "on time");
	put(fd_main, 1, 1, 201, 0, "later");
	l = android_logger_list_alloc_time(ANDROID_LOG_NONBLOCK, start, 0);
	nslog_logger_list_set_dev_dir(l, dir);
	android_logger_open(l, LOG_ID_MAIN);
	read_all(l, got, sizeof(got));
	tap_str("start time: records older than it are skipped", got,
		"on time/0 later/0 ");
	android_logger_list_free(l);
}

static void *late_writer(void *arg)
{
	(void)arg;
	put(fd_events, 1, 4, 1, 0, "late");
	return NULL;
}

static void test_blocking(void)
{
	struct logger_list *l = list_new(ANDROID_LOG_RDONLY, 0, 0);
	struct log_msg m;
	pthread_t t;
	int ret;

	android_logger_open(l, LOG_ID_MAIN);
	android_logger_open(l, LOG_ID_EVENTS);
	pthread_create(&t, NULL, late_writer, NULL);
	ret = android_logger_list_read(l, &m);
	pthread_join(t, NULL);
	tap_ok(ret > 0 && !strcmp(msg_text(&m), "late") &&
	       m.entry.lid == LOG_ID_EVENTS,
	       "blocking: without NONBLOCK, a read waits for a record");
	android_logger_list_free(l);
}

static void touch(const char *name, const void *data, size_t n)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fwrite(data, 1, n, f);
		fclose(f);
	}
}

static void test_errors(void)
{
	struct logger_list *l = list_new(ANDROID_LOG_NONBLOCK, 0, 0);
	const char *path = NULL, *what = NULL;
	char want[128];
	struct log_msg m;
	int id, ret;

	tap_int("read: a list with no log is -EINVAL",
		android_logger_list_read(l, &m), -EINVAL);
	errno = 0;
	tap_ok(!android_logger_open(l, LOG_ID_RADIO) && errno == ENOENT,
	       "open: a missing node fails with its errno");
	id = nslog_logger_list_error(l, &path, &what);
	snprintf(want, sizeof(want), "%s/radio", dir);
	tap_ok(id == LOG_ID_RADIO && path && !strcmp(path, want) &&
	       what && !strcmp(what, "open"),
	       "error: names the log, its path and what failed");
	tap_ok(!android_logger_open(l, (log_id_t)9) && errno == EINVAL,
	       "open: an unknown log id is EINVAL");
	android_logger_list_free(l);

	touch("radio", "", 0);
	l = list_new(ANDROID_LOG_NONBLOCK, 0, 0);
	android_logger_open(l, LOG_ID_MAIN);
	android_logger_open(l, LOG_ID_RADIO);
	ret = android_logger_list_read(l, &m);
	id = nslog_logger_list_error(l, &path, &what);
	tap_ok(ret == -EIO && id == LOG_ID_RADIO && !strcmp(what, "read"),
	       "read: a read() of 0 is -EIO, naming the log");
	android_logger_list_free(l);

	touch("radio", "\x09\0\0\0garbage-garbage-garbage", 27);
	l = list_new(ANDROID_LOG_NONBLOCK, 0, 0);
	android_logger_open(l, LOG_ID_RADIO);
	tap_int("read: a record whose size is not its header's is -EINVAL",
		android_logger_list_read(l, &m), -EINVAL);
	android_logger_list_free(l);

	l = list_new(ANDROID_LOG_WRONLY, 0, 0);
	tap_ok(android_logger_open(l, LOG_ID_MAIN) != NULL,
	       "open: ANDROID_LOG_WRONLY opens the node for writing");
	tap_int("read: a write-only list cannot be read, -EBADF",
		android_logger_list_read(l, &m), -EBADF);
	tap_int("clear: a write-only list can try (a FIFO has no ioctl)",
		android_logger_clear(android_logger_open(l, LOG_ID_MAIN)),
		-ENOTTY);
	android_logger_list_free(l);

	l = list_new(ANDROID_LOG_RDONLY | ANDROID_LOG_WRAP, 0, 0);
	tap_ok(!android_logger_open(l, LOG_ID_MAIN) && errno == EOPNOTSUPP,
	       "open: ANDROID_LOG_WRAP is refused, EOPNOTSUPP");
	android_logger_list_free(l);
	l = list_new(ANDROID_LOG_RDONLY | ANDROID_LOG_PSTORE, 0, 0);
	tap_ok(!android_logger_open(l, LOG_ID_MAIN) && errno == EOPNOTSUPP,
	       "open: ANDROID_LOG_PSTORE is refused, EOPNOTSUPP");
	android_logger_list_free(l);
}

static void test_ioctls(void)
{
	struct logger_list *l = list_new(ANDROID_LOG_NONBLOCK, 0, 0);
	struct logger *lg = android_logger_open(l, LOG_ID_EVENTS);
	char want[128];

	tap_ok(android_logger_get_id(lg) == LOG_ID_EVENTS,
	       "get_id: the logger's log");
	tap_ok(android_logger_get_log_size(lg) == -ENOTTY &&
	       android_logger_get_log_readable_size(lg) == -ENOTTY &&
	       android_logger_get_log_version(lg) == -ENOTTY,
	       "sizes and version: the ioctl's -errno (a FIFO has none)");
	tap_ok(android_logger_clear(lg) == -ENOTTY &&
	       android_logger_set_log_size(lg, 65536) == -ENOTTY,
	       "clear and set_log_size: the ioctl's -errno, on a write fd");
	tap_int("set_log_size: above 4 GiB is -EFBIG",
		android_logger_set_log_size(lg, 1UL << 33), -EFBIG);
	snprintf(want, sizeof(want), "%s/events", dir);
	tap_ok(nslog_logger_fd(lg) >= 0 &&
	       !strcmp(nslog_logger_path(lg), want),
	       "extensions: the logger's fd and path");
	tap_int("extensions: the directory cannot change once a log is open",
		nslog_logger_list_set_dev_dir(l, "/x"), -EBUSY);
	android_logger_list_free(l);

	l = list_new(ANDROID_LOG_NONBLOCK, 0, 0);
	tap_int("extensions: an unknown header version is -EINVAL",
		nslog_logger_list_set_header(l, 3), -EINVAL);
	nslog_logger_list_set_header(l, 2);
	tap_ok(!android_logger_open(l, LOG_ID_MAIN) && errno == ENOTTY &&
	       nslog_logger_list_error(l, NULL, NULL) == LOG_ID_MAIN,
	       "extensions: header 2 required, a FIFO cannot: the open fails");
	android_logger_list_free(l);

	l = list_new(ANDROID_LOG_NONBLOCK, 0, 0);
	nslog_logger_list_set_ns(l, -1, 1);
	lg = android_logger_open(l, LOG_ID_MAIN);
	tap_ok(!lg && errno == ENOTTY &&
	       nslog_logger_list_error(l, NULL, NULL) == LOG_ID_MAIN,
	       "extensions: another namespace is opened with NSLOG_IOC_OPEN_NS");
	android_logger_list_free(l);

	setenv("NSLOG_DEV_DIR", dir, 1);
	l = android_logger_list_open(LOG_ID_SYSTEM, ANDROID_LOG_NONBLOCK, 0, 0);
	put(fd_system, 1, 1, 1, 0, "x");
	{
		struct log_msg m;

		tap_ok(l && android_logger_list_read(l, &m) > 0 &&
		       m.entry.lid == LOG_ID_SYSTEM,
		       "list_open: alloc and open in one, $NSLOG_DEV_DIR");
	}
	android_logger_list_close(l);
	unsetenv("NSLOG_DEV_DIR");
}

static EventTagMap *map_of(const char *text)
{
	char path[128];
	int err;
	EventTagMap *map;

	touch("tags", text, strlen(text));
	snprintf(path, sizeof(path), "%s/tags", dir);
	map = android_openEventTagMap(path);
	err = errno;
	unlink(path);
	errno = err;
	return map;
}

static bool tag_is(const EventTagMap *map, unsigned int num,
		   const char *name, const char *format)
{
	const char *n, *f;
	size_t nl, fl;

	n = android_lookupEventTag_len(map, &nl, num);
	f = android_lookupEventFormat_len(map, &fl, num);
	if (!name)
		return !n && !nl;
	if (!n || nl != strlen(name) || memcmp(n, name, nl))
		return false;
	if (!format)
		return !f && !fl;
	return f && fl == strlen(format) && !memcmp(f, format, fl);
}

static void test_tag_map(void)
{
	EventTagMap *map;

	map = map_of("# event-log-tags\n"
		     "\n"
		     "42 answer (to|1|5),(everything|2)\n"
		     "  2718 e_tag\t(v|2)   # a comment\n"
		     "30014 am_proc_start (User|1|5),(PID|1|5),(UID|1|5)\n"
		     "7 no_format\n"
		     "42 answer (to|1|5),(everything|2)\n"
		     "1000000 last");
	if (!tap_ok(map != NULL, "tags: a map opens"))
		return;
	tap_ok(tag_is(map, 42, "answer", "(to|1|5),(everything|2)") &&
	       tag_is(map, 2718, "e_tag", "(v|2)") &&
	       tag_is(map, 30014, "am_proc_start",
		      "(User|1|5),(PID|1|5),(UID|1|5)") &&
	       tag_is(map, 1000000, "last", NULL),
	       "tags: names and formats; blanks, comments and spacing skipped");
	tap_ok(tag_is(map, 7, "no_format", NULL) && tag_is(map, 8, NULL, NULL),
	       "tags: no format is NULL; an unknown tag is NULL");
	tap_ok(android_lookupEventTagNum(map, "e_tag", NULL, 4) == 2718 &&
	       android_lookupEventTagNum(map, "answer",
					 "(to|1|5),(everything|2)", 4) == 42,
	       "tags: numbers by name, and by name and format");
	errno = 0;
	tap_ok(android_lookupEventTagNum(map, "answer", "(x|1)", 4) == -1 &&
	       errno == ESRCH &&
	       android_lookupEventTagNum(map, "nope", NULL, 4) == -1,
	       "tags: an unknown name or format is -1, ESRCH");
	android_closeEventTagMap(map);

	errno = 0;
	tap_ok(!map_of("42 answer\n43 bad-name\n") && errno == EINVAL,
	       "tags: a malformed name fails the open, EINVAL");
	errno = 0;
	tap_ok(!map_of("x42 answer\n") && errno == EINVAL,
	       "tags: a line without a number fails, EINVAL");
	errno = 0;
	tap_ok(!map_of("42 answer\n42 other\n") && errno == EINVAL,
	       "tags: a number with two names fails, EINVAL");
	map = map_of("");
	tap_ok(map && tag_is(map, 1, NULL, NULL), "tags: an empty file is an empty map");
	android_closeEventTagMap(map);
	errno = 0;
	tap_ok(!android_openEventTagMap("/nonexistent/event-log-tags") &&
	       errno == ENOENT, "tags: a missing file fails with ENOENT");
	tap_ok(!android_lookupEventTag_len(NULL, NULL, 1),
	       "tags: a NULL map has no tags");
}

static void cleanup(void)
{
	static const char *const names[] = { "main", "system", "events",
					     "radio", "tags" };

	fakedev_remove(dir, names, ARRAY_SIZE(names));
}

int main(void)
{
	unsetenv("NSLOG_DEV_DIR");
	snprintf(dir, sizeof(dir), "/tmp/nslog_read.XXXXXX");
	if (!tap_ok(mkdtemp(dir), "make a fake device directory"))
		return tap_done();
	fd_main = fakedev_fifo(dir, "main");
	fd_system = fakedev_fifo(dir, "system");
	fd_events = fakedev_fifo(dir, "events");
	if (!tap_ok(fd_main >= 0 && fd_system >= 0 && fd_events >= 0,
		    "packet-mode FIFOs for main, system and events")) {
		cleanup();
		return tap_done();
	}
	test_merge();
	test_merge_late();
	test_header();
	test_header_versions();
	test_tail_and_filters();
	test_blocking();
	test_errors();
	test_ioctls();
	test_tag_map();
	close(fd_main);
	close(fd_system);
	close(fd_events);
	cleanup();
	return tap_done();
}
