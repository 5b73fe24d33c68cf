// SPDX-License-Identifier: GPL-2.0
/*
 * nslogd_control_test: nslogd's control half (logd's control socket) on
 * the host, as a protocol client of its own.
 *
 * The kernel module cannot be loaded here, so the logger ioctls go to a
 * stand-in (fake_ioctl below) that plays four rings and records every
 * call: the tests assert the calls made as well as the replies. The nodes
 * are fakedev.h's FIFOs, which getStatistics' fresh reader reads records
 * from as from a logger device. Log credentials are a stand-in too, so
 * that one process is "privileged" or not. The control state is driven by
 * nslogd_control_run() in the test's own thread; the static nslogd is run
 * once at the end ($NSLOG_BIN/nslogd).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nslogd/control.h"
#include "nslogd/eventtag.h"
#include "nslogd/prune.h"
#include "nslogd/reply.h"
#include "nslogd/ringctl.h"
#include "nslogd/sockets.h"
#include "nslogd/streams.h"
#include "fakedev.h"
#include "tap.h"

static const char *const node_names[] = {
	"main", "radio", "events", "system",
	/* the streams, in the view of the set's nslogfs (a directory here) */
	"crash", "stats", "security", "kernel",
};

/*
 * logd's own replies to what it cannot run (libsysutils'
 * FrameworkListener, which logd's CommandListener is), spelled out here so
 * that a change of nslogd's constants cannot pass unnoticed.
 */
#define LOGD_NOT_RECOGNIZED	"500 Command not recognized"
#define LOGD_TOO_LARGE		"500 Command too large for buffer"
#define LOGD_TOO_LONG		"500 Command too long"

/* --- the stand-ins --- */

#define MAX_CALLS	64

struct call {
	int log;		/* 0..7 from the file's name; -1 unknown */
	unsigned long req;
	uint32_t arg;		/* NSLOG_IOC_SET_SIZE's size */
};

static struct {
	struct call calls[MAX_CALLS];
	unsigned int n;
	long size[8];		/* LOGGER_GET_LOG_BUF_SIZE */
	long used[8];		/* LOGGER_GET_LOG_LEN */
	uint32_t max_size;	/* NSLOG_IOC_SET_SIZE: -EFBIG above */
	int flush_err;		/* LOGGER_FLUSH_LOG's -errno, 0: ok */
	int set_err;		/* NSLOG_IOC_SET_SIZE's -errno other than EFBIG */
	uint64_t head[8], tail[8];	/* NSLOG_IOC_INFO */
} fake;

static bool priv;		/* what the logcred stand-in answers */

static bool cred_priv(const struct ucred *c)
{
	(void)c;
	return priv;
}

static int fd_log(int fd)
{
	char link[64], path[256];
	const char *base;
	ssize_t n;
	int i;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return -1;
	path[n] = '\0';
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (i = 0; i < 8; i++)
		if (!strcmp(base, node_names[i]))
			return i;
	return -1;
}

static long fake_ioctl(int fd, unsigned long req, void *arg)
{
	int log = fd_log(fd);
	struct call *c = &fake.calls[fake.n < MAX_CALLS ? fake.n : MAX_CALLS - 1];
	int acc = fcntl(fd, F_GETFL) & O_ACCMODE;

	if (fake.n < MAX_CALLS)
		fake.n++;
	*c = (struct call){ log, req, 0 };
	if (log < 0)
		return -ENOTTY;
	switch (req) {
	case LOGGER_GET_LOG_BUF_SIZE:
		return fake.size[log];
	case LOGGER_GET_LOG_LEN:
		return acc == O_WRONLY ? -EBADF : fake.used[log];
	case LOGGER_FLUSH_LOG:
		if (acc == O_RDONLY)
			return -EBADF;
		return fake.flush_err;
	case NSLOG_IOC_SET_SIZE:
		c->arg = *(uint32_t *)arg;
		if (acc == O_RDONLY)
			return -EBADF;
		if (c->arg > fake.max_size)
			return -EFBIG;
		if (fake.set_err)
			return fake.set_err;
		fake.size[log] = c->arg;
		return 0;
	case LOGGER_SET_VERSION:
		return *(int *)arg == NSLOG_ENTRY_VERSION ? 0 : -EINVAL;
	case NSLOG_IOC_INFO: {
		struct nslog_info *info = arg;

		memset(info, 0, sizeof(*info));
		info->head_seq = fake.head[log];
		info->tail_seq = fake.tail[log];
		info->log_id = (uint32_t)log;
		return 0;
	}
	}
	return -ENOTTY;
}

static void fake_reset(void)
{
	int i;

	memset(&fake, 0, sizeof(fake));
	for (i = 0; i < 8; i++)
		fake.size[i] = 65536;
	fake.max_size = 65536;
}

static bool call_is(unsigned int i, int log, unsigned long req)
{
	if (i >= fake.n) {
		printf("#   call %u: none (%u made)\n", i, fake.n);
		return false;
	}
	if (fake.calls[i].log != log || fake.calls[i].req != req) {
		printf("#   call %u: log %d req %#lx, want log %d req %#lx\n",
		       i, fake.calls[i].log, fake.calls[i].req, log, req);
		return false;
	}
	return true;
}

/* --- a control state on a socket of a temporary directory --- */

struct bed {
	char dir[64];
	char sock[100];
	int keep[4];		/* the FIFOs' own fds */
	int listen_fd;
	struct nslogd_control ctl;	/* big: static below */
};

static struct bed bed;
static int64_t clock_ns = 1;

static bool bed_up(void)
{
	char ddir[96];
	bool inherited;
	unsigned int i;

	fake_reset();
	priv = true;
	snprintf(bed.dir, sizeof(bed.dir), "/tmp/nslogd_ctl.XXXXXX");
	if (!mkdtemp(bed.dir))
		return false;
	snprintf(ddir, sizeof(ddir), "%s", bed.dir);
	for (i = 0; i < 4; i++) {
		bed.keep[i] = fakedev_fifo(ddir, node_names[i]);
		if (bed.keep[i] < 0)
			return false;
	}
	unsetenv("ANDROID_SOCKET_logd");
	bed.listen_fd = nslogd_sock_open(NSLOGD_SOCK_LOGD, bed.dir, &inherited);
	if (bed.listen_fd < 0)
		return false;
	snprintf(bed.sock, sizeof(bed.sock), "%.60s/logd", bed.dir);
	return !nslogd_control_init(&bed.ctl, bed.listen_fd, bed.dir,
				    fake_ioctl, cred_priv, NULL);
}

static void bed_down(void)
{
	char path[160];
	unsigned int i;

	nslogd_control_exit(&bed.ctl);
	close(bed.listen_fd);
	snprintf(path, sizeof(path), "%s/logd", bed.dir);
	unlink(path);
	for (i = 0; i < 4; i++)
		close(bed.keep[i]);
	fakedev_remove(bed.dir, node_names, 4);
}

static int client(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", bed.sock);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof(sun))) {
		printf("#   connect: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void serve(void)
{
	clock_ns += 1000;
	nslogd_control_run(&bed.ctl, clock_ns);
}

static bool send_all(int fd, const void *buf, size_t n)
{
	return send(fd, buf, n, MSG_NOSIGNAL) == (ssize_t)n;
}

/*
 * One reply: serve until a NUL comes; the reply without it, in @buf.
 * Return: its length, -1 if none came (or end of file first).
 */
static ssize_t get_reply(int fd, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;
	int i;

	for (i = 0; i < 1000 && n < size; i++) {
		serve();
		r = recv(fd, buf + n, 1, MSG_DONTWAIT);
		if (r == 0)
			return -1;
		if (r < 0)
			continue;
		if (buf[n] == '\0')
			return (ssize_t)n;
		n++;
		i = 0;
	}
	return -1;
}

/* Send @cmd with its NUL on a new connection; the reply, "" if none. */
static const char *ask(const char *cmd)
{
	static char buf[NSLOGD_REPLY_MAX];
	int fd = client();
	ssize_t n;

	if (fd < 0 || !send_all(fd, cmd, strlen(cmd) + 1)) {
		if (fd >= 0)
			close(fd);
		return "";
	}
	n = get_reply(fd, buf, sizeof(buf));
	close(fd);
	serve();
	return n < 0 ? "" : buf;
}

/* Whether @fd is closed by the other side: end of file within a while. */
static bool closed_by_server(int fd)
{
	char c;
	int i;

	for (i = 0; i < 100; i++) {
		serve();
		if (recv(fd, &c, 1, MSG_DONTWAIT) == 0)
			return true;
	}
	return false;
}

/* The body of a length-prefixed reply, checked; NULL if it is not one. */
static const char *framed_body(const char *reply, char *body, size_t size)
{
	size_t len = strlen(reply), total, blen;
	char *end;

	total = strtoul(reply, &end, 10);
	if (end == reply || *end != '\n' || total != len || len < 3 ||
	    strcmp(reply + len - 2, "\n\f")) {
		printf("#   not length-prefixed (total %zu, length %zu): %.60s\n",
		       total, len, reply);
		return NULL;
	}
	blen = len - (size_t)(end + 1 - reply) - 2;
	if (blen >= size)
		return NULL;
	memcpy(body, end + 1, blen);
	body[blen] = '\0';
	return body;
}

/* --- reply --- */

static void test_reply_frame_counts_its_own_digits(void)
{
	/* bodies whose framed length crosses 9/10, 99/100, 999/1000 */
	static const size_t sizes[] = { 0, 1, 4, 5, 6, 93, 94, 95, 96, 992,
					993, 994, 995, 5000 };
	struct nslogd_reply r;
	unsigned int i;
	char num[16];

	nslogd_reply_init(&r);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		nslogd_reply_reset(&r);
		nslogd_reply_printf(&r, "%*s", (int)sizes[i], "");
		nslogd_reply_frame(&r);
		snprintf(num, sizeof(num), "%zu\n", r.len);
		CHECK(r.len == strlen(r.buf));
		CHECK(!strncmp(r.buf, num, strlen(num)));
		CHECK(r.len == strlen(num) + sizes[i] + 2);
		CHECK(!strcmp(r.buf + r.len - 2, "\n\f"));
	}
	nslogd_reply_set(&r, "abc");
	nslogd_reply_frame(&r);
	CHECK(!strcmp(r.buf, "7\nabc\n\f"));
	nslogd_reply_free(&r);
}

static void test_reply_is_bounded(void)
{
	struct nslogd_reply r;
	unsigned int i;

	nslogd_reply_init(&r);
	for (i = 0; i < NSLOGD_REPLY_MAX / 1000 + 10; i++)
		nslogd_reply_printf(&r, "%1000s", "x");
	CHECK(r.overflow);
	CHECK(r.len < NSLOGD_REPLY_MAX);
	CHECK(r.cap <= NSLOGD_REPLY_MAX);
	nslogd_reply_free(&r);
}

/* --- sizes --- */

static void test_get_log_size_asks_the_ring(void)
{
	REQUIRE(bed_up());
	fake.size[0] = 262144;
	fake.size[3] = 1 << 20;
	CHECK(!strcmp(ask("getLogSize 0"), "262144"));
	CHECK(call_is(0, 0, LOGGER_GET_LOG_BUF_SIZE));
	CHECK(!strcmp(ask("getLogSize 3"), "1048576"));
	CHECK(call_is(1, 3, LOGGER_GET_LOG_BUF_SIZE));
	CHECK(fake.n == 2);
	/* crash, no stream made (none can be, here): logd's default size */
	CHECK(!strcmp(ask("getLogSize 4"), "262144"));
	CHECK(fake.n == 2);
	/* runs of spaces are one */
	CHECK(!strcmp(ask("getLogSize   0 "), "262144"));
	/* the kernel's error */
	fake.size[1] = -EIO;
	CHECK(!strcmp(ask("getLogSize 1"), NSLOGD_R_BUSY));
	bed_down();
}

static void test_get_log_size_used_and_readable_use_a_fresh_reader(void)
{
	REQUIRE(bed_up());
	fake.used[2] = 12345;
	CHECK(!strcmp(ask("getLogSizeUsed 2"), "12345"));
	CHECK(call_is(0, 2, LOGGER_GET_LOG_LEN));
	CHECK(!strcmp(ask("getLogSizeReadable 2"), "12345"));
	CHECK(call_is(1, 2, LOGGER_GET_LOG_LEN));
	CHECK(!strcmp(ask("getLogSizeUsed 6"), "0"));
	CHECK(fake.n == 2);
	bed_down();
}

static void test_size_argument_errors(void)
{
	static const struct {
		const char *cmd, *want;
	} t[] = {
		{ "getLogSize", NSLOGD_R_MISSING },
		{ "getLogSize x", NSLOGD_R_RANGE },
		{ "getLogSize 8", NSLOGD_R_RANGE },
		{ "getLogSize -1", NSLOGD_R_RANGE },
		{ "getLogSize 0x1", NSLOGD_R_RANGE },
		{ "getLogSizeUsed", NSLOGD_R_MISSING },
		{ "getLogSizeReadable 99999999999999999999", NSLOGD_R_RANGE },
		{ "clear", NSLOGD_R_MISSING },
		{ "clear main", NSLOGD_R_RANGE },
		{ "setLogSize", NSLOGD_R_MISSING },
		{ "setLogSize 0", NSLOGD_R_MISSING },
		{ "setLogSize 0 65535", NSLOGD_R_RANGE },
		{ "setLogSize 0 268435457", NSLOGD_R_RANGE },
		{ "setLogSize 0 1M", NSLOGD_R_RANGE },
		{ "setLogSize 9 65536", NSLOGD_R_RANGE },
		{ "setLogSize 4 65535", NSLOGD_R_RANGE },
	};
	unsigned int i;
	const char *got;

	REQUIRE(bed_up());
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		got = ask(t[i].cmd);
		if (strcmp(got, t[i].want)) {
			printf("#   %s: \"%s\", want \"%s\"\n", t[i].cmd, got,
			       t[i].want);
			tap_failed_now = 1;
		}
	}
	CHECK(fake.n == 0);	/* none reached the kernel */
	bed_down();
}

static void test_set_log_size_clamps_to_what_the_host_allows(void)
{
	REQUIRE(bed_up());
	fake.max_size = 65536;		/* ns_max_size's default */
	CHECK(!strcmp(ask("setLogSize 0 1000000"), NSLOGD_R_SUCCESS));
	/* 1000000 asked as 1 MiB, then halved down to what was taken */
	CHECK(call_is(0, 0, NSLOG_IOC_SET_SIZE) && fake.calls[0].arg == 1 << 20);
	CHECK(call_is(1, 0, NSLOG_IOC_SET_SIZE) && fake.calls[1].arg == 1 << 19);
	CHECK(call_is(2, 0, NSLOG_IOC_SET_SIZE) && fake.calls[2].arg == 1 << 18);
	CHECK(call_is(3, 0, NSLOG_IOC_SET_SIZE) && fake.calls[3].arg == 1 << 17);
	CHECK(call_is(4, 0, NSLOG_IOC_SET_SIZE) && fake.calls[4].arg == 1 << 16);
	CHECK(call_is(5, 0, LOGGER_GET_LOG_BUF_SIZE));
	CHECK(fake.n == 6);
	/* the real size is what getLogSize says */
	CHECK(!strcmp(ask("getLogSize 0"), "65536"));

	/* a host that allows more: exactly what was asked, rounded up */
	fake.n = 0;
	fake.max_size = 16 << 20;
	CHECK(!strcmp(ask("setLogSize 3 262144"), NSLOGD_R_SUCCESS));
	CHECK(call_is(0, 3, NSLOG_IOC_SET_SIZE) && fake.calls[0].arg == 262144);
	CHECK(fake.n == 2);
	CHECK(!strcmp(ask("getLogSize 3"), "262144"));
	CHECK(!strcmp(ask("setLogSize 3 268435456"), NSLOGD_R_SUCCESS));
	CHECK(!strcmp(ask("getLogSize 3"), "16777216"));

	/* a host that allows less than 64 KiB: down to the kernel's least */
	fake.n = 0;
	fake.max_size = 16384;
	CHECK(!strcmp(ask("setLogSize 1 65536"), NSLOGD_R_SUCCESS));
	CHECK(call_is(2, 1, NSLOG_IOC_SET_SIZE) && fake.calls[2].arg == 16384);
	CHECK(!strcmp(ask("getLogSize 1"), "16384"));
	fake.n = 0;
	fake.max_size = 4096;		/* below anything: -EFBIG at 8 KiB */
	CHECK(!strcmp(ask("setLogSize 1 65536"), NSLOGD_R_BUSY));
	CHECK(call_is(3, 1, NSLOG_IOC_SET_SIZE) && fake.calls[3].arg == 8192);
	CHECK(fake.n == 4);
	bed_down();
}

static void test_set_log_size_privilege(void)
{
	REQUIRE(bed_up());
	priv = false;
	CHECK(!strcmp(ask("setLogSize 0 65536"), NSLOGD_R_DENIED));
	CHECK(!strcmp(ask("setLogSize"), NSLOGD_R_DENIED));
	CHECK(fake.n == 0);
	/* nslogd itself without CAP_SYSLOG over the set */
	priv = true;
	fake.set_err = -EPERM;
	CHECK(!strcmp(ask("setLogSize 0 65536"), NSLOGD_R_DENIED));
	fake.set_err = -ENOMEM;
	CHECK(!strcmp(ask("setLogSize 0 65536"), NSLOGD_R_BUSY));
	bed_down();
}

/* --- clear --- */

static void test_clear_flushes_with_privilege_only(void)
{
	REQUIRE(bed_up());
	CHECK(!strcmp(ask("clear 3"), NSLOGD_R_SUCCESS));
	CHECK(call_is(0, 3, LOGGER_FLUSH_LOG));
	CHECK(fake.n == 1);
	/* crash, no stream made: nothing stored, nothing to do */
	CHECK(!strcmp(ask("clear 4"), NSLOGD_R_SUCCESS));
	CHECK(fake.n == 1);
	/* unprivileged: nothing removed (not the others' records) */
	priv = false;
	CHECK(!strcmp(ask("clear 0"), NSLOGD_R_DENIED));
	CHECK(fake.n == 1);
	priv = true;
	fake.flush_err = -EPERM;
	CHECK(!strcmp(ask("clear 0"), NSLOGD_R_DENIED));
	fake.flush_err = -EIO;
	CHECK(!strcmp(ask("clear 0"), NSLOGD_R_BUSY));
	CHECK(call_is(2, 0, LOGGER_FLUSH_LOG));
	bed_down();
}

/* --- statistics --- */

static void put_entry(int fd, uint64_t seq, int pid, uint32_t euid,
		      size_t len)
{
	unsigned char rec[NSLOG_ENTRY_MAX_LEN];
	struct nslog_entry e = {
		.len = (uint16_t)len, .hdr_size = sizeof(e), .pid = pid,
		.tid = pid, .euid = euid, .seq = seq, .order = seq,
		.time_ns = 1, .log_id = 0,
	};

	memcpy(rec, &e, sizeof(e));
	memset(rec + sizeof(e), 'x', len);
	if (write(fd, rec, sizeof(e) + len) != (ssize_t)(sizeof(e) + len))
		printf("# fifo write: %s\n", strerror(errno));
}

/* Records of main: uid 10001 pid 100 x3 of 10 bytes, uid 10002 pid 200 x1
 * of 50 bytes, our uid pid 300 x2 of 7 bytes, and one past the head. */
static void fill_main(uint32_t me)
{
	fake.tail[0] = 5;
	put_entry(bed.keep[0], 5, 100, 10001, 10);
	put_entry(bed.keep[0], 6, 200, 10002, 50);
	put_entry(bed.keep[0], 7, 100, 10001, 10);
	put_entry(bed.keep[0], 8, 300, me, 7);
	put_entry(bed.keep[0], 9, 100, 10001, 10);
	put_entry(bed.keep[0], 10, 300, me, 7);
	put_entry(bed.keep[0], 11, 999, 10003, 100);	/* after the request */
	fake.head[0] = 11;
}

static void drain(int fd)
{
	char buf[NSLOG_ENTRY_MAX_LEN];
	int fl = fcntl(fd, F_GETFL);

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	fcntl(fd, F_SETFL, fl);
}

static void test_statistics_counts_records_at_request_time(void)
{
	char body[8192];
	const char *b;
	uid_t me = 77777;

	REQUIRE(bed_up());
	fill_main(me);
	b = framed_body(ask("getStatistics 0"), body, sizeof(body));
	REQUIRE(b);
	if (!strstr(b, "\nmain                6          94       65536            5\n"))
		printf("%s", b);
	CHECK(strstr(b, "\nmain                6          94       65536            5\n"));
	CHECK(strstr(b, "\ntotal               6          94\n"));
	CHECK(!strstr(b, "radio"));
	/* chattiest first, by bytes */
	CHECK(strstr(b, "main: chattiest uids\n"
			"      uid     records       bytes\n"
			"    10002           1          50\n"
			"    10001           3          30\n"
			"    77777           2          14\n"));
	CHECK(strstr(b, "main: chattiest pids\n"
			"      pid         uid     records       bytes\n"
			"      200       10002           1          50\n"
			"      100       10001           3          30\n"
			"      300       77777           2          14\n"));
	CHECK(!strstr(b, "10003"));		/* written after the head */
	CHECK(call_is(0, 0, LOGGER_GET_LOG_BUF_SIZE));
	CHECK(call_is(1, 0, LOGGER_SET_VERSION));
	CHECK(call_is(2, 0, NSLOG_IOC_INFO));
	CHECK(fake.n == 3);
	drain(bed.keep[0]);
	bed_down();
}

static void test_statistics_filters_by_uid_and_pid(void)
{
	char body[8192];
	const char *b;

	REQUIRE(bed_up());
	/* unprivileged: the caller's own uid only (SO_PEERCRED) */
	priv = false;
	fill_main(getuid());
	b = framed_body(ask("getStatistics 0"), body, sizeof(body));
	REQUIRE(b);
	CHECK(strstr(b, "(your uid's only)"));
	CHECK(strstr(b, "\nmain                2          14 "));
	CHECK(!strstr(b, "10001") && !strstr(b, "10002"));
	drain(bed.keep[0]);

	/* pid=: that pid only */
	priv = true;
	fill_main(getuid());
	b = framed_body(ask("getStatistics pid=100"), body, sizeof(body));
	REQUIRE(b);
	CHECK(strstr(b, "\nmain                3          30 "));
	CHECK(!strstr(b, "10002"));
	/* no ids: all four logs */
	CHECK(strstr(b, "\nradio               0           0 "));
	CHECK(strstr(b, "\nsystem              0           0 "));
	drain(bed.keep[0]);

	CHECK(!strcmp(ask("getStatistics pid=x"), NSLOGD_R_RANGE));
	CHECK(!strcmp(ask("getStatistics pid=0"), NSLOGD_R_RANGE));
	CHECK(!strcmp(ask("getStatistics main"), NSLOGD_R_RANGE));
	CHECK(!strcmp(ask("getStatistics 8"), NSLOGD_R_RANGE));
	/* a log that cannot be read says why */
	fake.size[1] = -EIO;
	b = framed_body(ask("getStatistics 1 3"), body, sizeof(body));
	REQUIRE(b);
	CHECK(strstr(b, "\nradio     Input/output error\n"));
	CHECK(strstr(b, "\nsystem              0           0 "));
	CHECK(!strstr(b, "\nmain "));
	bed_down();
}

/* --- logs 4 to 7: streams in a view (a directory of the test's) --- */

static void test_streams_answered_and_made_by_set_log_size(void)
{
	char vdir[] = "/tmp/nslogd_view.XXXXXX", path[96], body[8192];
	struct nslogd_streams st;
	struct stat sb;
	const char *b;
	int dfd;

	REQUIRE(bed_up());
	REQUIRE(mkdtemp(vdir));
	dfd = open(vdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	REQUIRE(dfd >= 0);
	nslogd_streams_init(&st, dfd, NSLOGD_VIEW_MOUNT, fake_ioctl);
	bed.ctl.cmd.ring.streams = &st;
	snprintf(path, sizeof(path), "%s/stats", vdir);

	/* Not made yet: an empty log of the default size; nothing made. */
	CHECK(!strcmp(ask("getLogSize 5"), "262144"));
	CHECK(!strcmp(ask("getLogSizeUsed 5"), "0"));
	CHECK(!strcmp(ask("clear 5"), NSLOGD_R_SUCCESS));
	b = framed_body(ask("getStatistics 5 6"), body, sizeof(body));
	REQUIRE(b);
	CHECK(strstr(b, "\nstats               0           0      262144            0\n"));
	CHECK(strstr(b, "\nsecurity            0           0      262144            0\n"));
	CHECK(fake.n == 0 && access(path, F_OK));

	/*
	 * setLogSize makes it (its first use), sized to logd's 256 KiB or
	 * what the host allows (64 KiB here), then to the size asked.
	 */
	CHECK(!strcmp(ask("setLogSize 5 131072"), NSLOGD_R_SUCCESS));
	CHECK(!stat(path, &sb) && (sb.st_mode & 07777) == NSLOGD_STREAM_MODE);
	CHECK(call_is(0, 5, NSLOG_IOC_SET_SIZE) && fake.calls[0].arg == 262144);
	CHECK(call_is(1, 5, NSLOG_IOC_SET_SIZE) && fake.calls[1].arg == 131072);
	CHECK(call_is(2, 5, NSLOG_IOC_SET_SIZE) && fake.calls[2].arg == 65536);
	CHECK(call_is(3, 5, LOGGER_GET_LOG_BUF_SIZE));
	CHECK(call_is(4, 5, NSLOG_IOC_SET_SIZE) && fake.calls[4].arg == 131072);
	CHECK(call_is(5, 5, NSLOG_IOC_SET_SIZE) && fake.calls[5].arg == 65536);
	CHECK(call_is(6, 5, LOGGER_GET_LOG_BUF_SIZE));
	CHECK(fake.n == 7);
	CHECK(st.made == 1u << 5);

	/* Made: the getters and clear are the stream's. */
	fake.n = 0;
	fake.used[5] = 4242;
	CHECK(!strcmp(ask("getLogSize 5"), "65536"));
	CHECK(call_is(0, 5, LOGGER_GET_LOG_BUF_SIZE));
	CHECK(!strcmp(ask("getLogSizeReadable 5"), "4242"));
	CHECK(call_is(1, 5, LOGGER_GET_LOG_LEN));
	CHECK(!strcmp(ask("clear 5"), NSLOGD_R_SUCCESS));
	CHECK(call_is(2, 5, LOGGER_FLUSH_LOG));
	/* Another stream is still not made. */
	CHECK(!strcmp(ask("getLogSize 7"), "262144"));
	CHECK(fake.n == 3);

	/* No view: setLogSize cannot make it. */
	nslogd_streams_close(&st);
	nslogd_streams_init(&st, -1, NSLOGD_VIEW_NONE, fake_ioctl);
	CHECK(!strcmp(ask("setLogSize 4 65536"), NSLOGD_R_BUSY));
	CHECK(fake.n == 3);
	bed.ctl.cmd.ring.streams = NULL;
	unlink(path);
	rmdir(vdir);
	bed_down();
}

/* --- prune list --- */

static void test_prune_entry_forms(void)
{
	static const char *const good[] = {
		"~!", "!", "~1000/!", "1000/!", "1000", "~1000", "1000/123",
		"~1000/123", "/123", "~/123", "4294967295",
	};
	static const char *const bad[] = {
		"", "~", "!!", "~!x", "1000/", "/", "/!", "x", "10a",
		"1000/12x", "12345678901", "1000//1", "~~1", "1000 1",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		if (!nslogd_prune_entry_valid(good[i])) {
			printf("#   \"%s\" refused\n", good[i]);
			tap_failed_now = 1;
		}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (nslogd_prune_entry_valid(bad[i])) {
			printf("#   \"%s\" taken\n", bad[i]);
			tap_failed_now = 1;
		}
}

static void test_prune_list_kept_and_shown(void)
{
	char body[2048], cmd[2100];
	const char *b;

	REQUIRE(bed_up());
	b = framed_body(ask("getPruneList"), body, sizeof(body));
	CHECK(b && !strcmp(b, "~! ~1000/!"));
	CHECK(!strcmp(ask("setPruneList ~1000  10057/!  /42"),
		      NSLOGD_R_SUCCESS));
	b = framed_body(ask("getPruneList"), body, sizeof(body));
	CHECK(b && !strcmp(b, "~1000 10057/! /42"));
	/* one bad entry: nothing changes */
	CHECK(!strcmp(ask("setPruneList ~! bogus"), NSLOGD_R_INVALID));
	b = framed_body(ask("getPruneList"), body, sizeof(body));
	CHECK(b && !strcmp(b, "~1000 10057/! /42"));
	/* unprivileged: refused */
	priv = false;
	CHECK(!strcmp(ask("setPruneList ~!"), NSLOGD_R_DENIED));
	b = framed_body(ask("getPruneList"), body, sizeof(body));
	CHECK(b && !strcmp(b, "~1000 10057/! /42"));
	priv = true;
	/* longer than the list's room (no command can be: checked here) */
	{
		char *e[300];
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(e); i++)
			e[i] = "1000";
		CHECK(nslogd_prune_set(&bed.ctl.cmd.prune, e, 204) == 0);
		CHECK(nslogd_prune_set(&bed.ctl.cmd.prune, e, 205) == -EINVAL);
		CHECK(strlen(bed.ctl.cmd.prune.list) == 204 * 5 - 1);
	}
	snprintf(cmd, sizeof(cmd), "setPruneList ~1000  10057/!  /42");
	CHECK(!strcmp(ask(cmd), NSLOGD_R_SUCCESS));
	/* empty: the list emptied */
	CHECK(!strcmp(ask("setPruneList"), NSLOGD_R_SUCCESS));
	CHECK(!strcmp(ask("getPruneList"), "4\n\n\f"));
	/* reinit: logd's default again, as logd's reinit does */
	CHECK(!strcmp(ask(cmd), NSLOGD_R_SUCCESS));
	priv = false;
	CHECK(!strcmp(ask("reinit"), NSLOGD_R_DENIED));
	b = framed_body(ask("getPruneList"), body, sizeof(body));
	CHECK(b && !strcmp(b, "~1000 10057/! /42"));
	priv = true;
	CHECK(!strcmp(ask("reinit"), NSLOGD_R_SUCCESS));
	b = framed_body(ask("getPruneList"), body, sizeof(body));
	CHECK(b && !strcmp(b, "~! ~1000/!"));
	CHECK(fake.n == 0);
	bed_down();
}

/* --- event tags --- */

static void test_event_tag_looks_up_the_file(void)
{
	char path[128], body[256];
	const char *b;
	FILE *f;

	REQUIRE(bed_up());
	snprintf(path, sizeof(path), "%s/event-log-tags", bed.dir);
	f = fopen(path, "w");
	REQUIRE(f);
	fputs("# comment\n42 answer (life|1|5),(more|2)\n"
	      "2718 euler\n\nnot a tag\n314\tpi\t(v|1)\n", f);
	fclose(f);
	setenv(NSLOGD_EVENTTAG_ENV, path, 1);
	CHECK(!strcmp(ask("reinit"), NSLOGD_R_SUCCESS));

	b = framed_body(ask("getEventTag id=42"), body, sizeof(body));
	CHECK(b && !strcmp(b, "42 answer (life|1|5),(more|2)"));
	b = framed_body(ask("getEventTag name=euler format=(x|1)"), body,
			sizeof(body));
	CHECK(b && !strcmp(b, "2718 euler"));
	b = framed_body(ask("getEventTag id=314"), body, sizeof(body));
	CHECK(b && !strcmp(b, "314 pi (v|1)"));
	CHECK(!strcmp(ask("getEventTag id=43"), NSLOGD_R_INVALID));
	CHECK(!strcmp(ask("getEventTag name=nope"), NSLOGD_R_INVALID));
	CHECK(!strcmp(ask("getEventTag"), NSLOGD_R_MISSING));
	CHECK(!strcmp(ask("getEventTag format=(x|1)"), NSLOGD_R_MISSING));
	CHECK(!strcmp(ask("getEventTag id=x"), NSLOGD_R_RANGE));

	/* reinit reads the file again; only with log credentials */
	f = fopen(path, "w");
	REQUIRE(f);
	fputs("43 newer\n", f);
	fclose(f);
	priv = false;
	CHECK(!strcmp(ask("reinit"), NSLOGD_R_DENIED));
	CHECK(!strcmp(ask("getEventTag id=43"), NSLOGD_R_INVALID));
	priv = true;
	CHECK(!strcmp(ask("reinit"), NSLOGD_R_SUCCESS));
	b = framed_body(ask("getEventTag id=43"), body, sizeof(body));
	CHECK(b && !strcmp(b, "43 newer"));
	CHECK(!strcmp(ask("getEventTag id=42"), NSLOGD_R_INVALID));
	/* no file: no tags, still serving */
	unlink(path);
	CHECK(!strcmp(ask("reinit"), NSLOGD_R_SUCCESS));
	CHECK(!strcmp(ask("getEventTag id=43"), NSLOGD_R_INVALID));
	unsetenv(NSLOGD_EVENTTAG_ENV);
	CHECK(fake.n == 0);
	bed_down();
}

/* --- the connection --- */

static void test_exit_replies_then_closes(void)
{
	char buf[64];
	int fd;

	REQUIRE(bed_up());
	fd = client();
	REQUIRE(fd >= 0);
	REQUIRE(send_all(fd, "exit", 5));
	CHECK(get_reply(fd, buf, sizeof(buf)) == 7 && !strcmp(buf, "success"));
	CHECK(closed_by_server(fd));
	close(fd);
	CHECK(nslogd_control_conns(&bed.ctl) == 0);
	/* still serving others */
	CHECK(!strcmp(ask("getLogSize 0"), "65536"));
	bed_down();
}

static void test_unknown_verbs_and_garbage(void)
{
	static const char garbage[] = "\xff\xfe\x01\x02 \x7f\0";
	char buf[64], words[10 + 2 * NSLOGD_CMD_ARGS + 1];
	int fd, i;

	REQUIRE(bed_up());
	CHECK(!strcmp(ask("frobnicate 0"), LOGD_NOT_RECOGNIZED));
	CHECK(!strcmp(ask("getlogsize 0"), LOGD_NOT_RECOGNIZED));	/* exact case */
	CHECK(!strcmp(ask("getLogSize0"), LOGD_NOT_RECOGNIZED));
	CHECK(!strcmp(ask(""), LOGD_NOT_RECOGNIZED));
	CHECK(!strcmp(ask("   "), LOGD_NOT_RECOGNIZED));
	/* more words than NSLOGD_CMD_ARGS: logd's "too long" */
	memset(words, 0, sizeof(words));
	memcpy(words, "getLogSize", 10);
	for (i = 0; i < NSLOGD_CMD_ARGS; i++)
		memcpy(words + 10 + 2 * i, " 0", 2);
	CHECK(!strcmp(ask(words), LOGD_TOO_LONG));
	/* one connection: garbage, then a good command, both answered */
	fd = client();
	REQUIRE(fd >= 0);
	REQUIRE(send_all(fd, garbage, sizeof(garbage) - 1));
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 &&
	      !strcmp(buf, LOGD_NOT_RECOGNIZED));
	REQUIRE(send_all(fd, "getLogSize\t0", 13));	/* a tab is no space */
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 &&
	      !strcmp(buf, LOGD_NOT_RECOGNIZED));
	REQUIRE(send_all(fd, "getLogSize 0", 13));
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 && !strcmp(buf, "65536"));
	close(fd);
	serve();
	CHECK(bed.ctl.n.unrecognized == 7);
	CHECK(nslogd_control_conns(&bed.ctl) == 0);
	bed_down();
}

static void test_oversized_command_refused_and_closed(void)
{
	char big[3 * NSLOGD_CTL_CMD_MAX], buf[64];
	int fd;

	REQUIRE(bed_up());
	memset(big, 'a', sizeof(big));
	fd = client();
	REQUIRE(fd >= 0);
	REQUIRE(send_all(fd, big, sizeof(big)));	/* no NUL at all */
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 &&
	      !strcmp(buf, LOGD_TOO_LARGE));
	CHECK(closed_by_server(fd));
	close(fd);
	CHECK(bed.ctl.n.oversized == 1);
	CHECK(nslogd_control_conns(&bed.ctl) == 0);

	/* the longest that fits is served: NSLOGD_CTL_CMD_MAX with its NUL */
	memset(big, ' ', NSLOGD_CTL_CMD_MAX);
	memcpy(big, "getLogSize 0", 12);
	big[NSLOGD_CTL_CMD_MAX - 1] = '\0';
	fd = client();
	REQUIRE(fd >= 0);
	REQUIRE(send_all(fd, big, NSLOGD_CTL_CMD_MAX));
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 && !strcmp(buf, "65536"));
	close(fd);
	/* one byte more is not */
	memset(big, ' ', NSLOGD_CTL_CMD_MAX + 1);
	memcpy(big, "getLogSize 0", 12);
	big[NSLOGD_CTL_CMD_MAX] = '\0';
	fd = client();
	REQUIRE(fd >= 0);
	REQUIRE(send_all(fd, big, NSLOGD_CTL_CMD_MAX + 1));
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 &&
	      !strcmp(buf, LOGD_TOO_LARGE));
	CHECK(closed_by_server(fd));
	close(fd);
	CHECK(bed.ctl.n.oversized == 2);
	bed_down();
}

static void test_command_split_across_reads(void)
{
	static const char cmd[] = "getLogSize 3";
	char buf[64];
	unsigned int i;
	int fd;

	REQUIRE(bed_up());
	fake.size[3] = 131072;
	fd = client();
	REQUIRE(fd >= 0);
	/* a byte at a time, the server running between */
	for (i = 0; i < sizeof(cmd); i++) {
		REQUIRE(send_all(fd, cmd + i, 1));
		serve();
		if (i + 1 < sizeof(cmd))
			CHECK(recv(fd, buf, 1, MSG_DONTWAIT) < 0 &&
			      errno == EAGAIN);
	}
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 && !strcmp(buf, "131072"));
	CHECK(fake.n == 1);

	/* two commands and the start of a third in one send, the rest later */
	REQUIRE(send_all(fd, "getLogSize 0\0getLogSize 3\0getLog", 32));
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 && !strcmp(buf, "65536"));
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 && !strcmp(buf, "131072"));
	serve();
	CHECK(recv(fd, buf, 1, MSG_DONTWAIT) < 0 && errno == EAGAIN);
	REQUIRE(send_all(fd, "Size 0", 7));
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 && !strcmp(buf, "65536"));

	/* a half-closed client still gets its reply, then end of file */
	REQUIRE(send_all(fd, "getLogSize 3", 13));
	shutdown(fd, SHUT_WR);
	CHECK(get_reply(fd, buf, sizeof(buf)) >= 0 && !strcmp(buf, "131072"));
	CHECK(closed_by_server(fd));
	close(fd);
	bed_down();
}

static void test_many_connections(void)
{
	enum { N = 200 };
	static int fds[N];
	char buf[64];
	unsigned int i, ok = 0;

	REQUIRE(bed_up());
	/* 200 clients, each with its command sent at connect */
	for (i = 0; i < N; i++) {
		fds[i] = client();
		REQUIRE(fds[i] >= 0);
		REQUIRE(send_all(fds[i], "getLogSize 0", 13));
		if (i % 32 == 31)
			serve();
	}
	for (i = 0; i < N; i++) {
		if (get_reply(fds[i], buf, sizeof(buf)) >= 0 &&
		    !strcmp(buf, "65536"))
			ok++;
		close(fds[i]);
	}
	CHECK(ok == N);
	CHECK(bed.ctl.n.commands == N);
	CHECK(nslogd_control_conns(&bed.ctl) <= NSLOGD_CTL_CONNS);

	/* as many silent clients as there are slots; one more still served,
	 * the longest idle closed for it */
	for (i = 0; i < N; i++)
		serve();
	for (i = 0; i < NSLOGD_CTL_CONNS; i++) {
		fds[i] = client();
		REQUIRE(fds[i] >= 0);
		serve();
	}
	CHECK(nslogd_control_conns(&bed.ctl) == NSLOGD_CTL_CONNS);
	CHECK(!strcmp(ask("getLogSize 0"), "65536"));
	CHECK(bed.ctl.n.evicted >= 1);
	CHECK(closed_by_server(fds[0]));	/* the first was idle longest */
	for (i = 0; i < NSLOGD_CTL_CONNS; i++)
		close(fds[i]);
	for (i = 0; i < 10; i++)
		serve();
	CHECK(nslogd_control_conns(&bed.ctl) == 0);
	bed_down();
}

static void test_client_that_does_not_read_stalls_nobody(void)
{
	static const char cmd[] = "getPruneList";
	char chunk[64 * sizeof(cmd)], buf[64];
	unsigned long sent = 0, got = 0;
	unsigned int i, idle = 0, loops = 0;
	int fd;

	REQUIRE(bed_up());
	for (i = 0; i < 64; i++)
		memcpy(chunk + i * sizeof(cmd), cmd, sizeof(cmd));
	fd = client();
	REQUIRE(fd >= 0);
	/* commands until the server stops reading: its reply waits */
	while (idle < 50 && loops++ < 20000) {
		ssize_t n = send(fd, chunk, sizeof(chunk),
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n > 0) {
			sent += (unsigned long)n;
			idle = 0;
		} else {
			idle++;
		}
		serve();
	}
	printf("# %lu bytes of commands sent before the server stopped reading\n",
	       sent);
	CHECK(idle == 50);		/* the server did stop reading */
	CHECK(sent > 4 * NSLOGD_CTL_CMD_MAX);
	CHECK(bed.ctl.conn[0].out.buf != NULL);	/* a reply waits */
	CHECK(bed.ctl.conn[0].in_len <= NSLOGD_CTL_CMD_MAX);
	/* others are served meanwhile */
	CHECK(!strcmp(ask("getLogSize 0"), "65536"));
	/* then it reads: every reply comes, in order, whole */
	for (;;) {
		ssize_t n = get_reply(fd, buf, sizeof(buf));

		if (n < 0)
			break;
		if (strcmp(buf, "15\n~! ~1000/!\n\f"))
			break;
		got++;
		if (got * sizeof(cmd) == sent)
			break;
	}
	CHECK(got * sizeof(cmd) == sent);
	close(fd);
	bed_down();
}

/* --- the program --- */

static bool wait_for(const char *path)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 500; i++) {
		if (!access(path, F_OK))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* `nslogd --reinit --socket-dir DIR`'s exit status, its stderr dropped. */
static int run_reinit(const char *exe, const char *dir)
{
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 2);
		execl(exe, "nslogd", "--reinit", "--socket-dir", dir,
		      (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_nslogd_serves_control(void)
{
	const char *bin = getenv("NSLOG_BIN");
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct timeval tv = { 5, 0 };
	char exe[256], dir[64], errf[128], path[160], out[4096] = "";
	char buf[256];
	int keep[4], status, fd, r;
	size_t n = 0;
	unsigned int i;
	pid_t pid;
	FILE *f;

	if (!bin)
		SKIP("$NSLOG_BIN not set");
	snprintf(exe, sizeof(exe), "%s/nslogd", bin);
	REQUIRE(!access(exe, X_OK));
	snprintf(dir, sizeof(dir), "/tmp/nslogd_ctl.XXXXXX");
	REQUIRE(mkdtemp(dir));
	for (i = 0; i < 4; i++)
		keep[i] = fakedev_fifo(dir, node_names[i]);
	snprintf(errf, sizeof(errf), "%s/stderr", dir);

	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		unsetenv("ANDROID_SOCKET_logd");
		unsetenv("ANDROID_SOCKET_logdr");
		unsetenv("ANDROID_SOCKET_logdw");
		/* No property service: a host that has one keeps its own. */
		execl(exe, "nslogd", "--socket-dir", dir, "--dev-dir", dir,
		      "--property-socket", "", (char *)NULL);
		_exit(127);
	}
	snprintf(path, sizeof(path), "%s/logdw", dir);
	CHECK(wait_for(path));

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	REQUIRE(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/logd", dir);
	CHECK(!connect(fd, (struct sockaddr *)&sun, sizeof(sun)));
	/* two commands in one write; a FIFO has no ioctls: busy */
	CHECK(send(fd, "getPruneList\0getLogSize 0", 26, 0) == 26);
	while (n < sizeof(buf)) {
		r = (int)recv(fd, buf + n, sizeof(buf) - n, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n >= 5 && !memcmp(buf + n - 5, "busy", 5))
			break;
	}
	CHECK(n == 16 + 5 && !memcmp(buf, "15\n~! ~1000/!\n\f\0busy", 21));
	close(fd);

	/* logd.rc's logd-reinit: a client of the running daemon; root has
	 * log credentials, anyone else gets Permission Denied: 1 */
	CHECK(run_reinit(exe, dir) == (geteuid() ? 1 : 0));

	kill(pid, SIGTERM);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* nobody on the socket now */
	CHECK(run_reinit(exe, dir) == 1);
	f = fopen(errf, "r");
	REQUIRE(f);
	r = (int)fread(out, 1, sizeof(out) - 1, f);
	fclose(f);
	out[r > 0 ? r : 0] = '\0';
	CHECK(strstr(out, "nslogd: control accepted 2 commands 3 unrecognized 0 "
			  "oversized 0 evicted 0 open 0\n"));
	if (tap_failed_now)
		printf("# nslogd's stderr:\n%s", out);
	for (i = 0; i < 4; i++)
		close(keep[i]);
	unlink(errf);
	fakedev_remove(dir, node_names, 4);
}

static const struct tap_case cases[] = {
	{ "reply: the length prefix counts its own digits",
	  test_reply_frame_counts_its_own_digits },
	{ "reply: bounded", test_reply_is_bounded },
	{ "getLogSize: the ring's size", test_get_log_size_asks_the_ring },
	{ "getLogSizeUsed, getLogSizeReadable: a fresh reader's length",
	  test_get_log_size_used_and_readable_use_a_fresh_reader },
	{ "sizes and clear: argument errors", test_size_argument_errors },
	{ "setLogSize: clamped to what the host allows, the real size read",
	  test_set_log_size_clamps_to_what_the_host_allows },
	{ "setLogSize: log credentials, and nslogd's own",
	  test_set_log_size_privilege },
	{ "clear: a flush, with log credentials only",
	  test_clear_flushes_with_privilege_only },
	{ "streams: answered as empty, made by setLogSize",
	  test_streams_answered_and_made_by_set_log_size },
	{ "getStatistics: counted from the records up to the head",
	  test_statistics_counts_records_at_request_time },
	{ "getStatistics: the caller's uid unless privileged, pid=, ids",
	  test_statistics_filters_by_uid_and_pid },
	{ "prune list: entry forms", test_prune_entry_forms },
	{ "prune list: kept and shown, logd's default again on reinit",
	  test_prune_list_kept_and_shown },
	{ "getEventTag: the file's tags, reinit reads it again",
	  test_event_tag_looks_up_the_file },
	{ "exit: success, then the connection closed",
	  test_exit_replies_then_closes },
	{ "unknown verbs and garbage: logd's reply, the connection kept",
	  test_unknown_verbs_and_garbage },
	{ "oversized: logd's reply, closed, nothing buffered beyond the limit",
	  test_oversized_command_refused_and_closed },
	{ "a command across reads, several in one",
	  test_command_split_across_reads },
	{ "many connections; the longest idle makes room",
	  test_many_connections },
	{ "a client that does not read stalls nobody",
	  test_client_that_does_not_read_stalls_nobody },
	{ "nslogd: the static program answers on logd, and --reinit asks it",
	  test_nslogd_serves_control },
};

int main(int argc, char **argv)
{
	return tap_run(cases, ARRAY_SIZE(cases), argc, argv);
}
