/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse: one syslog message, RFC 3164 or RFC 5424, into its parts.
 */
#ifndef NSLOG_SL_PARSE_H
#define NSLOG_SL_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* What a message without a PRI, or with a malformed one, gets: user.notice. */
#define NSLOG_SL_PRI_DEFAULT	13
/* The longest tag (RFC 5424's APP-NAME); a longer word is not a tag. */
#define NSLOG_SL_TAG_MAX	48

enum nslog_sl_format {
	NSLOG_SL_RFC3164,	/* <PRI>[Mmm dd hh:mm:ss ][host ]TAG[PID]: text */
	NSLOG_SL_RFC5424,	/* <PRI>1 TIME HOST APP PROCID MSGID SD MSG */
};

/* A message's parts; the pointers are into the parsed bytes. */
struct nslog_sl_msg {
	int pri;		/* 0 to 191: the sender's, or the default */
	bool pri_given;		/* false: none, or a malformed one */
	enum nslog_sl_format format;
	const char *tag;	/* TAG or APP-NAME; tag_len 0 if none */
	size_t tag_len;
	int claimed_pid;	/* [PID] or PROCID, 0 if none or not a number */
	const char *text;
	size_t text_len;
};

void nslog_sl_parse(struct nslog_sl_msg *m, const char *buf, size_t len);

#endif /* NSLOG_SL_PARSE_H */
