// SPDX-License-Identifier: GPL-2.0
/*
 * nslogd_test: nslogd's writer half on the host.
 *
 * The logdw datagram checks with every bad input class, the log
 * credential check, the ANDROID_SOCKET_ variables, the sockets made in a
 * temporary directory (paths, types, modes), the store (its ioctl played by
 * a stand-in that records each struct nslog_relay, the nodes by fakedev.h's
 * FIFOs, which have no ioctls), the drain of a real datagram socket with
 * SCM_CREDENTIALS, and the static nslogd itself ($NSLOG_BIN/nslogd) run
 * against a socket directory of its own. The reader half (logdr) has its
 * own test, nslogd_reader_test.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#include "nslogd/dgram.h"
#include "nslogd/klog.h"
#include "nslogd/logcred.h"
#include "nslogd/sockets.h"
#include "nslogd/stats.h"
#include "nslogd/store.h"
#include "nslogd/streams.h"
#include "nslogd/writer.h"
#include "fakedev.h"
#include "tap.h"
#include "tmpdir.h"

static const char *const node_names[] = { "main", "radio", "events", "system" };

/* A datagram: header with @id, tid, sec, nsec, then @plen payload bytes. */
static size_t mkdgram(unsigned char *buf, unsigned int id, uint16_t tid,
		      uint32_t sec, uint32_t nsec, const void *payload,
		      size_t plen)
{
	buf[0] = (unsigned char)id;
	memcpy(buf + 1, &tid, 2);
	memcpy(buf + 3, &sec, 4);
	memcpy(buf + 7, &nsec, 4);
	if (plen)
		memcpy(buf + NSLOGD_HDR_SIZE, payload, plen);
	return NSLOGD_HDR_SIZE + plen;
}

static bool cred_yes(const struct ucred *c) { (void)c; return true; }
static bool cred_no(const struct ucred *c) { (void)c; return false; }


/* --- dgram --- */

static void test_dgram_parses_header_and_credentials(void)
{
	static const unsigned char text[] = "\4tag\0message";
	unsigned char buf[NSLOGD_MAX_DGRAM];
	struct ucred cred = { .pid = 1234, .uid = 10057, .gid = 10057 };
	struct nslogd_record rec;
	size_t n = mkdgram(buf, NSLOGD_LOG_SYSTEM, 0xbeef, 1700000000u,
			   999999999u, text, sizeof(text));

	REQUIRE(nslogd_dgram_parse(buf, n, false, &cred, cred_no, &rec) ==
		NSLOGD_DGRAM_OK);
	CHECK(rec.log_id == NSLOGD_LOG_SYSTEM);
	CHECK(rec.tid == 0xbeef);
	CHECK(rec.sec == 1700000000u);
	CHECK(rec.nsec == 999999999u);
	CHECK(rec.pid == 1234 && rec.uid == 10057 && rec.gid == 10057);
	CHECK(rec.len == sizeof(text));
	CHECK(rec.payload == buf + NSLOGD_HDR_SIZE);
	CHECK(!memcmp(rec.payload, text, sizeof(text)));
}

static void test_dgram_takes_the_largest_payload(void)
{
	static unsigned char payload[NSLOGD_MAX_PAYLOAD];
	unsigned char buf[NSLOGD_MAX_DGRAM];
	struct ucred cred = { .pid = 1, .uid = 0, .gid = 0 };
	struct nslogd_record rec;
	size_t n;

	memset(payload, 'x', sizeof(payload));
	n = mkdgram(buf, NSLOGD_LOG_MAIN, 1, 2, 3, payload, sizeof(payload));
	REQUIRE(n == NSLOGD_MAX_DGRAM);
	REQUIRE(nslogd_dgram_parse(buf, n, false, &cred, cred_no, &rec) ==
		NSLOGD_DGRAM_OK);
	CHECK(rec.len == NSLOGD_MAX_PAYLOAD);
}

/* Every class of bad input, and the accepted ones next to each. */
static void test_dgram_refuses_every_bad_class(void)
{
	static const struct {
		const char *what;
		int id;			/* -1: no header at all */
		size_t plen;		/* payload bytes */
		size_t total;		/* if not 0: the datagram's length */
		bool truncated;
		int cred;		/* 0 none, 1 app, 2 pid 0, 3 uid logd */
		nslogd_logcred_fn *logcred;
		enum nslogd_verdict want;
	} cases[] = {
		{ "0 bytes", -1, 0, 0, false, 1, cred_no, NSLOGD_DGRAM_SHORT },
		{ "1 byte", 0, 0, 1, false, 1, cred_no, NSLOGD_DGRAM_SHORT },
		{ "10 bytes", 0, 0, 10, false, 1, cred_no, NSLOGD_DGRAM_SHORT },
		{ "short without credentials", 0, 0, 5, false, 0, cred_no,
		  NSLOGD_DGRAM_SHORT },
		{ "header alone", 0, 0, 0, false, 1, cred_no, NSLOGD_DGRAM_EMPTY },
		{ "one payload byte", 0, 1, 0, false, 1, cred_no, NSLOGD_DGRAM_OK },
		{ "cut by the buffer", 0, NSLOGD_MAX_PAYLOAD, 0, true, 1, cred_no,
		  NSLOGD_DGRAM_OVERSIZED },
		{ "longer than the maximum", 0, 0, NSLOGD_MAX_DGRAM + 1, false, 1,
		  cred_no, NSLOGD_DGRAM_OVERSIZED },
		{ "no credentials", 0, 4, 0, false, 0, cred_yes,
		  NSLOGD_DGRAM_NO_CRED },
		{ "pid 0", 0, 4, 0, false, 2, cred_yes, NSLOGD_DGRAM_NO_CRED },
		{ "uid logd", 0, 4, 0, false, 3, cred_yes, NSLOGD_DGRAM_LOGD_UID },
		{ "id 8", 8, 4, 0, false, 1, cred_yes, NSLOGD_DGRAM_BAD_ID },
		{ "id 255", 255, 4, 0, false, 1, cred_yes, NSLOGD_DGRAM_BAD_ID },
		{ "id 7 (kernel)", 7, 4, 0, false, 1, cred_yes,
		  NSLOGD_DGRAM_KERNEL_ID },
		{ "id 7 from root", 7, 4, 0, false, 4, cred_yes,
		  NSLOGD_DGRAM_KERNEL_ID },
		{ "security without log credentials", 6, 8, 0, false, 1, cred_no,
		  NSLOGD_DGRAM_SECURITY },
		{ "security with log credentials", 6, 8, 0, false, 1, cred_yes,
		  NSLOGD_DGRAM_OK },
		{ "events of 3 bytes", 2, 3, 0, false, 1, cred_no,
		  NSLOGD_DGRAM_BINARY_SHORT },
		{ "stats of 1 byte", 5, 1, 0, false, 1, cred_no,
		  NSLOGD_DGRAM_BINARY_SHORT },
		{ "security of 3 bytes", 6, 3, 0, false, 1, cred_yes,
		  NSLOGD_DGRAM_BINARY_SHORT },
		{ "events of 4 bytes", 2, 4, 0, false, 1, cred_no, NSLOGD_DGRAM_OK },
		{ "text of 1 byte in radio", 1, 1, 0, false, 1, cred_no,
		  NSLOGD_DGRAM_OK },
		{ "crash", 4, 10, 0, false, 1, cred_no, NSLOGD_DGRAM_OK },
	};
	static unsigned char buf[NSLOGD_MAX_DGRAM + 16], payload[NSLOGD_MAX_PAYLOAD];
	const struct ucred creds[] = {
		{ 0 },
		{ .pid = 4321, .uid = 10100, .gid = 10100 },
		{ .pid = 0, .uid = 10100, .gid = 10100 },
		{ .pid = 4321, .uid = NSLOGD_AID_LOGD, .gid = NSLOGD_AID_LOGD },
		{ .pid = 1, .uid = 0, .gid = 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct nslogd_record rec;
		enum nslogd_verdict v;
		size_t n;

		memset(buf, 0, sizeof(buf));
		n = mkdgram(buf, cases[i].id < 0 ? 0 : (unsigned int)cases[i].id,
			    7, 8, 9, payload, cases[i].plen);
		if (cases[i].id < 0 || cases[i].total)
			n = cases[i].total;
		v = nslogd_dgram_parse(buf, n, cases[i].truncated,
				       cases[i].cred ? &creds[cases[i].cred] : NULL,
				       cases[i].logcred, &rec);
		if (v != cases[i].want) {
			printf("#   %s: got %s, want %s\n", cases[i].what,
			       nslogd_verdict_name(v),
			       nslogd_verdict_name(cases[i].want));
			tap_failed_now = 1;
		}
	}
}

/* --- logcred --- */

static void test_logcred_reads_groups_line(void)
{
	CHECK(nslogd_logcred_groups("Name:\tx\nGroups:\t3003 1007 9997 \nNgid:\t0\n",
				    1007));
	CHECK(nslogd_logcred_groups("Groups:\t1007\n", 1007));
	CHECK(!nslogd_logcred_groups("Groups:\t10070 3003\n", 1007));
	CHECK(!nslogd_logcred_groups("Groups:\t\nNgid:\t1007\n", 1007));
	CHECK(!nslogd_logcred_groups("Name:\tGroups: 1007\n", 1007));
	CHECK(!nslogd_logcred_groups("", 1007));
}

static void test_logcred_uid_gid_and_status(void)
{
	char dir[64], path[128];
	struct ucred app = { .pid = 77, .uid = 10001, .gid = 10001 };
	struct ucred sys = { .pid = 78, .uid = 1000, .gid = 1000 };
	struct ucred loggid = { .pid = 79, .uid = 10002, .gid = 1007 };
	FILE *f;

	REQUIRE(tmpdir_make(dir, sizeof(dir), "nslogd_test"));
	nslogd_logcred_set_proc(dir);
	CHECK(!nslogd_logcred(&app));		/* no status: uid alone */
	CHECK(nslogd_logcred(&sys));
	CHECK(nslogd_logcred(&loggid));
	snprintf(path, sizeof(path), "%s/77", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/77/status", dir);
	f = fopen(path, "w");
	REQUIRE(f);
	fputs("Name:\tapp\nUid:\t10001\nGroups:\t3003 1007\n", f);
	fclose(f);
	CHECK(nslogd_logcred(&app));
	nslogd_logcred_set_proc("/proc");
	tmpdir_remove(dir);
}

/* --- sockets --- */

static void test_sock_env_fd_takes_what_init_writes(void)
{
	CHECK(nslogd_sock_env_fd("5") == 5);
	CHECK(nslogd_sock_env_fd("0") == 0);
	CHECK(nslogd_sock_env_fd("1023") == 1023);
	CHECK(nslogd_sock_env_fd("2147483647") == INT_MAX);
	CHECK(nslogd_sock_env_fd("2147483648") == -1);
	CHECK(nslogd_sock_env_fd("99999999999999999999") == -1);
	CHECK(nslogd_sock_env_fd(NULL) == -1);
	CHECK(nslogd_sock_env_fd("") == -1);
	CHECK(nslogd_sock_env_fd("05") == -1);
	CHECK(nslogd_sock_env_fd("-1") == -1);
	CHECK(nslogd_sock_env_fd("+5") == -1);
	CHECK(nslogd_sock_env_fd(" 5") == -1);
	CHECK(nslogd_sock_env_fd("5 ") == -1);
	CHECK(nslogd_sock_env_fd("5x") == -1);
}

static void setenv_fd(const char *name, int fd)
{
	char v[16];

	snprintf(v, sizeof(v), "%d", fd);
	setenv(name, v, 1);
}

static bool has_flags(int fd, bool passcred)
{
	int on = 0;
	socklen_t len = sizeof(on);

	if (!(fcntl(fd, F_GETFD) & FD_CLOEXEC) ||
	    !(fcntl(fd, F_GETFL) & O_NONBLOCK))
		return false;
	if (!passcred)
		return true;
	return !getsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, &len) && on;
}

static void test_sock_from_env_checks_fd(void)
{
	int sv[2], pfd[2], st, fd;
	char dir[64];
	struct sockaddr_un sun = { .sun_family = AF_UNIX };

	unsetenv("ANDROID_SOCKET_logdw");
	CHECK(nslogd_sock_from_env(NSLOGD_SOCK_LOGDW) == -ENOENT);

	REQUIRE(!socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
	setenv_fd("ANDROID_SOCKET_logdw", sv[0]);
	CHECK(nslogd_sock_from_env(NSLOGD_SOCK_LOGDW) == sv[0]);
	CHECK(has_flags(sv[0], true));

	setenv("ANDROID_SOCKET_logdw", "x", 1);
	CHECK(nslogd_sock_from_env(NSLOGD_SOCK_LOGDW) == -EINVAL);

	REQUIRE(!pipe(pfd));
	setenv_fd("ANDROID_SOCKET_logdw", pfd[0]);
	CHECK(nslogd_sock_from_env(NSLOGD_SOCK_LOGDW) == -ENOTSOCK);
	close(pfd[0]);
	close(pfd[1]);
	CHECK(nslogd_sock_from_env(NSLOGD_SOCK_LOGDW) == -EBADF);

	/* a stream socket where a datagram socket belongs, and back */
	REQUIRE(tmpdir_make(dir, sizeof(dir), "nslogd_test"));
	st = socket(AF_UNIX, SOCK_STREAM, 0);
	REQUIRE(st >= 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/ctl", dir);
	REQUIRE(!bind(st, (struct sockaddr *)&sun, sizeof(sun)));
	setenv_fd("ANDROID_SOCKET_logdw", st);
	CHECK(nslogd_sock_from_env(NSLOGD_SOCK_LOGDW) == -EPROTOTYPE);
	setenv_fd("ANDROID_SOCKET_logdr", st);
	CHECK(nslogd_sock_from_env(NSLOGD_SOCK_LOGDR) == -EPROTOTYPE);
	/* bound, not listening, as init leaves it: nslogd listens */
	setenv_fd("ANDROID_SOCKET_logd", st);
	fd = nslogd_sock_from_env(NSLOGD_SOCK_LOGD);
	CHECK(fd == st);
	{
		int acc = 0;
		socklen_t len = sizeof(acc);

		CHECK(!getsockopt(st, SOL_SOCKET, SO_ACCEPTCONN, &acc, &len) &&
		      acc);
	}
	CHECK(has_flags(st, false));

	unsetenv("ANDROID_SOCKET_logd");
	unsetenv("ANDROID_SOCKET_logdr");
	unsetenv("ANDROID_SOCKET_logdw");
	close(st);
	close(sv[0]);
	close(sv[1]);
	tmpdir_remove(dir);
}

static void test_sock_make_paths_types_modes(void)
{
	static const int want_type[] = { SOCK_STREAM, SOCK_SEQPACKET, SOCK_DGRAM };
	static const mode_t want_mode[] = { 0666, 0666, 0222 };
	static const char *const want_name[] = { "logd", "logdr", "logdw" };
	char dir[64], path[128];
	mode_t old = umask(077);	/* the modes are logd's whatever the umask */
	int i;

	REQUIRE(tmpdir_make(dir, sizeof(dir), "nslogd_test"));
	for (i = 0; i < NSLOGD_SOCKS; i++) {
		struct stat st;
		int fd, type = -1, acc = -1;
		socklen_t len = sizeof(int);
		bool inherited = true;

		fd = nslogd_sock_open(i, dir, &inherited);
		CHECK(fd >= 0);
		if (fd < 0)
			continue;
		CHECK(!inherited);
		snprintf(path, sizeof(path), "%s/%s", dir, want_name[i]);
		CHECK(!lstat(path, &st) && S_ISSOCK(st.st_mode));
		if ((st.st_mode & 07777) != want_mode[i]) {
			printf("#   %s: mode %o, want %o\n", path,
			       st.st_mode & 07777, want_mode[i]);
			tap_failed_now = 1;
		}
		CHECK(!getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) &&
		      type == want_type[i]);
		len = sizeof(int);
		CHECK(!getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &acc, &len));
		CHECK(acc == (i != NSLOGD_SOCK_LOGDW));
		CHECK(has_flags(fd, i == NSLOGD_SOCK_LOGDW));
		close(fd);
	}
	umask(old);

	/* a stale socket file is replaced; any other file is not */
	{
		bool inh;
		int fd = nslogd_sock_make(NSLOGD_SOCK_LOGDW, dir);
		struct stat st;

		CHECK(fd >= 0);
		close(fd);
		snprintf(path, sizeof(path), "%s/logdr", dir);
		unlink(path);
		close(open(path, O_CREAT | O_WRONLY, 0600));
		CHECK(nslogd_sock_open(NSLOGD_SOCK_LOGDR, dir, &inh) == -EEXIST);
		CHECK(!lstat(path, &st) && S_ISREG(st.st_mode));
	}
	/* too long for sun_path */
	{
		char longdir[200];

		memset(longdir, 'd', sizeof(longdir) - 1);
		longdir[sizeof(longdir) - 1] = '\0';
		longdir[0] = '/';
		CHECK(nslogd_sock_make(NSLOGD_SOCK_LOGD, longdir) == -ENAMETOOLONG);
	}
	tmpdir_remove(dir);
}

static void test_sock_open_prefers_init(void)
{
	char dir[64], path[128];
	int sv[2];
	bool inherited = false;

	REQUIRE(tmpdir_make(dir, sizeof(dir), "nslogd_test"));
	REQUIRE(!socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
	setenv_fd("ANDROID_SOCKET_logdw", sv[0]);
	CHECK(nslogd_sock_open(NSLOGD_SOCK_LOGDW, dir, &inherited) == sv[0]);
	CHECK(inherited);
	snprintf(path, sizeof(path), "%s/logdw", dir);
	CHECK(access(path, F_OK) && errno == ENOENT);
	/* set but unusable: an error, not a socket of nslogd's own */
	setenv("ANDROID_SOCKET_logdw", "nope", 1);
	CHECK(nslogd_sock_open(NSLOGD_SOCK_LOGDW, dir, &inherited) == -EINVAL);
	CHECK(access(path, F_OK) && errno == ENOENT);
	unsetenv("ANDROID_SOCKET_logdw");
	close(sv[0]);
	close(sv[1]);
	tmpdir_remove(dir);
}

static void test_sock_accept_close_ends_clients(void)
{
	char dir[64];
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int lfd, c[3], i;
	char b;

	REQUIRE(tmpdir_make(dir, sizeof(dir), "nslogd_test"));
	lfd = nslogd_sock_make(NSLOGD_SOCK_LOGDR, dir);
	REQUIRE(lfd >= 0);
	CHECK(nslogd_sock_accept_close(lfd) == 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/logdr", dir);
	for (i = 0; i < 3; i++) {
		c[i] = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		REQUIRE(c[i] >= 0);
		REQUIRE(!connect(c[i], (struct sockaddr *)&sun, sizeof(sun)));
	}
	CHECK(nslogd_sock_accept_close(lfd) == 3);
	for (i = 0; i < 3; i++) {
		CHECK(recv(c[i], &b, 1, 0) == 0);	/* end of file */
		close(c[i]);
	}
	close(lfd);
	tmpdir_remove(dir);
}

/* --- store, with the ioctl played by fake_relay() --- */

#define FAKE_MAX	1024
static struct {
	unsigned int calls;
	int ret;			/* what to return: 0 = the length */
	int fd[FAKE_MAX];
	struct nslog_relay r[FAKE_MAX];
	unsigned char first[FAKE_MAX];	/* the payload's first byte */
	size_t bytes;
} fake;

static int fake_relay(int fd, const struct nslog_relay *r)
{
	unsigned int i = fake.calls++;

	if (i < FAKE_MAX) {
		fake.fd[i] = fd;
		fake.r[i] = *r;
		fake.first[i] = *(const unsigned char *)(uintptr_t)r->payload;
	}
	fake.bytes += r->len;
	return fake.ret ? fake.ret : (int)r->len;
}

static void fake_reset(int ret)
{
	memset(&fake, 0, sizeof(fake));
	fake.ret = ret;
}

/* fakedev.h's FIFOs as the nodes: opened for writing as a log would be. */
static bool make_nodes(char *dir, size_t size, int *keep, unsigned int mask)
{
	unsigned int i;

	if (!tmpdir_make(dir, size, "nslogd_test"))
		return false;
	for (i = 0; i < 4; i++) {
		keep[i] = -1;
		if ((mask & (1u << i)) &&
		    (keep[i] = fakedev_fifo(dir, node_names[i])) < 0)
			return false;
	}
	return true;
}

static void drop_nodes(const char *dir, int *keep)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (keep[i] >= 0)
			close(keep[i]);
	fakedev_remove(dir, node_names, 4);
}

static bool same_file(int fd, const char *dir, const char *name)
{
	char path[128];
	struct stat a, b;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !fstat(fd, &a) && !stat(path, &b) && a.st_ino == b.st_ino &&
	       a.st_dev == b.st_dev;
}

static struct nslogd_record mkrec(unsigned int id, const char *payload)
{
	struct nslogd_record rec = {
		.log_id = id, .tid = 0xfffe, .sec = 4000000000u,
		.nsec = 123456789, .pid = 4242, .uid = 10123, .gid = 10123,
		.payload = (const unsigned char *)payload,
		.len = strlen(payload) + 1,
	};

	return rec;
}

static void test_store_relays_logs_0_to_3(void)
{
	char dir[64];
	int keep[4], err;
	struct nslogd_store s;
	unsigned int i;

	REQUIRE(make_nodes(dir, sizeof(dir), keep, 0xf));
	fake_reset(0);
	nslogd_store_init(&s, dir, fake_relay, NULL);
	CHECK(nslogd_store_open(&s, 0) == 4);
	for (i = 0; i < 4; i++) {
		struct nslogd_record rec = mkrec(i, "\4tag\0hello");

		CHECK(nslogd_store_put(&s, &rec, 0, &err) == NSLOGD_STORE_STORED);
		CHECK(err == 0);
	}
	REQUIRE(fake.calls == 4);
	for (i = 0; i < 4; i++) {
		const struct nslog_relay *r = &fake.r[i];

		CHECK(same_file(fake.fd[i], dir, node_names[i]));
		CHECK(r->pid == 4242 && r->uid == 10123);
		CHECK(r->tid == 0xfffe);
		CHECK(r->log_id == i);
		CHECK(r->time_ns == 4000000000LL * 1000000000LL + 123456789);
		CHECK(r->flags == NSLOG_RELAY_KEEP_EXITED);
		CHECK(r->len == 5);	/* strlen("\4tag") + 1 */
		CHECK(fake.first[i] == 4);
		CHECK(!r->__reserved[0] && !r->__reserved[1]);
	}
	nslogd_store_close(&s);
	drop_nodes(dir, keep);
}

/*
 * Streams: a directory of the test's stands in for the view of the set's
 * nslogfs (regular files for streams), and fake_ringctl() for the sizing
 * ioctls, with a host that allows 64 KiB (ns_max_size's default).
 */
static struct {
	unsigned int set_calls;		/* NSLOG_IOC_SET_SIZE */
	uint32_t asked[32];
	uint32_t max;			/* -EFBIG above */
	uint32_t size;			/* the last size taken */
} ring;

static long fake_ringctl(int fd, unsigned long req, void *arg)
{
	(void)fd;
	if (req == NSLOG_IOC_SET_SIZE) {
		uint32_t want = *(uint32_t *)arg;

		if (ring.set_calls < 32)
			ring.asked[ring.set_calls] = want;
		ring.set_calls++;
		if (want > ring.max)
			return -EFBIG;
		ring.size = want;
		return 0;
	}
	if (req == LOGGER_GET_LOG_BUF_SIZE)
		return ring.size;
	return -ENOTTY;
}

static void ring_reset(uint32_t max)
{
	memset(&ring, 0, sizeof(ring));
	ring.max = max;
	ring.size = 8192;
}

/* @dir (made) as the view, in @st. */
static bool make_view(char *dir, size_t size, struct nslogd_streams *st)
{
	int fd;

	if (!tmpdir_make(dir, size, "nslogd_view"))
		return false;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	nslogd_streams_init(st, fd, NSLOGD_VIEW_MOUNT, fake_ringctl);
	return true;
}

static mode_t file_mode(const char *dir, const char *name)
{
	char path[128];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &sb) ? (mode_t)-1 : sb.st_mode & 07777;
}

static void test_store_relays_4_to_6_into_streams(void)
{
	static const char *const names[] = { "crash", "stats", "security" };
	char dir[64], vdir[64];
	int keep[4], err;
	struct nslogd_store s;
	struct nslogd_streams st;
	struct nslogd_stats sts = { 0 };
	mode_t um = umask(022);
	unsigned int i;

	REQUIRE(make_nodes(dir, sizeof(dir), keep, 0xf));
	REQUIRE(make_view(vdir, sizeof(vdir), &st));
	fake_reset(0);
	ring_reset(64 << 10);
	nslogd_store_init(&s, dir, fake_relay, &st);
	nslogd_store_open(&s, 0);
	/* Nothing is made before its first record. */
	CHECK(file_mode(vdir, "crash") == (mode_t)-1);
	for (i = NSLOGD_LOG_CRASH; i <= NSLOGD_LOG_SECURITY; i++) {
		struct nslogd_record rec = mkrec(i, "\4tag\0hello");
		enum nslogd_store_result r = nslogd_store_put(&s, &rec, 0, &err);

		CHECK(r == NSLOGD_STORE_STORED && err == 0);
		nslogd_stats_result(&sts, i, r, err);
	}
	REQUIRE(fake.calls == 3);
	for (i = 0; i < 3; i++) {
		const struct nslog_relay *r = &fake.r[i];

		CHECK(same_file(fake.fd[i], vdir, names[i]));
		CHECK(file_mode(vdir, names[i]) == NSLOGD_STREAM_MODE);
		CHECK(r->log_id == 0);
		CHECK(r->flags == (NSLOG_RELAY_KEEP_EXITED | NSLOG_RELAY_FILE_LOG));
		CHECK(r->pid == 4242 && r->uid == 10123 && r->tid == 0xfffe);
		CHECK(r->len == 5 && fake.first[i] == 4);
	}
	CHECK(st.made == 0x70);
	/* Each sized as logd sizes it, halved until the host allows it. */
	CHECK(ring.set_calls == 9);
	for (i = 0; i < 9; i += 3)
		CHECK(ring.asked[i] == NSLOGD_STREAM_SIZE &&
		      ring.asked[i + 1] == NSLOGD_STREAM_SIZE / 2 &&
		      ring.asked[i + 2] == 64 << 10);
	CHECK(sts.stored[4] == 1 && sts.stored[5] == 1 && sts.stored[6] == 1);
	/* A second record: the same fd, nothing made or sized again. */
	{
		struct nslogd_record rec = mkrec(NSLOGD_LOG_STATS, "abcd");

		CHECK(nslogd_store_put(&s, &rec, 1, &err) == NSLOGD_STORE_STORED);
		CHECK(fake.calls == 4 && fake.fd[3] == fake.fd[1]);
		CHECK(ring.set_calls == 9);
	}
	/* Main is a node still, with Android's id and no flag but one. */
	{
		struct nslogd_record rec = mkrec(NSLOGD_LOG_MAIN, "\4t\0m");

		CHECK(nslogd_store_put(&s, &rec, 1, &err) == NSLOGD_STORE_STORED);
		CHECK(same_file(fake.fd[4], dir, "main"));
		CHECK(fake.r[4].flags == NSLOG_RELAY_KEEP_EXITED);
	}
	nslogd_store_close(&s);
	nslogd_streams_close(&st);
	umask(um);
	tmpdir_remove(vdir);
	drop_nodes(dir, keep);
}

static void test_store_opens_streams_again_after_a_restart(void)
{
	char dir[64], vdir[64], path[128];
	int keep[4], err, fd;
	struct nslogd_store s;
	struct nslogd_streams st;
	struct nslogd_record rec = mkrec(NSLOGD_LOG_CRASH, "\6tag\0boom");

	REQUIRE(make_nodes(dir, sizeof(dir), keep, 0xf));
	REQUIRE(make_view(vdir, sizeof(vdir), &st));
	/* What an earlier nslogd made, and sized as setLogSize asked. */
	snprintf(path, sizeof(path), "%s/crash", vdir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	REQUIRE(fd >= 0);
	close(fd);
	fake_reset(0);
	ring_reset(64 << 10);
	nslogd_store_init(&s, dir, fake_relay, &st);
	CHECK(nslogd_store_put(&s, &rec, 0, &err) == NSLOGD_STORE_STORED);
	CHECK(fake.calls == 1 && same_file(fake.fd[0], vdir, "crash"));
	CHECK(ring.set_calls == 0);	/* opened, not made or sized */
	CHECK(st.made == 0);
	nslogd_store_close(&s);
	nslogd_streams_close(&st);
	tmpdir_remove(vdir);
	drop_nodes(dir, keep);
}

static void test_store_makes_a_removed_stream_again(void)
{
	char dir[64], vdir[64], path[128];
	int keep[4], err;
	struct nslogd_store s;
	struct nslogd_streams st;
	struct nslogd_record rec = mkrec(NSLOGD_LOG_CRASH, "\6tag\0boom");
	const int64_t t0 = 5000000000LL;

	REQUIRE(make_nodes(dir, sizeof(dir), keep, 0xf));
	REQUIRE(make_view(vdir, sizeof(vdir), &st));
	fake_reset(0);
	ring_reset(1u << 20);
	nslogd_store_init(&s, dir, fake_relay, &st);
	CHECK(nslogd_store_put(&s, &rec, t0, &err) == NSLOGD_STORE_STORED);
	CHECK(ring.set_calls == 1);
	snprintf(path, sizeof(path), "%s/crash", vdir);
	REQUIRE(!unlink(path));
	/* Within the second: the fd held is used, not looked at. */
	CHECK(nslogd_store_put(&s, &rec, t0 + NSLOGD_STORE_RETRY_NS - 1, &err) ==
	      NSLOGD_STORE_STORED);
	CHECK(fake.fd[1] == fake.fd[0] && access(path, F_OK));
	/* Then the name leads nowhere: made again, and the new one used. */
	CHECK(nslogd_store_put(&s, &rec, t0 + NSLOGD_STORE_RETRY_NS, &err) ==
	      NSLOGD_STORE_STORED);
	CHECK(!access(path, F_OK) && same_file(fake.fd[2], vdir, "crash"));
	CHECK(ring.set_calls == 2);
	nslogd_store_close(&s);
	nslogd_streams_close(&st);
	tmpdir_remove(vdir);
	drop_nodes(dir, keep);
}

static void test_store_without_streams_counts_no_log(void)
{
	char dir[64];
	int keep[4], err;
	struct nslogd_store s;
	struct nslogd_streams none;
	struct nslogd_stats sts = { 0 };
	unsigned int i;

	REQUIRE(make_nodes(dir, sizeof(dir), keep, 0xf));
	nslogd_streams_init(&none, -1, NSLOGD_VIEW_NONE, fake_ringctl);
	none.err = EPERM;	/* the mount was refused */
	fake_reset(0);
	nslogd_store_init(&s, dir, fake_relay, &none);
	nslogd_store_open(&s, 0);
	for (i = NSLOGD_LOG_CRASH; i <= NSLOGD_LOG_SECURITY; i++) {
		struct nslogd_record rec = mkrec(i, "abcdefgh");
		enum nslogd_store_result r = nslogd_store_put(&s, &rec, 0, &err);

		CHECK(r == NSLOGD_STORE_NO_LOG && err == EPERM);
		nslogd_stats_result(&sts, i, r, err);
	}
	CHECK(fake.calls == 0);	/* never into main or any other log */
	CHECK(sts.result[NSLOGD_STORE_NO_LOG] == 3);
	CHECK(sts.unstored[4] == 1 && sts.unstored[5] == 1 &&
	      sts.unstored[6] == 1);
	CHECK(sts.result[NSLOGD_STORE_STORED] == 0);
	nslogd_store_close(&s);

	/* No streams at all: the same, with ENODEV. */
	nslogd_store_init(&s, dir, fake_relay, NULL);
	{
		struct nslogd_record rec = mkrec(NSLOGD_LOG_STATS, "abcd");

		CHECK(nslogd_store_put(&s, &rec, 0, &err) == NSLOGD_STORE_NO_LOG);
		CHECK(err == ENODEV && fake.calls == 0);
	}
	nslogd_store_close(&s);
	drop_nodes(dir, keep);
}

static void test_store_refuses_streams_on_a_kernel_without_the_flag(void)
{
	char dir[64], vdir[64];
	int keep[4], err;
	struct nslogd_store s;
	struct nslogd_streams st;
	struct nslogd_stats sts = { 0 };
	struct nslogd_record crash = mkrec(NSLOGD_LOG_CRASH, "\6t\0m");
	struct nslogd_record stats = mkrec(NSLOGD_LOG_STATS, "abcd");
	struct nslogd_record mainr = mkrec(NSLOGD_LOG_MAIN, "\4t\0m");
	enum nslogd_store_result r;

	REQUIRE(make_nodes(dir, sizeof(dir), keep, 0xf));
	REQUIRE(make_view(vdir, sizeof(vdir), &st));
	ring_reset(1u << 20);
	fake_reset(-EINVAL);	/* an unknown flag, to an older module */
	nslogd_store_init(&s, dir, fake_relay, &st);
	r = nslogd_store_put(&s, &crash, 0, &err);
	CHECK(r == NSLOGD_STORE_NO_FILE_LOG);
	nslogd_stats_result(&sts, NSLOGD_LOG_CRASH, r, err);
	CHECK(s.no_file_log && fake.calls == 1);
	/* From then on not even tried, and nothing goes to main instead. */
	r = nslogd_store_put(&s, &stats, 0, &err);
	CHECK(r == NSLOGD_STORE_NO_FILE_LOG && fake.calls == 1);
	nslogd_stats_result(&sts, NSLOGD_LOG_STATS, r, err);
	CHECK(sts.result[NSLOGD_STORE_NO_FILE_LOG] == 2);
	CHECK(sts.unstored[4] == 1 && sts.unstored[5] == 1);
	/* The four logs are as before. */
	fake_reset(0);
	CHECK(nslogd_store_put(&s, &mainr, 0, &err) == NSLOGD_STORE_STORED);
	/* EINVAL from a node is an error like any other. */
	fake_reset(-EINVAL);
	CHECK(nslogd_store_put(&s, &mainr, 0, &err) == NSLOGD_STORE_FAILED);
	CHECK(err == EINVAL);
	nslogd_store_close(&s);
	nslogd_streams_close(&st);
	tmpdir_remove(vdir);
	drop_nodes(dir, keep);
}

/* --- streams: who may make them, and the kernel log --- */

static void test_streams_may_make_by_mode(void)
{
	static const gid_t groups[] = { 1007, 3009 };
	const struct nslogd_who logd = { 1036, 1036, 2, groups };
	static const struct {
		uid_t uid;
		gid_t gid;
		mode_t mode;
		bool may;
	} t[] = {
		{ 1036, 0, 0755, true },	/* nslogd's own mount: uid= */
		{ 0, 0, 0755, false },		/* root's /dev/log nslogfs */
		{ 1036, 0, 0555, false },
		{ 0, 1007, 0775, true },	/* the log group's */
		{ 0, 1007, 0755, false },
		{ 0, 1036, 0775, true },	/* its gid */
		{ 0, 0, 0777, true },
		{ 0, 0, 0773, true },		/* others: write and search */
		{ 0, 0, 0771, false },
		{ 1036, 1007, 0075, false },	/* the owner's bits decide */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct stat sb = { .st_uid = t[i].uid, .st_gid = t[i].gid,
				   .st_mode = S_IFDIR | t[i].mode };

		if (nslogd_streams_may_make(&sb, &logd) != t[i].may) {
			printf("#   case %u: %u:%u %04o\n", i, t[i].uid, t[i].gid,
			       t[i].mode);
			tap_failed_now = 1;
		}
	}
	CHECK(!strcmp(nslogd_stream_name(4), "crash"));
	CHECK(!strcmp(nslogd_stream_name(7), "kernel"));
	CHECK(!nslogd_stream_name(3) && !nslogd_stream_name(8));
}

/* The kernel stream's bytes, records [prio][tag\0][text\0] in a row. */
static size_t read_kernel(const char *vdir, char *buf, size_t size)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/kernel", vdir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, size);
	close(fd);
	return n < 0 ? 0 : (size_t)n;
}

/* The text of the @i-th record in @buf, or NULL. */
static const char *kernel_text(const char *buf, size_t n, unsigned int i,
			       int *prio)
{
	size_t off = 0;

	for (;;) {
		const char *tag = buf + off + 1, *text;

		if (off + 1 >= n)
			return NULL;
		text = tag + strlen(tag) + 1;
		if (!i--) {
			*prio = buf[off];
			return strcmp(tag, "nslogd") ? "?" : text;
		}
		off = (size_t)(text + strlen(text) + 1 - buf);
	}
}

static void test_klog_tells_start_and_counts_once_a_second(void)
{
	char vdir[64], buf[4096];
	struct nslogd_streams st;
	struct nslogd_klog k;
	struct nslogd_stats sts = { 0 };
	const int64_t t0 = 7000000000LL;
	const char *t;
	size_t n;
	int prio;

	REQUIRE(make_view(vdir, sizeof(vdir), &st));
	ring_reset(1u << 20);
	nslogd_klog_init(&k, &st);
	CHECK(nslogd_klog_tick(&k, &sts, t0) == -1);	/* nothing to tell */
	nslogd_klog_say(&k, NSLOGD_PRIO_INFO, t0, "nslogd %s started", "9.9");
	CHECK(file_mode(vdir, "kernel") == NSLOGD_STREAM_MODE);
	CHECK(st.made == 1u << 7 && ring.set_calls == 1);

	/* Refusals and drops: told at once, the first time. */
	nslogd_stats_refused(&sts, NSLOGD_DGRAM_SHORT, 1);
	nslogd_stats_refused(&sts, NSLOGD_DGRAM_SHORT, 1);
	nslogd_stats_refused(&sts, NSLOGD_DGRAM_KERNEL_ID, 1);
	nslogd_stats_refused(&sts, NSLOGD_DGRAM_OK, 1);
	nslogd_stats_result(&sts, 0, NSLOGD_STORE_DROPPED, 0);
	CHECK(nslogd_klog_tick(&k, &sts, t0 + 1) == -1);
	/* More within the second: held, the wait returned. */
	nslogd_stats_refused(&sts, NSLOGD_DGRAM_BAD_ID, 1);
	CHECK(nslogd_klog_tick(&k, &sts, t0 + 500000000LL) ==
	      NSLOGD_KLOG_GAP_NS - 500000000LL + 1);
	CHECK(nslogd_klog_tick(&k, &sts, t0 + 1 + NSLOGD_KLOG_GAP_NS) == -1);
	CHECK(nslogd_klog_tick(&k, &sts, t0 + 5 * NSLOGD_KLOG_GAP_NS) == -1);
	CHECK(k.lines == 3 && k.unwritten == 0);

	n = read_kernel(vdir, buf, sizeof(buf));
	t = kernel_text(buf, n, 0, &prio);
	CHECK(t && !strcmp(t, "nslogd 9.9 started") && prio == NSLOGD_PRIO_INFO);
	t = kernel_text(buf, n, 1, &prio);
	if (t && strcmp(t, "since the last report: refused 3 datagrams (short 2, kernel-id 1), dropped 1 record (rate limits)"))
		printf("#   got \"%s\"\n", t);
	CHECK(t && !strcmp(t, "since the last report: refused 3 datagrams (short 2, kernel-id 1), dropped 1 record (rate limits)") &&
	      prio == NSLOGD_PRIO_WARN);
	t = kernel_text(buf, n, 2, &prio);
	CHECK(t && !strcmp(t, "since the last report: refused 1 datagram (bad-id 1)"));
	CHECK(!kernel_text(buf, n, 3, &prio));
	nslogd_klog_close(&k);

	/* Nowhere to write: counted, nothing else. */
	nslogd_klog_init(&k, NULL);
	nslogd_klog_say(&k, NSLOGD_PRIO_INFO, t0, "lost");
	CHECK(k.unwritten == 1 && k.lines == 0);
	nslogd_streams_close(&st);
	tmpdir_remove(vdir);
}

static void test_store_maps_kernel_errors(void)
{
	char dir[64];
	int keep[4], err;
	struct nslogd_store s;
	struct nslogd_record rec = mkrec(0, "\4t\0m");

	REQUIRE(make_nodes(dir, sizeof(dir), keep, 0xf));
	nslogd_store_init(&s, dir, fake_relay, NULL);
	nslogd_store_open(&s, 0);
	fake_reset(-EAGAIN);
	CHECK(nslogd_store_put(&s, &rec, 0, &err) == NSLOGD_STORE_DROPPED);
	fake_reset(-EPERM);
	CHECK(nslogd_store_put(&s, &rec, 0, &err) == NSLOGD_STORE_FAILED);
	CHECK(err == EPERM);
	fake_reset(-EOVERFLOW);
	CHECK(nslogd_store_put(&s, &rec, 0, &err) == NSLOGD_STORE_FAILED);
	CHECK(err == EOVERFLOW);
	nslogd_store_close(&s);
	drop_nodes(dir, keep);
}

static void test_store_retries_a_missing_node_once_a_second(void)
{
	char dir[64];
	int keep[4], err;
	struct nslogd_store s;
	struct nslogd_record rec = mkrec(NSLOGD_LOG_RADIO, "\4t\0m");
	const int64_t t0 = 5000000000LL;

	REQUIRE(make_nodes(dir, sizeof(dir), keep, 0xd));	/* no radio */
	fake_reset(0);
	nslogd_store_init(&s, dir, fake_relay, NULL);
	CHECK(nslogd_store_open(&s, t0) == 3);
	CHECK(s.open_errno[NSLOGD_LOG_RADIO] == ENOENT);
	CHECK(nslogd_store_put(&s, &rec, t0, &err) == NSLOGD_STORE_NO_LOG);
	CHECK(err == ENOENT);
	keep[1] = fakedev_fifo(dir, "radio");
	REQUIRE(keep[1] >= 0);
	CHECK(nslogd_store_put(&s, &rec, t0 + NSLOGD_STORE_RETRY_NS - 1, &err) ==
	      NSLOGD_STORE_NO_LOG);
	CHECK(fake.calls == 0);
	CHECK(nslogd_store_put(&s, &rec, t0 + NSLOGD_STORE_RETRY_NS, &err) ==
	      NSLOGD_STORE_STORED);
	CHECK(fake.calls == 1 && same_file(fake.fd[0], dir, "radio"));
	nslogd_store_close(&s);
	drop_nodes(dir, keep);
}

/* --- writer: a real datagram socket, credentials from the kernel --- */

static int open_fds(void)
{
	char path[64];
	int n = 0, fd;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (!access(path, F_OK))
			n++;
	}
	return n;
}

static void send_fd(int sock, const void *buf, size_t n, int fd)
{
	union {
		struct cmsghdr align;
		char b[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = n };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.b, .msg_controllen = sizeof(ctl.b),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	/* The padding after the descriptor is sent too. */
	memset(&ctl, 0, sizeof(ctl));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(sock, &m, 0) != (ssize_t)n)
		printf("# sendmsg: %s\n", strerror(errno));
}

static struct nslogd_writer wr;

static void test_writer_drains_batches_with_credentials(void)
{
	static unsigned char big[NSLOGD_MAX_DGRAM + 100];
	unsigned char buf[NSLOGD_MAX_DGRAM];
	char dir[64];
	int keep[4], sv[2], one = 1, i, got, fds_before;
	struct nslogd_store s;
	struct nslogd_stats st = { 0 };
	size_t n;

	REQUIRE(make_nodes(dir, sizeof(dir), keep, 0xf));
	fake_reset(0);
	nslogd_store_init(&s, dir, fake_relay, NULL);
	nslogd_store_open(&s, 0);
	REQUIRE(!socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
	REQUIRE(!setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)));
	REQUIRE(!fcntl(sv[0], F_SETFL, O_NONBLOCK));
	nslogd_writer_init(&wr, sv[0], cred_no);
	fds_before = open_fds();

	/* 40 good records over the four logs, a tid each */
	for (i = 0; i < 40; i++) {
		char text[32];
		int tl = snprintf(text, sizeof(text), "%c%s", 4, "tag") + 1;

		tl += snprintf(text + tl, sizeof(text) - tl, "m%d", i) + 1;
		n = mkdgram(buf, i % 4, (uint16_t)i, 100, 200, text, tl);
		REQUIRE(send(sv[1], buf, n, MSG_DONTWAIT) == (ssize_t)n);
	}
	/* one of each bad kind the socket can carry */
	REQUIRE(send(sv[1], buf, 0, MSG_DONTWAIT) == 0);			/* empty */
	REQUIRE(send(sv[1], buf, 5, MSG_DONTWAIT) == 5);			/* short */
	n = mkdgram(buf, 0, 1, 2, 3, NULL, 0);
	REQUIRE(send(sv[1], buf, n, MSG_DONTWAIT) == (ssize_t)n);		/* header alone */
	mkdgram(big, 0, 1, 2, 3, NULL, 0);
	REQUIRE(send(sv[1], big, sizeof(big), MSG_DONTWAIT) == (ssize_t)sizeof(big));
	n = mkdgram(buf, 7, 1, 2, 3, "\4k\0m", 5);
	REQUIRE(send(sv[1], buf, n, MSG_DONTWAIT) == (ssize_t)n);		/* kernel */
	n = mkdgram(buf, 9, 1, 2, 3, "\4k\0m", 5);
	REQUIRE(send(sv[1], buf, n, MSG_DONTWAIT) == (ssize_t)n);		/* bad id */
	n = mkdgram(buf, 6, 1, 2, 3, "\1\2\3\4\5", 5);
	REQUIRE(send(sv[1], buf, n, MSG_DONTWAIT) == (ssize_t)n);		/* security */
	n = mkdgram(buf, 4, 1, 2, 3, "\4k\0m", 5);
	REQUIRE(send(sv[1], buf, n, MSG_DONTWAIT) == (ssize_t)n);		/* crash */
	/* a good record carrying an fd */
	n = mkdgram(buf, 0, 41, 2, 3, "\4k\0fd", 6);
	send_fd(sv[1], buf, n, 1);

	got = nslogd_writer_drain(&wr, &s, &st, 0);
	CHECK(got == 49);
	CHECK(nslogd_writer_drain(&wr, &s, &st, 0) == 0);
	CHECK(st.received == 49);
	CHECK(st.refused[NSLOGD_DGRAM_OK] == 42);
	CHECK(st.refused[NSLOGD_DGRAM_SHORT] == 2);
	CHECK(st.refused[NSLOGD_DGRAM_EMPTY] == 1);
	CHECK(st.refused[NSLOGD_DGRAM_OVERSIZED] == 1);
	CHECK(st.refused[NSLOGD_DGRAM_KERNEL_ID] == 1);
	CHECK(st.refused[NSLOGD_DGRAM_BAD_ID] == 1);
	CHECK(st.refused[NSLOGD_DGRAM_SECURITY] == 1);
	CHECK(st.result[NSLOGD_STORE_STORED] == 41);
	CHECK(st.stored[0] == 11 && st.stored[1] == 10 && st.stored[2] == 10 &&
	      st.stored[3] == 10);
	/* no streams here: crash is refused, counted, never put in main */
	CHECK(st.unstored[NSLOGD_LOG_CRASH] == 1);
	CHECK(st.result[NSLOGD_STORE_NO_LOG] == 1);
	CHECK(st.fds_closed == 1);
	CHECK(open_fds() == fds_before);
	REQUIRE(fake.calls == 41);
	for (i = 0; i < 40; i++) {
		CHECK(fake.r[i].pid == getpid());
		CHECK(fake.r[i].uid == getuid());
		CHECK(fake.r[i].tid == i);
		CHECK(fake.r[i].log_id == (unsigned int)i % 4);
		CHECK(fake.r[i].time_ns == 100LL * 1000000000LL + 200);
		CHECK(same_file(fake.fd[i], dir, node_names[i % 4]));
	}

	/*
	 * More than one wake-up's worth: the rest waits for the next one.
	 * Two batches a wake here, as the default's 512 datagrams would not
	 * fit the sender's socket buffer.
	 */
	fake_reset(0);
	wr.batches_per_wake = 2;
	for (i = 0; i < NSLOGD_BATCH * 2 + 7; i++) {
		n = mkdgram(buf, 0, 1, 2, 3, "\4t\0m", 5);
		REQUIRE(send(sv[1], buf, n, MSG_DONTWAIT) == (ssize_t)n);
	}
	CHECK(nslogd_writer_drain(&wr, &s, &st, 0) == NSLOGD_BATCH * 2);
	CHECK(nslogd_writer_drain(&wr, &s, &st, 0) == 7);
	CHECK(fake.calls == NSLOGD_BATCH * 2 + 7);

	/* the kernel's rate limit: counted as dropped, not as failed */
	fake_reset(-EAGAIN);
	n = mkdgram(buf, 2, 1, 2, 3, "\1\0\0\0\0\1\0\0\0", 9);
	REQUIRE(send(sv[1], buf, n, MSG_DONTWAIT) == (ssize_t)n);
	CHECK(nslogd_writer_drain(&wr, &s, &st, 0) == 1);
	CHECK(st.result[NSLOGD_STORE_DROPPED] == 1);
	CHECK(st.result[NSLOGD_STORE_FAILED] == 0);

	close(sv[0]);
	close(sv[1]);
	nslogd_store_close(&s);
	drop_nodes(dir, keep);
}

static void test_writer_refuses_datagram_without_credentials(void)
{
	unsigned char buf[64];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct nslogd_store s;
	struct nslogd_stats st = { 0 };
	size_t n = mkdgram(buf, 0, 1, 2, 3, "\4t\0m", 5);

	fake_reset(0);
	nslogd_store_init(&s, "/nonexistent", fake_relay, NULL);
	nslogd_writer_init(&wr, -1, cred_yes);
	nslogd_writer_take(&wr, &m, n, &s, &st, 0);
	CHECK(st.refused[NSLOGD_DGRAM_NO_CRED] == 1);
	CHECK(fake.calls == 0);
}

/* --- stats --- */

#define CHECK_LINE(got, want) do {					\
	if (strcmp((got), (want))) {					\
		printf("#   got  \"%s\"\n#   want \"%s\"\n", (got), (want)); \
		tap_failed_now = 1;					\
	}								\
} while (0)

static void test_stats_line(void)
{
	struct nslogd_stats st = { 0 };
	char line[1024];
	size_t n;

	st.received = 20;
	st.refused[NSLOGD_DGRAM_OK] = 12;
	st.refused[NSLOGD_DGRAM_SHORT] = 3;
	st.refused[NSLOGD_DGRAM_KERNEL_ID] = 5;
	st.result[NSLOGD_STORE_STORED] = 9;
	st.stored[0] = 6;
	st.stored[3] = 3;
	st.stored[4] = 2;
	st.result[NSLOGD_STORE_DROPPED] = 1;
	st.result[NSLOGD_STORE_NO_FILE_LOG] = 2;
	st.unstored[6] = 2;
	st.conns_closed[1] = 4;
	n = nslogd_stats_format(&st, line, sizeof(line));
	CHECK(n == strlen(line));
	CHECK_LINE(line,
		"received 20 accepted 12 stored 9 (main 6 radio 0 events 0 system 3 crash 2 stats 0 security 0) dropped 1 no-log 0 failed 0 no-file-log 2 refused 8 (short 3 empty 0 oversized 0 no-credentials 0 logd-uid 0 bad-id 0 kernel-id 5 security-denied 0 binary-short 0) fds-closed 0 logd-closed 0 logdr-closed 4");
	/* cut to the buffer, the length still the whole line's */
	CHECK(nslogd_stats_format(&st, line, 10) == n && strlen(line) == 9);
}

/* --- the static nslogd itself --- */

static bool wait_for(const char *path)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 500; i++) {	/* 5 s at most */
		if (!access(path, F_OK))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

static void test_nslogd_runs_serves_and_stops(void)
{
	const char *bin = getenv("NSLOG_BIN");
	char exe[256], dir[64], sdir[96], ddir[96], path[160], errf[128];
	char out[4096] = "";
	unsigned char buf[64];
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int keep[4] = { -1, -1, -1, -1 }, w, r, status, fd;
	pid_t pid;
	size_t n;
	FILE *f;
	unsigned int i;

	if (!bin)
		SKIP("$NSLOG_BIN not set");
	snprintf(exe, sizeof(exe), "%s/nslogd", bin);
	REQUIRE(!access(exe, X_OK));
	REQUIRE(tmpdir_make(dir, sizeof(dir), "nslogd_test"));
	snprintf(sdir, sizeof(sdir), "%s/socket", dir);
	snprintf(ddir, sizeof(ddir), "%s/dev", dir);
	REQUIRE(!mkdir(sdir, 0755) && !mkdir(ddir, 0755));
	for (i = 0; i < 4; i++)
		keep[i] = fakedev_fifo(ddir, node_names[i]);
	snprintf(errf, sizeof(errf), "%s/stderr", dir);

	/* logdw from "init", logd and logdr made by nslogd */
	w = socket(AF_UNIX, SOCK_DGRAM, 0);
	REQUIRE(w >= 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/init-logdw", dir);
	REQUIRE(!bind(w, (struct sockaddr *)&sun, sizeof(sun)));

	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		char v[16];

		fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		snprintf(v, sizeof(v), "%d", w);
		setenv("ANDROID_SOCKET_logdw", v, 1);
		unsetenv("ANDROID_SOCKET_logd");
		unsetenv("ANDROID_SOCKET_logdr");
		/* No property service: a host that has one keeps its own. */
		execl(exe, "nslogd", "--socket-dir", sdir, "--dev-dir", ddir,
		      "--property-socket", "", (char *)NULL);
		_exit(127);
	}
	snprintf(path, sizeof(path), "%s/logdr", sdir);
	CHECK(wait_for(path));
	snprintf(path, sizeof(path), "%s/logdw", sdir);
	CHECK(access(path, F_OK));	/* init's was taken, none made */

	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	REQUIRE(fd >= 0);
	n = mkdgram(buf, 0, 1, 2, 3, "\4tag\0m", 7);
	CHECK(sendto(fd, buf, n, 0, (struct sockaddr *)&sun, sizeof(sun)) ==
	      (ssize_t)n);
	CHECK(sendto(fd, buf, 3, 0, (struct sockaddr *)&sun, sizeof(sun)) == 3);
	n = mkdgram(buf, 7, 1, 2, 3, "\4tag\0m", 7);
	CHECK(sendto(fd, buf, n, 0, (struct sockaddr *)&sun, sizeof(sun)) ==
	      (ssize_t)n);
	close(fd);

	/*
	 * Readers: a dump of FIFOs, which take no LOGGER_SET_VERSION, is
	 * empty and ends; garbage is closed. End of file, not a hang.
	 * (nslogd_reader_test.c serves records.)
	 */
	for (i = 0; i < 2; i++) {
		static const char *const cmd[] = { "dumpAndClose lids=0,3",
						   "garbage" };
		struct timeval tv = { 5, 0 };

		fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/logdr", sdir);
		CHECK(!connect(fd, (struct sockaddr *)&sun, sizeof(sun)));
		CHECK(send(fd, cmd[i], strlen(cmd[i]), 0) ==
		      (ssize_t)strlen(cmd[i]));
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		CHECK(recv(fd, buf, sizeof(buf), 0) == 0);
		close(fd);
	}

	kill(pid, SIGTERM);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	snprintf(path, sizeof(path), "%s/logdr", sdir);
	CHECK(access(path, F_OK) && errno == ENOENT);	/* its own removed */

	f = fopen(errf, "r");
	REQUIRE(f);
	r = (int)fread(out, 1, sizeof(out) - 1, f);
	fclose(f);
	out[r > 0 ? r : 0] = '\0';
	/* a FIFO has no ioctls: the one good record fails with ENOTTY */
	CHECK(strstr(out, "nslogd: received 3 accepted 1 stored 0 "));
	CHECK(strstr(out, " failed 1 no-file-log 0 refused 2 (short 1 "));
	/* A plain directory of nodes: a mount of its own, or none. */
	CHECK(strstr(out, "nslogd: streams: "));
	CHECK(strstr(out, " kernel-id 1 "));
	CHECK(strstr(out, "nslogd: logdr: accepted 2 full 0 garbage 1 "));
	CHECK(strstr(out, " dumps 1 sent 0 "));
	CHECK(strstr(out, " open-failed 2\n"));
	if (tap_failed_now)
		printf("# nslogd's stderr:\n%s", out);

	close(w);
	drop_nodes(ddir, keep);
	tmpdir_remove(dir);
}

static const struct tap_case cases[] = {
	{ "dgram: parses the header and the credentials",
	  test_dgram_parses_header_and_credentials },
	{ "dgram: takes the largest payload", test_dgram_takes_the_largest_payload },
	{ "dgram: refuses every bad class", test_dgram_refuses_every_bad_class },
	{ "logcred: reads the Groups line", test_logcred_reads_groups_line },
	{ "logcred: uid, gid, then /proc status",
	  test_logcred_uid_gid_and_status },
	{ "sockets: ANDROID_SOCKET_ values", test_sock_env_fd_takes_what_init_writes },
	{ "sockets: init's fd checked and set up", test_sock_from_env_checks_fd },
	{ "sockets: made with logd's paths, types and modes",
	  test_sock_make_paths_types_modes },
	{ "sockets: init's socket preferred", test_sock_open_prefers_init },
	{ "sockets: logd and logdr clients closed",
	  test_sock_accept_close_ends_clients },
	{ "store: logs 0 to 3 through the relay", test_store_relays_logs_0_to_3 },
	{ "store: crash, stats, security into streams made on first use",
	  test_store_relays_4_to_6_into_streams },
	{ "store: streams opened again after a restart, not made",
	  test_store_opens_streams_again_after_a_restart },
	{ "store: a removed stream made again",
	  test_store_makes_a_removed_stream_again },
	{ "store: no streams, crash, stats and security counted as no-log",
	  test_store_without_streams_counts_no_log },
	{ "store: a kernel without NSLOG_RELAY_FILE_LOG",
	  test_store_refuses_streams_on_a_kernel_without_the_flag },
	{ "streams: who may make them, their names",
	  test_streams_may_make_by_mode },
	{ "klog: the start, then the counts at most once a second",
	  test_klog_tells_start_and_counts_once_a_second },
	{ "store: kernel errors", test_store_maps_kernel_errors },
	{ "store: a missing node retried once a second",
	  test_store_retries_a_missing_node_once_a_second },
	{ "writer: batches with credentials, every bad datagram counted",
	  test_writer_drains_batches_with_credentials },
	{ "writer: no credentials refused",
	  test_writer_refuses_datagram_without_credentials },
	{ "stats: the line", test_stats_line },
	{ "nslogd: the static program runs, serves and stops",
	  test_nslogd_runs_serves_and_stops },
};

int main(int argc, char **argv)
{
	return tap_run(cases, ARRAY_SIZE(cases), argc, argv);
}
