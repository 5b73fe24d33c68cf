// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_test: the collector's files on the nodes (collector/logdev.c):
 * which header version each new read fd asks for, the fallback from
 * nslogger's 0x4e54 header to 0x4e53 on a module older than relays, and
 * what is read through it.
 *
 * The nodes are regular files of a directory (logdev only opens them and
 * calls ioctls on them); the module's ioctls are played by fakeioctl.h,
 * whose NSLOG_IOC_OPEN_NS and NSLOG_IOC_OPEN_STREAM give a new file of a
 * packet-mode FIFO (fakedev.h) into which the test writes the records.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector/logdev.h"
#include "fakedev.h"
#include "fakeioctl.h"
#include "logformat.h"
#include "tap.h"

static char dir[64];
static char fifo_path[128];
static int fifo = -1;		/* the test's end: it writes the records */

static void touch(const char *name)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
}

/* Open files of this process, to tell that a failed setup closed its fd. */
static int fd_count(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/*
 * A read fd on main (or the stream "audit") of a module that knows
 * nslogger's versions up to @newest, or whose LOGGER_SET_VERSION fails
 * with @err: what open returned; the versions asked in @asked.
 */
static int open_as(struct nslog_kops *k, bool stream, int newest, int err,
		   char *asked, size_t size)
{
	int fd;

	fake_ioctl_reset(newest);
	fake_ioctl.err = err;
	fake_ioctl.open_fd = open(fifo_path, O_RDONLY | O_NONBLOCK |
				  O_CLOEXEC);
	fake_ioctl.on = true;
	if (stream)
		fd = k->open_stream(k->ctx, "audit", 4026532301ULL);
	else
		fd = k->open(k->ctx, NSLOG_KLOG_MAIN, 4026532301ULL);
	fake_ioctl.on = false;
	close(fake_ioctl.open_fd);
	fake_ioctl_asked(asked, size);
	return fd;
}

/* Read one record from @fd and parse it into @rec; its size, or -errno. */
static ssize_t read_rec(struct nslog_kops *k, int fd, unsigned char *buf,
			struct nslog_rec *rec)
{
	ssize_t n = k->read(k->ctx, fd, buf, NSLOG_READ_BUF_SIZE);

	if (n > 0 && nslog_rec_parse(rec, buf, (size_t)n))
		return -EBADMSG;
	return n;
}

static void test_versions(struct nslog_kops *k)
{
	static unsigned char buf[NSLOG_READ_BUF_SIZE];
	struct nslog_entry2 h = {
		.pid = 5, .tid = 6, .euid = 1005, .seq = 3, .order = 11,
		.time_ns = 1700000000000000000LL,
		.flags = NSLOG_ENTRY_RELAYED | NSLOG_ENTRY_UNVERIFIED,
		.relay_pid = 77, .stored_ns = 1700000004000000000LL,
	};
	struct nslog_rec rec;
	char asked[64];
	int fd, before;
	ssize_t n;

	fd = open_as(k, false, NSLOG_ENTRY2_VERSION, 0, asked, sizeof(asked));
	tap_ok(fd >= 0 && fake_ioctl.granted == NSLOG_ENTRY2_VERSION,
	       "open: today's module gives a read fd with the 0x4e54 header");
	tap_str("open: 0x4e54 asked, nothing else", asked, "0x4e54");
	tap_ok(fd >= 0 && (fcntl(fd, F_GETFL) & O_NONBLOCK),
	       "open: the fd is non-blocking");
	fakedev_put_ns(fifo, 72, &h, "\4t\0m", 5);
	n = fd >= 0 ? read_rec(k, fd, buf, &rec) : -EBADF;
	tap_ok(n == 72 + 5 && rec.has_seq && rec.has_relay &&
	       nslog_rec_relayed(&rec) && nslog_rec_unverified(&rec) &&
	       rec.relay_pid == 77 && rec.stored_sec == 1700000004 &&
	       rec.seq == 3 && rec.order == 11,
	       "read: a relayed record with its relay and stored time");
	tap_int("read: then nothing, -EAGAIN",
		fd >= 0 ? (long)k->read(k->ctx, fd, buf, sizeof(buf)) : 0,
		-EAGAIN);
	if (fd >= 0)
		k->close(k->ctx, fd);

	fd = open_as(k, false, NSLOG_ENTRY_VERSION, 0, asked, sizeof(asked));
	tap_ok(fd >= 0 && fake_ioctl.granted == NSLOG_ENTRY_VERSION,
	       "open: a module older than relays: the 0x4e53 header");
	tap_str("open: 0x4e54 refused with EINVAL, then 0x4e53", asked,
		"0x4e54 0x4e53");
	h.flags = 0;
	fakedev_put_ns(fifo, 56, &h, "\4t\0o", 5);
	n = fd >= 0 ? read_rec(k, fd, buf, &rec) : -EBADF;
	tap_ok(n == 56 + 5 && rec.has_seq && !rec.has_relay &&
	       !nslog_rec_relayed(&rec) && rec.seq == 3,
	       "read: its 56-byte records");
	if (fd >= 0)
		k->close(k->ctx, fd);

	before = fd_count();
	fd = open_as(k, false, 0, 0, asked, sizeof(asked));
	tap_int("open: Android's driver, with neither: -EINVAL", fd,
		-EINVAL);
	tap_str("open: ... after asking for both", asked, "0x4e54 0x4e53");
	tap_int("open: ... and the new file is closed", fd_count(), before);

	fd = open_as(k, false, NSLOG_ENTRY2_VERSION, ENOTTY, asked,
		     sizeof(asked));
	tap_int("open: another error than EINVAL fails at once", fd,
		-ENOTTY);
	tap_str("open: ... without asking for 0x4e53", asked, "0x4e54");
	tap_int("open: ... and the new file is closed", fd_count(), before);

	fd = open_as(k, true, NSLOG_ENTRY_VERSION, 0, asked, sizeof(asked));
	tap_ok(fd >= 0 && fake_ioctl.granted == NSLOG_ENTRY_VERSION,
	       "open_stream: a stream's fd falls back the same way");
	tap_str("open_stream: 0x4e54, then 0x4e53", asked, "0x4e54 0x4e53");
	if (fd >= 0)
		k->close(k->ctx, fd);
}

static void cleanup(void)
{
	static const char *const names[] = { "main", "fifo" };

	fakedev_remove(dir, names, ARRAY_SIZE(names));
}

int main(void)
{
	struct nslog_logdev d;
	struct nslog_kops k;
	int failed = -1;

	snprintf(dir, sizeof(dir), "/tmp/nslog_logdev.XXXXXX");
	if (!tap_ok(mkdtemp(dir), "make a fake device directory"))
		return tap_done();
	snprintf(fifo_path, sizeof(fifo_path), "%s/fifo", dir);
	touch("main");
	fifo = fakedev_fifo(dir, "fifo");
	if (!tap_ok(fifo >= 0 &&
		    !nslog_logdev_init(&d, dir, 1u << NSLOG_KLOG_MAIN, &failed),
		    "logdev: main's node opened, a FIFO for its records")) {
		cleanup();
		return tap_done();
	}
	nslog_logdev_ops(&d, &k);
	test_versions(&k);
	nslog_logdev_close(&d);
	close(fifo);
	cleanup();
	return tap_done();
}
