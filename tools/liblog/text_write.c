// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * text_write: one text record, laid out and handed to devfd.
 *
 * The one place both writers of text end: log_write.c's calls, once the
 * filter has passed the record, and logger.c's default logger, which
 * __android_log_write_log_message() reaches.  It calls neither of them,
 * so that the two depend on it and not on each other.
 */
#include <string.h>
#include <sys/uio.h>

#include "internal.h"

/**
 * nslog_text_write() - one text record to the devices
 * @log_id: a log_id_t, routed by nslog_logid_route()
 * @prio: the priority byte
 * @tag: the tag, not NULL
 * @msg: the message, NULL for "(null)"
 *
 * Context: any thread.
 * Return: the bytes stored, or a negative errno.
 */
int nslog_text_write(int log_id, int prio, const char *tag, const char *msg)
{
	unsigned char prio_byte = (unsigned char)prio;
	int buf = nslog_logid_route(log_id);
	struct iovec vec[3];

	if (buf < 0)
		return buf;
	if (!msg)
		msg = "(null)";
	nslog_iov(&vec[0], &prio_byte, 1);
	nslog_iov(&vec[1], tag, strlen(tag) + 1);
	nslog_iov(&vec[2], msg, strlen(msg) + 1);
	return nslog_dev_writev(buf, vec, 3);
}
