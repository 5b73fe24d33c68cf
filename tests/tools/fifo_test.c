// SPDX-License-Identifier: GPL-2.0
/*
 * fifo_test: nslogcat end to end, against FIFOs in packet mode standing in
 * for the devices.
 *
 * The FIFOs are fakedev.h's: this test plays the kernel, writing whole
 * records (header + payload) into them, runs nslogcat on them and
 * compares its output exactly.
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
#include <time.h>
#include <unistd.h>

#include <linux/nslogger.h>
#include "fakedev.h"
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

static void put_text(int fd, int version, uint32_t sec, int prio,
		     const char *tag, const char *msg)
{
	unsigned char p[1024];
	size_t t = strlen(tag) + 1, m = strlen(msg) + 1;

	p[0] = (unsigned char)prio;
	memcpy(p + 1, tag, t);
	memcpy(p + 1 + t, msg, m);
	fakedev_put(fd, version, 100 + prio, sec, 250000000, 1000, p,
		    1 + t + m);
}

static void put_event(int fd, uint32_t sec, int32_t tag, int32_t v)
{
	unsigned char p[16];

	memcpy(p, &tag, 4);
	p[4] = 0;		/* INT */
	memcpy(p + 5, &v, 4);
	fakedev_put(fd, 1, 42, sec, 0, 0, p, 9);
}

/*
 * A main record of nslogger's 0x4e54 header, seq @seq, message "SEQ", tag
 * "r", INFO, of pid 5, tid 6, euid 1005 at 1700000000 s + @seq ns; with
 * NSLOG_ENTRY_RELAYED in @flags, stored by relay 77 2 s later.
 */
static void put_relayed(int fd, unsigned int seq, __u32 flags)
{
	struct nslog_entry2 h = {
		.pid = 5, .tid = 6, .euid = 1005, .seq = seq,
		.order = seq * 10, .time_ns = 1700000000000000000LL + seq,
		.flags = flags,
		.relay_pid = flags & NSLOG_ENTRY_RELAYED ? 77 : 0,
		.stored_ns = 1700000000000000000LL + seq +
			     (flags & NSLOG_ENTRY_RELAYED ? 2000000000 : 0),
	};
	unsigned char p[32];
	size_t n = (size_t)snprintf((char *)p + 3, sizeof(p) - 3, "%u", seq);

	memcpy(p, "\4r", 3);
	fakedev_put_ns(fd, sizeof(h), &h, p, 3 + n + 1);
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


/* Run nslogcat to completion; check its status, output and stderr. */
static void expect_status(const char *what, const char *args, int status,
			  const char *want, const char *err_has)
{
	struct child c;
	char err[2048];
	bool ok;

	if (spawn(&c, args)) {
		tap_ok(false, what);
		return;
	}
	finish(&c);
	read_err(err, sizeof(err));
	ok = WIFEXITED(c.status) && WEXITSTATUS(c.status) == status &&
	     !strcmp(c.buf, want) && (!err_has || strstr(err, err_has));
	if (!tap_ok(ok, what)) {
		printf("#   exit status %#x, want %d\n", c.status, status);
		tap_escaped("got: ", c.buf, c.len);
		tap_escaped("want:", want, strlen(want));
		printf("#   stderr: %s\n", err);
	}
}

static void fill_main_system(void);

/*
 * Empty the FIFOs.  Unlike a device, whose every reader starts at the
 * oldest record, a FIFO gives each record to one reader only, and
 * nslogcat reads a record ahead in each buffer: what -m leaves unprinted
 * may be gone or not.
 */
static void drain(void)
{
	struct child c;

	if (!spawn(&c, "-d -b main,system,events -B"))
		finish(&c);
}

static void test_lists(void)
{
	fill_main_system();
	expect_run("-b: a comma list, -v a list of a layout and a modifier",
		   "-d -b main,system -v brief,year",
		   "--------- beginning of main\n"
		   "I/m       (  104): main one\n"
		   "--------- beginning of system\n"
		   "W/s       (  105): system one\n"
		   "W/s       (  105): second line\n"
		   "E/m       (  106): main two\n"
		   "D/s       (  103): system two\n");
	fill_main_system();
	expect_run("-b default is main and system; -v time,year",
		   "-d --buffer=default --format=time,year",
		   "--------- beginning of main\n"
		   "2023-11-14 22:13:21.250 I/m       (  104): main one\n"
		   "--------- beginning of system\n"
		   "2023-11-14 22:13:22.250 W/s       (  105): system one\n"
		   "2023-11-14 22:13:22.250 W/s       (  105): second line\n"
		   "2023-11-14 22:13:23.250 E/m       (  106): main two\n"
		   "2023-11-14 22:13:24.250 D/s       (  103): system two\n");
	fill_main_system();
	expect_run("-D: a divider at every switch of buffer",
		   "-d -D -v raw",
		   "--------- beginning of main\n"
		   "main one\n"
		   "--------- beginning of system\n"
		   "system one\nsecond line\n"
		   "--------- switch to main\n"
		   "main two\n"
		   "--------- switch to system\n"
		   "system two\n");
	fill_main_system();
	expect_run("--dividers, --dump: the long names",
		   "--dump --dividers -b system -v raw",
		   "system one\nsecond line\nsystem two\n");
	expect_run("(main was left for the next test)", "-d -b main -v raw",
		   "main one\nmain two\n");
}

static void test_select(void)
{
	fill_main_system();
	expect_run("-m 2: exits after two records",
		   "-d -m 2 -v raw",
		   "--------- beginning of main\nmain one\n"
		   "--------- beginning of system\nsystem one\nsecond line\n");
	drain();
	fill_main_system();
	expect_run("--max-count=1", "-d --max-count=1 -v raw",
		   "--------- beginning of main\nmain one\n");
	drain();
	fill_main_system();
	expect_run("-e: a POSIX ERE on the whole message (^ is its start)",
		   "-d -v raw -e 'two$|^second'",
		   "--------- beginning of main\nmain two\n"
		   "--------- beginning of system\nsystem two\n");
	fill_main_system();
	expect_run("--regex with -m: -m counts matching records only",
		   "-d -v raw --regex=two -m 1",
		   "--------- beginning of main\nmain two\n");
	drain();
	fill_main_system();
	expect_run("--pid: one process's records",
		   "-d -v raw --pid 105",
		   "--------- beginning of system\nsystem one\nsecond line\n");
	put_text(fd_main, 2, 1700000001, 4, "u", "uid 1000");
	put_text(fd_main, 1, 1700000002, 4, "u", "no uid");
	expect_run("--uid: a list of euids; a version 1 record has none",
		   "-d -b main -v raw --uid=5,1000", "uid 1000\n");
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
	expect_run("long: no euid without the uid modifier, as logcat",
		   "-d -b main -v long",
		   "[ 11-14 22:13:27.250   104:  105 I/v2       ]\nhello\n\n");
	put_text(fd_main, 2, 1700000008, 4, "v2", "again");
	snprintf(want, sizeof(want),
		 "[ 11-14 22:13:28.250  1000:  104:  105 I/v2       ]\nagain\n\n");
	expect_run("long,uid: the euid of a version 2 header",
		   "-d -b main -v long,uid", want);
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

	put_relayed(fd_main, 3, 0);
	put_relayed(fd_main, 4, NSLOG_ENTRY_RELAYED);
	put_relayed(fd_main, 5, NSLOG_ENTRY_RELAYED | NSLOG_ENTRY_UNVERIFIED);
	expect_run("json: nslogger's 0x4e54 header: plain, relayed, unverified",
		   "-d -b main -v json,UTC",
		   "{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.000000003Z\","
		   "\"log\":\"main\",\"seq\":3,\"order\":30,\"priority\":4,"
		   "\"level\":\"info\",\"tag\":\"r\",\"message\":\"3\",\"pid\":5,"
		   "\"tid\":6,\"uid\":1005,\"kernel\":false}\n"
		   "{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.000000004Z\","
		   "\"log\":\"main\",\"seq\":4,\"order\":40,\"priority\":4,"
		   "\"level\":\"info\",\"tag\":\"r\",\"message\":\"4\",\"pid\":5,"
		   "\"tid\":6,\"uid\":1005,\"kernel\":false,\"relayed\":true,"
		   "\"relay_pid\":77,\"stored_time\":\"2023-11-14T22:13:22.000000004Z\"}\n"
		   "{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.000000005Z\","
		   "\"log\":\"main\",\"seq\":5,\"order\":50,\"priority\":4,"
		   "\"level\":\"info\",\"tag\":\"r\",\"message\":\"5\",\"pid\":5,"
		   "\"tid\":6,\"uid\":1005,\"kernel\":false,\"relayed\":true,"
		   "\"relay_pid\":77,\"unverified\":true,"
		   "\"stored_time\":\"2023-11-14T22:13:22.000000005Z\"}\n");

	put_text(fd_main, 1, 1700000010, 4, "u", "x");
	expect_run("modifiers: -v threadtime -v year,usec,zone,uid (no euid: blank)",
		   "-d -b main -v threadtime -v year,usec,zone,uid",
		   "2023-11-14 22:13:30.250000 +0000         104   105 I u       : x\n");
}

static void test_relay(void)
{
	put_relayed(fd_main, 6, NSLOG_ENTRY_RELAYED);
	put_relayed(fd_main, 7, NSLOG_ENTRY_RELAYED | NSLOG_ENTRY_UNVERIFIED);
	put_relayed(fd_main, 8, 0);
	expect_run("relay: -v threadtime,relay: the relay, '?' if unverified, "
		   "a blank column if not relayed",
		   "-d -b main -v threadtime,relay",
		   "11-14 22:13:20.000    77>    5     6 I r       : 6\n"
		   "11-14 22:13:20.000    77?    5     6 I r       : 7\n"
		   "11-14 22:13:20.000           5     6 I r       : 8\n");

	put_relayed(fd_main, 6, NSLOG_ENTRY_RELAYED);
	put_relayed(fd_main, 8, 0);
	expect_run("relay: -v long,relay: no euid without uid, as -v long",
		   "-d -b main -v long,relay",
		   "[ 11-14 22:13:20.000    77>    5:    6 I/r        ]\n6\n\n"
		   "[ 11-14 22:13:20.000           5:    6 I/r        ]\n8\n\n");

	put_relayed(fd_main, 7, NSLOG_ENTRY_RELAYED | NSLOG_ENTRY_UNVERIFIED);
	put_relayed(fd_main, 8, 0);
	expect_run("relay: without it, relayed records print as any other",
		   "-d -b main",
		   "11-14 22:13:20.000     5     6 I r       : 7\n"
		   "11-14 22:13:20.000     5     6 I r       : 8\n");
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


static void test_time(void)
{
	char args[128];
	struct tm tm;
	time_t now = time(NULL);
	uint32_t jan2;

	fill_main_system();
	expect_run("-t TIME: sssss.mmm, the records since then (implies -d)",
		   "-v raw -t 1700000003.250",
		   "--------- beginning of main\nmain two\n"
		   "--------- beginning of system\nsystem two\n");
	fill_main_system();
	expect_run("-t TIME: YYYY-MM-DD hh:mm:ss.mmm, local time",
		   "-v raw -t '2023-11-14 22:13:22.250000'",
		   "--------- beginning of system\nsystem one\nsecond line\n"
		   "--------- beginning of main\nmain two\n"
		   "system two\n");
	fill_main_system();
	expect_status("-t TIME: what follows the time is ignored, with a warning",
		      "-v raw -b system -t '1700000004.25 and more'", 0,
		      "system two\n",
		      "WARNING: -t \"1700000004.25\"\" and more\" time truncated");
	drain();

	gmtime_r(&now, &tm);
	tm.tm_mon = 0;
	tm.tm_mday = 2;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	jan2 = (uint32_t)timegm(&tm);
	put_text(fd_main, 1, jan2 + 1, 4, "y", "this year, 1 s");
	put_text(fd_main, 1, jan2 + 3, 4, "y", "this year, 3 s");
	expect_run("-t TIME: MM-DD hh:mm:ss.mmm is in this year",
		   "-v raw -b main -t '01-02 00:00:02.000'",
		   "this year, 3 s\n");

	fill_main_system();
	expect_status("-t 0: taken as 1, with logcat's warning",
		      "-v raw -t 0", 0,
		      "--------- beginning of system\nsystem two\n",
		      "WARNING: -t 0 invalid, setting to 1");
	snprintf(args, sizeof(args), "-v raw -b main --tail=1");
	put_text(fd_main, 1, 1, 4, "a", "one");
	put_text(fd_main, 1, 2, 4, "a", "two");
	expect_run("--tail=1: the long name of -t", args, "two\n");
}

/* Stop a following nslogcat. */
static void stop(struct child *c)
{
	kill(c->pid, SIGTERM);
	finish(c);
}

static void test_follow_tail(void)
{
	struct child c;
	bool ok;

	put_text(fd_main, 1, 1, 4, "f", "old");
	put_text(fd_main, 1, 2, 4, "f", "last");
	if (spawn(&c, "-v raw -b main -T 1")) {
		tap_ok(false, "-T: spawn");
		return;
	}
	ok = collect(&c, "last\n");
	put_text(fd_main, 1, 3, 4, "f", "new");
	ok = ok && collect(&c, "new\n");
	stop(&c);
	tap_ok(ok && !strcmp(c.buf, "last\nnew\n"),
	       "-T 1: the last record, then follows (does not imply -d)");

	put_text(fd_main, 1, 1700000001, 4, "f", "before");
	put_text(fd_main, 1, 1700000003, 4, "f", "since");
	if (spawn(&c, "-v raw -b main -T '2023-11-14 22:13:22.000'")) {
		tap_ok(false, "-T TIME: spawn");
		return;
	}
	ok = collect(&c, "since\n");
	put_text(fd_main, 1, 1700000004, 4, "f", "then");
	ok = ok && collect(&c, "then\n");
	stop(&c);
	tap_ok(ok && !strcmp(c.buf, "since\nthen\n"),
	       "-T TIME: the records since TIME, then follows");
}

static char *slurp(const char *name, size_t *len)
{
	char path[128];
	char *buf = NULL;
	size_t size = 0;
	FILE *f, *out;
	int ch;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	out = open_memstream(&buf, &size);
	while ((ch = getc(f)) != EOF)
		putc(ch, out);
	fclose(f);
	fclose(out);
	*len = size;
	return buf;
}

static bool exists(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, F_OK);
}

static void test_rotate(void)
{
	char line[4200], args[256], *got[3];
	static char want[3][4096];
	size_t len[3], cur = 0, i;
	struct child c;
	bool ok;

	want[0][0] = want[1][0] = want[2][0] = '\0';
	/*
	 * 50 threadtime lines; -r 1 rotates once the file holds 1024 bytes
	 * after a record (out.1 to out.2, out to out.1, a new out), so with
	 * -n 2 the oldest lines are gone.  The expected files are computed
	 * here by that rule.
	 */
	for (i = 0; i < 50; i++) {
		put_text(fd_main, 1, 1700000000 + (uint32_t)i, 4, "r",
			 "rotated record");
		snprintf(line, sizeof(line),
			 "11-14 22:%02zu:%02zu.250   104   105 I r       : rotated record\n",
			 13 + (20 + i) / 60, (20 + i) % 60);
		strcat(want[0], line);
		cur += strlen(line);
		if (cur / 1024 >= 1) {
			memcpy(want[2], want[1], sizeof(want[1]));
			memcpy(want[1], want[0], sizeof(want[0]));
			want[0][0] = '\0';
			cur = 0;
		}
	}
	snprintf(args, sizeof(args), "-d -b main -f %s/out -r 1 -n 2", dir);
	if (spawn(&c, args)) {
		tap_ok(false, "-f: spawn");
		return;
	}
	finish(&c);
	tap_ok(WIFEXITED(c.status) && !WEXITSTATUS(c.status) && !c.len,
	       "-f: status 0, nothing on stdout");
	got[0] = slurp("out", &len[0]);
	got[1] = slurp("out.1", &len[1]);
	got[2] = slurp("out.2", &len[2]);
	ok = got[0] && got[1] && got[2] && !exists("out.3");
	tap_ok(ok, "-f -r 1 -n 2: out, out.1 and out.2, no out.3");
	for (i = 0; ok && i < 3; i++) {
		snprintf(line, sizeof(line),
			 "-f -r 1 -n 2: %s holds what logcat would put there",
			 i ? (i == 1 ? "out.1" : "out.2") : "out");
		tap_str(line, got[i], want[i]);
	}
	for (i = 0; i < 3; i++)
		free(got[i]);

	put_text(fd_main, 1, 1700000000, 4, "r", "appended");
	snprintf(args, sizeof(args), "-d -b main -v raw --file=%s/out", dir);
	expect_run("-f: no output on stdout", args, "");
	got[0] = slurp("out", &len[0]);
	snprintf(line, sizeof(line), "%sappended\n", want[0]);
	tap_str("-f: appends to the file", got[0], line);
	free(got[0]);

	for (i = 0; i < 40; i++)
		put_text(fd_main, 1, 1700000000, 4, "r", "rotated record");
	snprintf(args, sizeof(args),
		 "-d -b main --file=%s/out --rotate-kbytes=1 --rotate-count=10",
		 dir);
	expect_run("--rotate-kbytes, --rotate-count: the long names", args, "");
	tap_ok(exists("out.01"),
	       "-n 10: rotated files have two digits, out.01");
	for (i = 0; i < 3; i++) {
		static const char *const names[] = { "out", "out.1", "out.2" };
		char path[128];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	snprintf(args, sizeof(args), "-c -f %s/out -n 10", dir);
	expect_run("-c -f: clears the files, not the buffers", args, "");
	tap_ok(!exists("out") && !exists("out.01") && !exists("out.02"),
	       "-c -f: out and out.01 ... are removed");
}

static void test_tags(void)
{
	char path[128], args[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tags", dir);
	f = fopen(path, "w");
	if (!tap_ok(f != NULL, "tags: write an event-log-tags file"))
		return;
	fputs("# tags\n2718 e_tag (value|1)\n30014 am_proc_start (pid|1|5)\n", f);
	fclose(f);

	put_event(fd_events, 1700000005, 2718, -5);
	put_event(fd_events, 1700000006, 2719, 7);
	snprintf(args, sizeof(args), "-d -b events -v brief --event-tags=%s",
		 path);
	expect_run("tags: --event-tags names events tags; unknown ones stay [N]",
		   args, "I/e_tag   (   42): -5\nI/[2719]  (   42): 7\n");

	put_event(fd_events, 1700000005, 2718, -5);
	put_event(fd_events, 1700000006, 30014, 1234);
	put_event(fd_events, 1700000007, 2719, 7);
	setenv("NSLOG_EVENT_TAGS", path, 1);
	expect_run("tags: $NSLOG_EVENT_TAGS; filterspecs name events tags",
		   "-d -b events -s am_proc_start",
		   "11-14 22:13:26.000    42    43 I am_proc_start: 1234\n");
	unsetenv("NSLOG_EVENT_TAGS");

	expect_status("tags: a tag map given that cannot be read is an error",
		      "-d -b events --event-tags=/nonexistent/tags", 1, "",
		      "nslogcat: cannot read the event tags /nonexistent/tags: No such file or directory");
}

static void test_control(void)
{
	expect_status("-G: a FIFO has no NSLOG_IOC_SET_SIZE: status 1, saying so",
		      "-G 1M -b main", 1, "",
		      "failed to set the 'main' log size");
	expect_status("-g: a FIFO has no LOGGER_GET_LOG_BUF_SIZE: status 1",
		      "-g -b main", 1, "",
		      "failed to get the readable 'main' log size");
	expect_status("-c: a FIFO has no LOGGER_FLUSH_LOG: status 1",
		      "--clear -b system", 1, "",
		      "failed to clear the 'system' log");
}

static void cleanup(void)
{
	static const char *const names[] = {
		"main", "system", "events", "err", "tags", "out", "out.01",
		"out.02",
	};

	fakedev_remove(dir, names, ARRAY_SIZE(names));
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
	fd_main = fakedev_fifo(dir, "main");
	fd_system = fakedev_fifo(dir, "system");
	fd_events = fakedev_fifo(dir, "events");
	if (!tap_ok(fd_main >= 0 && fd_system >= 0 && fd_events >= 0,
		    "packet-mode FIFOs for main, system and events")) {
		cleanup();
		return tap_done();
	}
	test_dump();
	test_lists();
	test_select();
	test_time();
	test_follow_tail();
	test_rotate();
	test_tags();
	test_control();
	test_events_long();
	test_json();
	test_relay();
	test_binary();
	test_follow();
	cleanup();
	return tap_done();
}
