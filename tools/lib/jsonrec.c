// SPDX-License-Identifier: GPL-2.0
/*
 * jsonrec: one JSON object per line, for Fluent Bit, Vector, jq.
 *
 * A record:
 *
 *   {"type":"record","time":"2023-11-14T22:13:20.123456789+00:00",
 *    "host":"h1","boot_id":"...","log":"main","ns_id":4026532301,
 *    "set_id":"81985529216486895","seq":41,"order":97,"priority":4,
 *    "level":"info","tag":"MyTag","message":"hello","pid":1234,
 *    "tid":1235,"uid":1000,"kernel":false,"runtime":"docker",
 *    "container_id":"0123...","cgroup":"/system.slice/docker-0123....scope"}
 *
 * Members are left out when unknown (host, boot_id, ns_id, set_id, seq,
 * order, uid, kernel and the container's: runtime, engine, container_id,
 * container_name, pod, unit, cgroup).  "time" is RFC 3339 with nine
 * fraction digits and the zone.
 *
 * A record a relay stored for another process (NSLOG_ENTRY_RELAYED) adds,
 * after "kernel", "relayed":true, "relay_pid" (the relay's pid, 0 if the
 * reader cannot see it), "unverified":true when its writer was gone, so
 * that its pid and uid are the relay's word, and "stored_time", when the
 * kernel stored it, as "time" is written ("time" being the writer's own
 * claim).  relay_pid and stored_time need the 0x4e54 header.  Other
 * records have none of these.  "priority" is Android's (2 V to 7 F),
 * "level" the syslog severity it maps to (severity.c); a record that kept
 * its sender's syslog PRI (nslog-syslogd's, syslogpri.c) has that PRI's
 * severity as "level" and its facility, by name, as "facility", after it.
 * Events records
 * have "event_tag", the number, and "tag" "[NUMBER]" as logcat prints
 * it.  set_id is a string: a set id may not fit the 53 bits that JSON
 * readers keep of a number.
 *
 * Records of lost records have "type":"lost", "lost" (the count, or null
 * if unknown), "lost_first_seq" and, when the count is known,
 * "lost_last_seq", "level":"warning", "tag":"nslog-collector" and the
 * message of nslog_loss_text().
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "jsonrec.h"
#include "jsonw.h"
#include "severity.h"
#include "syslogpri.h"
#include "timefmt.h"

static void nslog_json_time(struct nslog_json *j, const char *key,
			    const struct nslog_meta *m, __s64 sec, __s32 nsec)
{
	char when[NSLOG_RFC3339_MAX];

	if (nslog_rfc3339(when, sizeof(when), sec, nsec, 9, m->utc) < 0)
		nslog_json_null(j, key);
	else
		nslog_json_str(j, key, when);
}

static void nslog_json_head(struct nslog_json *j, const struct nslog_meta *m)
{
	char num[24];

	if (m->host)
		nslog_json_str(j, "host", m->host);
	if (m->boot_id)
		nslog_json_str(j, "boot_id", m->boot_id);
	if (m->log)
		nslog_json_str(j, "log", m->log);
	if (m->has_ns)
		nslog_json_u64(j, "ns_id", m->ns_id);
	if (m->has_set) {
		snprintf(num, sizeof(num), "%" PRIu64, (uint64_t)m->set_id);
		nslog_json_str(j, "set_id", num);
	}
}

static void nslog_json_ident(struct nslog_json *j, const struct nslog_meta *m)
{
	const struct nslog_ident *id = m->ident;

	if (!id)
		return;
	if (id->runtime)
		nslog_json_str(j, "runtime", id->runtime);
	if (id->engine)
		nslog_json_str(j, "engine", id->engine);
	if (id->id)
		nslog_json_str(j, "container_id", id->id);
	if (id->name)
		nslog_json_str(j, "container_name", id->name);
	if (id->pod)
		nslog_json_str(j, "pod", id->pod);
	if (id->unit)
		nslog_json_str(j, "unit", id->unit);
	if (id->cgroup)
		nslog_json_str(j, "cgroup", id->cgroup);
}

/* A relayed record's members; see the top of this file. */
static void nslog_json_relay(struct nslog_json *j, const struct nslog_rec *rec,
			     const struct nslog_meta *m)
{
	nslog_json_bool(j, "relayed", true);
	if (rec->has_relay)
		nslog_json_s64(j, "relay_pid", rec->relay_pid);
	if (nslog_rec_unverified(rec))
		nslog_json_bool(j, "unverified", true);
	if (rec->has_relay)
		nslog_json_time(j, "stored_time", m, rec->stored_sec,
				rec->stored_nsec);
}

/**
 * nslog_json_record() - one record as a JSON line
 * @out: where to write
 * @rec: the record's header
 * @t: its priority, tag and message (events rendered as text)
 * @m: its log, set and container
 * @events: an events record: "event_tag" is its number
 *
 * Context: process context.
 * Return: 0, or -EIO if @out has an error.
 */
int nslog_json_record(FILE *out, const struct nslog_rec *rec,
		      const struct nslog_decoded *t, const struct nslog_meta *m,
		      bool events)
{
	int pri = events ? -1 : nslog_syslog_trailer_get(rec->payload,
							 rec->len);
	size_t len = t->msg_len;
	struct nslog_json j;
	__s32 tag;

	if (len && t->msg[len - 1] == '\n')
		len--;
	nslog_json_begin(&j, out);
	nslog_json_str(&j, "type", "record");
	nslog_json_time(&j, "time", m, rec->sec, rec->nsec);
	nslog_json_head(&j, m);
	if (rec->has_seq) {
		nslog_json_u64(&j, "seq", rec->seq);
		nslog_json_u64(&j, "order", rec->order);
	}
	nslog_json_s64(&j, "priority", t->prio);
	nslog_json_str(&j, "level", nslog_severity_name(pri >= 0 ? pri & 7 :
				nslog_severity(t->prio)));
	if (pri >= 0)
		nslog_json_str(&j, "facility",
			       nslog_syslog_facility_name(pri >> 3));
	nslog_json_strn(&j, "tag", t->tag, (size_t)t->tag_len);
	if (events && rec->len >= sizeof(tag)) {
		memcpy(&tag, rec->payload, sizeof(tag));
		nslog_json_s64(&j, "event_tag", tag);
	}
	nslog_json_strn(&j, "message", t->msg, len);
	nslog_json_s64(&j, "pid", rec->pid);
	nslog_json_s64(&j, "tid", rec->tid);
	if (rec->has_euid)
		nslog_json_u64(&j, "uid", rec->euid);
	if (rec->has_seq)
		nslog_json_bool(&j, "kernel", rec->flags & NSLOG_ENTRY_KERNEL);
	if (nslog_rec_relayed(rec))
		nslog_json_relay(&j, rec, m);
	nslog_json_ident(&j, m);
	return nslog_json_end(&j);
}

/**
 * nslog_json_loss() - a record of lost records as a JSON line
 * @out: where to write
 * @m: the log, set and container they were lost from
 * @loss: how many, from which seq, noticed when
 *
 * Context: process context.
 * Return: 0, or -EIO if @out has an error.
 */
int nslog_json_loss(FILE *out, const struct nslog_meta *m,
		    const struct nslog_loss *loss)
{
	char text[NSLOG_LOSS_TEXT_MAX];
	struct nslog_json j;

	nslog_loss_text(text, sizeof(text), m, loss);
	nslog_json_begin(&j, out);
	nslog_json_str(&j, "type", "lost");
	nslog_json_time(&j, "time", m, loss->sec, loss->nsec);
	nslog_json_head(&j, m);
	if (loss->known)
		nslog_json_u64(&j, "lost", loss->count);
	else
		nslog_json_null(&j, "lost");
	nslog_json_u64(&j, "lost_first_seq", loss->first_seq);
	if (loss->known && loss->count)
		nslog_json_u64(&j, "lost_last_seq",
			       loss->first_seq + loss->count - 1);
	nslog_json_str(&j, "level", nslog_severity_name(NSLOG_SEV_WARNING));
	nslog_json_str(&j, "tag", "nslog-collector");
	nslog_json_str(&j, "message", text);
	nslog_json_ident(&j, m);
	return nslog_json_end(&j);
}
