/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnslog: nslogger's extensions of the read API (<log/log_read.h>).
 *
 * Each is called between android_logger_list_alloc*() and the first
 * android_logger_open() unless it says otherwise; each returns 0 or a
 * negative errno.
 */
#ifndef NSLOG_NSLOG_READ_H
#define NSLOG_NSLOG_READ_H

#include <stdint.h>

#include <log/log_read.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Find the nodes in @dir (copied) instead of $NSLOG_DEV_DIR or the
 * defaults: @dir/main, @dir/log_main or @dir/log/main.
 */
int nslog_logger_list_set_dev_dir(struct logger_list *list, const char *dir);

/*
 * Read another IPC namespace's logs (a container's), as a host collector:
 * each log is opened with NSLOG_IOC_OPEN_NS (CAP_SYSLOG needed) on the
 * node's file.  @ns_fd: an nsfs file of the namespace (kept open by the
 * caller until android_logger_open() returned), or -1 to name it by
 * @ns_id.  Such a list cannot clear or resize (-EPERM).
 */
int nslog_logger_list_set_ns(struct logger_list *list, int ns_fd,
			     uint64_t ns_id);

/*
 * Which header android_logger_list_read() returns:
 *   0 (the default): version 4, converted from the best header the device
 *	gives (version 2 for the euid; version 1 where it refuses);
 *   2: version 4, and android_logger_open() fails if the device refuses
 *	version 2 (its errno, reported by nslog_logger_list_error());
 *   NSLOG_ENTRY_VERSION: nslogger's own header, struct nslog_entry
 *	(hdr_size 56: seq, order, lost, 64-bit time, log_id, flags), where
 *	the device gives it; else version 4 as for 0.  Records then merge by
 *	their write order (@order), exactly;
 *   NSLOG_ENTRY2_VERSION: nslogger's header with what relayed records add,
 *	struct nslog_entry2 (hdr_size 72: relay_pid, stored_ns), where the
 *	device gives it; from a module older than relays, which refuses it
 *	(EINVAL), struct nslog_entry as for NSLOG_ENTRY_VERSION; else
 *	version 4.  Tell them apart by hdr_size.
 */
int nslog_logger_list_set_header(struct logger_list *list, int version);

/*
 * After android_logger_open() returned NULL or android_logger_list_read()
 * failed: the log concerned, its node's path (the list's storage) and
 * what failed ("open", "NSLOG_IOC_OPEN_NS", "LOGGER_SET_VERSION", "read").
 * Return: the log id, or -1 if no failure was recorded.
 */
int nslog_logger_list_error(const struct logger_list *list,
			    const char **path, const char **what);

/* The node's path of an opened log (the list's storage). */
const char *nslog_logger_path(const struct logger *logger);

/*
 * The fd of an opened log, for poll() (readable when a record waits);
 * android_logger_list_read() owns reading it.
 */
int nslog_logger_fd(const struct logger *logger);

#ifdef __cplusplus
}
#endif

#endif /* NSLOG_NSLOG_READ_H */
