/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fakeioctl.h: a logger device's ioctls played by the test, for the header
 * version a reader asks for and gets: liblog's reader (logread_test.c) and
 * the collector's files (logdev_test.c), which fall back from nslogger's
 * 0x4e54 header to 0x4e53 on a module older than relays.
 *
 * Including it defines ioctl().  A program's own definition comes before
 * libc's: for its own calls, its objects' and those of the shared libraries
 * it links (liblog.so.0), not for libc's internal ones.  Include it in one
 * file of a program.
 *
 * While fake_ioctl.on is false, every call goes to the kernel (a FIFO then
 * answers ENOTTY).  While it is true:
 *  - LOGGER_SET_VERSION answers as a module that knows versions 1 and 2
 *    and nslogger's up to fake_ioctl.newest (NSLOG_ENTRY2_VERSION: today's
 *    module; NSLOG_ENTRY_VERSION: one older than relays; 0: Android's
 *    driver), refusing the others with EINVAL as they do; or fails with
 *    fake_ioctl.err, if set, whatever the version.  Each version asked is
 *    noted in fake_ioctl.asked, and the last one granted in .granted;
 *  - NSLOG_IOC_OPEN_NS and NSLOG_IOC_OPEN_STREAM return a dup() of
 *    fake_ioctl.open_fd, close-on-exec, as the module returns a new file;
 *  - anything else goes to the kernel.
 */
#ifndef NSLOG_TOOLS_TESTS_FAKEIOCTL_H
#define NSLOG_TOOLS_TESTS_FAKEIOCTL_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/nslogger.h>

#define FAKE_IOCTL_ASKED_MAX	8

static struct {
	bool on;
	int newest;		/* nslogger's newest version known, or 0 */
	int err;		/* LOGGER_SET_VERSION fails with it, if set */
	int open_fd;		/* what the two opening ioctls duplicate */
	int asked[FAKE_IOCTL_ASKED_MAX];	/* versions asked, in order */
	unsigned int nasked;
	int granted;		/* the last version set, or 0 */
} fake_ioctl;

/* Today's module, nothing asked yet; calls go to the kernel until .on. */
static inline void fake_ioctl_reset(int newest)
{
	memset(&fake_ioctl, 0, sizeof(fake_ioctl));
	fake_ioctl.newest = newest;
	fake_ioctl.open_fd = -1;
}

/* The versions asked, as "0x4e54 0x4e53 2", in @buf. */
static inline const char *fake_ioctl_asked(char *buf, size_t size)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < fake_ioctl.nasked && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n,
				      fake_ioctl.asked[i] > 2 ? "%s%#x" :
				      "%s%d", i ? " " : "",
				      fake_ioctl.asked[i]);
	return buf;
}

static inline int fake_ioctl_set_version(const int *arg)
{
	int v = *arg;

	if (fake_ioctl.nasked < FAKE_IOCTL_ASKED_MAX)
		fake_ioctl.asked[fake_ioctl.nasked++] = v;
	if (fake_ioctl.err) {
		errno = fake_ioctl.err;
		return -1;
	}
	if (v == 1 || v == 2 ||
	    (fake_ioctl.newest >= NSLOG_ENTRY_VERSION &&
	     v == NSLOG_ENTRY_VERSION) ||
	    (fake_ioctl.newest >= NSLOG_ENTRY2_VERSION &&
	     v == NSLOG_ENTRY2_VERSION)) {
		fake_ioctl.granted = v;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fake_ioctl.on) {
		switch (request) {
		case LOGGER_SET_VERSION:
			return fake_ioctl_set_version(arg);
		case NSLOG_IOC_OPEN_NS:
		case NSLOG_IOC_OPEN_STREAM:
			return fcntl(fake_ioctl.open_fd, F_DUPFD_CLOEXEC, 0);
		}
	}
	return (int)syscall(SYS_ioctl, fd, request, arg);
}

#endif
