// SPDX-License-Identifier: GPL-2.0
/*
 * nslogd_dgram_fuzz: logdw datagrams, as any process of the container
 * sends them, through nslogd's writer (writer.c's nslogd_writer_take():
 * the credentials, dgram.c's checks and parse, store.c's relay) with
 * the relay ioctl played here (store.h's function pointer): no device.
 *
 * Input: datagrams, each [credentials][16-bit length][bytes], the bytes
 * cut to the writer's buffer with MSG_TRUNC as recvmmsg() would.
 * Credentials: none, or a pid (0 or not) and a uid from a short list
 * (root, system, log, logd, an app).
 *
 * Checked: the verdict is what dgram.c's header says, in its order
 * (written here again); an accepted datagram is relayed once, to the log
 * it names, with the sender's pid and uid, and a payload that is the
 * datagram's after its 11-byte header, within the buffer; the counters
 * count every datagram once.
 */
#include <errno.h>

#include "fuzz.h"
#include "nslogd/writer.h"

static const uid_t uids[] = { 0, 1000, 1007, 1036, 10042, 2000, 1007, 0 };

static bool cred_priv(const struct ucred *c)
{
	return c->uid == 0 || c->uid == 1000 || c->uid == 1007 ||
	       c->gid == 1007;
}

static struct {
	const unsigned char *buf;
	size_t n;
	const struct ucred *cred;
	int calls;
} relayed;

static int fake_relay(int fd, const struct nslog_relay *r)
{
	const unsigned char *pl = (const unsigned char *)(uintptr_t)r->payload;

	relayed.calls++;
	/* logs 4 to 6 are streams: their own fd, with NSLOG_RELAY_FILE_LOG */
	if (r->flags & NSLOG_RELAY_FILE_LOG)
		FZ_CHECK(!r->log_id && fd >= 104 &&
			 fd < 100 + NSLOGD_STORE_LOGS);
	else
		FZ_CHECK(fd == 100 + (int)r->log_id && r->log_id < 4);
	FZ_CHECK(relayed.cred && r->pid == relayed.cred->pid &&
		 r->uid == relayed.cred->uid);
	FZ_CHECK(pl == relayed.buf + NSLOGD_HDR_SIZE &&
		 r->len == relayed.n - NSLOGD_HDR_SIZE);
	FZ_CHECK(r->len >= 1 && r->len <= NSLOGD_MAX_PAYLOAD);
	FZ_CHECK((r->flags & ~NSLOG_RELAY_FILE_LOG) == NSLOG_RELAY_KEEP_EXITED);
	return r->tid & 1 ? -EAGAIN : (int)r->len;
}

/* dgram.c's checks, in their order, written again. */
static enum nslogd_verdict expect(const unsigned char *p, size_t n,
				  bool trunc, const struct ucred *c)
{
	unsigned int id;

	if (n < NSLOGD_HDR_SIZE)
		return NSLOGD_DGRAM_SHORT;
	if (n == NSLOGD_HDR_SIZE && !trunc)
		return NSLOGD_DGRAM_EMPTY;
	if (trunc || n > NSLOGD_MAX_DGRAM)
		return NSLOGD_DGRAM_OVERSIZED;
	if (!c || c->pid <= 0)
		return NSLOGD_DGRAM_NO_CRED;
	if (c->uid == 1036)
		return NSLOGD_DGRAM_LOGD_UID;
	id = p[0];
	if (id >= 8)
		return NSLOGD_DGRAM_BAD_ID;
	if (id == 7)
		return NSLOGD_DGRAM_KERNEL_ID;
	if (id == 6 && !cred_priv(c))
		return NSLOGD_DGRAM_SECURITY;
	if ((id == 2 || id == 5 || id == 6) && n - NSLOGD_HDR_SIZE < 4)
		return NSLOGD_DGRAM_BINARY_SHORT;
	return NSLOGD_DGRAM_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nslogd_writer w;
	static struct nslogd_stats st;
	static unsigned char buf[NSLOGD_MAX_DGRAM];
	union {
		struct cmsghdr align;
		unsigned char b[CMSG_SPACE(sizeof(struct ucred))];
	} ctl;
	struct fz f = { data, size };
	struct nslogd_store s;
	struct nslogd_record rec;
	struct ucred cred;
	struct iovec iov;
	struct msghdr msg;
	struct cmsghdr *c;
	const uint8_t *piece;
	uint64_t before;
	size_t n, got;
	uint8_t how;
	bool trunc;
	int i;

	nslogd_writer_init(&w, -1, cred_priv);
	nslogd_store_init(&s, "/nonexistent", fake_relay, NULL);
	for (i = 0; i < NSLOGD_STORE_LOGS; i++)
		s.fd[i] = 100 + i;	/* never opened: the relay is fake */
	while (f.n) {
		how = fz_u8(&f);
		piece = fz_piece(&f, 0xffff, &n);
		trunc = n > sizeof(buf);
		got = trunc ? sizeof(buf) : n;
		memcpy(buf, piece, got);

		memset(&msg, 0, sizeof(msg));
		iov.iov_base = buf;
		iov.iov_len = sizeof(buf);
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_flags = trunc ? MSG_TRUNC : 0;
		cred.pid = how & 8 ? 0 : 4242;
		cred.uid = uids[how & 7];
		cred.gid = how & 16 ? 1007 : cred.uid;
		if (how & 32) {
			msg.msg_control = ctl.b;
			msg.msg_controllen = sizeof(ctl.b);
			c = CMSG_FIRSTHDR(&msg);
			c->cmsg_level = SOL_SOCKET;
			c->cmsg_type = SCM_CREDENTIALS;
			c->cmsg_len = CMSG_LEN(sizeof(cred));
			memcpy(CMSG_DATA(c), &cred, sizeof(cred));
		}
		relayed.buf = buf;
		relayed.n = got;
		relayed.cred = how & 32 ? &cred : NULL;
		relayed.calls = 0;

		FZ_CHECK(nslogd_dgram_parse(buf, got, trunc, relayed.cred,
					    cred_priv, &rec) ==
			 expect(buf, got, trunc, relayed.cred));
		before = st.received;
		nslogd_writer_take(&w, &msg, got, &s, &st, 0);
		FZ_CHECK(st.received == before + 1);
		FZ_CHECK(relayed.calls ==
			 (expect(buf, got, trunc, relayed.cred) ==
				  NSLOGD_DGRAM_OK && buf[0] < NSLOGD_STORE_LOGS));
	}
	return 0;
}
