// SPDX-License-Identifier: GPL-2.0
/*
 * logdbench - records per second through a logd-style socket, and straight
 * into a log node, for bench/nslogd.sh.
 *
 *   logdbench send -s SOCKET -c COUNTER [-j THREADS] [-n COUNT] [-S SEED]
 *                  [-w MS] [-p PID] [-l LABEL] [-N NAME]
 *	THREADS threads (default 1) of one process write COUNT records in
 *	all (default 20000), as Android 12+'s liblog writes to logd: one
 *	socket for the process, SOCK_DGRAM, blocking, connected to SOCKET;
 *	one writev() a record of the 11-byte header (log id 0, the thread's
 *	tid, CLOCK_REALTIME read for the record) and the priority, tag and
 *	message, each NUL-terminated (4 iovecs)
 *   logdbench dev -d NODE -c COUNTER [same options]
 *	the same records by writev() of the priority, tag and message (3
 *	iovecs) to NODE, opened once for the process: liblog's /dev/log
 *	transport of Android 6 and before
 *   logdbench recv -s SOCKET -c FILE
 *	the floor of any logd-style daemon: binds SOCKET as logd's logdw is
 *	(SOCK_DGRAM, SO_PASSCRED), and drains it as nslogd does: poll(),
 *	then up to 16 recvmmsg() of up to 32 datagrams each, without
 *	waiting, each datagram into a buffer of 11 + 4068 bytes with room
 *	for its credentials; it looks at nothing and stores nothing, but
 *	counts the datagrams into FILE (a 64-bit counter in a shared mapping,
 *	made if missing).  Ends on SIGTERM
 *   logdbench -H
 *	the CSV header of send and dev
 *
 * COUNTER is what says a record landed: "ring:NODE", NSLOG_IOC_INFO's
 * head_seq of NODE's log (nslogd stores into it, dev writes to it), or
 * "file:FILE", a receiver's count.  send and dev read it before the
 * threads start, time the threads from start to the last record sent
 * (send_ns), then wait for the counter to have moved by COUNT, at most MS
 * milliseconds (default 10000), and time that too (land_ns, from the same
 * start).  A datagram sent is not yet received: up to the socket's queue
 * of them is still on its way when the writers are done.  -p: PID is the
 * receiver; rx_waits is how often it waited meanwhile (its
 * voluntary_ctxt_switches), so landed / rx_waits is the datagrams it took
 * a wake-up.
 *
 * The records are the same for every target: each thread has a table of
 * 1024, made from SEED (default 1) and the thread's number, and writes
 * them in turn.  Priority verbose to error (mostly debug and info), a tag
 * of 5 to 25 characters, a message of 10 to 120, so a record's payload
 * is 18 to 148 bytes, 84 on average.
 *
 * One line of CSV out, CSV_HEADER's columns; exit 1 if anything failed
 * (a write, or a counter that did not reach COUNT).
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <linux/nslogger.h>

#define CSV_HEADER "label,name,threads,sent,landed,send_ns,land_ns," \
	"sent_per_s,landed_per_s,rx_waits"

#define HDR_SIZE	11	/* android_log_header_t */
#define MAX_PAYLOAD	4068	/* logd's LOGGER_ENTRY_MAX_PAYLOAD */
#define MAX_THREADS	64
#define NREC		1024	/* records in a thread's table */
#define TAG_MAX		25
#define MSG_MAX		120
/* As nslogd's writer.c: datagrams a recvmmsg(), calls a wake-up. */
#define RECV_BATCH	32
#define RECV_BATCHES	16

struct record {
	unsigned char prio;
	unsigned char tag_len;	/* with its NUL */
	unsigned char msg_len;	/* with its NUL */
	char tag[TAG_MAX + 1];
	char msg[MSG_MAX + 1];
};

struct writer {
	pthread_t thread;
	unsigned int index;
	uint64_t count;
	struct record *rec;
	uint64_t t0;	/* its first write began */
	uint64_t t1;	/* its last write ended */
	int err;	/* errno of a failed write, 0 */
};

static struct {
	int to_dev;		/* dev: 1, send: 0 */
	int fd;			/* the socket or the node, shared */
	pthread_barrier_t start;
	uint64_t seed;
} g;

static void die(const char *what)
{
	fprintf(stderr, "logdbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* xorshift64*: the same records for a seed, whatever the target. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static unsigned int between(uint64_t *s, unsigned int lo, unsigned int hi)
{
	return lo + (unsigned int)(rnd(s) % (hi - lo + 1));
}

static void make_records(struct record *rec, unsigned int thread)
{
	/* Weights of verbose (2) .. error (6): mostly debug and info. */
	static const unsigned char prios[20] = {
		2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 6,
	};
	static const char tagc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
	static const char msgc[] = "abcdefghijklmnopqrstuvwxyz    0123456789=:,.";
	uint64_t s = g.seed * 0x9e3779b97f4a7c15ULL + thread + 1;
	unsigned int i, j, n;

	for (i = 0; i < NREC; i++) {
		struct record *r = &rec[i];

		r->prio = prios[between(&s, 0, sizeof(prios) - 1)];
		n = between(&s, 5, TAG_MAX);
		for (j = 0; j < n; j++)
			r->tag[j] = tagc[between(&s, 0, sizeof(tagc) - 2)];
		r->tag[n] = '\0';
		r->tag_len = n + 1;
		n = between(&s, 10, MSG_MAX);
		for (j = 0; j < n; j++)
			r->msg[j] = msgc[between(&s, 0, sizeof(msgc) - 2)];
		r->msg[n] = '\0';
		r->msg_len = n + 1;
	}
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	unsigned char hdr[HDR_SIZE];
	struct iovec iov[4];
	uint16_t tid = (uint16_t)syscall(SYS_gettid);
	struct iovec *v = g.to_dev ? iov + 1 : iov;
	int nv = g.to_dev ? 3 : 4;
	uint64_t i;

	hdr[0] = 0;	/* main */
	memcpy(hdr + 1, &tid, sizeof(tid));
	iov[0].iov_base = hdr;
	iov[0].iov_len = sizeof(hdr);
	pthread_barrier_wait(&g.start);
	w->t0 = now_ns();
	for (i = 0; i < w->count; i++) {
		struct record *r = &w->rec[i % NREC];
		struct timespec ts;
		uint32_t sec, nsec;

		if (!g.to_dev) {
			/* liblog takes the time for each record */
			clock_gettime(CLOCK_REALTIME, &ts);
			sec = (uint32_t)ts.tv_sec;
			nsec = (uint32_t)ts.tv_nsec;
			memcpy(hdr + 3, &sec, sizeof(sec));
			memcpy(hdr + 7, &nsec, sizeof(nsec));
		}
		iov[1].iov_base = &r->prio;
		iov[1].iov_len = 1;
		iov[2].iov_base = r->tag;
		iov[2].iov_len = r->tag_len;
		iov[3].iov_base = r->msg;
		iov[3].iov_len = r->msg_len;
		if (writev(g.fd, v, nv) < 0) {
			if (errno == EINTR) {
				i--;
				continue;
			}
			w->err = errno;
			break;
		}
	}
	w->t1 = now_ns();
	return NULL;
}

/* ---- what says a record landed ---------------------------------------- */

struct counter {
	int fd;				/* ring: the node */
	volatile uint64_t *shared;	/* file: the receiver's count */
};

static volatile uint64_t *map_counter(const char *path, int create)
{
	void *p;
	int fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0600);

	if (fd < 0 || (create && ftruncate(fd, sizeof(uint64_t))))
		die(path);
	p = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	if (p == MAP_FAILED)
		die(path);
	close(fd);
	return p;
}

static void counter_open(struct counter *c, const char *spec)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (!strncmp(spec, "ring:", 5)) {
		c->fd = open(spec + 5, O_WRONLY | O_CLOEXEC);
		if (c->fd < 0)
			die(spec + 5);
	} else if (!strncmp(spec, "file:", 5)) {
		c->shared = map_counter(spec + 5, 0);
	} else {
		fprintf(stderr, "logdbench: counter '%s': not ring:NODE or file:FILE\n",
			spec);
		exit(2);
	}
}

static uint64_t counter_read(const struct counter *c)
{
	struct nslog_info info;

	if (c->shared)
		return __atomic_load_n(c->shared, __ATOMIC_RELAXED);
	if (ioctl(c->fd, NSLOG_IOC_INFO, &info))
		die("NSLOG_IOC_INFO");
	return info.head_seq;
}

/* The times PID waited (went to sleep), 0 if it cannot be read. */
static uint64_t waits(pid_t pid)
{
	char path[64], line[128];
	unsigned long long n = 0;
	FILE *f;

	if (!pid)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %llu", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* ---- send and dev --------------------------------------------------- */

static int open_target(const char *sock, const char *node)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (node) {
		fd = open(node, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			die(node);
		return fd;
	}
	if (strlen(sock) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		die(sock);
	}
	strcpy(sa.sun_path, sock);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die(sock);
	return fd;
}

static int write_records(const char *sock, const char *node,
			 const char *cspec, unsigned int threads,
			 uint64_t count, unsigned int wait_ms, pid_t rx,
			 const char *label, const char *name)
{
	static struct writer w[MAX_THREADS];
	struct counter c;
	uint64_t before, landed, t0, t_sent, t_land, deadline, rx_waits;
	unsigned int i;
	int err = 0;

	g.to_dev = node != NULL;
	g.fd = open_target(sock, node);
	counter_open(&c, cspec);
	if (pthread_barrier_init(&g.start, NULL, threads + 1))
		die("pthread_barrier_init");
	for (i = 0; i < threads; i++) {
		w[i].index = i;
		/* COUNT in all, the remainder to the first threads */
		w[i].count = count / threads + (i < count % threads);
		w[i].rec = malloc(NREC * sizeof(*w[i].rec));
		if (!w[i].rec)
			die("malloc");
		make_records(w[i].rec, i);
		errno = pthread_create(&w[i].thread, NULL, writer_main, &w[i]);
		if (errno)
			die("pthread_create");
	}
	before = counter_read(&c);
	rx_waits = waits(rx);
	pthread_barrier_wait(&g.start);
	/*
	 * The writers' own clocks: whoever the barrier lets run first (on
	 * one CPU, maybe a writer for a long while), the time is from the
	 * first write to the last.
	 */
	t0 = UINT64_MAX;
	t_sent = 0;
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].err && !err) {
			err = w[i].err;
			fprintf(stderr, "logdbench: %s: write: %s\n", name,
				strerror(err));
		}
		if (w[i].t0 < t0)
			t0 = w[i].t0;
		if (w[i].t1 > t_sent)
			t_sent = w[i].t1;
	}

	/* Then what is still queued for the receiver, polled at 0.5 ms. */
	deadline = t_sent + wait_ms * 1000000ULL;
	for (;;) {
		landed = counter_read(&c) - before;
		t_land = now_ns();
		if (landed >= count || t_land >= deadline)
			break;
		usleep(500);
	}
	rx_waits = waits(rx) - rx_waits;
	if (landed != count) {
		fprintf(stderr, "logdbench: %s: %llu records landed of %llu\n",
			name, (unsigned long long)landed,
			(unsigned long long)count);
		err = err ? err : EIO;
	}
	printf("%s,%s,%u,%llu,%llu,%llu,%llu,%.0f,%.0f,%llu\n", label, name,
	       threads, (unsigned long long)count, (unsigned long long)landed,
	       (unsigned long long)(t_sent - t0),
	       (unsigned long long)(t_land - t0),
	       count * 1e9 / (double)(t_sent - t0),
	       landed * 1e9 / (double)(t_land - t0),
	       (unsigned long long)rx_waits);
	return err ? 1 : 0;
}

/* ---- recv ----------------------------------------------------------- */

static void __attribute__((noreturn)) receive(const char *sock,
						 const char *file)
{
	static unsigned char data[RECV_BATCH][HDR_SIZE + MAX_PAYLOAD];
	static union {
		struct cmsghdr align;
		unsigned char buf[CMSG_SPACE(sizeof(struct ucred))];
	} ctl[RECV_BATCH];
	static struct mmsghdr msgs[RECV_BATCH];
	static struct iovec iov[RECV_BATCH];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	volatile uint64_t *count = map_counter(file, 1);
	struct pollfd pfd;
	uint64_t n = 0;
	unsigned int b, i;
	int fd, one = 1, got;

	/* Its own name, apart from the writers' in a profile. */
	prctl(PR_SET_NAME, "logdbench-recv");
	if (strlen(sock) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		die(sock);
	}
	strcpy(sa.sun_path, sock);
	unlink(sock);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die(sock);
	for (i = 0; i < RECV_BATCH; i++) {
		iov[i].iov_base = data[i];
		iov[i].iov_len = sizeof(data[i]);
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	for (;;) {
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		for (b = 0; b < RECV_BATCHES; b++) {
			for (i = 0; i < RECV_BATCH; i++) {
				struct msghdr *h = &msgs[i].msg_hdr;

				h->msg_control = ctl[i].buf;
				h->msg_controllen = sizeof(ctl[i].buf);
				h->msg_flags = 0;
			}
			got = recvmmsg(fd, msgs, RECV_BATCH,
				       MSG_DONTWAIT | MSG_CMSG_CLOEXEC, NULL);
			if (got < 0) {
				if (errno == EAGAIN || errno == EINTR)
					break;
				die("recvmmsg");
			}
			n += got;
			__atomic_store_n(count, n, __ATOMIC_RELAXED);
			if (got < RECV_BATCH)
				break;
		}
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: logdbench send -s SOCKET -c COUNTER [-j THREADS] [-n COUNT] [-S SEED] [-w MS] [-p PID] [-l LABEL] [-N NAME]\n"
		"       logdbench dev -d NODE -c COUNTER [same options]\n"
		"       logdbench recv -s SOCKET -c FILE\n"
		"       logdbench -H\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *mode, *sock = NULL, *node = NULL, *cspec = NULL;
	const char *label = "run", *name = NULL;
	unsigned int threads = 1, wait_ms = 10000;
	uint64_t count = 20000;
	pid_t rx = 0;
	int opt;

	if (argc == 2 && !strcmp(argv[1], "-H")) {
		puts(CSV_HEADER);
		return 0;
	}
	if (argc < 2)
		usage();
	mode = argv[1];
	g.seed = 1;
	optind = 2;
	while ((opt = getopt(argc, argv, "s:d:c:j:n:S:w:p:l:N:")) != -1) {
		switch (opt) {
		case 's':
			sock = optarg;
			break;
		case 'd':
			node = optarg;
			break;
		case 'c':
			cspec = optarg;
			break;
		case 'j':
			threads = (unsigned int)atoi(optarg);
			break;
		case 'n':
			count = strtoull(optarg, NULL, 10);
			break;
		case 'S':
			g.seed = strtoull(optarg, NULL, 10);
			break;
		case 'w':
			wait_ms = (unsigned int)atoi(optarg);
			break;
		case 'p':
			rx = (pid_t)atoi(optarg);
			break;
		case 'l':
			label = optarg;
			break;
		case 'N':
			name = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !cspec || threads < 1 || threads > MAX_THREADS ||
	    !count)
		usage();
	if (!strcmp(mode, "recv") && sock)
		receive(sock, cspec);
	if (!strcmp(mode, "send") && sock && !node)
		return write_records(sock, NULL, cspec, threads, count, wait_ms,
				     rx, label, name ? name : "send");
	if (!strcmp(mode, "dev") && node && !sock)
		return write_records(NULL, node, cspec, threads, count, wait_ms,
				     rx, label, name ? name : "dev");
	usage();
	return 2;
}
