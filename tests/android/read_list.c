// SPDX-License-Identifier: GPL-2.0
/*
 * read_list: a program written against Android's read API alone, as a
 * crash collector or a test on Android would be: <log/log_read.h>,
 * android_logger_list_open() on main, android_logger_open() to add
 * system, android_logger_list_read() until -EAGAIN.
 *
 *   read_list [TAIL [PID]]
 *
 * Prints one line a text record, from the version 4 header and the
 * payload: "lid PID tid TID uid UID prio P tag TAG msg MESSAGE".
 * tests/containers/tools.sh compares them with what it wrote.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <log/log_read.h>

int main(int argc, char **argv)
{
	unsigned int tail = argc > 1 ? (unsigned int)atoi(argv[1]) : 0;
	pid_t pid = argc > 2 ? (pid_t)atoi(argv[2]) : 0;
	struct logger_list *list;
	struct log_msg msg;
	int ret;

	list = android_logger_list_open(LOG_ID_MAIN,
					ANDROID_LOG_RDONLY | ANDROID_LOG_NONBLOCK,
					tail, pid);
	if (!list) {
		perror("read_list: android_logger_list_open");
		return 1;
	}
	if (!android_logger_open(list, LOG_ID_SYSTEM)) {
		perror("read_list: android_logger_open(LOG_ID_SYSTEM)");
		android_logger_list_free(list);
		return 1;
	}
	while ((ret = android_logger_list_read(list, &msg)) > 0) {
		const char *payload = (const char *)msg.buf + msg.entry.hdr_size;
		const char *tag = payload + 1;
		size_t tag_len = strnlen(tag, msg.entry.len - 1);
		const char *text = tag + tag_len + 1;

		printf("lid %u pid %d tid %u uid %u prio %d tag %s msg %.*s\n",
		       msg.entry.lid, msg.entry.pid, msg.entry.tid,
		       msg.entry.uid, payload[0], tag,
		       (int)strnlen(text, (size_t)(payload + msg.entry.len - text)),
		       text);
	}
	android_logger_list_free(list);
	if (ret != -EAGAIN) {
		fprintf(stderr, "read_list: android_logger_list_read: %s\n",
			strerror(-ret));
		return 1;
	}
	return 0;
}
