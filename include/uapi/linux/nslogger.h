/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * nslogger: the user-space ABI of the Android-compatible logger devices.
 *
 * The devices are character devices named log_main, log_events, log_radio
 * and log_system.  One write() or writev() call stores one record; read()
 * returns one whole record, a header followed by the payload.
 *
 * Two parts of this ABI break today's rules for new interfaces on purpose,
 * because unmodified Android user space (liblog, logcat) depends on them:
 *
 *  - The ioctls are declared with _IO() although LOGGER_SET_VERSION takes an
 *    int pointer, and three of them return a positive length instead of
 *    filling in a structure.
 *  - The header's @sec field is a signed 32-bit count of seconds since the
 *    epoch and overflows in January 2038.  The kernel keeps 64-bit time
 *    internally; only this wire format is narrow.  Readers that care should
 *    treat @sec as unsigned, which postpones the overflow to 2106.
 *
 * New extensions (the NSLOG_IOC_* range) follow today's conventions instead.
 */
#ifndef _UAPI_LINUX_NSLOGGER_H
#define _UAPI_LINUX_NSLOGGER_H

#include <linux/types.h>
#include <linux/ioctl.h>

/**
 * struct logger_entry - version 1 record header, the default
 * @len: payload length in bytes
 * @__pad: always zero; readers that know version 2 take 0 to mean version 1
 * @pid: thread-group id of the writer, as the reader's pid namespace sees it
 * @tid: thread id of the writer, as the reader's pid namespace sees it
 * @sec: CLOCK_REALTIME seconds of the write (32-bit: see the top of this file)
 * @nsec: nanoseconds within @sec
 * @msg: the payload, @len bytes
 */
struct logger_entry {
	__u16	len;
	__u16	__pad;
	__s32	pid;
	__s32	tid;
	__s32	sec;
	__s32	nsec;
	char	msg[];
};

/**
 * struct logger_entry_v2 - version 2 record header (after LOGGER_SET_VERSION 2)
 * @len: payload length in bytes
 * @hdr_size: sizeof(struct logger_entry_v2), 24
 * @pid: as in struct logger_entry
 * @tid: as in struct logger_entry
 * @sec: as in struct logger_entry
 * @nsec: as in struct logger_entry
 * @euid: effective uid of the writer, mapped into the reader's user namespace
 * @msg: the payload, @len bytes
 */
struct logger_entry_v2 {
	__u16	len;
	__u16	hdr_size;
	__s32	pid;
	__s32	tid;
	__s32	sec;
	__s32	nsec;
	__u32	euid;
	char	msg[];
};

/*
 * The header version of nslogger's own (LOGGER_SET_VERSION with this value):
 * "NS", far from Android's 1 and 2 (and from logd's socket formats 3 and 4,
 * which Android's driver refused and so does this one).
 */
#define NSLOG_ENTRY_VERSION	0x4e53

/*
 * nslogger's header with what a relayed record adds (struct nslog_entry2):
 * a reader opts into it, so readers of NSLOG_ENTRY_VERSION keep their 56
 * bytes.
 */
#define NSLOG_ENTRY2_VERSION	0x4e54

/* struct nslog_entry's (and struct nslog_entry2's) flags. */
#define NSLOG_ENTRY_KERNEL	0x1	/* written by the kernel (rate-limit notices) */
/*
 * Stored by a relay for another task (NSLOG_IOC_RELAY): @pid and @euid are
 * that task's, @tid and @time_ns are what the relay claims for it.
 */
#define NSLOG_ENTRY_RELAYED	0x2
/*
 * With NSLOG_ENTRY_RELAYED: the writer had exited when the record was
 * stored, so @pid and @euid are the relay's word (SCM_CREDENTIALS), not
 * checked against a live task.
 */
#define NSLOG_ENTRY_UNVERIFIED	0x4

/**
 * struct nslog_entry - nslogger's own record header (NSLOG_ENTRY_VERSION)
 * @len: payload length in bytes
 * @hdr_size: sizeof(struct nslog_entry), 56
 * @pid: as in struct logger_entry
 * @tid: as in struct logger_entry
 * @euid: as in struct logger_entry_v2
 * @seq: the record's number in its log: 0 for the first record ever
 *	written to this log of this set, one more for each record after it
 * @order: the record's number in its log set: strictly increasing, in the
 *	order of writing, across the set's four logs, so that it orders them
 *	exactly (with gaps where the other logs' records are)
 * @lost: records of this log that this reader lost (overwritten before it
 *	read them, or flushed) just before this one
 * @time_ns: CLOCK_REALTIME of the write, nanoseconds since the epoch; for
 *	a relayed record, the writer's own time as the relay claims it
 * @log_id: which log, as Android's LOG_ID_* number them: 0 main, 1 radio,
 *	2 events, 3 system; a stream made in an nslogfs mount has its own,
 *	NSLOG_STREAM_LOG_ID_MIN or more, unique within its set
 * @flags: NSLOG_ENTRY_KERNEL for a record the kernel wrote,
 *	NSLOG_ENTRY_RELAYED and NSLOG_ENTRY_UNVERIFIED (above); no writer can
 *	set them
 * @msg: the payload, @len bytes
 */
struct nslog_entry {
	__u16	len;
	__u16	hdr_size;
	__s32	pid;
	__s32	tid;
	__u32	euid;
	__u64	seq;
	__u64	order;
	__u64	lost;
	__s64	time_ns;
	__u32	log_id;
	__u32	flags;
	char	msg[];
};

/**
 * struct nslog_entry2 - nslogger's header with relays (NSLOG_ENTRY2_VERSION)
 * @len: as in struct nslog_entry
 * @hdr_size: sizeof(struct nslog_entry2), 72
 * @pid: as in struct nslog_entry
 * @tid: as in struct nslog_entry
 * @euid: as in struct nslog_entry
 * @seq: as in struct nslog_entry
 * @order: as in struct nslog_entry
 * @lost: as in struct nslog_entry
 * @time_ns: as in struct nslog_entry
 * @log_id: as in struct nslog_entry
 * @flags: as in struct nslog_entry
 * @relay_pid: with NSLOG_ENTRY_RELAYED, the relay's thread-group id as the
 *	reader's pid namespace sees it (0 if not visible there); else 0
 * @__reserved: 0
 * @stored_ns: CLOCK_REALTIME when the kernel stored the record: the same
 *	as @time_ns but for relayed records
 * @msg: the payload, @len bytes
 *
 * The first 56 bytes are struct nslog_entry's.
 */
struct nslog_entry2 {
	__u16	len;
	__u16	hdr_size;
	__s32	pid;
	__s32	tid;
	__u32	euid;
	__u64	seq;
	__u64	order;
	__u64	lost;
	__s64	time_ns;
	__u32	log_id;
	__u32	flags;
	__s32	relay_pid;
	__u32	__reserved;
	__s64	stored_ns;
	char	msg[];
};

/* The largest payload one record carries; longer writes are truncated. */
#define LOGGER_ENTRY_MAX_PAYLOAD	4076
/*
 * The largest record read() returns with nslogger's own header
 * (NSLOG_ENTRY_VERSION), and with the header relays add
 * (NSLOG_ENTRY2_VERSION): a reader's buffer for one record.
 */
#define NSLOG_ENTRY_MAX_LEN	(sizeof(struct nslog_entry) + \
				 LOGGER_ENTRY_MAX_PAYLOAD)
#define NSLOG_ENTRY2_MAX_LEN	(sizeof(struct nslog_entry2) + \
				 LOGGER_ENTRY_MAX_PAYLOAD)

/* Device names, as the driver registers them (devtmpfs: /dev/log_main ...). */
#define LOGGER_LOG_MAIN		"log_main"
#define LOGGER_LOG_EVENTS	"log_events"
#define LOGGER_LOG_RADIO	"log_radio"
#define LOGGER_LOG_SYSTEM	"log_system"

/* Text records: [priority][tag\0][message\0]. */
enum nslog_priority {
	NSLOG_PRIO_VERBOSE	= 2,
	NSLOG_PRIO_DEBUG	= 3,
	NSLOG_PRIO_INFO		= 4,
	NSLOG_PRIO_WARN		= 5,
	NSLOG_PRIO_ERROR	= 6,
	NSLOG_PRIO_FATAL	= 7,
};

/* Events records: [__s32 tag][type byte][value]. */
enum nslog_event_type {
	NSLOG_EVENT_INT		= 0,	/* __s32 */
	NSLOG_EVENT_LONG	= 1,	/* __s64 */
	NSLOG_EVENT_STRING	= 2,	/* __s32 length, then the bytes */
	NSLOG_EVENT_LIST	= 3,	/* __u8 count, then the items */
};

/*
 * Tag of the events record nslogger writes, as a STRING event, when a rate
 * limit dropped events records ("nslogger: suppressed N records ...").  In
 * the text logs the same notice is a WARN record with tag "nslogger".
 */
#define NSLOG_EVENT_TAG_SUPPRESSED	0x6e736c67

/*
 * The Android ioctls.  All are _IO() for compatibility; see the top of this
 * file.  The return value of the first three and of LOGGER_GET_VERSION is
 * the answer itself.
 */
#define __LOGGERIO	0xAE

/* Ring size in bytes.  Any open file. */
#define LOGGER_GET_LOG_BUF_SIZE		_IO(__LOGGERIO, 1)
/* Bytes of ring still unread by this reader.  Read fd, else -EBADF. */
#define LOGGER_GET_LOG_LEN		_IO(__LOGGERIO, 2)
/* Header plus payload size of the next record, 0 if none.  Read fd. */
#define LOGGER_GET_NEXT_ENTRY_LEN	_IO(__LOGGERIO, 3)
/* Drop every record.  Write fd (-EBADF) and privilege (-EPERM). */
#define LOGGER_FLUSH_LOG		_IO(__LOGGERIO, 4)
/*
 * This reader's header version, 1, 2, NSLOG_ENTRY_VERSION or
 * NSLOG_ENTRY2_VERSION.  Read fd.
 */
#define LOGGER_GET_VERSION		_IO(__LOGGERIO, 5)
/*
 * Takes an int __user * holding 1, 2, NSLOG_ENTRY_VERSION or
 * NSLOG_ENTRY2_VERSION (else -EINVAL).  Read fd.
 */
#define LOGGER_SET_VERSION		_IO(__LOGGERIO, 6)

/*
 * nslogger's own extensions, in today's style: direction and size encoded,
 * structures with explicit padding.
 */

/**
 * struct nslog_open_ns - argument of NSLOG_IOC_OPEN_NS
 * @ns_fd: an nsfs file of the IPC namespace to read, as from
 *	open("/proc/PID/ns/ipc"); or -1 to name the namespace by @ns_id
 * @flags: must be 0
 * @ns_id: with @ns_fd == -1, the namespace's id: the inode number that
 *	readlink("/proc/PID/ns/ipc") shows as ipc:[ID] and that
 *	/proc/nslogger/namespaces lists (dead namespaces included while in
 *	their grace period)
 */
struct nslog_open_ns {
	__s32	ns_fd;
	__u32	flags;
	__u64	ns_id;
};

/*
 * Host collection: returns a new read-only, close-on-exec file descriptor
 * on the same log (main, events, ...) of another IPC namespace's log set,
 * seeing every record, with pids shown as the caller's pid namespace sees
 * them.  Needs CAP_SYSLOG in the initial user namespace (-EPERM).  Errors:
 * -EBADF (bad @ns_fd), -EINVAL (@flags, or not an IPC namespace's nsfs
 * file), -ENOENT (no log set with that @ns_id), -ENOSPC, -ENOMEM.
 */
#define NSLOG_IOC_OPEN_NS	_IOW(__LOGGERIO, 0x40, struct nslog_open_ns)

/* struct nslog_info's flags. */
#define NSLOG_INFO_DEAD		0x1	/* the set's namespace is gone: reaped */

/**
 * struct nslog_info - what NSLOG_IOC_INFO tells of a file's log
 * @set_id: the log set's id: never the same for two sets while the machine
 *	runs, even across module loads (a random start, then one more for each
 *	set made); with the boot id, a collector knows a set it has seen
 * @ns_id: the set's IPC namespace id, as ipc:[ID] shows it
 * @head_seq: the seq the next record of this log will get
 * @tail_seq: the seq of the oldest record still stored (@head_seq if none)
 * @log_id: as in struct nslog_entry
 * @flags: NSLOG_INFO_DEAD
 */
struct nslog_info {
	__u64	set_id;
	__u64	ns_id;
	__u64	head_seq;
	__u64	tail_seq;
	__u32	log_id;
	__u32	flags;
};

/* A log's identity and extent.  Any fd of a log. */
#define NSLOG_IOC_INFO		_IOR(__LOGGERIO, 0x41, struct nslog_info)

/**
 * struct nslog_seek - argument of NSLOG_IOC_SEEK
 * @seq: in: where to read from, a seq of this log (struct nslog_entry)
 * @lost: out: how many records from @seq on are gone already (overwritten
 *	or flushed); the next record read reports them again in its @lost
 */
struct nslog_seek {
	__u64	seq;
	__u64	lost;
};

/*
 * Resume: the reader continues at the oldest stored record whose seq is
 * @seq or more, or at the head if there is none yet.  A collector that
 * shipped seq S seeks to S + 1.  Read fd (-EBADF).
 */
#define NSLOG_IOC_SEEK		_IOWR(__LOGGERIO, 0x42, struct nslog_seek)

/*
 * Resize: the log's ring becomes *arg bytes (a __u32), rounded up to a
 * power of two, keeping the newest records that fit; readers that were
 * behind what is dropped learn of it as when lapped.  LOGGER_GET_LOG_BUF_SIZE
 * tells the size it got.  Needs CAP_SYSLOG in the user namespace owning the
 * log's set (-EPERM) and a write fd (-EBADF).  Errors: -EINVAL (below 8 KiB),
 * -EFBIG (above what the host allows this set: the module parameter
 * ns_max_size for a namespace's set, 64 MiB for the host's), -EFAULT,
 * -ENOMEM.
 */
#define NSLOG_IOC_SET_SIZE	_IOW(__LOGGERIO, 0x43, __u32)

/* Longest name of a stream made in an nslogfs mount, its NUL not counted. */
#define NSLOG_STREAM_NAME_MAX	31

/* Log ids of streams made at run time start here (struct nslog_entry). */
#define NSLOG_STREAM_LOG_ID_MIN	8

/**
 * struct nslog_open_stream - argument of NSLOG_IOC_OPEN_STREAM
 * @ns_fd: as in struct nslog_open_ns
 * @flags: must be 0
 * @ns_id: as in struct nslog_open_ns
 * @name: the log's name, NUL-terminated: main, events, radio, system, or
 *	a stream made in an nslogfs mount (docs/nslogfs.md), as
 *	/proc/nslogger/namespaces lists it
 */
struct nslog_open_stream {
	__s32	ns_fd;
	__u32	flags;
	__u64	ns_id;
	char	name[NSLOG_STREAM_NAME_MAX + 1];
};

/*
 * Host collection by name: as NSLOG_IOC_OPEN_NS, but of the log named by
 * @name in the other set rather than of the caller's file's log.  Any fd of
 * a log.  Errors as NSLOG_IOC_OPEN_NS, and -EINVAL (@name not terminated),
 * -ENOENT (no log of that name in the set).
 */
#define NSLOG_IOC_OPEN_STREAM	_IOW(__LOGGERIO, 0x44, struct nslog_open_stream)

/* struct nslog_relay's flags. */
/*
 * If @pid names no live process any more, store the record anyway, with
 * @pid and @uid as given, marked NSLOG_ENTRY_UNVERIFIED; without it, a
 * writer that is gone is -ESRCH.
 */
#define NSLOG_RELAY_KEEP_EXITED	0x1
/*
 * Store into the log set of the writer's own IPC namespace, not the set of
 * the file the call is made on (a host relay serving every container).
 * Needs CAP_SYSLOG in the initial user namespace.
 */
#define NSLOG_RELAY_WRITER_SET	0x2
/*
 * Store into the log of the file the call is made on, whichever it is: one
 * of the four or a stream (an nslogfs file, docs/nslogfs.md), not the log
 * @log_id names; @log_id must then be 0.  Not with NSLOG_RELAY_WRITER_SET:
 * the file's log is of the file's set.
 */
#define NSLOG_RELAY_FILE_LOG	0x4

/**
 * struct nslog_relay - argument of NSLOG_IOC_RELAY: one record of another
 *	process
 * @pid: the writer's process id in the caller's pid namespace, as
 *	SCM_CREDENTIALS gives it; the kernel finds the process itself and
 *	stamps its pid and euid
 * @uid: the writer's uid in the caller's user namespace, as
 *	SCM_CREDENTIALS gives it; used only for a writer that is gone
 *	(NSLOG_RELAY_KEEP_EXITED), and must map into the set's user namespace
 * @tid: the writer's thread id, as it claims it (logd's header); stored
 *	and shown as given, never translated
 * @log_id: which log, as Android's LOG_ID_* number them: 0 main, 1 radio,
 *	2 events, 3 system; 0 with NSLOG_RELAY_FILE_LOG, which names the
 *	file's own log instead
 * @time_ns: the writer's CLOCK_REALTIME, as it claims it, nanoseconds since
 *	the epoch, 0 or more
 * @flags: NSLOG_RELAY_*
 * @len: payload bytes, 1 to LOGGER_ENTRY_MAX_PAYLOAD
 * @payload: the payload's address in the caller's memory: for the text
 *	logs [priority][tag\0][message\0], for events a binary event, as
 *	write() takes them (not checked by the kernel)
 * @__reserved: 0
 */
struct nslog_relay {
	__s32	pid;
	__u32	uid;
	__s32	tid;
	__u32	log_id;
	__s64	time_ns;
	__u32	flags;
	__u32	len;
	__u64	payload;
	__u64	__reserved[2];
};

/*
 * Store one record as written by another process (a logd-protocol relay).
 * On a write fd of any log of the set, a stream's included (a read fd only
 * for CAP_SYSLOG in the initial user namespace, such as NSLOG_IOC_OPEN_NS's);
 * the caller needs CAP_SYSLOG in the user namespace owning the set, and the
 * writer must be a process of the set's IPC namespace.  The record is
 * charged to the writer's cgroups, as if it had called write().  Returns
 * @len, also when a rate limit dropped it unless drop_errno is set (then
 * -EAGAIN).  Errors: -EBADF (read fd), -EPERM (no privilege over the set;
 * the writer in another IPC namespace), -EFAULT, -EINVAL (@flags,
 * @__reserved, @log_id, @tid, @time_ns, @len 0, @pid 0 or less;
 * NSLOG_RELAY_FILE_LOG with a @log_id or with NSLOG_RELAY_WRITER_SET),
 * -EMSGSIZE (@len over the maximum), -ESRCH (the writer is gone, without
 * NSLOG_RELAY_KEEP_EXITED), -EOVERFLOW (a gone writer's @uid does not map
 * into the set's user namespace), -ENOSPC, -ENOMEM.  docs/abi.md has the
 * recipe for pidfds.
 */
#define NSLOG_IOC_RELAY		_IOW(__LOGGERIO, 0x45, struct nslog_relay)

/* statfs()'s f_type of an nslogfs mount (docs/nslogfs.md). */
#define NSLOGFS_SUPER_MAGIC	0x6e736c66	/* "nslf" */

#endif /* _UAPI_LINUX_NSLOGGER_H */
