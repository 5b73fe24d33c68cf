// SPDX-License-Identifier: GPL-2.0
/*
 * faultinj - systematic allocation-failure injection into nslogger's paths.
 *
 *   faultinj [--max N]     (run by tests/stress/faults.sh, which sets up
 *                           failslab and fail_page_alloc in debugfs)
 *
 * For each operation below, and for n = 1, 2, ...: write n to
 * /proc/thread-self/fail-nth, make the one system call, and read fail-nth
 * back.  0 means the n-th fallible allocation of that call was made to
 * fail; anything else means the call made fewer than n allocations, so
 * every one of them has been failed once and the operation is done.  This
 * is how syzkaller injects faults: it needs CONFIG_FAULT_INJECTION and
 * failslab/fail_page_alloc told not to ignore sleeping allocations, and no
 * probability at all, so nothing but the armed call is disturbed.
 *
 * Each injected failure must give success or a clean error (-ENOMEM, or
 * -ENOSPC where the registry or rule table says so), and the state after
 * must be right: a failed open leaves no half-made set behind (the next
 * open of a fresh namespace sees an empty log), a failed first write
 * stores nothing and the next write works, a failed rule is absent, and
 * the records written before all this are read back byte for byte at the
 * end.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/nslogger.h>

static int max_n = 200;
static int failures;
static const char *cgpath = "/sys/fs/cgroup/nslfault";

static void bad(const char *fmt, ...)
{
	va_list ap;

	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures++;
}

static int nth_fd = -1;

static void arm(int n)
{
	char b[16];
	int len = snprintf(b, sizeof(b), "%d", n);

	if (pwrite(nth_fd, b, len, 0) != len) {
		perror("fail-nth");
		exit(2);
	}
}

/* Disarm; returns 1 if the armed failure was injected. */
static int disarm(void)
{
	char b[16] = "";
	int fired;

	if (pread(nth_fd, b, sizeof(b) - 1, 0) <= 0) {
		perror("fail-nth");
		exit(2);
	}
	fired = atoi(b) == 0;
	if (pwrite(nth_fd, "0", 1, 0) != 1)
		exit(2);
	return fired;
}

static int open_nth(void)
{
	/* Per thread: the file of the calling thread, opened once. */
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	return nth_fd;
}

static int clean_errno(int e)
{
	return e == ENOMEM || e == ENOSPC;
}

static size_t payload(uint8_t *p, size_t len, int tag)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(tag * 37 + i);
	return len;
}

/*
 * One operation, with the n-th allocation failed, in a child process so
 * that each attempt starts from a fresh IPC namespace.  The child's exit
 * status is one of the RES_ values.
 */
enum op_kind {
	OP_OPEN_FRESH_NS,	/* registry entry and set creation */
	OP_OPEN_READER,		/* file and payload buffer */
	OP_FIRST_WRITE,		/* the ring's storage */
	OP_BIG_WRITE,		/* allocates nothing: straight into the ring */
	OP_OPEN_NS,		/* NSLOG_IOC_OPEN_NS's new file */
	OP_RULE_SET,		/* a rate rule */
	OP_NR_KINDS
};

static const char *const op_name[OP_NR_KINDS] = {
	"open in a new namespace", "open a reader", "first write",
	"write above 512 bytes", "NSLOG_IOC_OPEN_NS", "set a rate rule",
};

#define RES_OK		0	/* succeeded, not injected */
#define RES_DONE	1	/* fewer than n allocations: finished */
#define RES_CLEAN	2	/* injected, clean error, state right */
#define RES_PASSED	3	/* injected, call still succeeded */
#define RES_BAD		4

static int rule_present(void)
{
	char line[512];
	FILE *f = fopen("/proc/nslogger/limits", "r");
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		found |= !strncmp(line, "/nslfault ", 10);
	fclose(f);
	return found;
}

static int child(enum op_kind kind, int n)
{
	static uint8_t buf[4096], rec[5120];
	int fd, rfd, fired, ret, e;

	if (kind != OP_RULE_SET && unshare(CLONE_NEWIPC))
		return RES_BAD;
	if (open_nth() < 0)
		return RES_BAD;

	switch (kind) {
	case OP_OPEN_FRESH_NS:
	case OP_OPEN_READER:
		if (kind == OP_OPEN_READER) {
			/* The set exists already; only the file is new. */
			fd = open("/dev/log_main", O_WRONLY);
			if (fd < 0)
				return RES_BAD;
		}
		arm(n);
		rfd = open("/dev/log_main", O_RDONLY | O_NONBLOCK);
		e = errno;
		fired = disarm();
		if (!fired)
			return rfd >= 0 ? RES_DONE : RES_BAD;
		if (rfd >= 0) {
			close(rfd);
			return RES_PASSED;
		}
		if (!clean_errno(e)) {
			bad("%s: fault %d gave errno %d", op_name[kind], n, e);
			return RES_BAD;
		}
		/* Nothing half-made: the next open works, the log is empty. */
		rfd = open("/dev/log_main", O_RDONLY | O_NONBLOCK);
		if (rfd < 0 || ioctl(rfd, LOGGER_GET_LOG_LEN) != 0) {
			bad("%s: after fault %d: open %d, len %ld", op_name[kind], n,
			    rfd, rfd < 0 ? -1 : ioctl(rfd, LOGGER_GET_LOG_LEN));
			return RES_BAD;
		}
		return RES_CLEAN;

	case OP_FIRST_WRITE:
	case OP_BIG_WRITE: {
		size_t len = kind == OP_FIRST_WRITE ? 100 : 3000;

		fd = open("/dev/log_main", O_WRONLY);
		rfd = open("/dev/log_main", O_RDONLY | O_NONBLOCK);
		if (fd < 0 || rfd < 0)
			return RES_BAD;
		if (kind == OP_BIG_WRITE && write(fd, buf, payload(buf, 40, 1)) != 40)
			return RES_BAD;
		payload(buf, len, 2);
		arm(n);
		ret = write(fd, buf, len);
		e = errno;
		fired = disarm();
		if (!fired)
			return ret == (int)len ? RES_DONE : RES_BAD;
		if (ret == (int)len)
			return RES_PASSED;
		if (ret != -1 || !clean_errno(e)) {
			bad("%s: fault %d gave %d errno %d", op_name[kind], n, ret, e);
			return RES_BAD;
		}
		/* Nothing stored (the record before is still first), then it works. */
		if (kind == OP_BIG_WRITE) {
			payload(buf, 40, 1);
			if (read(rfd, rec, sizeof(rec)) != 20 + 40 ||
			    memcmp(rec + 20, buf, 40)) {
				bad("%s: after fault %d the earlier record is gone", op_name[kind], n);
				return RES_BAD;
			}
			payload(buf, len, 2);
		}
		if (ioctl(rfd, LOGGER_GET_LOG_LEN) != 0) {
			bad("%s: fault %d left a record", op_name[kind], n);
			return RES_BAD;
		}
		if (write(fd, buf, len) != (int)len ||
		    read(rfd, rec, sizeof(rec)) != (ssize_t)(20 + len) ||
		    memcmp(rec + 20, buf, len)) {
			bad("%s: after fault %d the log does not work", op_name[kind], n);
			return RES_BAD;
		}
		return RES_CLEAN;
	}

	case OP_OPEN_NS: {
		struct nslog_open_ns arg = { .ns_fd = open("/proc/self/ns/ipc", O_RDONLY) };

		fd = open("/dev/log_main", O_RDWR | O_NONBLOCK);
		if (fd < 0 || arg.ns_fd < 0 || write(fd, "\4t\0x", 5) != 5)
			return RES_BAD;
		arm(n);
		ret = ioctl(fd, NSLOG_IOC_OPEN_NS, &arg);
		e = errno;
		fired = disarm();
		if (!fired)
			return ret >= 0 ? RES_DONE : RES_BAD;
		if (ret >= 0)
			return RES_PASSED;
		if (!clean_errno(e) && e != EMFILE) {
			bad("%s: fault %d gave errno %d", op_name[kind], n, e);
			return RES_BAD;
		}
		ret = ioctl(fd, NSLOG_IOC_OPEN_NS, &arg);
		if (ret < 0 || read(ret, rec, sizeof(rec)) != 25) {
			bad("%s: after fault %d it does not work", op_name[kind], n);
			return RES_BAD;
		}
		return RES_CLEAN;
	}

	case OP_RULE_SET: {
		static const char cmd[] = "set /nslfault records=10/1s";

		fd = open("/proc/nslogger/limits", O_WRONLY);
		if (fd < 0)
			return RES_BAD;
		arm(n);
		ret = write(fd, cmd, strlen(cmd));
		e = errno;
		fired = disarm();
		close(fd);
		fd = open("/proc/nslogger/limits", O_WRONLY);
		if (ret < 0 && !clean_errno(e)) {
			bad("%s: fault %d gave errno %d", op_name[kind], n, e);
			return RES_BAD;
		}
		if (rule_present() != (ret >= 0)) {
			bad("%s: fault %d: write %d but rule present %d",
			    op_name[kind], n, ret, rule_present());
			return RES_BAD;
		}
		if (ret >= 0 && write(fd, "clear /nslfault", 15) != 15)
			return RES_BAD;
		if (!fired)
			return ret >= 0 ? RES_DONE : RES_BAD;
		return ret >= 0 ? RES_PASSED : RES_CLEAN;
	}
	default:
		return RES_BAD;
	}
}

int main(int argc, char **argv)
{
	static uint8_t marks[5][64], rec[5120];
	int total = 0, rfd, wfd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "--max"))
		max_n = atoi(argv[2]);
	if (access("/proc/thread-self/fail-nth", W_OK)) {
		printf("ok - fault injection # SKIP no /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION)\n");
		return 0;
	}
	/* Records already there: written before, read back after. */
	if (unshare(CLONE_NEWIPC))
		return 2;
	wfd = open("/dev/log_main", O_WRONLY);
	rfd = open("/dev/log_main", O_RDONLY | O_NONBLOCK);
	if (wfd < 0 || rfd < 0)
		return 2;
	for (int i = 0; i < 5; i++)
		if (write(wfd, marks[i], payload(marks[i], 20 + i, 9 + i)) != 20 + i)
			return 2;
	if (mkdir(cgpath, 0755) && errno != EEXIST)
		return 2;

	for (int k = 0; k < OP_NR_KINDS; k++) {
		int clean = 0, passed = 0, n, res = RES_OK, bad_before = failures;

		for (n = 1; n <= max_n; n++) {
			pid_t pid;
			int st;

			fflush(stdout);
			pid = fork();
			if (pid == 0)
				_exit(child(k, n));
			if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) {
				bad("%s: fault %d: child died (status %#x)", op_name[k], n, st);
				break;
			}
			res = WEXITSTATUS(st);
			if (res == RES_DONE)
				break;
			if (res == RES_CLEAN)
				clean++;
			else if (res == RES_PASSED)
				passed++;
			else {
				if (failures == bad_before)
					bad("%s: fault %d: result %d", op_name[k], n, res);
				break;
			}
		}
		total += clean + passed;
		/*
		 * A write into a ring that exists copies the payload straight
		 * in: it must not allocate at all, so fault 1 is never reached.
		 */
		if (k == OP_BIG_WRITE && failures == bad_before && res == RES_DONE) {
			printf("%s - %s allocates nothing (%d allocations reached)\n",
			       clean + passed ? "not ok" : "ok", op_name[k],
			       clean + passed);
			failures += clean + passed > 0;
		} else if (failures == bad_before && res == RES_DONE && clean + passed > 0)
			printf("ok - %s: %d allocations failed one by one: %d clean errors, %d recovered\n",
			       op_name[k], clean + passed, clean, passed);
		else if (failures == bad_before && res == RES_DONE)
			printf("not ok - %s: no fault was injected (failslab/fail_page_alloc set up?)\n",
			       op_name[k]);
		else if (failures == bad_before)
			printf("not ok - %s: not finished after %d faults\n", op_name[k], max_n);
		else
			printf("not ok - %s\n", op_name[k]);
	}

	/* The records that were there before are all still there. */
	{
		int okay = 1;

		for (int i = 0; i < 5; i++) {
			ssize_t r = read(rfd, rec, sizeof(rec));

			okay &= r == 20 + 20 + i &&
				!memcmp(rec + 20, marks[i], 20 + i);
		}
		okay &= read(rfd, rec, sizeof(rec)) == -1 && errno == EAGAIN;
		printf("%s - the records written before the faults read back byte for byte\n",
		       okay ? "ok" : "not ok");
		failures += !okay;
	}
	rmdir(cgpath);
	printf("# faultinj: %d faults injected\n", total);
	return failures ? 1 : 0;
}
