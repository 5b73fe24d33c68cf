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
#include <sched.h>
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

/* Indexed by Android's LOG_ID_*: the log_id that nslogger's header reports. */
static const char *const log_names[4] = { "main", "radio", "events", "system" };

static uint32_t log_id_of(const char *log)
{
	for (uint32_t i = 0; i < 4; i++)
		if (!strcmp(log, log_names[i]))
			return i;
	return UINT32_MAX;
}

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

/* Whether @len bytes at @msg are a whole, untorn tagged record. */
static int tagged_ok(const void *msg, size_t len)
{
	const unsigned char *p = msg;
	const struct tagged *t = msg;

	if (len < sizeof(*t))
		return 0;
	if (t->sum != t->writer * 2654435761u + t->n)
		return 0;
	for (size_t i = sizeof(*t); i < len; i++)
		if (p[i] != (unsigned char)((unsigned char)(t->sum >> ((i & 3) * 8)) ^ i))
			return 0;
	return 1;
}

static int check_tagged(const struct logger_entry *e)
{
	return tagged_ok(e->msg, e->len);
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

/*
 * nslogger's own header (NSLOG_ENTRY_VERSION), loss, NSLOG_IOC_INFO,
 * NSLOG_IOC_SEEK and the kernel flag (issue 17).
 */

#define NSHDR	((ssize_t)sizeof(struct nslog_entry))	/* 56 */

static int set_version(int fd, int v)
{
	return ioctl(fd, LOGGER_SET_VERSION, &v);
}

/* A reader with nslogger's own header. */
static int open_own(const char *log, int flags)
{
	int fd = open_log(log, O_RDONLY | flags);

	if (fd >= 0 && set_version(fd, NSLOG_ENTRY_VERSION)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int get_info(int fd, struct nslog_info *in)
{
	memset(in, 0xa5, sizeof(*in));	/* no field may be left as it was */
	return ioctl(fd, NSLOG_IOC_INFO, in);
}

/* NSLOG_IOC_SEEK: 0 and *lost, or -1 and errno. */
static int seek_to(int fd, uint64_t seq, uint64_t *lost)
{
	struct nslog_seek s = { .seq = seq, .lost = 0xdeadbeef };
	int ret = ioctl(fd, NSLOG_IOC_SEEK, &s);

	if (lost)
		*lost = s.lost;
	return ret;
}

/* What a record of @len payload bytes takes in a ring (GET_LOG_LEN). */
static long ring_bytes(size_t len)
{
	return (40 + len + 7) / 8 * 8;
}

/* The calling thread's IPC namespace id, as readlink shows ipc:[ID]. */
static uint64_t ipc_ns_id(void)
{
	unsigned long long id = 0;
	char l[64];
	ssize_t n = readlink("/proc/thread-self/ns/ipc", l, sizeof(l) - 1);

	if (n <= 0)
		return 0;
	l[n] = 0;
	return sscanf(l, "ipc:[%llu]", &id) == 1 ? id : 0;
}

/*
 * Run @body in a new IPC namespace (a log set of its own, nobody else's
 * records in it), then come back to ours whatever @body did.
 */
static void in_new_ipc_ns(void (*body)(void))
{
	int saved = open("/proc/thread-self/ns/ipc", O_RDONLY | O_CLOEXEC);

	REQUIRE(saved >= 0);
	REQUIRE(unshare(CLONE_NEWIPC) == 0);
	body();
	if (setns(saved, CLONE_NEWIPC)) {
		printf("# cannot go back to the test's IPC namespace: %s\n",
		       strerror(errno));
		exit(2);
	}
	close(saved);
}

/* Read one record with the own header; its size, or -1. */
static ssize_t read_own(int fd, unsigned char *buf)
{
	return read(fd, buf, RDBUF + NSHDR);
}

/* A well formed own header for a read of @n bytes. */
static int own_ok(const struct nslog_entry *e, ssize_t n)
{
	return n >= NSHDR && e->hdr_size == NSHDR && e->len == n - NSHDR;
}

struct thread_write {
	int fd;
	const char *msg;
	pid_t tid;
	ssize_t ret;
};

static void *thread_write_fn(void *p)
{
	struct thread_write *t = p;

	t->tid = gettid_();
	t->ret = write(t->fd, t->msg, strlen(t->msg));
	return NULL;
}

/*
 * Every header version reads the same record: exact size, hdr_size, len,
 * pid, tid, euid, and for the own header seq, order, lost, time, log id
 * and flags.  Versions 1 and 2 are exactly the bytes they always were:
 * built here field by field from what the own header says of the same
 * record, and compared whole.
 */
static void t_own_header_every_version_same_record(void)
{
	static const char msg[] = "\4tag\0one record, three headers";
	unsigned char b[3][RDBUF + 64], want[RDBUF + 64];
	struct nslog_entry *e = (void *)b[2];
	struct logger_entry *w1 = (void *)want;
	struct logger_entry_v2 *w2 = (void *)want;
	const size_t len = sizeof(msg);
	struct thread_write tw;
	struct nslog_info in;
	int64_t before, after;
	pthread_t th;
	int w, r[3];

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r[0] = open_log("main", O_RDONLY | O_NONBLOCK);
	r[1] = open_log("main", O_RDONLY | O_NONBLOCK);
	r[2] = open_own("main", O_NONBLOCK);
	REQUIRE(w >= 0 && r[0] >= 0 && r[1] >= 0 && r[2] >= 0);
	REQUIRE(set_version(r[1], 2) == 0);
	REQUIRE(get_info(w, &in) == 0);
	CHECK(in.tail_seq == in.head_seq);

	/* One record from this thread, then one from another thread. */
	for (int rec = 0; rec < 2; rec++) {
		pid_t tid = gettid_();

		before = now_ns();
		if (rec == 0) {
			REQUIRE(write(w, msg, len) == (ssize_t)len);
		} else {
			tw = (struct thread_write){ .fd = w, .msg = "from a thread" };
			REQUIRE(pthread_create(&th, NULL, thread_write_fn, &tw) == 0);
			pthread_join(th, NULL);
			REQUIRE(tw.ret == 13);
			tid = tw.tid;
			CHECK(tid != getpid());
		}
		after = now_ns();
		size_t l = rec == 0 ? len : 13;
		const char *m = rec == 0 ? msg : "from a thread";

		CHECK(read_own(r[2], b[2]) == NSHDR + (ssize_t)l);
		CHECK(e->len == l && e->hdr_size == 56);
		CHECK(e->pid == getpid() && e->tid == tid);
		CHECK(e->euid == geteuid());
		CHECK(e->seq == in.head_seq + rec);
		CHECK(e->lost == 0);
		CHECK(e->time_ns >= before && e->time_ns <= after);
		CHECK(e->log_id == 0);
		CHECK(e->flags == 0);
		CHECK(memcmp(e->msg, m, l) == 0);

		memset(want, 0, sizeof(want));
		w1->len = l;
		w1->pid = getpid();
		w1->tid = tid;
		w1->sec = (int32_t)(e->time_ns / 1000000000);
		w1->nsec = e->time_ns % 1000000000;
		memcpy(want + 20, m, l);
		memset(b[0], 0x5a, sizeof(b[0]));
		CHECK(read(r[0], b[0], RDBUF) == 20 + (ssize_t)l);
		CHECK(memcmp(b[0], want, 20 + l) == 0);

		memset(want, 0, sizeof(want));
		w2->len = l;
		w2->hdr_size = 24;
		w2->pid = getpid();
		w2->tid = tid;
		w2->sec = (int32_t)(e->time_ns / 1000000000);
		w2->nsec = e->time_ns % 1000000000;
		w2->euid = geteuid();
		memcpy(want + 24, m, l);
		memset(b[1], 0x5a, sizeof(b[1]));
		CHECK(read(r[1], b[1], RDBUF) == 24 + (ssize_t)l);
		CHECK(memcmp(b[1], want, 24 + l) == 0);
	}
	/* Another writer's euid, as the v2 and the own header show it. */
	REQUIRE(as_user(4242, 4242, 0, write_one, "euid 4242") == 0);
	CHECK(read_own(r[2], b[2]) == NSHDR + 9);
	CHECK(e->euid == 4242 && e->pid > 0 && e->pid != getpid());
	CHECK(e->tid == e->pid);
	CHECK(e->seq == in.head_seq + 2 && e->lost == 0 && e->flags == 0);
	CHECK(read(r[1], b[1], RDBUF) == 24 + 9);
	CHECK(((struct logger_entry_v2 *)b[1])->euid == 4242);
	CHECK(((struct logger_entry_v2 *)b[1])->pid == e->pid);
	CHECK(read(r[0], b[0], RDBUF) == 20 + 9);
	CHECK(((struct logger_entry *)b[0])->pid == e->pid);
	CHECK(((struct logger_entry *)b[0])->__pad == 0);
	for (int i = 0; i < 3; i++) {
		CHECK_ERR(read(r[i], b[i], RDBUF), EAGAIN);
		close(r[i]);
	}
	close(w);
}

static void t_own_version_set_get_and_refused_versions(void)
{
	static const int bad[] = { 3, 4, 0, -1, 5, NSLOG_ENTRY_VERSION - 1,
				   NSLOG_ENTRY2_VERSION + 1, 0x534e,
				   NSLOG_ENTRY_VERSION | 0x10000 };
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	int w, r, v;

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_log("main", O_RDONLY | O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	v = NSLOG_ENTRY_VERSION;
	CHECK_ERR(ioctl(w, LOGGER_SET_VERSION, &v), EBADF);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = bad[i];
		CHECK_ERR(ioctl(r, LOGGER_SET_VERSION, &v), EINVAL);
		CHECK(ioctl(r, LOGGER_GET_VERSION) == 1);
	}
	/* The relay header's version (NSLOG_IOC_RELAY) is one of ours. */
	CHECK(set_version(r, NSLOG_ENTRY2_VERSION) == 0);
	CHECK(ioctl(r, LOGGER_GET_VERSION) == 0x4e54);
	CHECK(set_version(r, NSLOG_ENTRY_VERSION) == 0);
	CHECK(ioctl(r, LOGGER_GET_VERSION) == 0x4e53);
	/* A refused version leaves the own one in place. */
	v = 3;
	CHECK_ERR(ioctl(r, LOGGER_SET_VERSION, &v), EINVAL);
	CHECK_ERR(ioctl(r, LOGGER_SET_VERSION, (void *)8), EFAULT);
	CHECK(ioctl(r, LOGGER_GET_VERSION) == NSLOG_ENTRY_VERSION);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == 0);
	REQUIRE(write(w, "0123456", 7) == 7);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == 56 + 7);
	/* A buffer one byte short: -EINVAL, and the record stays. */
	CHECK_ERR(read(r, buf, 56 + 6), EINVAL);
	CHECK_ERR(read(r, buf, 24 + 7), EINVAL);
	CHECK(read(r, buf, 56 + 7) == 56 + 7);
	CHECK(e->len == 7 && e->hdr_size == 56 && memcmp(e->msg, "0123456", 7) == 0);
	/* The largest record fits NSLOG_ENTRY_MAX_LEN exactly. */
	{
		static unsigned char big[LOGGER_ENTRY_MAX_PAYLOAD + 10];
		static unsigned char out[NSLOG_ENTRY_MAX_LEN + 10];

		memset(big, 'B', sizeof(big));
		CHECK(write(w, big, sizeof(big)) == LOGGER_ENTRY_MAX_PAYLOAD);
		CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == (long)NSLOG_ENTRY_MAX_LEN);
		CHECK_ERR(read(r, out, NSLOG_ENTRY_MAX_LEN - 1), EINVAL);
		CHECK(read(r, out, NSLOG_ENTRY_MAX_LEN) == (ssize_t)NSLOG_ENTRY_MAX_LEN);
		CHECK(((struct nslog_entry *)out)->len == LOGGER_ENTRY_MAX_PAYLOAD);
	}
	/* Back to 2 and 1: their sizes again. */
	CHECK(set_version(r, 2) == 0);
	REQUIRE(write(w, "abc", 3) == 3);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == 24 + 3);
	CHECK(set_version(r, 1) == 0);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == 20 + 3);
	CHECK(read(r, buf, sizeof(buf)) == 20 + 3);
	close(w);
	close(r);
}

/*
 * seq: consecutive from the log's tail, as NSLOG_IOC_INFO tells it; order
 * only grows within a log.  A reader opened after records were lapped
 * starts at the tail, and what went before it came is not its loss.
 */
static void t_own_header_seq_consecutive_from_the_tail(void)
{
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	struct nslog_info in, in2;
	uint64_t order = 0;
	int w, r, n = 0, bad = 0;
	ssize_t got;
	char m[32];

	flush_log("main");
	w = open_log("main", O_WRONLY);
	REQUIRE(w >= 0 && get_info(w, &in) == 0);
	for (int i = 0; i < 50; i++) {
		int l = snprintf(m, sizeof(m), "seq %d", i);

		REQUIRE(write(w, m, l) == l);
	}
	REQUIRE(get_info(w, &in2) == 0);
	CHECK(in2.head_seq == in.head_seq + 50);
	CHECK(in2.tail_seq == in.head_seq);
	r = open_own("main", O_NONBLOCK);
	REQUIRE(r >= 0);
	while ((got = read_own(r, buf)) > 0) {
		int l = snprintf(m, sizeof(m), "seq %d", n);

		if (!own_ok(e, got) || e->seq != in.head_seq + n || e->lost ||
		    e->len != l || memcmp(e->msg, m, l) || e->flags ||
		    (n && e->order <= order))
			bad++;
		order = e->order;
		n++;
	}
	CHECK(bad == 0);
	CHECK(n == 50);
	close(r);

	/* Lapped before anyone read: a new reader starts at the tail. */
	flush_log(small_log);
	close(w);
	w = open_log(small_log, O_WRONLY);
	REQUIRE(w >= 0);
	for (int i = 0; i < 500; i++)
		REQUIRE(write(w, "0123456789abcdef0123456789abcdef", 32) == 32);
	REQUIRE(get_info(w, &in) == 0);
	CHECK(in.head_seq - in.tail_seq < 500);
	r = open_own(small_log, O_NONBLOCK);
	REQUIRE(r >= 0);
	n = 0;
	bad = 0;
	while ((got = read_own(r, buf)) > 0) {
		if (!own_ok(e, got) || e->seq != in.tail_seq + n || e->lost ||
		    e->log_id != log_id_of(small_log))
			bad++;
		n++;
	}
	CHECK(bad == 0);
	CHECK((uint64_t)n == in.head_seq - in.tail_seq);
	close(r);
	close(w);
}

/*
 * In a set of its own (a new IPC namespace): seq starts at 0 in every log,
 * and order, one counter for the set, numbers the records in exactly the
 * order they were written, across logs written alternately.
 */
static void order_body(void)
{
	enum { ROUNDS = 40 };
	static const int pattern[] = { 0, 1, 0, 1, 2, 3, 1, 0, 3, 3, 2, 0 };
	const int plen = sizeof(pattern) / sizeof(pattern[0]);
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	int w[4], r[4], count[4] = { 0 }, bad = 0, total = 0;
	/* which write (its place in the order) each log's records are */
	static int place[4][ROUNDS * 12];
	ssize_t got;
	char m[32];

	for (int i = 0; i < 4; i++) {
		w[i] = open_log(log_names[i], O_WRONLY);
		r[i] = open_own(log_names[i], O_NONBLOCK);
		REQUIRE(w[i] >= 0 && r[i] >= 0);
	}
	/* main, radio, main, radio ... then every log in a fixed pattern. */
	for (int k = 0; k < ROUNDS * plen; k++) {
		int lg = k < 2 * ROUNDS ? (k % 2 ? 1 : 0) : pattern[k % plen];
		int l = snprintf(m, sizeof(m), "write %d", k);

		REQUIRE(write(w[lg], m, l) == l);
		place[lg][count[lg]++] = k;
	}
	for (int i = 0; i < 4; i++) {
		int n = 0;

		while ((got = read_own(r[i], buf)) > 0) {
			int k = place[i][n];
			int l = snprintf(m, sizeof(m), "write %d", k);

			if (!own_ok(e, got) || e->log_id != (uint32_t)i ||
			    e->seq != (uint64_t)n || e->lost ||
			    e->order != (uint64_t)k || e->len != l ||
			    memcmp(e->msg, m, l)) {
				if (bad++ < 5)
					printf("#   %s record %d: log_id %u seq %llu order %llu, want log_id %d seq %d order %d\n",
					       log_names[i], n, e->log_id,
					       (unsigned long long)e->seq,
					       (unsigned long long)e->order,
					       i, n, k);
			}
			n++;
		}
		CHECK(n == count[i]);
		total += n;
	}
	CHECK(bad == 0);
	CHECK(total == ROUNDS * plen);
	for (int i = 0; i < 4; i++) {
		close(w[i]);
		close(r[i]);
	}
}

static void t_order_numbers_writes_across_logs_exactly(void)
{
	in_new_ipc_ns(order_body);
}

struct order_writer {
	int fd;
	uint32_t id;
	uint32_t count;
};

static void *order_writer_fn(void *p)
{
	struct order_writer *a = p;
	unsigned char rec[64];

	for (uint32_t n = 0; n < a->count; n++)
		if (write(a->fd, rec, make_tagged(rec, a->id, n, 32)) != 32)
			abort();
	return NULL;
}

/*
 * Writers on four threads, two per log, at once: every order number from 0
 * up is given exactly once across the set, and each writer's records (in
 * the order it wrote them) have growing order numbers.
 */
static void concurrent_order_body(void)
{
	enum { THREADS = 4, COUNT = 300 };
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	const struct tagged *t = (const void *)e->msg;
	static unsigned char seen[THREADS * COUNT];
	uint64_t last[THREADS] = { 0 };
	uint32_t next[THREADS] = { 0 };
	struct order_writer a[THREADS];
	pthread_t th[THREADS];
	int w[2], r[2], bad = 0, dup = 0, total = 0;
	ssize_t got;

	memset(seen, 0, sizeof(seen));
	for (int i = 0; i < 2; i++) {
		w[i] = open_log(i ? "radio" : "main", O_WRONLY);
		r[i] = open_own(i ? "radio" : "main", O_NONBLOCK);
		REQUIRE(w[i] >= 0 && r[i] >= 0);
	}
	/* 600 records of 40 + 32 bytes per log: within the 64 KiB rings. */
	for (int i = 0; i < THREADS; i++) {
		a[i] = (struct order_writer){ w[i % 2], i, COUNT };
		REQUIRE(pthread_create(&th[i], NULL, order_writer_fn, &a[i]) == 0);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 2; i++) {
		uint64_t prev = 0;
		int n = 0;

		while ((got = read_own(r[i], buf)) > 0) {
			if (!own_ok(e, got) || !tagged_ok(e->msg, e->len) ||
			    t->writer >= THREADS || e->seq != (uint64_t)n ||
			    e->lost || (n && e->order <= prev) ||
			    e->order >= THREADS * COUNT ||
			    t->n != next[t->writer] ||
			    (t->n && e->order <= last[t->writer])) {
				bad++;
			} else {
				dup += seen[e->order]++ != 0;
				last[t->writer] = e->order;
				next[t->writer]++;
			}
			prev = e->order;
			n++;
			total++;
		}
	}
	CHECK(bad == 0);
	CHECK(dup == 0);
	CHECK(total == THREADS * COUNT);
	for (int i = 0; i < THREADS; i++)
		CHECK(next[i] == COUNT);
	for (int i = 0; i < 2; i++) {
		close(w[i]);
		close(r[i]);
	}
}

static void t_order_concurrent_writers_every_number_once(void)
{
	in_new_ipc_ns(concurrent_order_body);
}

/*
 * Read what @r has (own header), checking the records are @writer's tagged
 * ones, consecutive, and that a loss is reported exactly: lost == seq - the
 * last seq read - 1, for the first record after a gap, 0 otherwise; the
 * tagged counter n of the record with seq S is S - @base.  Updates *@last,
 * returns the records read and adds the losses to *@lost.
 */
static int read_lapped(int r, uint64_t base, uint64_t *last, uint64_t *lost,
		       int *bad)
{
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	const struct tagged *t = (const void *)e->msg;
	ssize_t got;
	int n = 0;

	while ((got = read_own(r, buf)) > 0) {
		if (!own_ok(e, got) || !tagged_ok(e->msg, e->len) ||
		    e->seq <= *last || e->lost != e->seq - *last - 1 ||
		    t->n != e->seq - base ||
		    e->log_id != log_id_of(small_log)) {
			if ((*bad)++ < 5)
				printf("#   seq %llu lost %llu n %u after seq %llu\n",
				       (unsigned long long)e->seq,
				       (unsigned long long)e->lost, t->n,
				       (unsigned long long)*last);
		}
		*lost += e->lost;
		*last = e->seq;
		n++;
	}
	return n;
}

/*
 * A reader lapped on purpose, the ring filled many times over, is told
 * exactly what it lost: from the seqs, and from what the writer wrote.
 * poll(), GET_NEXT_ENTRY_LEN and GET_LOG_LEN before the read do not eat
 * the loss.
 */
static void t_lapped_reader_told_exactly_how_many_lost(void)
{
	unsigned char rec[512];
	struct nslog_info in;
	uint64_t base, last, lost;
	uint32_t n = 0;
	long size;
	int w, r, bad = 0;

	flush_log(small_log);
	w = open_log(small_log, O_WRONLY);
	r = open_own(small_log, O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	size = ioctl(w, LOGGER_GET_LOG_BUF_SIZE);
	REQUIRE(size > 0);
	REQUIRE(get_info(w, &in) == 0);
	base = in.head_seq;
	lost = 0;
	/* One record, read: the reader is at the head. */
	REQUIRE(write(w, rec, make_tagged(rec, 7, n++, 100)) == 100);
	{
		unsigned char buf[RDBUF + 64];
		struct nslog_entry *e = (void *)buf;

		REQUIRE(read_own(r, buf) == NSHDR + 100);
		CHECK(e->seq == base && e->lost == 0);
		last = base;
	}

	for (int round = 0; round < 4; round++) {
		uint32_t written = 0, got = 0, partial = 0;
		uint64_t lost_round = 0, bytes = 0, first_seq;
		struct pollfd p = { .fd = r, .events = POLLIN };

		/* Some records, some of them read: a reader in the middle. */
		for (int i = 0; i < 10 * round; i++, written++)
			REQUIRE(write(w, rec, make_tagged(rec, 7, n++, 24)) == 24);
		if (round) {
			unsigned char buf[RDBUF + 64];
			struct nslog_entry *e = (void *)buf;

			for (int i = 0; i < 3 * round; i++, partial++) {
				REQUIRE(read_own(r, buf) > 0);
				CHECK(e->seq == last + 1 && e->lost == 0);
				last = e->seq;
			}
		}
		/* Fill the ring six times over. */
		while (bytes < 6 * (uint64_t)size) {
			size_t len = 16 + (n * 37) % 300;

			REQUIRE(write(w, rec, make_tagged(rec, 7, n++, len)) == (ssize_t)len);
			bytes += ring_bytes(len);
			written++;
		}
		REQUIRE(get_info(w, &in) == 0);
		CHECK(in.head_seq == base + n);
		CHECK(in.tail_seq > last + 1);
		first_seq = in.tail_seq;
		/* Looking does not consume the loss. */
		CHECK(poll(&p, 1, 0) == 1 && p.revents == POLLIN);
		CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) > NSHDR);
		CHECK(ioctl(r, LOGGER_GET_LOG_LEN) > 0);
		{
			uint64_t before = last;

			got = read_lapped(r, base, &last, &lost_round, &bad);
			CHECK(lost_round == first_seq - before - 1);
		}
		/* Independently: written this round, minus what was read. */
		CHECK(lost_round == written - partial - got);
		CHECK(last == in.head_seq - 1);
		CHECK(got == in.head_seq - first_seq);
		printf("#   round %d: wrote %u, read %u, lost %llu\n", round,
		       written, partial + got, (unsigned long long)lost_round);
		lost += lost_round;
	}
	CHECK(bad == 0);
	/* Over the whole test, too. */
	{
		struct nslog_info end;

		REQUIRE(get_info(w, &end) == 0);
		CHECK(lost > 0 && lost < end.head_seq - base);
	}
	close(w);
	close(r);
}

/*
 * After a flush the next record's lost is the records flushed that this
 * reader had not read; a reader that had read them all lost nothing, and
 * neither did one opened after the flush.  seq goes on across the flush.
 */
static void t_flush_loss_is_what_the_reader_had_not_read(void)
{
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	struct nslog_info in, in2;
	struct pollfd p;
	int w, r, all, late;
	char m[16];

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_own("main", O_NONBLOCK);
	all = open_own("main", O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0 && all >= 0);
	REQUIRE(get_info(w, &in) == 0);
	for (int i = 0; i < 10; i++) {
		int l = snprintf(m, sizeof(m), "f%d", i);

		REQUIRE(write(w, m, l) == l);
	}
	for (int i = 0; i < 3; i++) {
		REQUIRE(read_own(r, buf) > 0);
		CHECK(e->seq == in.head_seq + i && e->lost == 0);
	}
	for (int i = 0; i < 10; i++)
		REQUIRE(read_own(all, buf) > 0);
	REQUIRE(ioctl(w, LOGGER_FLUSH_LOG) == 0);
	REQUIRE(get_info(r, &in2) == 0);
	CHECK(in2.head_seq == in.head_seq + 10 && in2.tail_seq == in2.head_seq);
	/* Nothing to read yet; asking must not eat the loss. */
	CHECK_ERR(read_own(r, buf), EAGAIN);
	p = (struct pollfd){ .fd = r, .events = POLLIN };
	CHECK(poll(&p, 1, 0) == 0);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == 0);
	late = open_own("main", O_NONBLOCK);
	REQUIRE(late >= 0);
	REQUIRE(write(w, "after", 5) == 5);
	CHECK(read_own(r, buf) == NSHDR + 5);
	CHECK(e->seq == in.head_seq + 10 && e->lost == 7);
	CHECK(memcmp(e->msg, "after", 5) == 0);
	CHECK(read_own(all, buf) == NSHDR + 5);
	CHECK(e->seq == in.head_seq + 10 && e->lost == 0);
	CHECK(read_own(late, buf) == NSHDR + 5);
	CHECK(e->seq == in.head_seq + 10 && e->lost == 0);

	/* Two flushes before the next read: both losses, once. */
	for (int i = 0; i < 4; i++)
		REQUIRE(write(w, "x", 1) == 1);
	REQUIRE(ioctl(w, LOGGER_FLUSH_LOG) == 0);
	REQUIRE(write(w, "y", 1) == 1);
	REQUIRE(write(w, "y", 1) == 1);
	REQUIRE(ioctl(w, LOGGER_FLUSH_LOG) == 0);
	REQUIRE(write(w, "z", 1) == 1);
	CHECK(read_own(r, buf) == NSHDR + 1);
	CHECK(e->lost == 6 && e->seq == in.head_seq + 17 && e->msg[0] == 'z');
	REQUIRE(write(w, "z2", 2) == 2);
	CHECK(read_own(r, buf) == NSHDR + 2);
	CHECK(e->lost == 0 && e->seq == in.head_seq + 18);
	close(w);
	close(r);
	close(all);
	close(late);
}

/*
 * NSLOG_IOC_INFO: the set's id, the same from every file of the set's four
 * logs and stable; the namespace's id as readlink shows it; the log id;
 * flags 0 while alive; head and tail as records are written and lapped.
 * Any fd may ask, a write-only one too.
 */
static uint64_t host_set_id;

static void info_new_ns_body(void)
{
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	struct nslog_info in, in2;
	uint64_t lost;
	int w, r, w2;

	w = open_log("main", O_WRONLY);
	r = open_own("main", O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	REQUIRE(get_info(r, &in) == 0);
	CHECK(in.set_id != host_set_id);
	CHECK(in.ns_id == ipc_ns_id() && in.ns_id != 4026531839u);
	CHECK(in.head_seq == 0 && in.tail_seq == 0);
	CHECK(in.log_id == 0 && in.flags == 0);
	/* Nothing written yet: seeking anywhere waits at the head. */
	CHECK(seek_to(r, 5, &lost) == 0 && lost == 0);
	REQUIRE(write(w, "first", 5) == 5);
	CHECK(read_own(r, buf) == NSHDR + 5 && e->seq == 0 && e->lost == 0);
	CHECK(e->order == 0);
	REQUIRE(get_info(w, &in2) == 0);
	CHECK(in2.set_id == in.set_id && in2.head_seq == 1 && in2.tail_seq == 0);
	/* A third set: another id, and a later one. */
	REQUIRE(unshare(CLONE_NEWIPC) == 0);
	w2 = open_log("system", O_WRONLY);
	REQUIRE(w2 >= 0);
	REQUIRE(get_info(w2, &in2) == 0);
	CHECK(in2.set_id != in.set_id && in2.set_id != host_set_id);
	CHECK(in2.set_id > in.set_id);
	CHECK(in2.ns_id == ipc_ns_id() && in2.ns_id != in.ns_id);
	CHECK(in2.log_id == 3 && in2.flags == 0);
	close(w2);
	close(w);
	close(r);
}

static void t_info_identity_and_extent(void)
{
	struct nslog_info in, in2, first;
	const uint32_t sm = log_id_of(small_log);
	int w[4], r[4], n;
	ssize_t got;
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;

	for (int i = 0; i < 4; i++) {
		w[i] = open_log(log_names[i], O_WRONLY);
		r[i] = open_log(log_names[i], O_RDONLY | O_NONBLOCK);
		REQUIRE(w[i] >= 0 && r[i] >= 0);
	}
	REQUIRE(get_info(w[0], &first) == 0);
	for (int i = 0; i < 4; i++) {
		REQUIRE(get_info(w[i], &in) == 0);
		REQUIRE(get_info(r[i], &in2) == 0);
		CHECK(in.set_id == first.set_id && in2.set_id == first.set_id);
		CHECK(in.ns_id == ipc_ns_id() && in.ns_id == 4026531839u);
		CHECK(in2.ns_id == in.ns_id);
		CHECK(in.log_id == (uint32_t)i && in2.log_id == (uint32_t)i);
		CHECK(in.flags == 0 && in2.flags == 0);
		CHECK(in.head_seq == in2.head_seq && in.tail_seq == in2.tail_seq);
		CHECK(in.tail_seq <= in.head_seq);
	}
	/* Stable: a new file of the set, asked again. */
	{
		int again = open_log("events", O_WRONLY);

		REQUIRE(again >= 0 && get_info(again, &in) == 0);
		CHECK(in.set_id == first.set_id);
		close(again);
	}
	host_set_id = first.set_id;
	CHECK_ERR(ioctl(w[0], NSLOG_IOC_INFO, NULL), EFAULT);
	CHECK_ERR(ioctl(w[0], NSLOG_IOC_INFO, bad_page), EFAULT);
	CHECK_ERR(ioctl(w[0], NSLOG_IOC_INFO, ro_page), EFAULT);

	/* head and tail move: written, then lapped. */
	REQUIRE(sm < 4);
	flush_log(small_log);
	REQUIRE(get_info(w[sm], &in) == 0);
	CHECK(in.head_seq == in.tail_seq);
	REQUIRE(write(w[sm], "one", 3) == 3);
	REQUIRE(get_info(w[sm], &in2) == 0);
	CHECK(in2.head_seq == in.head_seq + 1 && in2.tail_seq == in.tail_seq);
	for (int i = 0; i < 300; i++)
		REQUIRE(write(w[sm], "0123456789abcdef0123456789abcdef", 32) == 32);
	REQUIRE(get_info(r[sm], &in2) == 0);
	CHECK(in2.head_seq == in.head_seq + 301);
	CHECK(in2.tail_seq > in.tail_seq + 1);
	/* 32-byte payloads take 72 bytes of ring */
	CHECK(in2.head_seq - in2.tail_seq <=
	      (uint64_t)ioctl(w[sm], LOGGER_GET_LOG_BUF_SIZE) / 72);
	/* What a new reader reads is exactly [tail, head). */
	close(r[sm]);
	r[sm] = open_own(small_log, O_NONBLOCK);
	REQUIRE(r[sm] >= 0);
	n = 0;
	while ((got = read_own(r[sm], buf)) > 0) {
		CHECK(e->seq == in2.tail_seq + n);
		n++;
	}
	CHECK((uint64_t)n == in2.head_seq - in2.tail_seq);
	for (int i = 0; i < 4; i++) {
		close(w[i]);
		close(r[i]);
	}
	in_new_ipc_ns(info_new_ns_body);
}

/*
 * NSLOG_IOC_SEEK to a stored record, back, to the head, beyond it, and to
 * records gone already.
 */
static void t_seek_stored_back_and_beyond(void)
{
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	struct nslog_info in;
	struct pollfd p;
	uint64_t lost, h;
	int w, r, n;
	char m[16];

	flush_log("main");
	w = open_log("main", O_WRONLY);
	r = open_own("main", O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	REQUIRE(get_info(w, &in) == 0);
	h = in.head_seq;
	for (int i = 0; i < 10; i++) {
		int l = snprintf(m, sizeof(m), "s%d", i);

		REQUIRE(write(w, m, l) == l);
	}
	/* To a stored record: it is next, nothing lost. */
	CHECK(seek_to(r, h + 4, &lost) == 0 && lost == 0);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == NSHDR + 2);
	CHECK(ioctl(r, LOGGER_GET_LOG_LEN) == 6 * ring_bytes(2));
	CHECK(read_own(r, buf) == NSHDR + 2);
	CHECK(e->seq == h + 4 && e->lost == 0 && memcmp(e->msg, "s4", 2) == 0);
	CHECK(read_own(r, buf) == NSHDR + 2 && e->seq == h + 5 && e->lost == 0);
	/* Back: the records are read again, in order, to the end. */
	CHECK(seek_to(r, h + 1, &lost) == 0 && lost == 0);
	for (n = 1; read_own(r, buf) > 0; n++) {
		snprintf(m, sizeof(m), "s%d", n);
		CHECK(e->seq == h + n && e->lost == 0 && memcmp(e->msg, m, 2) == 0);
	}
	CHECK(n == 10);
	/* To the tail: all ten. */
	CHECK(seek_to(r, h, &lost) == 0 && lost == 0);
	for (n = 0; read_own(r, buf) > 0; n++)
		CHECK(e->seq == h + n && e->lost == 0);
	CHECK(n == 10);
	/* To the head: nothing to read, nothing lost. */
	CHECK(seek_to(r, h + 10, &lost) == 0 && lost == 0);
	CHECK_ERR(read_own(r, buf), EAGAIN);
	/* Beyond the head: it waits at the head, nothing lost. */
	CHECK(seek_to(r, h + 1000, &lost) == 0 && lost == 0);
	CHECK_ERR(read_own(r, buf), EAGAIN);
	p = (struct pollfd){ .fd = r, .events = POLLIN };
	CHECK(poll(&p, 1, 0) == 0);
	CHECK(ioctl(r, LOGGER_GET_LOG_LEN) == 0);
	REQUIRE(write(w, "s10", 3) == 3);
	CHECK(read_own(r, buf) == NSHDR + 3);
	CHECK(e->seq == h + 10 && e->lost == 0 && memcmp(e->msg, "s10", 3) == 0);
	CHECK(seek_to(r, UINT64_MAX, &lost) == 0 && lost == 0);
	CHECK_ERR(read_own(r, buf), EAGAIN);
	/* A version 1 reader seeks as well: the position is the reader's. */
	{
		int r1 = open_log("main", O_RDONLY | O_NONBLOCK);

		REQUIRE(r1 >= 0);
		CHECK(seek_to(r1, h + 9, &lost) == 0 && lost == 0);
		CHECK(read(r1, buf, RDBUF) == 20 + 2 && memcmp(buf + 20, "s9", 2) == 0);
		CHECK(read(r1, buf, RDBUF) == 20 + 3);
		CHECK_ERR(read(r1, buf, RDBUF), EAGAIN);
		close(r1);
	}
	/* Errors: a write-only fd, bad pointers. */
	CHECK_ERR(seek_to(w, h, NULL), EBADF);
	CHECK_ERR(ioctl(r, NSLOG_IOC_SEEK, NULL), EFAULT);
	CHECK_ERR(ioctl(r, NSLOG_IOC_SEEK, bad_page), EFAULT);
	/* ... after which a good seek works. */
	CHECK(seek_to(r, h + 2, &lost) == 0 && lost == 0);
	CHECK(read_own(r, buf) == NSHDR + 2 && e->seq == h + 2);
	close(w);
	close(r);
}

static void t_seek_to_gone_records_reports_them_lost(void)
{
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	struct nslog_info in, in2;
	uint64_t lost, h, t;
	int w, r;

	flush_log(small_log);
	w = open_log(small_log, O_WRONLY);
	r = open_own(small_log, O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	REQUIRE(get_info(w, &in) == 0);
	h = in.head_seq;
	for (int i = 0; i < 400; i++)
		REQUIRE(write(w, "0123456789abcdef0123456789abcdef0123456789abcdef", 48) == 48);
	REQUIRE(get_info(w, &in) == 0);
	t = in.tail_seq;
	REQUIRE(t > h + 7);
	/* Seven records before the tail: lost 7, returned and in the header. */
	CHECK(seek_to(r, t - 7, &lost) == 0 && lost == 7);
	CHECK(ioctl(r, LOGGER_GET_NEXT_ENTRY_LEN) == NSHDR + 48);
	CHECK(read_own(r, buf) == NSHDR + 48);
	CHECK(e->seq == t && e->lost == 7);
	CHECK(read_own(r, buf) == NSHDR + 48 && e->seq == t + 1 && e->lost == 0);
	/* The first record since the flush, and the first ever. */
	CHECK(seek_to(r, h, &lost) == 0 && lost == t - h);
	CHECK(read_own(r, buf) > 0 && e->seq == t && e->lost == t - h);
	CHECK(seek_to(r, 0, &lost) == 0 && lost == t);
	CHECK(read_own(r, buf) > 0 && e->seq == t && e->lost == t);
	/* The tail itself is stored: nothing lost. */
	CHECK(seek_to(r, t, &lost) == 0 && lost == 0);
	CHECK(read_own(r, buf) > 0 && e->seq == t && e->lost == 0);
	/* Sought to a gone record, then lapped before reading. */
	CHECK(seek_to(r, t - 3, &lost) == 0 && lost == 3);
	for (int i = 0; i < 200; i++)
		REQUIRE(write(w, "0123456789abcdef0123456789abcdef0123456789abcdef", 48) == 48);
	REQUIRE(get_info(w, &in2) == 0);
	CHECK(read_own(r, buf) > 0);
	CHECK(e->seq == in2.tail_seq && e->lost == in2.tail_seq - (t - 3));
	/* Lapped, then sought to a stored record: the old loss is gone. */
	for (int i = 0; i < 200; i++)
		REQUIRE(write(w, "0123456789abcdef0123456789abcdef0123456789abcdef", 48) == 48);
	REQUIRE(get_info(w, &in2) == 0);
	CHECK(seek_to(r, in2.tail_seq + 2, &lost) == 0 && lost == 0);
	CHECK(read_own(r, buf) > 0 && e->seq == in2.tail_seq + 2 && e->lost == 0);
	/* A flushed record, sought: lost. */
	REQUIRE(ioctl(w, LOGGER_FLUSH_LOG) == 0);
	REQUIRE(write(w, "new", 3) == 3);
	CHECK(seek_to(r, in2.head_seq - 5, &lost) == 0 && lost == 5);
	CHECK(read_own(r, buf) == NSHDR + 3);
	CHECK(e->seq == in2.head_seq && e->lost == 5 && memcmp(e->msg, "new", 3) == 0);
	close(w);
	close(r);
}

/*
 * NSLOG_ENTRY_KERNEL: the rate-limit notices have it, no write has it,
 * whatever its bytes, a notice's own bytes written back included.  A rule
 * on a cgroup of the test's own, notices at every passing record
 * (notice_interval_ms 0); the sum of the notices' counts is exactly what
 * the writer wrote and the reader did not get.
 */
#define CG_ROOT		"/sys/fs/cgroup"
#define RL_PARAM	"/sys/module/nslogger/parameters/notice_interval_ms"

static int write_file_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

enum { FLOOD = 120, FLOOD_LEN = 64 };

static void __attribute__((noreturn)) flooder(int go)
{
	unsigned char rec[FLOOD_LEN];
	int w = open_log("main", O_WRONLY), we = open_log("events", O_WRONLY);
	char c;

	if (w < 0 || we < 0 || read(go, &c, 1) != 1)
		_exit(1);
	memset(rec, 'f', sizeof(rec));
	memcpy(rec, "\4flood\0", 7);
	rec[FLOOD_LEN - 1] = 0;
	for (int i = 0; i < FLOOD; i++)
		if (write(w, rec, FLOOD_LEN) != FLOOD_LEN ||
		    write(we, rec, FLOOD_LEN) != FLOOD_LEN)
			_exit(1);
	/* Room again in the bucket: one record passes, after its notice. */
	usleep(400 * 1000);
	if (write(w, "\4after\0", 7) != 7 || write(we, "\1\0\0\0\0", 5) != 5)
		_exit(1);
	_exit(0);
}

struct flag_tally {
	int notices, passed, forged, bad;
	unsigned long long n, m;
	unsigned char copy[RDBUF];	/* a notice's payload */
	size_t copy_len;
};

static void tally(int r, int events, pid_t child, struct flag_tally *t)
{
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	static const char text[] = "\5nslogger\0nslogger: suppressed ";
	ssize_t got;

	char from[64];

	snprintf(from, sizeof(from), " from /nslog-abi-%d", getpid());
	memset(t, 0, sizeof(*t));
	while ((got = read_own(r, buf)) > 0) {
		unsigned long long n, m;
		const char *s;

		buf[got] = 0;	/* an event's string has no NUL of its own */

		if (!own_ok(e, got)) {
			t->bad++;
			continue;
		}
		if (e->pid != child) {
			/* the test's own forgeries */
			if (e->flags)
				t->bad++;
			t->forged++;
			continue;
		}
		if (!(e->flags & NSLOG_ENTRY_KERNEL)) {
			if (e->flags)
				t->bad++;
			t->passed++;
			continue;
		}
		if (e->flags != NSLOG_ENTRY_KERNEL)
			t->bad++;
		if (events) {
			uint32_t tag, slen;

			memcpy(&tag, e->msg, 4);
			memcpy(&slen, e->msg + 5, 4);
			if (e->len < 9 || tag != NSLOG_EVENT_TAG_SUPPRESSED ||
			    e->msg[4] != NSLOG_EVENT_STRING || slen != e->len - 9u) {
				t->bad++;
				continue;
			}
			s = e->msg + 9;
		} else {
			if (e->len < sizeof(text) ||
			    memcmp(e->msg, text, sizeof(text) - 1) ||
			    e->msg[e->len - 1]) {
				t->bad++;
				continue;
			}
			s = e->msg + 10;
		}
		if (sscanf(s, "nslogger: suppressed %llu records (%llu bytes)",
			   &n, &m) != 2 || strlen(s) < strlen(from) ||
		    strcmp(s + strlen(s) - strlen(from), from)) {
			printf("#   notice '%s'\n", s);
			t->bad++;
			continue;
		}
		t->notices++;
		t->n += n;
		t->m += m;
		memcpy(t->copy, e->msg, e->len);
		t->copy_len = e->len;
	}
}

static void t_kernel_flag_on_notices_only(void)
{
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	char cg[128], rule[256], saved[32] = "1000", pidbuf[32];
	static struct flag_tally tm, te;
	struct iovec iov[2];
	int r, re, w, we, go[2], st, fd;
	pid_t child;
	ssize_t n;

	if (access(CG_ROOT "/cgroup.controllers", F_OK))
		SKIP("no cgroup v2 hierarchy at " CG_ROOT);
	snprintf(cg, sizeof(cg), CG_ROOT "/nslog-abi-%d", getpid());
	REQUIRE(mkdir(cg, 0755) == 0 || errno == EEXIST);
	fd = open(RL_PARAM, O_RDONLY | O_CLOEXEC);
	REQUIRE(fd >= 0);
	n = read(fd, saved, sizeof(saved) - 1);
	close(fd);
	REQUIRE(n > 0);
	saved[n] = 0;
	REQUIRE(write_file_str(RL_PARAM, "0") == 0);

	flush_log("main");
	flush_log("events");
	r = open_own("main", O_NONBLOCK);
	re = open_own("events", O_NONBLOCK);
	w = open_log("main", O_WRONLY);
	we = open_log("events", O_WRONLY);
	REQUIRE(r >= 0 && re >= 0 && w >= 0 && we >= 0);

	/* Forgeries from the test, which no rule limits. */
	{
		static const char notice[] =
			"\5nslogger\0nslogger: suppressed 3 records (192 bytes) from /x";
		struct nslog_entry fake = {
			.len = 4, .hdr_size = 56, .flags = NSLOG_ENTRY_KERNEL,
			.log_id = 0,
		};
		unsigned char ev[64], ff[300];
		uint32_t tag = NSLOG_EVENT_TAG_SUPPRESSED, sl = 8;

		memset(ff, 0xff, sizeof(ff));
		memcpy(ev, &tag, 4);
		ev[4] = NSLOG_EVENT_STRING;
		memcpy(ev + 5, &sl, 4);
		memcpy(ev + 9, "nslogger", 8);
		REQUIRE(write(w, notice, sizeof(notice)) == sizeof(notice));
		REQUIRE(write(w, &fake, sizeof(fake)) == sizeof(fake));
		REQUIRE(write(w, "\1", 1) == 1);
		REQUIRE(write(w, ff, sizeof(ff)) == sizeof(ff));
		REQUIRE(write(we, ev, 17) == 17);
		REQUIRE(write(we, ff, 1) == 1);
	}

	REQUIRE(pipe2(go, O_CLOEXEC) == 0);
	child = fork();
	REQUIRE(child >= 0);
	if (child == 0) {
		close(go[1]);
		flooder(go[0]);
	}
	close(go[0]);
	snprintf(pidbuf, sizeof(pidbuf), "%d", child);
	snprintf(cg + strlen(cg), sizeof(cg) - strlen(cg), "/cgroup.procs");
	CHECK(write_file_str(cg, pidbuf) == 0);
	*strrchr(cg, '/') = 0;
	snprintf(rule, sizeof(rule), "set /nslog-abi-%d records=10/s records_burst=3",
		 getpid());
	CHECK(write_file_str("/proc/nslogger/limits", rule) == 0);
	CHECK(write(go[1], "g", 1) == 1);
	close(go[1]);
	CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	snprintf(rule, sizeof(rule), "clear /nslog-abi-%d", getpid());
	CHECK(write_file_str("/proc/nslogger/limits", rule) == 0);
	for (int i = 0; i < 100 && rmdir(cg); i++)
		usleep(10000);

	tally(r, 0, child, &tm);
	tally(re, 1, child, &te);
	printf("#   main: %d passed of %d, %d notices of %llu records; events: %d passed, %d notices of %llu\n",
	       tm.passed, FLOOD + 1, tm.notices, tm.n, te.passed, te.notices, te.n);
	CHECK(tm.bad == 0 && te.bad == 0);
	CHECK(tm.forged == 4 && te.forged == 2);
	CHECK(tm.notices >= 1 && te.notices >= 1);
	/* the burst of 3, shared by both logs, and the record after */
	CHECK(tm.passed >= 2 && te.passed >= 2);
	/* Exactly what was written and not read, in records and bytes. */
	CHECK(tm.n == (unsigned long long)(FLOOD + 1 - tm.passed));
	CHECK(tm.m == tm.n * FLOOD_LEN);
	CHECK(te.n == (unsigned long long)(FLOOD + 1 - te.passed));
	CHECK(te.m == te.n * FLOOD_LEN);

	/* A notice's very bytes, written back: not the kernel's. */
	REQUIRE(tm.copy_len > 0 && te.copy_len > 0);
	REQUIRE(write(w, tm.copy, tm.copy_len) == (ssize_t)tm.copy_len);
	CHECK(read_own(r, buf) == NSHDR + (ssize_t)tm.copy_len);
	CHECK(e->flags == 0 && memcmp(e->msg, tm.copy, tm.copy_len) == 0);
	iov[0] = (struct iovec){ te.copy, 4 };
	iov[1] = (struct iovec){ te.copy + 4, te.copy_len - 4 };
	REQUIRE(writev(we, iov, 2) == (ssize_t)te.copy_len);
	CHECK(read_own(re, buf) == NSHDR + (ssize_t)te.copy_len);
	CHECK(e->flags == 0 && memcmp(e->msg, te.copy, te.copy_len) == 0);
	CHECK(write_file_str(RL_PARAM, saved) == 0);
	close(r);
	close(re);
	close(w);
	close(we);
}

#define NS_MAX_PARAM	"/sys/module/nslogger/parameters/ns_max_size"

static int set_size(int fd, uint32_t size)
{
	return ioctl(fd, NSLOG_IOC_SET_SIZE, &size);
}

static int try_set_size(void *arg)
{
	int w = open_log("main", O_WRONLY);

	(void)arg;
	if (w < 0)
		return 99;
	if (set_size(w, 16 << 10) == 0)
		return 0;
	return errno == EPERM ? 1 : 98;
}

/*
 * In a namespace's set: the limits, then a shrink that keeps exactly the
 * newest records, a reader behind them told what it lost, and a grow.
 */
static void set_size_body(void)
{
	unsigned char buf[RDBUF + 64];
	struct nslog_entry *e = (void *)buf;
	struct nslog_info in;
	uint64_t head;
	char msg[1000];
	int w, r, n;

	w = open_log("system", O_WRONLY);
	r = open_own("system", O_NONBLOCK);
	REQUIRE(w >= 0 && r >= 0);
	CHECK(ioctl(w, LOGGER_GET_LOG_BUF_SIZE) == 64 << 10);
	CHECK_ERR(set_size(r, 16 << 10), EBADF);
	CHECK_ERR(set_size(w, 4096), EINVAL);
	CHECK_ERR(set_size(w, 0), EINVAL);
	CHECK_ERR(set_size(w, (64 << 10) + 1), EFBIG);
	CHECK_ERR(set_size(w, 128 << 20), EFBIG);
	CHECK_ERR(ioctl(w, NSLOG_IOC_SET_SIZE, bad_page), EFAULT);
	CHECK(ioctl(w, LOGGER_GET_LOG_BUF_SIZE) == 64 << 10);

	memset(msg, 'x', sizeof(msg));
	for (n = 0; n < 100; n++) {
		msg[0] = 'a' + n % 26;
		REQUIRE(write(w, msg, sizeof(msg)) == sizeof(msg));
	}
	REQUIRE(get_info(w, &in) == 0);
	head = in.head_seq;
	/* 10000 bytes: rounded up to 16 KiB, which holds 15 such records. */
	CHECK(set_size(w, 10000) == 0);
	CHECK(ioctl(w, LOGGER_GET_LOG_BUF_SIZE) == 16 << 10);
	REQUIRE(get_info(w, &in) == 0);
	CHECK(in.head_seq == head);
	CHECK(in.tail_seq == head - (16 << 10) / ring_bytes(sizeof(msg)));
	CHECK(ioctl(r, LOGGER_GET_LOG_LEN) ==
	      (int)((head - in.tail_seq) * ring_bytes(sizeof(msg))));
	/* The reader at the first record lost all but the newest 15. */
	CHECK(read_own(r, buf) == NSHDR + (ssize_t)sizeof(msg));
	CHECK(e->seq == in.tail_seq && e->lost == in.tail_seq);
	CHECK(e->msg[0] == 'a' + (int)(in.tail_seq % 26));
	for (n = 1; read_own(r, buf) > 0; n++)
		CHECK(e->seq == in.tail_seq + n && e->lost == 0);
	CHECK(n == (int)(head - in.tail_seq));
	/* Growing back keeps what is there, and then holds more. */
	CHECK(set_size(w, 64 << 10) == 0);
	REQUIRE(get_info(w, &in) == 0);
	CHECK(in.tail_seq == head - 15);
	for (n = 0; n < 30; n++)
		REQUIRE(write(w, msg, sizeof(msg)) == sizeof(msg));
	REQUIRE(get_info(w, &in) == 0);
	CHECK(in.tail_seq == head - 15 && in.head_seq == head + 30);
	/* The host lets namespaces have more: the new limit holds at once. */
	REQUIRE(write_file_str(NS_MAX_PARAM, "256K") == 0);
	CHECK(set_size(w, 256 << 10) == 0);
	CHECK_ERR(set_size(w, 512 << 10), EFBIG);
	REQUIRE(write_file_str(NS_MAX_PARAM, "64K") == 0);
	CHECK_ERR(set_size(w, 128 << 10), EFBIG);
	/* Shrinking below a lowered limit is always allowed. */
	CHECK(set_size(w, 32 << 10) == 0);
	close(w);
	close(r);
}

static void t_set_size_limits_and_keeps_newest(void)
{
	int w;

	in_new_ipc_ns(set_size_body);
	/* The host's own logs go up to 64 MiB; needs CAP_SYSLOG, not less. */
	w = open_log("system", O_WRONLY);
	REQUIRE(w >= 0);
	CHECK(set_size(w, 1 << 20) == 0);
	CHECK(ioctl(w, LOGGER_GET_LOG_BUF_SIZE) == 1 << 20);
	CHECK_ERR(set_size(w, (64 << 20) + 1), EFBIG);
	CHECK(set_size(w, expect_size) == 0);
	close(w);
	CHECK(as_user(65534, 65534, 0, try_set_size, NULL) == 1);
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
	T(t_own_header_every_version_same_record),
	T(t_own_version_set_get_and_refused_versions),
	T(t_own_header_seq_consecutive_from_the_tail),
	T(t_order_numbers_writes_across_logs_exactly),
	T(t_order_concurrent_writers_every_number_once),
	T(t_lapped_reader_told_exactly_how_many_lost),
	T(t_flush_loss_is_what_the_reader_had_not_read),
	T(t_info_identity_and_extent),
	T(t_seek_stored_back_and_beyond),
	T(t_seek_to_gone_records_reports_them_lost),
	T(t_kernel_flag_on_notices_only),
	T(t_set_size_limits_and_keeps_newest),
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
