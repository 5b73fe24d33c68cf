// SPDX-License-Identifier: GPL-2.0
/*
 * stats: every datagram is counted once, by the first check it failed or
 * by what the store made of it, so that received = the refused + the
 * accepted, and the accepted = the sum of the store's results. The first
 * datagram of each kind refused, and the first record of each kind not
 * stored, is told on stderr; later ones are only counted, so a writer that
 * misbehaves in a loop cannot flood anything.
 */
#include <stdio.h>
#include <string.h>

#include "stats.h"

/**
 * nslogd_stats_refused() - count a datagram the checks refused, or accepted
 * @st: the counters
 * @v: the verdict of nslogd_dgram_parse()
 * @pid: the sender's pid, 0 if it sent no credentials
 *
 * Context: any; writes to stderr the first time a verdict is counted.
 */
void nslogd_stats_refused(struct nslogd_stats *st, enum nslogd_verdict v,
			  pid_t pid)
{
	st->received++;
	if ((unsigned int)v >= NSLOGD_DGRAM_VERDICTS)
		return;
	st->refused[v]++;
	if (v == NSLOGD_DGRAM_OK || (st->told_verdicts & (1u << v)))
		return;
	st->told_verdicts |= 1u << v;
	fprintf(stderr,
		"nslogd: refused a datagram (%s) from pid %d; such datagrams are only counted from now on\n",
		nslogd_verdict_name(v), (int)pid);
}

/**
 * nslogd_stats_result() - count what the store made of an accepted record
 * @st: the counters
 * @log_id: the record's log
 * @r: nslogd_store_put()'s result
 * @err: its errno, for NSLOGD_STORE_NO_LOG and NSLOGD_STORE_FAILED
 *
 * Context: any; writes to stderr the first time a result other than
 * stored or dropped is counted (a rate limit's drops are the kernel's to
 * report, and it does).
 */
void nslogd_stats_result(struct nslogd_stats *st, unsigned int log_id,
			 enum nslogd_store_result r, int err)
{
	if ((unsigned int)r >= NSLOGD_STORE_RESULTS ||
	    log_id >= NSLOGD_LOG_COUNT)
		return;
	st->result[r]++;
	if (r == NSLOGD_STORE_STORED)
		st->stored[log_id]++;
	else if (r != NSLOGD_STORE_DROPPED)
		st->unstored[log_id]++;
	if (r == NSLOGD_STORE_STORED || r == NSLOGD_STORE_DROPPED ||
	    (st->told_results & (1u << r)))
		return;
	st->told_results |= 1u << r;
	if (r == NSLOGD_STORE_NO_FILE_LOG)
		fprintf(stderr,
			"nslogd: a record of log %u not stored: the nslogger module cannot relay into a stream (no NSLOG_RELAY_FILE_LOG: older than this nslogd); crash, stats and security are only counted from now on\n",
			log_id);
	else
		fprintf(stderr,
			"nslogd: a record of log %u not stored (%s: %s); only counted from now on\n",
			log_id, nslogd_store_result_name(r), strerror(err));
}

/**
 * nslogd_stats_format() - the counters on one line
 * @st: the counters
 * @buf: where to write, NUL-terminated
 * @size: its size
 *
 * "received N accepted N stored N (main N radio N events N system N
 * crash N stats N security N) dropped N no-log N failed N no-file-log N
 * refused N (short N empty N ...) fds-closed N logd-closed N
 * logdr-closed N".
 *
 * Context: any.
 * Return: the length the whole line has (as snprintf()).
 */
size_t nslogd_stats_format(const struct nslogd_stats *st, char *buf,
			   size_t size)
{
	static const char *const logs[] = {
		"main", "radio", "events", "system", "crash", "stats",
		"security",
	};
	unsigned long long refused = 0;
	size_t n = 0;
	unsigned int i;

#define OUT(...) (n += (size_t)snprintf(buf + (n < size ? n : size), \
					n < size ? size - n : 0, __VA_ARGS__))
	for (i = 1; i < NSLOGD_DGRAM_VERDICTS; i++)
		refused += st->refused[i];
	OUT("received %llu accepted %llu stored %llu (",
	    (unsigned long long)st->received,
	    (unsigned long long)st->refused[NSLOGD_DGRAM_OK],
	    (unsigned long long)st->result[NSLOGD_STORE_STORED]);
	for (i = 0; i < NSLOGD_STORE_LOGS; i++)
		OUT("%s%s %llu", i ? " " : "", logs[i],
		    (unsigned long long)st->stored[i]);
	OUT(") dropped %llu no-log %llu failed %llu no-file-log %llu refused %llu (",
	    (unsigned long long)st->result[NSLOGD_STORE_DROPPED],
	    (unsigned long long)st->result[NSLOGD_STORE_NO_LOG],
	    (unsigned long long)st->result[NSLOGD_STORE_FAILED],
	    (unsigned long long)st->result[NSLOGD_STORE_NO_FILE_LOG], refused);
	for (i = 1; i < NSLOGD_DGRAM_VERDICTS; i++)
		OUT("%s%s %llu", i > 1 ? " " : "", nslogd_verdict_name(i),
		    (unsigned long long)st->refused[i]);
	OUT(") fds-closed %llu logd-closed %llu logdr-closed %llu",
	    (unsigned long long)st->fds_closed,
	    (unsigned long long)st->conns_closed[0],
	    (unsigned long long)st->conns_closed[1]);
#undef OUT
	return n;
}
