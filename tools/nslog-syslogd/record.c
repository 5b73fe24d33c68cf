// SPDX-License-Identifier: GPL-2.0
/*
 * record: a syslog message as nslogger's text record.
 *
 *   [priority][tag\0][text\0]<PRI>
 *
 *   priority  the severity's Android priority (lib/severity.c's table:
 *	       emerg, alert, crit F; err E; warning W; notice, info I;
 *	       debug D)
 *   tag       TAG or APP-NAME, without [PID]; "syslog" if none
 *   text      the message: a NUL inside it becomes a space (it would end
 *	       the message for every reader); other bytes as sent, invalid
 *	       UTF-8 too (readers that need UTF-8, the collector's JSON and
 *	       RFC 5424, replace it); cut, before a UTF-8 sequence's first
 *	       byte rather than inside it, so that the record fits
 *	       LOGGER_ENTRY_MAX_PAYLOAD
 *   <PRI>     the PRI the sender used, or the default one, kept for the
 *	       collector (lib/syslogpri.c)
 *
 * Dropped: the sender's stamp (the record's time is when the listener
 * received the message: RFC 3164's stamp has no year and no zone, and a
 * container's clock is the host's), its hostname (the collector names
 * the container), the [PID] (the kernel stamps the sender's pid; record.c's
 * caller passes the claim on as the thread id), and RFC 5424's MSGID and
 * STRUCTURED-DATA.
 */
#include <string.h>

#include "record.h"
#include "severity.h"
#include "syslogpri.h"

/* Bytes of @s[0..n) that end before a UTF-8 sequence's first byte. */
static size_t utf8_cut(const char *s, size_t n)
{
	size_t i = n;

	/* back over continuation bytes to the sequence's lead, if cut */
	while (i > 0 && n - i < 3 && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return ((unsigned char)s[i] & 0xc0) == 0x80 ? n : i;
}

/**
 * nslog_sl_record() - the payload of a message's record
 * @payload: filled in
 * @m: the message, parsed
 * @what: set to NSLOG_SL_REC_* for what was changed, 0 for nothing
 *
 * Context: any.
 * Return: the payload's length.
 */
size_t nslog_sl_record(char payload[LOGGER_ENTRY_MAX_PAYLOAD],
		       const struct nslog_sl_msg *m, unsigned int *what)
{
	const char *tag = m->tag_len ? m->tag : NSLOG_SL_TAG_NONE;
	size_t tag_len = m->tag_len ? m->tag_len : strlen(NSLOG_SL_TAG_NONE);
	char trailer[NSLOG_SYSLOG_TRAILER_MAX];
	size_t trailer_len = nslog_syslog_trailer_put(trailer, m->pri);
	size_t room, text_len = m->text_len, i, n = 0;

	*what = 0;
	if (tag_len > NSLOG_SL_TAG_MAX)
		tag_len = NSLOG_SL_TAG_MAX;
	payload[n++] = (char)nslog_severity_prio(m->pri);
	memcpy(payload + n, tag, tag_len);
	n += tag_len;
	payload[n++] = '\0';
	room = LOGGER_ENTRY_MAX_PAYLOAD - n - 1 - trailer_len;
	if (text_len > room) {
		/* the byte at @room is the first left out */
		text_len = utf8_cut(m->text, room);
		*what |= NSLOG_SL_REC_CUT;
	}
	for (i = 0; i < text_len; i++) {
		char c = m->text[i];

		if (c == '\0') {
			c = ' ';
			*what |= NSLOG_SL_REC_NUL;
		}
		payload[n++] = c;
	}
	payload[n++] = '\0';
	memcpy(payload + n, trailer, trailer_len);
	return n + trailer_len;
}
