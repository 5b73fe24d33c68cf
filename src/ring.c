// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: the record ring.
 */

/**
 * DOC: the record ring
 *
 * Each log is one byte ring whose size is a power of two.  Records are laid
 * down one after another: a fixed struct nslog_rec header, the payload, and
 * padding to the next 8-byte boundary.  A record may wrap the end of the
 * ring at any byte, header included; the copy helpers split it in two.
 *
 * Positions are 64-bit byte counts since the ring was made and never wrap;
 * the offset in the buffer is the position masked with size - 1.  The ring
 * keeps two positions, @tail (oldest stored record) and @head (where the
 * next one goes), and the sequence numbers of the records there.  Bytes in
 * [tail, head) are valid records; head - tail never exceeds the size.
 *
 * A writer that needs more room than head - tail leaves drops records at
 * the tail, oldest first, until the new one fits.  That is all it does: it
 * never looks at readers.  A reader keeps its own cursor (position and
 * sequence number) and notices for itself that it was lapped when its
 * position is below @tail; it then continues at @tail and learns how many
 * records it lost from the sequence numbers.  A flush is the same as
 * dropping every record, so readers find out about it the same way.  So a
 * write costs the same with no reader or with a thousand.
 *
 * Locking: one spinlock per ring serialises writers, flushes and the copy of
 * one record out to a reader's kernel buffer.  Readers copy to user space
 * only after dropping the lock, from their own buffer, so no page fault
 * happens under it and a hostile reader cannot hold a writer up for longer
 * than the copy of one record.  Writers copy from user space straight into
 * the ring, under the lock with page faults disabled, after faulting the
 * buffer in (see nslog_log_write()): a record is reserved past the head,
 * filled, and only then published, so a fault never leaves a half-written
 * record behind, and a bad buffer is refused before the ring is touched.
 *
 * Why a lock and not a lockless reader: records hold counted references on
 * the writer's struct pid (so that a reader in any pid namespace can be shown
 * the number it knows, long after the writer exited).  A record that drops
 * off the tail gives its references back at once, so a reader must not look
 * at a record's pointers unless it excludes writers from the tail it reads.
 * The hold time is bounded by one record copy and, for a reader that may
 * see only its own records, by NSLOG_RING_SCAN_BUDGET skipped headers.
 *
 * Resizing: positions do not depend on the size, so a resize moves the
 * bytes of [tail, head) to new storage, each to its position masked with
 * the new size, after dropping from the tail what does not fit.  Cursors
 * stay valid as they are; those now below the tail were lapped.  The move
 * is the one long hold of the lock, bounded by the largest size the host
 * lets the log's owner choose (nslog_log_resize()).
 */

#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "ring.h"

/* Headers a reader may skip per lock hold before it lets writers in. */
#define NSLOG_RING_SCAN_BUDGET	64

static u32 nslog_ring_off(const struct nslog_ring *ring, u64 pos)
{
	return pos & (ring->size - 1);
}

static void nslog_ring_copy_in(struct nslog_ring *ring, u64 pos,
			       const void *src, u32 len)
{
	u32 off = nslog_ring_off(ring, pos);
	u32 first = min(len, ring->size - off);

	memcpy(ring->buf + off, src, first);
	memcpy(ring->buf, src + first, len - first);
}

static void nslog_ring_copy_out(const struct nslog_ring *ring, u64 pos,
				void *dst, u32 len)
{
	u32 off = nslog_ring_off(ring, pos);
	u32 first = min(len, ring->size - off);

	memcpy(dst, ring->buf + off, first);
	memcpy(dst + first, ring->buf, len - first);
}

/*
 * A header is copied as a whole struct, not with memcpy(), unless it wraps
 * the end of the ring: records start 8-byte aligned, so in the common case
 * it is a few aligned moves.
 */
static void nslog_ring_hdr_in(struct nslog_ring *ring, u64 pos,
			      const struct nslog_rec *rec)
{
	u32 off = nslog_ring_off(ring, pos);

	if (likely(off + sizeof(*rec) <= ring->size))
		*(struct nslog_rec *)(ring->buf + off) = *rec;
	else
		nslog_ring_copy_in(ring, pos, rec, sizeof(*rec));
}

static void nslog_ring_hdr_out(const struct nslog_ring *ring, u64 pos,
			       struct nslog_rec *rec)
{
	u32 off = nslog_ring_off(ring, pos);

	if (likely(off + sizeof(*rec) <= ring->size))
		*rec = *(const struct nslog_rec *)(ring->buf + off);
	else
		nslog_ring_copy_out(ring, pos, rec, sizeof(*rec));
}

/* Drop the record at the tail.  Called with the lock held, tail < head. */
static void nslog_ring_drop_oldest(struct nslog_ring *ring)
{
	struct nslog_rec rec;

	lockdep_assert_held(&ring->lock);
	nslog_ring_hdr_out(ring, ring->tail, &rec);
	put_pid(rec.tgid);
	put_pid(rec.tid);
	WRITE_ONCE(ring->tail, ring->tail + nslog_ring_rec_size(rec.len));
	ring->tail_seq++;
}

/**
 * nslog_ring_init() - set up an empty ring with no storage yet
 * @ring: the ring
 * @size: its size in bytes, a power of two between NSLOG_RING_MIN_SIZE and
 *	NSLOG_RING_MAX_SIZE (the caller validates it)
 * @order: the counter of the log set's order numbers, which outlives the
 *	ring
 *
 * Context: any; the ring is not yet visible to others.
 */
void nslog_ring_init(struct nslog_ring *ring, u32 size, atomic64_t *order)
{
	ring->order = order;
	spin_lock_init(&ring->lock);
	ring->buf = NULL;
	ring->size = size;
	ring->head = 0;
	ring->tail = 0;
	ring->head_seq = 0;
	ring->tail_seq = 0;
}

/**
 * nslog_ring_cursor_init() - place a new reader at the oldest record
 * @ring: the ring
 * @cur: the reader's cursor
 *
 * Records dropped before the reader came are not its loss.
 *
 * Context: any context that may take a spinlock; takes the ring lock.
 */
void nslog_ring_cursor_init(struct nslog_ring *ring,
			    struct nslog_ring_cursor *cur)
{
	spin_lock(&ring->lock);
	cur->pos = ring->tail;
	cur->seq = ring->tail_seq;
	cur->lost = 0;
	spin_unlock(&ring->lock);
}

/**
 * nslog_ring_attach() - give a ring its storage
 * @ring: the ring
 * @buf: @ring->size bytes
 *
 * Two first writers may race to attach; one wins and the other frees its
 * buffer.
 *
 * Context: process context; takes the ring lock.
 * Return: true if @buf is now the ring's storage, false if the ring already
 * had one (the caller still owns @buf).
 */
bool nslog_ring_attach(struct nslog_ring *ring, u8 *buf)
{
	bool attached = false;

	spin_lock(&ring->lock);
	if (!ring->buf) {
		ring->buf = buf;
		attached = true;
	}
	spin_unlock(&ring->lock);
	return attached;
}

/**
 * nslog_ring_release() - drop every record and take the storage back
 * @ring: the ring, which nobody else may use any more
 *
 * Context: process context.
 * Return: the storage, for the caller to free, or NULL if none was attached.
 */
u8 *nslog_ring_release(struct nslog_ring *ring)
{
	u8 *buf;

	nslog_ring_flush(ring);
	spin_lock(&ring->lock);
	buf = ring->buf;
	ring->buf = NULL;
	spin_unlock(&ring->lock);
	return buf;
}

/**
 * nslog_ring_reserve() - make room for one record and lock the ring
 * @ring: the ring, with storage attached
 * @len: the record's payload length
 * @span: set to where the payload goes: @span->len[0] bytes at
 *	@span->buf[0], then the rest (@span->len[1], 0 unless the payload
 *	wraps the end of the ring) at @span->buf[1]
 *
 * Drops the oldest records until the new one fits.  The ring stays locked
 * until nslog_ring_commit() publishes the record or nslog_ring_abort() gives
 * up on it; in between, the caller fills @span and must not sleep.  Readers
 * see nothing of the record before the commit: it lies past the head.  The
 * cost does not depend on how many readers the ring has: lapped readers find
 * out for themselves.
 *
 * Context: any context that may take a spinlock; takes the ring lock.
 */
void nslog_ring_reserve(struct nslog_ring *ring, u16 len,
			struct nslog_ring_span *span)
	__acquires(&ring->lock)
{
	u32 need = nslog_ring_rec_size(len);
	u32 off;

	spin_lock(&ring->lock);
	while (ring->head + need - ring->tail > ring->size)
		nslog_ring_drop_oldest(ring);
	off = nslog_ring_off(ring, ring->head + sizeof(struct nslog_rec));
	span->buf[0] = ring->buf + off;
	span->len[0] = min_t(u32, len, ring->size - off);
	span->buf[1] = ring->buf;
	span->len[1] = len - span->len[0];
}

/**
 * nslog_ring_commit() - publish the record reserved last, and unlock
 * @ring: the ring, locked by nslog_ring_reserve()
 * @rec: the header; @rec->len must be the length reserved.  The ring takes
 *	over the references in @rec->tgid and @rec->tid and sets @rec->order.
 *
 * Context: holding the ring lock; releases it.
 */
void nslog_ring_commit(struct nslog_ring *ring, struct nslog_rec *rec)
	__releases(&ring->lock)
{
	lockdep_assert_held(&ring->lock);
	/*
	 * Under the ring lock, so a ring's order numbers grow in its own
	 * order; the counter, shared with the set's other rings, orders them.
	 */
	rec->order = atomic64_fetch_inc(ring->order);
	ring->head_seq++;
	nslog_ring_hdr_in(ring, ring->head, rec);
	/* Read locklessly by nslog_ring_has_new(); the unlock orders it. */
	WRITE_ONCE(ring->head, ring->head + nslog_ring_rec_size(rec->len));
	spin_unlock(&ring->lock);
}

/**
 * nslog_ring_abort() - give up on the record reserved last, and unlock
 * @ring: the ring, locked by nslog_ring_reserve()
 *
 * Nothing becomes visible.  Records dropped to make room stay dropped:
 * readers count them as lost, as for any other drop.
 *
 * Context: holding the ring lock; releases it.
 */
void nslog_ring_abort(struct nslog_ring *ring)
	__releases(&ring->lock)
{
	lockdep_assert_held(&ring->lock);
	spin_unlock(&ring->lock);
}

/**
 * nslog_ring_write() - append one record from kernel memory
 * @ring: the ring, with storage attached
 * @rec: the header, as for nslog_ring_commit()
 * @payload: @rec->len bytes of payload
 *
 * Context: any context that may take a spinlock; takes the ring lock.
 */
void nslog_ring_write(struct nslog_ring *ring, struct nslog_rec *rec,
		      const void *payload)
{
	struct nslog_ring_span span;

	nslog_ring_reserve(ring, rec->len, &span);
	memcpy(span.buf[0], payload, span.len[0]);
	memcpy(span.buf[1], payload + span.len[0], span.len[1]);
	nslog_ring_commit(ring, rec);
}

static bool nslog_ring_visible(const struct nslog_rec *rec,
			       const struct nslog_ring_filter *filter)
{
	return filter->all || uid_eq(rec->euid, filter->euid);
}

/*
 * The view of a relayed record (NSLOG_REC_RELAY): the claims kept before
 * its payload, the relay from the tid slot, and for a writer already gone
 * the pid the relay named, which only the relay's own pid namespace can
 * show.  Called with the lock held, @rec read from @pos.
 */
static void nslog_ring_relay_view(const struct nslog_ring *ring, u64 pos,
				  const struct nslog_rec *rec,
				  const struct nslog_ring_filter *filter,
				  struct nslog_rec_view *view)
{
	struct nslog_rec_relay rel;

	nslog_ring_copy_out(ring, pos + sizeof(*rec), &rel, sizeof(rel));
	view->ts_ns = rel.claim_ns;
	view->tid = rel.claim_tid;
	view->len = rec->len - sizeof(rel);
	if (!filter->pid_ns)
		return;
	view->relay_pid = pid_nr_ns(rec->tid, filter->pid_ns);
	if ((rec->flags & NSLOG_REC_UNVERIFIED) && rec->tid &&
	    ns_of_pid(rec->tid) == filter->pid_ns)
		view->pid = rel.claim_pid;
}

/**
 * nslog_ring_peek() - find the next record a reader may see, and copy it
 * @ring: the ring
 * @cur: the reader's cursor; not changed
 * @filter: what the reader may see and how pids are shown to it
 * @view: filled in with the record's header as this reader sees it
 * @payload: if not NULL, receives the payload (LOGGER_ENTRY_MAX_PAYLOAD
 *	bytes of room)
 * @next: set to the cursor just after the record found; or, when there is
 *	none, to the head, past every record the reader may not see
 *
 * The caller consumes the record by copying @next into @cur once it has
 * delivered it; if delivery fails the record stays unread.  When nothing is
 * found, copying @next into @cur is always safe and saves the next call from
 * skipping the same invisible records again.
 *
 * Context: process context, may sleep; takes the ring lock.
 * Return: 0 if a record was found, -EAGAIN if none is pending.
 */
int nslog_ring_peek(struct nslog_ring *ring, struct nslog_ring_cursor *cur,
		    const struct nslog_ring_filter *filter,
		    struct nslog_rec_view *view, void *payload,
		    struct nslog_ring_cursor *next)
{
	struct nslog_ring_cursor pos = *cur;
	struct nslog_rec rec;
	unsigned int budget;
	u64 lost = cur->lost;
	u32 skip;

	spin_lock(&ring->lock);
	for (;;) {
		if (pos.pos < ring->tail) {
			lost += ring->tail_seq - pos.seq;
			pos.pos = ring->tail;
			pos.seq = ring->tail_seq;
		}
		for (budget = NSLOG_RING_SCAN_BUDGET; budget; budget--) {
			if (pos.pos == ring->head) {
				spin_unlock(&ring->lock);
				/* A loss not reported yet waits in the cursor. */
				pos.lost = lost;
				*next = pos;
				return -EAGAIN;
			}
			nslog_ring_hdr_out(ring, pos.pos, &rec);
			if (nslog_ring_visible(&rec, filter))
				goto found;
			pos.pos += nslog_ring_rec_size(rec.len);
			pos.seq++;
		}
		/* Long run of records this reader may not see: let writers in. */
		spin_unlock(&ring->lock);
		cond_resched();
		spin_lock(&ring->lock);
	}

found:
	view->seq = pos.seq;
	view->order = rec.order;
	view->ts_ns = rec.ts_ns;
	view->stored_ns = rec.ts_ns;
	view->pid = filter->pid_ns ? pid_nr_ns(rec.tgid, filter->pid_ns) : 0;
	view->euid = rec.euid;
	view->len = rec.len;
	view->flags = rec.flags;
	view->lost = lost;
	view->relay_pid = 0;
	skip = 0;
	if (unlikely(rec.flags & NSLOG_REC_RELAY)) {
		nslog_ring_relay_view(ring, pos.pos, &rec, filter, view);
		skip = sizeof(struct nslog_rec_relay);
	} else {
		/* No tid reference: the writer was its thread group's leader. */
		view->tid = rec.tid && filter->pid_ns ?
			    pid_nr_ns(rec.tid, filter->pid_ns) : view->pid;
	}
	if (payload)
		nslog_ring_copy_out(ring, pos.pos + sizeof(rec) + skip, payload,
				    view->len);
	spin_unlock(&ring->lock);
	next->pos = pos.pos + nslog_ring_rec_size(rec.len);
	next->seq = pos.seq + 1;
	next->lost = 0;
	return 0;
}

/**
 * nslog_ring_unread() - bytes of records at or after a cursor
 * @ring: the ring
 * @cur: the reader's cursor
 *
 * Counts ring bytes (headers as stored, and padding) of every record not yet
 * read, including records the reader may not be allowed to see.
 *
 * Context: any context that may take a spinlock; takes the ring lock.
 * Return: the byte count, at most the ring size.
 */
u64 nslog_ring_unread(struct nslog_ring *ring,
		      const struct nslog_ring_cursor *cur)
{
	u64 bytes;

	spin_lock(&ring->lock);
	bytes = ring->head - max(cur->pos, ring->tail);
	spin_unlock(&ring->lock);
	return bytes;
}

/**
 * nslog_ring_seek() - find where a reader at a sequence number would be
 * @ring: the ring
 * @cur: set to that reader's cursor
 * @seq: where to read from
 *
 * The cursor goes to the oldest stored record whose sequence number is @seq
 * or more: the record @seq itself if it is still stored, the tail if it is
 * gone, the head if it is not written yet.  Records from @seq up to the tail
 * are gone and are this reader's loss: the cursor carries it to the next
 * record read, as for a lapped reader.  Finding a record in the middle
 * walks the headers from the tail, letting writers in every
 * NSLOG_RING_SCAN_BUDGET of them; if the tail passes the walk meanwhile,
 * it goes on from the tail.
 *
 * Context: process context, may sleep; takes the ring lock.
 * Return: the records lost, from @seq on.
 */
u64 nslog_ring_seek(struct nslog_ring *ring, struct nslog_ring_cursor *cur,
		    u64 seq)
{
	struct nslog_ring_cursor pos = { };
	unsigned int budget;
	struct nslog_rec rec;

	spin_lock(&ring->lock);
	for (;;) {
		if (pos.pos < ring->tail) {
			pos.pos = ring->tail;
			pos.seq = ring->tail_seq;
		}
		for (budget = NSLOG_RING_SCAN_BUDGET; budget; budget--) {
			if (pos.seq >= seq || pos.pos == ring->head)
				goto found;
			nslog_ring_hdr_out(ring, pos.pos, &rec);
			pos.pos += nslog_ring_rec_size(rec.len);
			pos.seq++;
		}
		spin_unlock(&ring->lock);
		cond_resched();
		spin_lock(&ring->lock);
	}
found:
	/* Past @seq only if the walk began at a tail already past it. */
	pos.lost = pos.seq > seq ? pos.seq - seq : 0;
	spin_unlock(&ring->lock);
	*cur = pos;
	return pos.lost;
}

/**
 * nslog_ring_extent() - the sequence numbers a ring holds
 * @ring: the ring
 * @head_seq: set to the number the next record will get
 * @tail_seq: set to the number of the oldest record stored (@head_seq if
 *	none)
 *
 * Context: any context that may take a spinlock; takes the ring lock.
 */
void nslog_ring_extent(struct nslog_ring *ring, u64 *head_seq, u64 *tail_seq)
{
	spin_lock(&ring->lock);
	*head_seq = ring->head_seq;
	*tail_seq = ring->tail_seq;
	spin_unlock(&ring->lock);
}

/**
 * nslog_ring_flush() - drop every record written before the call
 * @ring: the ring
 *
 * Readers notice on their next look that their cursor is below the tail and
 * continue at the head as it was when the flush ended.  Records dropped give
 * back their pid references; the lock is let go now and then so a flush of a
 * large ring does not stall writers.
 *
 * Context: process context, may sleep; takes the ring lock.
 */
void nslog_ring_flush(struct nslog_ring *ring)
{
	unsigned int budget;
	u64 end;

	spin_lock(&ring->lock);
	end = ring->head;
	while (ring->tail < end) {
		for (budget = NSLOG_RING_SCAN_BUDGET;
		     budget && ring->tail < end; budget--)
			nslog_ring_drop_oldest(ring);
		spin_unlock(&ring->lock);
		cond_resched();
		spin_lock(&ring->lock);
	}
	spin_unlock(&ring->lock);
}

/* Copy [@ring->tail, @ring->head) of @ring's storage into @buf of @size. */
static void nslog_ring_move(const struct nslog_ring *ring, u8 *buf, u32 size)
{
	u64 pos = ring->tail;

	while (pos < ring->head) {
		u32 from = nslog_ring_off(ring, pos);
		u32 to = pos & (size - 1);
		u32 n = min3(ring->head - pos, (u64)(ring->size - from),
			     (u64)(size - to));

		memcpy(buf + to, ring->buf + from, n);
		pos += n;
	}
}

/**
 * nslog_ring_resize() - give a ring other storage of another size
 * @ring: the ring
 * @buf: the new storage, @size bytes
 * @size: a power of two between NSLOG_RING_MIN_SIZE and NSLOG_RING_MAX_SIZE
 *
 * The newest records that fit move to @buf; older ones are dropped from the
 * tail as a writer would drop them, so readers behind them find out that
 * they were lapped and count them lost.  Records keep their positions (only
 * the mask changes), so every reader's cursor stays valid.  The drops let
 * the lock go now and then, as a flush does; the move of what is left
 * (at most min(old size, @size) bytes) is done under the lock, which bounds
 * how long writers of this log wait by the sizes the caller allows.  A ring
 * with no storage yet takes @buf as it is.
 *
 * Context: process context, may sleep; takes the ring lock.
 * Return: the old storage for the caller to free, or NULL if there was none.
 */
u8 *nslog_ring_resize(struct nslog_ring *ring, u8 *buf, u32 size)
{
	unsigned int budget;
	u8 *old;

	spin_lock(&ring->lock);
	while (ring->head - ring->tail > size) {
		for (budget = NSLOG_RING_SCAN_BUDGET;
		     budget && ring->head - ring->tail > size; budget--)
			nslog_ring_drop_oldest(ring);
		if (ring->head - ring->tail <= size)
			break;
		spin_unlock(&ring->lock);
		cond_resched();
		spin_lock(&ring->lock);
	}
	old = ring->buf;
	if (old)
		nslog_ring_move(ring, buf, size);
	ring->buf = buf;
	/* Read locklessly for LOGGER_GET_LOG_BUF_SIZE and the first write. */
	WRITE_ONCE(ring->size, size);
	spin_unlock(&ring->lock);
	return old;
}

/**
 * nslog_ring_stats() - take a consistent snapshot of a ring's counters
 * @ring: the ring
 * @st: filled in
 *
 * Context: any context that may take a spinlock; takes the ring lock.
 */
void nslog_ring_stats(struct nslog_ring *ring, struct nslog_ring_stats *st)
{
	spin_lock(&ring->lock);
	st->size = ring->size;
	st->allocated = ring->buf;
	st->used = ring->head - ring->tail;
	st->written = ring->head_seq;
	st->stored = ring->head_seq - ring->tail_seq;
	spin_unlock(&ring->lock);
}
