// SPDX-License-Identifier: GPL-2.0
/*
 * stress - a seeded, bounded-time stress and fuzz driver for nslogger.
 *
 *   stress [--seed N] [--seconds N] [--groups N] [--nslogfs] [--verbose]
 *
 * Runs as root in a throw-away machine (the QEMU guest) with the module
 * loaded and cgroup v2 on /sys/fs/cgroup.  It prints the seed first; the
 * same seed replays the same random choices (the interleaving of course
 * differs from run to run).
 *
 * Layout, all processes forked from the driver:
 *
 *   driver (init namespaces)
 *    |- group 0 leader: the initial IPC namespace
 *    |- group 1 leader: unshare(CLONE_NEWUSER | CLONE_NEWIPC)
 *    |- group 2 leader: unshare(CLONE_NEWIPC)
 *    |- group 3 leader: unshare(CLONE_NEWUSER | CLONE_NEWIPC) ...
 *    |     each leader forks, and respawns when they exit:
 *    |     2 writers, 2 readers, 1 chaos process and 1 relay in its
 *    |     namespace; a reader is non-blocking, or blocking with a timer
 *    |     signal that interrupts its reads, or 2 to 4 threads reading one
 *    |     file; the relay stores records with NSLOG_IOC_RELAY for its
 *    |     clients (children it moves between the group's cgroups, tells
 *    |     to exit or kills, and relays for while and after they exit),
 *    |     the leader and itself, and makes calls that must be refused
 *    |- cgroup manager: makes cgroups under /sys/fs/cgroup/nslstress.PID,
 *    |     sets and clears rate rules on them, moves writers between them,
 *    |     removes them
 *    |- collector: NSLOG_IOC_OPEN_NS readers on each group's namespace
 *    \- hostile tenant, in nslstress.PID/t-sets: sets default_limit for
 *          part of the run, then reads its writer's bucket and sets it off
 *          |- hoarder, as a spare uid U (no passwd entry): children that
 *          |     unshare(CLONE_NEWUSER | CLONE_NEWIPC), now and then nest
 *          |     one to three user namespaces deeper, and make one to four
 *          |     sets in turn, each in a new IPC namespace (open, write),
 *          |     passing the file and the nsfs file back over a socket; it
 *          |     keeps one or both, and closes random sets, until ENOSPC
 *          \- cgroup writer: an IPC namespace of its own, then uid U + 1 in
 *                the delegated (chowned) nslstress.PID/t-cg: makes cgroups
 *                below it, moves itself between them, writes bursts
 *
 * With --nslogfs, each group leader also mounts nslogfs (its set, the one
 * its nodes reach) in a mount namespace of its own, and every open of a
 * group's writers, readers and chaos process takes the node or the mount's
 * file at random: the invariants below are the same, as the files are.
 * An unshare() child goes back to the nodes (its mount shows the group's
 * set, not its new namespace's).
 *
 * Every record a writer stores carries a header of its own in the payload:
 * a magic, the group (namespace tag), the writer id, the log, a per-writer
 * per-log sequence number, the stored length, pid, tid and euid; the rest
 * of the payload is derived from the seed, the writer, the log and the
 * sequence number.  A writer only moves to the next sequence number once a
 * write stored the record (rate-limit drops are made visible as -EAGAIN by
 * setting drop_errno for the run), so the stored sequence of each writer is
 * gapless unless records were overwritten or flushed.
 *
 * A relay stores under a writer id of its own, with sequence numbers of its
 * own, records whose payload names the writer (its pid, claimed tid, euid)
 * and says what the relay expects of the record: alive (verified), exiting
 * (either), reaped (unverified: NSLOG_RELAY_KEEP_EXITED), or refused (a bad
 * argument, which must never be stored).
 *
 * Readers check, for each record: one whole, well-formed record per read
 * (header fields against the size read() returned, v1, v2 or nslogger's
 * 0x4e54 layout), the header's pid/tid/euid against the payload, the
 * payload byte for byte, the namespace tag, and that each writer's sequence
 * only goes forward.  With the 0x4e54 header, also: the log id, the seq
 * one more than the last one read plus the records reported lost, the
 * order growing, and for a relayed record the flag, the relay's pid, the
 * claimed time and NSLOG_ENTRY_UNVERIFIED as the relay expected it.  A
 * reader that cannot have been lapped (fewer bytes entered its ring since it
 * opened than the ring holds, with a bound for records in flight and for
 * rate-limit notices) and saw no flush must see every record stored after
 * it opened: gaps and missing tails are reported then.  Threads sharing one
 * file check the same, except for gaps; no record may reach two of them,
 * and between them, once the file is drained, they must have had every
 * record stored since that round of threads began.
 *
 * The hostile tenant checks the promises made to the others.  Its hoarder
 * never holds more sets at once than ns_per_owner allows, and is refused
 * (ENOSPC) first at exactly that many; any other error is a failure.
 * While it is at its quota the driver's own fresh namespace (the host)
 * still gets a set; at the end, while it holds them, /proc/nslogger/owners
 * shows its uid with at least the sets it holds and at most ns_per_owner,
 * and another owner (uid U + 1 in a user namespace) still gets a set.  Its
 * cgroup writer's subtree has one default bucket however many cgroups it
 * makes: no bucket below it in /proc/nslogger/limits, the bucket counts
 * exactly the records the writer stored and had refused, and it let
 * through at most burst + rate * time + 1 records and bytes; the notices
 * the writer reads back name the subtree, add up to no more than its
 * drops, and come at most once per notice_interval_ms in each log.
 *
 * Shared state lives in one MAP_SHARED mapping made before the forks.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/nslogger.h>

#define NGROUPS_MAX_	8
#define NWRITERS	2	/* per group; the chaos process is one more */
#define NREADERS	2
#define RELAY_WID	(NWRITERS + 1)	/* the slot of the group's relay */
#define NWSLOTS		(NWRITERS + 2)	/* writers, chaos process, relay */
#define NRCLIENTS	3	/* live writers a relay names, at most */
#define NLOGS		4
#define MAGIC		0x4d525453u	/* "STRM" */
#define UNSHARE_TAG	0x8000u
#define NOTICE_BOUND	256	/* ring bytes of one rate-limit notice, at most */
#define REC_HDR		40	/* the module's stored record header */
#define REL_HDR		16	/* what a relayed record adds in the ring */
#define NCGROUPS	3	/* per group */

static const char *const log_paths[NLOGS] = {
	"/dev/log_main", "/dev/log_events", "/dev/log_radio", "/dev/log_system",
};

/* With --nslogfs: where a group's mount is, and whether this process uses it. */
#define FS_DIR		"/mnt/nslstress"
static const char *const fs_paths[NLOGS] = {
	FS_DIR "/main", FS_DIR "/events", FS_DIR "/radio", FS_DIR "/system",
};
static int opt_nslogfs;
static int use_fs;

/* Operation counters, shared. */
enum op {
	OP_OPEN, OP_CLOSE, OP_WRITE, OP_WRITEV, OP_WRITE_TRUNC, OP_WRITE_DROPPED,
	OP_OPEN_FS, OP_READ, OP_READ_EINVAL, OP_READ_EAGAIN, OP_POLL, OP_IOCTL,
	OP_IOCTL_RANDOM, OP_SET_VERSION, OP_FLUSH, OP_OPEN_NS, OP_BAD_MODE,
	OP_UNSHARE, OP_UNSHARE_USERNS, OP_EXIT, OP_CG_MKDIR, OP_CG_RMDIR,
	OP_CG_RMDIR_BUSY, OP_CG_MOVE, OP_RULE_SET, OP_RULE_CLEAR, OP_RULE_BAD,
	OP_VERIFIED, OP_FOREIGN, OP_NOTICE, OP_COMPLETE_CHECK, OP_LAP_EXCUSED,
	OP_UNSHARE_LIMIT, OP_READ_EINTR, OP_SHARED_THREAD, OP_SHARED_CHECK,
	OP_IOCTL_EINTR, OP_T_SET, OP_T_ENOSPC, OP_T_RELEASE, OP_T_USERNS, OP_T_UNSHARE_LIMIT,
	OP_T_HOST, OP_T_OTHER, OP_T_CG_MKDIR, OP_T_CG_RMDIR, OP_T_CG_MOVE,
	OP_T_ACCEPTED, OP_T_DROPPED, OP_T_NOTICE, OP_UNSHARE_QUOTA,
	OP_S_CREATE, OP_S_UNLINK, OP_S_READBACK, OP_S_REPLACED, OP_S_EOF,
	OP_S_TRUNCATE, OP_S_LIST, OP_S_LIMIT,
	OP_E2_READ, OP_RELAY_CLIENT, OP_RELAY_CG_MOVE, OP_RELAY, OP_RELAY_RDFD,
	OP_RELAY_WSET, OP_RELAY_RACE, OP_RELAY_EXITED, OP_RELAY_GONE,
	OP_RELAY_DROPPED, OP_RELAY_REFUSED, OP_RELAY_VERIFIED,
	OP_RELAY_UNVERIFIED, OP_RELAY_RACE_VERIFIED, OP_RELAY_RACE_UNVERIFIED,
	OP_NR
};

static const char *const op_names[OP_NR] = {
	"open", "close", "write", "writev", "write_truncated", "write_dropped",
	"open_nslogfs", "read", "read_einval", "read_eagain", "poll", "ioctl",
	"ioctl_random", "set_version", "flush", "open_ns", "bad_mode_op",
	"unshare_ns", "unshare_userns", "exit_respawn", "cgroup_mkdir",
	"cgroup_rmdir", "cgroup_rmdir_busy", "cgroup_move", "rule_set",
	"rule_clear", "rule_bad", "records_verified", "earlier_runs_records",
	"notices_seen",
	"complete_checks", "lapped_or_flushed", "unshare_at_kernel_limit",
	"read_eintr", "shared_file_threads", "shared_file_checks",
	"ioctl_eintr", "tenant_sets", "tenant_enospc", "tenant_sets_released",
	"tenant_userns", "tenant_unshare_at_kernel_limit",
	"host_sets_at_quota", "other_owner_sets", "tenant_cgroup_mkdir",
	"tenant_cgroup_rmdir", "tenant_cgroup_move", "tenant_records_accepted",
	"tenant_records_dropped", "tenant_notices_seen",
	"unshare_at_owner_quota",
	"stream_create", "stream_unlink", "stream_own_record_read",
	"stream_replaced_between_opens", "stream_removed_reader_eof",
	"stream_truncate", "stream_listing", "stream_at_limit",
	"records_read_0x4e54", "relay_clients", "relay_client_cgroup_move",
	"relay_stored", "relay_through_read_fd", "relay_writer_set",
	"relay_racing_exit", "relay_for_exited", "relay_racing_esrch",
	"relay_dropped", "relay_refused", "relayed_read_0x4e54",
	"relayed_read_unverified", "relayed_race_read_verified",
	"relayed_race_read_unverified",
};

/* Invariants, each counted separately. */
enum inv {
	INV_FORMAT, INV_ORDER, INV_CONTENT, INV_COMPLETE, INV_NAMESPACE,
	INV_ERRNO, INV_UNSHARE, INV_CGROUP, INV_HANG, INV_SHARED, INV_QUOTA,
	INV_DEFAULT, INV_STREAM, INV_SEQ, INV_RELAY, INV_NR
};

static const char *const inv_names[INV_NR] = {
	"every read returns one well-formed record",
	"per-writer sequence never goes backwards for a reader",
	"every record read matches one written, byte for byte",
	"a reader that was not lapped misses nothing",
	"no record of another namespace is seen",
	"ioctls, modes and bad arguments give the documented errors",
	"a fresh namespace holds exactly its own records",
	"rate rules and cgroups are made, cleared and removed",
	"every process finished in time",
	"threads sharing one file are each handed different records",
	"a tenant holds at most ns_per_owner sets; the host and others still get theirs",
	"a tenant's new cgroups share one default bucket, held to its bound",
	"a stream's records carry its log id; a removed stream's reader ends",
	"a log's seq, lost and order add up for every reader (0x4e54 header)",
	"a relayed record names its writer and its relay; a refused relay stores nothing",
};

struct wstate {
	uint32_t started[NLOGS];	/* seq of the write in progress */
	uint32_t committed[NLOGS];	/* last seq stored, 0 = none */
	int32_t pid;
};

struct lstate {
	uint64_t bytes;		/* upper bound of bytes entered, added first */
	uint64_t flush_gen;	/* odd while a flush is in progress */
};

struct gstate {
	uint64_t ns_id;
	int ready;
	int userns;
	int32_t leader;		/* the group leader's pid */
	struct wstate w[NWSLOTS];
	struct lstate l[NLOGS];
};

/* The hostile tenant: its hoarder (h), its cgroup writer (w). */
struct tstate {
	uint32_t uid;		/* the hoarder's; the writer's is uid + 1 */
	int quota;		/* ns_per_owner, -1 if the module has none */
	int pre;		/* sets its owner had before the run */
	int no_userns;		/* the hoarder could make no user namespace */
	int h_state;		/* TH_* */
	int at_quota;		/* refused, and nothing closed since */
	int release;		/* set by the driver once it has looked */
	int held;
	int max_held;
	int first_refusal;	/* sets held when first refused, -1 none */
	int final_held;
	int owners_count;	/* what /proc/nslogger/owners said then */
	int go;			/* default_limit is set: write */
	int phase_over;
	int w_done;
	uint64_t t0_ns, t1_ns;	/* the writer's first and last write */
	uint64_t tried, tried_bytes, accepted, accepted_bytes;
	uint64_t dropped, dropped_bytes;
	uint64_t notices[NLOGS], notice_records;
	uint64_t bound, bound_bytes;	/* computed from its bucket's line */
	int checked;		/* its bucket was looked at */
};

struct shared {
	int stop;
	int ngroups;
	int32_t driver;		/* the driver's pid */
	uint64_t ops[OP_NR];
	uint64_t viol[INV_NR];
	uint64_t printed;
	struct gstate g[NGROUPS_MAX_];
	struct tstate t;
};

static struct shared *sh;
static uint64_t seed;
static int verbose;
static char cgroot[64];
static time_t start_time;
static uint32_t run_id;
static int run_seconds;

#define A_ADD(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST)
#define A_LOAD(p)	__atomic_load_n((p), __ATOMIC_SEQ_CST)
#define A_STORE(p, v)	__atomic_store_n((p), (v), __ATOMIC_SEQ_CST)

static void count(enum op op)
{
	A_ADD(&sh->ops[op], 1);
}

static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* A reader's timer signal may interrupt the write. */
	while (write(1, line, n) < 0)
		if (errno != EINTR)
			_exit(3);
}

static void violation(enum inv inv, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	A_ADD(&sh->viol[inv], 1);
	if (A_ADD(&sh->printed, 1) <= 30)
		say("# VIOLATION (%s) seed=%" PRIu64 " pid=%d: %s",
		    inv_names[inv], seed, getpid(), msg);
}

/* splitmix64: a small, good, seedable generator. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Per thread: the threads of a shared-file reader each have a stream. */
static __thread uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state += 0x9e3779b97f4a7c15ull;
	return mix(rng_state);
}

static uint32_t rnd_below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

/* Each process gets its own stream, derived from the seed and its role. */
static void rng_init(uint64_t role)
{
	rng_state = mix(seed ^ mix(role));
}

static int stopping(void)
{
	return A_LOAD(&sh->stop);
}

/* ---- payloads ---------------------------------------------------------- */

struct pl {
	uint32_t magic;
	uint32_t run;		/* this run's id: the initial namespace is shared */
	uint16_t group;
	uint16_t wid;
	uint32_t log;
	uint32_t seq;
	uint32_t len;
	int32_t pid;
	int32_t tid;
	uint32_t euid;
};				/* 36 bytes */

static void fill(uint8_t *p, size_t len, unsigned int group, unsigned int wid,
		 unsigned int log, uint32_t seq)
{
	uint64_t k = mix(seed ^ ((uint64_t)group << 56) ^ ((uint64_t)wid << 48) ^
			 ((uint64_t)log << 40) ^ seq);

	for (size_t i = sizeof(struct pl); i < len; i++) {
		if (!(i & 7))
			k = mix(k);
		p[i] = k >> ((i & 7) * 8);
	}
}

/*
 * Build a record of @want bytes (the kernel keeps at most 4076) as written
 * by @pid, @tid and @euid.
 */
static size_t build_as(uint8_t *p, size_t want, unsigned int group,
		       unsigned int wid, unsigned int log, uint32_t seq,
		       int32_t pid, int32_t tid, uint32_t euid)
{
	size_t stored = want > LOGGER_ENTRY_MAX_PAYLOAD ?
			LOGGER_ENTRY_MAX_PAYLOAD : want;
	struct pl h = {
		.magic = MAGIC, .run = run_id, .group = group, .wid = wid, .log = log,
		.seq = seq, .len = stored, .pid = pid, .tid = tid, .euid = euid,
	};

	memcpy(p, &h, sizeof(h));
	fill(p, want, group, wid, log, seq);
	return stored;
}

/* Build a record of @want bytes as written by the caller. */
static size_t build(uint8_t *p, size_t want, unsigned int group,
		    unsigned int wid, unsigned int log, uint32_t seq)
{
	return build_as(p, want, group, wid, log, seq, getpid(),
			syscall(SYS_gettid), geteuid());
}

/*
 * A relayed record's payload has this after struct pl, where the rest of
 * a written one's starts: what the relay expects of the record.
 */
enum {
	RM_LIVE = 1,	/* the writer named is alive: verified */
	RM_RACE,	/* it was told to exit, or killed, just before: either */
	RM_EXITED,	/* it was reaped: unverified (NSLOG_RELAY_KEEP_EXITED) */
	RM_REFUSED,	/* a bad argument: must never be stored */
};

struct rpl {
	uint32_t mode;		/* RM_* */
	int32_t relay;		/* the relay's pid */
	int64_t claim_ns;	/* the time it claims for the writer */
};				/* 16 bytes */

static size_t pick_len(void)
{
	uint32_t r = rnd_below(100);

	if (r < 70)
		return 40 + rnd_below(160);
	if (r < 90)
		return 200 + rnd_below(800);
	if (r < 98)
		return 1000 + rnd_below(LOGGER_ENTRY_MAX_PAYLOAD - 1000 + 1);
	return LOGGER_ENTRY_MAX_PAYLOAD + 1 + rnd_below(2000);
}

/* Bytes one record of @len takes in the ring, with a notice before it. */
static uint64_t footprint(size_t len)
{
	if (len > LOGGER_ENTRY_MAX_PAYLOAD)
		len = LOGGER_ENTRY_MAX_PAYLOAD;
	return REC_HDR + ((len + 7) & ~7ul) + NOTICE_BOUND;
}

/* ---- writing ----------------------------------------------------------- */

static int open_log(unsigned int log, int flags)
{
	int fs = use_fs && rnd_below(2);
	int fd = open(fs ? fs_paths[log] : log_paths[log], flags);

	if (fd >= 0)
		count(fs ? OP_OPEN_FS : OP_OPEN);
	return fd;
}

static void close_fd(int fd)
{
	close(fd);
	count(OP_CLOSE);
}

/*
 * Store the next record of writer @wid of group @g in log @log through
 * @fd, by write() or by liblog's three iovecs.  Returns 1 if stored, 0 if
 * a rate limit dropped it (the same sequence number is tried again later).
 */
static int write_one(int fd, unsigned int g, unsigned int wid, unsigned int log)
{
	static uint8_t buf[8192];
	struct wstate *w = &sh->g[g].w[wid];
	uint32_t seq = A_LOAD(&w->committed[log]) + 1;
	size_t want = pick_len(), stored;
	ssize_t ret;

	stored = build(buf, want, g, wid, log, seq);
	A_STORE(&w->started[log], seq);
	A_ADD(&sh->g[g].l[log].bytes, footprint(want));
	if (rnd_below(2)) {
		/* liblog: priority, tag, message; any cut will do. */
		size_t a = rnd_below(want + 1), b = a + rnd_below(want - a + 1);
		struct iovec iov[3] = {
			{ buf, a }, { buf + a, b - a }, { buf + b, want - b },
		};

		ret = writev(fd, iov, 3);
		count(OP_WRITEV);
	} else {
		ret = write(fd, buf, want);
		count(OP_WRITE);
	}
	if (ret < 0 && errno == EAGAIN) {
		count(OP_WRITE_DROPPED);
		return 0;
	}
	if (ret != (ssize_t)stored) {
		violation(INV_ERRNO, "write of %zu returned %zd (errno %d), want %zu",
			  want, ret, errno, stored);
		return 0;
	}
	if (want != stored)
		count(OP_WRITE_TRUNC);
	A_STORE(&w->committed[log], seq);
	return 1;
}

static void writer_main(unsigned int g, unsigned int wid)
{
	int fds[NLOGS];
	int ops = 200 + rnd_below(3000);

	/* A writer as an ordinary user: its records carry euid 1000. */
	if (!sh->g[g].userns && wid == 1 && g % 2 == 0 && seteuid(1000))
		violation(INV_ERRNO, "seteuid: %s", strerror(errno));
	for (int l = 0; l < NLOGS; l++) {
		fds[l] = open_log(l, O_WRONLY | (rnd_below(2) ? O_NONBLOCK : 0));
		if (fds[l] < 0) {
			violation(INV_ERRNO, "writer open %s: %s", log_paths[l],
				  strerror(errno));
			_exit(1);
		}
	}
	while (!stopping() && ops-- > 0) {
		unsigned int l = rnd_below(NLOGS);

		if (!write_one(fds[l], g, wid, l))
			usleep(1000 + rnd_below(5000));
		else if (rnd_below(4) == 0)
			usleep(rnd_below(3000));
	}
	/* Exit with the files open now and then: release must clean up. */
	if (rnd_below(2))
		for (int l = 0; l < NLOGS; l++)
			close_fd(fds[l]);
	_exit(0);
}

/* ---- reading ----------------------------------------------------------- */

struct reader {
	int fd;
	unsigned int g;		/* whose records it reads */
	unsigned int log;
	int version;		/* 1, 2 or NSLOG_ENTRY2_VERSION */
	int e2_have;		/* the last record read came with 0x4e54's header: */
	uint64_t e2_seq;	/* its seq */
	uint64_t e2_order;	/* and its order */
	uint64_t size;
	uint64_t bytes0;
	uint64_t flush0;
	uint64_t fill0;		/* unread bytes at open */
	uint32_t started0[NWSLOTS];
	uint32_t last[NWSLOTS];
	int signals;		/* blocking, with a timer signal: EINTR is fine */
	struct seen *seen;	/* one of several threads on one file */
	int draining;		/* that file's last, single-threaded drain */
};

/*
 * Snapshots after the open, or once the file is drained: anything started
 * later is newer, and the reader must see it unless lapped or flushed.
 */
static void reader_mark(struct reader *r)
{
	struct gstate *gs = &sh->g[r->g];

	r->flush0 = A_LOAD(&gs->l[r->log].flush_gen);
	r->bytes0 = A_LOAD(&gs->l[r->log].bytes);
	for (int w = 0; w < NWSLOTS; w++) {
		r->started0[w] = A_LOAD(&gs->w[w].started[r->log]);
		r->last[w] = 0;
	}
}

static int reader_open(struct reader *r, unsigned int g, unsigned int log,
		       int fd)
{
	long size;

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->g = g;
	r->log = log;
	r->version = 1;
	reader_mark(r);
	size = ioctl(fd, LOGGER_GET_LOG_BUF_SIZE);
	count(OP_IOCTL);
	if (size < 8192 || (size & (size - 1))) {
		violation(INV_ERRNO, "GET_LOG_BUF_SIZE = %ld", size);
		return -1;
	}
	r->size = size;
	r->fill0 = ioctl(fd, LOGGER_GET_LOG_LEN);
	count(OP_IOCTL);
	if (rnd_below(2)) {
		int v = rnd_below(2) ? 2 : NSLOG_ENTRY2_VERSION;

		if (ioctl(fd, LOGGER_SET_VERSION, &v))
			violation(INV_ERRNO, "SET_VERSION %#x: %s", v, strerror(errno));
		else
			r->version = v;
		count(OP_SET_VERSION);
	}
	return 0;
}

/* The header a reader of @version gets, in bytes. */
static size_t hdr_size(int version)
{
	if (version == NSLOG_ENTRY2_VERSION)
		return sizeof(struct nslog_entry2);
	return version == 2 ? sizeof(struct logger_entry_v2) :
	       sizeof(struct logger_entry);
}

/*
 * Could this reader have lost records stored since it opened (@old 0), or
 * any record, those already there at open included (@old 1)?
 */
static int may_have_lost(struct reader *r, int old)
{
	struct lstate *ls = &sh->g[r->g].l[r->log];
	uint64_t slack = NWSLOTS * footprint(LOGGER_ENTRY_MAX_PAYLOAD) + REL_HDR;

	if (r->flush0 & 1 || A_LOAD(&ls->flush_gen) != r->flush0)
		return 1;
	return A_LOAD(&ls->bytes) - r->bytes0 + slack + (old ? r->fill0 : 0) >=
	       r->size;
}

static int excused(struct reader *r)
{
	return may_have_lost(r, 0);
}

static int is_notice(const uint8_t *p, size_t len, unsigned int log)
{
	static const char text[] = "\5nslogger\0nslogger: suppressed ";
	int32_t tag;

	if (log == 1) {
		if (len < 9)
			return 0;
		memcpy(&tag, p, 4);
		return tag == NSLOG_EVENT_TAG_SUPPRESSED && p[4] == NSLOG_EVENT_STRING;
	}
	return len >= sizeof(text) - 1 && !memcmp(p, text, sizeof(text) - 1) &&
	       p[len - 1] == 0;
}

/*
 * Several threads reading one file: which sequence numbers of each writer
 * the file handed out, to any of them.  A bit per number, modulo SEEN_BITS:
 * one reader's life spans far fewer numbers of a writer than that.
 */
#define SEEN_BITS	65536

struct seen {
	uint64_t bits[NWSLOTS][SEEN_BITS / 64];
};

/* Mark @seq of writer @w handed out; 0 if it already was, to some thread. */
static int seen_mark(struct seen *s, unsigned int w, uint32_t seq)
{
	uint64_t bit = 1ull << (seq % 64);
	uint64_t *word = &s->bits[w][seq % SEEN_BITS / 64];

	return !(__atomic_fetch_or(word, bit, __ATOMIC_SEQ_CST) & bit);
}

static int seen_has(struct seen *s, unsigned int w, uint32_t seq)
{
	return !!(A_LOAD(&s->bits[w][seq % SEEN_BITS / 64]) & 1ull << (seq % 64));
}

/* Android's LOG_ID_* of each of log_paths[]: main, events, radio, system. */
static const uint32_t android_ids[NLOGS] = { 0, 2, 1, 3 };

/*
 * What nslogger's header with relays (0x4e54) says of every record, the
 * kernel's own and earlier tests' included: its fields are consistent, it
 * is of this log, and its seq follows the last one this reader read (@have)
 * by one, plus the records it was told it lost; its order only grows.
 * Threads sharing a file see the others' records as gaps: there the seq
 * must only grow by at least that much.  0 if it holds.
 */
static int check_e2_header(struct reader *r, const struct nslog_entry2 *e,
			   int have)
{
	const uint32_t known = NSLOG_ENTRY_KERNEL | NSLOG_ENTRY_RELAYED |
			       NSLOG_ENTRY_UNVERIFIED;
	int relayed = !!(e->flags & NSLOG_ENTRY_RELAYED);
	uint64_t want = r->e2_seq + 1 + e->lost;

	if (e->__reserved || e->log_id != android_ids[r->log] || e->time_ns < 0 ||
	    (e->flags & ~known) ||
	    ((e->flags & NSLOG_ENTRY_UNVERIFIED) && !relayed) ||
	    (!relayed && (e->relay_pid || e->stored_ns != e->time_ns))) {
		violation(INV_FORMAT, "0x4e54 header of log %u: log id %u, flags %#x, relay %d, time %lld, stored %lld, reserved %u",
			  r->log, e->log_id, e->flags, e->relay_pid,
			  (long long)e->time_ns, (long long)e->stored_ns,
			  e->__reserved);
		return -1;
	}
	count(OP_E2_READ);
	r->e2_have = 1;
	if (have && (r->seen ? e->seq < want : e->seq != want)) {
		violation(INV_SEQ, "group %u log %u: seq %llu after %llu with %llu lost",
			  r->g, r->log, (unsigned long long)e->seq,
			  (unsigned long long)r->e2_seq,
			  (unsigned long long)e->lost);
	} else if (have && e->order <= r->e2_order) {
		violation(INV_SEQ, "group %u log %u: order %llu after %llu",
			  r->g, r->log, (unsigned long long)e->order,
			  (unsigned long long)r->e2_order);
	}
	r->e2_seq = e->seq;
	r->e2_order = e->order;
	return 0;
}

/*
 * A record of this run, as the 0x4e54 header shows it: one a relay stored
 * (@rp, its expectations, else NULL) has NSLOG_ENTRY_RELAYED, the relay's
 * pid and the time it claimed, and is unverified exactly when its writer
 * had been reaped (either, for one that was exiting); one written has none
 * of that.  The pid, tid and euid were checked against the payload already.
 */
static void check_relayed(const struct nslog_entry2 *e, const struct pl *pl,
			  const struct rpl *rp)
{
	int unverified = !!(e->flags & NSLOG_ENTRY_UNVERIFIED);

	if (!rp) {
		if (e->flags)
			violation(INV_RELAY, "group %u writer %u seq %u: written, with flags %#x",
				  pl->group, pl->wid, pl->seq, e->flags);
		return;
	}
	if (e->flags != (NSLOG_ENTRY_RELAYED | (unverified ? NSLOG_ENTRY_UNVERIFIED : 0)) ||
	    e->relay_pid != rp->relay || e->time_ns != rp->claim_ns ||
	    e->stored_ns < ((int64_t)start_time - 60) * 1000000000) {
		violation(INV_RELAY, "group %u log %u seq %u: flags %#x, relay %d, time %lld, stored %lld; relay %d claimed %lld",
			  pl->group, pl->log, pl->seq, e->flags, e->relay_pid,
			  (long long)e->time_ns, (long long)e->stored_ns,
			  rp->relay, (long long)rp->claim_ns);
		return;
	}
	if ((rp->mode == RM_LIVE && unverified) ||
	    (rp->mode == RM_EXITED && !unverified)) {
		violation(INV_RELAY, "group %u log %u seq %u: relayed for pid %d %s, but %s",
			  pl->group, pl->log, pl->seq, pl->pid,
			  rp->mode == RM_LIVE ? "alive" : "reaped",
			  unverified ? "unverified" : "verified");
		return;
	}
	count(OP_RELAY_VERIFIED);
	if (unverified)
		count(OP_RELAY_UNVERIFIED);
	if (rp->mode == RM_RACE)
		count(unverified ? OP_RELAY_RACE_UNVERIFIED : OP_RELAY_RACE_VERIFIED);
}

/* Check one record read() returned: @n bytes at @buf. */
static void check_record(struct reader *r, const uint8_t *buf, ssize_t n)
{
	size_t hsz = hdr_size(r->version);
	int e2 = r->version == NSLOG_ENTRY2_VERSION, have = r->e2_have;
	struct logger_entry_v2 h = { 0 };
	struct nslog_entry2 e = { 0 };
	static __thread uint8_t want[LOGGER_ENTRY_MAX_PAYLOAD];
	const uint8_t *p = buf + hsz;
	const struct rpl *relay = NULL;
	struct rpl rp;
	struct pl pl;
	struct wstate *ws;
	enum inv inv;

	/* Followed by the next only if this one's seq is known. */
	r->e2_have = 0;
	if (e2) {
		memcpy(&e, buf, n < (ssize_t)sizeof(e) ? (size_t)n : sizeof(e));
		h.len = e.len;
		h.hdr_size = e.hdr_size;
		h.pid = e.pid;
		h.tid = e.tid;
		h.euid = e.euid;
		h.sec = e.time_ns / 1000000000;
		h.nsec = e.time_ns % 1000000000;
	} else {
		memcpy(&h, buf, n < 24 ? (size_t)n : 24);
	}
	if ((size_t)n < hsz + 1 || (size_t)n != hsz + h.len ||
	    h.len > LOGGER_ENTRY_MAX_PAYLOAD) {
		violation(INV_FORMAT, "read %zd bytes, header len %u, version %#x",
			  n, h.len, r->version);
		return;
	}
	if ((r->version == 1 && h.hdr_size != 0) ||
	    (r->version != 1 && h.hdr_size != hsz)) {
		violation(INV_FORMAT, "version %#x header has pad/hdr_size %u",
			  r->version, h.hdr_size);
		return;
	}
	if (h.nsec < 0 || h.nsec >= 1000000000) {
		violation(INV_FORMAT, "bad time %d.%09d", h.sec, h.nsec);
		return;
	}
	if (e2 && check_e2_header(r, &e, have))
		return;
	if (is_notice(p, h.len, r->log)) {
		/* The kernel's; an earlier test may have left a forgery. */
		if (e2 && e.flags != NSLOG_ENTRY_KERNEL &&
		    (r->g != 0 || h.sec > start_time))
			violation(INV_FORMAT, "a notice with flags %#x", e.flags);
		count(OP_NOTICE);
		return;
	}
	/*
	 * The initial namespace's rings may still hold records of earlier
	 * tests, of any form; only a record stamped since this run began must
	 * be one of ours.
	 */
	if (r->g == 0 && h.sec <= start_time &&
	    (h.len < sizeof(pl) || memcmp(p, &(uint32_t){ MAGIC }, 4))) {
		count(OP_FOREIGN);
		return;
	}
	if (h.len < sizeof(pl)) {
		violation(INV_CONTENT, "unknown record of %u bytes", h.len);
		return;
	}
	memcpy(&pl, p, sizeof(pl));
	if (pl.magic != MAGIC) {
		violation(INV_CONTENT, "unknown record, magic %08x", pl.magic);
		return;
	}
	if (pl.run != run_id) {
		/* An earlier run's, still in the initial namespace's ring. */
		if (r->g != 0)
			violation(INV_NAMESPACE, "group %u has a record of run %08x",
				  r->g, pl.run);
		count(OP_FOREIGN);
		return;
	}
	if ((uint32_t)h.sec + 60 < (uint32_t)start_time) {
		violation(INV_FORMAT, "record of this run stamped %d, run began at %ld",
			  h.sec, (long)start_time);
		return;
	}
	if (pl.group != r->g) {
		violation(INV_NAMESPACE, "reader of group %u got group %u's record",
			  r->g, pl.group);
		return;
	}
	if (pl.wid >= NWSLOTS || pl.log != r->log || pl.len != h.len ||
	    (pl.wid == RELAY_WID && h.len < sizeof(pl) + sizeof(rp))) {
		violation(INV_CONTENT, "payload says wid %u log %u len %u, header len %u (log %u)",
			  pl.wid, pl.log, pl.len, h.len, r->log);
		return;
	}
	if (pl.wid == RELAY_WID) {
		memcpy(&rp, p + sizeof(pl), sizeof(rp));
		relay = &rp;
		if (rp.mode == RM_REFUSED || rp.mode < RM_LIVE) {
			violation(INV_RELAY, "group %u log %u: a relay's record stored although refused (mode %u, seq %u)",
				  r->g, r->log, rp.mode, pl.seq);
			return;
		}
	}
	/* A relayed record's pid is the writer named, its tid the claim. */
	inv = relay ? INV_RELAY : INV_FORMAT;
	if (h.pid != pl.pid || h.tid != pl.tid ||
	    (r->version != 1 && h.euid != pl.euid)) {
		violation(inv, "header pid %d tid %d euid %u, writer was %d %d %u",
			  h.pid, h.tid, h.euid, pl.pid, pl.tid, pl.euid);
		return;
	}
	memcpy(want, p, sizeof(pl));
	fill(want, h.len, pl.group, pl.wid, pl.log, pl.seq);
	if (relay)
		memcpy(want + sizeof(pl), relay, sizeof(*relay));
	if (memcmp(want, p, h.len)) {
		violation(INV_CONTENT, "group %u writer %u log %u seq %u: payload differs",
			  pl.group, pl.wid, pl.log, pl.seq);
		return;
	}
	ws = &sh->g[r->g].w[pl.wid];
	if (pl.seq > A_LOAD(&ws->started[r->log])) {
		violation(INV_CONTENT, "seq %u of writer %u not written yet",
			  pl.seq, pl.wid);
		return;
	}
	count(OP_VERIFIED);
	if (e2)
		check_relayed(&e, &pl, relay);
	if (r->seen && !seen_mark(r->seen, pl.wid, pl.seq)) {
		violation(INV_SHARED, "group %u writer %u log %u: seq %u read twice from one file",
			  r->g, pl.wid, r->log, pl.seq);
		return;
	}
	if (pl.seq <= r->last[pl.wid]) {
		violation(INV_ORDER, "group %u writer %u log %u: seq %u after %u",
			  r->g, pl.wid, r->log, pl.seq, r->last[pl.wid]);
		return;
	}
	if (!r->seen) {
		/* Stored after the open and skipped over? */
		uint32_t from = r->last[pl.wid] > r->started0[pl.wid] ?
				r->last[pl.wid] : r->started0[pl.wid];

		if (pl.seq > from + 1) {
			if (excused(r))
				count(OP_LAP_EXCUSED);
			else
				violation(INV_COMPLETE, "group %u writer %u log %u: seq %u..%u missing (ring %" PRIu64 ", %" PRIu64 " bytes since open)",
					  r->g, pl.wid, r->log, from + 1, pl.seq - 1,
					  r->size, A_LOAD(&sh->g[r->g].l[r->log].bytes) - r->bytes0);
		}
	}
	r->last[pl.wid] = pl.seq;
}

/*
 * Once the reader is drained: was every record committed before seen?  For
 * threads sharing a file, once they are done and the file is drained: did
 * every record stored after the open go to one of them?
 */
static void check_drained(struct reader *r, const uint32_t *committed)
{
	int any = 0;

	if (excused(r)) {
		count(OP_LAP_EXCUSED);
		return;
	}
	for (int w = 0; w < NWSLOTS; w++) {
		uint32_t from = r->last[w] > r->started0[w] ? r->last[w] :
			       r->started0[w];

		if (r->seen) {
			from = r->started0[w];
			if (committed[w] - from >= SEEN_BITS)
				continue;
			for (uint32_t seq = from + 1; seq <= committed[w]; seq++) {
				if (!seen_has(r->seen, w, seq)) {
					violation(INV_COMPLETE, "group %u writer %u log %u: seq %u went to none of the threads sharing the file (%u..%u stored)",
						  r->g, w, r->log, seq, from + 1, committed[w]);
					return;
				}
			}
		} else if (committed[w] > from) {
			violation(INV_COMPLETE, "group %u writer %u log %u: drained at seq %u, %u was stored",
				  r->g, w, r->log, r->last[w], committed[w]);
			return;
		}
		any |= committed[w] > r->started0[w];
	}
	if (any)
		count(r->seen ? OP_SHARED_CHECK : OP_COMPLETE_CHECK);
}

/* One read of one record, with a buffer around its size. */
static int reader_step(struct reader *r)
{
	static __thread uint8_t buf[8192 + 64];
	uint32_t committed[NWSLOTS];
	long next;
	size_t bsz;
	ssize_t n;
	int saved;

	if (rnd_below(8) == 0) {
		struct pollfd pfd = { .fd = r->fd, .events = POLLIN | POLLOUT };
		int ret = poll(&pfd, 1, rnd_below(3) ? 0 : 20);

		if (ret < 0 && errno != EINTR)
			violation(INV_ERRNO, "poll: %s", strerror(errno));
		else if (ret >= 0 && !(pfd.revents & POLLOUT))
			violation(INV_ERRNO, "poll revents %#x lacks POLLOUT",
				  pfd.revents);
		count(OP_POLL);
	}
	/* The version is the file's: threads sharing it keep to one. */
	if (!r->seen && rnd_below(16) == 0) {
		static const int versions[] = { 1, 2, NSLOG_ENTRY2_VERSION };
		int v = versions[rnd_below(3)];

		if (ioctl(r->fd, LOGGER_SET_VERSION, &v))
			violation(INV_ERRNO, "SET_VERSION %#x: %s", v, strerror(errno));
		else
			r->version = v;
		if (ioctl(r->fd, LOGGER_GET_VERSION) != r->version)
			violation(INV_ERRNO, "GET_VERSION is not %#x", r->version);
		count(OP_SET_VERSION);
	}
	for (int w = 0; w < NWSLOTS; w++)
		committed[w] = A_LOAD(&sh->g[r->g].w[w].committed[r->log]);
	next = ioctl(r->fd, LOGGER_GET_NEXT_ENTRY_LEN);
	count(OP_IOCTL);
	/*
	 * The ioctl waits for the file's lock interruptibly, and another
	 * thread sharing the file may hold it across a read's copy: the
	 * timer's signal then interrupts the ioctl as it does a read (EINTR
	 * without SA_RESTART).
	 */
	if (next < 0 && errno == EINTR && r->signals) {
		count(OP_IOCTL_EINTR);
		return 1;
	}
	if (next < 0 || (next && (next <= (long)hdr_size(r->version) ||
				  next > (long)(hdr_size(r->version) +
						LOGGER_ENTRY_MAX_PAYLOAD)))) {
		violation(INV_FORMAT, "GET_NEXT_ENTRY_LEN = %ld (%s)", next,
			  next < 0 ? strerror(errno) : "bad length");
		next = 0;
	}
	switch (next ? rnd_below(10) : 9) {
	case 0:
	case 1:
		bsz = next - 1 - rnd_below(next - 1 < 30 ? next - 1 : 30);
		break;
	case 2:
	case 3:
	case 4:
	case 5:
		bsz = next;
		break;
	case 6:
	case 7:
	case 8:
		bsz = next + 1 + rnd_below(100);
		break;
	default:
		bsz = 5120;
		break;
	}
	memset(buf, 0xa5, sizeof(buf));
	n = read(r->fd, buf, bsz);
	saved = errno;
	count(OP_READ);
	if (n < 0) {
		if (saved == EAGAIN) {
			count(OP_READ_EAGAIN);
			/*
			 * While threads share the file, another may have read
			 * a record and not marked it yet.
			 */
			if (!r->seen || r->draining)
				check_drained(r, committed);
			return 0;
		}
		if (saved == EINTR && r->signals) {
			count(OP_READ_EINTR);
			return 1;
		}
		if (saved == EINVAL) {
			count(OP_READ_EINVAL);
			/* Another thread may have taken the entry measured. */
			if (bsz >= hdr_size(r->version) + LOGGER_ENTRY_MAX_PAYLOAD ||
			    (!r->seen && bsz >= (size_t)next && !may_have_lost(r, 1)))
				violation(INV_FORMAT, "read(%zu) = EINVAL, next entry %ld",
					  bsz, next);
			return 1;
		}
		violation(INV_ERRNO, "read: %s", strerror(saved));
		return 0;
	}
	if ((size_t)n > bsz) {
		violation(INV_FORMAT, "read(%zu) returned %zd", bsz, n);
		r->e2_have = 0;
		return 0;
	}
	for (size_t i = n; i < bsz + 64 && i < sizeof(buf); i++) {
		if (buf[i] != 0xa5) {
			violation(INV_FORMAT, "read(%zu) = %zd wrote byte %zu", bsz, n, i);
			break;
		}
	}
	check_record(r, buf, n);
	return 1;
}

static void reader_run(struct reader *r, int ops)
{
	while (!stopping() && ops-- > 0) {
		if (!reader_step(r))
			usleep(1000 + rnd_below(4000));
	}
}

static void on_tick(int sig)
{
	(void)sig;
}

/*
 * A blocking reader: a timer signals the calling thread every 2 to 20 ms,
 * so reads that wait are interrupted (the module gives -EINTR, as
 * Android's did, even under SA_RESTART).
 */
static int tick_start(struct reader *r, timer_t *timer)
{
	long ns = (2 + rnd_below(19)) * 1000000L;
	struct itimerspec its = { { 0, ns }, { 0, ns } };
	struct sigevent sev = {
		.sigev_notify = SIGEV_THREAD_ID,
		.sigev_signo = SIGALRM,
	};

	sev._sigev_un._tid = gettid();
	if (timer_create(CLOCK_MONOTONIC, &sev, timer) ||
	    timer_settime(*timer, 0, &its, NULL)) {
		violation(INV_ERRNO, "timer: %s", strerror(errno));
		return -1;
	}
	r->signals = 1;
	return 0;
}

static void blocking_run(struct reader *r, int ops)
{
	timer_t timer;

	if (tick_start(r, &timer))
		return;
	reader_run(r, ops);
	timer_delete(timer);
}

struct sharer {
	pthread_t thread;
	struct reader r;
	uint64_t rng;
	int ops;
	int blocking;
};

static void *sharer_main(void *arg)
{
	struct sharer *t = arg;

	rng_state = t->rng;
	count(OP_SHARED_THREAD);
	if (t->blocking)
		blocking_run(&t->r, t->ops);
	else
		reader_run(&t->r, t->ops);
	return NULL;
}

/*
 * One round of two to four threads reading one file at once: each checks
 * what it reads as a reader of its own would, bar the gaps the others
 * leave, and each record must go to one thread only.  Then this thread
 * alone drains the file, and between them the threads must have had
 * every record stored since the round's start.  Returns 1 if drained.
 */
static int shared_round(struct reader *r, int blocking, int flags)
{
	struct sharer t[4];
	int n = 2 + rnd_below(3), started = 0;

	memset(r->seen, 0, sizeof(*r->seen));
	r->draining = 0;
	if (fcntl(r->fd, F_SETFL, flags)) {
		violation(INV_ERRNO, "F_SETFL: %s", strerror(errno));
		return 0;
	}
	for (int i = 0; i < n; i++) {
		t[i].r = *r;
		t[i].rng = rnd();
		t[i].ops = 10 + rnd_below(120);
		t[i].blocking = blocking;
		if (pthread_create(&t[i].thread, NULL, sharer_main, &t[i])) {
			violation(INV_ERRNO, "pthread_create failed");
			break;
		}
		started++;
	}
	for (int i = 0; i < started; i++)
		pthread_join(t[i].thread, NULL);
	if (fcntl(r->fd, F_SETFL, flags | O_NONBLOCK)) {
		violation(INV_ERRNO, "F_SETFL: %s", strerror(errno));
		return 0;
	}
	r->draining = 1;
	for (int i = 0; i < 5000 && !stopping(); i++)
		if (!reader_step(r))
			return 1;
	return 0;
}

/* Up to eight rounds on one file, each from where the last one drained. */
static void shared_run(struct reader *r, int blocking)
{
	static struct seen seen;
	int rounds = 1 + rnd_below(8), flags = fcntl(r->fd, F_GETFL);

	r->seen = &seen;
	for (int k = 0; k < rounds && !stopping(); k++) {
		if (k)
			reader_mark(r);
		if (!shared_round(r, blocking, flags))
			break;
	}
}

/*
 * A reader of one of three kinds: non-blocking (half of them), blocking
 * with a timer signal, or several threads on one file.  Group 0's first
 * reader is always of the last kind, so that every run checks a shared
 * file whatever its seed draws (and however slow the machine is).
 */
static void reader_main(unsigned int g, unsigned int idx)
{
	struct sigaction sa = { .sa_handler = on_tick };
	unsigned int log = rnd_below(NLOGS), kind = rnd_below(4);

	if (g == 0 && idx == 0)
		kind = 3;
	int blocking = kind == 2 || (kind == 3 && rnd_below(2));
	struct reader r;
	int fd;

	if (rnd_below(2))
		sa.sa_flags = SA_RESTART;
	if (blocking && sigaction(SIGALRM, &sa, NULL))
		violation(INV_ERRNO, "sigaction: %s", strerror(errno));
	fd = open_log(log, (rnd_below(2) ? O_RDONLY : O_RDWR) |
			   (blocking ? 0 : O_NONBLOCK));
	if (fd < 0) {
		violation(INV_ERRNO, "reader open %s: %s", log_paths[log],
			  strerror(errno));
		_exit(1);
	}
	if (reader_open(&r, g, log, fd) == 0) {
		if (kind == 3)
			shared_run(&r, blocking);
		else if (blocking)
			blocking_run(&r, 20 + rnd_below(600));
		else
			reader_run(&r, 20 + rnd_below(600));
	}
	if (rnd_below(3))
		close_fd(fd);
	_exit(0);
}

/* ---- chaos: modes, ioctls, flushes, fresh namespaces ------------------- */

static void expect(long ret, int err, const char *what)
{
	if (err == 0 ? ret < 0 : (ret != -1 || errno != err))
		violation(INV_ERRNO, "%s = %ld errno %d, want %s", what, ret,
			  ret < 0 ? errno : 0, err ? strerror(err) : "success");
	count(OP_IOCTL);
}

static void fuzz_ioctls(int fd, int mode, int g)
{
	int rd = mode != O_WRONLY, wr = mode != O_RDONLY;
	int userns = g >= 0 && sh->g[g].userns;
	struct nslog_open_ns arg = { 0 };
	long ret;
	int v;

	ret = ioctl(fd, LOGGER_GET_LOG_BUF_SIZE, rnd());
	expect(ret < 8192 || (ret & (ret - 1)) ? -1 : 0, 0, "GET_LOG_BUF_SIZE");
	ret = ioctl(fd, LOGGER_GET_LOG_LEN, rnd());
	if (rd)
		expect(ret < 0 || ret > (1 << 26) ? -1 : 0, 0, "GET_LOG_LEN");
	else
		expect(ret, EBADF, "GET_LOG_LEN on a write-only fd");
	ret = ioctl(fd, LOGGER_GET_NEXT_ENTRY_LEN, rnd());
	if (rd)
		expect(ret < 0 || ret > (long)NSLOG_ENTRY_MAX_LEN ? -1 : 0, 0,
		       "GET_NEXT_ENTRY_LEN");
	else
		expect(ret, EBADF, "GET_NEXT_ENTRY_LEN on a write-only fd");
	ret = ioctl(fd, LOGGER_GET_VERSION, rnd());
	if (rd)
		expect(ret == 1 || ret == 2 ? 0 : -1, 0, "GET_VERSION");
	else
		expect(ret, EBADF, "GET_VERSION on a write-only fd");

	/* SET_VERSION with random values and pointers. */
	switch (rnd_below(4)) {
	case 0:
		ret = ioctl(fd, LOGGER_SET_VERSION, NULL);
		expect(ret, rd ? EFAULT : EBADF, "SET_VERSION NULL");
		break;
	case 1:
		ret = ioctl(fd, LOGGER_SET_VERSION, (void *)0xffff880000000000ul);
		expect(ret, rd ? EFAULT : EBADF, "SET_VERSION kernel pointer");
		break;
	default: {
		static const int vals[] = { -1, 0, 1, 2, 3, 256, INT_MAX, INT_MIN };

		v = rnd_below(2) ? vals[rnd_below(8)] : (int)rnd();
		ret = ioctl(fd, LOGGER_SET_VERSION, &v);
		expect(ret, !rd ? EBADF : (v == 1 || v == 2) ? 0 : EINVAL,
		       "SET_VERSION value");
		break;
	}
	}
	count(OP_SET_VERSION);

	/* Random command numbers: ours, and others, are -ENOTTY. */
	for (int i = 0; i < 3; i++) {
		unsigned int nr = rnd_below(256), type = 0xa0 + rnd_below(32);
		unsigned int cmd;

		if (type == __LOGGERIO && ((nr >= 1 && nr <= 6) || nr == 0x40))
			nr = 0x80 + rnd_below(0x40);
		cmd = (rnd() & 0xffff0000u) | (type << 8) | nr;
		if (type == __LOGGERIO && nr == 0x40)
			continue;
		if (rnd_below(2))
			cmd = _IO(type, nr);
		ret = ioctl(fd, cmd, rnd());
		expect(ret, ENOTTY, "random ioctl");
		count(OP_IOCTL_RANDOM);
	}

	/* NSLOG_IOC_OPEN_NS with random arguments. */
	count(OP_OPEN_NS);
	switch (rnd_below(6)) {
	case 0:
		ret = ioctl(fd, NSLOG_IOC_OPEN_NS, NULL);
		expect(ret, userns ? EPERM : EFAULT, "OPEN_NS NULL");
		break;
	case 1:
		arg.ns_fd = -1;
		arg.flags = 1u << rnd_below(32);
		ret = ioctl(fd, NSLOG_IOC_OPEN_NS, &arg);
		expect(ret, userns ? EPERM : EINVAL, "OPEN_NS flags");
		break;
	case 2:
		arg.ns_fd = -2 - rnd_below(1000);
		ret = ioctl(fd, NSLOG_IOC_OPEN_NS, &arg);
		expect(ret, userns ? EPERM : EBADF, "OPEN_NS negative fd");
		break;
	case 3:
		arg.ns_fd = -1;
		arg.ns_id = rnd() | (1ull << 63);
		ret = ioctl(fd, NSLOG_IOC_OPEN_NS, &arg);
		expect(ret, userns ? EPERM : ENOENT, "OPEN_NS unknown id");
		break;
	case 4:
		arg.ns_fd = fd;		/* not an nsfs file */
		ret = ioctl(fd, NSLOG_IOC_OPEN_NS, &arg);
		expect(ret, userns ? EPERM : EINVAL, "OPEN_NS non-nsfs fd");
		break;
	default:
		arg.ns_fd = open("/proc/self/ns/ipc", O_RDONLY);
		ret = ioctl(fd, NSLOG_IOC_OPEN_NS, &arg);
		expect(ret, userns ? EPERM : 0, "OPEN_NS own namespace");
		if (ret >= 0) {
			if (fcntl(ret, F_GETFD) != FD_CLOEXEC)
				violation(INV_ERRNO, "OPEN_NS fd lacks FD_CLOEXEC");
			if (write(ret, "x", 1) != -1 || errno != EBADF)
				violation(INV_ERRNO, "OPEN_NS fd is writable");
			close(ret);
		}
		close(arg.ns_fd);
		break;
	}

	/* Operations the open mode forbids. */
	if (!wr) {
		ret = write(fd, "xxxx", 4);
		expect(ret, EBADF, "write on a read-only fd");
		ret = ioctl(fd, LOGGER_FLUSH_LOG);
		expect(ret, EBADF, "FLUSH_LOG on a read-only fd");
		count(OP_BAD_MODE);
	}
	if (!rd) {
		char b[64];

		ret = read(fd, b, sizeof(b));
		expect(ret, EBADF, "read on a write-only fd");
		count(OP_BAD_MODE);
	}
	ret = lseek(fd, 0, SEEK_SET);
	expect(ret, ESPIPE, "lseek");
}

static void flush_one(unsigned int g, unsigned int log)
{
	struct lstate *ls = &sh->g[g].l[log];
	int fd = open_log(log, rnd_below(2) ? O_WRONLY : O_RDWR);

	if (fd < 0) {
		violation(INV_ERRNO, "flush open: %s", strerror(errno));
		return;
	}
	A_ADD(&ls->flush_gen, 1);
	if (ioctl(fd, LOGGER_FLUSH_LOG))
		violation(INV_ERRNO, "FLUSH_LOG: %s", strerror(errno));
	A_ADD(&ls->flush_gen, 1);
	count(OP_FLUSH);
	close_fd(fd);
}

static int map_root(void)
{
	int fd, ok = 1;

	fd = open("/proc/self/setgroups", O_WRONLY);
	ok &= fd >= 0 && write(fd, "deny", 4) == 4;
	close(fd);
	fd = open("/proc/self/uid_map", O_WRONLY);
	ok &= fd >= 0 && write(fd, "0 0 1", 5) == 5;
	close(fd);
	fd = open("/proc/self/gid_map", O_WRONLY);
	ok &= fd >= 0 && write(fd, "0 0 1", 5) == 5;
	close(fd);
	return ok ? 0 : -1;
}

/* Whether this process is in the initial user namespace. */
static bool in_initial_userns(void)
{
	struct stat st;

	/* PROC_USER_INIT_INO: the initial user namespace's nsfs inode. */
	return !stat("/proc/self/ns/user", &st) && st.st_ino == 0xEFFFFFFDU;
}

/*
 * A child in a new IPC namespace (and now and then a new user namespace):
 * its set starts empty, holds what it writes, and nothing else.
 */
static void unshare_child(unsigned int g, int userns)
{
	unsigned int log = rnd_below(NLOGS), tag = UNSHARE_TAG | g;
	static uint8_t buf[8192], rec[8192];
	int n = 1 + rnd_below(20), fd;

	/* The group's mount shows the group's set, not the new one's. */
	use_fs = 0;
	if (unshare(CLONE_NEWIPC | (userns ? CLONE_NEWUSER : 0))) {
		/*
		 * ENOSPC here is the kernel's max_ipc_namespaces or
		 * max_user_namespaces, reached while earlier tests' dead
		 * namespaces are still being freed: not the module's doing.
		 */
		if (errno == ENOSPC) {
			count(OP_UNSHARE_LIMIT);
			_exit(0);
		}
		violation(INV_UNSHARE, "unshare: %s", strerror(errno));
		_exit(1);
	}
	if (userns && map_root()) {
		violation(INV_UNSHARE, "map root: %s", strerror(errno));
		_exit(1);
	}
	fd = open_log(log, O_RDWR | O_NONBLOCK);
	/*
	 * In a user namespace the set counts against its owner's quota,
	 * ns_per_owner, with the group's other fresh namespaces still in
	 * their grace period: ENOSPC is the quota there (the hostile tenant
	 * checks it exactly).  The host's own namespaces have none.
	 */
	if (fd < 0 && errno == ENOSPC && !in_initial_userns()) {
		count(OP_UNSHARE_QUOTA);
		_exit(0);
	}
	if (fd < 0) {
		violation(INV_UNSHARE, "open in a fresh namespace: %s",
			  strerror(errno));
		_exit(1);
	}
	if (ioctl(fd, LOGGER_GET_LOG_LEN) != 0)
		violation(INV_UNSHARE, "a fresh namespace's log is not empty");
	for (int i = 1; i <= n; i++) {
		size_t want = 40 + rnd_below(300);

		build(buf, want, tag, 0, log, i);
		if (write(fd, buf, want) != (ssize_t)want)
			violation(INV_UNSHARE, "write in a fresh namespace: %s",
				  strerror(errno));
		count(OP_WRITE);
	}
	for (int i = 1; i <= n + 1; i++) {
		ssize_t r = read(fd, rec, sizeof(rec));
		struct pl pl;

		count(OP_READ);
		if (i == n + 1) {
			if (r != -1 || errno != EAGAIN)
				violation(INV_UNSHARE, "more than %d records in a fresh namespace", n);
			break;
		}
		if (r < 20 + (ssize_t)sizeof(pl)) {
			violation(INV_UNSHARE, "record %d of %d: read %zd (%s)",
				  i, n, r, strerror(errno));
			break;
		}
		memcpy(&pl, rec + 20, sizeof(pl));
		if (pl.len > LOGGER_ENTRY_MAX_PAYLOAD)
			pl.len = 0;
		build(buf, pl.len, tag, 0, log, i);
		if (pl.magic != MAGIC || pl.group != tag || pl.seq != (uint32_t)i ||
		    r != 20 + (ssize_t)pl.len || memcmp(buf, rec + 20, pl.len))
			violation(INV_UNSHARE, "record %d of %d differs", i, n);
		else
			count(OP_VERIFIED);
	}
	if (rnd_below(2))
		close_fd(fd);
	_exit(0);
}

static void chaos_main(unsigned int g)
{
	int ops = 50 + rnd_below(300);

	while (!stopping() && ops-- > 0) {
		uint32_t what = rnd_below(100);

		if (what < 40) {
			static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
			int mode = modes[rnd_below(3)];
			int extra = (rnd_below(2) ? O_NONBLOCK : 0) |
				    (rnd_below(2) ? O_CLOEXEC : 0) |
				    (rnd_below(4) ? 0 : O_APPEND);
			int fd = open_log(rnd_below(NLOGS), mode | extra);

			if (fd < 0) {
				violation(INV_ERRNO, "open mode %d: %s", mode,
					  strerror(errno));
				continue;
			}
			fuzz_ioctls(fd, mode, g);
			close_fd(fd);
		} else if (what < 70) {
			unsigned int l = rnd_below(NLOGS);
			int fd = open_log(l, O_WRONLY);

			if (fd >= 0) {
				for (int i = rnd_below(5); i >= 0; i--)
					write_one(fd, g, NWRITERS, l);
				close_fd(fd);
			}
		} else if (what < 74) {
			flush_one(g, rnd_below(NLOGS));
		} else if (what < 90) {
			int userns = rnd_below(3) == 0;
			pid_t pid;
			int st;

			pid = fork();
			if (pid == 0) {
				rng_init(rnd());
				unshare_child(g, userns);
			}
			if (pid > 0 && waitpid(pid, &st, 0) == pid &&
			    WIFEXITED(st) && WEXITSTATUS(st) == 0) {
				count(OP_UNSHARE);
				if (userns)
					count(OP_UNSHARE_USERNS);
			}
		} else {
			usleep(rnd_below(20000));
		}
	}
	_exit(0);
}

/* ---- streams: made, used and removed in a group's mount ---------------- */

/*
 * With --nslogfs, two processes of each group make, write, read, flush,
 * list and remove streams among a few names, racing each other.  Beside
 * "no errno but the documented ones", what they check: every record read
 * from a stream's file carries the log id NSLOG_IOC_INFO gives that file,
 * a record written is read back by a reader opened before it (unless the
 * stream was flushed or removed in between, or another stream of the name
 * was opened), and a reader of a removed stream gets end of file.
 */
#define NSTREAM_NAMES	4

static void stream_path(char *p, size_t n, unsigned int i)
{
	snprintf(p, n, FS_DIR "/s%u", i);
}

static int stream_reader(const char *path)
{
	int v = NSLOG_ENTRY_VERSION;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && ioctl(fd, LOGGER_SET_VERSION, &v)) {
		violation(INV_ERRNO, "stream SET_VERSION: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Read @fd to its end: each record well-formed and of @log_id.  Returns
 * 1 if @want was among them, 0 if not, -1 at end of file.
 */
static int stream_drain(int fd, uint32_t log_id, const char *want)
{
	static uint8_t buf[LOGGER_ENTRY_MAX_PAYLOAD + 128];
	struct nslog_entry *e = (void *)buf;
	int found = 0;
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf) - 1);
		if (n == 0)
			return -1;
		if (n < 0) {
			if (errno != EAGAIN)
				violation(INV_ERRNO, "stream read: %s",
					  strerror(errno));
			return found;
		}
		if (n < (ssize_t)sizeof(*e) || e->hdr_size != sizeof(*e) ||
		    n != (ssize_t)sizeof(*e) + e->len) {
			violation(INV_FORMAT, "stream record of %zd bytes, len %u",
				  n, e->len);
			return found;
		}
		if (e->log_id != log_id)
			violation(INV_STREAM, "stream record of log id %u read from log id %u",
				  e->log_id, log_id);
		buf[n] = 0;
		if (e->len > 4 && !strcmp((char *)e->msg + 4, want))
			found = 1;
	}
}

static int stream_errno_ok(int err)
{
	return err == ENOENT || err == EEXIST || err == ENOSPC ||
	       err == EDQUOT;
}

static void stream_use(unsigned int g, const char *path)
{
	struct nslog_info wi, ri;
	char msg[64], rec[80];
	int w, r, got;

	w = open(path, O_WRONLY | O_CLOEXEC);
	r = stream_reader(path);
	if (w < 0 || r < 0) {
		if (errno != ENOENT)
			violation(INV_ERRNO, "stream open: %s", strerror(errno));
		goto out;
	}
	if (ioctl(w, NSLOG_IOC_INFO, &wi) || ioctl(r, NSLOG_IOC_INFO, &ri)) {
		violation(INV_ERRNO, "stream INFO: %s", strerror(errno));
		goto out;
	}
	if (ri.log_id < NSLOG_STREAM_LOG_ID_MIN ||
	    ri.ns_id != A_LOAD(&sh->g[g].ns_id))
		violation(INV_STREAM, "stream log id %u, ns %llu", ri.log_id,
			  (unsigned long long)ri.ns_id);
	snprintf(msg, sizeof(msg), "s %d %" PRIu64, (int)getpid(), rnd());
	rec[0] = 4;
	memcpy(rec + 1, "st", 3);
	memcpy(rec + 4, msg, strlen(msg) + 1);
	if (write(w, rec, 4 + strlen(msg) + 1) < 0) {
		/* A rate limit may drop it (drop_errno is EAGAIN in a run). */
		if (errno != EAGAIN)
			violation(INV_ERRNO, "stream write: %s", strerror(errno));
		goto out;
	}
	got = stream_drain(r, ri.log_id, msg);
	if (wi.log_id != ri.log_id) {
		count(OP_S_REPLACED);
	} else if (got == 1) {
		count(OP_S_READBACK);
	} else if (got == 0 && !access(path, F_OK)) {
		/*
		 * Missed with the stream still there: fine only if the other
		 * process flushed it (or replaced it) meanwhile, which the
		 * stream's records written count since then would show.
		 */
		struct nslog_info now;

		if (!ioctl(r, NSLOG_IOC_INFO, &now) && now.tail_seq <= ri.head_seq &&
		    now.head_seq > ri.head_seq)
			violation(INV_STREAM, "own record not read back from %s (seq %llu..%llu)",
				  path, (unsigned long long)now.tail_seq,
				  (unsigned long long)now.head_seq);
	}
out:
	if (w >= 0)
		close(w);
	if (r >= 0)
		close(r);
}

static void streams_main(unsigned int g)
{
	int ops = 50 + rnd_below(300);
	char path[64];

	while (!stopping() && ops-- > 0) {
		uint32_t what = rnd_below(100);
		int fd, r;

		stream_path(path, sizeof(path), rnd_below(NSTREAM_NAMES));
		if (what < 25) {
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				  0600);
			if (fd >= 0) {
				count(OP_S_CREATE);
				close(fd);
			} else if (errno == ENOSPC || errno == EDQUOT) {
				count(OP_S_LIMIT);
			} else if (!stream_errno_ok(errno)) {
				violation(INV_ERRNO, "stream create: %s",
					  strerror(errno));
			}
		} else if (what < 40) {
			/* Removed while a reader holds it: that reader ends. */
			r = stream_reader(path);
			if (!unlink(path)) {
				count(OP_S_UNLINK);
				if (r >= 0) {
					uint32_t id = 0;
					struct nslog_info in;

					if (!ioctl(r, NSLOG_IOC_INFO, &in))
						id = in.log_id;
					/* Drained, a gone stream's read is 0. */
					if (stream_drain(r, id, "") == -1)
						count(OP_S_EOF);
					else if (stream_drain(r, id, "") != -1)
						violation(INV_STREAM, "reader of a removed stream got no end of file");
				}
			} else if (errno != ENOENT) {
				violation(INV_ERRNO, "stream unlink: %s",
					  strerror(errno));
			}
			if (r >= 0)
				close(r);
		} else if (what < 85) {
			stream_use(g, path);
		} else if (what < 90) {
			if (!truncate(path, 0))
				count(OP_S_TRUNCATE);
			else if (errno != ENOENT)
				violation(INV_ERRNO, "stream truncate: %s",
					  strerror(errno));
		} else {
			DIR *d = opendir(FS_DIR);
			struct dirent *de;
			int logs = 0;

			while (d && (de = readdir(d))) {
				if (de->d_name[0] == '.')
					continue;
				for (unsigned int l = 0; l < NLOGS; l++)
					logs += !strcmp(de->d_name, fs_paths[l] +
							sizeof(FS_DIR));
				if (de->d_name[0] != 's' &&
				    strcmp(de->d_name, "main") &&
				    strcmp(de->d_name, "events") &&
				    strcmp(de->d_name, "radio") &&
				    strcmp(de->d_name, "system"))
					violation(INV_STREAM, "listed %s", de->d_name);
			}
			if (d)
				closedir(d);
			if (logs != NLOGS)
				violation(INV_STREAM, "listing has %d of the four logs",
					  logs);
			count(OP_S_LIST);
		}
		/* Leave the CPU to the writers and readers now and then. */
		if (!rnd_below(4))
			usleep(rnd_below(5000));
	}
	_exit(0);
}

/* ---- relays: records stored for other processes (NSLOG_IOC_RELAY) ---- */

/*
 * Each group has a relay, as logd's protocol has one: root in the group's
 * namespaces, with CAP_SYSLOG over its set.  It stores records, under a
 * writer slot of its own (RELAY_WID, with its own sequence numbers), as
 * written by other live processes of the run: the group leader, itself,
 * and above all clients, children it forks (some with euid 1000) and moves
 * into the cgroup manager's cgroups, which pay for their records.  A
 * client blocks until the relay tells it to exit or kills it; the relay
 * then relays for it at once, racing its exit (RM_RACE), reaps it, and
 * relays for it again with NSLOG_RELAY_KEEP_EXITED (RM_EXITED).  Each
 * payload says which of these it was (struct rpl), so that a reader with
 * the 0x4e54 header knows what the kernel must have made of it.  Between
 * them, the relay makes calls that must fail: bad pointers, sizes, log
 * ids, flags and ids, a writer of another IPC namespace or gone, privilege
 * it lacks in a user namespace; each with a payload marked RM_REFUSED,
 * which no reader may ever see.
 */
struct rclient {
	pid_t pid;
	int sock;		/* a byte on it tells the client to exit */
	uint32_t euid;
};

struct relay {
	unsigned int g;
	int userns;		/* CAP_SYSLOG only in the group's user namespace */
	int wfd[NLOGS];		/* write fds: any stores into any of the set's logs */
	int rfd;		/* a read fd: only the initial namespace's root may */
	struct rclient c[NRCLIENTS];
	int nc;
	uint8_t *guard;		/* a page, then an inaccessible one */
	long page;
};

static void cg_path(char *out, size_t sz, unsigned int g, int c);
static int write_file(const char *path, const char *text);

static int64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/*
 * Fill in @arg and the payload @buf of @len bytes for the relay slot's
 * record @seq of @log, as written by @pid (@tid claimed, @euid).
 */
static void relay_build(uint8_t *buf, size_t len, unsigned int g,
			unsigned int log, uint32_t seq, uint32_t mode,
			pid_t pid, int32_t tid, uint32_t euid, uint32_t flags,
			struct nslog_relay *arg)
{
	/* Queued for up to 2 s, as a datagram in logd's socket may be. */
	struct rpl rp = {
		.mode = mode, .relay = getpid(),
		.claim_ns = real_ns() - rnd_below(2000000000),
	};

	build_as(buf, len, g, RELAY_WID, log, seq, pid, tid, euid);
	memcpy(buf + sizeof(struct pl), &rp, sizeof(rp));
	memset(arg, 0, sizeof(*arg));
	arg->pid = pid;
	arg->uid = euid;
	arg->tid = tid;
	arg->log_id = android_ids[log];
	arg->time_ns = rp.claim_ns;
	arg->flags = flags;
	arg->len = len;
	arg->payload = (uintptr_t)buf;
}

/* A payload length for a relay: room for both headers, never cut. */
static size_t relay_len(void)
{
	size_t len = pick_len();

	if (len > LOGGER_ENTRY_MAX_PAYLOAD)
		len = LOGGER_ENTRY_MAX_PAYLOAD;
	if (len < sizeof(struct pl) + sizeof(struct rpl))
		len = sizeof(struct pl) + sizeof(struct rpl) + rnd_below(100);
	return len;
}

/* Flags for a relay that must succeed (@mode RM_LIVE or RM_RACE). */
static uint32_t relay_flags(struct relay *rl, uint32_t mode)
{
	uint32_t flags = 0;

	if (rnd_below(mode == RM_RACE ? 4 : 2))
		flags |= NSLOG_RELAY_KEEP_EXITED;
	/* Into the writer's own set, which is the group's. */
	if (!rl->userns && rnd_below(4) == 0)
		flags |= NSLOG_RELAY_WRITER_SET;
	return flags;
}

/* The file to relay through: any log's write fd, or the read fd where allowed. */
static int relay_fd(struct relay *rl)
{
	if (!rl->userns && rnd_below(4) == 0) {
		count(OP_RELAY_RDFD);
		return rl->rfd;
	}
	return rl->wfd[rnd_below(NLOGS)];
}

/*
 * Relay the relay slot's next record of a random log for @pid (@tid
 * claimed, euid @euid) as @mode.  Returns 1 if stored; 0 if a rate limit
 * dropped it or, racing its exit, the writer was gone (the same sequence
 * number is tried again later); a violation for anything else.
 */
static int relay_one(struct relay *rl, uint32_t mode, pid_t pid, int32_t tid,
		     uint32_t euid, uint32_t flags)
{
	static uint8_t buf[LOGGER_ENTRY_MAX_PAYLOAD];
	unsigned int log = rnd_below(NLOGS);
	struct wstate *w = &sh->g[rl->g].w[RELAY_WID];
	uint32_t seq = A_LOAD(&w->committed[log]) + 1;
	size_t len = relay_len();
	int fd = mode == RM_LIVE ? relay_fd(rl) : rl->wfd[rnd_below(NLOGS)];
	struct nslog_relay arg;
	long ret;

	relay_build(buf, len, rl->g, log, seq, mode, pid, tid, euid, flags, &arg);
	A_STORE(&w->started[log], seq);
	A_ADD(&sh->g[rl->g].l[log].bytes, footprint(len) + REL_HDR);
	ret = ioctl(fd, NSLOG_IOC_RELAY, &arg);
	if (ret == (long)len) {
		A_STORE(&w->committed[log], seq);
		count(OP_RELAY);
		if (flags & NSLOG_RELAY_WRITER_SET)
			count(OP_RELAY_WSET);
		if (mode == RM_RACE)
			count(OP_RELAY_RACE);
		else if (mode == RM_EXITED)
			count(OP_RELAY_EXITED);
		return 1;
	}
	if (ret < 0 && errno == EAGAIN) {
		count(OP_RELAY_DROPPED);
		return 0;
	}
	/* Gone, where a writer that is gone is not kept. */
	if (ret < 0 && errno == ESRCH && mode == RM_RACE &&
	    (!(flags & NSLOG_RELAY_KEEP_EXITED) ||
	     (flags & NSLOG_RELAY_WRITER_SET))) {
		count(OP_RELAY_GONE);
		return 0;
	}
	violation(INV_RELAY, "group %u: relay of %zu bytes for pid %d (mode %u, flags %#x) = %ld (%s)",
		  rl->g, len, pid, mode, flags, ret,
		  ret < 0 ? strerror(errno) : "not the length");
	return 0;
}

/* Move client @i into one of the group's cgroups, or back to the group's. */
static void relay_move(struct relay *rl, int i)
{
	int c = rnd_below(NCGROUPS + 1);
	char path[300], pid[16];

	cg_path(path, sizeof(path) - 16, rl->g, c < NCGROUPS ? c : -1);
	strcat(path, "/cgroup.procs");
	snprintf(pid, sizeof(pid), "%d", rl->c[i].pid);
	/* The cgroup manager may have removed it. */
	if (!write_file(path, pid))
		count(OP_RELAY_CG_MOVE);
}

/* A client: alive, with its euid set, until told to exit or killed. */
static void relay_spawn(struct relay *rl)
{
	uint32_t euid = !rl->userns && rnd_below(3) == 0 ? 1000 : 0;
	struct rclient *c = &rl->c[rl->nc];
	int sv[2], st;
	pid_t pid;
	char b;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		violation(INV_RELAY, "socketpair: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		/* Only once it runs as the euid the relay will expect. */
		if ((euid && seteuid(euid)) ||
		    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) ||
		    write(sv[1], "r", 1) != 1)
			_exit(1);
		while (read(sv[1], &b, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(sv[1]);
	if (pid < 0 || read(sv[0], &b, 1) != 1) {
		violation(INV_RELAY, "a relay's client did not start: %s",
			  strerror(errno));
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
		}
		close(sv[0]);
		return;
	}
	c->pid = pid;
	c->sock = sv[0];
	c->euid = euid;
	rl->nc++;
	count(OP_RELAY_CLIENT);
	if (rnd_below(2))
		relay_move(rl, rl->nc - 1);
}

/* A burst for a live writer: a client, the group leader, or the relay. */
static void relay_live(struct relay *rl)
{
	uint32_t who = rnd_below(8), euid = 0;
	pid_t pid;

	if (who >= 2 && rl->nc) {
		struct rclient *c = &rl->c[rnd_below(rl->nc)];

		pid = c->pid;
		euid = c->euid;
	} else if (who == 1) {
		/* It waits for the relay: alive as long as the relay is. */
		pid = getppid();
	} else {
		pid = getpid();
		euid = geteuid();
	}
	for (int n = 1 + rnd_below(6); n > 0 && !stopping(); n--)
		relay_one(rl, RM_LIVE, pid, rnd_below(4) ? pid : (int32_t)rnd_below(65536),
			  euid, relay_flags(rl, RM_LIVE));
}

/*
 * A call that must fail with @err (or @alt): nothing stored, and its
 * payload (RM_REFUSED) must never be read.
 */
static void relay_refused(struct relay *rl, int fd, const void *argp, int err,
			  int alt, const char *what)
{
	long ret = ioctl(fd, NSLOG_IOC_RELAY, argp);

	if (ret != -1 || (errno != err && errno != alt))
		violation(INV_ERRNO, "group %u: relay with %s = %ld (%s), want %s",
			  rl->g, what, ret, ret < 0 ? strerror(errno) : "stored",
			  strerror(err));
	else
		count(OP_RELAY_REFUSED);
}

/* Calls for a writer that is gone (@pid, euid @euid) that must be refused. */
static void relay_refused_gone(struct relay *rl, pid_t pid, uint32_t euid)
{
	static uint8_t buf[LOGGER_ENTRY_MAX_PAYLOAD];
	unsigned int log = rnd_below(NLOGS);
	uint32_t seq = A_LOAD(&sh->g[rl->g].w[RELAY_WID].committed[log]) + 1;
	struct nslog_relay arg;
	int fd = rl->wfd[rnd_below(NLOGS)];

	relay_build(buf, relay_len(), rl->g, log, seq, RM_REFUSED, pid, pid,
		    euid, 0, &arg);
	switch (rnd_below(3)) {
	case 0:
		relay_refused(rl, fd, &arg, ESRCH, 0, "a writer gone, not kept");
		break;
	case 1:
		/* Unmapped: no uid at all, or none of the group's user namespace. */
		arg.flags = NSLOG_RELAY_KEEP_EXITED;
		arg.uid = rl->userns ? 1 + rnd_below(60000) : UINT32_MAX;
		relay_refused(rl, fd, &arg, EOVERFLOW, 0,
			      "a writer gone, its uid unmapped");
		break;
	default:
		/* Its own set is not known once it is gone. */
		arg.flags = NSLOG_RELAY_KEEP_EXITED | NSLOG_RELAY_WRITER_SET;
		relay_refused(rl, fd, &arg, rl->userns ? EPERM : ESRCH, 0,
			      "a writer gone, into its own set");
		break;
	}
}

/*
 * Client @i goes: told to exit, or killed, and relayed for while it
 * does; reaped, and relayed for as a writer that is gone.
 */
static void relay_retire(struct relay *rl, int i)
{
	struct rclient c = rl->c[i];
	int st;

	rl->c[i] = rl->c[--rl->nc];
	if (rnd_below(2)) {
		if (write(c.sock, "x", 1) != 1)
			violation(INV_RELAY, "a relay's client is gone early: %s",
				  strerror(errno));
	} else {
		kill(c.pid, SIGKILL);
	}
	for (int n = rnd_below(5); n > 0; n--)
		relay_one(rl, RM_RACE, c.pid, c.pid, c.euid,
			  relay_flags(rl, RM_RACE));
	close(c.sock);
	if (waitpid(c.pid, &st, 0) != c.pid) {
		violation(INV_RELAY, "a relay's client: waitpid: %s", strerror(errno));
		return;
	}
	/* Reaped: its records are kept, unverified, and refused without the flag. */
	for (int n = rnd_below(4); n > 0 && !stopping(); n--)
		relay_one(rl, RM_EXITED, c.pid, c.pid, c.euid,
			  NSLOG_RELAY_KEEP_EXITED);
	if (rnd_below(2))
		relay_refused_gone(rl, c.pid, c.euid);
}

/* One call with one bad argument, the rest as a relay that would be stored. */
static void relay_bad(struct relay *rl)
{
	static uint8_t buf[8192];
	unsigned int log = rnd_below(NLOGS);
	uint32_t seq = A_LOAD(&sh->g[rl->g].w[RELAY_WID].committed[log]) + 1;
	int fd = rl->wfd[rnd_below(NLOGS)], alt = 0, err = EINVAL;
	size_t len = relay_len();
	struct nslog_relay arg;
	const void *argp = &arg;
	const char *what;

	relay_build(buf, len, rl->g, log, seq, RM_REFUSED, getpid(), getpid(),
		    geteuid(), 0, &arg);
	switch (rnd_below(15)) {
	case 0:
		argp = rnd_below(2) ? NULL : (void *)0xffff880000000000ul;
		err = EFAULT;
		what = "a bad argument address";
		break;
	case 1:
		arg.payload = rnd_below(2) ? 8 : 0xffff880000000000ull;
		err = EFAULT;
		what = "a bad payload address";
		break;
	case 2:
		/* Its first half readable, the rest not. */
		memcpy(rl->guard + rl->page - len / 2, buf, len / 2);
		arg.payload = (uintptr_t)(rl->guard + rl->page - len / 2);
		err = EFAULT;
		what = "a payload running into an unmapped page";
		break;
	case 3:
		arg.len = LOGGER_ENTRY_MAX_PAYLOAD + 1 + rnd_below(4000);
		err = EMSGSIZE;
		what = "an oversized payload";
		break;
	case 4:
		arg.len = 0;
		what = "an empty payload";
		break;
	case 5: {
		static const uint32_t ids[] = { 4, 5, 7, 8, 0x80000000u, UINT32_MAX };

		arg.log_id = rnd_below(2) ? ids[rnd_below(6)] : 4 + rnd_below(1000);
		what = "a wrong log id";
		break;
	}
	case 6:
		/* 1, 2 and 4 are known (NSLOG_RELAY_FILE_LOG is 4). */
		arg.flags |= 8u << rnd_below(29);
		what = "an unknown flag";
		break;
	case 7:
		arg.__reserved[rnd_below(2)] = rnd() | 1;
		what = "a reserved word set";
		break;
	case 8:
		arg.pid = -(int32_t)rnd_below(100000);
		what = "a pid of 0 or less";
		break;
	case 9:
		arg.tid = rnd_below(2) ? INT32_MIN : -1 - (int32_t)rnd_below(1000);
		what = "a negative tid";
		break;
	case 10:
		arg.time_ns = -1 - (int64_t)rnd_below(1000000000);
		what = "a negative time";
		break;
	case 11:
		/* The driver lives in the initial IPC namespace, group 1 in its own. */
		arg.pid = rl->g ? sh->driver :
			  sh->ngroups > 1 ? A_LOAD(&sh->g[1].leader) : 0;
		err = EPERM;
		/* A leader leaves at the end. */
		alt = stopping() ? ESRCH : 0;
		what = "a writer of another IPC namespace";
		if (arg.pid > 0)
			break;
		/* fall through - no such writer yet */
	case 12:
		/* Above PID_MAX_LIMIT: no process ever has it. */
		arg.pid = 4194304 + 1 + rnd_below(1000000);
		err = ESRCH;
		what = "a pid no process has";
		break;
	case 13:
		if (rl->userns) {
			fd = rl->rfd;
			err = EBADF;
			what = "a read fd, in a user namespace";
		} else {
			arg.pid = 4194304 + 1 + rnd_below(1000000);
			arg.flags = NSLOG_RELAY_KEEP_EXITED | NSLOG_RELAY_WRITER_SET;
			err = ESRCH;
			what = "a pid no process has, into its own set";
		}
		break;
	default:
		if (rl->userns) {
			arg.flags = NSLOG_RELAY_WRITER_SET;
			err = EPERM;
			what = "the writer's set, in a user namespace";
		} else {
			arg.uid = UINT32_MAX;
			arg.pid = 4194304 + 1 + rnd_below(1000000);
			arg.flags = NSLOG_RELAY_KEEP_EXITED;
			err = EOVERFLOW;
			what = "a gone writer's uid unmapped";
		}
		break;
	}
	relay_refused(rl, fd, argp, err, alt, what);
}

static void relay_main(unsigned int g)
{
	static struct relay rl;
	int ops = 100 + rnd_below(400);
	int st;

	rl.g = g;
	rl.userns = sh->g[g].userns;
	rl.page = sysconf(_SC_PAGESIZE);
	rl.guard = mmap(NULL, 2 * rl.page, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rl.guard == MAP_FAILED ||
	    mprotect(rl.guard + rl.page, rl.page, PROT_NONE)) {
		violation(INV_RELAY, "relay mmap: %s", strerror(errno));
		_exit(1);
	}
	for (int l = 0; l < NLOGS; l++) {
		rl.wfd[l] = open_log(l, O_WRONLY | (rnd_below(2) ? O_NONBLOCK : 0));
		if (rl.wfd[l] < 0) {
			violation(INV_ERRNO, "relay open %s: %s", log_paths[l],
				  strerror(errno));
			_exit(1);
		}
	}
	rl.rfd = open_log(rnd_below(NLOGS), O_RDONLY | O_NONBLOCK);
	if (rl.rfd < 0) {
		violation(INV_ERRNO, "relay open: %s", strerror(errno));
		_exit(1);
	}
	while (!stopping() && ops-- > 0) {
		uint32_t what = rnd_below(100);

		if (!rl.nc || (what < 10 && rl.nc < NRCLIENTS))
			relay_spawn(&rl);
		else if (what < 55)
			relay_live(&rl);
		else if (what < 70)
			relay_retire(&rl, rnd_below(rl.nc));
		else if (what < 85)
			relay_bad(&rl);
		else if (what < 90)
			relay_move(&rl, rnd_below(rl.nc));
		else
			usleep(rnd_below(5000));
		/* Leave the CPU to the others now and then, as writers do. */
		if (rnd_below(4) == 0)
			usleep(rnd_below(3000));
	}
	while (rl.nc) {
		kill(rl.c[--rl.nc].pid, SIGKILL);
		waitpid(rl.c[rl.nc].pid, &st, 0);
		close(rl.c[rl.nc].sock);
	}
	_exit(0);
}

/* ---- groups ------------------------------------------------------------ */

enum role { R_WRITER, R_READER, R_CHAOS, R_STREAMS, R_RELAY };

static pid_t spawn(unsigned int g, enum role role, unsigned int idx,
		   uint64_t gen)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	rng_init(((uint64_t)g << 48) | ((uint64_t)role << 40) |
		 ((uint64_t)idx << 32) | gen);
	switch (role) {
	case R_WRITER:
		A_STORE(&sh->g[g].w[idx].pid, getpid());
		writer_main(g, idx);
		break;
	case R_READER:
		reader_main(g, idx);
		break;
	case R_CHAOS:
		chaos_main(g);
		break;
	case R_STREAMS:
		streams_main(g);
		break;
	case R_RELAY:
		relay_main(g);
		break;
	}
	_exit(0);
}

/*
 * The group's set as files too: a mount namespace of the group's own, a
 * tmpfs for a mount point, nslogfs on it.  The mounter is root in the user
 * namespace owning the group's IPC namespace, as nslogfs asks.
 */
static int mount_fs(unsigned int g)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", "/mnt", "tmpfs", 0, "mode=0755") ||
	    mkdir(FS_DIR, 0755) ||
	    mount("nslogfs", FS_DIR, "nslogfs", 0, NULL)) {
		violation(INV_NAMESPACE, "group %u nslogfs mount: %s", g,
			  strerror(errno));
		return -1;
	}
	use_fs = 1;
	return 0;
}

static void group_main(unsigned int g)
{
	struct { pid_t pid; enum role role; unsigned int idx; } kids[10];
	int nk = 0, alive;
	uint64_t gen = 0;
	struct stat st;

	if (g > 0) {
		int userns = g % 2;

		sh->g[g].userns = userns;
		if (unshare(CLONE_NEWIPC | (userns ? CLONE_NEWUSER : 0)) ||
		    (userns && map_root())) {
			violation(INV_NAMESPACE, "group %u unshare: %s", g,
				  strerror(errno));
			_exit(1);
		}
	}
	if (stat("/proc/self/ns/ipc", &st)) {
		violation(INV_NAMESPACE, "stat ns: %s", strerror(errno));
		_exit(1);
	}
	A_STORE(&sh->g[g].ns_id, (uint64_t)st.st_ino);
	A_STORE(&sh->g[g].leader, getpid());
	if (opt_nslogfs && mount_fs(g))
		_exit(1);
	/* A set is made on the first open: make it before the collector looks. */
	if (open_log(0, O_WRONLY) < 0) {
		violation(INV_NAMESPACE, "group %u open: %s", g, strerror(errno));
		_exit(1);
	}
	A_STORE(&sh->g[g].ready, 1);

	for (unsigned int i = 0; i < NWRITERS; i++)
		kids[nk++] = (typeof(kids[0])){ 0, R_WRITER, i };
	for (unsigned int i = 0; i < NREADERS; i++)
		kids[nk++] = (typeof(kids[0])){ 0, R_READER, i };
	kids[nk++] = (typeof(kids[0])){ 0, R_CHAOS, 0 };
	/* Two, so that they race for the same few names. */
	if (opt_nslogfs)
		for (unsigned int i = 0; i < 2; i++)
			kids[nk++] = (typeof(kids[0])){ 0, R_STREAMS, i };
	/* Last, so that the others' random streams are what they were. */
	kids[nk++] = (typeof(kids[0])){ 0, R_RELAY, 0 };
	for (int i = 0; i < nk; i++)
		kids[i].pid = spawn(g, kids[i].role, kids[i].idx, gen++);

	for (;;) {
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0)
			break;
		alive = 0;
		for (int i = 0; i < nk; i++) {
			if (kids[i].pid != pid)
				continue;
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				violation(INV_ERRNO, "group %u role %d exited with status %#x",
					  g, kids[i].role, status);
			kids[i].pid = 0;
			if (!stopping()) {
				kids[i].pid = spawn(g, kids[i].role, kids[i].idx, gen++);
				count(OP_EXIT);
			}
		}
		for (int i = 0; i < nk; i++)
			alive += kids[i].pid > 0;
		if (!alive && stopping())
			break;
	}
	_exit(0);
}

/* ---- cgroups and rate rules -------------------------------------------- */

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static void cg_path(char *out, size_t sz, unsigned int g, int c)
{
	if (c < 0)
		snprintf(out, sz, "%s/g%u", cgroot, g);
	else
		snprintf(out, sz, "%s/g%u/c%d", cgroot, g, c);
}

static void cgmgr_main(void)
{
	char path[256], cmd[512], pidtxt[32];
	int ng = sh->ngroups;

	while (!stopping()) {
		unsigned int g = rnd_below(ng);
		int c = rnd_below(NCGROUPS), err;
		uint32_t what = rnd_below(100);
		const char *rel;

		cg_path(path, sizeof(path), g, c);
		rel = path + strlen("/sys/fs/cgroup");
		if (what < 15) {
			if (mkdir(path, 0755) == 0)
				count(OP_CG_MKDIR);
			else if (errno != EEXIST)
				violation(INV_CGROUP, "mkdir %s: %s", path, strerror(errno));
		} else if (what < 40) {
			int n = snprintf(cmd, sizeof(cmd), "set %s records=%u/1s records_burst=%u",
					 rel, 20 + rnd_below(500), 1 + rnd_below(50));

			if (rnd_below(2))
				snprintf(cmd + n, sizeof(cmd) - n, " bytes=%uK/1s",
					 4 + rnd_below(64));
			err = write_file("/proc/nslogger/limits", cmd);
			if (!err)
				count(OP_RULE_SET);
			else if (err != -ENOENT)	/* the cgroup may be gone */
				violation(INV_CGROUP, "'%s': %s", cmd, strerror(-err));
		} else if (what < 55) {
			snprintf(cmd, sizeof(cmd), "clear %s", rel);
			err = write_file("/proc/nslogger/limits", cmd);
			if (!err)
				count(OP_RULE_CLEAR);
		} else if (what < 60) {
			static const char *const bad[] = {
				"set", "set /", "frobnicate /", "set %s records=",
				"set %s records=10/0s", "set %s bytes=-1/s",
				"set %s records=10/1s records_burst=x", "clear",
				"set /no-such-cgroup.nslstress records=1/s",
			};
			const char *b = bad[rnd_below(9)];

			snprintf(cmd, sizeof(cmd), b, rel);
			if (!write_file("/proc/nslogger/limits", cmd))
				violation(INV_CGROUP, "bad command '%s' accepted", cmd);
			count(OP_RULE_BAD);
		} else if (what < 85) {
			/* Move a writer of group g into c, or back to g's root. */
			unsigned int w = rnd_below(NWRITERS);
			pid_t pid = A_LOAD(&sh->g[g].w[w].pid);

			if (rnd_below(3) == 0)
				cg_path(path, sizeof(path), g, -1);
			strcat(path, "/cgroup.procs");
			snprintf(pidtxt, sizeof(pidtxt), "%d", pid);
			if (pid > 0 && !write_file(path, pidtxt))
				count(OP_CG_MOVE);
		} else {
			if (rmdir(path) == 0)
				count(OP_CG_RMDIR);
			else if (errno == EBUSY)
				count(OP_CG_RMDIR_BUSY);
			else if (errno != ENOENT)
				violation(INV_CGROUP, "rmdir %s: %s", path, strerror(errno));
		}
		usleep(2000 + rnd_below(20000));
	}
	_exit(0);
}

/* Host collection: readers on each group's namespace, by its id. */
static void collector_main(void)
{
	int base = open("/dev/log_main", O_RDONLY | O_NONBLOCK);

	if (base < 0) {
		violation(INV_ERRNO, "collector open: %s", strerror(errno));
		_exit(1);
	}
	while (!stopping()) {
		unsigned int g = rnd_below(sh->ngroups), log = rnd_below(NLOGS);
		struct nslog_open_ns arg = { .ns_fd = -1 };
		struct reader r;
		int lfd, fd;

		/*
		 * The driver waits for every group to be ready for a while
		 * only: a group that is not yet has no set to collect (its id
		 * may not even be there), so it is left until it is.
		 */
		if (!A_LOAD(&sh->g[g].ready)) {
			usleep(10000);
			continue;
		}
		arg.ns_id = A_LOAD(&sh->g[g].ns_id);
		lfd = open_log(log, O_RDONLY | O_NONBLOCK);
		if (lfd < 0)
			continue;
		fd = ioctl(lfd, NSLOG_IOC_OPEN_NS, &arg);
		count(OP_OPEN_NS);
		close_fd(lfd);
		if (fd < 0) {
			violation(INV_ERRNO, "OPEN_NS group %u id %" PRIu64 ": %s",
				  g, arg.ns_id, strerror(errno));
			usleep(100000);
			continue;
		}
		/* The new fd blocks; our readers do not. */
		if (fcntl(fd, F_SETFL, O_NONBLOCK) ||
		    !(fcntl(fd, F_GETFL) & O_NONBLOCK)) {
			violation(INV_ERRNO, "OPEN_NS fd: cannot set O_NONBLOCK");
			close(fd);
			continue;
		}
		if (reader_open(&r, g, log, fd) == 0)
			reader_run(&r, 20 + rnd_below(300));
		close(fd);
	}
	close(base);
	_exit(0);
}

/* ---- the hostile tenant ------------------------------------------------ */

/*
 * The default limit the tenant sets for its part of the run.  It applies to
 * every subtree at default_level (2), so each group's gN gets a default
 * bucket too, and the groups' checks must not see a difference.  Most of
 * them would not: writers try a dropped sequence number again on EAGAIN
 * (drop_errno=1), the lap bounds already count a notice with every record
 * (NOTICE_BOUND; a record carries at most one notice, however many buckets
 * are on its path), and notice_interval_ms, left as it is, only makes
 * notices rarer.  One would: a chaos process's unshare() children write in
 * the group's cgroup and count a write that fails as a violation of "a
 * fresh namespace holds exactly its own records".  So a group's bucket must
 * never run dry, on any machine, and the tenant's must.
 *
 * What a group writes is bounded by its sleeps rather than by the
 * machine's speed: a writer sleeps 0-3 ms after a quarter of its stored
 * records, 375 us a record on average, so it stores at most 2,667 records
 * a second; a chaos process sleeps 0-20 ms in a tenth of its operations, so
 * it does at most 1,000 a second, of about 2.6 records each (its writes and
 * its unshare() children's 1 to 20).  That is at most 7,900 records and
 * 3.4 MB (488 bytes a record on average) a second per group even if every
 * system call took no time; under TCG a group stores about 1,000 records a
 * second.  10,000 records and 8 MiB a second, with twice that as burst, is
 * above both.  The tenant's writer, which does not sleep inside a burst and
 * writes records of 2,000 to 4,076 bytes three times in four, goes over the byte
 * rate from 2,058 records a second and the record rate from 10,000: under
 * TCG it writes about 27,000 a second while the rest of the run goes on.
 */
#define TENANT_DEFAULT	"records=10000/1s records_burst=20000 bytes=8M/1s bytes_burst=16M"
#define TENANT_UID	3000000u	/* + 2 * (driver's pid % 100000) */
#define TENANT_SETS	1024		/* most sets the hoarder keeps */
#define TENANT_CGS	12		/* most cgroups of the writer's at once */

enum { TH_RUN, TH_HOLDING, TH_DONE };

static void read_param(const char *name, char *out, size_t sz);

static int param_int(const char *name, int dflt)
{
	char v[32];

	read_param(name, v, sizeof(v));
	return v[0] ? atoi(v) : dflt;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Become @uid (and the gid of that number) for good. */
static int drop_to(uint32_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return -1;
	/*
	 * Changing uid made the process undumpable: its /proc files would be
	 * root's, and it could not write its own uid_map.
	 */
	return prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* The sets /proc/nslogger/owners lists for host uid @uid, -1 if unreadable. */
static int owner_sets(uint32_t uid)
{
	FILE *f = fopen("/proc/nslogger/owners", "r");
	char line[128];
	unsigned int u, n;
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "uid:%u %u", &u, &n) == 2 && u == uid)
			found += n;
	fclose(f);
	return found;
}

/* How many sets the registry has, from an open /proc/nslogger/namespaces. */
static int registry_sets(int fd)
{
	char buf[8192], line[256], log[40];
	size_t len = 0;
	int sets = 0;
	ssize_t n;

	if (fd < 0 || lseek(fd, 0, SEEK_SET))
		return -1;
	/* One "main" line a set (streams have lines too), the initial one's first. */
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = 0;
			len = 0;
			if (sscanf(line, "%*s %*s %*s %*s %39s", log) == 1 &&
			    !strcmp(log, "main"))
				sets++;
		}
	}
	return sets > 1 ? sets - 1 : 0;
}

/* Messages from a hoarder's child: a set (with its two files), or why not. */
enum { TM_SET, TM_REFUSED, TM_KLIMIT, TM_NOUSERNS, TM_ERROR };

struct tmsg {
	int what;
	int err;
};

static void tenant_send(int sock, int what, int err, int log_fd, int ns_fd)
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} c;
	struct tmsg m = { what, err };
	struct iovec iov = { &m, sizeof(m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (log_fd >= 0) {
		int fds[2] = { log_fd, ns_fd };
		struct cmsghdr *cm;

		mh.msg_control = c.buf;
		mh.msg_controllen = sizeof(c.buf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(fds));
		memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	}
	if (sendmsg(sock, &mh, 0) < 0)
		violation(INV_QUOTA, "tenant sendmsg: %s", strerror(errno));
}

/* Map the caller's one uid and gid (as its parent sees them) to 0. */
static int map_self(uint32_t uid, uint32_t gid)
{
	char map[64];
	int ok;

	ok = !write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1", uid);
	ok &= !write_file("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "0 %u 1", gid);
	ok &= !write_file("/proc/self/gid_map", map);
	return ok ? 0 : -1;
}

/*
 * A child of the hoarder's: a user namespace of its own (and @nest more,
 * each in the one before), then @n IPC namespaces in turn, each given a set
 * by an open and a write; the file and the namespace's nsfs file go to the
 * hoarder.  Stops at the first refusal.
 */
static void tenant_maker(int sock, unsigned int n, unsigned int nest)
{
	static const char rec[] = "\4tenant\0hoarding a set";
	uint32_t uid = geteuid(), gid = getegid();
	int fd, nsfd;

	if (unshare(CLONE_NEWUSER | CLONE_NEWIPC)) {
		tenant_send(sock, errno == ENOSPC ? TM_KLIMIT : TM_NOUSERNS,
			    errno, -1, -1);
		_exit(0);
	}
	count(OP_T_USERNS);
	for (unsigned int i = 0; i < nest; i++) {
		/* Only an id mapped in it may make a user namespace below. */
		if (map_self(i ? 0 : uid, i ? 0 : gid)) {
			tenant_send(sock, TM_ERROR, errno, -1, -1);
			_exit(0);
		}
		if (unshare(CLONE_NEWUSER | CLONE_NEWIPC)) {
			tenant_send(sock, errno == ENOSPC ? TM_KLIMIT : TM_ERROR,
				    errno, -1, -1);
			_exit(0);
		}
		count(OP_T_USERNS);
	}
	for (unsigned int i = 0; i < n; i++) {
		if (i && unshare(CLONE_NEWIPC)) {
			tenant_send(sock, errno == ENOSPC ? TM_KLIMIT : TM_ERROR,
				    errno, -1, -1);
			break;
		}
		fd = open(log_paths[rnd_below(NLOGS)], O_WRONLY | O_NONBLOCK);
		if (fd < 0) {
			tenant_send(sock, errno == ENOSPC ? TM_REFUSED : TM_ERROR,
				    errno, -1, -1);
			break;
		}
		if (write(fd, rec, sizeof(rec)) != sizeof(rec) && errno != EAGAIN)
			violation(INV_QUOTA, "tenant write: %s", strerror(errno));
		nsfd = open("/proc/self/ns/ipc", O_RDONLY);
		if (nsfd < 0) {
			tenant_send(sock, TM_ERROR, errno, -1, -1);
			close(fd);
			break;
		}
		tenant_send(sock, TM_SET, 0, fd, nsfd);
		close(fd);
		close(nsfd);
	}
	_exit(0);
}

struct hoard {
	struct { int log_fd, ns_fd; } s[TENANT_SETS];
	int held;
	int cap;		/* asks for no more while holding this many */
	int quota;
	int refused;
	uint64_t obtained;
	int ns_fd;		/* /proc/nslogger/namespaces, opened as root */
};

/* A set came: keep its file (an orphan once its namespace dies), its nsfs file, or both. */
static void hoard_keep(struct hoard *h, const int fds[2])
{
	count(OP_T_SET);
	h->obtained++;
	if (fds[0] < 0 || fds[1] < 0 || h->held == TENANT_SETS) {
		if (fds[0] < 0 || fds[1] < 0)
			violation(INV_QUOTA, "tenant: a set came without its files");
		close(fds[0]);
		close(fds[1]);
		return;
	}
	h->s[h->held].log_fd = fds[0];
	h->s[h->held].ns_fd = fds[1];
	switch (rnd_below(3)) {
	case 0:
		close(fds[0]);
		h->s[h->held].log_fd = -1;
		break;
	case 1:
		close(fds[1]);
		h->s[h->held].ns_fd = -1;
		break;
	}
	h->held++;
	A_STORE(&sh->t.held, h->held);
	if (h->held > A_LOAD(&sh->t.max_held))
		A_STORE(&sh->t.max_held, h->held);
	if (h->quota >= 0 && h->held > h->quota)
		violation(INV_QUOTA, "tenant holds %d sets at once, ns_per_owner is %d",
			  h->held, h->quota);
}

static void hoard_release(struct hoard *h, int i)
{
	if (h->s[i].log_fd >= 0)
		close(h->s[i].log_fd);
	if (h->s[i].ns_fd >= 0)
		close(h->s[i].ns_fd);
	h->s[i] = h->s[--h->held];
	A_STORE(&sh->t.held, h->held);
	count(OP_T_RELEASE);
}

/*
 * Refused: at the quota.  The first time, before anything was closed, it
 * holds every set its owner has, so the refusal must come at exactly
 * ns_per_owner, unless the registry as a whole is full.
 */
static void hoard_refused(struct hoard *h)
{
	int total, room;

	count(OP_T_ENOSPC);
	A_STORE(&sh->t.at_quota, 1);
	if (h->refused++)
		return;
	A_STORE(&sh->t.first_refusal, h->held);
	if (h->quota < 0 || h->held + sh->t.pre == h->quota)
		return;
	total = registry_sets(h->ns_fd);
	room = param_int("max_namespaces", 4096) - param_int("ns_reserve", 64);
	if (total >= 0 && total + 4 >= room)
		say("# tenant: first refused at %d sets, the registry is full (%d of %d)",
		    h->held, total, room);
	else
		violation(INV_QUOTA, "tenant first refused at %d sets (%d before), ns_per_owner is %d; the registry has %d",
			  h->held, sh->t.pre, h->quota, total);
}

/*
 * One child making up to @n sets.  Returns 1 if refused, -1 if the tenant
 * cannot make user namespaces at all, else 0.
 */
static int hoard_step(struct hoard *h, unsigned int n)
{
	unsigned int nest = rnd_below(3) ? 0 : 1 + rnd_below(3);
	uint64_t r = rnd();
	int sv[2], ret = 0, st = 0;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		violation(INV_QUOTA, "socketpair: %s", strerror(errno));
		return 0;
	}
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		rng_init(r);
		tenant_maker(sv[1], n, nest);
	}
	close(sv[1]);
	for (;;) {
		union {
			char buf[CMSG_SPACE(2 * sizeof(int))];
			struct cmsghdr align;
		} c;
		struct tmsg m;
		struct iovec iov = { &m, sizeof(m) };
		struct msghdr mh = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = c.buf, .msg_controllen = sizeof(c.buf),
		};
		int fds[2] = { -1, -1 };
		struct cmsghdr *cm;
		ssize_t got = recvmsg(sv[0], &mh, MSG_CMSG_CLOEXEC);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		cm = CMSG_FIRSTHDR(&mh);
		if (cm && cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_RIGHTS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(fds)))
			memcpy(fds, CMSG_DATA(cm), sizeof(fds));
		switch (m.what) {
		case TM_SET:
			hoard_keep(h, fds);
			break;
		case TM_REFUSED:
			hoard_refused(h);
			ret = 1;
			break;
		case TM_KLIMIT:
			/* The kernel's max_*_namespaces, not the module's... */
			count(OP_T_UNSHARE_LIMIT);
			if (h->obtained)
				break;
			/* fall through - ...unless it is 0 from the start */
		case TM_NOUSERNS:
			if (!h->obtained) {
				say("# tenant: uid %u cannot make a user namespace (%s): no hoarding",
				    sh->t.uid, strerror(m.err));
				ret = -1;
				break;
			}
			/* fall through */
		default:
			violation(INV_QUOTA, "tenant: %s (message %d)",
				  strerror(m.err), m.what);
		}
	}
	close(sv[0]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		violation(INV_QUOTA, "tenant's child exited with status %#x", st);
	return ret;
}

/* Hoard until refused or at @h->cap, for at most @secs seconds. */
static int hoard_fill(struct hoard *h, int secs, int until_stop)
{
	time_t end = time(NULL) + secs;
	int r = 0;

	while (h->held < h->cap && time(NULL) < end &&
	       !(until_stop && stopping())) {
		r = hoard_step(h, 1 + rnd_below(4));
		if (r)
			break;
		usleep(10000 + rnd_below(30000));
	}
	return r;
}

static void hoarder_main(void)
{
	static struct hoard h;

	h.ns_fd = open("/proc/nslogger/namespaces", O_RDONLY);
	if (drop_to(sh->t.uid)) {
		violation(INV_QUOTA, "tenant cannot become uid %u: %s",
			  sh->t.uid, strerror(errno));
		_exit(1);
	}
	h.quota = sh->t.quota;
	/* One more than the quota, so that a set too many shows. */
	h.cap = h.quota < 0 ? 128 : h.quota + 1 < TENANT_SETS ? h.quota + 1 :
		TENANT_SETS;
	A_STORE(&sh->t.first_refusal, -1);

	/* Fill up, closing nothing, until refused. */
	if (hoard_fill(&h, 3600, 1) < 0) {
		A_STORE(&sh->t.no_userns, 1);
		A_STORE(&sh->t.h_state, TH_DONE);
		_exit(0);
	}
	/* Then close random sets and make new ones, refused most of the time. */
	while (!stopping()) {
		uint32_t what = rnd_below(100);

		if (h.held && what < 20) {
			for (int k = 1 + rnd_below(h.held / 4 + 1); k > 0 && h.held; k--)
				hoard_release(&h, rnd_below(h.held));
			A_STORE(&sh->t.at_quota, 0);
		} else if (what < 90 && h.held < h.cap) {
			hoard_step(&h, 1 + rnd_below(4));
		} else {
			usleep(rnd_below(200000));
		}
		usleep(20000 + rnd_below(60000));
	}
	/* At the end: up to the quota again, and hold still for the driver. */
	hoard_fill(&h, 20, 0);
	A_STORE(&sh->t.final_held, h.held);
	A_STORE(&sh->t.h_state, TH_HOLDING);
	for (int i = 0; i < 12000 && !A_LOAD(&sh->t.release); i++)
		usleep(10000);
	while (h.held)
		hoard_release(&h, h.held - 1);
	A_STORE(&sh->t.h_state, TH_DONE);
	_exit(0);
}

/*
 * Does a fresh IPC namespace still get a set: the host's (@uid 0: the
 * driver's child, in the initial user namespace), or another owner's (in a
 * user namespace of its own as @uid)?  1 if it did, 0 if that could not be
 * tried, -1 (and a violation) if it did not.
 */
static int other_gets_set(uint32_t uid, const char *who)
{
	static const char *const why[] = {
		[10] = "cannot change uid", [11] = "unshare: ENOSPC",
		[12] = "unshare failed", [13] = "open: ENOSPC",
		[14] = "open failed", [15] = "write failed",
	};
	pid_t pid = fork();
	int st = 0, code;

	if (pid == 0) {
		int fd;

		if (uid && drop_to(uid))
			_exit(10);
		if (unshare(CLONE_NEWIPC | (uid ? CLONE_NEWUSER : 0)))
			_exit(errno == ENOSPC ? 11 : 12);
		fd = open("/dev/log_main", O_WRONLY | O_NONBLOCK);
		if (fd < 0)
			_exit(errno == ENOSPC ? 13 : 14);
		if (write(fd, "\4host\0here", 11) != 11 && errno != EAGAIN)
			_exit(15);
		_exit(0);
	}
	for (int i = 0; pid > 0 && i < 2000; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			pid = 0;
		else
			usleep(10000);
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		violation(INV_QUOTA, "%s: no set within 20 s", who);
		return -1;
	}
	code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (code == 0)
		return 1;
	/* The kernel's namespace limits, or no unprivileged user namespaces. */
	if (code == 11 || (uid && code == 12)) {
		say("# tenant: %s: not tried (%s)", who, why[code]);
		return 0;
	}
	violation(INV_QUOTA, "%s got no set while the tenant was at its quota: %s",
		  who, code > 0 && code < 16 && why[code] ? why[code] : "crashed");
	return -1;
}

/* ---- the tenant's cgroup writer ---- */

struct tcg {
	char path[256];
	int parent;		/* -1 for the subtree's root */
	int depth;
	int alive;
};

static int tcg_children(const struct tcg *cg, int n, int i)
{
	int k = 0;

	for (int j = 1; j < n; j++)
		k += cg[j].alive && cg[j].parent == i;
	return k;
}

static int tcg_move(struct tcg *cg, int i)
{
	char path[sizeof(cg->path) + 16];
	int err;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg[i].path);
	err = write_file(path, "0");
	if (err) {
		violation(INV_DEFAULT, "tenant cannot move into %s: %s",
			  cg[i].path, strerror(-err));
		return -1;
	}
	count(OP_T_CG_MOVE);
	return 0;
}

/* Read back what is in @fd's log: the notices are counted and checked. */
static void tenant_drain(int fd, unsigned int log, const char *want)
{
	static uint8_t buf[5120];
	char text[512], path[256];
	unsigned long long n, b;

	for (int k = 0; k < 5000; k++) {
		ssize_t got = read(fd, buf, sizeof(buf));
		const uint8_t *p = buf + 20;	/* v1 header */
		size_t len, off = log == 1 ? 9 : 10;

		if (got < 0) {
			if (errno != EAGAIN)
				violation(INV_DEFAULT, "tenant read: %s", strerror(errno));
			return;
		}
		if (got < 21 || !is_notice(p, got - 20, log))
			continue;
		count(OP_T_NOTICE);
		A_ADD(&sh->t.notices[log], 1);
		/* After the priority and tag, or the event's tag, type, length. */
		len = (size_t)got - 20 > off ? (size_t)got - 20 - off : 0;
		if (len >= sizeof(text))
			len = sizeof(text) - 1;
		memcpy(text, p + off, len);
		text[len] = 0;
		if (sscanf(text, "nslogger: suppressed %llu records (%llu bytes) from %255s",
			   &n, &b, path) != 3)
			violation(INV_DEFAULT, "tenant: a notice reads '%.100s'", text);
		else if (strcmp(path, want))
			violation(INV_DEFAULT, "tenant: a notice names %s, not its subtree %s",
				  path, want);
		else
			A_ADD(&sh->t.notice_records, n);
	}
}

/*
 * In an IPC namespace of its own (the host's, so no quota), as uid + 1 in
 * the subtree @root delegated to it: once the default is set, makes
 * cgroups below @root (three levels at most), moves itself between them
 * and writes bursts, until the phase is over.
 */
static void tenant_writer_main(const char *root)
{
	static struct tcg cg[TENANT_CGS + 1];
	static uint8_t buf[LOGGER_ENTRY_MAX_PAYLOAD + 200];
	const char *want = root + strlen("/sys/fs/cgroup");
	int fds[NLOGS], ncg = 1, cur = 0, serial = 0;
	struct tstate *t = &sh->t;

	snprintf(cg[0].path, sizeof(cg[0].path), "%.200s", root);
	cg[0].parent = -1;
	cg[0].alive = 1;
	if (tcg_move(cg, 0) || unshare(CLONE_NEWIPC)) {
		violation(INV_DEFAULT, "tenant writer: %s", strerror(errno));
		_exit(1);
	}
	/* Opened as root: the node is not readable by others. */
	for (int l = 0; l < NLOGS; l++) {
		fds[l] = open(log_paths[l], O_RDWR | O_NONBLOCK);
		if (fds[l] < 0) {
			violation(INV_DEFAULT, "tenant writer open: %s", strerror(errno));
			_exit(1);
		}
	}
	if (drop_to(t->uid + 1)) {
		violation(INV_DEFAULT, "tenant writer cannot become uid %u: %s",
			  t->uid + 1, strerror(errno));
		_exit(1);
	}
	memset(buf, 'x', sizeof(buf));
	memcpy(buf, "\4tenant", 8);

	while (!A_LOAD(&t->go) && !A_LOAD(&t->phase_over) && !stopping())
		usleep(10000);
	if (!A_LOAD(&t->go))
		_exit(0);
	/* Before the first write, so before its bucket is made. */
	A_STORE(&t->t0_ns, now_ns());
	while (!A_LOAD(&t->phase_over) && !stopping()) {
		uint32_t what = rnd_below(100);
		unsigned int l = rnd_below(NLOGS), big = rnd_below(4) != 0;
		unsigned int max = 100 + rnd_below(4000), streak = 1 + rnd_below(30);
		int i, miss = 0;

		/*
		 * A new cgroup, below any of its own but three deep at most;
		 * the first round always makes one, so that a slow run (a
		 * debug kernel does a few rounds) still moves between cgroups.
		 */
		if ((what < 30 || ncg == 1) && ncg <= TENANT_CGS) {
			int p = rnd_below(ncg), c = ncg;
			char made[sizeof(cg[0].path)];

			while (!cg[p].alive || cg[p].depth == 3)
				p = (p + 1) % ncg;
			for (i = 1; i < ncg; i++)
				if (!cg[i].alive)
					c = i;
			snprintf(made, sizeof(made), "%.200s/c%d", cg[p].path, serial++);
			memcpy(cg[c].path, made, sizeof(made));
			cg[c].parent = p;
			cg[c].depth = cg[p].depth + 1;
			if (mkdir(cg[c].path, 0755)) {
				violation(INV_DEFAULT, "tenant mkdir %s: %s", cg[c].path,
					  strerror(errno));
			} else {
				count(OP_T_CG_MKDIR);
				cg[c].alive = 1;
				ncg += c == ncg;
				if (rnd_below(3) && !tcg_move(cg, c))
					cur = c;
			}
		} else if (what < 70) {
			int c = rnd_below(ncg);

			if (cg[c].alive && c != cur && !tcg_move(cg, c))
				cur = c;
		} else if (what < 90) {
			int c = rnd_below(ncg);

			if (c && cg[c].alive && c != cur && !tcg_children(cg, ncg, c)) {
				if (rmdir(cg[c].path))
					violation(INV_DEFAULT, "tenant rmdir %s: %s",
						  cg[c].path, strerror(errno));
				else
					count(OP_T_CG_RMDIR);
				cg[c].alive = 0;
			}
		}

		/* A burst: until this many refusals in a row, or max records. */
		for (i = 0; i < (int)max && miss < (int)streak; i++) {
			size_t len = big ? 2000 + rnd_below(LOGGER_ENTRY_MAX_PAYLOAD + 200 - 2000) :
				     20 + rnd_below(100);
			size_t stored = len > LOGGER_ENTRY_MAX_PAYLOAD ?
					LOGGER_ENTRY_MAX_PAYLOAD : len;
			ssize_t ret = write(fds[l], buf, len);

			t->tried++;
			t->tried_bytes += stored;
			if (ret == (ssize_t)stored) {
				t->accepted++;
				t->accepted_bytes += stored;
				count(OP_T_ACCEPTED);
				miss = 0;
			} else if (ret < 0 && errno == EAGAIN) {
				t->dropped++;
				t->dropped_bytes += stored;
				count(OP_T_DROPPED);
				miss++;
			} else {
				violation(INV_DEFAULT, "tenant write of %zu returned %zd: %s",
					  len, ret, strerror(errno));
				break;
			}
		}
		A_STORE(&t->t1_ns, now_ns());
		for (int k = 0; k < NLOGS; k++)
			tenant_drain(fds[k], k, want);
		usleep(1000 + rnd_below(9000));
	}
	/* Out of every cgroup it made, and remove them. */
	if (cur)
		tcg_move(cg, 0);
	for (int left = 1; left;) {
		left = 0;
		for (int c = 1; c < ncg; c++) {
			if (!cg[c].alive || tcg_children(cg, ncg, c)) {
				left |= cg[c].alive;
				continue;
			}
			if (rmdir(cg[c].path))
				violation(INV_DEFAULT, "tenant rmdir %s: %s", cg[c].path,
					  strerror(errno));
			else
				count(OP_T_CG_RMDIR);
			cg[c].alive = 0;
			left = 1;
		}
	}
	A_STORE(&t->w_done, 1);
	_exit(0);
}

/* "N/Ps" or "N/Pms" as N and P in ns; 0 for "-" (unlimited). */
static int parse_rate(const char *v, uint64_t *n, uint64_t *period_ns)
{
	unsigned long long a, p;
	char unit[4] = "";

	if (sscanf(v, "%llu/%llu%3s", &a, &p, unit) != 3)
		return 0;
	*n = a;
	*period_ns = p * (strcmp(unit, "ms") ? 1000000000ull : 1000000ull);
	return 1;
}

/* B + N * t / P + 1, the most a bucket may let through in @el ns. */
static uint64_t rate_bound(uint64_t b, uint64_t n, uint64_t p, uint64_t el)
{
	return b + (uint64_t)((unsigned __int128)n * el / p) + 1;
}

/*
 * The writer is done, the default still set: its subtree has one bucket,
 * kind=default, that counted exactly its records and held them to the
 * bound; no cgroup below has one.
 */
static void tenant_check_bucket(const char *root)
{
	const char *rel = root + strlen("/sys/fs/cgroup");
	size_t rl = strlen(rel);
	struct tstate *t = &sh->t;
	uint64_t el = t->t1_ns - t->t0_ns, interval;
	char line[1024];
	int found = 0;
	FILE *f = fopen("/proc/nslogger/limits", "r");

	if (!f) {
		violation(INV_DEFAULT, "tenant: limits: %s", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long acc = 0, accb = 0, drop = 0, dropb = 0;
		uint64_t rn = 0, rp = 1, rb = 0, bn = 0, bp = 1, bb = 0;
		int rlim = 0, blim = 0, dflt = 0;
		char *tok, *save;

		if (strncmp(line, rel, rl))
			continue;
		if (line[rl] == '/') {
			violation(INV_DEFAULT, "a bucket below the tenant's subtree: %.*s",
				  (int)strcspn(line, " "), line);
			continue;
		}
		if (line[rl] != ' ')
			continue;
		found++;
		for (tok = strtok_r(line + rl, " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save)) {
			if (!strcmp(tok, "kind=default"))
				dflt = 1;
			else if (!strncmp(tok, "records=", 8))
				rlim = parse_rate(tok + 8, &rn, &rp);
			else if (!strncmp(tok, "bytes=", 6))
				blim = parse_rate(tok + 6, &bn, &bp);
			else if (!strncmp(tok, "records_burst=", 14))
				rb = strtoull(tok + 14, NULL, 10);
			else if (!strncmp(tok, "bytes_burst=", 12))
				bb = strtoull(tok + 12, NULL, 10);
			else if (!strncmp(tok, "accepted=", 9))
				acc = strtoull(tok + 9, NULL, 10);
			else if (!strncmp(tok, "accepted_bytes=", 15))
				accb = strtoull(tok + 15, NULL, 10);
			else if (!strncmp(tok, "dropped=", 8))
				drop = strtoull(tok + 8, NULL, 10);
			else if (!strncmp(tok, "dropped_bytes=", 14))
				dropb = strtoull(tok + 14, NULL, 10);
		}
		if (!dflt)
			violation(INV_DEFAULT, "the tenant's bucket is not kind=default");
		if (acc != t->accepted || accb != t->accepted_bytes ||
		    drop != t->dropped || dropb != t->dropped_bytes)
			violation(INV_DEFAULT, "the tenant's bucket counted %llu records (%llu bytes) accepted and %llu (%llu) dropped; it stored %" PRIu64 " (%" PRIu64 ") and had %" PRIu64 " (%" PRIu64 ") refused",
				  acc, accb, drop, dropb, t->accepted, t->accepted_bytes,
				  t->dropped, t->dropped_bytes);
		if (rlim) {
			t->bound = rate_bound(rb, rn, rp, el);
			if (acc > t->bound)
				violation(INV_DEFAULT, "the tenant's bucket let %llu records through in %.3f s: burst %" PRIu64 " + %" PRIu64 " per %" PRIu64 " ms allows %" PRIu64,
					  acc, el / 1e9, rb, rn, rp / 1000000, t->bound);
		}
		if (blim) {
			t->bound_bytes = rate_bound(bb, bn, bp, el);
			if (accb > t->bound_bytes)
				violation(INV_DEFAULT, "the tenant's bucket let %llu bytes through in %.3f s: burst %" PRIu64 " + %" PRIu64 " per %" PRIu64 " ms allows %" PRIu64,
					  accb, el / 1e9, bb, bn, bp / 1000000, t->bound_bytes);
		}
		if (!rlim && !blim)
			violation(INV_DEFAULT, "the tenant's bucket has no limit: %s", line);
	}
	fclose(f);
	if (found != 1)
		violation(INV_DEFAULT, "%d buckets for the tenant's subtree %s, want 1",
			  found, rel);
	/* The notices it read: at most one per interval and log, no more drops than it had. */
	interval = (uint64_t)param_int("notice_interval_ms", 0) * 1000000;
	for (int l = 0; interval && l < NLOGS; l++)
		if (t->notices[l] > el / interval + 1)
			violation(INV_DEFAULT, "%" PRIu64 " notices in the tenant's %s in %.3f s, at most one per %" PRIu64 " ms",
				  t->notices[l], log_paths[l], el / 1e9, interval / 1000000);
	if (t->notice_records > t->dropped)
		violation(INV_DEFAULT, "the tenant's notices report %" PRIu64 " drops, it had %" PRIu64,
			  t->notice_records, t->dropped);
	A_STORE(&t->checked, 1);
}

static void set_param(const char *name, const char *val);

static void tenant_main(void)
{
	int start = rnd_below(run_seconds / 4 + 1);
	int len = run_seconds / 2 > 2 ? run_seconds / 2 : 2;
	char root[256];
	pid_t hoarder, writer;
	uint64_t r1 = rnd(), r2 = rnd();

	snprintf(root, sizeof(root), "%s/t-cg", cgroot);
	hoarder = fork();
	if (hoarder == 0) {
		rng_init(r1);
		hoarder_main();
	}
	writer = fork();
	if (writer == 0) {
		rng_init(r2);
		tenant_writer_main(root);
	}

	/* Its part of the run: from @start s for @len s, under the default. */
	for (int i = 0; i < start * 10 && !stopping(); i++)
		usleep(100000);
	if (!stopping()) {
		if (write_file("/sys/module/nslogger/parameters/default_limit",
			       TENANT_DEFAULT)) {
			violation(INV_DEFAULT, "cannot set default_limit=%s",
				  TENANT_DEFAULT);
		} else {
			A_STORE(&sh->t.go, 1);
			for (int i = 0; i < len * 10 && !stopping(); i++)
				usleep(100000);
		}
	}
	A_STORE(&sh->t.phase_over, 1);
	if (writer > 0)
		waitpid(writer, NULL, 0);
	if (A_LOAD(&sh->t.go) && A_LOAD(&sh->t.w_done))
		tenant_check_bucket(root);
	else if (A_LOAD(&sh->t.go))
		violation(INV_DEFAULT, "the tenant's writer did not finish");
	set_param("default_limit", "off");
	if (hoarder > 0)
		waitpid(hoarder, NULL, 0);
	_exit(0);
}

/*
 * After the stop: while the hoarder holds what it could get, the owners
 * file shows its uid with those sets and no more than the quota, and the
 * host and another owner still get a set.  Then it may let go.
 */
static void tenant_final_check(void)
{
	struct tstate *t = &sh->t;
	int n;

	for (int i = 0; i < 4000 && A_LOAD(&t->h_state) == TH_RUN; i++)
		usleep(10000);
	if (A_LOAD(&t->no_userns)) {
		A_STORE(&t->release, 1);
		return;
	}
	if (A_LOAD(&t->h_state) != TH_HOLDING) {
		violation(INV_QUOTA, "the hoarder did not come to hold its sets in 40 s");
		A_STORE(&t->release, 1);
		return;
	}
	n = owner_sets(t->uid);
	t->owners_count = n;
	if (n < 0)
		say("# tenant: no /proc/nslogger/owners, not checked");
	else if (n < t->final_held || (t->quota >= 0 && n > t->quota))
		violation(INV_QUOTA, "/proc/nslogger/owners shows uid:%u with %d sets; the tenant holds %d, ns_per_owner is %d",
			  t->uid, n, t->final_held, t->quota);
	if (other_gets_set(0, "the host") > 0)
		count(OP_T_HOST);
	if (other_gets_set(t->uid + 1, "another owner") > 0)
		count(OP_T_OTHER);
	A_STORE(&t->release, 1);
}

/* Remove @path and every cgroup below it, deepest first. */
static void rmdir_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char sub[512];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		rmdir_tree(sub);
	}
	closedir(d);
	for (int i = 0; rmdir(path) && errno == EBUSY && i < 50; i++)
		usleep(100000);
}

/* ---- the driver -------------------------------------------------------- */

static char saved_drop[16], saved_default[256];

static void read_param(const char *name, char *out, size_t sz)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/nslogger/parameters/%s", name);
	out[0] = 0;
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(out, sz, f))
		out[0] = 0;
	out[strcspn(out, "\n")] = 0;
	fclose(f);
}

/*
 * The default limit as the admin file lists it ("default records=N/Ps
 * records_burst=B bytes=- bytes_burst=-"), in the parameter's syntax; the
 * parameter itself only reads back "on" or "off".
 */
static void read_default_limit(char *out, size_t sz)
{
	char line[512], *tok, *save;
	FILE *f = fopen("/proc/nslogger/limits", "r");

	snprintf(out, sz, "off");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "default ", 8))
			continue;
		out[0] = 0;
		for (tok = strtok_r(line + 8, " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save)) {
			size_t n = strlen(tok);

			if (n >= 2 && !strcmp(tok + n - 2, "=-"))
				continue;
			if (strlen(out) + n + 2 < sz)
				strcat(strcat(out, out[0] ? " " : ""), tok);
		}
		break;
	}
	fclose(f);
}

static void set_param(const char *name, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/nslogger/parameters/%s", name);
	if (val[0] && write_file(path, val))
		say("# cannot set %s=%s", name, val);
}

static void cleanup_cgroups(void)
{
	char path[256], cmd[300];

	for (int g = 0; g < sh->ngroups; g++) {
		for (int c = 0; c < NCGROUPS; c++) {
			cg_path(path, sizeof(path), g, c);
			snprintf(cmd, sizeof(cmd), "clear %s",
				 path + strlen("/sys/fs/cgroup"));
			write_file("/proc/nslogger/limits", cmd);
			if (rmdir(path) == 0)
				count(OP_CG_RMDIR);
			else if (errno != ENOENT)
				violation(INV_CGROUP, "final rmdir %s: %s", path,
					  strerror(errno));
		}
		cg_path(path, sizeof(path), g, -1);
		if (rmdir(path))
			violation(INV_CGROUP, "final rmdir %s: %s", path, strerror(errno));
	}
	/* The tenant's: what its writer left, if anything, and its two. */
	snprintf(path, sizeof(path), "%s/t-cg", cgroot);
	rmdir_tree(path);
	snprintf(path, sizeof(path), "%s/t-sets", cgroot);
	rmdir_tree(path);
	if (rmdir(cgroot))
		violation(INV_CGROUP, "final rmdir %s: %s", cgroot, strerror(errno));
}

/* Say where every process of ours that is still there sleeps. */
static void dump_hung(void)
{
	char path[64], buf[4096];
	int any = 0;

	for (pid_t p = getpid() + 1; p < getpid() + 200000 && any < 40; p++) {
		FILE *f;
		size_t n;

		snprintf(path, sizeof(path), "/proc/%d/stat", p);
		f = fopen(path, "r");
		if (!f)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = 0;
		buf[strcspn(buf, "\n")] = 0;
		if (strstr(buf, "(stress)") == NULL)
			continue;
		any++;
		say("# left: %.120s", buf);
		snprintf(path, sizeof(path), "/proc/%d/stack", p);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(buf, sizeof(buf), f))
			say("#     %.*s", (int)strcspn(buf, "\n"), buf);
		fclose(f);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: stress [--seed N] [--seconds N] [--groups N] [--nslogfs] [--verbose]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int seconds = 30, ngroups = 4, fails = 0, hung = 0;
	pid_t kids[NGROUPS_MAX_ + 3];
	int nk = 0;
	char path[256];
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	seed = mix(ts.tv_sec ^ ((uint64_t)ts.tv_nsec << 20) ^ getpid()) % 1000000000;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--groups") && i + 1 < argc)
			ngroups = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--nslogfs"))
			opt_nslogfs = 1;
		else if (!strcmp(argv[i], "--verbose"))
			verbose = 1;
		else
			usage();
	}
	if (ngroups < 1 || ngroups > NGROUPS_MAX_ || seconds < 1)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	run_seconds = seconds;
	start_time = ts.tv_sec;
	run_id = (uint32_t)mix(ts.tv_nsec ^ ((uint64_t)getpid() << 32));
	say("# stress: run %08x, seed %" PRIu64 " (replay: stress --seed %" PRIu64
	    " --seconds %d --groups %d%s)", run_id, seed, seed, seconds, ngroups,
	    opt_nslogfs ? " --nslogfs" : "");

	if (access("/dev/log_main", W_OK) || access("/proc/nslogger/limits", W_OK)) {
		say("not ok - stress needs root and the nslogger module loaded");
		return 1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	sh->ngroups = ngroups;
	sh->driver = getpid();
	rng_init(0);

	/* Drops visible to writers; no default buckets besides our rules. */
	read_param("drop_errno", saved_drop, sizeof(saved_drop));
	read_default_limit(saved_default, sizeof(saved_default));
	set_param("drop_errno", "1");
	set_param("default_limit", "off");

	snprintf(cgroot, sizeof(cgroot), "/sys/fs/cgroup/nslstress.%d", getpid());
	if (mkdir(cgroot, 0755)) {
		say("not ok - mkdir %s: %s", cgroot, strerror(errno));
		return 1;
	}
	for (int g = 0; g < ngroups; g++) {
		cg_path(path, sizeof(path), g, -1);
		if (mkdir(path, 0755))
			violation(INV_CGROUP, "mkdir %s: %s", path, strerror(errno));
	}

	/*
	 * The tenant: two spare uids, its level-2 cgroup, and one more whose
	 * subtree is delegated to its writer as systemd delegates one.
	 */
	sh->t.uid = TENANT_UID + getpid() % 100000 * 2;
	sh->t.quota = param_int("ns_per_owner", -1);
	sh->t.pre = owner_sets(sh->t.uid);
	sh->t.pre = sh->t.pre < 0 ? 0 : sh->t.pre;
	sh->t.first_refusal = -1;
	if (sh->t.quota < 0)
		say("# tenant: the module has no ns_per_owner parameter: its quota is not checked");
	snprintf(path, sizeof(path), "%s/t-sets", cgroot);
	if (mkdir(path, 0755))
		violation(INV_CGROUP, "mkdir %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/t-cg", cgroot);
	if (mkdir(path, 0755))
		violation(INV_CGROUP, "mkdir %s: %s", path, strerror(errno));
	for (int i = 0; i < 4; i++) {
		static const char *const files[] = {
			"", "/cgroup.procs", "/cgroup.threads", "/cgroup.subtree_control",
		};
		char f[300];

		snprintf(f, sizeof(f), "%s%s", path, files[i]);
		if (chown(f, sh->t.uid + 1, sh->t.uid + 1))
			violation(INV_CGROUP, "chown %s: %s", f, strerror(errno));
	}

	for (int g = 0; g < ngroups; g++) {
		pid_t pid = fork();

		if (pid == 0) {
			/* The group's processes live in its cgroup. */
			cg_path(path, sizeof(path), g, -1);
			strcat(path, "/cgroup.procs");
			write_file(path, "0");
			group_main(g);
		}
		kids[nk++] = pid;
	}
	for (int i = 0; i < 1000; i++) {
		int ready = 1;

		for (int g = 0; g < ngroups; g++)
			ready &= A_LOAD(&sh->g[g].ready);
		if (ready)
			break;
		usleep(10000);
	}
	if (!(kids[nk++] = fork())) {
		rng_init(1);
		cgmgr_main();
	}
	if (!(kids[nk++] = fork())) {
		rng_init(2);
		collector_main();
	}
	if (!(kids[nk++] = fork())) {
		snprintf(path, sizeof(path), "%s/t-sets/cgroup.procs", cgroot);
		write_file(path, "0");
		rng_init(3);
		tenant_main();
	}

	for (int s = 0; s < seconds; s++) {
		sleep(1);
		if (verbose)
			say("# %ds: %" PRIu64 " writes, %" PRIu64 " reads, %" PRIu64 " violations",
			    s + 1, A_LOAD(&sh->ops[OP_WRITE]) + A_LOAD(&sh->ops[OP_WRITEV]),
			    A_LOAD(&sh->ops[OP_READ]), A_LOAD(&sh->printed));
		/* The tenant is at its quota: the host is not starved. */
		if (A_LOAD(&sh->t.at_quota) && other_gets_set(0, "the host") > 0)
			count(OP_T_HOST);
	}
	A_STORE(&sh->stop, 1);
	tenant_final_check();

	/* Everyone stops within 60 s, or it is a hang (reported, then killed). */
	for (int t = 0; t < 600; t++) {
		int left = 0;

		for (int i = 0; i < nk; i++) {
			int st;

			if (kids[i] > 0 && waitpid(kids[i], &st, WNOHANG) == kids[i])
				kids[i] = 0;
			left += kids[i] > 0;
		}
		if (!left)
			break;
		usleep(100000);
	}
	for (int i = 0; i < nk; i++) {
		if (kids[i] > 0) {
			dump_hung();
			break;
		}
	}
	for (int i = 0; i < nk; i++) {
		if (kids[i] > 0) {
			say("# process %d (%s) did not stop", kids[i],
			    i < ngroups ? "group leader" : i == ngroups ? "cgroup manager" :
			    i == ngroups + 1 ? "collector" : "hostile tenant");
			hung++;
			kill(kids[i], SIGKILL);
			waitpid(kids[i], NULL, 0);
		}
	}
	if (hung)
		violation(INV_HANG, "%d process groups did not stop", hung);
	/* Let the grandchildren of killed groups go. */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;

	cleanup_cgroups();
	set_param("drop_errno", saved_drop[0] == 'Y' ? "1" : "0");
	set_param("default_limit", saved_default);

	say("# operations:");
	for (int i = 0; i < OP_NR; i++)
		say("#   %-20s %" PRIu64, op_names[i], sh->ops[i]);
	say("# tenant: uid %u: %" PRIu64 " sets, at most %d held at once, first refused at %d, %" PRIu64
	    " refusals, %d held at the end and %d in owners (ns_per_owner %d)",
	    sh->t.uid, sh->ops[OP_T_SET], sh->t.max_held, sh->t.first_refusal,
	    sh->ops[OP_T_ENOSPC], sh->t.final_held, sh->t.owners_count, sh->t.quota);
	say("# tenant: uid %u: %" PRIu64 " cgroups made, %" PRIu64 " of %" PRIu64 " records (%" PRIu64
	    " of %" PRIu64 " bytes) accepted in %.3f s, bound %" PRIu64 " (%" PRIu64 " bytes), %" PRIu64
	    " notices for %" PRIu64 " drops",
	    sh->t.uid + 1, sh->ops[OP_T_CG_MKDIR], sh->t.accepted, sh->t.tried,
	    sh->t.accepted_bytes, sh->t.tried_bytes,
	    (sh->t.t1_ns - sh->t.t0_ns) / 1e9, sh->t.bound, sh->t.bound_bytes,
	    sh->ops[OP_T_NOTICE], sh->t.dropped);
	for (int i = 0; i < INV_NR; i++) {
		const char *skip = NULL;

		if (i == INV_QUOTA && sh->t.quota < 0)
			skip = "the module has no ns_per_owner parameter";
		else if (i == INV_QUOTA && sh->t.no_userns)
			skip = "the tenant could make no user namespace";
		else if (i == INV_DEFAULT && !sh->t.checked)
			skip = "the tenant's part of the run did not happen";
		if (skip && !sh->viol[i]) {
			say("ok - %s # SKIP %s", inv_names[i], skip);
			continue;
		}
		if (sh->viol[i]) {
			say("not ok - %s (%" PRIu64 " violations, seed %" PRIu64 ")",
			    inv_names[i], sh->viol[i], seed);
			fails++;
		} else {
			say("ok - %s", inv_names[i]);
		}
	}
	/* The invariants must have been exercised to mean anything. */
	if (!sh->ops[OP_VERIFIED] || !sh->ops[OP_COMPLETE_CHECK] ||
	    !sh->ops[OP_UNSHARE] || !sh->ops[OP_RULE_SET] ||
	    !sh->ops[OP_READ_EINTR] || !sh->ops[OP_SHARED_CHECK]) {
		say("not ok - every invariant was exercised (verified %" PRIu64
		    ", complete checks %" PRIu64 ", unshares %" PRIu64 ", rules %" PRIu64
		    ", interrupted reads %" PRIu64 ", shared-file checks %" PRIu64 ")",
		    sh->ops[OP_VERIFIED], sh->ops[OP_COMPLETE_CHECK],
		    sh->ops[OP_UNSHARE], sh->ops[OP_RULE_SET],
		    sh->ops[OP_READ_EINTR], sh->ops[OP_SHARED_CHECK]);
		fails++;
	} else {
		say("ok - every invariant was exercised");
	}
	/* The same for the tenant: it was refused, and wrote from new cgroups. */
	if (sh->t.quota < 0 || sh->t.no_userns) {
		say("ok - the hostile tenant was exercised # SKIP no quota to hoard against");
	} else if (!sh->ops[OP_T_SET] || !sh->ops[OP_T_ENOSPC] ||
		   !sh->ops[OP_T_HOST] || !sh->t.checked ||
		   !sh->ops[OP_T_CG_MKDIR] || !sh->t.accepted) {
		say("not ok - the hostile tenant was exercised (sets %" PRIu64 ", refusals %" PRIu64
		    ", host sets at quota %" PRIu64 ", bucket checked %d, cgroups %" PRIu64
		    ", records %" PRIu64 ")",
		    sh->ops[OP_T_SET], sh->ops[OP_T_ENOSPC], sh->ops[OP_T_HOST],
		    sh->t.checked, sh->ops[OP_T_CG_MKDIR], sh->t.accepted);
		fails++;
	} else {
		say("ok - the hostile tenant was exercised");
	}
	/*
	 * The relays: records stored, for writers alive and gone; read back
	 * with the 0x4e54 header, unverified ones among them; calls refused.
	 */
	if (!sh->ops[OP_RELAY] || !sh->ops[OP_RELAY_EXITED] ||
	    !sh->ops[OP_RELAY_REFUSED] || !sh->ops[OP_E2_READ] ||
	    !sh->ops[OP_RELAY_VERIFIED] || !sh->ops[OP_RELAY_UNVERIFIED]) {
		say("not ok - the relays were exercised (stored %" PRIu64 ", for exited writers %" PRIu64
		    ", refused %" PRIu64 ", records read with 0x4e54 %" PRIu64
		    ", relayed ones %" PRIu64 ", unverified %" PRIu64 ")",
		    sh->ops[OP_RELAY], sh->ops[OP_RELAY_EXITED],
		    sh->ops[OP_RELAY_REFUSED], sh->ops[OP_E2_READ],
		    sh->ops[OP_RELAY_VERIFIED], sh->ops[OP_RELAY_UNVERIFIED]);
		fails++;
	} else {
		say("ok - the relays were exercised");
	}
	/* With --nslogfs, both kinds of file were opened. */
	if (opt_nslogfs && (!sh->ops[OP_OPEN_FS] || !sh->ops[OP_OPEN])) {
		say("not ok - nodes and nslogfs files both used (node opens %" PRIu64
		    ", nslogfs opens %" PRIu64 ")", sh->ops[OP_OPEN],
		    sh->ops[OP_OPEN_FS]);
		fails++;
	} else if (opt_nslogfs) {
		say("ok - nodes and nslogfs files both used");
	}
	if (sh->t.checked && !sh->t.dropped)
		say("# tenant: never held to the default: its bound was not put to the test");
	say("# stress: seed %" PRIu64 ", %d s, %d groups: %s", seed, seconds,
	    ngroups, fails ? "FAILED" : "passed");
	return fails ? 1 : 0;
}
