// SPDX-License-Identifier: GPL-2.0
/*
 * output: one interface over the collector's outputs.
 *
 *   journal   sd_journal_sendv() with journalrec.c's fields: each record is
 *             with journald when the call returns
 *   json      jsonrec.c's lines on standard output (buffered)
 *   rfc5424   rfc5424.c's messages to syslogdest.c's destination
 *   LAYOUT    nslogcat's layouts with logcat's modifiers (logformat.c),
 *             on standard output; a line "--------- LOG of SET" comes
 *             before the records of another log or set than the last
 *
 * flush() hands what is buffered to the destination (fflush); sync()
 * also makes it durable when the destination is a regular file (fsync).
 * The collector writes its state only after both (see collector.c).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
/* sd_journal_sendv() would add CODE_FILE, _LINE, _FUNC: the collector's */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "jsonrec.h"
#include "output.h"
#include "rfc5424.h"

static int nslog_out_sd_send(const struct iovec *iov, int n)
{
	return sd_journal_sendv(iov, n);
}

/**
 * nslog_out_parse() - read the -o argument
 * @o: filled in (not opened); the rfc5424 destination is stdout and the
 *     facility user until the caller changes them
 * @spec: "journal", "json", "rfc5424", or a -v argument of nslogcat
 *	  (a layout with modifiers, "threadtime,year,zone")
 *
 * Context: any.
 * Return: 0, or -EINVAL.
 */
int nslog_out_parse(struct nslog_out *o, const char *spec)
{
	const char *bad;

	memset(o, 0, sizeof(*o));
	o->fmt.layout = NSLOG_FMT_THREADTIME;
	o->facility = NSLOG_FACILITY_USER;
	o->send = nslog_out_sd_send;
	nslog_dest_parse(&o->dest, "stdout");
	if (!strcmp(spec, "journal"))
		o->kind = NSLOG_OUT_JOURNAL;
	else if (!strcmp(spec, "json"))
		o->kind = NSLOG_OUT_JSON;
	else if (!strcmp(spec, "rfc5424"))
		o->kind = NSLOG_OUT_RFC5424;
	else if (!nslog_fmt_parse(&o->fmt, spec, &bad) &&
		 o->fmt.layout != NSLOG_FMT_JSON)
		o->kind = NSLOG_OUT_LOGCAT;
	else
		return -EINVAL;
	return 0;
}

/**
 * nslog_out_open() - get the output ready
 * @o: parsed
 * @file: standard output, for the outputs that write there
 *
 * Context: process context.
 * Return: 0, or a negative errno (connecting the syslog destination).
 */
int nslog_out_open(struct nslog_out *o, FILE *file)
{
	o->file = file;
	if (o->kind == NSLOG_OUT_RFC5424)
		return nslog_dest_open(&o->dest, file);
	return 0;
}

static void nslog_out_header(struct nslog_out *o, const struct nslog_meta *m)
{
	char label[NSLOG_LABEL_MAX];
	const char *log = m->log ? m->log : "?";

	if (o->have_last && o->last_set == m->set_id &&
	    !strncmp(o->last_log, log, sizeof(o->last_log)))
		return;
	o->have_last = true;
	o->last_set = m->set_id;
	snprintf(o->last_log, sizeof(o->last_log), "%s", log);
	nslog_meta_label(label, sizeof(label), m);
	fprintf(o->file, "--------- %s of %s\n", m->log ? m->log : "?", label);
}

static int nslog_out_journal(struct nslog_out *o)
{
	int ret;

	if (!o->jf.count)
		return -ENOMEM;
	ret = o->send(o->jf.iov, (int)o->jf.count);
	return ret < 0 ? ret : 0;
}

static int nslog_out_syslog(struct nslog_out *o)
{
	if (o->sb.oom)
		return -ENOMEM;
	return nslog_dest_send(&o->dest, o->sb.p, o->sb.len);
}

/**
 * nslog_out_record() - hand one record to the output
 * @o: the output
 * @rec: the record's header
 * @t: its priority, tag and message
 * @m: its log, set, container, host
 * @events: an events record
 *
 * Context: process context; may block on the destination.
 * Return: 0, or a negative errno: the record may not have reached it.
 */
int nslog_out_record(struct nslog_out *o, const struct nslog_rec *rec,
		     const struct nslog_decoded *t, const struct nslog_meta *m,
		     bool events)
{
	switch (o->kind) {
	case NSLOG_OUT_JOURNAL:
		nslog_journal_record(&o->jf, rec, t, m, events);
		return nslog_out_journal(o);
	case NSLOG_OUT_JSON:
		return nslog_json_record(o->file, rec, t, m, events);
	case NSLOG_OUT_RFC5424:
		nslog_rfc5424_record(&o->sb, o->facility, rec, t, m, events);
		return nslog_out_syslog(o);
	case NSLOG_OUT_LOGCAT:
		nslog_out_header(o, m);
		return nslog_format_line(o->file, &o->fmt, rec, t);
	}
	return -EINVAL;
}

/**
 * nslog_out_loss() - tell the output that records were lost
 * @o: the output
 * @m: the log, set and container
 * @loss: what was lost
 *
 * Context: process context; may block on the destination.
 * Return: 0, or a negative errno.
 */
int nslog_out_loss(struct nslog_out *o, const struct nslog_meta *m,
		   const struct nslog_loss *loss)
{
	char text[NSLOG_LOSS_TEXT_MAX];

	switch (o->kind) {
	case NSLOG_OUT_JOURNAL:
		nslog_journal_loss(&o->jf, m, loss);
		return nslog_out_journal(o);
	case NSLOG_OUT_JSON:
		return nslog_json_loss(o->file, m, loss);
	case NSLOG_OUT_RFC5424:
		nslog_rfc5424_loss(&o->sb, o->facility, m, loss);
		return nslog_out_syslog(o);
	case NSLOG_OUT_LOGCAT:
		nslog_loss_text(text, sizeof(text), m, loss);
		fprintf(o->file, "--------- %s\n", text);
		o->have_last = false;
		return ferror(o->file) ? -EIO : 0;
	}
	return -EINVAL;
}

/**
 * nslog_out_flush() - hand buffered output to its destination
 * @o: the output
 *
 * Context: process context.
 * Return: 0, or a negative errno.
 */
int nslog_out_flush(struct nslog_out *o)
{
	switch (o->kind) {
	case NSLOG_OUT_JSON:
	case NSLOG_OUT_LOGCAT:
		return fflush(o->file) ? -EIO : 0;
	case NSLOG_OUT_RFC5424:
		return nslog_dest_flush(&o->dest);
	case NSLOG_OUT_JOURNAL:
		break;
	}
	return 0;
}

/**
 * nslog_out_sync() - flush, and fsync() if the output is a regular file
 * @o: the output
 *
 * Pipes, terminals and sockets have nothing to make durable: what was
 * handed to them is theirs.
 *
 * Context: process context; may wait for the disk.
 * Return: 0, or a negative errno.
 */
int nslog_out_sync(struct nslog_out *o)
{
	struct stat st;
	int ret = nslog_out_flush(o);

	if (ret || !o->file || o->kind == NSLOG_OUT_JOURNAL ||
	    (o->kind == NSLOG_OUT_RFC5424 && o->dest.kind != NSLOG_DEST_STDOUT))
		return ret;
	if (fstat(fileno(o->file), &st) || !S_ISREG(st.st_mode))
		return 0;
	return fsync(fileno(o->file)) ? -errno : 0;
}

void nslog_out_close(struct nslog_out *o)
{
	nslog_dest_close(&o->dest);
	nslog_sbuf_free(&o->sb);
	nslog_journal_free(&o->jf);
}
