// SPDX-License-Identifier: GPL-2.0
/*
 * journalrec: the journal fields of a record.
 *
 *   MESSAGE            the message, without its last newline (events:
 *                      the value as text, as nslogcat prints it)
 *   PRIORITY           the syslog severity of Android's priority
 *                      (severity.c: F 2, E 3, W 4, I 6, D and V 7), or
 *                      for a record that kept its sender's PRI
 *                      (nslog-syslogd's, lib/syslogpri.c) that severity
 *   SYSLOG_FACILITY    the kept PRI's facility, if the record has one
 *   SYSLOG_IDENTIFIER  the tag ("[NUMBER]" for events), if not empty
 *   SYSLOG_PID         the writer's pid as the host sees it, if not 0
 *   CONTAINER_ID       the container's id, 12 digits, and
 *   CONTAINER_ID_FULL  all 64, as Docker's and Podman's journald log
 *                      drivers write them
 *   CONTAINER_NAME     the container's name (LXC, systemd-nspawn)
 *   NSLOG_RUNTIME, NSLOG_ENGINE, NSLOG_POD, NSLOG_UNIT, NSLOG_CGROUP
 *                      the rest of what cgparse.c found
 *   NSLOG_LOG          main, events, radio or system
 *   NSLOG_NS_ID        the IPC namespace's id, NSLOG_SET_ID the set's
 *   NSLOG_SEQ          the record's seq in its log; NSLOG_ORDER in its set
 *   NSLOG_PID, NSLOG_TID, NSLOG_UID
 *                      the writer as the host sees it
 *   NSLOG_PRIORITY     Android's priority, 0 to 255
 *   NSLOG_TIME_NS      when it was written, ns since the epoch (journald's
 *                      own time stamps are when it received it)
 *   NSLOG_KERNEL       1 for a record the kernel wrote (rate-limit notices)
 *   NSLOG_RELAYED      1 for a record a relay stored for another process,
 *                      whose NSLOG_TIME_NS and NSLOG_TID are the writer's
 *                      claims
 *   NSLOG_RELAY_PID    its relay's pid as the host sees it (0 if it does
 *                      not), with the 0x4e54 header
 *   NSLOG_UNVERIFIED   1 for a relayed record whose writer was gone: its
 *                      pid and uid are the relay's word
 *   NSLOG_STORED_TIME_NS
 *                      when the kernel stored a relayed record, ns since
 *                      the epoch, with the 0x4e54 header
 *   NSLOG_EVENT_TAG    an events record's tag number
 *
 * Records of lost records: MESSAGE (nslog_loss_text()), PRIORITY 4,
 * SYSLOG_IDENTIFIER nslog-collector, MESSAGE_ID NSLOG_JOURNAL_LOST_ID,
 * NSLOG_LOST (the count, or "unknown"), NSLOG_LOST_FIRST_SEQ,
 * NSLOG_LOST_LAST_SEQ, and the log, set and container fields above.
 *
 * Values are bytes as logged: sd_journal_sendv() sends values with
 * newlines in journald's binary-safe form.  _PID, _UID, _COMM, ... are
 * journald's own and name the collector.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "journalrec.h"
#include "severity.h"
#include "syslogpri.h"

static void nslog_jf_begin(struct nslog_jfields *f)
{
	nslog_sbuf_reset(&f->buf);
	f->count = 0;
}

static void nslog_jf_put(struct nslog_jfields *f, const char *key,
			 const void *v, size_t n)
{
	if (f->count == NSLOG_JOURNAL_FIELDS)
		return;
	f->off[f->count++] = f->buf.len;
	nslog_sbuf_str(&f->buf, key);
	nslog_sbuf_ch(&f->buf, '=');
	nslog_sbuf_put(&f->buf, v, n);
	nslog_sbuf_ch(&f->buf, '\0');
}

static void nslog_jf_str(struct nslog_jfields *f, const char *key,
			 const char *v)
{
	if (v)
		nslog_jf_put(f, key, v, strlen(v));
}

static void nslog_jf_num(struct nslog_jfields *f, const char *key,
			 long long v)
{
	char num[24];

	snprintf(num, sizeof(num), "%lld", v);
	nslog_jf_str(f, key, num);
}

static void nslog_jf_u64(struct nslog_jfields *f, const char *key, __u64 v)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, (uint64_t)v);
	nslog_jf_str(f, key, num);
}

/* The iovecs, once every field is in the buffer (it may have moved). */
static void nslog_jf_end(struct nslog_jfields *f)
{
	size_t i, end;

	if (f->buf.oom) {
		f->count = 0;
		return;
	}
	for (i = 0; i < f->count; i++) {
		end = i + 1 < f->count ? f->off[i + 1] : f->buf.len;
		f->iov[i].iov_base = f->buf.p + f->off[i];
		f->iov[i].iov_len = end - f->off[i] - 1;	/* the NUL */
	}
}

static void nslog_jf_meta(struct nslog_jfields *f, const struct nslog_meta *m)
{
	const struct nslog_ident *id = m->ident;

	if (id) {
		if (id->id) {
			nslog_jf_put(f, "CONTAINER_ID", id->id,
				     strnlen(id->id, 12));
			nslog_jf_str(f, "CONTAINER_ID_FULL", id->id);
		}
		nslog_jf_str(f, "CONTAINER_NAME", id->name);
		nslog_jf_str(f, "NSLOG_RUNTIME", id->runtime);
		nslog_jf_str(f, "NSLOG_ENGINE", id->engine);
		nslog_jf_str(f, "NSLOG_POD", id->pod);
		nslog_jf_str(f, "NSLOG_UNIT", id->unit);
		nslog_jf_str(f, "NSLOG_CGROUP", id->cgroup);
	}
	nslog_jf_str(f, "NSLOG_LOG", m->log);
	if (m->has_ns)
		nslog_jf_u64(f, "NSLOG_NS_ID", m->ns_id);
	if (m->has_set)
		nslog_jf_u64(f, "NSLOG_SET_ID", m->set_id);
}

/**
 * nslog_journal_record() - the fields of one record
 * @f: emptied, then filled; f->count is 0 if memory ran out
 * @rec: the record's header
 * @t: its priority, tag and message
 * @m: its log, set and container
 * @events: an events record
 *
 * Context: process context; allocates.
 */
void nslog_journal_record(struct nslog_jfields *f,
			  const struct nslog_rec *rec,
			  const struct nslog_decoded *t,
			  const struct nslog_meta *m, bool events)
{
	int pri = events ? -1 : nslog_syslog_trailer_get(rec->payload,
							 rec->len);
	size_t len = t->msg_len;
	__s32 tag;

	if (len && t->msg[len - 1] == '\n')
		len--;
	nslog_jf_begin(f);
	nslog_jf_put(f, "MESSAGE", t->msg, len);
	nslog_jf_num(f, "PRIORITY", pri >= 0 ? pri & 7 : nslog_severity(t->prio));
	if (pri >= 0)
		nslog_jf_num(f, "SYSLOG_FACILITY", pri >> 3);
	if (t->tag_len)
		nslog_jf_put(f, "SYSLOG_IDENTIFIER", t->tag,
			     (size_t)t->tag_len);
	if (rec->pid > 0)
		nslog_jf_num(f, "SYSLOG_PID", rec->pid);
	nslog_jf_meta(f, m);
	if (rec->has_seq) {
		nslog_jf_u64(f, "NSLOG_SEQ", rec->seq);
		nslog_jf_u64(f, "NSLOG_ORDER", rec->order);
	}
	nslog_jf_num(f, "NSLOG_PID", rec->pid);
	nslog_jf_num(f, "NSLOG_TID", rec->tid);
	if (rec->has_euid)
		nslog_jf_num(f, "NSLOG_UID", rec->euid);
	nslog_jf_num(f, "NSLOG_PRIORITY", t->prio);
	nslog_jf_num(f, "NSLOG_TIME_NS",
		     (long long)rec->sec * 1000000000LL + rec->nsec);
	if (rec->has_seq && (rec->flags & NSLOG_ENTRY_KERNEL))
		nslog_jf_str(f, "NSLOG_KERNEL", "1");
	if (nslog_rec_relayed(rec)) {
		nslog_jf_str(f, "NSLOG_RELAYED", "1");
		if (rec->has_relay)
			nslog_jf_num(f, "NSLOG_RELAY_PID", rec->relay_pid);
		if (nslog_rec_unverified(rec))
			nslog_jf_str(f, "NSLOG_UNVERIFIED", "1");
		if (rec->has_relay)
			nslog_jf_num(f, "NSLOG_STORED_TIME_NS",
				     (long long)rec->stored_sec * 1000000000LL +
				     rec->stored_nsec);
	}
	if (events && rec->len >= sizeof(tag)) {
		memcpy(&tag, rec->payload, sizeof(tag));
		nslog_jf_num(f, "NSLOG_EVENT_TAG", tag);
	}
	nslog_jf_end(f);
}

/**
 * nslog_journal_loss() - the fields of a record of lost records
 * @f: emptied, then filled; f->count is 0 if memory ran out
 * @m: the log, set and container they were lost from
 * @loss: how many, from which seq
 *
 * Context: process context; allocates.
 */
void nslog_journal_loss(struct nslog_jfields *f, const struct nslog_meta *m,
			const struct nslog_loss *loss)
{
	char text[NSLOG_LOSS_TEXT_MAX];

	nslog_loss_text(text, sizeof(text), m, loss);
	nslog_jf_begin(f);
	nslog_jf_str(f, "MESSAGE", text);
	nslog_jf_num(f, "PRIORITY", NSLOG_SEV_WARNING);
	nslog_jf_str(f, "SYSLOG_IDENTIFIER", "nslog-collector");
	nslog_jf_str(f, "MESSAGE_ID", NSLOG_JOURNAL_LOST_ID);
	nslog_jf_meta(f, m);
	if (loss->known)
		nslog_jf_u64(f, "NSLOG_LOST", loss->count);
	else
		nslog_jf_str(f, "NSLOG_LOST", "unknown");
	nslog_jf_u64(f, "NSLOG_LOST_FIRST_SEQ", loss->first_seq);
	if (loss->known && loss->count)
		nslog_jf_u64(f, "NSLOG_LOST_LAST_SEQ",
			     loss->first_seq + loss->count - 1);
	nslog_jf_end(f);
}

void nslog_journal_free(struct nslog_jfields *f)
{
	nslog_sbuf_free(&f->buf);
	f->count = 0;
}
