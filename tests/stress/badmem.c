// SPDX-License-Identifier: GPL-2.0
/*
 * badmem - bad user memory against every nslogger entry point that takes a
 * user pointer: read, write, writev and the pointer ioctls (SET_VERSION,
 * NSLOG_IOC_OPEN_NS).
 *
 * Buffers tried: NULL, an unmapped page, a kernel address, a read-only page
 * (where the kernel must write), and buffers that start in a mapped page and
 * run into an unmapped one, both within the on-stack staging size of a
 * write (512 bytes) and beyond it.  Each must fail with -EFAULT, and the
 * ring must be intact afterwards: GET_LOG_LEN unchanged by a failed write
 * (no torn or partial record), a failed read leaves its record unread, and
 * every record written before is read back byte for byte at the end.
 *
 * Runs as root (the QEMU guest) in a new IPC namespace of its own, so its
 * log set starts empty and nothing else writes there.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/nslogger.h>

#include "../lib/tap.h"

static int wfd = -1, rfd = -1;
static long pg;
static uint8_t *unmapped;	/* a page that is not mapped */
static uint8_t *rdonly;		/* a read-only page */
static uint8_t *edge;		/* first byte after a mapped page: unmapped */
static void *const kaddr = (void *)0xffffffff81000000ul;
/* NULL, hidden from the compiler's nonnull checks. */
static void *volatile null_ptr;
#define NULLP ((void *)null_ptr)

/* Records written and not yet read back, in order. */
#define MAX_KEPT 64
static uint8_t kept[MAX_KEPT][512];
static size_t kept_len[MAX_KEPT];
static int nkept;

static void make_payload(uint8_t *p, size_t len, int n)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(n * 131 + i * 7 + 1);
}

/* Write a good record, remember it. */
static int put_good(size_t len)
{
	uint8_t *p = kept[nkept];

	if (nkept >= MAX_KEPT || len > sizeof(kept[0]))
		return -1;
	make_payload(p, len, nkept);
	if (write(wfd, p, len) != (ssize_t)len)
		return -1;
	kept_len[nkept++] = len;
	return 0;
}

static long log_len(void)
{
	return ioctl(rfd, LOGGER_GET_LOG_LEN);
}

static int setup(void)
{
	static int done;
	uint8_t *two;

	if (done)
		return done > 0 ? 0 : -1;
	done = -1;
	pg = sysconf(_SC_PAGESIZE);
	if (unshare(CLONE_NEWIPC))
		return -1;
	wfd = open("/dev/log_main", O_WRONLY);
	rfd = open("/dev/log_main", O_RDONLY | O_NONBLOCK);
	if (wfd < 0 || rfd < 0)
		return -1;
	unmapped = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	rdonly = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	two = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unmapped == MAP_FAILED || rdonly == MAP_FAILED || two == MAP_FAILED)
		return -1;
	munmap(unmapped, pg);
	/* Holds a valid version (2) and a valid open_ns argument. */
	memset(rdonly, 0, pg);
	*(int *)rdonly = 2;
	mprotect(rdonly, pg, PROT_READ);
	munmap(two + pg, pg);
	edge = two + pg;
	memset(two, 'e', pg);
	done = 1;
	return 0;
}

#define SETUP() do { if (setup()) SKIP("needs root and nslogger (unshare, open, mmap)"); } while (0)

static void write_bad_buffers(void)
{
	struct { const char *what; const void *p; size_t len; } bad[] = {
		{ "NULL", NULL, 16 },
		{ "unmapped", unmapped, 16 },
		{ "kernel address", kaddr, 16 },
		{ "straddling, small", edge - 50, 100 },
		{ "straddling, large", edge - 2000, 4000 },
		{ "straddling, over the maximum", edge - 3000, 9000 },
		{ "last byte unmapped", edge - 99, 100 },
	};
	long before;

	SETUP();
	REQUIRE(put_good(40) == 0);
	before = log_len();
	REQUIRE(before > 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		ssize_t r = write(wfd, bad[i].p, bad[i].len);

		if (r != -1 || errno != EFAULT) {
			printf("#   write %s: %zd errno %d, want EFAULT\n",
			       bad[i].what, r, errno);
			tap_failed_now = 1;
		}
		if (log_len() != before) {
			printf("#   write %s changed GET_LOG_LEN %ld -> %ld\n",
			       bad[i].what, before, log_len());
			tap_failed_now = 1;
			before = log_len();
		}
	}
}

static void write_from_read_only_buffer_works(void)
{
	long before;

	SETUP();
	before = log_len();
	/* The kernel only reads a write's buffer: read-only is fine. */
	CHECK(write(wfd, rdonly, 24) == 24);
	CHECK(log_len() > before);
	if (nkept < MAX_KEPT) {
		memcpy(kept[nkept], rdonly, 24);
		kept_len[nkept++] = 24;
	}
}

static void writev_bad_iovecs(void)
{
	static uint8_t good[64] = "\4tag\0message";
	struct iovec *iv;
	long before;

	SETUP();
	REQUIRE(put_good(33) == 0);
	before = log_len();

	/* The iovec array itself unmapped, NULL, or running off the page. */
	CHECK_ERR(writev(wfd, (struct iovec *)unmapped, 3), EFAULT);
	CHECK_ERR(writev(wfd, NULLP, 3), EFAULT);
	iv = (struct iovec *)(edge - sizeof(struct iovec));
	iv[0] = (struct iovec){ good, 1 };
	CHECK_ERR(writev(wfd, iv, 3), EFAULT);
	CHECK(log_len() == before);

	/* liblog's three iovecs with one bad iov_base, in each place. */
	for (int bad = 0; bad < 3; bad++) {
		const void *bases[] = { unmapped, NULL, kaddr, edge - 4 };

		for (size_t b = 0; b < sizeof(bases) / sizeof(bases[0]); b++) {
			struct iovec v[3] = {
				{ good, 1 }, { good + 1, 4 }, { good + 5, 8 },
			};

			v[bad].iov_base = (void *)bases[b];
			v[bad].iov_len = 16;
			errno = 0;
			ssize_t r = writev(wfd, v, 3);

			if (r != -1 || errno != EFAULT) {
				printf("#   writev bad iovec %d base %zu: %zd errno %d\n",
				       bad, b, r, errno);
				tap_failed_now = 1;
			}
			if (log_len() != before) {
				printf("#   writev bad iovec %d base %zu left a record\n",
				       bad, b);
				tap_failed_now = 1;
				before = log_len();
			}
		}
	}
	/* A large payload whose last iovec runs into the unmapped page. */
	{
		static uint8_t big[3000];
		struct iovec v[3] = {
			{ good, 1 }, { big, sizeof(big) }, { edge - 100, 1000 },
		};

		CHECK_ERR(writev(wfd, v, 3), EFAULT);
		CHECK(log_len() == before);
	}
}

/* The oldest unread record must still be kept[0] (not consumed). */
static int next_is_kept0(void)
{
	return nkept > 0 &&
	       ioctl(rfd, LOGGER_GET_NEXT_ENTRY_LEN) ==
	       (long)(sizeof(struct logger_entry) + kept_len[0]);
}

static void read_bad_buffers(void)
{
	size_t need;
	long before;

	SETUP();
	REQUIRE(nkept > 0 || put_good(48) == 0);
	REQUIRE(next_is_kept0());
	need = sizeof(struct logger_entry) + kept_len[0];
	before = log_len();
	CHECK_ERR(read(rfd, NULLP, 5120), EFAULT);
	CHECK_ERR(read(rfd, unmapped, 5120), EFAULT);
	CHECK_ERR(read(rfd, kaddr, 5120), EFAULT);
	CHECK_ERR(read(rfd, rdonly, 5120), EFAULT);
	/* Header across the edge; header fits but payload does not. */
	CHECK_ERR(read(rfd, edge - 8, 5120), EFAULT);
	CHECK_ERR(read(rfd, edge - sizeof(struct logger_entry) - 2, 5120),
		  EFAULT);
	CHECK_ERR(read(rfd, edge - need + 1, need), EFAULT);
	CHECK(log_len() == before);
	CHECK(next_is_kept0());
	/* Exactly fitting before the edge is fine: the record, byte for byte. */
	{
		uint8_t *b = edge - need;
		struct logger_entry h;

		CHECK(read(rfd, b, need) == (ssize_t)need);
		memcpy(&h, b, sizeof(h));
		CHECK(h.len == kept_len[0]);
		CHECK(!memcmp(b + sizeof(h), kept[0], kept_len[0]));
		memmove(kept, kept + 1, sizeof(kept[0]) * (nkept - 1));
		memmove(kept_len, kept_len + 1, sizeof(kept_len[0]) * (nkept - 1));
		nkept--;
	}
}

static void set_version_bad_pointers(void)
{
	SETUP();
	REQUIRE(ioctl(rfd, LOGGER_GET_VERSION) == 1);
	CHECK_ERR(ioctl(rfd, LOGGER_SET_VERSION, NULL), EFAULT);
	CHECK_ERR(ioctl(rfd, LOGGER_SET_VERSION, unmapped), EFAULT);
	CHECK_ERR(ioctl(rfd, LOGGER_SET_VERSION, kaddr), EFAULT);
	CHECK_ERR(ioctl(rfd, LOGGER_SET_VERSION, edge - 2), EFAULT);
	CHECK(ioctl(rfd, LOGGER_GET_VERSION) == 1);
	/* get_user() only reads: a read-only int holding 2 works. */
	CHECK(ioctl(rfd, LOGGER_SET_VERSION, rdonly) == 0);
	CHECK(ioctl(rfd, LOGGER_GET_VERSION) == 2);
	{
		int one = 1;

		CHECK(ioctl(rfd, LOGGER_SET_VERSION, &one) == 0);
	}
}

static void open_ns_bad_pointers(void)
{
	struct nslog_open_ns *a;
	int fd;

	SETUP();
	CHECK_ERR(ioctl(rfd, NSLOG_IOC_OPEN_NS, NULL), EFAULT);
	CHECK_ERR(ioctl(rfd, NSLOG_IOC_OPEN_NS, unmapped), EFAULT);
	CHECK_ERR(ioctl(rfd, NSLOG_IOC_OPEN_NS, kaddr), EFAULT);
	CHECK_ERR(ioctl(rfd, NSLOG_IOC_OPEN_NS, edge - 8), EFAULT);
	CHECK_ERR(ioctl(wfd, NSLOG_IOC_OPEN_NS, edge - 1), EFAULT);
	/* A read-only, valid argument: our own namespace by its nsfs fd. */
	fd = open("/proc/self/ns/ipc", O_RDONLY);
	REQUIRE(fd >= 0);
	a = (struct nslog_open_ns *)(edge - sizeof(*a));
	*a = (struct nslog_open_ns){ .ns_fd = fd };
	{
		int nfd = ioctl(rfd, NSLOG_IOC_OPEN_NS, a);

		CHECK(nfd >= 0);
		if (nfd >= 0)
			CHECK(ioctl(nfd, LOGGER_GET_LOG_LEN) >= log_len());
		close(nfd);
	}
	close(fd);
}

static void ring_intact_afterwards(void)
{
	static uint8_t buf[5120];

	SETUP();
	for (int i = 0; i < nkept; i++) {
		ssize_t r = read(rfd, buf, sizeof(buf));
		struct logger_entry h;

		if (r != (ssize_t)(sizeof(h) + kept_len[i])) {
			printf("#   record %d: read %zd, want %zu\n", i, r,
			       sizeof(h) + kept_len[i]);
			tap_failed_now = 1;
			return;
		}
		memcpy(&h, buf, sizeof(h));
		CHECK(h.len == kept_len[i] && h.__pad == 0 && h.pid == getpid());
		CHECK(!memcmp(buf + sizeof(h), kept[i], kept_len[i]));
	}
	/* Nothing else: no torn or partial record was left by a fault. */
	CHECK_ERR(read(rfd, buf, sizeof(buf)), EAGAIN);
	CHECK(log_len() == 0);
}

static const struct tap_case cases[] = {
	{ "write_bad_buffers", write_bad_buffers },
	{ "write_from_read_only_buffer_works", write_from_read_only_buffer_works },
	{ "writev_bad_iovecs", writev_bad_iovecs },
	{ "read_bad_buffers", read_bad_buffers },
	{ "set_version_bad_pointers", set_version_bad_pointers },
	{ "open_ns_bad_pointers", open_ns_bad_pointers },
	{ "ring_intact_afterwards", ring_intact_afterwards },
};

int main(int argc, char **argv)
{
	return tap_run(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
