// SPDX-License-Identifier: GPL-2.0
/*
 * rl_flood: the writers and admin calls of tests/containers/ratelimit.sh.
 *
 *   rl_flood flood LOG SECS SIZE TAG    write SIZE-byte records to
 *                                       /dev/log_LOG as fast as possible
 *                                       for SECS seconds
 *   rl_flood trickle LOG COUNT MS TAG   COUNT records "TAG seq=I", MS apart
 *   rl_flood move LOG TAG DIR...        for each cgroup directory DIR: move
 *                                       this process there, write a record
 *   rl_flood admin TEXT                 write TEXT to /proc/nslogger/limits
 *   rl_flood admin-read                 open it for reading
 *   rl_flood churn N DIR CGPATH         N times: make DIR/cI, give it a rule
 *                                       (CGPATH/cI), write a record from it,
 *                                       leave it and remove it
 *
 * Each prints one line of KEY=VALUE results; admin prints "ok" or the
 * errno name ("open:EPERM" if opening failed).  A text record is
 * [prio 4][TAG\0][x... padding\0]; an events record is a STRING event of
 * tag 1 padded to SIZE.  Elapsed time is CLOCK_MONOTONIC (the clock of the
 * buckets) from before the first write to after the last; flood also
 * prints both readings, for the window of floods run together.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/nslogger.h>

static const char *errname(int err)
{
	switch (err) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case E2BIG: return "E2BIG";
	case EAGAIN: return "EAGAIN";
	default: return strerror(err);
	}
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "rl_flood: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_log(const char *log)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/log_%s", log);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die(path);
	return fd;
}

/* A record of exactly @size payload bytes (text) or events record. */
static size_t make_record(char *buf, size_t size, const char *log,
			  const char *tag, const char *msg)
{
	size_t tl = strlen(tag) + 1, ml;

	memset(buf, 'x', size);
	if (!strcmp(log, "events")) {
		int etag = 1, slen = (int)size - 9;

		memcpy(buf, &etag, 4);
		buf[4] = NSLOG_EVENT_STRING;
		memcpy(buf + 5, &slen, 4);
		ml = strlen(msg);
		memcpy(buf + 9, msg, ml < size - 9 ? ml : size - 9);
		return size;
	}
	buf[0] = NSLOG_PRIO_INFO;
	memcpy(buf + 1, tag, tl);
	ml = strlen(msg);
	if (1 + tl + ml + 1 > size)
		ml = size - tl - 2;
	memcpy(buf + 1 + tl, msg, ml);
	buf[size - 1] = '\0';
	return size;
}

static void move_to(const char *dir)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "we");
	if (!f || fprintf(f, "0\n") < 0 || fclose(f))
		die(path);
}

static int flood(const char *log, double secs, size_t size, const char *tag)
{
	unsigned long long start, end, stop, attempted = 0, eagain = 0, ok = 0;
	char buf[LOGGER_ENTRY_MAX_PAYLOAD];
	int fd = open_log(log);

	if (size < 16 || size > sizeof(buf))
		return fprintf(stderr, "rl_flood: bad size\n"), 2;
	make_record(buf, size, log, tag, "flood");
	start = now_ns();
	stop = start + (unsigned long long)(secs * 1e9);
	do {
		ssize_t n = write(fd, buf, size);

		attempted++;
		if (n == (ssize_t)size)
			ok++;
		else if (n < 0 && errno == EAGAIN)
			eagain++;
		else
			die("write");
		end = now_ns();
	} while (end < stop);
	printf("attempted=%llu returned_ok=%llu eagain=%llu elapsed_ns=%llu size=%zu start_ns=%llu end_ns=%llu\n",
	       attempted, ok, eagain, end - start, size, start, end);
	return 0;
}

static int trickle(const char *log, int count, int ms, const char *tag)
{
	char buf[128], msg[64];
	int fd = open_log(log), i, written = 0;

	for (i = 0; i < count; i++) {
		snprintf(msg, sizeof(msg), "%s seq=%d", tag, i);
		make_record(buf, 48, log, tag, msg);
		if (write(fd, buf, 48) == 48)
			written++;
		if (ms)
			usleep(ms * 1000);
	}
	printf("written=%d\n", written);
	return 0;
}

static int move(const char *log, const char *tag, int n, char **dirs)
{
	char buf[64];
	int fd = open_log(log), i;

	make_record(buf, 32, log, tag, "moved");
	for (i = 0; i < n; i++) {
		move_to(dirs[i]);
		if (write(fd, buf, 32) != 32)
			die("write");
	}
	printf("moves=%d\n", n);
	return 0;
}

static int admin(const char *text, int flags)
{
	int fd = open("/proc/nslogger/limits", flags | O_CLOEXEC);
	ssize_t n = 0;

	if (fd < 0) {
		printf("open:%s\n", errname(errno));
		return 0;
	}
	if (text)
		n = write(fd, text, strlen(text));
	printf("%s\n", n < 0 ? errname(errno) : "ok");
	close(fd);
	return 0;
}

static int churn(int n, const char *dir, const char *cgpath)
{
	char path[4096], cmd[4096], home[4200], buf[64], line[4096];
	int fd = open_log("main"), lim, i;
	unsigned long long start = now_ns();
	FILE *f;

	/* Where to come back to: our own cgroup now. */
	f = fopen("/proc/self/cgroup", "re");
	if (!f || !fgets(line, sizeof(line), f) || strncmp(line, "0::", 3))
		die("/proc/self/cgroup");
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	snprintf(home, sizeof(home), "/sys/fs/cgroup%s", line + 3);
	lim = open("/proc/nslogger/limits", O_WRONLY | O_CLOEXEC);
	if (lim < 0)
		die("/proc/nslogger/limits");
	make_record(buf, 32, "main", "churn", "c");
	for (i = 0; i < n; i++) {
		int len;

		snprintf(path, sizeof(path), "%s/c%d", dir, i);
		if (mkdir(path, 0755))
			die(path);
		len = snprintf(cmd, sizeof(cmd), "set %s/c%d records=10/s\n",
			       cgpath, i);
		if (write(lim, cmd, len) != len)
			die("set");
		move_to(path);
		if (write(fd, buf, 32) != 32)
			die("write");
		move_to(home);
		if (rmdir(path))
			die(path);
	}
	printf("churned=%d elapsed_ms=%llu\n", n, (now_ns() - start) / 1000000);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 6 && !strcmp(argv[1], "flood"))
		return flood(argv[2], atof(argv[3]), atoi(argv[4]), argv[5]);
	if (argc == 6 && !strcmp(argv[1], "trickle"))
		return trickle(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5]);
	if (argc >= 5 && !strcmp(argv[1], "move"))
		return move(argv[2], argv[3], argc - 4, argv + 4);
	if (argc == 3 && !strcmp(argv[1], "admin"))
		return admin(argv[2], O_WRONLY);
	if (argc == 2 && !strcmp(argv[1], "admin-read"))
		return admin(NULL, O_RDONLY);
	if (argc == 5 && !strcmp(argv[1], "churn"))
		return churn(atoi(argv[2]), argv[3], argv[4]);
	fprintf(stderr, "usage: see the top of tests/containers/rl_flood.c\n");
	return 2;
}
