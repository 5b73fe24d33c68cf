// SPDX-License-Identifier: GPL-2.0
/*
 * liblog_calls: a program linked with libnslog.so, as an Android program
 * would be, that makes one record with each kind of liblog call and prints
 * "PID TID" on stdout.  Run against the real devices by
 * tests/containers/tools.sh, which checks the bytes nslogcat -B reads back,
 * and by tests/containers/demo.sh as a container's "app".
 *
 *   liblog_calls [TAG]		TAG defaults to "liblog"
 *
 * Records, in this order (TAG as given):
 *   main    I TAG "__android_log_print: 42 args"
 *   main    D TAG "__android_log_write"
 *   system  W TAG "__android_log_buf_write to system"
 *   radio   E TAG "__android_log_buf_write to radio"
 *   events  [1001] INT 7                     (__android_log_bwrite)
 *   events  [1002] STRING "hello"            (__android_log_btwrite)
 *
 * Exit status 0, or 1 (and a message) if a call returns an error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <android/log.h>

static int failed;

static void liblog_check(const char *call, int ret)
{
	if (ret >= 0)
		return;
	fprintf(stderr, "liblog_calls: %s: %s\n", call, strerror(-ret));
	failed = 1;
}

int main(int argc, char **argv)
{
	/* bwrite's payload is typed by the caller: INT 7. */
	static const unsigned char int7[] = { EVENT_TYPE_INT, 7, 0, 0, 0 };
	/* btwrite adds the type; a STRING is its length, then the bytes. */
	static const unsigned char hello[] = { 5, 0, 0, 0, 'h', 'e', 'l', 'l',
					       'o' };
	const char *tag = argc > 1 ? argv[1] : "liblog";

	liblog_check("__android_log_print",
		     __android_log_print(ANDROID_LOG_INFO, tag,
					 "__android_log_print: %d %s", 42,
					 "args"));
	liblog_check("__android_log_write",
		     __android_log_write(ANDROID_LOG_DEBUG, tag,
					 "__android_log_write"));
	liblog_check("__android_log_buf_write(system)",
		     __android_log_buf_write(LOG_ID_SYSTEM, ANDROID_LOG_WARN,
					     tag,
					     "__android_log_buf_write to system"));
	liblog_check("__android_log_buf_write(radio)",
		     __android_log_buf_write(LOG_ID_RADIO, ANDROID_LOG_ERROR,
					     tag,
					     "__android_log_buf_write to radio"));
	liblog_check("__android_log_bwrite",
		     __android_log_bwrite(1001, int7, sizeof(int7)));
	liblog_check("__android_log_btwrite",
		     __android_log_btwrite(1002, EVENT_TYPE_STRING, hello,
					   sizeof(hello)));

	printf("%d %d\n", (int)getpid(), (int)gettid());
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
