// SPDX-License-Identifier: GPL-2.0
/*
 * logset_test: following a set against a kernel played by the test
 * (struct nslog_kops): the order across logs, resuming at a seq (the
 * state file's, or the journal's when it has more: resume.c), every
 * kind of loss reported with its exact count and range, end of file,
 * the budget, output errors, and what the state file is told.
 *
 * The fake keeps, for each log, records seq tail..head-1 (older ones
 * were overwritten), and a read position per fd, as the module does:
 * a reader behind the tail jumps to it and is told how many it lost; a
 * seek lands on the oldest stored record at or after the seq asked.
 * Besides the four fixed logs it has two streams, "audit" and "app.x"
 * (log ids 8 and 9), opened by name; a stream can be removed (end of
 * file at its head, and no longer opened) or the kernel can have none
 * (-ENOTTY).
 *
 * The collector's scan (collscan.c) runs against the same fake, with a
 * listing in a file: which streams it follows, when, from where, and what
 * it says when the module has none.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "collector/collector.h"
#include "collector/logset.h"
#include "tap.h"

#define SET_ID	6414010659057826751ULL
#define NS_ID	4026532301ULL
#define MAXREC	64
/* The fake's streams come after the fixed logs. */
#define AUDIT	NSLOG_KLOG_COUNT
#define APPX	(NSLOG_KLOG_COUNT + 1)
#define STATS	(NSLOG_KLOG_COUNT + 2)	/* nslogd's binary stats stream */
#define NLOGS	(NSLOG_KLOG_COUNT + 3)

static const char *const stream_names[NLOGS] = {
	[AUDIT] = "audit", [APPX] = "app.x", [STATS] = "stats",
};

struct fake_log {
	__u64 tail, head;
	__u64 order[MAXREC];	/* by seq */
	bool v1;		/* answer with a version 1 header */
	bool relay;		/* with the 0x4e54 header: odd seqs relayed */
	bool removed;		/* a stream unlinked: end of file at head */
	__u32 log_id;		/* a stream made again: its new id; else 0 */
};

struct fake {
	__u64 set_id;
	bool gone;		/* OPEN_NS by id fails: -ENOENT */
	bool reaped;		/* read() at the head gives end of file */
	bool no_streams;	/* OPEN_STREAM: -ENOTTY, an older module */
	int open_err;
	struct fake_log logs[NLOGS];
	__u64 pos[NLOGS];	/* each log's reader: fd = log + 10 */
	bool open[NLOGS];
	int opens, closes;
	int epfd;		/* the collector's epoll, or -1 */
};

static struct fake K;

/* struct nslog_entry's log_id of each of the fake's logs. */
static __u32 fake_log_id(unsigned int k)
{
	if (K.logs[k].log_id)
		return K.logs[k].log_id;
	return k < NSLOG_KLOG_COUNT ? nslog_klog_android_id(k) :
	       NSLOG_STREAM_LOG_ID_MIN + k - NSLOG_KLOG_COUNT;
}

static const char *fake_name(unsigned int k)
{
	return k < NSLOG_KLOG_COUNT ? nslog_klog_name(k) : stream_names[k];
}

static int f_open(void *ctx, unsigned int klog, __u64 ns_id)
{
	(void)ctx;
	if (K.gone || ns_id != NS_ID)
		return -ENOENT;
	if (K.open_err)
		return K.open_err;
	K.opens++;
	K.open[klog] = true;
	K.pos[klog] = K.logs[klog].tail;
	return (int)klog + 10;
}

static int f_open_stream(void *ctx, const char *name, __u64 ns_id)
{
	unsigned int k;

	(void)ctx;
	if (K.no_streams)
		return -ENOTTY;
	if (K.gone || ns_id != NS_ID)
		return -ENOENT;
	for (k = NSLOG_KLOG_COUNT; k < NLOGS; k++)
		if (!strcmp(name, stream_names[k]) && !K.logs[k].removed)
			break;
	if (k == NLOGS)
		return -ENOENT;
	if (K.open_err)
		return K.open_err;
	K.opens++;
	K.open[k] = true;
	K.pos[k] = K.logs[k].tail;
	return (int)k + 10;
}

static int f_info(void *ctx, int fd, struct nslog_info *info)
{
	struct fake_log *l = &K.logs[fd - 10];

	(void)ctx;
	memset(info, 0, sizeof(*info));
	info->set_id = K.set_id;
	info->ns_id = NS_ID;
	info->head_seq = l->head;
	info->tail_seq = l->tail;
	info->log_id = fake_log_id((unsigned int)(fd - 10));
	return 0;
}

static int f_seek(void *ctx, int fd, struct nslog_seek *s)
{
	struct fake_log *l = &K.logs[fd - 10];
	__u64 to = s->seq;

	(void)ctx;
	if (to < l->tail)
		to = l->tail;
	if (to > l->head)
		to = l->head;
	s->lost = s->seq < l->tail ? l->tail - s->seq : 0;
	K.pos[fd - 10] = to;
	return 0;
}

static ssize_t f_read(void *ctx, int fd, void *buf, size_t size)
{
	unsigned int k = (unsigned int)fd - 10;
	struct fake_log *l = &K.logs[k];
	struct nslog_entry h = { .hdr_size = 56, .pid = 7, .tid = 8 };
	char payload[64];
	size_t n;
	__u64 lost = 0;

	(void)ctx;
	if (K.pos[k] < l->tail) {
		lost = l->tail - K.pos[k];
		K.pos[k] = l->tail;
	}
	if (K.pos[k] >= l->head)
		return K.reaped || l->removed ? 0 : -EAGAIN;
	if (k == NSLOG_KLOG_EVENTS || k == STATS) {
		/* [tag = 100 + seq][INT][the seq] */
		__s32 tag = 100 + (__s32)K.pos[k], v = (__s32)K.pos[k];

		memcpy(payload, &tag, 4);
		payload[4] = NSLOG_EVENT_INT;
		memcpy(payload + 5, &v, 4);
		n = 9;
	} else {
		n = (size_t)snprintf(payload, sizeof(payload), "%c%c%c%s%llu",
				     4, 't', 0, fake_name(k),
				     (unsigned long long)K.pos[k]) + 1;
	}
	h.len = (__u16)n;
	h.seq = K.pos[k];
	h.order = l->order[K.pos[k]];
	h.lost = lost;
	h.time_ns = 1700000000000000000LL + (__s64)h.order;
	h.log_id = fake_log_id(k);
	if (l->v1) {
		struct logger_entry v1 = { .len = h.len, .pid = 7, .tid = 8 };

		memcpy(buf, &v1, sizeof(v1));
		memcpy((char *)buf + sizeof(v1), payload, n);
		K.pos[k]++;
		return (ssize_t)(sizeof(v1) + n);
	}
	if (l->relay) {
		struct nslog_entry2 h2 = { .stored_ns = h.time_ns };

		memcpy(&h2, &h, sizeof(h));
		h2.hdr_size = sizeof(h2);
		if (h.seq & 1) {
			h2.flags = NSLOG_ENTRY_RELAYED;
			h2.relay_pid = 77;
			h2.stored_ns += 1000000000;
		}
		if (size < sizeof(h2) + n)
			return -EINVAL;
		memcpy(buf, &h2, sizeof(h2));
		memcpy((char *)buf + sizeof(h2), payload, n);
		K.pos[k]++;
		return (ssize_t)(sizeof(h2) + n);
	}
	if (size < sizeof(h) + n)
		return -EINVAL;
	memcpy(buf, &h, sizeof(h));
	memcpy((char *)buf + sizeof(h), payload, n);
	K.pos[k]++;
	return (ssize_t)(sizeof(h) + n);
}

static void f_close(void *ctx, int fd)
{
	(void)ctx;
	K.open[fd - 10] = false;
	K.closes++;
	/* as closing the last fd of a file does */
	if (K.epfd >= 0)
		epoll_ctl(K.epfd, EPOLL_CTL_DEL, fd, NULL);
}

static const struct nslog_kops kops = {
	.open = f_open, .open_stream = f_open_stream, .info = f_info,
	.seek = f_seek, .read = f_read, .close = f_close,
};

/* A collector older than streams' kernel: no open_stream. */
static const struct nslog_kops kops_nostreams = {
	.open = f_open, .info = f_info, .seek = f_seek, .read = f_read,
	.close = f_close,
};

/* Records seq from..to-1 of @klog, whose set orders are next_order++ */
static __u64 next_order;

static void k_write(unsigned int klog, unsigned int count)
{
	struct fake_log *l = &K.logs[klog];

	while (count--)
		l->order[l->head++] = next_order++;
}

static void k_reset(void)
{
	memset(&K, 0, sizeof(K));
	K.set_id = SET_ID;
	K.epfd = -1;
	next_order = 0;
}

/* An output into memory: raw lines, headers and loss lines. */
struct rig {
	struct nslog_out out;
	struct nslog_sink sink;
	char *text;
	size_t size;
	size_t taken;
	FILE *f;
};

static int rig_send_fail(const struct iovec *iov, int n)
{
	(void)iov;
	(void)n;
	return -EPIPE;
}

static void rig_init_as(struct rig *g, const char *kind)
{
	memset(g, 0, sizeof(*g));
	nslog_out_parse(&g->out, kind);
	g->f = open_memstream(&g->text, &g->size);
	nslog_out_open(&g->out, g->f);
	g->sink.out = &g->out;
	g->sink.utc = true;
}

static void rig_init(struct rig *g)
{
	rig_init_as(g, "raw");
}

/* What was written since the last call. */
static const char *rig_take(struct rig *g)
{
	static char buf[8192];

	fflush(g->f);
	snprintf(buf, sizeof(buf), "%s", g->text ? g->text + g->taken : "");
	g->taken = g->size;
	return buf;
}

static void rig_free(struct rig *g)
{
	fclose(g->f);
	free(g->text);
	nslog_out_close(&g->out);
}

static int pump_all(struct nslog_set *s, struct rig *g)
{
	bool more;
	int ret;

	do
		ret = nslog_set_pump(s, &kops, &g->sink, 1000, &more);
	while (!ret && more);
	return ret;
}

#define ALL	((1u << NSLOG_KLOG_COUNT) - 1)
#define HDR(log) "--------- " log " of ipc:[4026532301]\n"

static void test_order(void)
{
	struct nslog_set s;
	struct rig g;
	int ret;

	k_reset();
	rig_init(&g);
	k_write(NSLOG_KLOG_MAIN, 2);
	k_write(NSLOG_KLOG_EVENTS, 1);
	k_write(NSLOG_KLOG_SYSTEM, 1);
	k_write(NSLOG_KLOG_MAIN, 1);
	ret = nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
	tap_ok(!ret && K.opens == 4, "open: the four logs, by namespace id");
	ret = pump_all(&s, &g);
	tap_str("pump: the set's records in the order they were written",
		rig_take(&g),
		HDR("main") "main0\nmain1\n"
		HDR("events") "0\n"
		HDR("system") "system0\n"
		HDR("main") "main2\n");
	tap_ok(!ret && !nslog_set_done(&s), "pump: a live set is not done");

	k_write(NSLOG_KLOG_RADIO, 1);
	pump_all(&s, &g);
	tap_str("pump: later records", rig_take(&g), HDR("radio") "radio0\n");

	nslog_set_flushed(&s);
	{
		struct nslog_cstate_set c;

		nslog_set_state(&s, &c);
		tap_ok(c.set_id == SET_ID && c.ns_id == NS_ID && c.has[0] &&
		       c.last[0] == 2 && c.has[1] && c.last[1] == 0 &&
		       c.has[2] && c.last[2] == 0 && c.has[3] && c.last[3] == 0,
		       "state: the last seq of each log, once flushed");
	}
	nslog_set_close(&s, &kops);
	tap_int("close: every log closed", K.closes, 4);
	rig_free(&g);
}

static void test_resume(void)
{
	struct nslog_cstate_set r = { .set_id = SET_ID, .ns_id = NS_ID };
	struct nslog_cstate_set c;
	struct nslog_set s;
	struct rig g;

	k_reset();
	rig_init(&g);
	k_write(NSLOG_KLOG_MAIN, 8);
	r.has[NSLOG_KLOG_MAIN] = true;
	r.last[NSLOG_KLOG_MAIN] = 5;
	nslog_set_open(&s, &kops, NS_ID, SET_ID, 1u << NSLOG_KLOG_MAIN, &r,
		       NULL);
	tap_int("resume: only the logs asked for are opened", K.opens, 1);
	nslog_set_state(&s, &c);
	tap_ok(c.has[0] && c.last[0] == 5 && !c.has[1],
	       "resume: the state stands where it was before anything ships");
	pump_all(&s, &g);
	tap_str("resume: after the last shipped, nothing repeated",
		rig_take(&g), HDR("main") "main6\nmain7\n");
	nslog_set_close(&s, &kops);

	K.logs[NSLOG_KLOG_MAIN].tail = 5;
	k_write(NSLOG_KLOG_MAIN, 2);
	r.last[NSLOG_KLOG_MAIN] = 2;
	nslog_set_open(&s, &kops, NS_ID, SET_ID, 1u << NSLOG_KLOG_MAIN, &r,
		       NULL);
	pump_all(&s, &g);
	tap_str("resume: records gone since the last shipped are reported, exactly",
		rig_take(&g),
		"--------- 2 records of log main of ipc:[4026532301] were lost (seq 3 to 4)\n"
		HDR("main") "main5\nmain6\nmain7\nmain8\nmain9\n");
	nslog_set_close(&s, &kops);

	nslog_set_open(&s, &kops, NS_ID, SET_ID, 1u << NSLOG_KLOG_MAIN, NULL,
		       NULL);
	pump_all(&s, &g);
	tap_str("no state: from seq 0, what the ring overwrote is reported",
		rig_take(&g),
		"--------- 5 records of log main of ipc:[4026532301] were lost (seq 0 to 4)\n"
		HDR("main") "main5\nmain6\nmain7\nmain8\nmain9\n");
	nslog_set_close(&s, &kops);
	rig_free(&g);
}

/* The decision alone: resume after max(state, output), the output's
 * word only below the head. */
static void test_resume_pick(void)
{
	static const struct {
		const char *what;
		bool s_has, d_has;
		__u64 s, d, head;
		enum nslog_resume_from from;
		bool has;
		__u64 last, ahead;
		bool ignored;
	} t[] = {
		{ "neither: from seq 0", false, false, 0, 0, 10,
		  NSLOG_RESUME_START, false, 0, 0, false },
		{ "state only (journal rotated away or vacuumed)", true, false,
		  4, 0, 10, NSLOG_RESUME_STATE, true, 4, 0, false },
		{ "journal ahead of the state (SIGKILL): the journal's", true,
		  true, 4, 8, 10, NSLOG_RESUME_DEST, true, 8, 4, false },
		{ "journal behind the state (entries dropped): the state's",
		  true, true, 8, 4, 10, NSLOG_RESUME_STATE, true, 8, 0, false },
		{ "both the same: the state's, nothing ahead", true, true, 7,
		  7, 10, NSLOG_RESUME_STATE, true, 7, 0, false },
		{ "no state yet (killed before the first save): the journal's",
		  false, true, 0, 5, 10, NSLOG_RESUME_DEST, true, 5, 6, false },
		{ "journal at the last written seq (head - 1): believed", true,
		  true, 2, 9, 10, NSLOG_RESUME_DEST, true, 9, 7, false },
		{ "journal at the head (not written yet): ignored", true, true,
		  2, 10, 10, NSLOG_RESUME_STATE, true, 2, 0, true },
		{ "journal far past the head (a reused set id): ignored",
		  false, true, 0, 5000, 3, NSLOG_RESUME_START, false, 0, 0,
		  true },
		{ "a log that wrote nothing has no record in the journal",
		  false, true, 0, 0, 0, NSLOG_RESUME_START, false, 0, 0, true },
		{ "a set gone (head unknown): the journal's", true, true, 3,
		  9, ~0ULL, NSLOG_RESUME_DEST, true, 9, 6, false },
	};
	struct nslog_resume r;
	struct nslog_pos st, d;
	char what[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		st.has = t[i].s_has;
		st.last = t[i].s;
		d.has = t[i].d_has;
		d.last = t[i].d;
		memset(&r, 0xa5, sizeof(r));
		nslog_resume_pick(&r, &st, &d, t[i].head);
		snprintf(what, sizeof(what), "resume pick: %s", t[i].what);
		tap_ok(r.from == t[i].from && r.pos.has == t[i].has &&
		       (!r.pos.has || r.pos.last == t[i].last) &&
		       r.ahead == t[i].ahead && r.ignored == t[i].ignored,
		       what);
	}
}

/* The same through the played kernel: where each log seeks. */
static void test_resume_found(void)
{
	struct nslog_cstate_set r = { .set_id = SET_ID, .ns_id = NS_ID };
	struct nslog_cstate_set f = { .set_id = SET_ID, .ns_id = NS_ID };
	unsigned int mask = 1u << NSLOG_KLOG_MAIN | 1u << NSLOG_KLOG_SYSTEM;
	struct nslog_cstate_set c;
	struct nslog_set s;
	struct rig g;

	k_reset();
	rig_init(&g);
	k_write(NSLOG_KLOG_MAIN, 8);
	k_write(NSLOG_KLOG_SYSTEM, 3);
	r.has[NSLOG_KLOG_MAIN] = true;
	r.last[NSLOG_KLOG_MAIN] = 2;
	f.has[NSLOG_KLOG_MAIN] = true;
	f.last[NSLOG_KLOG_MAIN] = 5;
	f.has[NSLOG_KLOG_SYSTEM] = true;
	f.last[NSLOG_KLOG_SYSTEM] = 7;	/* system wrote 0..2 only */
	nslog_set_open(&s, &kops, NS_ID, SET_ID, mask, &r, &f);
	tap_ok(s.logs[NSLOG_KLOG_MAIN].resumed.from == NSLOG_RESUME_DEST &&
	       s.logs[NSLOG_KLOG_MAIN].resumed.ahead == 3 &&
	       s.logs[NSLOG_KLOG_SYSTEM].resumed.ignored &&
	       s.logs[NSLOG_KLOG_SYSTEM].resumed.from == NSLOG_RESUME_START,
	       "found: main from the journal (3 ahead), system's seq 7 ignored");
	nslog_set_state(&s, &c);
	tap_ok(c.has[NSLOG_KLOG_MAIN] && c.last[NSLOG_KLOG_MAIN] == 5 &&
	       !c.has[NSLOG_KLOG_SYSTEM],
	       "found: the state stands at the journal's word before anything ships");
	pump_all(&s, &g);
	tap_str("found: main after the journal's seq 5, system from seq 0",
		rig_take(&g),
		HDR("main") "main6\nmain7\n" HDR("system")
		"system0\nsystem1\nsystem2\n");
	nslog_set_close(&s, &kops);

	f.last[NSLOG_KLOG_MAIN] = 1;
	nslog_set_open(&s, &kops, NS_ID, SET_ID, 1u << NSLOG_KLOG_MAIN, &r,
		       &f);
	pump_all(&s, &g);
	tap_str("found: the journal behind the state: after the state's seq 2",
		rig_take(&g), HDR("main") "main3\nmain4\nmain5\nmain6\nmain7\n");
	nslog_set_close(&s, &kops);
	rig_free(&g);
}

static void test_lapped(void)
{
	struct nslog_set s;
	struct rig g;

	k_reset();
	rig_init(&g);
	k_write(NSLOG_KLOG_MAIN, 2);
	nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
	pump_all(&s, &g);
	rig_take(&g);
	k_write(NSLOG_KLOG_MAIN, 10);
	K.logs[NSLOG_KLOG_MAIN].tail = 9;	/* 2..8 overwritten */
	k_write(NSLOG_KLOG_EVENTS, 0);
	pump_all(&s, &g);
	tap_str("lapped: the reader is told exactly what it lost",
		rig_take(&g),
		"--------- 7 records of log main of ipc:[4026532301] were lost (seq 2 to 8)\n"
		HDR("main") "main9\nmain10\nmain11\n");
	k_write(NSLOG_KLOG_MAIN, 2);
	K.logs[NSLOG_KLOG_MAIN].tail = 13;
	pump_all(&s, &g);
	tap_str("lapped: once by exactly one record", rig_take(&g),
		"--------- 1 record of log main of ipc:[4026532301] was lost (seq 12 to 12)\n"
		HDR("main") "main13\n");
	nslog_set_close(&s, &kops);
	rig_free(&g);
}

static void test_eof(void)
{
	struct nslog_cstate_set r = { .set_id = SET_ID, .ns_id = NS_ID };
	struct nslog_set s;
	struct rig g;
	int ret;

	k_reset();
	rig_init(&g);
	k_write(NSLOG_KLOG_MAIN, 3);
	k_write(NSLOG_KLOG_SYSTEM, 1);
	nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
	K.reaped = true;
	ret = pump_all(&s, &g);
	tap_str("end of file: every record, then the logs close", rig_take(&g),
		HDR("main") "main0\nmain1\nmain2\n" HDR("system") "system0\n");
	tap_ok(!ret && nslog_set_done(&s) && K.closes == 4 &&
	       s.logs[0].eof && !s.logs[0].err,
	       "end of file: the set is done");
	nslog_set_close(&s, &kops);

	/* flushed while the collector was away: no record comes after */
	k_reset();
	K.logs[NSLOG_KLOG_MAIN].tail = 10;
	K.logs[NSLOG_KLOG_MAIN].head = 10;
	r.has[NSLOG_KLOG_MAIN] = true;
	r.last[NSLOG_KLOG_MAIN] = 3;
	nslog_set_open(&s, &kops, NS_ID, SET_ID, 1u << NSLOG_KLOG_MAIN, &r,
		       NULL);
	K.reaped = true;
	pump_all(&s, &g);
	tap_ok(strstr(rig_take(&g),
		      "--------- 6 records of log main of ipc:[4026532301] were lost (seq 4 to 9)\n") != NULL,
	       "end of file: records gone since the seek, with none after, are reported");
	nslog_set_close(&s, &kops);
	rig_free(&g);
}

/* nslogd's stats and security streams hold events records: decoded so. */
static void test_binary_stream(void)
{
	struct nslog_flog *l = NULL, *a = NULL;
	struct nslog_set s;
	struct rig g;
	int ret;

	k_reset();
	rig_init_as(&g, "json");
	k_write(STATS, 1);
	k_write(AUDIT, 1);
	ret = nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
	ret = ret ? ret : nslog_set_open_stream(&s, &kops, "stats", NULL,
						 NULL, &l);
	ret = ret ? ret : nslog_set_open_stream(&s, &kops, "audit", NULL,
						 NULL, &a);
	ret = ret ? ret : pump_all(&s, &g);
	{
		const char *out = rig_take(&g);

		tap_ok(!ret && strstr(out, "\"log\":\"stats\"") &&
		       strstr(out, "\"event_tag\":100") &&
		       strstr(out, "\"tag\":\"[100]\""),
		       "streams: \"stats\" decoded as events: its tag number");
		tap_ok(strstr(out, "\"message\":\"audit0\"") &&
		       !strstr(out, "\"event_tag\":101"),
		       "streams: any other stream is text");
	}
	tap_ok(nslog_stream_binary("security") &&
	       !nslog_stream_binary("crash") && !nslog_stream_binary("audit"),
	       "streams: stats and security are binary, others not");
	nslog_set_close(&s, &kops);
	rig_free(&g);
}

static void test_streams(void)
{
	struct nslog_cstate_set c = { 0 }, c2 = { 0 };
	const struct nslog_cstate_stream *st;
	struct nslog_flog *l = NULL, *l2 = NULL;
	struct nslog_set s;
	struct rig g;
	int ret;

	k_reset();
	rig_init(&g);
	k_write(NSLOG_KLOG_MAIN, 1);
	k_write(AUDIT, 2);
	k_write(NSLOG_KLOG_MAIN, 1);
	k_write(APPX, 1);
	ret = nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
	tap_ok(!ret && K.opens == 4 && !s.nstreams,
	       "streams: the set opens its four fixed logs, no stream");
	ret = nslog_set_open_stream(&s, &kops, "audit", NULL, NULL, &l);
	ret = ret ? ret : nslog_set_open_stream(&s, &kops, "app.x", NULL,
						 NULL, &l2);
	tap_ok(!ret && K.opens == 6 && s.nstreams == 2 && l && l2 &&
	       l->fd == AUDIT + 10 && l2->fd == APPX + 10 &&
	       !strcmp(l->name, "audit") && l->set == &s &&
	       nslog_set_nlogs(&s) == NSLOG_KLOG_COUNT + 2 &&
	       nslog_set_log(&s, NSLOG_KLOG_COUNT) == l &&
	       nslog_set_find_stream(&s, "app.x") == l2,
	       "streams: opened by name, one more log of the set each");
	tap_int("streams: one followed already is not opened again",
		nslog_set_open_stream(&s, &kops, "audit", NULL, NULL, &l),
		-EEXIST);
	tap_int("streams: one the set does not have: -ENOENT",
		nslog_set_open_stream(&s, &kops, "nosuch", NULL, NULL, &l),
		-ENOENT);
	tap_int("streams: a fixed log's name is no stream's: -EINVAL",
		nslog_set_open_stream(&s, &kops, "main", NULL, NULL, &l),
		-EINVAL);
	tap_ok(s.nstreams == 2 && K.opens == 6 && K.closes == 0,
	       "streams: a failed open leaves the set as it was");
	pump_all(&s, &g);
	tap_str("streams: records merged with the fixed logs', labelled by name",
		rig_take(&g),
		HDR("main") "main0\n"
		HDR("audit") "audit0\naudit1\n"
		HDR("main") "main1\n"
		HDR("app.x") "app.x0\n");

	nslog_set_flushed(&s);
	ret = nslog_set_state(&s, &c);
	st = nslog_cstate_stream_find(&c, "audit");
	tap_ok(!ret && c.has[0] && c.last[0] == 1 && c.nstreams == 2 && st &&
	       st->last == 1 && st->log_id == NSLOG_STREAM_LOG_ID_MIN && nslog_cstate_stream_find(&c, "app.x") &&
	       nslog_cstate_stream_find(&c, "app.x")->last == 0,
	       "streams: the state says where each stream stands, by name");
	nslog_set_close(&s, &kops);
	tap_ok(K.closes == 6 && !K.open[AUDIT] && !K.open[APPX] && !s.nstreams,
	       "streams: closed with their set");

	/* a restart: each stream resumes after its last shipped, by name */
	k_write(AUDIT, 3);
	k_write(APPX, 1);
	nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, &c, NULL);
	nslog_set_open_stream(&s, &kops, "app.x", &c, NULL, &l2);
	nslog_set_open_stream(&s, &kops, "audit", &c, NULL, &l);
	pump_all(&s, &g);
	tap_str("streams: resumed by name, nothing repeated or skipped",
		rig_take(&g),
		HDR("audit") "audit2\naudit3\naudit4\n"
		HDR("app.x") "app.x1\n");

	/* app.x is removed: read to its end, then dropped */
	K.logs[APPX].removed = true;
	pump_all(&s, &g);
	tap_ok(!rig_take(&g)[0] && l2->eof && l2->fd < 0 && !l2->err &&
	       !K.open[APPX] && !nslog_set_done(&s),
	       "streams: a removed stream ends, its set goes on");
	tap_int("streams: the ended stream is pruned",
		(int)nslog_set_prune(&s, &kops), 1);
	nslog_set_flushed(&s);
	nslog_set_state(&s, &c2);
	tap_ok(s.nstreams == 1 && !nslog_set_find_stream(&s, "app.x") &&
	       nslog_set_find_stream(&s, "audit") && c2.nstreams == 1 &&
	       nslog_cstate_stream_find(&c2, "audit")->last == 4,
	       "streams: a pruned stream is gone from the set and its state");
	tap_int("streams: a live stream is not pruned",
		(int)nslog_set_prune(&s, &kops), 0);
	nslog_set_close(&s, &kops);
	free(c.streams);
	free(c2.streams);

	/*
	 * app.x made again under its name: a new log, its seqs from 0, and
	 * its log id the next of the set (10; the old one had 9).  It has
	 * written past the seq the state says of the old one.
	 */
	K.logs[APPX].removed = false;
	K.logs[APPX].tail = 0;
	K.logs[APPX].head = 0;
	K.logs[APPX].log_id = NSLOG_STREAM_LOG_ID_MIN + 2;
	k_write(APPX, 4);
	memset(&c, 0, sizeof(c));
	memset(&c2, 0, sizeof(c2));
	nslog_cstate_stream_add(&c, "app.x", NSLOG_STREAM_LOG_ID_MIN + 1, 1);
	nslog_cstate_stream_add(&c2, "app.x", 0, 2);
	nslog_set_open(&s, &kops, NS_ID, SET_ID, 0, &c, &c2);
	nslog_set_open_stream(&s, &kops, "app.x", &c, &c2, &l2);
	tap_ok(l2 && l2->remade && l2->remade_last == 1 &&
	       l2->log_id == NSLOG_STREAM_LOG_ID_MIN + 2,
	       "streams: another log id under the state's name: another stream");
	pump_all(&s, &g);
	tap_str("streams: made again, written past the old seq: none skipped",
		rig_take(&g), "app.x0\napp.x1\napp.x2\napp.x3\n");
	nslog_set_flushed(&s);
	free(c.streams);
	nslog_set_state(&s, &c);
	st = nslog_cstate_stream_find(&c, "app.x");
	tap_ok(st && st->last == 3 && st->log_id == NSLOG_STREAM_LOG_ID_MIN + 2,
	       "streams: the state has the new stream's log id");
	nslog_set_close(&s, &kops);
	free(c.streams);
	free(c2.streams);

	/* an older state file, no log id: a word past the head is another's */
	K.logs[APPX].tail = 0;
	K.logs[APPX].head = 0;
	k_write(APPX, 2);
	memset(&c, 0, sizeof(c));
	nslog_cstate_stream_add(&c, "app.x", 0, 40);
	nslog_set_open(&s, &kops, NS_ID, SET_ID, 0, &c, NULL);
	nslog_set_open_stream(&s, &kops, "app.x", &c, NULL, &l2);
	pump_all(&s, &g);
	tap_str("streams: a state past a stream's head is another's: from seq 0",
		rig_take(&g), "app.x0\napp.x1\n");
	tap_ok(!l2->remade, "streams: no log id in the state: not told remade");
	nslog_set_close(&s, &kops);
	free(c.streams);

	/* an older module, or a collector's kops without streams */
	k_reset();
	K.no_streams = true;
	nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
	tap_int("streams: a module without them: -ENOTTY",
		nslog_set_open_stream(&s, &kops, "audit", NULL, NULL, &l),
		-ENOTTY);
	K.no_streams = false;
	tap_int("streams: kops without open_stream: -ENOTTY",
		nslog_set_open_stream(&s, &kops_nostreams, "audit", NULL,
				      NULL, &l), -ENOTTY);
	tap_ok(!s.nstreams && K.opens == 4,
	       "streams: none followed then, the fixed logs are");
	nslog_set_close(&s, &kops);
	rig_free(&g);
}

/* What json and rfc5424 call a stream: its name, as they call main. */
static void test_stream_labels(void)
{
	static const char *const kinds[] = { "json", "rfc5424" };
	static const char *const want[] = { "\"log\":\"audit\"",
					    "log=\"audit\"" };
	struct nslog_flog *l;
	struct nslog_set s;
	struct rig g;
	char msg[80];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		k_reset();
		rig_init_as(&g, kinds[i]);
		k_write(AUDIT, 1);
		nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
		nslog_set_open_stream(&s, &kops, "audit", NULL, NULL, &l);
		pump_all(&s, &g);
		snprintf(msg, sizeof(msg), "streams: %s labels a record %s",
			 kinds[i], want[i]);
		tap_ok(strstr(rig_take(&g), want[i]) != NULL, msg);
		nslog_set_close(&s, &kops);
		rig_free(&g);
	}
}

/* The listing: the four fixed logs of the set, then @streams' lines. */
static void put_listing(int fd, const char *const *streams)
{
	static const char *const fixed[] = { "main", "events", "radio",
					     "system" };
	char buf[2048];
	size_t n = 0;
	unsigned int i;

	n += (size_t)snprintf(buf + n, sizeof(buf) - n,
		"# ns_id user_ns_id state files log allocated used written stored set_id\n");
	for (i = 0; i < 4; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
			"%llu 1 live 1 %s 65536 0 0 0 %llu\n",
			NS_ID, fixed[i], SET_ID);
	for (i = 0; streams && streams[i]; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
			"%llu 1 live 1 %s 65536 0 0 1 %llu\n",
			NS_ID, streams[i], SET_ID);
	if (ftruncate(fd, 0) || pwrite(fd, buf, n, 0) != (ssize_t)n)
		abort();
}

struct crig {
	struct nslog_collector c;
	FILE *f;
	char *text;
	size_t size, taken;
	char listing[64];
	char errpath[64];
	int saved_err;
};

static void crig_init(struct crig *r)
{
	struct nslog_collector *c = &r->c;

	memset(r, 0, sizeof(*r));
	c->logmask = ALL;
	c->proc_dir = "/fake/proc/nslogger";
	c->proc_root = "/nonexistent/proc";
	c->k = kops;
	c->lockfd = -1;
	nslog_out_parse(&c->out, "raw");
	r->f = open_memstream(&r->text, &r->size);
	nslog_out_open(&c->out, r->f);
	c->sink.out = &c->out;
	c->sink.utc = true;
	strcpy(r->listing, "/tmp/nslog_listing.XXXXXX");
	c->nsfd = mkstemp(r->listing);
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	K.epfd = c->epfd;
	/* stderr into a file, for what the collector says */
	strcpy(r->errpath, "/tmp/nslog_stderr.XXXXXX");
	fflush(stderr);
	r->saved_err = dup(2);
	dup2(mkstemp(r->errpath), 2);
}

static const char *crig_take(struct crig *r)
{
	static char buf[8192];

	fflush(r->f);
	snprintf(buf, sizeof(buf), "%s", r->text ? r->text + r->taken : "");
	r->taken = r->size;
	return buf;
}

/* What the collector said on stderr so far. */
static const char *crig_err(struct crig *r)
{
	static char buf[4096];
	ssize_t n;
	int fd;

	fflush(stderr);
	fd = open(r->errpath, O_RDONLY);
	n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	return buf;
}

static void crig_pump(struct crig *r)
{
	struct nslog_set *s;
	bool more;

	for (s = r->c.sets; s; s = s->next)
		do
			coll_pump(&r->c, s, &more);
		while (more);
}

static void crig_free(struct crig *r)
{
	struct nslog_collector *c = &r->c;

	coll_close_sets(c);
	nslog_nslist_free(&c->list);
	nslog_cstate_free(&c->st);
	nslog_cstate_free(&c->found);
	close(c->nsfd);
	unlink(r->listing);
	close(c->epfd);
	K.epfd = -1;
	fflush(stderr);
	dup2(r->saved_err, 2);
	close(r->saved_err);
	unlink(r->errpath);
	fclose(r->f);
	free(r->text);
	nslog_out_close(&c->out);
}

/* How many times @needle is in @hay. */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static void test_collscan_streams(void)
{
	static const char *const audit[] = { "audit", NULL };
	static const char *const both[] = { "audit", "app.x", NULL };
	static const char *const appx[] = { "app.x", NULL };
	struct nslog_cstate_set *st, saved = { 0 };
	const struct nslog_cstate_stream *p;
	struct crig r;
	int ret;

	/* a restart: audit resumes by name, "old" went while it was down */
	k_reset();
	crig_init(&r);
	strcpy(r.c.st.boot_id, "b");
	st = nslog_cstate_add(&r.c.st, SET_ID, NS_ID);
	st->has[NSLOG_KLOG_MAIN] = true;
	st->last[NSLOG_KLOG_MAIN] = 0;
	nslog_cstate_stream_add(st, "audit", NSLOG_STREAM_LOG_ID_MIN, 1);
	nslog_cstate_stream_add(st, "old", NSLOG_STREAM_LOG_ID_MIN + 5, 5);
	k_write(NSLOG_KLOG_MAIN, 2);
	k_write(AUDIT, 4);
	put_listing(r.c.nsfd, audit);
	ret = coll_scan(&r.c);
	tap_ok(!ret && r.c.nsets == 1 && r.c.sets->nstreams == 1 &&
	       nslog_set_find_stream(r.c.sets, "audit") && K.open[AUDIT] &&
	       !K.open[APPX] && !r.c.st.count,
	       "collscan: a listed stream is followed with its set");
	tap_str("collscan: a stream of the state file removed meanwhile: may be lost",
		crig_take(&r),
		"--------- records of log old of ipc:[4026532301] from seq 6 on may have been lost: the stream was removed before they were read\n");
	crig_pump(&r);
	tap_str("collscan: the stream resumed by name after its last shipped",
		crig_take(&r),
		HDR("main") "main1\n" HDR("audit") "audit2\naudit3\n");

	/* a stream made later: the listing changes */
	k_write(APPX, 2);
	coll_scan(&r.c);
	tap_ok(r.c.sets->nstreams == 1 && !K.open[APPX],
	       "collscan: a stream not listed yet is not opened");
	put_listing(r.c.nsfd, both);
	ret = coll_scan(&r.c);
	tap_ok(!ret && r.c.sets->nstreams == 2 && K.open[APPX] &&
	       r.c.sets->ready && K.opens == 6,
	       "collscan: a stream the listing gains is followed, once");
	coll_scan(&r.c);
	tap_int("collscan: a followed stream is not opened again", K.opens, 6);
	crig_pump(&r);
	tap_str("collscan: the new stream's records, from its first",
		crig_take(&r), HDR("app.x") "app.x0\napp.x1\n");
	coll_flush(&r.c);
	nslog_set_state(r.c.sets, &saved);
	p = nslog_cstate_stream_find(&saved, "app.x");
	tap_ok(p && p->last == 1 &&
	       nslog_cstate_stream_find(&saved, "audit")->last == 3 &&
	       !nslog_cstate_stream_find(&saved, "old"),
	       "collscan: the state to save has each stream by name");
	free(saved.streams);

	/* app.x is removed: drained, ended, forgotten; the set goes on */
	k_write(APPX, 1);
	K.logs[APPX].removed = true;
	put_listing(r.c.nsfd, audit);
	coll_scan(&r.c);
	r.c.dirty = false;
	crig_pump(&r);
	coll_reap(&r.c);
	tap_str("collscan: a removed stream is drained to its end",
		crig_take(&r), "app.x2\n");
	tap_ok(r.c.nsets == 1 && r.c.sets->nstreams == 1 && !K.open[APPX] &&
	       !nslog_set_find_stream(r.c.sets, "app.x") && r.c.dirty,
	       "collscan: then dropped, and the state is to be saved");
	tap_ok(!strstr(crig_err(&r), "stream"),
	       "collscan: nothing said on stderr of streams that work");
	crig_free(&r);

	/* a module without streams: the fixed logs, and a word, once */
	k_reset();
	K.no_streams = true;
	crig_init(&r);
	k_write(NSLOG_KLOG_MAIN, 1);
	put_listing(r.c.nsfd, audit);
	ret = coll_scan(&r.c);
	put_listing(r.c.nsfd, both);
	ret = ret ? ret : coll_scan(&r.c);
	tap_ok(!ret && r.c.nsets == 1 && r.c.no_streams && K.opens == 4 &&
	       !r.c.sets->nstreams,
	       "collscan: -ENOTTY: the four fixed logs followed, no stream");
	tap_int("collscan: -ENOTTY: said once on stderr",
		count_of(crig_err(&r), "cannot open streams"), 1);
	crig_pump(&r);
	tap_str("collscan: -ENOTTY: the fixed logs shipped as before",
		crig_take(&r), HDR("main") "main0\n");
	crig_free(&r);

	/*
	 * A restart: app.x was removed and made again while the collector
	 * was down, and the new one wrote past the old one's seq.
	 */
	k_reset();
	crig_init(&r);
	strcpy(r.c.st.boot_id, "b");
	st = nslog_cstate_add(&r.c.st, SET_ID, NS_ID);
	nslog_cstate_stream_add(st, "app.x", NSLOG_STREAM_LOG_ID_MIN + 1, 1);
	K.logs[APPX].log_id = NSLOG_STREAM_LOG_ID_MIN + 2;
	k_write(APPX, 3);
	put_listing(r.c.nsfd, appx);
	ret = coll_scan(&r.c);
	tap_ok(!ret && r.c.nsets == 1 && r.c.sets->nstreams == 1 &&
	       K.open[APPX], "collscan: a stream made again is followed");
	tap_str("collscan: the old one's records after its last shipped: may be lost",
		crig_take(&r),
		"--------- records of log app.x of ipc:[4026532301] from seq 2 on may have been lost: the stream was removed (another has its name now) before they were read\n");
	crig_pump(&r);
	tap_str("collscan: the new one's records, from its first",
		crig_take(&r), HDR("app.x") "app.x0\napp.x1\napp.x2\n");
	crig_free(&r);
}

static void test_budget_errors(void)
{
	struct nslog_cstate_set c;
	struct nslog_set s;
	struct rig g;
	bool more;
	int ret;

	k_reset();
	rig_init(&g);
	k_write(NSLOG_KLOG_MAIN, 5);
	nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
	ret = nslog_set_pump(&s, &kops, &g.sink, 2, &more);
	tap_ok(!ret && more && !strcmp(rig_take(&g), HDR("main") "main0\nmain1\n"),
	       "budget: two records, and more to come");
	ret = nslog_set_pump(&s, &kops, &g.sink, 3, &more);
	tap_ok(!ret && more && !strcmp(rig_take(&g), "main2\nmain3\nmain4\n"),
	       "budget: the next three");
	ret = nslog_set_pump(&s, &kops, &g.sink, 3, &more);
	tap_ok(!ret && !more, "budget: drained");
	nslog_set_close(&s, &kops);
	rig_free(&g);

	/* an output that fails: the record is not counted as shipped */
	k_reset();
	rig_init(&g);
	g.out.kind = NSLOG_OUT_JOURNAL;
	g.out.send = rig_send_fail;
	k_write(NSLOG_KLOG_MAIN, 2);
	nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
	ret = nslog_set_pump(&s, &kops, &g.sink, 10, &more);
	nslog_set_flushed(&s);
	nslog_set_state(&s, &c);
	tap_ok(ret == -EPIPE && !c.has[0],
	       "output error: returned, and the state does not move");
	nslog_set_close(&s, &kops);
	rig_free(&g);

	k_reset();
	rig_init(&g);
	K.set_id = SET_ID + 1;
	tap_int("open: the namespace has another set now: -ESTALE",
		nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL),
		-ESTALE);
	tap_int("open: nothing left open after a failure", K.opens - K.closes,
		0);
	K.gone = true;
	tap_int("open: the set is gone: -ENOENT",
		nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL),
		-ENOENT);
	k_reset();
	K.open_err = -EINVAL;
	tap_int("open: the header version refused (an old module): -EINVAL",
		nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL),
		-EINVAL);

	k_reset();
	k_write(NSLOG_KLOG_MAIN, 1);
	K.logs[NSLOG_KLOG_MAIN].v1 = true;
	nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
	ret = pump_all(&s, &g);
	tap_ok(!ret && s.logs[0].fd < 0 && s.logs[0].err == -EBADMSG &&
	       !s.logs[0].eof && s.logs[1].fd >= 0,
	       "a record without nslogger's header stops that log only");
	nslog_set_close(&s, &kops);
	rig_free(&g);
}

/* Records of the 0x4e54 header, relayed or not, beside the 56-byte one's. */
static void test_relayed(void)
{
	struct nslog_set s;
	struct rig g;
	int ret;

	k_reset();
	rig_init_as(&g, "json");
	K.logs[NSLOG_KLOG_MAIN].relay = true;
	k_write(NSLOG_KLOG_MAIN, 1);
	k_write(NSLOG_KLOG_SYSTEM, 1);
	k_write(NSLOG_KLOG_MAIN, 1);
	nslog_set_open(&s, &kops, NS_ID, SET_ID, ALL, NULL, NULL);
	ret = pump_all(&s, &g);
	tap_ok(!ret, "relayed: the set pumps");
	tap_str("relayed: in write order across headers; the relay reaches the output",
		rig_take(&g),
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.000000000Z\","
		"\"log\":\"main\",\"ns_id\":4026532301,\"set_id\":\"6414010659057826751\","
		"\"seq\":0,\"order\":0,\"priority\":4,\"level\":\"info\",\"tag\":\"t\","
		"\"message\":\"main0\",\"pid\":7,\"tid\":8,\"uid\":0,\"kernel\":false}\n"
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.000000001Z\","
		"\"log\":\"system\",\"ns_id\":4026532301,\"set_id\":\"6414010659057826751\","
		"\"seq\":0,\"order\":1,\"priority\":4,\"level\":\"info\",\"tag\":\"t\","
		"\"message\":\"system0\",\"pid\":7,\"tid\":8,\"uid\":0,\"kernel\":false}\n"
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.000000002Z\","
		"\"log\":\"main\",\"ns_id\":4026532301,\"set_id\":\"6414010659057826751\","
		"\"seq\":1,\"order\":2,\"priority\":4,\"level\":\"info\",\"tag\":\"t\","
		"\"message\":\"main1\",\"pid\":7,\"tid\":8,\"uid\":0,\"kernel\":false,"
		"\"relayed\":true,\"relay_pid\":77,"
		"\"stored_time\":\"2023-11-14T22:13:21.000000002Z\"}\n");
	nslog_set_close(&s, &kops);
	rig_free(&g);
}

int main(void)
{
	int ev = eventfd(0, EFD_CLOEXEC), fd;

	/* the fake's fds are real (never ready), for the collector's epoll */
	for (fd = 10; fd < 10 + NLOGS; fd++)
		dup2(ev, fd);
	close(ev);
	test_order();
	test_resume();
	test_resume_pick();
	test_resume_found();
	test_lapped();
	test_eof();
	test_budget_errors();
	test_relayed();
	test_streams();
	test_binary_stream();
	test_stream_labels();
	test_collscan_streams();
	return tap_done();
}
