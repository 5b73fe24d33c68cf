// SPDX-License-Identifier: GPL-2.0
/*
 * ABI tests of the nslogger devices, run as root in the QEMU guest with the
 * module loaded.  One case per behaviour of the Android logger ABI
 * (shared/reference/android-logger-abi.md) and per defect of the original
 * driver that nslogger fixes.
 *
 * Environment:
 *   NSLOG_DEV_DIR      where the nodes are (default /dev, names log_main ...)
 *   NSLOG_ANDROID_NODES  set: the nodes are $NSLOG_DEV_DIR/log/main ...
 *   NSLOG_SMALL_LOG    a log loaded with an 8 KiB ring, for lapping (radio)
 *   NSLOG_EXPECT_SIZE  the ring size of the other logs (default 262144)
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/nslogger.h>

#include "../lib/tap.h"

#define RDBUF	5120	/* what logcat reads with */

static const char *devdir = "/dev";
static int android_nodes;	/* /dev/log/main rather than /dev/log_main */
static const char *small_log = "radio";
static long expect_size = 256 << 10;

static void node_path(char *p, size_t n, const char *log)
{
	if (android_nodes)
		snprintf(p, n, "%s/log/%s", devdir, log);
	else
		snprintf(p, n, "%s/log_%s", devdir, log);
}

static int open_log(const char *log, int flags)
{
	char p[256];

	node_path(p, sizeof(p), log);
	return open(p, flags | O_CLOEXEC);
}

static void flush_log(const char *log)
{
	int fd = open_log(log, O_WRONLY);

	if (fd < 0 || ioctl(fd, LOGGER_FLUSH_LOG) != 0) {
		printf("# cannot flush %s: %s\n", log, strerror(errno));
		exit(2);
	}
	close(fd);
}

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Write a text record the way liblog does: three iovecs. */
static ssize_t write_text(int fd, int prio, const char *tag, const char *msg)
{
	unsigned char p = prio;
	struct iovec iov[3] = {
		{ &p, 1 },
		{ (void *)tag, strlen(tag) + 1 },
		{ (void *)msg, strlen(msg) + 1 },
	};

	return writev(fd, iov, 3);
}

/* Count records readable right now (the fd must be O_NONBLOCK). */
static int drain(int fd)
{
	unsigned char buf[RDBUF];
	int n = 0;

	while (read(fd, buf, sizeof(buf)) > 0)
		n++;
	return n;
}

static void t_nodes_exist_and_are_not_world_readable(void)
{
	static const char *const logs[] = { "main", "events", "radio", "system" };
	struct stat st;
	char p[256];

	for (int i = 0; i < 4; i++) {
		node_path(p, sizeof(p), logs[i]);
		REQUIRE(stat(p, &st) == 0);
		CHECK(S_ISCHR(st.st_mode));
		CHECK((st.st_mode & 0777) == 0622);
	}
}

static void t_buf_size_on_any_fd(void)
{
	int w = open_log("main", O_WRONLY), r = open_log("main", O_RDONLY);

	REQUIRE(w >= 0 && r >= 0);
	CHECK(ioctl(w, LOGGER_GET_LOG_BUF_SIZE) == expect_size);
	CHECK(ioctl(r, LOGGER_GET_LOG_BUF_SIZE) == expect_size);
	close(w);
	close(r);
}

static void t_v1_header_stamped_by_kernel(void)
{
	unsigned char buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	int64_t before, after, t;
	int w, r;
	ssize_t n;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	before = now_ns();
	REQUIRE(write_text(w, 4, "tag", "hello") == 1 + 4 + 6);
	after = now_ns();
	n = read(r, buf, sizeof(buf));
	REQUIRE(n == 20 + 11);
	CHECK(e->len == 11);
	CHECK(e->__pad == 0);
	CHECK(e->pid == getpid());
	CHECK(e->tid == gettid_());
	t = (int64_t)(uint32_t)e->sec * 1000000000 + e->nsec;
	CHECK(e->nsec >= 0 && e->nsec < 1000000000);
	CHECK(t >= before - 1000 && t <= after + 1000);
	CHECK(memcmp(e->msg, "\4tag\0hello\0", 11) == 0);
	close(w);
	close(r);
}

static void t_one_record_per_read(void)
{
	unsigned char buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	int w, r;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	REQUIRE(write(w, "a", 1) == 1);
	REQUIRE(write(w, "bb", 2) == 2);
	REQUIRE(write(w, "ccc", 3) == 3);
	for (int i = 1; i <= 3; i++) {
		CHECK(read(r, buf, sizeof(buf)) == 20 + i);
		CHECK(e->len == i);
	}
	CHECK_ERR(read(r, buf, sizeof(buf)), EAGAIN);
	close(w);
	close(r);
}

static void t_writev_is_one_record(void)
{
	unsigned char buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	struct iovec iov[4] = {
		{ "ab", 2 }, { "", 0 }, { "cde", 3 }, { "f", 1 },
	};
	int w, r;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	CHECK(writev(w, iov, 4) == 6);
	CHECK(read(r, buf, sizeof(buf)) == 26);
	CHECK(e->len == 6 && memcmp(e->msg, "abcdef", 6) == 0);
	CHECK_ERR(read(r, buf, sizeof(buf)), EAGAIN);
	close(w);
	close(r);
}

static void t_long_write_truncated_to_max_payload(void)
{
	static unsigned char big[6000];
	unsigned char buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	struct iovec iov[2] = { { big, 3000 }, { big + 3000, 3000 } };
	int w, r;

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = i * 7;
	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	CHECK(write(w, big, sizeof(big)) == LOGGER_ENTRY_MAX_PAYLOAD);
	CHECK(writev(w, iov, 2) == LOGGER_ENTRY_MAX_PAYLOAD);
	for (int i = 0; i < 2; i++) {
		CHECK(read(r, buf, sizeof(buf)) == 20 + LOGGER_ENTRY_MAX_PAYLOAD);
		CHECK(e->len == LOGGER_ENTRY_MAX_PAYLOAD);
		CHECK(memcmp(e->msg, big, LOGGER_ENTRY_MAX_PAYLOAD) == 0);
	}
	close(w);
	close(r);
}

static void t_zero_length_write_stores_nothing(void)
{
	unsigned char buf[RDBUF];
	struct iovec iov[2] = { { "x", 0 }, { NULL, 0 } };
	int w, r;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	CHECK(write(w, "", 0) == 0);
	CHECK(writev(w, iov, 2) == 0);
	CHECK_ERR(read(r, buf, sizeof(buf)), EAGAIN);
	CHECK(ioctl(r, LOGGER_GET_LOG_LEN) == 0);
	close(w);
	close(r);
}

static void t_short_read_buffer_einval_keeps_record(void)
{
	unsigned char buf[RDBUF];
	int w, r;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	REQUIRE(write(w, "0123456789", 10) == 10);
	CHECK_ERR(read(r, buf, 29), EINVAL);
	CHECK_ERR(read(r, buf, 0), EINVAL);
	CHECK_ERR(read(r, buf, 20), EINVAL);
	CHECK(read(r, buf, 30) == 30);
	CHECK_ERR(read(r, buf, sizeof(buf)), EAGAIN);
	close(w);
	close(r);
}

static void t_nonblocking_read_empty_eagain(void)
{
	unsigned char buf[RDBUF];
	int r;

	flush_log("main");
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(r >= 0);
	CHECK_ERR(read(r, buf, sizeof(buf)), EAGAIN);
	close(r);
}

static void *delayed_writer(void *arg)
{
	int w = open_log((const char *)arg, O_WRONLY);

	usleep(200 * 1000);
	if (write(w, "wake", 4) != 4)
		abort();
	close(w);
	return NULL;
}

static void t_blocking_read_waits_for_a_write(void)
{
	unsigned char buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	pthread_t th;
	int r;

	flush_log("main");
	r = open_log("main", O_RDONLY);
	REQUIRE(r >= 0);
	REQUIRE(pthread_create(&th, NULL, delayed_writer, "main") == 0);
	CHECK(read(r, buf, sizeof(buf)) == 24);
	CHECK(e->len == 4 && memcmp(e->msg, "wake", 4) == 0);
	pthread_join(th, NULL);
	close(r);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void t_blocking_read_interrupted_eintr(void)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	unsigned char buf[RDBUF];
	int r;

	flush_log("main");
	r = open_log("main", O_RDONLY);
	REQUIRE(r >= 0);
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	/* Android gave -EINTR even under SA_RESTART; so do we. */
	CHECK_ERR(read(r, buf, sizeof(buf)), EINTR);
	alarm(0);
	signal(SIGALRM, SIG_DFL);
	close(r);
}

static void t_poll_writable_always_readable_when_pending(void)
{
	struct pollfd p[2];
	int w, r;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	p[0] = (struct pollfd){ .fd = w, .events = POLLIN | POLLOUT };
	p[1] = (struct pollfd){ .fd = r, .events = POLLIN | POLLOUT };
	CHECK(poll(p, 2, 0) == 2);
	CHECK(p[0].revents == POLLOUT);
	CHECK(p[1].revents == POLLOUT);
	REQUIRE(write(w, "x", 1) == 1);
	CHECK(poll(p, 2, 0) == 2);
	CHECK(p[1].revents == (POLLIN | POLLOUT));
	CHECK(drain(r) == 1);
	CHECK(poll(&p[1], 1, 0) == 1 && p[1].revents == POLLOUT);
	close(w);
	close(r);
}

static void t_poll_blocks_until_a_write(void)
{
	struct pollfd p;
	pthread_t th;
	int r;

	flush_log("main");
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(r >= 0);
	REQUIRE(pthread_create(&th, NULL, delayed_writer, "main") == 0);
	p = (struct pollfd){ .fd = r, .events = POLLIN };
	CHECK(poll(&p, 1, 10000) == 1 && (p.revents & POLLIN));
	pthread_join(th, NULL);
	CHECK(drain(r) == 1);
	close(r);
}

static void t_not_seekable(void)
{
	char c;
	int r = open_log("main", O_RDONLY | O_NONBLOCK);

	REQUIRE(r >= 0);
	CHECK_ERR(lseek(r, 0, SEEK_SET), ESPIPE);
	CHECK_ERR(pread(r, &c, 1, 0), ESPIPE);
	close(r);
}

static void t_get_log_len_counts_unread_bytes(void)
{
	int w, r;
	long l1, l2;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	CHECK_ERR(ioctl(w, LOGGER_GET_LOG_LEN), EBADF);
	CHECK(ioctl(r, LOGGER_GET_LOG_LEN) == 0);
	REQUIRE(write(w, "abc", 3) == 3);
	REQUIRE(write(w, "defgh", 5) == 5);
	l1 = ioctl(r, LOGGER_GET_LOG_LEN);
	CHECK(l1 > 8);
	CHECK(drain(r) == 1 + 1);
	l2 = ioctl(r, LOGGER_GET_LOG_LEN);
	CHECK(l2 == 0);
	close(w);
	close(r);
}

static void t_get_next_entry_len_per_version(void)
{
	int w, r, two = 2;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	CHECK_ERR(ioctl(w, LOGGER_GET_NEXT_ENTRY_LEN), EBADF);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == 0);
	REQUIRE(write(w, "0123456", 7) == 7);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == 20 + 7);
	REQUIRE(ioctl(r, LOGGER_SET_VERSION, &two) == 0);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == 24 + 7);
	/* Asking does not consume. */
	CHECK(drain(r) == 1);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == 0);
	close(w);
	close(r);
}

static void t_flush_needs_write_fd_and_drops_everything(void)
{
	unsigned char buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	int w, r, r2;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	REQUIRE(write(w, "old1", 4) == 4);
	REQUIRE(write(w, "old2", 4) == 4);
	CHECK_ERR(ioctl(r, LOGGER_FLUSH_LOG), EBADF);
	CHECK(ioctl(w, LOGGER_FLUSH_LOG) == 0);
	CHECK_ERR(read(r, buf, sizeof(buf)), EAGAIN);
	CHECK(ioctl(r, LOGGER_GET_LOG_LEN) == 0);
	r2 = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(r2 >= 0);
	CHECK_ERR(read(r2, buf, sizeof(buf)), EAGAIN);
	REQUIRE(write(w, "new", 3) == 3);
	CHECK(read(r, buf, sizeof(buf)) == 23 && memcmp(e->msg, "new", 3) == 0);
	CHECK(read(r2, buf, sizeof(buf)) == 23 && memcmp(e->msg, "new", 3) == 0);
	close(w);
	close(r);
	close(r2);
}

static void t_version_ioctls(void)
{
	unsigned char buf[RDBUF];
	struct logger_entry_v2 *e = (void *)buf;
	int w, r, v;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	CHECK(ioctl(r, LOGGER_GET_VERSION) == 1);
	CHECK_ERR(ioctl(w, LOGGER_GET_VERSION), EBADF);
	v = 2;
	CHECK_ERR(ioctl(w, LOGGER_SET_VERSION, &v), EBADF);
	for (int bad = -1; bad <= 3; bad += 4) {
		v = bad;
		CHECK_ERR(ioctl(r, LOGGER_SET_VERSION, &v), EINVAL);
	}
	v = 0;
	CHECK_ERR(ioctl(r, LOGGER_SET_VERSION, &v), EINVAL);
	CHECK_ERR(ioctl(r, LOGGER_SET_VERSION, NULL), EFAULT);
	CHECK_ERR(ioctl(r, LOGGER_SET_VERSION, (void *)8), EFAULT);
	CHECK(ioctl(r, LOGGER_GET_VERSION) == 1);
	v = 2;
	CHECK(ioctl(r, LOGGER_SET_VERSION, &v) == 0);
	CHECK(ioctl(r, LOGGER_GET_VERSION) == 2);
	REQUIRE(write(w, "v2", 2) == 2);
	CHECK(read(r, buf, sizeof(buf)) == 24 + 2);
	CHECK(e->len == 2 && e->hdr_size == 24);
	CHECK(e->pid == getpid() && e->tid == gettid_());
	CHECK(e->euid == geteuid());
	CHECK(memcmp(e->msg, "v2", 2) == 0);
	v = 1;
	CHECK(ioctl(r, LOGGER_SET_VERSION, &v) == 0);
	REQUIRE(write(w, "v1", 2) == 2);
	CHECK(read(r, buf, sizeof(buf)) == 20 + 2);
	CHECK(((struct logger_entry *)buf)->__pad == 0);
	close(w);
	close(r);
}

static void *buf_dummy(void)
{
	static char dummy[64];

	return dummy;
}

static void t_unknown_ioctl_enotty(void)
{
	int r = open_log("main", O_RDWR);

	REQUIRE(r >= 0);
	CHECK_ERR(ioctl(r, _IO(__LOGGERIO, 0)), ENOTTY);
	CHECK_ERR(ioctl(r, _IO(__LOGGERIO, 7)), ENOTTY);
	CHECK_ERR(ioctl(r, _IOR(__LOGGERIO, 1, int), NULL), ENOTTY);
	CHECK_ERR(ioctl(r, 0x5401 /* TCGETS */, buf_dummy()), ENOTTY);
	close(r);
}

/*
 * A page no access is allowed to (PROT_NONE rather than unmapped, so that no
 * later mmap, a thread stack say, can land there), right after a writable
 * page; and a page mapped read-only.
 */
static void *bad_page, *ro_page;

static void setup_bad_memory(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *two = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ro_page = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (two == MAP_FAILED || ro_page == MAP_FAILED ||
	    mprotect(two + pg, pg, PROT_NONE))
		exit(2);
	bad_page = two + pg;
	memset(two, 'q', pg);
}

static void t_bad_write_pointers_efault_ring_intact(void)
{
	unsigned char buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	char *straddle = (char *)bad_page - 10;
	struct iovec iov[3] = { { "ok", 2 }, { bad_page, 5 }, { "z", 1 } };
	int w, r;
	long len;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	REQUIRE(write(w, "keep", 4) == 4);
	len = ioctl(r, LOGGER_GET_LOG_LEN);
	CHECK_ERR(syscall(SYS_write, w, NULL, 10), EFAULT);
	CHECK_ERR(write(w, bad_page, 10), EFAULT);
	CHECK_ERR(write(w, straddle, 100), EFAULT);
	CHECK_ERR(writev(w, iov, 3), EFAULT);
	CHECK_ERR(writev(w, (struct iovec *)bad_page, 1), EFAULT);
	CHECK(ioctl(r, LOGGER_GET_LOG_LEN) == len);
	CHECK(read(r, buf, sizeof(buf)) == 24 && memcmp(e->msg, "keep", 4) == 0);
	CHECK_ERR(read(r, buf, sizeof(buf)), EAGAIN);
	close(w);
	close(r);
}

static void t_bad_read_pointers_efault_record_kept(void)
{
	unsigned char buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	char *straddle = (char *)bad_page - 22;
	int w, r;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	REQUIRE(write(w, "precious", 8) == 8);
	CHECK_ERR(syscall(SYS_read, r, NULL, RDBUF), EFAULT);
	CHECK_ERR(read(r, bad_page, RDBUF), EFAULT);
	CHECK_ERR(read(r, ro_page, 100), EFAULT);
	/* Header fits before the hole, payload does not. */
	CHECK_ERR(read(r, straddle, 100), EFAULT);
	CHECK(read(r, buf, sizeof(buf)) == 28 &&
	      memcmp(e->msg, "precious", 8) == 0);
	close(w);
	close(r);
}

/*
 * Records carrying a writer number and a counter, padded to a chosen size,
 * to check that concurrent or wrapping writes are neither torn nor lost.
 */
struct tagged {
	uint32_t writer;
	uint32_t n;
	int32_t tid;
	uint32_t sum;
	unsigned char pad[];
};

static size_t make_tagged(unsigned char *out, uint32_t writer, uint32_t n,
			  size_t size)
{
	struct tagged *t = (void *)out;
	uint32_t sum = writer * 2654435761u + n;

	t->writer = writer;
	t->n = n;
	t->tid = gettid_();
	for (size_t i = sizeof(*t); i < size; i++) {
		out[i] = (unsigned char)(sum >> ((i & 3) * 8)) ^ i;
	}
	t->sum = sum;
	return size;
}

static int check_tagged(const struct logger_entry *e)
{
	const unsigned char *p = (const unsigned char *)e->msg;
	const struct tagged *t = (const void *)p;

	if (e->len < sizeof(*t))
		return 0;
	if (t->sum != t->writer * 2654435761u + t->n)
		return 0;
	for (size_t i = sizeof(*t); i < e->len; i++)
		if (p[i] != (unsigned char)((unsigned char)(t->sum >> ((i & 3) * 8)) ^ i))
			return 0;
	return 1;
}

static void t_lapped_reader_continues_at_oldest(void)
{
	unsigned char rec[200], buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	const struct tagged *t = (const void *)e->msg;
	uint32_t last = 0, got = 0;
	long size;
	int w, r, first = 1;

	flush_log(small_log);
	w = open_log(small_log, O_WRONLY);
	r = open_log(small_log, O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	size = ioctl(w, LOGGER_GET_LOG_BUF_SIZE);
	REQUIRE(size == 8192);
	/* Read one, then lap the reader several times over. */
	REQUIRE(write(w, rec, make_tagged(rec, 1, 0, 100)) == 100);
	REQUIRE(read(r, buf, sizeof(buf)) == 120);
	for (uint32_t n = 1; n <= 1000; n++) {
		size_t len = 16 + (n * 37) % 180;

		REQUIRE(write(w, rec, make_tagged(rec, 1, n, len)) == (ssize_t)len);
	}
	while (read(r, buf, sizeof(buf)) > 0) {
		CHECK(check_tagged(e));
		if (!first)
			CHECK(t->n == last + 1);
		first = 0;
		last = t->n;
		got++;
	}
	/* It saw the newest records only, up to the very last one. */
	CHECK(last == 1000);
	CHECK(got > 30 && got < 8192 / 40);
	close(w);
	close(r);
}

static void t_reader_opened_mid_stream_starts_at_oldest(void)
{
	unsigned char rec[64], buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	const struct tagged *t = (const void *)e->msg;
	int w, r, n = 0;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	REQUIRE(w >= 0);
	for (uint32_t i = 0; i < 50; i++)
		REQUIRE(write(w, rec, make_tagged(rec, 2, i, 40)) == 40);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(r >= 0);
	while (read(r, buf, sizeof(buf)) > 0) {
		CHECK(check_tagged(e) && t->n == (uint32_t)n);
		n++;
	}
	CHECK(n == 50);
	close(w);
	close(r);
}

static void t_wrapping_write_returns_full_count(void)
{
	unsigned char rec[LOGGER_ENTRY_MAX_PAYLOAD], buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	int w, r, bad = 0;

	flush_log(small_log);
	w = open_log(small_log, O_WRONLY);
	r = open_log(small_log, O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	/* Sizes that put record ends at every 8-byte offset of the ring. */
	for (uint32_t n = 0; n < 600; n++) {
		size_t len = 16 + (n * 97) % (LOGGER_ENTRY_MAX_PAYLOAD - 16);

		if (write(w, rec, make_tagged(rec, 3, n, len)) != (ssize_t)len)
			bad++;
		if (read(r, buf, sizeof(buf)) != (ssize_t)(20 + len) ||
		    !check_tagged(e))
			bad++;
	}
	CHECK(bad == 0);
	close(w);
	close(r);
}

struct writer_arg {
	const char *log;
	uint32_t id;
	uint32_t count;
	size_t len;
	int fd;		/* shared fd, or -1 to open one's own */
};

static void *writer_thread(void *p)
{
	struct writer_arg *a = p;
	unsigned char rec[512];
	int fd = a->fd >= 0 ? a->fd : open_log(a->log, O_WRONLY);

	for (uint32_t n = 0; n < a->count; n++)
		if (write(fd, rec, make_tagged(rec, a->id, n, a->len)) != (ssize_t)a->len)
			abort();
	if (a->fd < 0)
		close(fd);
	return NULL;
}

/*
 * Read everything back and check: every (writer, n) exactly once, in order
 * per writer, untorn, with the thread id the writer saw.
 */
static void check_all_present(int r, uint32_t writers, uint32_t count,
			      pid_t pid)
{
	unsigned char buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	const struct tagged *t = (const void *)e->msg;
	uint32_t *next = calloc(writers, sizeof(*next));
	uint32_t total = 0, torn = 0, order = 0, ident = 0;

	while (read(r, buf, sizeof(buf)) > 0) {
		if (!check_tagged(e) || t->writer >= writers) {
			torn++;
			continue;
		}
		if (t->n != next[t->writer])
			order++;
		next[t->writer] = t->n + 1;
		if (e->tid != t->tid || (pid && e->pid != pid))
			ident++;
		total++;
	}
	CHECK(torn == 0);
	CHECK(order == 0);
	CHECK(ident == 0);
	CHECK(total == writers * count);
	for (uint32_t i = 0; i < writers; i++)
		CHECK(next[i] == count);
	free(next);
}

static void t_concurrent_processes_no_record_torn_or_lost(void)
{
	const uint32_t writers = 8, count = 300;
	int r, st;

	flush_log("main");
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(r >= 0);
	/* 2400 records of 64 + 40 bytes: 250 KiB, within the 256 KiB ring. */
	for (uint32_t i = 0; i < writers; i++) {
		if (fork() == 0) {
			struct writer_arg a = { "main", i, count, 64, -1 };

			writer_thread(&a);
			_exit(0);
		}
	}
	for (uint32_t i = 0; i < writers; i++) {
		wait(&st);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	check_all_present(r, writers, count, 0);
	close(r);
}

static void t_64_threads_one_shared_fd_no_record_torn_or_lost(void)
{
	enum { THREADS = 64, COUNT = 60 };
	struct writer_arg a[THREADS];
	pthread_t th[THREADS];
	int r, w;

	flush_log("main");
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	w = open_log("main", O_WRONLY);
	REQUIRE(r >= 0 && w >= 0);
	/* 3840 records of 24 + 40 bytes: 240 KiB. */
	for (int i = 0; i < THREADS; i++) {
		a[i] = (struct writer_arg){ "main", i, COUNT, 24, i % 2 ? w : -1 };
		REQUIRE(pthread_create(&th[i], NULL, writer_thread, &a[i]) == 0);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	check_all_present(r, THREADS, COUNT, getpid());
	close(r);
	close(w);
}

static void t_binary_payload_preserved(void)
{
	unsigned char rec[256], buf[RDBUF];
	struct logger_entry *e = (void *)buf;
	int w, r;

	for (int i = 0; i < 256; i++)
		rec[i] = i;
	flush_log("events");
	w = open_log("events", O_WRONLY);
	r = open_log("events", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	REQUIRE(write(w, rec, 256) == 256);
	CHECK(read(r, buf, sizeof(buf)) == 276);
	CHECK(e->len == 256 && memcmp(e->msg, rec, 256) == 0);
	close(w);
	close(r);
}

static void t_logs_are_separate(void)
{
	unsigned char buf[RDBUF];
	int w, r;

	flush_log("main");
	flush_log("system");
	w = open_log("system", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	REQUIRE(write(w, "sys", 3) == 3);
	CHECK_ERR(read(r, buf, sizeof(buf)), EAGAIN);
	close(w);
	close(r);
}

/* Run @fn in a child with the given ids; returns its exit status. */
static int as_user(uid_t uid, gid_t gid, gid_t extra, int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		gid_t groups[1] = { extra };

		if (setgroups(extra ? 1 : 0, groups) || setresgid(gid, gid, gid) ||
		    setresuid(uid, uid, uid))
			_exit(100);
		_exit(fn(arg));
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int write_one(void *msg)
{
	int w = open_log("main", O_WRONLY);

	return w >= 0 && write(w, msg, strlen(msg)) == (ssize_t)strlen(msg) ? 0 : 1;
}

/* Exit code: number of records seen, +100 if flush is allowed. */
static int read_and_flush(void *arg)
{
	int r = open_log("main", O_RDONLY | O_NONBLOCK);
	int w = open_log("main", O_WRONLY), n, two = 2;
	unsigned char buf[RDBUF];
	struct logger_entry_v2 *e = (void *)buf;

	(void)arg;
	if (r < 0 || w < 0)
		return 99;
	if (ioctl(r, LOGGER_SET_VERSION, &two))
		return 98;
	n = 0;
	while (read(r, buf, sizeof(buf)) > 0) {
		if (arg && e->euid != geteuid())
			return 97;
		n++;
	}
	if (ioctl(w, LOGGER_FLUSH_LOG) == 0)
		n += 100;
	else if (errno != EPERM)
		return 96;
	return n;
}

static void t_unprivileged_reader_sees_own_euid_only(void)
{
	char p[256];
	struct stat st;
	int r;

	node_path(p, sizeof(p), "main");
	REQUIRE(stat(p, &st) == 0);
	flush_log("main");
	r = open_log("main", O_WRONLY);
	REQUIRE(r >= 0 && write(r, "root", 4) == 4);
	close(r);
	REQUIRE(as_user(65534, 65534, 0, write_one, "nobody1") == 0);
	REQUIRE(as_user(65533, 65533, 0, write_one, "other") == 0);
	REQUIRE(as_user(65534, 65534, 0, write_one, "nobody2") == 0);
	/* Let others open for reading; privilege still decides what they see. */
	REQUIRE(chmod(p, 0666) == 0);
	CHECK(as_user(65534, 65534, 0, read_and_flush, "own") == 2);
	CHECK(as_user(65532, 65532, 0, read_and_flush, NULL) == 0);
	/* The node's group may see all and flush. */
	REQUIRE(chown(p, 0, 1007) == 0);
	CHECK(as_user(65531, 65531, 1007, read_and_flush, NULL) == 100 + 4);
	REQUIRE(chown(p, st.st_uid, st.st_gid) == 0);
	REQUIRE(chmod(p, st.st_mode & 07777) == 0);
}

static void t_writer_cannot_forge_identity(void)
{
	unsigned char buf[RDBUF];
	struct logger_entry_v2 *e = (void *)buf;
	int r, two = 2;

	flush_log("main");
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(r >= 0 && ioctl(r, LOGGER_SET_VERSION, &two) == 0);
	REQUIRE(as_user(4242, 4242, 0, write_one, "I am root, honest") == 0);
	REQUIRE(read(r, buf, sizeof(buf)) > 0);
	CHECK(e->euid == 4242);
	CHECK(e->pid != getpid() && e->pid > 0);
	close(r);
}

#define T(fn) { #fn + 2, fn }
static const struct tap_case cases[] = {
	T(t_nodes_exist_and_are_not_world_readable),
	T(t_buf_size_on_any_fd),
	T(t_v1_header_stamped_by_kernel),
	T(t_one_record_per_read),
	T(t_writev_is_one_record),
	T(t_long_write_truncated_to_max_payload),
	T(t_zero_length_write_stores_nothing),
	T(t_short_read_buffer_einval_keeps_record),
	T(t_nonblocking_read_empty_eagain),
	T(t_blocking_read_waits_for_a_write),
	T(t_blocking_read_interrupted_eintr),
	T(t_poll_writable_always_readable_when_pending),
	T(t_poll_blocks_until_a_write),
	T(t_not_seekable),
	T(t_get_log_len_counts_unread_bytes),
	T(t_get_next_entry_len_per_version),
	T(t_flush_needs_write_fd_and_drops_everything),
	T(t_version_ioctls),
	T(t_unknown_ioctl_enotty),
	T(t_bad_write_pointers_efault_ring_intact),
	T(t_bad_read_pointers_efault_record_kept),
	T(t_lapped_reader_continues_at_oldest),
	T(t_reader_opened_mid_stream_starts_at_oldest),
	T(t_wrapping_write_returns_full_count),
	T(t_concurrent_processes_no_record_torn_or_lost),
	T(t_64_threads_one_shared_fd_no_record_torn_or_lost),
	T(t_binary_payload_preserved),
	T(t_logs_are_separate),
	T(t_unprivileged_reader_sees_own_euid_only),
	T(t_writer_cannot_forge_identity),
};

int main(int argc, char **argv)
{
	if (getenv("NSLOG_DEV_DIR"))
		devdir = getenv("NSLOG_DEV_DIR");
	android_nodes = getenv("NSLOG_ANDROID_NODES") != NULL;
	if (getenv("NSLOG_SMALL_LOG"))
		small_log = getenv("NSLOG_SMALL_LOG");
	if (getenv("NSLOG_EXPECT_SIZE"))
		expect_size = atol(getenv("NSLOG_EXPECT_SIZE"));
	setup_bad_memory();
	return tap_run(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
