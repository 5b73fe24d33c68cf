// SPDX-License-Identifier: GPL-2.0
/*
 * merge: a reader's logs in write order.
 *
 * Each log keeps one record read ahead; the next record handed out is the
 * one of least @order among them. A log with nothing to read (-EAGAIN)
 * may get a record later, so the merge must know it would not have an
 * older one than the record it is about to hand out. The kernel takes
 * @order when it publishes a record, so a record of less order than one
 * already read was published before that one was read: a log found empty
 * *after* the candidate was read cannot get one. Every read is dated with
 * the merge's clock, and a log found empty before the candidate was read
 * is read again first. (The kernel takes @order under the log's lock and
 * publishes just after, so two logs' records written at the same instant
 * can still cross; the same holds for every reader of the set.)
 *
 * Memory: one record buffer per log (NSLOG_ENTRY_MAX_LEN), allocated when
 * the log is added, whatever the backlog; the backlog stays in the ring.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "merge.h"

/* Reads of things that are not one whole record, skipped in a row. */
#define MERGE_BAD_MAX		16
/* Rounds of reading drained logs again before a record is handed out. */
#define MERGE_RECHECK_MAX	4

/**
 * nslogd_merge_init() - a merge of no logs yet
 * @m: the merge
 * @ops: the kernel's operations
 *
 * Context: any.
 */
void nslogd_merge_init(struct nslogd_merge *m, const struct nslogd_rdops *ops)
{
	memset(m, 0, sizeof(*m));
	m->ops = ops;
}

/**
 * nslogd_merge_add() - add a log
 * @m: the merge
 * @log_id: which log, Android's id
 * @fd: its read fd, from @m->ops->open(); the merge owns it from now on,
 *	also on failure
 *
 * Context: process; allocates the log's record buffer.
 * Return: 0, -ENOSPC (NSLOGD_MERGE_LOGS already) or -ENOMEM.
 */
int nslogd_merge_add(struct nslogd_merge *m, unsigned int log_id, int fd)
{
	struct nslogd_msrc *s;

	if (m->n >= NSLOGD_MERGE_LOGS) {
		m->ops->close(m->ops->ctx, fd);
		return -ENOSPC;
	}
	s = &m->src[m->n];
	memset(s, 0, sizeof(*s));
	s->buf = malloc(NSLOG_ENTRY_MAX_LEN);
	if (!s->buf) {
		m->ops->close(m->ops->ctx, fd);
		return -ENOMEM;
	}
	s->fd = fd;
	s->log_id = log_id;
	s->stop_seq = NSLOGD_MERGE_NO_STOP;
	m->n++;
	return 0;
}

/**
 * nslogd_merge_fill() - read the next record of a log ahead
 * @m: the merge
 * @s: one of its logs, not done
 *
 * A read that is not one whole record (which the kernel never gives) is
 * skipped and counted in @m->bad; MERGE_BAD_MAX of them in a row end the
 * log with -EIO.
 *
 * Context: process; one or more non-blocking reads.
 */
void nslogd_merge_fill(struct nslogd_merge *m, struct nslogd_msrc *s)
{
	unsigned int bad;
	ssize_t n;

	for (bad = 0; bad < MERGE_BAD_MAX; bad++) {
		n = m->ops->read(m->ops->ctx, s->fd, s->buf,
				 NSLOG_ENTRY_MAX_LEN);
		s->tick = ++m->clock;
		if (n == -EAGAIN) {
			s->state = s->stop_drained ? NSLOGD_MSRC_DONE :
						     NSLOGD_MSRC_DRAINED;
			return;
		}
		if (n <= 0) {
			s->state = NSLOGD_MSRC_DONE;	/* 0: the set is gone */
			s->err = (int)-n;
			return;
		}
		if (!nslogd_frame_check(s->buf, (size_t)n, &s->hdr)) {
			m->bad++;
			continue;
		}
		/*
		 * A stream's records carry the stream's own id (8 and up):
		 * readers are told Android's, the one they asked for.
		 */
		s->hdr.log_id = s->log_id;
		m->lost += s->hdr.lost;
		if (s->hdr.seq >= s->stop_seq) {
			s->state = NSLOGD_MSRC_DONE;
			return;
		}
		s->n = (size_t)n;
		s->state = NSLOGD_MSRC_HAVE;
		return;
	}
	s->state = NSLOGD_MSRC_DONE;
	s->err = EIO;
}

static struct nslogd_msrc *merge_least(struct nslogd_merge *m)
{
	struct nslogd_msrc *best = NULL;
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		struct nslogd_msrc *s = &m->src[i];

		if (s->state == NSLOGD_MSRC_HAVE &&
		    (!best || s->hdr.order < best->hdr.order))
			best = s;
	}
	return best;
}

/**
 * nslogd_merge_next() - the next record in the set's order
 * @m: the merge
 * @out: set to the log holding it (its @hdr, @buf and @n); the caller
 *	calls nslogd_merge_consume() on it once used
 *
 * Context: process; non-blocking reads.
 * Return: NSLOGD_MERGE_REC; NSLOGD_MERGE_WAIT when a log that is drained
 * may still get an older record than any read ahead (or none is read
 * ahead), so the caller waits for a drained log's fd; NSLOGD_MERGE_END
 * when every log is done.
 */
enum nslogd_merge_ret nslogd_merge_next(struct nslogd_merge *m,
					struct nslogd_msrc **out)
{
	struct nslogd_msrc *best;
	unsigned int i, round;
	bool open = false;

	for (i = 0; i < m->n; i++)
		if (m->src[i].state == NSLOGD_MSRC_EMPTY)
			nslogd_merge_fill(m, &m->src[i]);
	best = merge_least(m);
	for (round = 0; best && round < MERGE_RECHECK_MAX; round++) {
		bool again = false;

		for (i = 0; i < m->n; i++) {
			struct nslogd_msrc *s = &m->src[i];

			if (s->state == NSLOGD_MSRC_DRAINED &&
			    s->tick < best->tick) {
				nslogd_merge_fill(m, s);
				again = true;
			}
		}
		if (!again)
			break;
		best = merge_least(m);
	}
	if (best) {
		*out = best;
		return NSLOGD_MERGE_REC;
	}
	for (i = 0; i < m->n; i++)
		if (m->src[i].state != NSLOGD_MSRC_DONE)
			open = true;
	return open ? NSLOGD_MERGE_WAIT : NSLOGD_MERGE_END;
}

/**
 * nslogd_merge_free() - close the logs and free their buffers
 * @m: the merge; empty afterwards
 *
 * Context: process.
 */
void nslogd_merge_free(struct nslogd_merge *m)
{
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		m->ops->close(m->ops->ctx, m->src[i].fd);
		free(m->src[i].buf);
	}
	m->n = 0;
}
