// SPDX-License-Identifier: GPL-2.0
/*
 * liblog_read_fuzz: liblog's read API (android_logger_list_read()) over
 * records the input makes, on the four logs played by packet-mode FIFOs
 * as in tests/tools/fakedev.h: the header of any version (v1, v2, v4,
 * nslogger's), merged across logs, converted to the version 4 header or
 * passed on, filtered by pid, kept for tail.  No ioctl reaches a device:
 * LOGGER_SET_VERSION on a FIFO fails, and liblog reads what comes.
 *
 * Input: [header][tail][pid][logs] then records, each [log][16-bit
 * length][bytes] (at most 4096 bytes: one packet).
 *
 * Checked: every record the reader returns is whole by
 * nslog_rec_parse(), has a header liblog gives (28 bytes, or nslogger's
 * when asked for), and carries the payload of a record written, byte
 * for byte; the reader returns no more records than were written.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <log/log_read.h>
#include <log/nslog_read.h>

#include "devpath.h"
#include "fuzz.h"
#include "logformat.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAX_RECS	128
#define MAX_REC		4096	/* PIPE_BUF: a packet, not split */

static char dir[64];
static int wfd[NSLOG_BUF_COUNT];	/* the FIFOs, read and write */

static void cleanup(void)
{
	char path[128];
	int i;

	for (i = 0; i < NSLOG_BUF_COUNT; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, nslog_buf_name(i));
		unlink(path);
	}
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[128];
	int i;

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "/tmp/nslog-fuzz-read.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	for (i = 0; i < NSLOG_BUF_COUNT; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, nslog_buf_name(i));
		if (mkfifo(path, 0600))
			abort();
		wfd[i] = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (wfd[i] < 0 || fcntl(wfd[i], F_SETFL, O_DIRECT | O_NONBLOCK))
			abort();
		/* a packet a page: room for MAX_RECS of them */
		if (fcntl(wfd[i], F_SETPIPE_SZ, 1 << 20) < 0)
			abort();
	}
	return 0;
}

static void drain(void)
{
	unsigned char buf[MAX_REC];
	int i;

	for (i = 0; i < NSLOG_BUF_COUNT; i++)
		while (read(wfd[i], buf, sizeof(buf)) > 0)
			;
}

struct written {
	const uint8_t *payload;
	size_t len;
};

/* Whether @n bytes at @p are the payload of a record written. */
static bool was_written(const struct written *w, size_t count,
			const void *p, size_t n)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (w[i].len == n && !memcmp(w[i].payload, p, n))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* not 2: required, it fails on a FIFO, which has no ioctls */
	static const int headers[] = {
		0, 0, NSLOG_ENTRY_VERSION, NSLOG_ENTRY2_VERSION,
	};
	static struct log_msg msg;
	struct fz f = { data, size };
	int header = headers[fz_u8(&f) & 3];
	unsigned int tail = fz_u8(&f) % 8;
	pid_t pid = fz_u8(&f);
	uint8_t logs = fz_u8(&f);
	struct written w[MAX_RECS];
	struct logger_list *list;
	struct nslog_rec rec;
	size_t count = 0, n, got = 0;
	const uint8_t *piece;
	uint8_t log;
	int ret, i;

	while (f.n && count < MAX_RECS) {
		log = fz_u8(&f) % NSLOG_BUF_COUNT;
		piece = fz_piece(&f, MAX_REC, &n);
		if (n && write(wfd[log], piece, n) != (ssize_t)n)
			abort();
		/* what the record carries, if liblog reads it as whole */
		if (!n || nslog_rec_parse(&rec, piece, n))
			continue;
		w[count].payload = rec.payload;
		w[count++].len = rec.len;
	}

	list = android_logger_list_alloc(ANDROID_LOG_RDONLY |
					 ANDROID_LOG_NONBLOCK, tail, pid);
	if (!list || nslog_logger_list_set_dev_dir(list, dir) ||
	    nslog_logger_list_set_header(list, header))
		abort();
	for (i = 0; i < NSLOG_BUF_COUNT; i++)
		if ((logs >> i) & 1 && !android_logger_open(list, (log_id_t)i))
			abort();
	if (!(logs & 0xf))
		goto out;	/* a list of no log: -EINVAL, nothing read */

	while ((ret = android_logger_list_read(list, &msg)) > 0) {
		FZ_CHECK((size_t)ret <= sizeof(msg.buf) - 1);
		FZ_CHECK(!nslog_rec_parse(&rec, msg.buf, (size_t)ret));
		FZ_CHECK(rec.hdr_size == 28 ||
			 (header >= NSLOG_ENTRY_VERSION && rec.has_seq));
		FZ_CHECK(was_written(w, count, rec.payload, rec.len));
		FZ_CHECK(++got <= count);
	}
	FZ_CHECK(ret == -EAGAIN || ret == -EINVAL);
out:
	android_logger_list_free(list);
	drain();
	return 0;
}
