/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fakedev.h: the logger devices played by FIFOs in packet mode, for the
 * tests of nslogcat (fifo_test.c), of the read API (logread_test.c), of
 * nslogd's store (nslogd_test.c) and of the collector's files
 * (logdev_test.c).
 *
 * A FIFO whose writer set O_DIRECT returns one write() per read(), -EAGAIN
 * when empty and opened O_NONBLOCK, and poll()s readable when a packet is
 * queued: the read side of a logger device, without its ioctls.  The test
 * plays the kernel and writes whole records (header and payload), of any
 * version: the FIFO knows none (fakeioctl.h plays the version's ioctl).
 */
#ifndef NSLOG_TOOLS_TESTS_FAKEDEV_H
#define NSLOG_TOOLS_TESTS_FAKEDEV_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/nslogger.h>

/* The FIFO @dir/@name, open for reading and writing; -1 on failure. */
static inline int fakedev_fifo(const char *dir, const char *name)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (mkfifo(path, 0600))
		return -1;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fcntl(fd, F_SETFL, O_DIRECT))
		return -1;
	/* a packet a page: room for 256 records, not 16, before a reader */
	fcntl(fd, F_SETPIPE_SZ, 1 << 20);
	return fd;
}

/* One version 1 or 2 record of @len payload bytes, tid @pid + 1. */
static inline void fakedev_put(int fd, int version, int pid, uint32_t sec,
			       int nsec, uint32_t euid, const void *payload,
			       size_t len)
{
	struct logger_entry_v2 h = {
		.len = (__u16)len,
		.hdr_size = version == 2 ? 24 : 0,
		.pid = pid,
		.tid = pid + 1,
		.sec = (__s32)sec,
		.nsec = nsec,
		.euid = euid,
	};
	size_t hs = version == 2 ? 24 : 20;
	unsigned char rec[NSLOG_ENTRY_MAX_LEN];

	memcpy(rec, &h, hs);
	memcpy(rec + hs, payload, len);
	if (write(fd, rec, hs + len) != (ssize_t)(hs + len))
		printf("# write to fifo failed: %s\n", strerror(errno));
}

/*
 * One record with nslogger's header: the first @hdr_size bytes of @h, 56
 * (struct nslog_entry) or 72 (struct nslog_entry2), its len and hdr_size
 * set here.
 */
static inline void fakedev_put_ns(int fd, size_t hdr_size,
				  const struct nslog_entry2 *h,
				  const void *payload, size_t len)
{
	unsigned char rec[NSLOG_ENTRY2_MAX_LEN];
	struct nslog_entry2 e = *h;

	e.len = (__u16)len;
	e.hdr_size = (__u16)hdr_size;
	memcpy(rec, &e, hdr_size);
	memcpy(rec + hdr_size, payload, len);
	if (write(fd, rec, hdr_size + len) != (ssize_t)(hdr_size + len))
		printf("# write to fifo failed: %s\n", strerror(errno));
}

/* Remove the files @names of @dir, then @dir. */
static inline void fakedev_remove(const char *dir, const char *const *names,
				  size_t n)
{
	char path[128];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

#endif
