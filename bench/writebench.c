// SPDX-License-Identifier: GPL-2.0
/*
 * writebench - ns per write of nslogger and of what users would pick
 * instead, every case in one run, interleaved.
 *
 *   writebench [-r REPS] [-t MS] [-l LABEL] CASE...
 *   writebench hold N READYFILE     hold N IPC namespaces, each with an
 *                                   nsfs fd and /dev/log_main open
 *   writebench mem N none|open|write
 *                                   memory of N namespaces (CSV)
 *   writebench rules N PARENT       N cgroups PARENT/rI with a rule each
 *
 * A CASE is key=value pairs split by commas:
 *   w=null|nslog|nslogv|kmsg|marker|unix|pipe|open|drain|relay|recv|recvrelay
 *                  the writer (relay, recv and recvrelay: below)
 *   p=BYTES        payload (default 100): prio byte, "bench\0", message\0
 *   dev=PATH       log device (default /dev/log_main)
 *   ns=new|each    writer(s) in one new IPC namespace, or one each
 *   rd=N           open readers of the device (nslog*, kmsg)
 *   act=1          the readers read (one thread each), else they idle
 *   cg=PATH        the writers join this cgroup (a cgroup.procs folder)
 *   th=N           N writer processes at once (default 1)
 *   cpu=N          the case's processes (writers, readers, senders) run on
 *                  CPU N only
 *   name=TEXT      the case's name in the output
 *
 * The relay writers store records as a logd-protocol relay (nslogd) does,
 * and need CAP_SYSLOG over the log's set:
 *   relay          NSLOG_IOC_RELAY of the payload on the device's write fd,
 *                  into the main log of its set, naming a live writer: a
 *                  child process that sleeps
 *   recv           a bare datagram receiver: recvmsg() of one datagram of
 *                  the payload from an AF_UNIX SOCK_DGRAM socket bound as
 *                  logd's logdw is (SO_PASSCRED on, a cmsg buffer), which
 *                  a child process fills with send() from a socket
 *                  connected to it, blocking when it is full; one operation
 *                  is one datagram received
 *   recvrelay      recv, then NSLOG_IOC_RELAY of the datagram into the main
 *                  log, naming the sender by the SCM_CREDENTIALS pid
 *
 * Each case is a worker process set up once (namespace, cgroup, readers).
 * The parent calibrates each to about MS milliseconds per sample, then runs
 * REPS rounds, each round one sample of every case in turn, so that a slow
 * spell of the (shared, emulated) machine hits all cases alike.  One line of
 * CSV per case goes to stdout, with the columns of CSV_HEADER (which
 * "writebench -H" prints).
 * ns_* are ns per write (for th > 1, wall time over all writers' writes),
 * wps_med is writes per second of all writers together.  bns_* are the
 * median, min and max over the rounds of each sample's batch median (see
 * struct result): the cost while the vCPU runs, for a machine shared with
 * other jobs.  A case whose
 * writer fails prints NA.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/nslogger.h>

#define CSV_HEADER "label,name,writer,payload,readers,active,threads,ns,cgroup," \
	"reps,iters,ns_med,ns_min,ns_max,ns_q1,ns_q3,wps_med,bns_med,bns_min,bns_max"

#define MAX_CASES	64
#define MAX_REPS	64
#define MAX_PAYLOAD	4096

enum writer {
	W_NULL, W_NSLOG, W_NSLOGV, W_KMSG, W_MARKER, W_UNIX, W_PIPE, W_OPEN,
	W_DRAIN, W_RELAY, W_RECV, W_RECVRELAY,
};

static const char *const writer_names[] = {
	"null", "nslog", "nslogv", "kmsg", "marker", "unix", "pipe", "open",
	"drain", "relay", "recv", "recvrelay",
};

struct bcase {
	enum writer w;
	int payload;
	char dev[128];
	char ns[8];
	int readers;
	int active;
	char cg[256];
	int threads;
	int cpu;
	char name[64];

	pid_t pid;
	int cmd_fd;	/* parent -> worker */
	int res_fd;	/* worker -> parent */
	uint64_t iters;
	double smp[MAX_REPS];
	double bsmp[MAX_REPS];
	int failed;
};

/*
 * One sample: @ops operations from @t0 to @t1, and @bns, the median over
 * batches of BATCH operations of ns per operation.  A vCPU the host takes
 * away for a while (the machine is shared) stretches a few batches, which
 * the median leaves out; the wall time keeps them.
 */
struct result {
	uint64_t ops;
	uint64_t t0;
	uint64_t t1;
	double bns;
	int64_t err;
};

#define BATCH	32

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "writebench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int xread(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

static int xwrite(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, (const char *)buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

static void raise_nofile(void)
{
	struct rlimit rl = { 1 << 20, 1 << 20 };

	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max = 65536;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int join_cgroup(const char *cg)
{
	char path[300];
	char pid[32];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	snprintf(pid, sizeof(pid), "%d\n", getpid());
	ret = write(fd, pid, strlen(pid)) < 0 ? -1 : 0;
	close(fd);
	return ret;
}

/* ---- one writer ------------------------------------------------------- */

struct wctx {
	const struct bcase *c;
	char buf[MAX_PAYLOAD];
	struct iovec iov[3];
	int fd;		/* what is written to */
	int peer;	/* unix/pipe reader's end, closed in the writer */
	int rdfd;	/* drain: the reading fd */
	int relfd;	/* recvrelay: the log's fd the relay stores through */
	struct nslog_relay rel;	/* relay, recvrelay: the ioctl's argument */
	char rbuf[MAX_PAYLOAD];	/* recv*: the datagram received */
	char cbuf[CMSG_SPACE(sizeof(struct ucred))];	/* recv*: its cmsg */
};

/* liblog's record: priority, tag with its NUL, message with its NUL. */
static void fill_payload(struct wctx *x, int len)
{
	static const char tag[] = "bench";
	int msg = len - 1 - (int)sizeof(tag);

	memset(x->buf, 'm', len);
	x->buf[0] = 4;	/* ANDROID_LOG_INFO */
	memcpy(x->buf + 1, tag, sizeof(tag));
	x->buf[len - 1] = '\0';
	x->iov[0].iov_base = x->buf;
	x->iov[0].iov_len = 1;
	x->iov[1].iov_base = x->buf + 1;
	x->iov[1].iov_len = sizeof(tag);
	x->iov[2].iov_base = x->buf + 1 + sizeof(tag);
	x->iov[2].iov_len = msg;
	if (x->c->w == W_KMSG) {
		/* Level 7 (debug): into the printk ring, not onto the console. */
		memcpy(x->buf, "<7>", 3);
		memset(x->buf + 3, 'k', len - 3);
		x->buf[len - 1] = '\n';
	}
}

/* Helpers die with their case, whatever becomes of the parent. */
static void prctl_parent_death(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

static void *drain_thread(void *arg)
{
	int fd = (int)(intptr_t)arg;
	static char sink[65536];

	for (;;)
		if (read(fd, sink, sizeof(sink)) < 0 && errno != EINTR &&
		    errno != EAGAIN)
			break;
	return NULL;
}

/* The reader of a socket or pipe: its own process, draining. */
static pid_t spawn_sink(int fd)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		prctl_parent_death();
		drain_thread((void *)(intptr_t)fd);
		_exit(0);
	}
	return pid;
}

/* The live writer a relay case names: a process that sleeps. */
static pid_t spawn_sleeper(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		prctl_parent_death();
		for (;;)
			pause();
	}
	return pid;
}

/*
 * The receiving end of a logd-style socket: bound to an address (abstract,
 * unique per process) that a sender connect()s to, as logdw is, so the
 * kernel's limit on queued datagrams (net.unix.max_dgram_qlen) applies as
 * it does to logd; SO_PASSCRED as logd sets it.  A child process sends the
 * payload to it without end, blocking while the queue is full.
 */
static int dgram_setup(struct wctx *x)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t salen;
	int one = 1, s;
	pid_t pid;

	salen = offsetof(struct sockaddr_un, sun_path) + 1 +
		snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1,
			 "nslog-writebench-%d", (int)getpid());
	x->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (x->fd < 0 || bind(x->fd, (struct sockaddr *)&sa, salen) ||
	    setsockopt(x->fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)))
		return -1;
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		prctl_parent_death();
		close(x->fd);
		s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (s < 0 || connect(s, (struct sockaddr *)&sa, salen))
			_exit(1);
		for (;;)
			if (send(s, x->buf, x->c->payload, 0) < 0 &&
			    errno != EINTR)
				_exit(1);
	}
	return 0;
}

/* What a relay passes that is not the writer's pid: logd's claims. */
static void relay_init(struct wctx *x, pid_t pid)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	memset(&x->rel, 0, sizeof(x->rel));
	x->rel.pid = pid;
	x->rel.tid = pid;
	x->rel.log_id = 0;	/* main */
	x->rel.time_ns = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	x->rel.len = x->c->payload;
	x->rel.payload = (uintptr_t)x->buf;
}

static int writer_setup(struct wctx *x)
{
	const struct bcase *c = x->c;
	int sv[2];

	x->peer = -1;
	x->rdfd = -1;
	x->relfd = -1;
	fill_payload(x, c->payload);
	switch (c->w) {
	case W_NULL:
		x->fd = open("/dev/null", O_WRONLY);
		break;
	case W_NSLOG:
	case W_NSLOGV:
		x->fd = open(c->dev, O_WRONLY);
		break;
	case W_KMSG:
		x->fd = open("/dev/kmsg", O_WRONLY);
		break;
	case W_MARKER:
		x->fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
		if (x->fd < 0)
			x->fd = open("/sys/kernel/debug/tracing/trace_marker",
				     O_WRONLY);
		break;
	case W_UNIX:
		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
			return -1;
		spawn_sink(sv[1]);
		close(sv[1]);
		x->fd = sv[0];
		break;
	case W_PIPE:
		if (pipe(sv))
			return -1;
		spawn_sink(sv[0]);
		close(sv[0]);
		x->fd = sv[1];
		break;
	case W_OPEN:
		x->fd = 0;
		break;
	case W_DRAIN:
		x->fd = open(c->dev, O_RDWR);
		x->rdfd = open(c->dev, O_RDONLY | O_NONBLOCK);
		if (x->rdfd < 0)
			return -1;
		break;
	case W_RELAY:
		x->fd = open(c->dev, O_WRONLY);
		relay_init(x, spawn_sleeper());
		break;
	case W_RECVRELAY:
		x->relfd = open(c->dev, O_WRONLY);
		if (x->relfd < 0)
			return -1;
		relay_init(x, 0);
		x->rel.payload = (uintptr_t)x->rbuf;
		/* fall through */
	case W_RECV:
		if (dgram_setup(x))
			return -1;
		break;
	}
	return x->fd < 0 ? -1 : 0;
}

/* Fill the ring, then time one reader taking every record out of it. */
static int drain_once(struct wctx *x, struct result *r)
{
	static char rbuf[NSLOG_ENTRY_MAX_LEN];
	int size = ioctl(x->fd, LOGGER_GET_LOG_BUF_SIZE);
	int i, n;
	uint64_t got = 0;

	if (size <= 0 || ioctl(x->fd, LOGGER_FLUSH_LOG))
		return -1;
	/* Twice the ring's worth: it is full and has wrapped. */
	n = 2 * size / (x->c->payload + 40) + 1;
	for (i = 0; i < n; i++)
		if (write(x->fd, x->buf, x->c->payload) < 0)
			return -1;
	r->t0 = now_ns();
	while (read(x->rdfd, rbuf, sizeof(rbuf)) > 0)
		got++;
	r->t1 = now_ns();
	if (errno != EAGAIN)
		return -1;
	r->ops = got;
	return 0;
}

/*
 * One datagram received; for recvrelay also stored, as written by its
 * sender (SCM_CREDENTIALS), as nslogd stores what logdw receives.
 */
static ssize_t dgram_recv(struct wctx *x)
{
	struct iovec iov = { x->rbuf, sizeof(x->rbuf) };
	struct msghdr mh = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = x->cbuf,
		.msg_controllen = sizeof(x->cbuf),
	};
	struct cmsghdr *cm;
	struct ucred uc;
	ssize_t n;

	n = recvmsg(x->fd, &mh, 0);
	if (n < 0 || x->c->w == W_RECV)
		return n;
	cm = CMSG_FIRSTHDR(&mh);
	if (!cm || cm->cmsg_level != SOL_SOCKET ||
	    cm->cmsg_type != SCM_CREDENTIALS) {
		errno = EPROTO;
		return -1;
	}
	memcpy(&uc, CMSG_DATA(cm), sizeof(uc));
	x->rel.pid = uc.pid;
	x->rel.tid = uc.pid;
	x->rel.uid = uc.uid;
	x->rel.len = n;
	return ioctl(x->relfd, NSLOG_IOC_RELAY, &x->rel);
}

static ssize_t writer_op(struct wctx *x)
{
	const struct bcase *c = x->c;
	ssize_t ret;

	switch (c->w) {
	case W_NSLOGV:
		return writev(x->fd, x->iov, 3);
	case W_UNIX:
		return send(x->fd, x->buf, c->payload, 0);
	case W_RELAY:
		return ioctl(x->fd, NSLOG_IOC_RELAY, &x->rel);
	case W_RECV:
	case W_RECVRELAY:
		return dgram_recv(x);
	case W_OPEN:
		ret = open(c->dev, O_WRONLY);
		if (ret >= 0)
			close(ret);
		return ret;
	default:
		return write(x->fd, x->buf, c->payload);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void writer_run(struct wctx *x, uint64_t n, struct result *r)
{
	static uint64_t *bt;
	static uint64_t bt_size;
	uint64_t i, nb = 0, prev, t;
	ssize_t ret = 0;

	r->ops = n;
	r->err = 0;
	if (x->c->w == W_DRAIN) {
		if (drain_once(x, r))
			r->err = errno ? errno : EIO;
		r->bns = r->ops ? (double)(r->t1 - r->t0) / r->ops : 0;
		return;
	}
	if (n / BATCH + 1 > bt_size) {
		bt_size = n / BATCH + 1;
		bt = realloc(bt, bt_size * sizeof(*bt));
		if (!bt)
			die("realloc");
	}
	r->t0 = prev = now_ns();
	for (i = 0; i < n && ret >= 0; i++) {
		ret = writer_op(x);
		if ((i + 1) % BATCH == 0) {
			t = now_ns();
			bt[nb++] = t - prev;
			prev = t;
		}
	}
	r->t1 = now_ns();
	if (ret < 0)
		r->err = errno;
	if (nb) {
		qsort(bt, nb, sizeof(*bt), cmp_u64);
		r->bns = (double)bt[nb / 2] / BATCH;
	} else {
		r->bns = (double)(r->t1 - r->t0) / n;
	}
}

/* A writer process: setup, then one sample per command until EOF. */
static void writer_loop(struct bcase *c, int cmd, int res)
{
	static struct wctx x;
	struct result r = { 0 };
	uint64_t n;

	x.c = c;
	if (c->ns[0] == 'e' && unshare(CLONE_NEWIPC))
		r.err = errno;
	if (!r.err && writer_setup(&x))
		r.err = errno ? errno : EIO;
	while (xread(cmd, &n, sizeof(n)) == 0) {
		if (!r.err)
			writer_run(&x, n, &r);
		if (xwrite(res, &r, sizeof(r)))
			break;
	}
	_exit(0);
}

/* ---- a case: its writers and readers ---------------------------------- */

static int open_readers(struct bcase *c)
{
	const char *dev = c->w == W_KMSG ? "/dev/kmsg" : c->dev;
	pthread_attr_t attr;
	int i;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	for (i = 0; i < c->readers; i++) {
		int fd = open(dev, O_RDONLY);
		pthread_t t;

		if (fd < 0)
			return -1;
		if (c->w == W_KMSG)
			lseek(fd, 0, SEEK_END);
		if (c->active &&
		    pthread_create(&t, &attr, drain_thread, (void *)(intptr_t)fd))
			return -1;
	}
	return 0;
}

/*
 * The worker of a case.  With one writer it writes itself; with more it
 * forks them and reports the wall time from the first start to the last
 * end.
 */
static void case_worker(struct bcase *c, int cmd, int res)
{
	int wcmd[16], wres[16];
	struct result r, sum;
	int i, err = 0;
	uint64_t n;

	prctl_parent_death();
	if (c->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(c->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			err = errno;
	}
	if (!err && c->cg[0] && join_cgroup(c->cg))
		err = errno;
	if (!err && c->ns[0] == 'n' && unshare(CLONE_NEWIPC))
		err = errno;
	if (!err && c->readers && open_readers(c))
		err = errno;
	if (c->threads <= 1 && !err)
		writer_loop(c, cmd, res);

	for (i = 0; i < c->threads && !err; i++) {
		int a[2], b[2];

		if (pipe(a) || pipe(b))
			die("pipe");
		if (!fork()) {
			prctl_parent_death();
			close(a[1]);
			close(b[0]);
			writer_loop(c, a[0], b[1]);
		}
		close(a[0]);
		close(b[1]);
		wcmd[i] = a[1];
		wres[i] = b[0];
	}
	while (xread(cmd, &n, sizeof(n)) == 0) {
		memset(&sum, 0, sizeof(sum));
		sum.err = err;
		for (i = 0; i < c->threads && !err; i++)
			if (xwrite(wcmd[i], &n, sizeof(n)))
				sum.err = EPIPE;
		for (i = 0; i < c->threads && !err; i++) {
			if (xread(wres[i], &r, sizeof(r))) {
				sum.err = EPIPE;
				continue;
			}
			if (r.err)
				sum.err = r.err;
			sum.ops += r.ops;
			/* Per writer; the mean of the writers. */
			sum.bns += r.bns / c->threads;
			if (!sum.t0 || r.t0 < sum.t0)
				sum.t0 = r.t0;
			if (r.t1 > sum.t1)
				sum.t1 = r.t1;
		}
		if (xwrite(res, &sum, sizeof(sum)))
			break;
	}
	_exit(0);
}

static int parse_case(struct bcase *c, char *spec)
{
	char *tok, *save = NULL;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->payload = 100;
	c->threads = 1;
	c->cpu = -1;
	strcpy(c->dev, "/dev/log_main");
	for (tok = strtok_r(spec, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *v = strchr(tok, '=');

		if (!v)
			return -1;
		*v++ = '\0';
		if (!strcmp(tok, "w")) {
			for (i = 0; i < sizeof(writer_names) / sizeof(*writer_names); i++)
				if (!strcmp(v, writer_names[i]))
					break;
			if (i == sizeof(writer_names) / sizeof(*writer_names))
				return -1;
			c->w = i;
		} else if (!strcmp(tok, "p")) {
			c->payload = atoi(v);
		} else if (!strcmp(tok, "dev")) {
			snprintf(c->dev, sizeof(c->dev), "%s", v);
		} else if (!strcmp(tok, "ns")) {
			snprintf(c->ns, sizeof(c->ns), "%s", v);
		} else if (!strcmp(tok, "rd")) {
			c->readers = atoi(v);
		} else if (!strcmp(tok, "act")) {
			c->active = atoi(v);
		} else if (!strcmp(tok, "cg")) {
			snprintf(c->cg, sizeof(c->cg), "%s", v);
		} else if (!strcmp(tok, "th")) {
			c->threads = atoi(v);
		} else if (!strcmp(tok, "cpu")) {
			c->cpu = atoi(v);
		} else if (!strcmp(tok, "name")) {
			snprintf(c->name, sizeof(c->name), "%s", v);
		} else {
			return -1;
		}
	}
	if (c->payload < 10 || c->payload > MAX_PAYLOAD || c->threads < 1 ||
	    c->threads > 16 || c->cpu >= CPU_SETSIZE)
		return -1;
	if (!c->name[0])
		snprintf(c->name, sizeof(c->name), "%s-%d",
			 writer_names[c->w], c->payload);
	return 0;
}

static void start_case(struct bcase *c)
{
	int a[2], b[2];

	if (pipe(a) || pipe(b))
		die("pipe");
	c->pid = fork();
	if (c->pid < 0)
		die("fork");
	if (!c->pid) {
		close(a[1]);
		close(b[0]);
		case_worker(c, a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	c->cmd_fd = a[1];
	c->res_fd = b[0];
}

/*
 * One sample: ns per operation by wall time, or < 0 when the writer
 * failed; *bns gets the batch median.
 */
static double sample(struct bcase *c, uint64_t n, double *bns)
{
	struct result r;

	if (xwrite(c->cmd_fd, &n, sizeof(n)) || xread(c->res_fd, &r, sizeof(r)))
		return -1;
	if (r.err) {
		if (!c->failed)
			fprintf(stderr, "writebench: %s: %s\n", c->name,
				strerror((int)r.err));
		c->failed = 1;
		return -1;
	}
	if (!r.ops)
		return -1;
	if (bns)
		*bns = r.bns;
	return (double)(r.t1 - r.t0) / r.ops;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Quantile by linear interpolation of sorted samples. */
static double quantile(const double *s, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;

	if (i >= n - 1)
		return s[n - 1];
	return s[i] + (pos - i) * (s[i + 1] - s[i]);
}

static int run_cases(int argc, char **argv, int reps, double target_ms,
		     const char *label)
{
	static struct bcase cases[MAX_CASES];
	int ncases = argc, i, k;

	if (ncases > MAX_CASES || reps > MAX_REPS || reps < 1)
		return 2;
	for (i = 0; i < ncases; i++) {
		if (parse_case(&cases[i], argv[i])) {
			fprintf(stderr, "writebench: bad case '%s'\n", argv[i]);
			return 2;
		}
	}
	for (i = 0; i < ncases; i++)
		start_case(&cases[i]);

	/* Warm up and calibrate: MS per sample, from two trial runs. */
	for (i = 0; i < ncases; i++) {
		struct bcase *c = &cases[i];
		uint64_t n = c->w == W_DRAIN ? 1 : 64;
		double ns = sample(c, n, NULL);

		if (ns < 0)
			continue;
		if (c->w == W_DRAIN) {
			c->iters = 1;
			continue;
		}
		n = (uint64_t)(target_ms * 1e6 / 4 / ns) + 1;
		ns = sample(c, n, NULL);
		if (ns < 0)
			continue;
		c->iters = (uint64_t)(target_ms * 1e6 / ns) + 1;
		if (c->iters < 32)
			c->iters = 32;
	}
	for (k = 0; k < reps; k++) {
		for (i = 0; i < ncases; i++) {
			struct bcase *c = &cases[i];

			c->smp[k] = c->failed ? -1 :
				    sample(c, c->iters, &c->bsmp[k]);
		}
	}
	for (i = 0; i < ncases; i++) {
		struct bcase *c = &cases[i];
		double s[MAX_REPS], med;

		printf("%s,%s,%s,%d,%d,%d,%d,%s,%s,%d,%llu,", label, c->name,
		       writer_names[c->w], c->payload, c->readers, c->active,
		       c->threads, c->ns[0] ? c->ns : "init",
		       c->cg[0] ? c->cg + strlen("/sys/fs/cgroup") : "/",
		       reps, (unsigned long long)c->iters);
		if (c->failed) {
			printf("NA,NA,NA,NA,NA,NA,NA,NA,NA\n");
			continue;
		}
		memcpy(s, c->smp, reps * sizeof(double));
		qsort(s, reps, sizeof(double), cmp_double);
		med = quantile(s, reps, 0.5);
		/* ops per second of all writers: ns is wall time per op. */
		printf("%.1f,%.1f,%.1f,%.1f,%.1f,%.0f,", med, s[0],
		       s[reps - 1], quantile(s, reps, 0.25),
		       quantile(s, reps, 0.75), 1e9 / med);
		memcpy(s, c->bsmp, reps * sizeof(double));
		qsort(s, reps, sizeof(double), cmp_double);
		printf("%.1f,%.1f,%.1f\n", quantile(s, reps, 0.5), s[0],
		       s[reps - 1]);
	}
	fflush(stdout);
	for (i = 0; i < ncases; i++) {
		close(cases[i].cmd_fd);
		close(cases[i].res_fd);
		kill(cases[i].pid, SIGKILL);
		waitpid(cases[i].pid, NULL, 0);
	}
	return 0;
}

/* ---- namespaces and rules, for the count and memory cases ------------- */

/* A new IPC namespace held by an nsfs fd; the caller stays in it. */
static int new_ns(void)
{
	if (unshare(CLONE_NEWIPC))
		return -1;
	return open("/proc/self/ns/ipc", O_RDONLY);
}

static __attribute__((noreturn)) void hold(int n, const char *ready)
{
	uint64_t t0 = now_ns();
	char tmp[512];
	int i, fd;

	raise_nofile();
	for (i = 0; i < n; i++) {
		if (new_ns() < 0)
			die("unshare");
		if (open("/dev/log_main", O_WRONLY) < 0)
			die("open /dev/log_main");
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", ready);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(tmp);
	/* The cost of making a namespace and opening the log in it. */
	dprintf(fd, "%d,%.0f\n", n, n ? (now_ns() - t0) / (double)n : 0.0);
	close(fd);
	if (rename(tmp, ready))
		die(ready);
	for (;;)
		pause();
}

static const char *const mem_fields[] = {
	"MemFree", "Slab", "SUnreclaim", "VmallocUsed", "Percpu",
	"KernelStack", "PageTables",
};
#define NR_MEM_FIELDS (sizeof(mem_fields) / sizeof(*mem_fields))

static void meminfo(long long *kb)
{
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned int i;

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f)) {
		for (i = 0; i < NR_MEM_FIELDS; i++) {
			size_t l = strlen(mem_fields[i]);

			if (!strncmp(line, mem_fields[i], l) && line[l] == ':')
				kb[i] = atoll(line + l + 1);
		}
	}
	fclose(f);
}

static void settle(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd >= 0) {
		if (write(fd, "3\n", 2) < 0)
			perror("drop_caches");
		close(fd);
	}
	usleep(300000);
}

static void print_mem(const char *what, int n, const long long *a,
		      const long long *b)
{
	unsigned int i;

	for (i = 0; i < NR_MEM_FIELDS; i++) {
		/* MemFree falls as memory is used: report it as used. */
		long long d = i ? b[i] - a[i] : a[i] - b[i];

		printf("%s,%d,%s,%lld,%.0f\n", what, n, mem_fields[i], d,
		       d * 1024.0 / n);
	}
}

/*
 * N namespaces: none = the IPC namespaces alone (nsfs fd), open = and the
 * four devices opened, write = and one record written to log_main.
 */
static int mem(int n, const char *mode)
{
	static const char *const devs[] = {
		"/dev/log_main", "/dev/log_events", "/dev/log_radio",
		"/dev/log_system",
	};
	long long a[NR_MEM_FIELDS] = { 0 }, b[NR_MEM_FIELDS] = { 0 };
	struct wctx x;
	struct bcase c = { .w = W_NSLOG, .payload = 100 };
	int i, j, fd;

	raise_nofile();
	x.c = &c;
	fill_payload(&x, 100);
	settle();
	meminfo(a);
	for (i = 0; i < n; i++) {
		if (new_ns() < 0)
			die("unshare");
		if (!strcmp(mode, "none"))
			continue;
		for (j = 0; j < 4; j++) {
			fd = open(devs[j], O_WRONLY);
			if (fd < 0)
				die(devs[j]);
			if (!j && !strcmp(mode, "write") &&
			    write(fd, x.buf, 100) != 100)
				die("write");
		}
	}
	settle();
	meminfo(b);
	print_mem(mode, n, a, b);
	return 0;
}

/* N cgroups PARENT/rI (made first), then a rule on each: the rules' cost. */
static int rules(int n, const char *parent)
{
	long long a[NR_MEM_FIELDS] = { 0 }, b[NR_MEM_FIELDS] = { 0 };
	const char *rel = parent + strlen("/sys/fs/cgroup");
	char path[512];
	static char text[64 * 128];
	size_t len = 0;
	int i, fd;
	uint64_t t0, t1;

	if (mkdir(parent, 0755) && errno != EEXIST)
		die(parent);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/r%d", parent, i);
		if (mkdir(path, 0755) && errno != EEXIST)
			die(path);
	}
	fd = open("/proc/nslogger/limits", O_WRONLY);
	if (fd < 0)
		die("/proc/nslogger/limits");
	settle();
	meminfo(a);
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		len += snprintf(text + len, sizeof(text) - len,
				"set %s/r%d records=100000000/1s\n", rel, i);
		if ((i + 1) % 64 == 0 || i == n - 1) {
			if (write(fd, text, len) != (ssize_t)len)
				die("write /proc/nslogger/limits");
			len = 0;
		}
	}
	t1 = now_ns();
	close(fd);
	settle();
	meminfo(b);
	print_mem("rules", n, a, b);
	fprintf(stderr, "writebench: %d rules set in %.1f ms\n", n,
		(t1 - t0) / 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	const char *label = "run";
	double target_ms = 40;
	int reps = 7, opt;

	signal(SIGPIPE, SIG_IGN);
	if (argc >= 2 && !strcmp(argv[1], "hold") && argc == 4)
		hold(atoi(argv[2]), argv[3]);
	if (argc >= 2 && !strcmp(argv[1], "mem") && argc == 4)
		return mem(atoi(argv[2]), argv[3]);
	if (argc >= 2 && !strcmp(argv[1], "rules") && argc == 4)
		return rules(atoi(argv[2]), argv[3]);

	while ((opt = getopt(argc, argv, "Hr:t:l:")) != -1) {
		switch (opt) {
		case 'H':
			puts(CSV_HEADER);
			return 0;
		case 'r':
			reps = atoi(optarg);
			break;
		case 't':
			target_ms = atof(optarg);
			break;
		case 'l':
			label = optarg;
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: writebench -H | [-r REPS] [-t MS] [-l LABEL] CASE...\n");
		return 2;
	}
	raise_nofile();
	return run_cases(argc - optind, argv + optind, reps, target_ms, label);
}
