// SPDX-License-Identifier: GPL-2.0
/*
 * logstats: getStatistics, counted when asked.
 *
 * The kernel keeps per-log totals only (NSLOG_IOC_INFO's sequence
 * numbers); who wrote how much is in the records themselves. So each log
 * asked for is read once with a fresh reader (nslogd_ringctl_reader(),
 * nslogger's header: pid, euid, seq) from the oldest record stored up to
 * the head as it was when the reader was opened, and the records are
 * counted by uid and by pid in two fixed tables of NSLOGD_LOGSTATS_KEYS
 * entries each (what does not fit is counted as "other"). Nothing is kept
 * between requests.
 *
 * Cost: one read() of one record per stored record, and the tables
 * (2 x 1024 x 24 bytes, 48 KiB, a log asked for: 384 KiB for all eight,
 * allocated for the request and freed after it). A stream not made yet
 * is an empty log of the size it would be made with.
 * The request is served inside nslogd's one loop, so writers wait for it
 * in their socket: README.md has the numbers.
 *
 * The text (nslogd's own layout, in the spirit of logd's: logd's exact
 * one is not part of any client's parsing, logcat -S prints it as it is):
 *
 *	nslogd statistics, counted from the records stored now
 *	log       records       bytes   ring-size  overwritten
 *	main           12         800       65536            0
 *	...
 *	total          12         800
 *
 *	main: chattiest uids
 *	      uid     records       bytes
 *	    10057          10         700
 *	main: chattiest pids
 *	      pid         uid     records       bytes
 *	...
 *	not stored by nslogd: dropped 0 failed 0 crash 0 stats 0 security 0
 *
 * (failed: records nslogd could not store for any reason but a rate
 * limit; crash, stats, security: how many of them were of those logs)
 *
 * "bytes" are payload bytes; "overwritten" counts the records gone from
 * the ring (lapped or flushed) since the set began. With pid=N only that
 * pid's records are counted; a caller without log credentials gets the
 * counts of its own uid's records only, in every row and table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/nslogger.h>

#include "dgram.h"
#include "logstats.h"

struct stat_key {
	uint32_t key;		/* uid or pid */
	uint32_t uid;		/* for a pid: its writer's euid */
	uint64_t records;
	uint64_t bytes;
};

struct stat_table {
	struct stat_key *k;
	unsigned int n;
	uint64_t other_records, other_bytes;
};

struct log_count {
	uint64_t records, bytes;
	long ring_size;
	uint64_t overwritten;
	int err;		/* the log could not be read */
	struct stat_table uids, pids;
};

static const char *const log_names[NSLOGD_LOG_COUNT] = {
	"main", "radio", "events", "system", "crash", "stats", "security",
	"kernel",
};

/* A linear table: 1024 keys at most, searched from the end (recent first). */
static void table_add(struct stat_table *t, uint32_t key, uint32_t uid,
		      size_t bytes)
{
	unsigned int i;

	for (i = t->n; i-- > 0;) {
		if (t->k[i].key == key) {
			t->k[i].records++;
			t->k[i].bytes += bytes;
			return;
		}
	}
	if (t->n == NSLOGD_LOGSTATS_KEYS) {
		t->other_records++;
		t->other_bytes += bytes;
		return;
	}
	t->k[t->n++] = (struct stat_key){ key, uid, 1, bytes };
}

static int by_bytes(const void *a, const void *b)
{
	const struct stat_key *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* Count one log; the fd is a fresh reader up to @head. */
static void count_log(int fd, uint64_t head,
		      const struct nslogd_logstats_req *req,
		      struct log_count *c)
{
	unsigned char buf[NSLOG_ENTRY_MAX_LEN];
	const struct nslog_entry *e = (const void *)buf;
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < (ssize_t)sizeof(*e))
			break;		/* EAGAIN: read up to the head */
		if (e->seq >= head)
			break;		/* written after the request */
		if (!req->all_uids && e->euid != req->uid)
			continue;
		if (req->pid && e->pid != req->pid)
			continue;
		c->records++;
		c->bytes += e->len;
		table_add(&c->uids, e->euid, e->euid, e->len);
		table_add(&c->pids, (uint32_t)e->pid, e->euid, e->len);
	}
}

static void print_table(struct nslogd_reply *out, const char *log,
			struct stat_table *t, bool pids)
{
	unsigned int i, rows;

	if (!t->n)
		return;
	qsort(t->k, t->n, sizeof(*t->k), by_bytes);
	rows = t->n < NSLOGD_LOGSTATS_ROWS ? t->n : NSLOGD_LOGSTATS_ROWS;
	nslogd_reply_printf(out, "\n%s: chattiest %s\n", log,
			    pids ? "pids" : "uids");
	nslogd_reply_printf(out, pids ? "%9s %11s %11s %11s\n" :
			    "%9s %11s %11s%s\n", pids ? "pid" : "uid",
			    pids ? "uid" : "records", pids ? "records" : "bytes",
			    pids ? "bytes" : "");
	for (i = 0; i < rows; i++) {
		if (pids)
			nslogd_reply_printf(out, "%9u %11u %11llu %11llu\n",
				t->k[i].key, t->k[i].uid,
				(unsigned long long)t->k[i].records,
				(unsigned long long)t->k[i].bytes);
		else
			nslogd_reply_printf(out, "%9u %11llu %11llu\n",
				t->k[i].key,
				(unsigned long long)t->k[i].records,
				(unsigned long long)t->k[i].bytes);
	}
	for (; i < t->n; i++) {
		t->other_records += t->k[i].records;
		t->other_bytes += t->k[i].bytes;
	}
	if (t->other_records)
		nslogd_reply_printf(out, pids ? "%9s %11s %11llu %11llu\n" :
				    "%9s%s %11llu %11llu\n", "other", "",
				    (unsigned long long)t->other_records,
				    (unsigned long long)t->other_bytes);
}

/**
 * nslogd_logstats() - getStatistics' body, counted now
 * @rc: the ring control
 * @req: which logs, which pid, whose records
 * @extra: nslogd's own counts of records it did not store
 * @out: the reply, its body written here (not yet framed)
 *
 * A log that cannot be read is shown with the error instead of counts.
 *
 * Context: process; reads every stored record of the logs asked for.
 * Return: 0, or -ENOMEM (nothing written).
 */
int nslogd_logstats(const struct nslogd_ringctl *rc,
		    const struct nslogd_logstats_req *req,
		    const struct nslogd_logstats_extra *extra,
		    struct nslogd_reply *out)
{
	struct log_count *c;
	struct stat_key *keys;
	uint64_t head, tail, tot_records = 0, tot_bytes = 0;
	unsigned int i, n = 0;
	int fd;

	for (i = 0; i < NSLOGD_LOG_COUNT; i++)
		n += !!(req->logs & (1u << i));
	keys = calloc(n * 2 * NSLOGD_LOGSTATS_KEYS + 1, sizeof(*keys));
	c = calloc(NSLOGD_LOG_COUNT, sizeof(*c));
	if (!keys || !c) {
		free(keys);
		free(c);
		return -ENOMEM;
	}

	for (i = 0, n = 0; i < NSLOGD_LOG_COUNT; i++) {
		if (!(req->logs & (1u << i)))
			continue;
		c[i].uids.k = keys + 2 * n++ * NSLOGD_LOGSTATS_KEYS;
		c[i].pids.k = c[i].uids.k + NSLOGD_LOGSTATS_KEYS;
		c[i].ring_size = nslogd_ringctl_size(rc, i);
		if (c[i].ring_size < 0) {
			c[i].err = (int)-c[i].ring_size;
			continue;
		}
		fd = nslogd_ringctl_reader(rc, i, &head, &tail);
		if (fd == -ENOENT && nslogd_stream_name(i))
			continue;	/* not made yet: empty */
		if (fd < 0) {
			c[i].err = -fd;
			continue;
		}
		c[i].overwritten = tail;
		count_log(fd, head, req, &c[i]);
		close(fd);
		tot_records += c[i].records;
		tot_bytes += c[i].bytes;
	}

	nslogd_reply_printf(out,
		"nslogd statistics, counted from the records stored now%s\n",
		req->all_uids ? "" : " (your uid's only)");
	nslogd_reply_printf(out, "%-9s %11s %11s %11s %12s\n", "log",
			    "records", "bytes", "ring-size", "overwritten");
	for (i = 0; i < NSLOGD_LOG_COUNT; i++) {
		if (!(req->logs & (1u << i)))
			continue;
		if (c[i].err)
			nslogd_reply_printf(out, "%-9s %s\n", log_names[i],
					    strerror(c[i].err));
		else
			nslogd_reply_printf(out,
				"%-9s %11llu %11llu %11ld %12llu\n",
				log_names[i], (unsigned long long)c[i].records,
				(unsigned long long)c[i].bytes, c[i].ring_size,
				(unsigned long long)c[i].overwritten);
	}
	nslogd_reply_printf(out, "%-9s %11llu %11llu\n", "total",
			    (unsigned long long)tot_records,
			    (unsigned long long)tot_bytes);
	for (i = 0; i < NSLOGD_LOG_COUNT; i++) {
		if (!(req->logs & (1u << i)) || c[i].err)
			continue;
		print_table(out, log_names[i], &c[i].uids, false);
		print_table(out, log_names[i], &c[i].pids, true);
	}
	if (extra)
		nslogd_reply_printf(out,
			"\nnot stored by nslogd: dropped %llu failed %llu "
			"crash %llu stats %llu security %llu\n",
			(unsigned long long)extra->dropped,
			(unsigned long long)extra->failed,
			(unsigned long long)extra->not_stored[4],
			(unsigned long long)extra->not_stored[5],
			(unsigned long long)extra->not_stored[6]);
	free(keys);
	free(c);
	return 0;
}
