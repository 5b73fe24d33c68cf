// SPDX-License-Identifier: GPL-2.0
/*
 * nslogd_prop_test: nslogd's client of init's property service, against a
 * stand-in service written here: a listening socket in a temporary
 * directory, served by a forked child that reads one message as the
 * lengths in it say, hands the bytes to the test through a pipe, and then
 * answers as the case asks (success, an error code, a short answer, a
 * close, nothing at all). The message is compared byte for byte with what
 * bionic's __system_property_set() sends with protocol version 2; each
 * answer's result is checked, and so are no socket (absent, not an
 * error) and a socket nobody listens on. Last, the static nslogd
 * ($NSLOG_BIN/nslogd) sets logd.ready=true through the stand-in once its
 * listeners are up, and serves on when the answer is a refusal.
 */
#include <errno.h>
#include <fcntl.h>
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

#include "tap.h"
#include "tmpdir.h"

#include "nslogd/property.h"


/* The message bionic sends for NAME=VALUE, built from the facts. */
static size_t want_msg(unsigned char *buf, const char *name,
		       const char *value)
{
	uint32_t cmd = 0x00020001, nlen = strlen(name), vlen = strlen(value);
	size_t n = 0;

	memcpy(buf + n, &cmd, 4);
	n += 4;
	memcpy(buf + n, &nlen, 4);
	n += 4;
	memcpy(buf + n, name, nlen);
	n += nlen;
	memcpy(buf + n, &vlen, 4);
	n += 4;
	memcpy(buf + n, value, vlen);
	return n + vlen;
}

/* --- the message --- */

static void test_msg_is_bionics_version_2(void)
{
	static const struct {
		const char *name, *value;
	} cases[] = {
		{ "logd.ready", "true" },
		{ "logd.ready", "" },		/* no value bytes at all */
		{ "x", "false" },
	};
	unsigned char got[NSLOGD_PROP_MSG_MAX], want[NSLOGD_PROP_MSG_MAX];
	size_t i, n, w;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		n = nslogd_prop_msg(got, sizeof(got), cases[i].name,
				    cases[i].value);
		w = want_msg(want, cases[i].name, cases[i].value);
		CHECK(n == w && !memcmp(got, want, w));
	}
	/* logd.ready=true: 4 + 4 + 10 + 4 + 4 bytes */
	CHECK(nslogd_prop_msg(got, sizeof(got), "logd.ready", "true") == 26);
}

static void test_msg_refuses_what_bionic_refuses(void)
{
	unsigned char buf[NSLOGD_PROP_MSG_MAX + 64];
	char value[NSLOGD_PROP_VALUE_MAX + 1], name[NSLOGD_PROP_NAME_MAX + 1];

	memset(value, 'v', NSLOGD_PROP_VALUE_MAX);
	value[NSLOGD_PROP_VALUE_MAX] = '\0';
	/* 92 bytes: too long but for ro. names */
	CHECK(nslogd_prop_msg(buf, sizeof(buf), "logd.x", value) == 0);
	CHECK(nslogd_prop_msg(buf, sizeof(buf), "ro.x", value) ==
	      12 + 4 + NSLOGD_PROP_VALUE_MAX);
	value[NSLOGD_PROP_VALUE_MAX - 1] = '\0';	/* 91: taken */
	CHECK(nslogd_prop_msg(buf, sizeof(buf), "logd.x", value) ==
	      12 + 6 + NSLOGD_PROP_VALUE_MAX - 1);
	CHECK(nslogd_prop_msg(buf, sizeof(buf), "", "v") == 0);
	memset(name, 'n', NSLOGD_PROP_NAME_MAX);
	name[NSLOGD_PROP_NAME_MAX] = '\0';
	CHECK(nslogd_prop_msg(buf, sizeof(buf), name, "v") == 0);
	/* a buffer one byte short */
	CHECK(nslogd_prop_msg(buf, 25, "logd.ready", "true") == 0);
}

static void test_error_names(void)
{
	CHECK(!strcmp(nslogd_prop_error_name(0), "success"));
	CHECK(!strcmp(nslogd_prop_error_name(0x18), "permission denied"));
	CHECK(!strcmp(nslogd_prop_error_name(0x0b), "read-only property"));
	CHECK(!strcmp(nslogd_prop_error_name(0x7777), "unknown error"));
}

/* --- the stand-in property service --- */

enum answer {
	ANSWER_CODE,		/* the int32 code */
	ANSWER_SHORT,		/* two bytes, then close */
	ANSWER_CLOSE,		/* close without a word */
	ANSWER_NOTHING,		/* keep the connection, say nothing */
};

struct service {
	char dir[64];
	char path[128];
	int lfd;
	int pipe_rd;
	pid_t pid;
};

static bool read_n(int fd, void *buf, size_t n)
{
	unsigned char *p = buf;
	ssize_t r;

	while (n) {
		r = read(fd, p, n);
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

/*
 * The child: one connection, one message read as its lengths say (the
 * test's bound: 512 bytes), its bytes to the pipe, then the answer. With
 * @check set, it first writes whether that file existed when the
 * connection came (nslogd's logdr: its listeners must be up before it
 * asks), one byte '1' or '0'.
 */
static void serve_one(int lfd, int pipe_wr, enum answer a, int32_t code,
		      const char *check)
{
	unsigned char msg[512];
	uint32_t len;
	size_t n = 0;
	int c;

	c = accept(lfd, NULL, NULL);
	if (c < 0)
		_exit(1);
	if (check && write(pipe_wr, access(check, F_OK) ? "0" : "1", 1) != 1)
		_exit(1);
	if (!read_n(c, msg, 8))
		_exit(1);
	n = 8;
	memcpy(&len, msg + 4, 4);
	if (len > 200 || !read_n(c, msg + n, len + 4))
		_exit(1);
	n += len + 4;
	memcpy(&len, msg + n - 4, 4);
	if (len > 200 || !read_n(c, msg + n, len))
		_exit(1);
	n += len;
	if (write(pipe_wr, msg, n) != (ssize_t)n)
		_exit(1);
	close(pipe_wr);
	switch (a) {
	case ANSWER_CODE:
		if (write(c, &code, sizeof(code)) != sizeof(code))
			_exit(1);
		break;
	case ANSWER_SHORT:
		if (write(c, &code, 2) != 2)
			_exit(1);
		break;
	case ANSWER_CLOSE:
		break;
	case ANSWER_NOTHING:
		pause();
		break;
	}
	close(c);
	_exit(0);
}

/* @check: a path under the service's directory, or NULL. */
static bool service_start(struct service *s, enum answer a, int32_t code,
			  const char *check)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char cpath[160];
	int p[2];

	if (!tmpdir_make(s->dir, sizeof(s->dir), "nslogd_prop_test"))
		return false;
	snprintf(s->path, sizeof(s->path), "%s/property_service", s->dir);
	strcpy(sun.sun_path, s->path);
	s->lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s->lfd < 0 || bind(s->lfd, (struct sockaddr *)&sun, sizeof(sun)) ||
	    listen(s->lfd, 4) || pipe(p))
		return false;
	s->pid = fork();
	if (s->pid < 0)
		return false;
	if (s->pid == 0) {
		close(p[0]);
		if (check)
			snprintf(cpath, sizeof(cpath), "%s/%s", s->dir, check);
		serve_one(s->lfd, p[1], a, code, check ? cpath : NULL);
	}
	close(p[1]);
	s->pipe_rd = p[0];
	return true;
}

/* What the service read, and its exit; the service is gone after. */
static size_t service_stop(struct service *s, unsigned char *buf,
			   size_t size)
{
	size_t n = 0;
	ssize_t r;
	int status;

	while (n < size && (r = read(s->pipe_rd, buf + n, size - n)) > 0)
		n += (size_t)r;
	close(s->pipe_rd);
	kill(s->pid, SIGKILL);
	waitpid(s->pid, &status, 0);
	close(s->lfd);
	tmpdir_remove(s->dir);
	return n;
}

static void test_set_handles_each_answer(void)
{
	static const struct {
		enum answer a;
		int32_t code;
		enum nslogd_prop_result want;
		const char *why;
	} cases[] = {
		{ ANSWER_CODE, 0, NSLOGD_PROP_SET, "" },
		{ ANSWER_CODE, 0x18, NSLOGD_PROP_FAILED,
		  "refused: permission denied (0x18)" },
		{ ANSWER_CODE, 0x24, NSLOGD_PROP_FAILED,
		  "refused: set failed (0x24)" },
		{ ANSWER_CODE, -1, NSLOGD_PROP_FAILED,
		  "refused: unknown error (0xffffffff)" },
		{ ANSWER_SHORT, 0, NSLOGD_PROP_FAILED, "a short answer" },
		{ ANSWER_CLOSE, 0, NSLOGD_PROP_FAILED,
		  "closed without an answer" },
		{ ANSWER_NOTHING, 0, NSLOGD_PROP_FAILED,
		  "no answer: timed out" },
	};
	unsigned char got[512], want[64];
	char why[160], what[96];
	size_t i, n, w;

	w = want_msg(want, "logd.ready", "true");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct service s;
		enum nslogd_prop_result r;

		REQUIRE(service_start(&s, cases[i].a, cases[i].code, NULL));
		r = nslogd_prop_set(s.path, "logd.ready", "true", 200, why,
				    sizeof(why));
		n = service_stop(&s, got, sizeof(got));
		snprintf(what, sizeof(what), "answer %zu: the message sent",
			 i);
		tap_mem(what, got, n, want, w);
		snprintf(what, sizeof(what), "answer %zu: result %d, \"%s\"",
			 i, (int)cases[i].want, cases[i].why);
		tap_ok(r == cases[i].want && !strcmp(why, cases[i].why), what);
		if (r != cases[i].want || strcmp(why, cases[i].why))
			printf("#   got %d, \"%s\"\n", (int)r, why);
	}
}

static void test_set_absent_and_refused_connections(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char dir[64], path[128], why[160];
	int fd;

	REQUIRE(tmpdir_make(dir, sizeof(dir), "nslogd_prop_test"));
	/* no file, no directory: no property service, not an error */
	snprintf(path, sizeof(path), "%s/property_service", dir);
	CHECK(nslogd_prop_set(path, "logd.ready", "true", 200, why,
			      sizeof(why)) == NSLOGD_PROP_ABSENT);
	CHECK(!*why);
	snprintf(path, sizeof(path), "%s/none/property_service", dir);
	CHECK(nslogd_prop_set(path, "logd.ready", "true", 200, why,
			      sizeof(why)) == NSLOGD_PROP_ABSENT);

	/* a socket file nobody listens on: a failure */
	snprintf(path, sizeof(path), "%s/property_service", dir);
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	REQUIRE(fd >= 0);
	REQUIRE(!bind(fd, (struct sockaddr *)&sun, sizeof(sun)));
	CHECK(nslogd_prop_set(path, "logd.ready", "true", 200, why,
			      sizeof(why)) == NSLOGD_PROP_FAILED);
	CHECK(!strcmp(why, "connect: Connection refused"));
	close(fd);

	/* a bad value never reaches a socket */
	CHECK(nslogd_prop_set(path, "", "true", 200, why, sizeof(why)) ==
	      NSLOGD_PROP_FAILED);
	tmpdir_remove(dir);
}

static void test_format(void)
{
	struct nslogd_prop_stats st = { .n = { 1, 2, 3 } };
	char line[128];

	nslogd_prop_format(&st, line, sizeof(line));
	CHECK(!strcmp(line, "logd.ready: set 1 absent 2 failed 3"));
}

/* --- the static nslogd --- */

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

/*
 * nslogd with a socket directory of its own and the stand-in service:
 * the service sees logdr made before the message, gets logd.ready=true,
 * answers @code; nslogd serves on either way and says so at the end.
 */
static void run_nslogd(int32_t code, const char *want_line,
		       const char *want_err)
{
	const char *bin = getenv("NSLOG_BIN");
	char exe[256], sdir[96], logdr[128], errf[128], out[4096] = "";
	unsigned char got[512], want[64];
	struct service s;
	int status, fd, r;
	size_t n, w;
	pid_t pid;
	FILE *f;

	if (!bin)
		SKIP("$NSLOG_BIN not set");
	snprintf(exe, sizeof(exe), "%s/nslogd", bin);
	REQUIRE(!access(exe, X_OK));
	REQUIRE(service_start(&s, ANSWER_CODE, code, "socket/logdr"));
	snprintf(sdir, sizeof(sdir), "%s/socket", s.dir);
	snprintf(logdr, sizeof(logdr), "%s/logdr", sdir);
	snprintf(errf, sizeof(errf), "%s/stderr", s.dir);
	REQUIRE(!mkdir(sdir, 0755));

	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		unsetenv("ANDROID_SOCKET_logd");
		unsetenv("ANDROID_SOCKET_logdr");
		unsetenv("ANDROID_SOCKET_logdw");
		execl(exe, "nslogd", "--socket-dir", sdir, "--dev-dir", sdir,
		      "--property-socket", s.path, (char *)NULL);
		_exit(127);
	}
	CHECK(wait_for(logdr));
	/* logdr was there when nslogd connected; the message arrives */
	CHECK(read(s.pipe_rd, got, 1) == 1 && got[0] == '1');
	w = want_msg(want, "logd.ready", "true");
	n = 0;
	while (n < sizeof(got) && (r = (int)read(s.pipe_rd, got + n,
						 sizeof(got) - n)) > 0)
		n += (size_t)r;
	CHECK(n == w && !memcmp(got, want, w));
	waitpid(s.pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	s.pid = getpid();	/* reaped: nothing for service_stop() to kill */

	/* still serving: a reader's garbage is closed, not hung */
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	{
		struct sockaddr_un sun = { .sun_family = AF_UNIX };
		struct timeval tv = { 5, 0 };

		strcpy(sun.sun_path, logdr);
		CHECK(!connect(fd, (struct sockaddr *)&sun, sizeof(sun)));
		CHECK(send(fd, "garbage", 7, 0) == 7);
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		CHECK(recv(fd, got, sizeof(got), 0) == 0);
	}
	close(fd);
	kill(pid, SIGTERM);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	f = fopen(errf, "r");
	REQUIRE(f);
	r = (int)fread(out, 1, sizeof(out) - 1, f);
	fclose(f);
	out[r > 0 ? r : 0] = '\0';
	CHECK(strstr(out, want_line));
	if (want_err)
		CHECK(strstr(out, want_err));
	else
		CHECK(!strstr(out, "not set through"));
	if (tap_failed_now)
		printf("# nslogd's stderr:\n%s", out);
	close(s.pipe_rd);
	close(s.lfd);
	tmpdir_remove(s.dir);
}

static void test_nslogd_sets_logd_ready(void)
{
	run_nslogd(0, "nslogd: logd.ready: set 1 absent 0 failed 0\n", NULL);
}

static void test_nslogd_serves_on_after_a_refusal(void)
{
	run_nslogd(0x18, "nslogd: logd.ready: set 0 absent 0 failed 1\n",
		   ": refused: permission denied (0x18)\n");
}

static const struct tap_case cases[] = {
	{ "msg: bionic's protocol version 2, byte for byte",
	  test_msg_is_bionics_version_2 },
	{ "msg: refuses what bionic refuses", test_msg_refuses_what_bionic_refuses },
	{ "error codes named", test_error_names },
	{ "set: each answer of the service", test_set_handles_each_answer },
	{ "set: no socket is absent, a dead one a failure",
	  test_set_absent_and_refused_connections },
	{ "format: the counters' line", test_format },
	{ "nslogd: sets logd.ready=true once its listeners are up",
	  test_nslogd_sets_logd_ready },
	{ "nslogd: a refusal is told and counted, and nslogd serves on",
	  test_nslogd_serves_on_after_a_refusal },
};

int main(int argc, char **argv)
{
	return tap_run(cases, ARRAY_SIZE(cases), argc, argv);
}
