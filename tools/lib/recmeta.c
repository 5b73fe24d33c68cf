// SPDX-License-Identifier: GPL-2.0
/*
 * recmeta: names of logs, sets and containers, and the text of a record
 * of lost records, the same for every output:
 *
 *   12 records of log main of ipc:[4026532301] (docker 0123456789ab) were
 *   lost (seq 100 to 111)
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "recmeta.h"

static const char *const nslog_klog_names[NSLOG_KLOG_COUNT] = {
	[NSLOG_KLOG_MAIN]	= "main",
	[NSLOG_KLOG_EVENTS]	= "events",
	[NSLOG_KLOG_RADIO]	= "radio",
	[NSLOG_KLOG_SYSTEM]	= "system",
};

/**
 * nslog_klog_name() - the name of a log, by the kernel's log id
 * @log_id: 0 main, 1 events, 2 radio, 3 system
 *
 * Context: any.
 * Return: a static string; "unknown" for another id.
 */
const char *nslog_klog_name(unsigned int log_id)
{
	return log_id < NSLOG_KLOG_COUNT ? nslog_klog_names[log_id] : "unknown";
}

/* Android's LOG_ID_* of each log. */
static const unsigned int nslog_klog_android[NSLOG_KLOG_COUNT] = {
	[NSLOG_KLOG_MAIN]	= 0,
	[NSLOG_KLOG_RADIO]	= 1,
	[NSLOG_KLOG_EVENTS]	= 2,
	[NSLOG_KLOG_SYSTEM]	= 3,
};

/**
 * nslog_klog_android_id() - Android's LOG_ID_* of a log
 * @klog: an &enum nslog_klog
 *
 * Context: any.
 * Return: the id struct nslog_entry and nslog_info carry for it.
 */
unsigned int nslog_klog_android_id(unsigned int klog)
{
	return klog < NSLOG_KLOG_COUNT ? nslog_klog_android[klog] : ~0u;
}

/**
 * nslog_klog_from_android_id() - the log a header's log_id names
 * @android_id: struct nslog_entry's log_id (Android's LOG_ID_*)
 *
 * Context: any.
 * Return: an &enum nslog_klog, or -1 for an id of no log here.
 */
int nslog_klog_from_android_id(__u32 android_id)
{
	int k;

	for (k = 0; k < NSLOG_KLOG_COUNT; k++)
		if (nslog_klog_android[k] == android_id)
			return k;
	return -1;
}

/**
 * nslog_klog_from_name() - a log's kernel id
 * @name: "main", "events", "radio" or "system"
 *
 * Context: any.
 * Return: the id, or -1.
 */
int nslog_klog_from_name(const char *name)
{
	int i;

	for (i = 0; i < NSLOG_KLOG_COUNT; i++)
		if (!strcmp(name, nslog_klog_names[i]))
			return i;
	return -1;
}

static bool nslog_alnum(char c)
{
	/* ASCII whatever the locale, as the kernel checks it */
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/**
 * nslog_stream_name_ok() - whether @name can be a stream's
 * @name: a log's name, as /proc/nslogger/namespaces lists it
 *
 * A stream made in an nslogfs mount has 1 to NSLOG_STREAM_NAME_MAX
 * characters, the first of [A-Za-z0-9], the others of [A-Za-z0-9._-],
 * and is none of the four fixed logs' names.
 *
 * Context: any.
 * Return: true if it is.
 */
bool nslog_stream_name_ok(const char *name)
{
	size_t i;

	if (!nslog_alnum(name[0]) || nslog_klog_from_name(name) >= 0)
		return false;
	for (i = 1; name[i]; i++) {
		if (i >= NSLOG_STREAM_NAME_SIZE - 1)
			return false;
		if (!nslog_alnum(name[i]) && name[i] != '.' &&
		    name[i] != '_' && name[i] != '-')
			return false;
	}
	return true;
}

/**
 * nslog_stream_binary() - whether a stream holds binary event records
 * @name: the stream's name
 *
 * Android's stats (5) and security (6) logs hold records in the events
 * log's binary form (a 4-byte tag number, then typed values).  nslogd
 * stores them in streams named after them, and readers decode those as
 * they decode events; any other stream holds text records.
 *
 * Context: any.
 * Return: true for "stats" and "security".
 */
bool nslog_stream_binary(const char *name)
{
	return !strcmp(name, "stats") || !strcmp(name, "security");
}

/**
 * nslog_meta_label() - a set in words: "ipc:[ID] (RUNTIME WHO)"
 * @buf: output, NSLOG_LABEL_MAX bytes are enough for any id
 * @size: its size
 * @m: the record's set
 *
 * WHO is the container's name, else its short id (12 digits, as docker
 * ps shows it), else "pod UID", else the unit; the host's set is
 * "ipc:[ID] (host)".  Long names are cut.
 *
 * Context: any.
 */
void nslog_meta_label(char *buf, size_t size, const struct nslog_meta *m)
{
	const struct nslog_ident *id = m->ident;
	const char *who = NULL, *what = "";
	int n;

	if (m->has_ns)
		n = snprintf(buf, size, "ipc:[%" PRIu64 "]", (uint64_t)m->ns_id);
	else
		n = snprintf(buf, size, "this namespace");
	if (!id || n < 0 || (size_t)n >= size)
		return;
	if (id->name) {
		who = id->name;
	} else if (id->id) {
		who = id->id;
		what = "";
	} else if (id->pod) {
		who = id->pod;
		what = "pod ";
	} else if (id->unit) {
		who = id->unit;
	}
	if (id->runtime && who)
		snprintf(buf + n, size - (size_t)n, " (%s %s%.*s)", id->runtime,
			 what, id->name || !id->id ? 64 : 12, who);
	else if (id->runtime)
		snprintf(buf + n, size - (size_t)n, " (%s)", id->runtime);
	else if (who)
		snprintf(buf + n, size - (size_t)n, " (%.64s)", who);
}

/**
 * nslog_loss_text() - the message of a record of lost records
 * @buf: output, NSLOG_LOSS_TEXT_MAX bytes are enough
 * @size: its size
 * @m: the log and set
 * @loss: what was lost
 *
 * Context: any.
 */
void nslog_loss_text(char *buf, size_t size, const struct nslog_meta *m,
		     const struct nslog_loss *loss)
{
	static const char *const why[] = {
		[NSLOG_LOSS_SET_GONE] = "the set was gone",
		[NSLOG_LOSS_STREAM_GONE] = "the stream was removed",
		[NSLOG_LOSS_STREAM_REMADE] =
			"the stream was removed (another has its name now)",
	};
	char label[NSLOG_LABEL_MAX];

	nslog_meta_label(label, sizeof(label), m);
	if (!loss->known)
		snprintf(buf, size,
			 "records of log %s of %s from seq %" PRIu64
			 " on may have been lost: %s before they were read",
			 m->log ? m->log : "?", label,
			 (uint64_t)loss->first_seq,
			 (unsigned int)loss->why < sizeof(why) / sizeof(why[0]) ?
			 why[loss->why] : why[0]);
	else
		snprintf(buf, size,
			 "%" PRIu64 " record%s of log %s of %s %s lost (seq %"
			 PRIu64 " to %" PRIu64 ")",
			 (uint64_t)loss->count, loss->count == 1 ? "" : "s",
			 m->log ? m->log : "?", label,
			 loss->count == 1 ? "was" : "were",
			 (uint64_t)loss->first_seq,
			 (uint64_t)(loss->first_seq + loss->count - 1));
}
