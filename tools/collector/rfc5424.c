// SPDX-License-Identifier: GPL-2.0
/*
 * rfc5424: the syslog protocol's message format (RFC 5424, section 6):
 *
 *   <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [SD-ID PARAM="V"...] MSG
 *
 *   PRI        facility * 8 + the severity of the record's priority
 *              (severity.c); the facility is an option, user by default;
 *              a record that kept its sender's PRI (nslog-syslogd's,
 *              lib/syslogpri.c) gives back that PRI, facility and severity
 *              as the program used them
 *   TIMESTAMP  RFC 3339 with microseconds (the most RFC 5424 allows) and
 *              the zone, local or Z
 *   HOSTNAME   the host's name
 *   APP-NAME   the record's tag ("[NUMBER]" for events), at most 48
 *              printable ASCII characters: others become '_'
 *   PROCID     the writer's pid as the host sees it, "-" if 0
 *   MSGID      the log: main, events, radio or system; "lost" for a record
 *              of lost records
 *   SD         [nslogger@32473 ...]: log, ns_id, set_id, boot_id, seq, order, tid,
 *              uid, kernel, event_tag, and the container's runtime,
 *              engine, container_id, container_name, pod, unit, cgroup;
 *              for a record a relay stored for another process, after
 *              kernel, relayed="1", relay_pid (0 if not visible),
 *              unverified="1" if its writer was gone (pid and uid are the
 *              relay's word) and stored_time, when the kernel stored it,
 *              written as TIMESTAMP is (which is then the writer's claim);
 *              for lost records lost, lost_first_seq, lost_last_seq.
 *              Values escape '"', '\' and ']' with '\' (6.3.3) and are
 *              valid UTF-8 (an invalid byte becomes U+FFFD).
 *   MSG        the message, without its last newline; control characters
 *              (newlines of multi-line messages too) written as "#" and
 *              three octal digits, as rsyslog escapes them, so that one
 *              message is one line; invalid UTF-8 bytes as U+FFFD; no BOM.
 *
 * An empty field is "-" (NILVALUE).  The message has no trailing newline:
 * the transport adds its own framing (syslogdest.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rfc5424.h"
#include "severity.h"
#include "syslogpri.h"
#include "timefmt.h"
#include "utf8.h"

/**
 * nslog_facility_from_name() - a syslog facility by name or number
 * @name: "kern", "user", ... "local7" (RFC 5424's table 1 as syslog.conf
 *	  names them), or 0 to 23
 *
 * Context: any.
 * Return: 0 to 23, or -1.
 */
int nslog_facility_from_name(const char *name)
{
	char *end;
	long n;
	int i;

	for (i = 0; i < NSLOG_SYSLOG_FACILITIES; i++)
		if (!strcmp(name, nslog_syslog_facility_name(i)))
			return i;
	if (*name < '0' || *name > '9')
		return -1;
	n = strtol(name, &end, 10);
	return *end || n > 23 ? -1 : (int)n;
}

/* A header field: printable US-ASCII, at most @max, "-" if empty. */
static void nslog_5424_field(struct nslog_sbuf *b, const char *s, size_t n,
			     size_t max)
{
	size_t i;

	if (!n) {
		nslog_sbuf_ch(b, '-');
		return;
	}
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		nslog_sbuf_ch(b, c > 32 && c < 127 ? (char)c : '_');
	}
}

/*
 * Valid UTF-8 on one line from any bytes: control characters as #ooo;
 * in a PARAM-VALUE (@param) also '"', '\' and ']' escaped with '\'.
 */
static void nslog_5424_utf8(struct nslog_sbuf *b, const char *s, size_t n,
			    bool param)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t len;

	while (p < end) {
		if (*p < 0x20 || *p == 0x7f) {
			nslog_sbuf_printf(b, "#%03o", *p);
			p++;
			continue;
		}
		if (param && (*p == '"' || *p == '\\' || *p == ']'))
			nslog_sbuf_ch(b, '\\');
		len = nslog_utf8_seq(p, (size_t)(end - p));
		if (!len) {
			nslog_sbuf_str(b, NSLOG_UTF8_REPLACEMENT);
			p++;
			continue;
		}
		nslog_sbuf_put(b, p, len);
		p += len;
	}
}

static void nslog_5424_param(struct nslog_sbuf *b, const char *name,
			     const char *v)
{
	if (!v)
		return;
	nslog_sbuf_printf(b, " %s=\"", name);
	nslog_5424_utf8(b, v, strlen(v), true);
	nslog_sbuf_ch(b, '"');
}

static void nslog_5424_num(struct nslog_sbuf *b, const char *name,
			   unsigned long long v)
{
	nslog_sbuf_printf(b, " %s=\"%llu\"", name, v);
}

static void nslog_5424_head(struct nslog_sbuf *b, int pri, __s64 sec,
			    __s32 nsec, const struct nslog_meta *m,
			    const char *app, size_t app_len)
{
	char when[NSLOG_RFC3339_MAX];
	const char *host = m->host ? m->host : "";

	nslog_sbuf_printf(b, "<%d>1 ", pri);
	if (nslog_rfc3339(when, sizeof(when), sec, nsec, 6, m->utc) < 0)
		nslog_sbuf_ch(b, '-');
	else
		nslog_sbuf_str(b, when);
	nslog_sbuf_ch(b, ' ');
	nslog_5424_field(b, host, strlen(host), 255);
	nslog_sbuf_ch(b, ' ');
	nslog_5424_field(b, app, app_len, 48);
	nslog_sbuf_ch(b, ' ');
}

static void nslog_5424_sd_set(struct nslog_sbuf *b, const struct nslog_meta *m)
{
	nslog_sbuf_str(b, "[" NSLOG_SD_ID);
	nslog_5424_param(b, "log", m->log);
	if (m->has_ns)
		nslog_5424_num(b, "ns_id", m->ns_id);
	if (m->has_set)
		nslog_5424_num(b, "set_id", m->set_id);
	nslog_5424_param(b, "boot_id", m->boot_id);
}

static void nslog_5424_sd_ident(struct nslog_sbuf *b,
				const struct nslog_meta *m)
{
	const struct nslog_ident *id = m->ident;

	if (id) {
		nslog_5424_param(b, "runtime", id->runtime);
		nslog_5424_param(b, "engine", id->engine);
		nslog_5424_param(b, "container_id", id->id);
		nslog_5424_param(b, "container_name", id->name);
		nslog_5424_param(b, "pod", id->pod);
		nslog_5424_param(b, "unit", id->unit);
		nslog_5424_param(b, "cgroup", id->cgroup);
	}
	nslog_sbuf_ch(b, ']');
}

/* A relayed record's params; see the top of this file. */
static void nslog_5424_relay(struct nslog_sbuf *b, const struct nslog_rec *rec,
			     const struct nslog_meta *m)
{
	char when[NSLOG_RFC3339_MAX];

	nslog_5424_num(b, "relayed", 1);
	if (rec->has_relay)
		nslog_sbuf_printf(b, " relay_pid=\"%d\"", (int)rec->relay_pid);
	if (nslog_rec_unverified(rec))
		nslog_5424_num(b, "unverified", 1);
	if (rec->has_relay &&
	    nslog_rfc3339(when, sizeof(when), rec->stored_sec,
			  rec->stored_nsec, 6, m->utc) >= 0)
		nslog_5424_param(b, "stored_time", when);
}

static void nslog_5424_msg(struct nslog_sbuf *b, const char *msg, size_t len)
{
	if (len && msg[len - 1] == '\n')
		len--;
	if (!len)
		return;
	nslog_sbuf_ch(b, ' ');
	nslog_5424_utf8(b, msg, len, false);
}

/**
 * nslog_rfc5424_record() - one record as an RFC 5424 message
 * @b: emptied, then the message (no trailing newline)
 * @facility: 0 to 23
 * @rec: the record's header
 * @t: its priority, tag and message
 * @m: its log, set, container, the host's name
 * @events: an events record
 *
 * Context: process context; @b->oom says if memory ran out.
 */
void nslog_rfc5424_record(struct nslog_sbuf *b, int facility,
			  const struct nslog_rec *rec,
			  const struct nslog_decoded *t,
			  const struct nslog_meta *m, bool events)
{
	int pri = events ? -1 : nslog_syslog_trailer_get(rec->payload,
							 rec->len);
	__s32 tag;

	if (pri < 0)
		pri = facility * 8 + nslog_severity(t->prio);

	nslog_sbuf_reset(b);
	nslog_5424_head(b, pri, rec->sec, rec->nsec, m, t->tag,
			(size_t)t->tag_len);
	if (rec->pid > 0)
		nslog_sbuf_printf(b, "%d ", (int)rec->pid);
	else
		nslog_sbuf_str(b, "- ");
	nslog_5424_field(b, m->log ? m->log : "", m->log ? strlen(m->log) : 0,
			 32);
	nslog_sbuf_ch(b, ' ');
	nslog_5424_sd_set(b, m);
	if (rec->has_seq) {
		nslog_5424_num(b, "seq", rec->seq);
		nslog_5424_num(b, "order", rec->order);
	}
	nslog_5424_num(b, "tid", (unsigned int)rec->tid);
	if (rec->has_euid)
		nslog_5424_num(b, "uid", rec->euid);
	if (rec->has_seq && (rec->flags & NSLOG_ENTRY_KERNEL))
		nslog_5424_num(b, "kernel", 1);
	if (nslog_rec_relayed(rec))
		nslog_5424_relay(b, rec, m);
	if (events && rec->len >= sizeof(tag)) {
		memcpy(&tag, rec->payload, sizeof(tag));
		nslog_sbuf_printf(b, " event_tag=\"%d\"", (int)tag);
	}
	nslog_5424_sd_ident(b, m);
	nslog_5424_msg(b, t->msg, t->msg_len);
}

/**
 * nslog_rfc5424_loss() - a record of lost records as an RFC 5424 message
 * @b: emptied, then the message
 * @facility: 0 to 23
 * @m: the log, set and container they were lost from
 * @loss: how many, from which seq, when
 *
 * APP-NAME is nslog-collector, PROCID "-", MSGID "lost", the severity
 * warning.
 *
 * Context: process context; @b->oom says if memory ran out.
 */
void nslog_rfc5424_loss(struct nslog_sbuf *b, int facility,
			const struct nslog_meta *m,
			const struct nslog_loss *loss)
{
	static const char app[] = "nslog-collector";
	char text[NSLOG_LOSS_TEXT_MAX];

	nslog_loss_text(text, sizeof(text), m, loss);
	nslog_sbuf_reset(b);
	nslog_5424_head(b, facility * 8 + NSLOG_SEV_WARNING, loss->sec,
			loss->nsec, m, app, sizeof(app) - 1);
	nslog_sbuf_str(b, "- lost ");
	nslog_5424_sd_set(b, m);
	if (loss->known)
		nslog_5424_num(b, "lost", loss->count);
	else
		nslog_5424_param(b, "lost", "unknown");
	nslog_5424_num(b, "lost_first_seq", loss->first_seq);
	if (loss->known && loss->count)
		nslog_5424_num(b, "lost_last_seq",
			       loss->first_seq + loss->count - 1);
	nslog_5424_sd_ident(b, m);
	nslog_5424_msg(b, text, strlen(text));
}
