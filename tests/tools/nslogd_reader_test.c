// SPDX-License-Identifier: GPL-2.0
/*
 * nslogd_reader_test: nslogd's reader half (logdr) on the host.
 *
 * The command parser (every option, garbage, oversized), the v4 framing
 * byte by byte, the merge's rule for logs that ran dry, and the reader
 * itself served through a real SOCK_SEQPACKET listening socket, with
 * clients written here as logd's readers behave (one command, then one
 * recv() of up to 5 KiB per record). The kernel is played by the fake
 * below, through struct nslogd_rdops: each log an array of records with
 * seq, order, pid, euid and time as nslogger's header has them; each open
 * file its own position and an eventfd that is readable while a record
 * waits, as poll() on a node is. Time is passed to nslogd_reader_run(),
 * so no test sleeps.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "nslogd/frame.h"
#include "nslogd/merge.h"
#include "nslogd/rdcmd.h"
#include "nslogd/reader.h"
#include "nslogd/sockets.h"
#include "tap.h"

/* --- the fake kernel --- */

/* The four logs and the four streams (crash, stats, security, kernel). */
#define FK_LOGS		8
#define FK_RECS		8192
#define FK_FILES	16384

struct fk_rec {
	struct nslog_entry h;
	unsigned char *payload;
};

static struct {
	struct fk_rec rec[FK_LOGS][FK_RECS];
	uint64_t head[FK_LOGS], tail[FK_LOGS];
	uint64_t order;
	int fail_open;			/* -errno open() gives, or 0 */
	unsigned int open_files;
	struct fk_file {
		bool used;
		unsigned int log;
		uint64_t pos;
		uint64_t lost;		/* told with the next record */
	} file[FK_FILES];
} fk;

static void fk_reset(void)
{
	unsigned int l;
	uint64_t s;

	for (l = 0; l < FK_LOGS; l++)
		for (s = fk.tail[l]; s < fk.head[l]; s++)
			free(fk.rec[l][s % FK_RECS].payload);
	memset(&fk, 0, sizeof(fk));
}

static void fk_wake(unsigned int log)
{
	uint64_t one = 1;
	int fd;

	for (fd = 0; fd < FK_FILES; fd++)
		if (fk.file[fd].used && fk.file[fd].log == log)
			if (write(fd, &one, sizeof(one)) != sizeof(one))
				printf("# eventfd write: %s\n", strerror(errno));
}

/* A record as the kernel would store it; returns its order. */
static uint64_t fk_write(unsigned int log, int pid, unsigned int euid,
			 int64_t time_ns, const void *payload, size_t len)
{
	struct fk_rec *r;
	uint64_t seq = fk.head[log]++;

	if (fk.head[log] - fk.tail[log] > FK_RECS) {
		free(fk.rec[log][fk.tail[log] % FK_RECS].payload);
		fk.tail[log]++;
	}
	r = &fk.rec[log][seq % FK_RECS];
	memset(r, 0, sizeof(*r));
	r->h.len = (__u16)len;
	r->h.hdr_size = sizeof(struct nslog_entry);
	r->h.pid = pid;
	r->h.tid = pid + 1;
	r->h.euid = euid;
	r->h.seq = seq;
	r->h.order = fk.order++;
	r->h.time_ns = time_ns;
	/* A stream's records carry its own id, 8 and up, as the kernel's. */
	r->h.log_id = log < 4 ? log : NSLOG_STREAM_LOG_ID_MIN + log - 4;
	r->payload = malloc(len ? len : 1);
	memcpy(r->payload, payload, len);
	fk_wake(log);
	return r->h.order;
}

/* A text record "\4tag\0M" with M = "log:order" and the given identity. */
static uint64_t fk_text(unsigned int log, int pid, unsigned int euid,
			int64_t time_ns)
{
	char p[64];
	int n = snprintf(p, sizeof(p), "%ctag%c%u:%llu", 4, 0, log,
			 (unsigned long long)fk.order);

	return fk_write(log, pid, euid, time_ns, p, (size_t)n + 1);
}

/* The kernel overwrote a log's oldest records. */
static void fk_lap(unsigned int log, uint64_t n)
{
	while (n-- && fk.tail[log] < fk.head[log]) {
		free(fk.rec[log][fk.tail[log] % FK_RECS].payload);
		fk.rec[log][fk.tail[log] % FK_RECS].payload = NULL;
		fk.tail[log]++;
	}
}

static int fk_open(void *ctx, unsigned int log)
{
	int fd;

	(void)ctx;
	if (fk.fail_open)
		return fk.fail_open;
	if (log >= FK_LOGS)
		return -ENOENT;
	fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fd >= FK_FILES) {
		close(fd);
		return -EMFILE;
	}
	fk.file[fd] = (struct fk_file){ .used = true, .log = log,
					.pos = fk.tail[log] };
	fk.open_files++;
	if (fk.head[log] > fk.tail[log]) {
		uint64_t one = 1;

		if (write(fd, &one, sizeof(one)) != sizeof(one))
			return -EIO;
	}
	return fd;
}

static int fk_info(void *ctx, int fd, struct nslog_info *info)
{
	struct fk_file *f = &fk.file[fd];

	(void)ctx;
	memset(info, 0, sizeof(*info));
	info->head_seq = fk.head[f->log];
	info->tail_seq = fk.tail[f->log];
	info->log_id = f->log;
	return 0;
}

static int fk_seek(void *ctx, int fd, struct nslog_seek *s)
{
	struct fk_file *f = &fk.file[fd];
	uint64_t tail = fk.tail[f->log], head = fk.head[f->log];

	(void)ctx;
	s->lost = s->seq < tail ? tail - s->seq : 0;
	f->lost = s->lost;
	f->pos = s->seq < tail ? tail : s->seq > head ? head : s->seq;
	return 0;
}

static ssize_t fk_read(void *ctx, int fd, void *buf, size_t size)
{
	struct fk_file *f = &fk.file[fd];
	struct fk_rec *r;
	struct nslog_entry h;
	uint64_t drain;

	(void)ctx;
	if (f->pos < fk.tail[f->log]) {
		f->lost += fk.tail[f->log] - f->pos;
		f->pos = fk.tail[f->log];
	}
	if (f->pos == fk.head[f->log]) {
		if (read(fd, &drain, sizeof(drain)) < 0 && errno != EAGAIN)
			return -errno;
		return -EAGAIN;
	}
	r = &fk.rec[f->log][f->pos % FK_RECS];
	if (size < sizeof(h) + r->h.len)
		return -EINVAL;
	h = r->h;
	h.lost = f->lost;
	f->lost = 0;
	memcpy(buf, &h, sizeof(h));
	memcpy((char *)buf + sizeof(h), r->payload, r->h.len);
	f->pos++;
	return (ssize_t)(sizeof(h) + r->h.len);
}

static void fk_close(void *ctx, int fd)
{
	(void)ctx;
	fk.file[fd].used = false;
	fk.open_files--;
	close(fd);
}

static const struct nslogd_rdops fk_ops = {
	.open = fk_open, .info = fk_info, .seek = fk_seek, .read = fk_read,
	.close = fk_close,
};

/* --- the rig: a reader on a real listening socket, and clients --- */

static bool priv_yes(const struct ucred *c) { (void)c; return true; }
static bool priv_no(const struct ucred *c) { (void)c; return false; }

struct rig {
	char dir[64];
	struct sockaddr_un sun;
	int lfd;
	struct nslogd_reader rd;
	int64_t now;
};

static bool rig_init(struct rig *g, nslogd_logcred_fn *logcred)
{
	memset(g, 0, sizeof(*g));
	fk_reset();
	snprintf(g->dir, sizeof(g->dir), "/tmp/nslogd_reader.XXXXXX");
	if (!mkdtemp(g->dir))
		return false;
	g->lfd = nslogd_sock_make(NSLOGD_SOCK_LOGDR, g->dir);
	if (g->lfd < 0)
		return false;
	g->sun.sun_family = AF_UNIX;
	snprintf(g->sun.sun_path, sizeof(g->sun.sun_path), "%s/logdr", g->dir);
	g->now = 1000000000LL;
	return !nslogd_reader_init(&g->rd, g->lfd, &fk_ops, logcred);
}

static void rig_free(struct rig *g)
{
	nslogd_reader_exit(&g->rd);
	close(g->lfd);
	unlink(g->sun.sun_path);
	rmdir(g->dir);
	fk_reset();
}

/* Turns until nothing is ready and the epoll set has nothing. */
static void pump(struct rig *g)
{
	struct pollfd p = { .fd = nslogd_reader_fd(&g->rd), .events = POLLIN };
	int i;

	for (i = 0; i < 100000; i++) {
		if (!nslogd_reader_busy(&g->rd) && poll(&p, 1, 0) <= 0)
			return;
		nslogd_reader_run(&g->rd, g->now);
	}
	printf("# pump: still busy\n");
}

static int client(struct rig *g, const char *cmd)
{
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&g->sun, sizeof(g->sun))) {
		close(fd);
		return -1;
	}
	if (cmd && send(fd, cmd, strlen(cmd), 0) != (ssize_t)strlen(cmd)) {
		close(fd);
		return -1;
	}
	return fd;
}

struct got {
	unsigned int n;
	bool eof;
	struct nslogd_v4_entry h[4096];
	char msg[4096][64];	/* the message after the tag: "log:order" */
	size_t size[4096];	/* the whole message */
};

static struct got got;

/* What a client has been sent so far: v4 records, then maybe the end. */
static void take(int fd, struct got *t)
{
	unsigned char buf[5120];
	ssize_t n;

	memset(t, 0, sizeof(*t));
	for (;;) {
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		/* closed with something of ours unread: a reset, as an end */
		if (n == 0 || (n < 0 && errno == ECONNRESET)) {
			t->eof = true;
			return;
		}
		if (n < 0)
			return;
		if (t->n < 4096) {
			struct nslogd_v4_entry h;
			const char *p;

			memcpy(&h, buf, sizeof(h));
			t->h[t->n] = h;
			t->size[t->n] = (size_t)n;
			p = (const char *)buf + h.hdr_size;
			if ((size_t)n > (size_t)h.hdr_size + 5 && p[0] == 4)
				snprintf(t->msg[t->n], sizeof(t->msg[0]), "%s",
					 p + 5);
		}
		t->n++;
	}
}

/* The orders of what was received, checked against @want. */
static bool got_orders(const struct got *t, const uint64_t *want,
		       unsigned int n)
{
	unsigned int i;

	if (t->n != n) {
		printf("#   got %u records, want %u\n", t->n, n);
		return false;
	}
	for (i = 0; i < n; i++) {
		char w[32];

		snprintf(w, sizeof(w), ":%llu", (unsigned long long)want[i]);
		if (!strstr(t->msg[i], w) ||
		    strcmp(strstr(t->msg[i], w), w)) {
			printf("#   record %u is \"%s\", want order %llu\n", i,
			       t->msg[i], (unsigned long long)want[i]);
			return false;
		}
	}
	return true;
}

/* --- rdcmd --- */

static void test_rdcmd_every_option(void)
{
	struct nslogd_rdcmd c;
	const char *s;

	s = "stream lids=0,3,4 tail=100 pid=1234";
	REQUIRE(!nslogd_rdcmd_parse(s, strlen(s), &c));
	CHECK(c.stream && c.lids == 0x19 && c.tail == 100 && c.pid == 1234);
	CHECK(!c.has_start && !c.has_timeout);

	s = "dumpAndClose start=1700000000.000000123 timeout=30";
	REQUIRE(!nslogd_rdcmd_parse(s, strlen(s), &c));
	CHECK(!c.stream && c.lids == NSLOGD_RDCMD_ALL_IDS && !c.tail && !c.pid);
	CHECK(c.has_start && c.start_ns == 1700000000000000123LL);
	CHECK(c.has_timeout && c.timeout_s == 30);

	s = "dumpAndClose";
	REQUIRE(!nslogd_rdcmd_parse(s, strlen(s), &c));
	CHECK(!c.stream && c.lids == 0xff);

	/* order free after the first word; spaces repeated; a trailing NUL */
	REQUIRE(!nslogd_rdcmd_parse("stream  pid=7 lids=7,0,0 tail=0\0", 32, &c));
	CHECK(c.stream && c.pid == 7 && c.lids == 0x81 && c.tail == 0);
	s = "stream tail=4294967295 start=4294967295.999999999\n";
	REQUIRE(!nslogd_rdcmd_parse(s, strlen(s), &c));
	CHECK(c.tail == 4294967295u);
	CHECK(c.start_ns == 4294967295LL * 1000000000LL + 999999999);
}

static void test_rdcmd_refuses_garbage(void)
{
	static const char *const bad[] = {
		"", " ", "hello", "Stream", "streams", "stream2",
		"lids=0 stream", "stream stream", "stream dumpAndClose",
		"stream lids=", "stream lids=8", "stream lids=0,", "stream lids=,0",
		"stream lids=0,,1", "stream lids=a", "stream lids=-1",
		"stream lids=0 lids=1", "stream tail=", "stream tail=x",
		"stream tail=1x", "stream tail=-1", "stream tail=4294967296",
		"stream tail=+1", "stream start=1", "stream start=1.5",
		"stream start=1.0000000001", "stream start=.000000001",
		"stream start=1.00000000x", "stream start=4294967296.000000000",
		"stream timeout=", "stream timeout=1.5", "stream pid=",
		"stream pid=2147483648", "stream pid=1 pid=2", "stream tail=1 tail=1",
		"stream foo=1", "stream lids", "stream\tpid=1", "stream pid=1\r",
		"stream \x80", "dumpAndClose\n\n",
	};
	struct nslogd_rdcmd c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (nslogd_rdcmd_parse(bad[i], strlen(bad[i]), &c) != -EINVAL) {
			printf("#   accepted \"%s\"\n", bad[i]);
			tap_failed_now = 1;
		}
	}
	/* a NUL inside */
	CHECK(nslogd_rdcmd_parse("stream\0 tail=1", 14, &c) == -EINVAL);
}

static void test_rdcmd_refuses_oversized(void)
{
	char buf[NSLOGD_RDCMD_MAX + 2];
	struct nslogd_rdcmd c;

	memset(buf, ' ', sizeof(buf));
	memcpy(buf, "stream", 6);
	memcpy(buf + NSLOGD_RDCMD_MAX - 6, "pid=42", 6);
	CHECK(!nslogd_rdcmd_parse(buf, NSLOGD_RDCMD_MAX, &c) && c.pid == 42);
	CHECK(nslogd_rdcmd_parse(buf, NSLOGD_RDCMD_MAX + 1, &c) == -EMSGSIZE);
	CHECK(nslogd_rdcmd_parse(buf, 100000, &c) == -EMSGSIZE);
}

/* --- frame --- */

static void test_frame_v4_bytes(void)
{
	unsigned char rec[NSLOG_ENTRY_MAX_LEN], want[NSLOGD_V4_HDR_SIZE + 5];
	struct nslog_entry h = {
		.len = 5, .hdr_size = 56, .pid = 0x01020304, .tid = 0x0a0b,
		.euid = 10057, .seq = 9, .order = 77,
		.time_ns = 4000000000LL * 1000000000LL + 123456789,
		.log_id = 3, .flags = NSLOG_ENTRY_RELAYED,
	};
	struct nslog_entry back;
	uint16_t u16;
	uint32_t u32;
	int32_t s32;
	const void *msg;
	size_t len;

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 56, "\4t\0m", 5);
	REQUIRE(nslogd_frame_check(rec, 61, &back));
	msg = nslogd_frame_v4(rec, &back, &len);
	REQUIRE(len == 33);
	/* the reference's offsets, one field at a time */
	u16 = 5; memcpy(want + 0, &u16, 2);
	u16 = 28; memcpy(want + 2, &u16, 2);
	s32 = 0x01020304; memcpy(want + 4, &s32, 4);
	s32 = 0x0a0b; memcpy(want + 8, &s32, 4);
	u32 = 4000000000u; memcpy(want + 12, &u32, 4);
	u32 = 123456789; memcpy(want + 16, &u32, 4);
	u32 = 3; memcpy(want + 20, &u32, 4);
	u32 = 10057; memcpy(want + 24, &u32, 4);
	memcpy(want + 28, "\4t\0m", 5);
	CHECK(!memcmp(msg, want, sizeof(want)));
	CHECK(msg == rec + 28);		/* in place, before the payload */

	/* records that are not whole are refused */
	memcpy(rec, &h, sizeof(h));
	CHECK(!nslogd_frame_check(rec, 60, &back));
	CHECK(!nslogd_frame_check(rec, 62, &back));
	CHECK(!nslogd_frame_check(rec, 55, &back));
	h.hdr_size = 20;
	memcpy(rec, &h, sizeof(h));
	CHECK(!nslogd_frame_check(rec, 25, &back));
	/* a longer header than 56 is skipped by its hdr_size */
	h.hdr_size = 72;
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 72, "\4t\0m", 5);
	REQUIRE(nslogd_frame_check(rec, 77, &back));
	msg = nslogd_frame_v4(rec, &back, &len);
	CHECK(len == 33 && msg == rec + 44 && !memcmp(msg, want, 33));
}

/* --- merge --- */

static void test_merge_rereads_a_log_drained_before(void)
{
	struct nslogd_merge m;
	struct nslogd_msrc *s;
	uint64_t a, b;

	fk_reset();
	nslogd_merge_init(&m, &fk_ops);
	REQUIRE(!nslogd_merge_add(&m, 0, fk_open(NULL, 0)));
	REQUIRE(!nslogd_merge_add(&m, 3, fk_open(NULL, 3)));
	CHECK(nslogd_merge_next(&m, &s) == NSLOGD_MERGE_WAIT);
	/* main gets an older record than system, but only system's fd woke */
	a = fk_text(0, 1, 0, 1);
	b = fk_text(3, 1, 0, 1);
	m.src[1].state = NSLOGD_MSRC_EMPTY;
	REQUIRE(nslogd_merge_next(&m, &s) == NSLOGD_MERGE_REC);
	CHECK(s->log_id == 0 && s->hdr.order == a);
	nslogd_merge_consume(s);
	REQUIRE(nslogd_merge_next(&m, &s) == NSLOGD_MERGE_REC);
	CHECK(s->log_id == 3 && s->hdr.order == b);
	nslogd_merge_consume(s);
	CHECK(nslogd_merge_next(&m, &s) == NSLOGD_MERGE_WAIT);
	nslogd_merge_free(&m);
	CHECK(fk.open_files == 0);
}

/* --- the reader --- */

static void test_reader_merges_by_order_and_frames_v4(void)
{
	struct rig g;
	uint64_t want[40];
	unsigned int i, n = 0;
	int fd;

	REQUIRE(rig_init(&g, priv_yes));
	/* interleaved, with time stepping back: order alone decides */
	for (i = 0; i < 40; i++) {
		uint64_t o = fk_text((i * 7) % 4, 100 + i, 10000 + i,
				     5000000000LL - 1 - i);

		if ((i * 7) % 4 != 1)
			want[n++] = o;
	}
	fd = client(&g, "dumpAndClose lids=0,2,3");
	REQUIRE(fd >= 0);
	pump(&g);
	take(fd, &got);
	CHECK(got_orders(&got, want, n));
	CHECK(got.eof);
	for (i = 0; i < got.n && i < n; i++) {
		const struct fk_rec *r = NULL;
		unsigned int l;
		uint64_t s;

		for (l = 0; l < FK_LOGS; l++)
			for (s = fk.tail[l]; s < fk.head[l]; s++)
				if (fk.rec[l][s].h.order == want[i])
					r = &fk.rec[l][s];
		REQUIRE(r);
		CHECK(got.h[i].hdr_size == 28 && got.h[i].len == r->h.len);
		CHECK(got.h[i].pid == r->h.pid && got.h[i].tid == r->h.tid);
		CHECK(got.h[i].uid == r->h.euid && got.h[i].lid == r->h.log_id);
		CHECK(got.h[i].sec == 4 && got.h[i].nsec == 999999999u - (got.h[i].pid - 100));
		CHECK(got.size[i] == 28u + r->h.len);
	}
	CHECK(g.rd.st.dumps == 1 && g.rd.st.sent == n);
	close(fd);
	rig_free(&g);
}

static void test_reader_tail_counts_the_merged_last(void)
{
	struct rig g;
	uint64_t o[30], want[30];
	unsigned int i, n;
	int fd;

	REQUIRE(rig_init(&g, priv_yes));
	for (i = 0; i < 30; i++)
		o[i] = fk_text(i % 3 == 0 ? 0 : 3, i % 2 ? 500 : 600, 0, i);

	/* the last 7 of main and system together */
	fd = client(&g, "dumpAndClose lids=0,3 tail=7");
	REQUIRE(fd >= 0);
	pump(&g);
	take(fd, &got);
	CHECK(got_orders(&got, o + 23, 7));
	CHECK(got.eof);
	close(fd);

	/* tail= counts only what pid= lets through */
	for (i = 0, n = 0; i < 30; i++)
		if (i % 2)
			want[n++] = o[i];
	fd = client(&g, "dumpAndClose tail=4 pid=500");
	pump(&g);
	take(fd, &got);
	CHECK(got_orders(&got, want + n - 4, 4));
	close(fd);

	/* more than there is: everything */
	fd = client(&g, "dumpAndClose lids=0 tail=1000");
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 10 && got.eof);
	close(fd);

	/* tail= on a stream, then what comes */
	fd = client(&g, "stream tail=2");
	pump(&g);
	want[0] = o[28];
	want[1] = o[29];
	want[2] = fk_text(1, 1, 0, 99);
	pump(&g);
	take(fd, &got);
	CHECK(got_orders(&got, want, 3));
	CHECK(!got.eof);
	close(fd);
	pump(&g);
	CHECK(g.rd.nconns == 0);
	rig_free(&g);
}

static void test_reader_start_and_pid_filters(void)
{
	struct rig g;
	uint64_t want[20];
	unsigned int i, n = 0;
	int fd;

	REQUIRE(rig_init(&g, priv_yes));
	for (i = 0; i < 20; i++) {
		/* seconds 100 + i, and half a second */
		uint64_t o = fk_text(i % 4, 10 + i % 5, 0,
				     (100LL + i) * 1000000000LL + 500000000);

		if (i >= 12)
			want[n++] = o;
	}
	fd = client(&g, "dumpAndClose start=111.500000001");
	REQUIRE(fd >= 0);
	pump(&g);
	take(fd, &got);
	CHECK(got_orders(&got, want, n));
	close(fd);
	fd = client(&g, "dumpAndClose start=111.500000000");
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 9);
	close(fd);

	fd = client(&g, "dumpAndClose pid=12");
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 4);
	for (i = 0; i < got.n; i++)
		CHECK(got.h[i].pid == 12);
	close(fd);
	rig_free(&g);
}

static void test_reader_dump_ends_at_the_heads_it_saw(void)
{
	struct rig g;
	unsigned int i;
	int fd;

	REQUIRE(rig_init(&g, priv_yes));
	for (i = 0; i < 200; i++)
		fk_text(i % 2 ? 0 : 2, 1, 0, i);
	fd = client(&g, "dumpAndClose lids=0,2");
	REQUIRE(fd >= 0);
	/* the command and a first turn's worth; then writers go on */
	nslogd_reader_run(&g.rd, g.now);
	nslogd_reader_run(&g.rd, g.now);
	CHECK(g.rd.st.sent > 0 && g.rd.st.sent < 200);
	for (i = 0; i < 50; i++)
		fk_text(i % 2 ? 0 : 2, 2, 0, i);
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 200);
	CHECK(got.eof);
	for (i = 0; i < got.n; i++)
		CHECK(got.h[i].pid == 1);
	close(fd);
	CHECK(fk.open_files == 0);	/* the connection's logs closed */

	/* a stream does not end: it follows */
	fd = client(&g, "stream lids=2");
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 125 && !got.eof);
	fk_text(2, 3, 0, 0);
	fk_text(0, 3, 0, 0);
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 1 && !got.eof && got.h[0].pid == 3 && got.h[0].lid == 2);
	close(fd);
	rig_free(&g);
}

static void test_reader_uid_rule_and_security(void)
{
	struct rig g;
	struct ucred app = { .pid = 5, .uid = 10001, .gid = 10001 };
	struct ucred root = { .pid = 5, .uid = 0, .gid = 0 };
	struct ucred sys = { .pid = 5, .uid = 1000, .gid = 1000 };
	struct ucred sysgid = { .pid = 5, .uid = 10002, .gid = 1000 };
	unsigned int i;
	int fd;

	CHECK(nslogd_reader_lids(&app, 0xff) == 0xbf);
	CHECK(nslogd_reader_lids(&root, 0xff) == 0xbf);
	CHECK(nslogd_reader_lids(&sys, 0xff) == 0xff);
	CHECK(nslogd_reader_lids(&sysgid, 0x40) == 0x40);

	/* not privileged: only records of its own uid (this test's) */
	REQUIRE(rig_init(&g, priv_no));
	for (i = 0; i < 12; i++)
		fk_text(i % 4, 100 + i, i % 3 ? 10050 + i : getuid(), i);
	fd = client(&g, "dumpAndClose");
	REQUIRE(fd >= 0);
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 4 && got.eof);
	for (i = 0; i < got.n; i++)
		CHECK(got.h[i].uid == getuid());
	close(fd);
	/* ... and tail= counts only those */
	fd = client(&g, "dumpAndClose tail=2");
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 2 && got.h[0].pid == 106 && got.h[1].pid == 109);
	close(fd);
	rig_free(&g);

	/* privileged: every uid */
	REQUIRE(rig_init(&g, priv_yes));
	for (i = 0; i < 12; i++)
		fk_text(i % 4, 100 + i, i % 3 ? 10050 + i : getuid(), i);
	fd = client(&g, "dumpAndClose");
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 12);
	close(fd);
	rig_free(&g);
}

static void test_reader_refuses_bad_commands_cleanly(void)
{
	char big[600];
	struct rig g;
	int bad, over, good, fd;

	REQUIRE(rig_init(&g, priv_yes));
	fk_text(0, 1, 0, 0);
	good = client(&g, "stream lids=0");
	bad = client(&g, "give me logs");
	memset(big, ' ', sizeof(big));
	memcpy(big, "stream", 6);
	big[sizeof(big) - 1] = '\0';
	over = client(&g, big);
	REQUIRE(good >= 0 && bad >= 0 && over >= 0);
	pump(&g);
	take(bad, &got);
	CHECK(got.n == 0 && got.eof);
	take(over, &got);
	CHECK(got.n == 0 && got.eof);
	take(good, &got);
	CHECK(got.n == 1 && !got.eof);
	CHECK(g.rd.st.garbage == 1 && g.rd.st.oversized == 1);

	/* a second command: disconnected, as logd does */
	CHECK(send(good, "stream", 6, 0) == 6);
	pump(&g);
	take(good, &got);
	CHECK(got.eof && g.rd.st.second == 1);

	/* gone before its command; and one that never sends it waits */
	fd = client(&g, NULL);
	close(fd);
	fd = client(&g, NULL);
	pump(&g);
	CHECK(g.rd.nconns == 1);
	close(fd);
	pump(&g);
	CHECK(g.rd.nconns == 0);
	close(bad);
	close(over);
	close(good);
	CHECK(fk.open_files == 0);
	rig_free(&g);
}

static void test_reader_timeout_holds_until_due(void)
{
	struct rig g;
	int fd;

	REQUIRE(rig_init(&g, priv_yes));
	fk_text(0, 1, 0, 5000000000LL);
	fd = client(&g, "dumpAndClose start=1.000000000 timeout=5");
	REQUIRE(fd >= 0);
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 0 && !got.eof);
	g.now += 5000000000LL - 1;
	nslogd_reader_run(&g.rd, g.now);
	take(fd, &got);
	CHECK(got.n == 0 && !got.eof);
	g.now += 1;
	pump(&g);
	nslogd_reader_run(&g.rd, g.now);
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 1 && got.eof);
	close(fd);

	/* timeout= without start= changes nothing */
	fd = client(&g, "dumpAndClose timeout=5");
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 1 && got.eof);
	close(fd);
	rig_free(&g);
}

static void test_reader_that_never_reads_holds_up_no_one(void)
{
	static char payload[4000];
	struct rig g;
	struct nslogd_rconn *c;
	unsigned int i, n, sn = 0;
	int idle, dump, stream;

	REQUIRE(rig_init(&g, priv_yes));
	idle = client(&g, "stream lids=0,3");
	stream = client(&g, "stream lids=0");
	REQUIRE(idle >= 0 && stream >= 0);
	pump(&g);
	memset(payload, 'p', sizeof(payload));
	payload[0] = 4;
	/* about 8 MiB: far more than a socket holds */
	for (i = 0; i < 2000; i++) {
		fk_write(i % 2 ? 0 : 3, 1, 0, i, payload, sizeof(payload));
		if (i % 50 == 0) {
			pump(&g);
			take(stream, &got);	/* the other reader keeps up */
			sn += got.n;
		}
	}
	pump(&g);
	take(stream, &got);
	sn += got.n;
	CHECK(sn == 1000);
	/* a dump from a third reader gets everything still stored */
	dump = client(&g, "dumpAndClose lids=0,3");
	for (i = 0, n = 0; i < 10000; i++) {
		pump(&g);
		take(dump, &got);
		n += got.n;
		if (got.eof)
			break;
	}
	CHECK(n == 2000 && got.eof);
	close(dump);
	CHECK(g.rd.st.sent > 2000 + 1000);
	/* the idle one is stuck with one record framed, nothing more */
	for (c = g.rd.conns; c; c = c->next)
		if (c->pending)
			break;
	REQUIRE(c);
	CHECK(c->m.n == 2 && c->sent < 2000);
	/* lapped meanwhile: the kernel's word on it is counted */
	fk_lap(0, 900);
	fk_lap(3, 900);
	/* 32 s without taking its record: disconnected; the other is not */
	g.now += NSLOGD_RD_SEND_TIMEOUT_NS - 1;
	pump(&g);
	CHECK(g.rd.nconns == 2);
	g.now += 1;
	nslogd_reader_run(&g.rd, g.now);
	pump(&g);
	CHECK(g.rd.nconns == 1 && g.rd.st.slow == 1);
	take(idle, &got);
	CHECK(got.eof);
	close(idle);
	close(stream);
	pump(&g);
	CHECK(fk.open_files == 0);
	rig_free(&g);
}

static void test_reader_counts_what_the_kernel_says_was_lost(void)
{
	struct rig g;
	unsigned int i;
	int fd;

	REQUIRE(rig_init(&g, priv_yes));
	for (i = 0; i < 10; i++)
		fk_text(0, 1, 0, i);
	fd = client(&g, "stream lids=0");
	REQUIRE(fd >= 0);
	pump(&g);
	for (i = 0; i < 10; i++)
		fk_text(0, 2, 0, i);
	/* the reader's fd falls behind by 4 before it reads again */
	fk_lap(0, 14);
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 16);
	close(fd);
	pump(&g);
	CHECK(g.rd.st.lost == 4);
	rig_free(&g);
}

static void test_reader_1000_connections(void)
{
	enum { N = 1000 };
	static int fd[N];
	struct rlimit rl;
	struct rig g;
	unsigned int i, ok = 0;

	/* each: the client's socket, nslogd's, and its log's fd */
	REQUIRE(!getrlimit(RLIMIT_NOFILE, &rl));
	if (rl.rlim_cur < 3 * N + 100) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur < 3 * N + 100)
		SKIP("fewer than 3100 fds allowed");
	REQUIRE(rig_init(&g, priv_yes));
	for (i = 0; i < N; i++) {
		fd[i] = client(&g, "stream lids=0");
		REQUIRE(fd[i] >= 0);
		if (i % 32 == 31)
			pump(&g);	/* the listen backlog is 64 */
	}
	pump(&g);
	CHECK(g.rd.nconns == N);
	fk_text(0, 42, 0, 0);
	pump(&g);
	for (i = 0; i < N; i++) {
		take(fd[i], &got);
		if (got.n == 1 && got.h[0].pid == 42 && !got.eof)
			ok++;
	}
	CHECK(ok == N);
	for (i = 0; i < N; i++)
		close(fd[i]);
	pump(&g);
	CHECK(g.rd.nconns == 0 && fk.open_files == 0);
	rig_free(&g);
}

static void test_reader_beyond_the_cap_is_closed(void)
{
	struct rig g;
	int fd[4], i;

	REQUIRE(rig_init(&g, priv_yes));
	g.rd.max_conns = 3;
	for (i = 0; i < 4; i++) {
		fd[i] = client(&g, "stream");
		REQUIRE(fd[i] >= 0);
	}
	pump(&g);
	CHECK(g.rd.nconns == 3 && g.rd.st.full == 1);
	take(fd[3], &got);
	CHECK(got.eof);
	take(fd[0], &got);
	CHECK(!got.eof);
	for (i = 0; i < 4; i++)
		close(fd[i]);
	pump(&g);
	rig_free(&g);
}

static void test_reader_streams_merged_with_androids_ids(void)
{
	static const unsigned int logs[] = { 0, 4, 5, 7, 4, 0, 7, 5, 6, 4 };
	struct rig g;
	uint64_t want[10];
	unsigned int i, n = 0, lid[10];
	int fd;

	REQUIRE(rig_init(&g, priv_yes));
	for (i = 0; i < ARRAY_SIZE(logs); i++) {
		uint64_t o = fk_text(logs[i], 100 + i, 0, 1000 + i);

		if (logs[i] == 6)
			continue;	/* security: the reader is no system */
		lid[n] = logs[i];
		want[n++] = o;
	}
	fd = client(&g, "dumpAndClose lids=0,4,5,6,7");
	REQUIRE(fd >= 0);
	pump(&g);
	take(fd, &got);
	CHECK(got_orders(&got, want, n));
	CHECK(got.eof);
	for (i = 0; i < got.n && i < n; i++)
		if (got.h[i].lid != lid[i]) {
			printf("#   record %u: lid %u, want %u\n", i,
			       got.h[i].lid, lid[i]);
			tap_failed_now = 1;
		}
	close(fd);
	rig_free(&g);
}

static void test_reader_logs_that_will_not_open(void)
{
	struct rig g;
	int fd;

	REQUIRE(rig_init(&g, priv_yes));
	fk.fail_open = -ENOTTY;		/* as a node that is no logger */
	fd = client(&g, "dumpAndClose");
	REQUIRE(fd >= 0);
	pump(&g);
	take(fd, &got);
	CHECK(got.n == 0 && got.eof);
	/* all eight but security, which only system reads */
	CHECK(g.rd.st.open_failed == 7);
	close(fd);
	/* out of fds: refused, not served a part */
	fk.fail_open = -EMFILE;
	fd = client(&g, "stream");
	pump(&g);
	take(fd, &got);
	CHECK(got.eof);
	close(fd);
	rig_free(&g);
}

static const struct tap_case cases[] = {
	{ "rdcmd: every option", test_rdcmd_every_option },
	{ "rdcmd: garbage refused", test_rdcmd_refuses_garbage },
	{ "rdcmd: oversized refused", test_rdcmd_refuses_oversized },
	{ "frame: logger_entry v4, byte by byte", test_frame_v4_bytes },
	{ "merge: a log drained before the candidate is read again",
	  test_merge_rereads_a_log_drained_before },
	{ "reader: merged by order, framed as v4",
	  test_reader_merges_by_order_and_frames_v4 },
	{ "reader: tail= is the merged last N",
	  test_reader_tail_counts_the_merged_last },
	{ "reader: start= and pid=", test_reader_start_and_pid_filters },
	{ "reader: dumpAndClose ends at the heads it saw",
	  test_reader_dump_ends_at_the_heads_it_saw },
	{ "reader: the uid rule, and security for system only",
	  test_reader_uid_rule_and_security },
	{ "reader: garbage, oversized and second commands closed",
	  test_reader_refuses_bad_commands_cleanly },
	{ "reader: timeout= holds a start= until due",
	  test_reader_timeout_holds_until_due },
	{ "reader: one that never reads holds up no one, then goes",
	  test_reader_that_never_reads_holds_up_no_one },
	{ "reader: the kernel's lost counted",
	  test_reader_counts_what_the_kernel_says_was_lost },
	{ "reader: 1000 connections", test_reader_1000_connections },
	{ "reader: beyond the cap closed", test_reader_beyond_the_cap_is_closed },
	{ "reader: streams merged, told with Android's ids",
	  test_reader_streams_merged_with_androids_ids },
	{ "reader: logs that will not open", test_reader_logs_that_will_not_open },
};

int main(int argc, char **argv)
{
	return tap_run(cases, ARRAY_SIZE(cases), argc, argv);
}
