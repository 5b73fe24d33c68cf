// SPDX-License-Identifier: GPL-2.0
/*
 * klog: Android's kernel log (id 7), as a container's own.
 *
 * logd's klogd fills the kernel log from /proc/kmsg: in a container that
 * is the host's kernel ring, every other container's and the host's
 * messages included. nslogd never reads /proc/kmsg or /dev/kmsg, and no
 * writer may send to the kernel log (dgram.c refuses id 7). What the
 * container's kernel log holds is what nslogd itself reports, tag
 * "nslogd", written with plain write() on the "kernel" stream (so the
 * kernel stamps nslogd's own pid and uid): its start, its stop, and at
 * most once every NSLOGD_KLOG_GAP_NS what it refused, dropped or could
 * not store since it last said so. The counts are nslogd's own
 * (stats.c); the rate limits' drops the kernel itself reports in the log
 * each record was for.
 *
 * The stream is made by the first line (streams.c), after nslogd has
 * become the user it runs as, and is looked for again, at most once a
 * second, if it was removed. A line that cannot be written is counted
 * (@unwritten), never retried.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "klog.h"

/**
 * nslogd_klog_init() - a kernel log with nothing written yet
 * @k: the kernel log
 * @streams: where its stream is; NULL for nowhere (lines are counted as
 *	unwritten)
 *
 * Context: any.
 */
void nslogd_klog_init(struct nslogd_klog *k, struct nslogd_streams *streams)
{
	memset(k, 0, sizeof(*k));
	k->streams = streams;
	k->fd = -1;
}

static bool klog_open(struct nslogd_klog *k, int64_t now_ns)
{
	if (k->fd >= 0 && now_ns >= k->next_check_ns) {
		k->next_check_ns = now_ns + NSLOGD_KLOG_GAP_NS;
		if (nslogd_streams_stale(k->streams, NSLOGD_LOG_KERNEL, k->fd)) {
			close(k->fd);
			k->fd = -1;
		}
	}
	if (k->fd >= 0)
		return true;
	if (!k->streams)
		return false;
	k->fd = nslogd_streams_open(k->streams, NSLOGD_LOG_KERNEL, O_WRONLY,
				    true);
	k->next_check_ns = now_ns + NSLOGD_KLOG_GAP_NS;
	return k->fd >= 0;
}

/* One record: [prio][tag\0][text\0], as Android's text logs hold them. */
static void klog_write(struct nslogd_klog *k, int prio, int64_t now_ns,
		       const char *text)
{
	char rec[1 + sizeof(NSLOGD_KLOG_TAG) + NSLOGD_KLOG_LINE];
	size_t tlen = strnlen(text, NSLOGD_KLOG_LINE - 1);
	size_t n = 0;
	ssize_t w;

	rec[n++] = (char)prio;
	memcpy(rec + n, NSLOGD_KLOG_TAG, sizeof(NSLOGD_KLOG_TAG));
	n += sizeof(NSLOGD_KLOG_TAG);
	memcpy(rec + n, text, tlen);
	n += tlen;
	rec[n++] = '\0';
	if (!klog_open(k, now_ns)) {
		k->unwritten++;
		return;
	}
	do
		w = write(k->fd, rec, n);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		k->unwritten++;
	else
		k->lines++;
}

/**
 * nslogd_klog_say() - write one line now
 * @k: the kernel log
 * @prio: NSLOGD_PRIO_INFO or NSLOGD_PRIO_WARN
 * @now_ns: CLOCK_MONOTONIC now
 * @fmt: printf's, for the text; cut at NSLOGD_KLOG_LINE - 1 bytes
 *
 * For the events told once (the start and the stop): not held to the
 * counts' pace.
 *
 * Context: process; one write(), which does not block (a rate limit
 * drops).
 */
void nslogd_klog_say(struct nslogd_klog *k, int prio, int64_t now_ns,
		     const char *fmt, ...)
{
	char text[NSLOGD_KLOG_LINE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	klog_write(k, prio, now_ns, text);
}

/**
 * nslogd_klog_tick() - tell the counts that grew, if it is time
 * @k: the kernel log
 * @st: nslogd's counters
 * @now_ns: CLOCK_MONOTONIC now
 *
 * One line ("since the last report: refused 3 datagrams (short 2,
 * kernel-id 1), dropped 5 records (rate limits), not stored 1") when any
 * of them grew and the last such line is NSLOGD_KLOG_GAP_NS old.
 *
 * Context: process; at most one write().
 * Return: nanoseconds until a line is due (something grew, too soon to
 * tell), or -1 when nothing waits to be told.
 */
int64_t nslogd_klog_tick(struct nslogd_klog *k, const struct nslogd_stats *st,
			 int64_t now_ns)
{
	char text[NSLOGD_KLOG_LINE], *p = text, *end = text + sizeof(text);
	uint64_t refused = 0, dropped, unstored, d;
	unsigned int v;
	bool first = true;

	dropped = st->result[NSLOGD_STORE_DROPPED];
	unstored = st->result[NSLOGD_STORE_NO_LOG] +
		   st->result[NSLOGD_STORE_FAILED] +
		   st->result[NSLOGD_STORE_NO_FILE_LOG];
	for (v = 1; v < NSLOGD_DGRAM_VERDICTS; v++)
		refused += st->refused[v] - k->refused[v];
	if (!refused && dropped == k->dropped && unstored == k->unstored)
		return -1;
	if (now_ns < k->next_ns)
		return k->next_ns - now_ns;

#define PUT(...) (p += snprintf(p, (size_t)(end - p), __VA_ARGS__), \
		  p = p < end ? p : end - 1)
	PUT("since the last report:");
	if (refused) {
		PUT(" refused %llu datagram%s (", (unsigned long long)refused,
		    refused == 1 ? "" : "s");
		for (v = 1; v < NSLOGD_DGRAM_VERDICTS; v++) {
			d = st->refused[v] - k->refused[v];
			if (!d)
				continue;
			PUT("%s%s %llu", first ? "" : ", ",
			    nslogd_verdict_name(v), (unsigned long long)d);
			first = false;
		}
		PUT(")");
	}
	if (dropped != k->dropped)
		PUT("%s dropped %llu record%s (rate limits)", refused ? "," : "",
		    (unsigned long long)(dropped - k->dropped),
		    dropped - k->dropped == 1 ? "" : "s");
	if (unstored != k->unstored)
		PUT("%s not stored %llu",
		    refused || dropped != k->dropped ? "," : "",
		    (unsigned long long)(unstored - k->unstored));
#undef PUT
	klog_write(k, NSLOGD_PRIO_WARN, now_ns, text);
	memcpy(k->refused, st->refused, sizeof(k->refused));
	k->dropped = dropped;
	k->unstored = unstored;
	k->next_ns = now_ns + NSLOGD_KLOG_GAP_NS;
	return -1;
}

/**
 * nslogd_klog_close() - close the kernel stream
 * @k: the kernel log
 *
 * Context: process.
 */
void nslogd_klog_close(struct nslogd_klog *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}
