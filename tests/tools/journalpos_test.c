// SPDX-License-Identifier: GPL-2.0
/*
 * journalpos_test: asking a real journal which record of a log it has
 * (journalpos.c), against a systemd-journald of the test's own that
 * journal_test.sh starts in a private mount namespace.  Entries are
 * sent as the collector sends them (output.c, journalrec.c, through
 * sd_journal_sendv()), so that the fields asked for are the fields
 * written.  Last, a sender killed (SIGKILL) mid-flood: the journal
 * lacks what was still queued on journald's socket, and once journald
 * synchronized, it has every entry whose send returned.
 *
 * Usage: journalpos_test DIR JOURNALD-PID (DIR: its files,
 * /run/log/journal; the pid, to stop it for a while)
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collector/cstate.h"
#include "collector/journalpos.h"
#include "collector/output.h"
#include "tap.h"

#define NS_ID	4026532301ULL
#define S1	6414010659057826751ULL
#define S2	(S1 + 1)
#define S3	(S1 + 2)
#define S4	(S1 + 3)
#define BOOT2	"9e1f3a2b-0000-4ad0-9c4e-0b0b3f1b6a1d"

static struct nslog_out out;
static char boot[NSLOG_BOOT_ID_LEN + 1];
static const char *dir;

static int send_rec(__u64 set_id, const char *log, __u64 seq)
{
	struct nslog_rec rec = {
		.has_seq = true, .seq = seq, .order = seq, .pid = 42,
		.tid = 42, .sec = 1796400000, .has_euid = true,
	};
	struct nslog_decoded t = {
		.prio = 4, .tag = "jtest", .tag_len = 5, .msg = "m",
		.msg_len = 1,
	};
	struct nslog_meta m = {
		.log = log, .has_set = true, .set_id = set_id, .has_ns = true,
		.ns_id = NS_ID,
	};

	return nslog_out_record(&out, &rec, &t, &m, false);
}

static int send_loss(__u64 set_id, const char *log, bool known,
		     __u64 first, __u64 count)
{
	struct nslog_loss loss = {
		.known = known, .count = count, .first_seq = first,
	};
	struct nslog_meta m = {
		.log = log, .has_set = true, .set_id = set_id, .has_ns = true,
		.ns_id = NS_ID,
	};

	return nslog_out_loss(&out, &m, &loss);
}

/* The journal's word on a log: -1 if it has none, -2 on an error. */
static long long last_of(const char *boot_id, uid_t uid, __u64 set_id,
			 const char *log)
{
	struct nslog_jpos q;
	struct nslog_pos pos;
	int ret;

	if (nslog_jpos_open(&q, dir, boot_id, uid))
		return -2;
	ret = nslog_jpos_last(&q, set_id, log, &pos);
	nslog_jpos_close(&q);
	if (ret)
		return -2;
	return pos.has ? (long long)pos.last : -1;
}

static void test_sync(void)
{
	tap_int("sync: journald answers io.systemd.Journal.Synchronize",
		nslog_journal_sync(NSLOG_JOURNAL_VARLINK, 10000), 0);
	tap_int("sync: no socket there: -ENOENT",
		nslog_journal_sync("/run/systemd/journal/nonexistent", 1000),
		-ENOENT);
}

static void test_last(void)
{
	__u64 i;
	int ret = 0;

	tap_int("last: a set the journal never saw has no record",
		last_of(boot, getuid(), S1, "main"), -1);
	for (i = 0; i < 100; i++)
		ret |= send_rec(S1, "main", i);
	for (i = 0; i < 10; i++)
		ret |= send_rec(S1, "system", i);
	for (i = 0; i < 3; i++)
		ret |= send_rec(S2, "main", i);
	ret |= send_loss(S2, "main", true, 3, 5);	/* seq 3 to 7 */
	ret |= send_rec(S3, "main", 7);
	ret |= send_loss(S3, "main", false, 8, 0);	/* set gone */
	tap_int("last: every entry sent", ret, 0);
	nslog_journal_sync(NSLOG_JOURNAL_VARLINK, 10000);
	tap_int("last: main's newest record", last_of(boot, getuid(), S1,
							"main"), 99);
	tap_int("last: system's, apart from main's",
		last_of(boot, getuid(), S1, "system"), 9);
	tap_int("last: a log of the set with no record",
		last_of(boot, getuid(), S1, "radio"), -1);
	tap_int("last: a record of lost records counts to its last seq",
		last_of(boot, getuid(), S2, "main"), 7);
	tap_int("last: a \"may have been lost\" record is passed over",
		last_of(boot, getuid(), S3, "main"), 7);
	tap_int("last: entries of another boot do not count",
		last_of(BOOT2, getuid(), S1, "main"), -1);
	tap_int("last: entries of another uid do not count",
		last_of(boot, getuid() + 4242, S1, "main"), -1);
}

/* Another user sends our fields with a higher seq: it must not count. */
static void test_forged(void)
{
	pid_t pid;
	int status = -1;

	if (getuid() != 0) {
		tap_ok(true, "forged: # SKIP not uid 0");
		return;
	}
	pid = fork();
	if (!pid) {
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(77);
		_exit(send_rec(S1, "main", 5000) ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		tap_ok(true, "forged: # SKIP cannot become uid 65534 here");
		return;
	}
	nslog_journal_sync(NSLOG_JOURNAL_VARLINK, 10000);
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status) &&
	       last_of(boot, 0, S1, "main") == 99 &&
	       last_of(boot, 65534, S1, "main") == 5000,
	       "forged: seq 5000 sent by uid 65534 is not root's word (99)");
}

/* Wait (1 ms at a time, up to 10 s) until *@v is at least @n. */
static bool wait_for(volatile __u64 *v, __u64 n)
{
	struct timespec ts = { 0, 1000000 };
	int i;

	for (i = 0; i < 10000 && *v < n; i++)
		nanosleep(&ts, NULL);
	return *v >= n;
}

/*
 * A sender killed mid-flood.  It counts, in shared memory, the sends
 * that returned; once journald synchronized, the journal's newest seq
 * is the last of them, or the one whose send returned as it was killed.
 * journald is stopped (SIGSTOP) for the end of the flood, so that the
 * sender's last entries are queued on its socket when the sender dies,
 * as they may be after any SIGKILL: the journal read then lacks them,
 * and has them once journald synchronized.
 */
static void test_killed(pid_t jd)
{
	struct timespec pause = { 0, 200000000 };
	volatile __u64 *acked;
	long long before, after;
	__u64 i, n;
	pid_t pid;
	bool ok;

	acked = mmap(NULL, sizeof(*acked), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (acked == MAP_FAILED) {
		tap_ok(false, "killed: shared memory");
		return;
	}
	*acked = 0;
	pid = fork();
	if (!pid) {
		for (i = 0; i < 1000000; i++) {
			if (send_rec(S4, "main", i))
				_exit(1);
			*acked = i + 1;
		}
		_exit(0);
	}
	ok = wait_for(acked, 3000);
	kill(jd, SIGSTOP);
	/*
	 * What it sends now stays queued, until the queue is full
	 * (net.unix.max_dgram_qlen) and the next send blocks.
	 */
	nanosleep(&pause, NULL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	n = *acked;
	tap_int("killed: journald stopped, a sync times out",
		nslog_journal_sync(NSLOG_JOURNAL_VARLINK, 300), -ETIMEDOUT);
	before = last_of(boot, getuid(), S4, "main");
	kill(jd, SIGCONT);
	tap_int("killed: journald synchronizes",
		nslog_journal_sync(NSLOG_JOURNAL_VARLINK, 10000), 0);
	after = last_of(boot, getuid(), S4, "main");
	printf("# killed after %" PRIu64 " sends returned; the journal read had seq %lld before the sync, %lld after\n",
	       (uint64_t)n, before, after);
	tap_ok(ok && before < (long long)n - 1,
	       "killed: before the sync, what was queued on journald's socket is not in the journal");
	tap_ok(after == (long long)n - 1 || after == (long long)n,
	       "killed: after the sync, the newest seq is the last send that returned (or the one in flight)");
	munmap((void *)acked, sizeof(*acked));
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: journalpos_test DIR JOURNALD-PID\n");
		return 2;
	}
	dir = argv[1];
	if (nslog_boot_id("/proc/sys/kernel/random/boot_id", boot) ||
	    nslog_out_parse(&out, "journal")) {
		tap_ok(false, "setup: boot id, output");
		return tap_done();
	}
	nslog_out_open(&out, stdout);
	test_sync();
	test_last();
	test_forged();
	test_killed((pid_t)atoi(argv[2]));
	nslog_out_close(&out);
	return tap_done();
}
