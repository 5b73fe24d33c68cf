// SPDX-License-Identifier: GPL-2.0
/*
 * fifo_test: nslogcat end to end, against FIFOs in packet mode standing in
 * for the devices.
 *
 * A FIFO whose writer set O_DIRECT returns one write() per read(), and
 * -EAGAIN when empty and opened O_NONBLOCK, and poll()s readable when a
 * packet is queued: the read side of a logger device, without ioctls.
 * This test plays the kernel: it writes whole records (header + payload)
 * into the FIFOs, runs nslogcat on them and compares its output exactly.
 *
 * Needs $NSLOG_BIN (the directory of nslogcat); $VALGRIND wraps nslogcat.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/nslogger.h>
#include "tap.h"

#define TIMEOUT_MS	20000

static char dir[64];
static int fd_main = -1, fd_system = -1, fd_events = -1;

struct child {
	pid_t pid;
	int out;		/* read end of its stdout */
	char buf[16384];
	size_t len;
	int status;
};

static int fifo_open(const char *name)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (mkfifo(path, 0600))
		return -1;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fcntl(fd, F_SETFL, O_DIRECT))
		return -1;
	return fd;
}

static void put(int fd, int version, int pid, uint32_t sec, int nsec,
		uint32_t euid, const void *payload, size_t len)
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

static void put_text(int fd, int version, uint32_t sec, int prio,
		     const char *tag, const char *msg)
{
	unsigned char p[1024];
	size_t t = strlen(tag) + 1, m = strlen(msg) + 1;

	p[0] = (unsigned char)prio;
	memcpy(p + 1, tag, t);
	memcpy(p + 1 + t, msg, m);
	put(fd, version, 100 + prio, sec, 250000000, 1000, p, 1 + t + m);
}

static void put_event(int fd, uint32_t sec, int32_t tag, int32_t v)
{
	unsigned char p[16];

	memcpy(p, &tag, 4);
	p[4] = 0;		/* INT */
	memcpy(p + 5, &v, 4);
	put(fd, 1, 42, sec, 0, 0, p, 9);
}

/* Start "$VALGRIND nslogcat --dev-dir DIR ARGS" with stdout on a pipe. */
static int spawn(struct child *c, const char *args)
{
	const char *bin = getenv("NSLOG_BIN");
	const char *vg = getenv("VALGRIND");
	char cmd[1024];
	int p[2];

	snprintf(cmd, sizeof(cmd), "exec %s %s/nslogcat --dev-dir %s %s 2>%s/err",
		 vg ? vg : "", bin ? bin : ".", dir, args, dir);
	if (pipe2(p, O_CLOEXEC))
		return -1;
	c->len = 0;
	c->pid = fork();
	if (c->pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	c->out = p[0];
	return c->pid < 0 ? -1 : 0;
}

/* Read the child's output until @want appears (NULL: until EOF). */
static bool collect(struct child *c, const char *want)
{
	struct pollfd pfd = { .fd = c->out, .events = POLLIN };
	ssize_t n;

	for (;;) {
		c->buf[c->len] = '\0';
		if (want && strstr(c->buf, want))
			return true;
		if (poll(&pfd, 1, TIMEOUT_MS) <= 0)
			return false;
		n = read(c->out, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
		if (n <= 0)
			return !want;
		c->len += (size_t)n;
	}
}

static void finish(struct child *c)
{
	if (!collect(c, NULL))
		kill(c->pid, SIGKILL);
	close(c->out);
	waitpid(c->pid, &c->status, 0);
}

static void read_err(char *buf, size_t size)
{
	char path[128];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/err", dir);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/* Run nslogcat to completion; check exit status 0 and the output. */
static void expect_run(const char *what, const char *args, const char *want)
{
	struct child c;
	char err[1024];

	if (spawn(&c, args)) {
		tap_ok(false, what);
		return;
	}
	finish(&c);
	read_err(err, sizeof(err));
	if (tap_str(what, c.buf, want) &&
	    !(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0)) {
		tap_failed++;
		tap_passed--;
		printf("#   exit status %#x, stderr: %s\n", c.status, err);
	}
}

static void fill_main_system(void)
{
	put_text(fd_main, 1, 1700000001, 4, "m", "main one");
	put_text(fd_system, 1, 1700000002, 5, "s", "system one\nsecond line");
	put_text(fd_main, 1, 1700000003, 6, "m", "main two");
	put_text(fd_system, 1, 1700000004, 3, "s", "system two");
}

static void test_dump(void)
{
	char want[2048];

	fill_main_system();
	snprintf(want, sizeof(want),
		 "--------- beginning of main\n"
		 "11-14 22:13:21.250   104   105 I m       : main one\n"
		 "--------- beginning of system\n"
		 "11-14 22:13:22.250   105   106 W s       : system one\n"
		 "11-14 22:13:22.250   105   106 W s       : second line\n"
		 "11-14 22:13:23.250   106   107 E m       : main two\n"
		 "11-14 22:13:24.250   103   104 D s       : system two\n");
	expect_run("dump: default buffers main and system merged, threadtime by default",
		   "-d", want);

	expect_run("dump: the buffers are empty afterwards (readers consumed)",
		   "-d", "");

	fill_main_system();
	expect_run("tail: -t 2 prints the last two records and exits",
		   "-t 2 -v brief",
		   "--------- beginning of main\n"
		   "E/m       (  106): main two\n"
		   "--------- beginning of system\n"
		   "D/s       (  103): system two\n");

	fill_main_system();
	expect_run("filter: -s s:W with one buffer has no header", "-d -b system -v tag -s s:W",
		   "W/s       : system one\nW/s       : second line\n");
	expect_run("filter: main was not read by the last run", "-d -b main -v raw",
		   "main one\nmain two\n");
}

static void test_events_long(void)
{
	char want[1024];

	put_event(fd_events, 1700000005, 2718, -5);
	put_event(fd_events, 1700000006, 2719, 7);
	expect_run("events: decoded, threadtime, no tag map: [NUMBER]",
		   "-d -b events --event-tags /dev/null",
		   "11-14 22:13:25.000    42    43 I [2718]  : -5\n"
		   "11-14 22:13:26.000    42    43 I [2719]  : 7\n");

	put_text(fd_main, 2, 1700000007, 4, "v2", "hello");
	snprintf(want, sizeof(want),
		 "[ 11-14 22:13:27.250  1000:  104:  105 I/v2       ]\nhello\n\n");
	expect_run("long: a version 2 header shows the euid", "-d -b main -v long",
		   want);
}

static void test_json(void)
{
	put_text(fd_main, 1, 1700000008, 6, "j", "say \"hi\"\nbye");
	put_event(fd_events, 1700000009, 7, 8);
	expect_run("json: -v json,UTC merges main and events, a JSON line each",
		   "-d -b main -b events -v json,UTC",
		   "{\"type\":\"record\",\"time\":\"2023-11-14T22:13:28.250000000Z\","
		   "\"log\":\"main\",\"priority\":6,\"level\":\"err\",\"tag\":\"j\","
		   "\"message\":\"say \\\"hi\\\"\\nbye\",\"pid\":106,\"tid\":107}\n"
		   "{\"type\":\"record\",\"time\":\"2023-11-14T22:13:29.000000000Z\","
		   "\"log\":\"events\",\"priority\":4,\"level\":\"info\",\"tag\":\"[7]\","
		   "\"event_tag\":7,\"message\":\"8\",\"pid\":42,\"tid\":43}\n");

	put_text(fd_main, 1, 1700000010, 4, "u", "x");
	expect_run("modifiers: -v threadtime -v year,usec,zone,uid (no euid: blank)",
		   "-d -b main -v threadtime -v year,usec,zone,uid",
		   "2023-11-14 22:13:30.250000 +0000         104   105 I u       : x\n");
}

static void test_binary(void)
{
	unsigned char want[64];
	struct child c;
	size_t n;

	put_text(fd_main, 1, 7, 4, "b", "x");
	n = 28 + 5;
	memset(want, 0, sizeof(want));
	want[0] = 5;		/* len */
	want[2] = 28;		/* hdr_size: Android's version 4 */
	want[4] = 104;		/* pid */
	want[8] = 105;		/* tid */
	want[12] = 7;		/* sec */
	memcpy(want + 16, "\x80\xb2\xe6\x0e", 4);	/* 250000000 */
	want[20] = 0;		/* lid: main */
	memset(want + 24, 0xff, 4);	/* uid: a version 1 header has none */
	memcpy(want + 28, "\4b\0x", 5);
	if (spawn(&c, "-d -B -b main")) {
		tap_ok(false, "binary: spawn");
		return;
	}
	finish(&c);
	tap_mem("binary: -B writes version 4 records, as logcat -B", c.buf,
		c.len, want, n);
}

static void test_follow(void)
{
	char err[1024];
	struct child c;
	bool ok;

	put_text(fd_main, 1, 1700000010, 4, "f", "before");
	if (spawn(&c, "-v raw -b main")) {
		tap_ok(false, "follow: spawn");
		return;
	}
	ok = collect(&c, "before\n");
	tap_ok(ok, "follow: prints what is there");
	put_text(fd_main, 1, 1700000011, 4, "f", "after");
	ok = collect(&c, "after\n");
	tap_ok(ok, "follow: waits in poll() and prints a later record");

	close(fd_main);		/* the "device" goes away: read() gives 0 */
	fd_main = -1;
	finish(&c);
	read_err(err, sizeof(err));
	tap_ok(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 1 &&
	       strstr(err, "/main: unexpected end of file"),
	       "follow: end of file is an error, exit status 1");
	if (!ok)
		printf("#   output: %s\n#   stderr: %s\n", c.buf, err);
}

static void cleanup(void)
{
	static const char *const names[] = { "main", "system", "events", "err" };
	char path[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	setenv("TZ", "UTC0", 1);
	unsetenv("ANDROID_LOG_TAGS");
	unsetenv("ANDROID_PRINTF_LOG");
	signal(SIGPIPE, SIG_IGN);
	snprintf(dir, sizeof(dir), "/tmp/nslog_fifo.XXXXXX");
	if (!tap_ok(mkdtemp(dir), "make a fake device directory"))
		return tap_done();
	fd_main = fifo_open("main");
	fd_system = fifo_open("system");
	fd_events = fifo_open("events");
	if (!tap_ok(fd_main >= 0 && fd_system >= 0 && fd_events >= 0,
		    "packet-mode FIFOs for main, system and events")) {
		cleanup();
		return tap_done();
	}
	test_dump();
	test_events_long();
	test_json();
	test_binary();
	test_follow();
	cleanup();
	return tap_done();
}
