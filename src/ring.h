/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_RING_H
#define _NSLOG_RING_H

#include <linux/align.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>

struct pid;
struct pid_namespace;

/* Smallest and largest ring, in bytes; sizes are powers of two. */
#define NSLOG_RING_MIN_SIZE	(8U << 10)
#define NSLOG_RING_MAX_SIZE	(64U << 20)

/* Record flags. */
#define NSLOG_REC_KERNEL	0x1	/* written by nslogger itself */
#define NSLOG_REC_RELAY		0x2	/* stored by a relay: see nslog_rec_relay */
#define NSLOG_REC_UNVERIFIED	0x4	/* relayed for a writer already gone */

/**
 * struct nslog_rec - a record as it is laid out in the ring
 * @order: its number in its log set (&nslog_ring.order), which orders the
 *	records of every ring sharing that counter; its sequence number in this
 *	ring is not stored: readers count it (&nslog_ring_cursor.seq)
 * @ts_ns: CLOCK_REALTIME of the write, in nanoseconds
 * @tgid: the writer's thread group, a counted reference (may be NULL)
 * @tid: the writer's thread, a counted reference; NULL when it is the
 *	thread group's leader (the same struct pid as @tgid).  With
 *	NSLOG_REC_RELAY, the relay's thread group instead (a relayed record's
 *	tid is a claim, kept in &struct nslog_rec_relay)
 * @euid: the writer's effective uid
 * @len: payload length; the payload follows the header directly
 * @flags: NSLOG_REC_*
 *
 * Records start at 8-byte aligned positions and may wrap the end of the
 * ring anywhere, header included.
 */
struct nslog_rec {
	u64 order;
	s64 ts_ns;
	struct pid *tgid;
	struct pid *tid;
	kuid_t euid;
	u16 len;
	u16 flags;
};

/**
 * struct nslog_rec_relay - what a relayed record keeps besides its header
 * @claim_ns: the writer's CLOCK_REALTIME, as the relay claims it
 * @claim_tid: the writer's thread id, as the relay claims it
 * @claim_pid: with NSLOG_REC_UNVERIFIED, the writer's pid as the relay
 *	named it in its own pid namespace (@tgid is NULL then); else 0
 *
 * A record with NSLOG_REC_RELAY carries this at the start of its payload
 * area; its @len counts it.  Plain records carry nothing more, so the
 * write path and the ring's history of plain records are unchanged.
 */
struct nslog_rec_relay {
	s64 claim_ns;
	s32 claim_tid;
	s32 claim_pid;
};

/**
 * struct nslog_ring - a byte ring of variable-length records
 * @lock: serialises writers, flushes and readers' copies
 * @buf: the storage, @size bytes, or NULL until it is attached; replaced,
 *	never taken away, by a resize
 * @size: a power of two; changes only with @buf, under the lock
 * @head: position of the next record, in bytes since the ring was made
 * @tail: position of the oldest record still stored
 * @head_seq: sequence number the next record will carry
 * @tail_seq: sequence number of the record at @tail
 * @order: the counter the records' @order comes from, shared by the rings
 *	of one log set
 *
 * Positions and sequence numbers only grow; 64 bits do not wrap in the
 * life of a machine.  A position maps to an offset with @size - 1.
 */
struct nslog_ring {
	/* writers, flushes and one record's copy-out; see ring.c */
	spinlock_t lock;
	u8 *buf;
	u32 size;
	u64 head;
	u64 tail;
	u64 head_seq;
	u64 tail_seq;
	atomic64_t *order;
};

/**
 * struct nslog_ring_span - where a reserved record's payload goes
 * @buf: the two pieces, the second at the start of the ring
 * @len: their lengths; @len[1] is 0 unless the payload wraps
 */
struct nslog_ring_span {
	u8 *buf[2];
	u32 len[2];
};

/**
 * struct nslog_ring_cursor - one reader's place in a ring
 * @pos: position of the next record to look at
 * @seq: sequence number of the record at @pos
 * @lost: records this reader lost (lapped or flushed) and has not been told
 *	of yet; reported with the next record it gets
 *
 * A zeroed cursor starts at the oldest record; nslog_ring_cursor_init()
 * starts one there without counting earlier drops as lost.  A cursor that
 * fell behind @tail was lapped and moves forward to @tail when next used.
 */
struct nslog_ring_cursor {
	u64 pos;
	u64 seq;
	u64 lost;
};

/**
 * struct nslog_rec_view - a record as one reader sees it
 * @seq: sequence number in its ring
 * @order: number in its log set, see &struct nslog_rec
 * @ts_ns: CLOCK_REALTIME of the write, in nanoseconds; the writer's claim
 *	for a relayed record
 * @stored_ns: CLOCK_REALTIME when the record was stored
 * @pid: writer's tgid in the reader's pid namespace, 0 if not visible there
 * @tid: writer's tid in the reader's pid namespace, 0 if not visible there;
 *	a relayed record's claim, as it was given
 * @relay_pid: a relayed record's relay (its tgid) in the reader's pid
 *	namespace, 0 if not visible there or not relayed
 * @euid: writer's effective uid
 * @len: payload length
 * @flags: NSLOG_REC_*
 * @lost: records this reader missed, lapped or flushed, just before this one
 */
struct nslog_rec_view {
	u64 seq;
	u64 order;
	s64 ts_ns;
	s64 stored_ns;
	pid_t pid;
	pid_t tid;
	pid_t relay_pid;
	kuid_t euid;
	u16 len;
	u16 flags;
	u64 lost;
};

/**
 * struct nslog_ring_filter - what one reader may see
 * @pid_ns: pid namespace the reader's pids are shown in, NULL for none
 * @all: the reader may see every record
 * @euid: without @all, only records of this effective uid are visible
 */
struct nslog_ring_filter {
	struct pid_namespace *pid_ns;
	bool all;
	kuid_t euid;
};

/**
 * struct nslog_ring_stats - a snapshot of a ring, for listings
 * @size: ring size in bytes
 * @allocated: storage is attached
 * @used: bytes of stored records, head - tail
 * @written: records written since the ring was made
 * @stored: records stored now
 */
struct nslog_ring_stats {
	u32 size;
	bool allocated;
	u64 used;
	u64 written;
	u64 stored;
};

void nslog_ring_init(struct nslog_ring *ring, u32 size, atomic64_t *order);
void nslog_ring_cursor_init(struct nslog_ring *ring,
			    struct nslog_ring_cursor *cur);
bool nslog_ring_attach(struct nslog_ring *ring, u8 *buf);
u8 *nslog_ring_release(struct nslog_ring *ring);
u8 *nslog_ring_resize(struct nslog_ring *ring, u8 *buf, u32 size);
void nslog_ring_reserve(struct nslog_ring *ring, u16 len,
			struct nslog_ring_span *span);
void nslog_ring_commit(struct nslog_ring *ring, struct nslog_rec *rec);
void nslog_ring_abort(struct nslog_ring *ring);
void nslog_ring_write(struct nslog_ring *ring, struct nslog_rec *rec,
		      const void *payload);
int nslog_ring_peek(struct nslog_ring *ring, struct nslog_ring_cursor *cur,
		    const struct nslog_ring_filter *filter,
		    struct nslog_rec_view *view, void *payload,
		    struct nslog_ring_cursor *next);
u64 nslog_ring_unread(struct nslog_ring *ring,
		      const struct nslog_ring_cursor *cur);
u64 nslog_ring_seek(struct nslog_ring *ring, struct nslog_ring_cursor *cur,
		    u64 seq);
void nslog_ring_extent(struct nslog_ring *ring, u64 *head_seq, u64 *tail_seq);
void nslog_ring_flush(struct nslog_ring *ring);
void nslog_ring_stats(struct nslog_ring *ring, struct nslog_ring_stats *st);

/**
 * nslog_ring_has_new() - whether anything was written past a position
 * @ring: the ring
 * @pos: a reader's position
 *
 * A lockless hint for wait conditions: true also when the reader was lapped
 * or flushed, in which case nslog_ring_peek() tells what is really there.
 *
 * Context: any.
 * Return: true if the head is not at @pos.
 */
static inline bool nslog_ring_has_new(const struct nslog_ring *ring, u64 pos)
{
	return READ_ONCE(ring->head) != pos;
}

/**
 * nslog_ring_rec_size() - bytes a record with @len bytes of payload takes
 * @len: payload length
 *
 * Context: any.
 * Return: the record's footprint in the ring, header and padding included.
 */
static inline u32 nslog_ring_rec_size(u32 len)
{
	return ALIGN(sizeof(struct nslog_rec) + len, 8);
}

#endif /* _NSLOG_RING_H */
