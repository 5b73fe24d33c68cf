// SPDX-License-Identifier: GPL-2.0
/*
 * collect_test: the collector's host-side parts that need no module: the
 * listing of /proc/nslogger/namespaces (nslist.c), the state file and
 * its atomic save (cstate.c), and finding a namespace's processes and
 * container (nsident.c) in a stand-in /proc of regular files, whose inode
 * numbers play the namespace ids (hard links put processes in one).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collector/cstate.h"
#include "collector/nsident.h"
#include "collector/nslist.h"
#include "tap.h"

#define ID1 "3f4b7e2c9a1d8f6e5b0c4a3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f"
#define ID2 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define POD_ "5c1d8d34_9b0e_4c8e_a1f2_3b4c5d6e7f80"
#define BOOT "4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d"
#define BOOT2 "9e1f3a2b-0000-4ad0-9c4e-0b0b3f1b6a1d"

static char dir[64];

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		printf("# cannot write %s\n", path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

static char *get_file(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void test_nslist(void)
{
	static const char text[] =
		"# ns_id user_ns_id state files log allocated used written stored set_id\n"
		"4026531839 4026531837 live 0 main 262144 1032 12 12 6414010659057826751\n"
		"4026531839 4026531837 live 0 events 0 0 0 0 6414010659057826751\n"
		"4026531839 4026531837 live 0 radio 0 0 0 0 6414010659057826751\n"
		"4026531839 4026531837 live 0 system 65536 100 7 5 6414010659057826751\n"
		"4026532301 4026532299 dead 2 main 65536 96 2 2 6414010659057826752\n"
		"4026532301 4026532299 dead 2 events 0 0 0 0 6414010659057826752\n"
		"4026532302 4026532299 live 1 main 65536 96 3 3 6414010659057826753\n";
	struct nslog_nslist l = { 0 };
	const struct nslog_nsent *e;
	char path[128];
	int fd, ret;

	ret = nslog_nslist_parse(&l, text);
	tap_ok(!ret && l.count == 3, "nslist: one entry per set");
	e = nslog_nslist_find(&l, 6414010659057826751ULL);
	tap_ok(e && e->ns_id == 4026531839ULL && !e->dead &&
	       e->stored[0] == 12 && e->stored[1] == 0 && e->stored[3] == 5,
	       "nslist: the host's set, live, records stored per log");
	e = nslog_nslist_find(&l, 6414010659057826752ULL);
	tap_ok(e && e->ns_id == 4026532301ULL && e->dead && e->stored[0] == 2,
	       "nslist: a dead set");
	tap_ok(!nslog_nslist_find(&l, 1), "nslist: an unknown set is not found");

	tap_int("nslist: lines without set_id: a module too old",
		nslog_nslist_parse(&l,
			"4026531839 4026531837 live 0 main 262144 1032 12 12\n"),
		-EPROTO);
	tap_int("nslist: a line that does not parse",
		nslog_nslist_parse(&l, "4026531839 x\n"), -EBADMSG);
	tap_int("nslist: trailing junk on a line",
		nslog_nslist_parse(&l,
			"1 2 live 0 main 0 0 0 0 5x\n"), -EBADMSG);
	ret = nslog_nslist_parse(&l, "# header only\n");
	tap_ok(!ret && !l.count, "nslist: no sets");

	snprintf(path, sizeof(path), "%s/namespaces", dir);
	put_file(path, text);
	fd = open(path, O_RDONLY);
	ret = nslog_nslist_read(&l, fd);
	ret = ret ? ret : nslog_nslist_read(&l, fd);
	tap_ok(!ret && l.count == 3,
	       "nslist: read from the start, twice from one fd");
	close(fd);
	unlink(path);
	nslog_nslist_free(&l);
}

static void test_nslist_streams(void)
{
	static const char text[] =
		"# ns_id user_ns_id state files log allocated used written stored set_id\n"
		"4026532301 4026532299 live 1 main 65536 96 3 3 6414010659057826753\n"
		"4026532301 4026532299 live 1 events 0 0 0 0 6414010659057826753\n"
		"4026532301 4026532299 live 1 radio 0 0 0 0 6414010659057826753\n"
		"4026532301 4026532299 live 1 system 0 0 0 0 6414010659057826753\n"
		"4026532301 4026532299 live 1 audit 65536 200 9 8 6414010659057826753\n"
		"4026532301 4026532299 live 1 app.web-1_x 65536 0 0 0 6414010659057826753\n"
		"4026532301 4026532299 live 1 Abcdefghijklmnopqrstuvwxyz01234 0 0 0 4 6414010659057826753\n"
		"4026532301 4026532299 live 1 .hidden 0 0 0 0 6414010659057826753\n"
		"4026532301 4026532299 live 1 Abcdefghijklmnopqrstuvwxyz012345 0 0 0 0 6414010659057826753\n"
		"4026532302 4026532299 live 1 main 65536 96 3 3 6414010659057826754\n";
	struct nslog_nslist l = { 0 };
	const struct nslog_nsent *e;
	int ret;

	ret = nslog_nslist_parse(&l, text);
	tap_ok(!ret && l.count == 2, "nslist: stream lines are lines of their set");
	e = nslog_nslist_find(&l, 6414010659057826753ULL);
	tap_ok(e && e->nstreams == 3 && e->stored[0] == 3,
	       "nslist: a set's streams after its fixed logs, bad names skipped");
	tap_ok(e && e->nstreams == 3 && !strcmp(e->streams[0].name, "audit") &&
	       e->streams[0].stored == 8 &&
	       !strcmp(e->streams[1].name, "app.web-1_x") &&
	       !strcmp(e->streams[2].name,
		       "Abcdefghijklmnopqrstuvwxyz01234") &&
	       e->streams[2].stored == 4,
	       "nslist: each stream's name and records stored, in order");
	e = nslog_nslist_find(&l, 6414010659057826754ULL);
	tap_ok(e && !e->nstreams, "nslist: a set without streams has none");

	/* a later listing: the stream is gone, the set keeps its others */
	ret = nslog_nslist_parse(&l,
		"4026532301 4026532299 live 1 main 0 0 0 0 6414010659057826753\n"
		"4026532301 4026532299 live 1 app.web-1_x 0 0 0 0 6414010659057826753\n");
	e = nslog_nslist_find(&l, 6414010659057826753ULL);
	tap_ok(!ret && e && e->nstreams == 1 &&
	       !strcmp(e->streams[0].name, "app.web-1_x"),
	       "nslist: a stream no longer listed is gone from the entry");

	tap_ok(nslog_stream_name_ok("a") && nslog_stream_name_ok("9-x.y_z") &&
	       !nslog_stream_name_ok("") && !nslog_stream_name_ok("-a") &&
	       !nslog_stream_name_ok("a/b") && !nslog_stream_name_ok("a b") &&
	       !nslog_stream_name_ok("main") && !nslog_stream_name_ok("events") &&
	       !nslog_stream_name_ok("radio") && !nslog_stream_name_ok("system"),
	       "nslist: stream names: [A-Za-z0-9][A-Za-z0-9._-]*, no fixed log's");
	nslog_nslist_free(&l);
}

static void test_boot_id(void)
{
	char path[128], id[NSLOG_BOOT_ID_LEN + 1];
	int ret;

	snprintf(path, sizeof(path), "%s/boot_id", dir);
	put_file(path, BOOT "\n");
	ret = nslog_boot_id(path, id);
	tap_ok(!ret && !strcmp(id, BOOT), "boot_id: read");
	put_file(path, "short\n");
	tap_int("boot_id: not 36 characters", nslog_boot_id(path, id),
		-EBADMSG);
	unlink(path);
	tap_int("boot_id: missing", nslog_boot_id(path, id), -ENOENT);
}

static void fill_state(struct nslog_cstate *st)
{
	struct nslog_cstate_set *s;

	memset(st, 0, sizeof(*st));
	strcpy(st->boot_id, BOOT);
	s = nslog_cstate_add(st, 6414010659057826751ULL, 4026531839ULL);
	s->has[0] = true;
	s->last[0] = 1022;
	s->has[3] = true;
	s->last[3] = 58;
	s = nslog_cstate_add(st, 6414010659057826752ULL, 4026532301ULL);
	s->has[1] = true;
	s->last[1] = 0;
	nslog_cstate_add(st, 18446744073709551615ULL, 4026532302ULL);
}

static void test_state_file(void)
{
	struct nslog_cstate st, got = { 0 };
	struct nslog_cstate_set *s;
	char path[128], tmp[160];
	unsigned int line;
	char *text;
	int ret;

	snprintf(path, sizeof(path), "%s/collector.state", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fill_state(&st);
	ret = nslog_cstate_save(&st, path);
	text = get_file(path);
	tap_ok(!ret && text && !strcmp(text,
		"# nslog-collector state (nslog-collector(8)): do not edit\n"
		"nslog-collector-state 1\n"
		"boot_id " BOOT "\n"
		"set 6414010659057826751 4026531839 main=1022 system=58\n"
		"set 6414010659057826752 4026532301 events=0\n"
		"set 18446744073709551615 4026532302\n"),
	       "state: saved as text, a line per set, only logs shipped from");
	tap_ok(access(tmp, F_OK) && errno == ENOENT,
	       "state: no temporary file left");

	ret = nslog_cstate_load(&got, path, BOOT, &line);
	s = nslog_cstate_find(&got, 6414010659057826751ULL);
	tap_ok(!ret && got.count == 3 && s && s->ns_id == 4026531839ULL &&
	       s->has[0] && s->last[0] == 1022 && !s->has[1] && !s->has[2] &&
	       s->has[3] && s->last[3] == 58 &&
	       nslog_cstate_find(&got, 18446744073709551615ULL) &&
	       nslog_cstate_find(&got, 6414010659057826752ULL)->has[1],
	       "state: loaded back the same");

	ret = nslog_cstate_load(&got, path, BOOT2, &line);
	tap_ok(ret == -ESTALE && !got.count && !strcmp(got.boot_id, BOOT2),
	       "state: of another boot: -ESTALE, empty, this boot's id");

	s = nslog_cstate_find(&st, 6414010659057826752ULL);
	nslog_cstate_remove(&st, s);
	st.sets[0].last[0] = 2000;
	put_file(tmp, "garbage left by a crash between write and rename\n");
	ret = nslog_cstate_save(&st, path);
	ret = ret ? ret : nslog_cstate_load(&got, path, BOOT, &line);
	tap_ok(!ret && got.count == 2 &&
	       nslog_cstate_find(&got, 6414010659057826751ULL)->last[0] == 2000 &&
	       !nslog_cstate_find(&got, 6414010659057826752ULL) &&
	       access(tmp, F_OK),
	       "state: saved over the old file and a stale temporary one");

	mkdir(tmp, 0755);
	ret = nslog_cstate_save(&st, path);
	text = get_file(path);
	tap_ok(ret == -EISDIR && text && strstr(text, "main=2000"),
	       "state: a save that fails leaves the old file whole");
	rmdir(tmp);

	snprintf(tmp, sizeof(tmp), "%s/nodir/collector.state", dir);
	tap_int("state: a save into a missing directory fails",
		nslog_cstate_save(&st, tmp), -ENOENT);

	snprintf(tmp, sizeof(tmp), "%s/missing.state", dir);
	ret = nslog_cstate_load(&got, tmp, BOOT, &line);
	tap_ok(!ret && !got.count, "state: no file is an empty state");

	nslog_cstate_free(&st);
	nslog_cstate_free(&got);
}

static void test_state_streams(void)
{
	struct nslog_cstate st = { 0 }, got = { 0 };
	const struct nslog_cstate_stream *a, *b;
	struct nslog_cstate_set *s;
	char path[128], name[32], *text;
	unsigned int line, i;
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/streams.state", dir);
	strcpy(st.boot_id, BOOT);
	s = nslog_cstate_add(&st, 6414010659057826753ULL, 4026532301ULL);
	s->has[0] = true;
	s->last[0] = 3;
	tap_ok(!nslog_cstate_stream_add(s, "audit", 8, 41) &&
	       !nslog_cstate_stream_add(s, "app.web-1_x", 4294967295U, 0),
	       "state: streams added by name");
	tap_int("state: a stream added twice",
		nslog_cstate_stream_add(s, "audit", 9, 42), -EEXIST);
	tap_int("state: a fixed log's name is no stream's",
		nslog_cstate_stream_add(s, "main", 9, 42), -EINVAL);
	ret = nslog_cstate_save(&st, path);
	text = get_file(path);
	tap_ok(!ret && text && strstr(text,
		"set 6414010659057826753 4026532301 main=3 audit:8=41 app.web-1_x:4294967295=0\n"),
	       "state: a set's streams saved by name and log id after its fixed logs");

	ret = nslog_cstate_load(&got, path, BOOT, &line);
	s = nslog_cstate_find(&got, 6414010659057826753ULL);
	a = s ? nslog_cstate_stream_find(s, "audit") : NULL;
	b = s ? nslog_cstate_stream_find(s, "app.web-1_x") : NULL;
	tap_ok(!ret && s && s->has[0] && s->last[0] == 3 && s->nstreams == 2 &&
	       a && a->last == 41 && a->log_id == 8 && b && b->last == 0 &&
	       b->log_id == 4294967295U && !nslog_cstate_stream_find(s, "audi"),
	       "state: streams loaded back by name, with their log ids");

	/* an older collector's file: a stream by name only */
	put_file(path, "nslog-collector-state 1\nboot_id " BOOT "\n"
		 "set 7 8 main=1 audit=41 app.x:9=2\n");
	ret = nslog_cstate_load(&got, path, BOOT, &line);
	s = nslog_cstate_find(&got, 7);
	a = s ? nslog_cstate_stream_find(s, "audit") : NULL;
	b = s ? nslog_cstate_stream_find(s, "app.x") : NULL;
	tap_ok(!ret && a && a->last == 41 && !a->log_id && b && b->last == 2 &&
	       b->log_id == 9,
	       "state: NAME=SEQ of an older file loads, its log id not known");
	ret = nslog_cstate_format(&got, &text, &len);
	tap_ok(!ret && strstr(text, " main=1 audit=41 app.x:9=2\n"),
	       "state: a stream whose log id is not known is saved as it was");

	/* many streams: a line longer than any fixed buffer */
	s = nslog_cstate_find(&st, 6414010659057826753ULL);
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "stream-number-%u", i);
		nslog_cstate_stream_add(s, name, 8 + i, 1000000000000ULL + i);
	}
	ret = nslog_cstate_save(&st, path);
	ret = ret ? ret : nslog_cstate_load(&got, path, BOOT, &line);
	s = nslog_cstate_find(&got, 6414010659057826753ULL);
	a = s ? nslog_cstate_stream_find(s, "stream-number-199") : NULL;
	free(text);
	tap_ok(!ret && s && s->nstreams == 202 && a &&
	       a->last == 1000000000199ULL && a->log_id == 207,
	       "state: a set of 202 streams: one long line, loaded whole");

	nslog_cstate_remove(&got, s);
	tap_ok(!got.count, "state: an entry with streams removed");
	nslog_cstate_free(&st);
	nslog_cstate_free(&got);
	unlink(path);
}

static void check_bad(const char *what, const char *text, unsigned int want)
{
	struct nslog_cstate got = { 0 };
	char path[128], msg[256];
	unsigned int line = 99;
	int ret;

	snprintf(path, sizeof(path), "%s/bad.state", dir);
	put_file(path, text);
	ret = nslog_cstate_load(&got, path, BOOT, &line);
	snprintf(msg, sizeof(msg), "state: %s", what);
	if (!tap_ok(ret == -EBADMSG && line == want && !got.count, msg))
		printf("#   ret %d line %u count %zu\n", ret, line, got.count);
	nslog_cstate_free(&got);
	unlink(path);
}

static void test_state_bad(void)
{
	static const char head[] = "nslog-collector-state 1\nboot_id " BOOT "\n";
	char text[512];

	check_bad("not a state file", "hello\n", 1);
	check_bad("a later version", "nslog-collector-state 2\n", 1);
	check_bad("cut short: no boot_id", "nslog-collector-state 1\n", 1);
	snprintf(text, sizeof(text), "%sset 1 2 main=3", head);
	check_bad("the last line without its newline (torn)", text, 3);
	/* "mian" would be a stream's name */
	snprintf(text, sizeof(text), "%sset 1 2 .mian=3\n", head);
	check_bad("a name that is no log's", text, 3);
	snprintf(text, sizeof(text), "%sset 1 2 audit=3 main=1 audit=4\n", head);
	check_bad("a stream twice", text, 3);
	snprintf(text, sizeof(text), "%sset 1 2 audit=x\n", head);
	check_bad("a stream's seq that is no number", text, 3);
	snprintf(text, sizeof(text), "%sset 1 2 audit:=3\n", head);
	check_bad("a stream's log id left out after ':'", text, 3);
	snprintf(text, sizeof(text), "%sset 1 2 audit:7=3\n", head);
	check_bad("a stream's log id below NSLOG_STREAM_LOG_ID_MIN", text, 3);
	snprintf(text, sizeof(text), "%sset 1 2 audit:4294967296=3\n", head);
	check_bad("a stream's log id over 32 bits", text, 3);
	snprintf(text, sizeof(text), "%sset 1 2 main:8=3\n", head);
	check_bad("a fixed log with a log id", text, 3);
	snprintf(text, sizeof(text), "%sset 1 2 main=3 main=4\n", head);
	check_bad("a log twice", text, 3);
	snprintf(text, sizeof(text), "%sset 1 2 main=-3\n", head);
	check_bad("a negative seq", text, 3);
	snprintf(text, sizeof(text), "%sset 1 2 main=99999999999999999999\n", head);
	check_bad("a seq over 64 bits", text, 3);
	snprintf(text, sizeof(text), "%sset 1 2\nset 1 3\n", head);
	check_bad("a set twice", text, 4);
	snprintf(text, sizeof(text), "%sset x 2\n", head);
	check_bad("a set id that is no number", text, 3);
	snprintf(text, sizeof(text), "%sboot_id " BOOT "\n", head);
	check_bad("boot_id twice", text, 3);
	check_bad("a set before boot_id",
		  "nslog-collector-state 1\nset 1 2\n", 2);
	snprintf(text, sizeof(text), "%s# a comment\nflush 1\n", head);
	check_bad("comments are skipped; an unknown keyword is not", text, 4);
}

/* A stand-in /proc: PID/ns/ipc hard links of ns files, PID/cgroup. */
static void mk_proc_pid(const char *proc, int pid, const char *ns,
			const char *cgroup)
{
	char path[256], target[256];

	snprintf(path, sizeof(path), "%s/%d", proc, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/ns", proc, pid);
	mkdir(path, 0755);
	snprintf(target, sizeof(target), "%s/ns-%s", dir, ns);
	snprintf(path, sizeof(path), "%s/%d/ns/ipc", proc, pid);
	if (link(target, path))
		printf("# link %s: %s\n", path, strerror(errno));
	if (cgroup) {
		snprintf(path, sizeof(path), "%s/%d/cgroup", proc, pid);
		put_file(path, cgroup);
	}
}

static __u64 ns_id(const char *ns)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/ns-%s", dir, ns);
	return stat(path, &st) ? 0 : (__u64)st.st_ino;
}

static void test_nsident(void)
{
	static const char *const names[] = {
		"host", "docker", "podman", "pod", "unit", "empty", "shared",
		"many",
	};
	struct nslog_nsq q[ARRAY_SIZE(names)];
	struct nslog_ident id;
	char proc[128], path[256];
	__u64 host;
	size_t i;
	int ret, pid;

	snprintf(proc, sizeof(proc), "%s/proc", dir);
	mkdir(proc, 0755);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/ns-%s", dir, names[i]);
		put_file(path, "");
	}
	mk_proc_pid(proc, 1, "host", "0::/init.scope\n");
	mk_proc_pid(proc, 11, "docker", "0::/system.slice/docker-" ID1 ".scope\n");
	mk_proc_pid(proc, 10, "docker", "0::/system.slice/docker-" ID1 ".scope\n");
	mk_proc_pid(proc, 20, "podman", "0::/machine.slice/libpod-conmon-" ID2 ".scope\n");
	mk_proc_pid(proc, 21, "podman", "0::/machine.slice/libpod-" ID2 ".scope/container\n");
	mk_proc_pid(proc, 30, "pod", "0::/kubepods.slice/kubepods-pod" POD_
		    ".slice/cri-containerd-" ID1 ".scope\n");
	mk_proc_pid(proc, 31, "pod", "0::/kubepods.slice/kubepods-pod" POD_
		    ".slice/cri-containerd-" ID2 ".scope\n");
	mk_proc_pid(proc, 40, "unit", "0::/system.slice/foo.service\n");
	mk_proc_pid(proc, 50, "shared", "0::/docker/" ID1 "\n");
	mk_proc_pid(proc, 51, "shared", "0::/docker/" ID2 "\n");
	for (pid = 120; pid > 100; pid--)
		mk_proc_pid(proc, pid, "many", NULL);
	snprintf(path, sizeof(path), "%s/self", proc);
	mkdir(path, 0755);

	ret = nslog_ns_host_id(proc, &host);
	tap_ok(!ret && host == ns_id("host"), "nsident: the host's: init's");

	for (i = 0; i < ARRAY_SIZE(names); i++)
		q[i].ns_id = ns_id(names[i]);
	ret = nslog_ns_find(proc, q, ARRAY_SIZE(names));
	tap_ok(!ret && q[1].count == 2 && q[1].pids[0] == 10 &&
	       q[1].pids[1] == 11 && q[0].count == 1 && q[0].pids[0] == 1 &&
	       q[5].count == 0,
	       "nsident: one walk finds each namespace's processes, lowest first");
	tap_ok(q[7].count == NSLOG_NSIDENT_PIDS && q[7].pids[0] == 101 &&
	       q[7].pids[NSLOG_NSIDENT_PIDS - 1] == 100 + NSLOG_NSIDENT_PIDS,
	       "nsident: at most NSLOG_NSIDENT_PIDS, the lowest");

	ret = nslog_ns_ident(proc, &q[1], &id);
	tap_ok(!ret && id.runtime && !strcmp(id.runtime, "docker") && id.id &&
	       !strcmp(id.id, ID1), "nsident: a docker container");
	nslog_ident_free(&id);
	ret = nslog_ns_ident(proc, &q[2], &id);
	tap_ok(!ret && id.runtime && !strcmp(id.runtime, "podman") && id.id &&
	       !strcmp(id.id, ID2) && id.cgroup &&
	       !strcmp(id.cgroup, "/machine.slice/libpod-" ID2 ".scope/container"),
	       "nsident: podman: conmon skipped, the container's cgroup kept");
	nslog_ident_free(&id);
	ret = nslog_ns_ident(proc, &q[3], &id);
	tap_ok(!ret && id.runtime && !strcmp(id.runtime, "kubernetes") &&
	       id.pod && !strcmp(id.pod, "5c1d8d34-9b0e-4c8e-a1f2-3b4c5d6e7f80") &&
	       !id.id, "nsident: two containers of a pod: the pod's, no container id");
	nslog_ident_free(&id);
	ret = nslog_ns_ident(proc, &q[4], &id);
	tap_ok(!ret && !id.runtime && id.unit && !strcmp(id.unit, "foo.service"),
	       "nsident: no container: the unit");
	nslog_ident_free(&id);
	ret = nslog_ns_ident(proc, &q[5], &id);
	tap_ok(!ret && !id.runtime && !id.cgroup && !id.unit,
	       "nsident: no process: nothing known");
	nslog_ident_free(&id);
	ret = nslog_ns_ident(proc, &q[6], &id);
	tap_ok(!ret && id.id && !strcmp(id.id, ID1),
	       "nsident: two containers, no pod (--ipc container:): the lowest pid's");
	nslog_ident_free(&id);
	ret = nslog_ns_ident(proc, &q[7], &id);
	tap_ok(!ret && !id.runtime && !id.cgroup,
	       "nsident: processes gone before their cgroup was read: nothing");
	nslog_ident_free(&id);

	snprintf(path, sizeof(path), "%s/missing", dir);
	tap_int("nsident: no /proc", nslog_ns_find(path, q, 1), -ENOENT);
}

int main(void)
{
	char cmd[128];

	snprintf(dir, sizeof(dir), "/tmp/nslog_collect.XXXXXX");
	if (!tap_ok(mkdtemp(dir), "make a scratch directory"))
		return tap_done();
	test_nslist();
	test_nslist_streams();
	test_boot_id();
	test_state_file();
	test_state_streams();
	test_state_bad();
	test_nsident();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return tap_done();
}
