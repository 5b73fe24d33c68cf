/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sockets: logd's three sockets, from init (ANDROID_SOCKET_<name>) or made
 * here with logd's paths, types and modes.
 */
#ifndef NSLOGD_SOCKETS_H
#define NSLOGD_SOCKETS_H

#include <stdbool.h>
#include <sys/types.h>

/* Where logd's sockets live on Android. */
#define NSLOGD_SOCKET_DIR	"/dev/socket"
/* What init names each socket's fd with: ANDROID_SOCKET_logdw=5. */
#define NSLOGD_SOCKET_ENV	"ANDROID_SOCKET_"
#define NSLOGD_LISTEN_BACKLOG	64

enum nslogd_sock_id {
	NSLOGD_SOCK_LOGD = 0,	/* control */
	NSLOGD_SOCK_LOGDR,	/* readers */
	NSLOGD_SOCK_LOGDW,	/* writers */
	NSLOGD_SOCKS
};

struct nslogd_sock_spec {
	const char *name;	/* logd, logdr, logdw */
	int type;		/* SOCK_STREAM, SOCK_SEQPACKET, SOCK_DGRAM */
	mode_t mode;		/* 0666, 0666, 0222 */
};

extern const struct nslogd_sock_spec nslogd_sock_specs[NSLOGD_SOCKS];

int nslogd_sock_env_fd(const char *value);
int nslogd_sock_from_env(enum nslogd_sock_id id);
int nslogd_sock_make(enum nslogd_sock_id id, const char *dir);
int nslogd_sock_open(enum nslogd_sock_id id, const char *dir,
		     bool *inherited);
int nslogd_sock_path(char *buf, size_t size, enum nslogd_sock_id id,
		     const char *dir);
unsigned int nslogd_sock_accept_close(int fd);

#endif /* NSLOGD_SOCKETS_H */
