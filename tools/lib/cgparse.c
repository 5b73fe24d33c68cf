// SPDX-License-Identifier: GPL-2.0
/*
 * cgparse: a container's identity from its cgroup path.
 *
 * The path is split into its components, and each component, from the
 * deepest up, is tried against the rules below in order; the first rule
 * that matches a component decides for it.  The deepest container (or
 * monitor) component wins, so that a container in a container is the
 * inner one, and a service inside a container ("/lxc.payload.web/
 * system.slice/nginx.service") is its container's.  Pod rules are looked
 * for over the whole path.  Without any container rule matching, the
 * deepest ".service" or ".scope" component is kept as the unit.
 *
 * A rule matches a component PREFIX<middle>SUFFIX whose middle is of its
 * class (64 lower-case hex digits, a UUID, or any non-empty name), with
 * optionally the component right above it (PARENT; "pod*" is a prefix)
 * and some component above it (UNDER, a prefix) given.  Systemd escapes
 * '-' in unit names as "\x2d": machine names are unescaped; pod UIDs in
 * systemd slices have '_' for '-'.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cgparse.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The deepest components looked at; cgroup trees are never this deep. */
#define NSLOG_CG_DEPTH	64

enum nslog_cg_class {
	CG_HEX64,		/* a container id */
	CG_UUID,		/* a Kubernetes pod uid */
	CG_NAME,		/* anything */
};

enum nslog_cg_what {
	CG_ID,			/* the container's id */
	CG_CNAME,		/* the container's name */
	CG_POD,			/* the pod's uid or id */
	CG_MONITOR,		/* a runtime's own process, not a container */
};

#define CG_UNESCAPE	0x1	/* systemd's \xNN escapes */
#define CG_DASHES	0x2	/* '_' stands for '-' */

struct nslog_cg_rule {
	const char *parent;
	const char *under;
	const char *prefix;
	const char *suffix;
	enum nslog_cg_class cls;
	enum nslog_cg_what what;
	const char *runtime;
	unsigned int flags;
};

/*
 * The table.  Examples of each, from the runtimes' documentation and
 * real hosts, are in tests/tools/cgparse_test.c.
 */
static const struct nslog_cg_rule nslog_cg_rules[] = {
	/* Docker: systemd driver (also rootless), cgroupfs driver */
	{ NULL, NULL, "docker-", ".scope", CG_HEX64, CG_ID, "docker", 0 },
	{ "docker", NULL, "", "", CG_HEX64, CG_ID, "docker", 0 },
	/* Podman: conmon, containers (systemd, cgroupfs), pods */
	{ NULL, NULL, "libpod-conmon-", ".scope", CG_HEX64, CG_MONITOR,
	  "podman", 0 },
	{ NULL, NULL, "libpod-", ".scope", CG_HEX64, CG_ID, "podman", 0 },
	{ "libpod_parent", NULL, "libpod-", "", CG_HEX64, CG_ID, "podman",
	  0 },
	{ NULL, NULL, "machine-libpod_pod_", ".slice", CG_HEX64, CG_POD,
	  "podman", 0 },
	/* LXC (and Incus, LXD): 4.0 and later, then 1.x to 3.x */
	{ NULL, NULL, "lxc.monitor.", "", CG_NAME, CG_MONITOR, "lxc", 0 },
	{ NULL, NULL, "lxc.payload.", "", CG_NAME, CG_CNAME, "lxc", 0 },
	{ "lxc.payload", NULL, "", "", CG_NAME, CG_CNAME, "lxc", 0 },
	{ "lxc.monitor", NULL, "", "", CG_NAME, CG_MONITOR, "lxc", 0 },
	{ "lxc", NULL, "", "", CG_NAME, CG_CNAME, "lxc", 0 },
	/* CRI-O (Kubernetes): conmon, containers (systemd, cgroupfs) */
	{ NULL, NULL, "crio-conmon-", ".scope", CG_HEX64, CG_MONITOR,
	  "cri-o", 0 },
	{ NULL, NULL, "crio-", ".scope", CG_HEX64, CG_ID, "cri-o", 0 },
	{ NULL, "kubepods", "crio-", "", CG_HEX64, CG_ID, "cri-o", 0 },
	/* containerd: CRI (Kubernetes), nerdctl */
	{ NULL, NULL, "cri-containerd-", ".scope", CG_HEX64, CG_ID,
	  "containerd", 0 },
	{ NULL, NULL, "nerdctl-", ".scope", CG_HEX64, CG_ID, "containerd",
	  0 },
	/* Kubernetes, cgroupfs driver: /kubepods/QOS/pod<uid>/<id> */
	{ "pod*", "kubepods", "", "", CG_HEX64, CG_ID, NULL, 0 },
	{ NULL, "kubepods", "pod", "", CG_UUID, CG_POD, "kubernetes", 0 },
	/* Kubernetes, systemd driver: one slice per pod, by QoS class */
	{ NULL, NULL, "kubepods-pod", ".slice", CG_UUID, CG_POD,
	  "kubernetes", CG_DASHES },
	{ NULL, NULL, "kubepods-burstable-pod", ".slice", CG_UUID, CG_POD,
	  "kubernetes", CG_DASHES },
	{ NULL, NULL, "kubepods-besteffort-pod", ".slice", CG_UUID, CG_POD,
	  "kubernetes", CG_DASHES },
	/* ... under a cgroup root of "/kubelet" (kind, nested nodes) */
	{ NULL, NULL, "kubelet-kubepods-pod", ".slice", CG_UUID, CG_POD,
	  "kubernetes", CG_DASHES },
	{ NULL, NULL, "kubelet-kubepods-burstable-pod", ".slice", CG_UUID,
	  CG_POD, "kubernetes", CG_DASHES },
	{ NULL, NULL, "kubelet-kubepods-besteffort-pod", ".slice", CG_UUID,
	  CG_POD, "kubernetes", CG_DASHES },
	/* systemd-nspawn (machined's machines): machine-NAME.scope */
	{ NULL, NULL, "machine-", ".scope", CG_NAME, CG_CNAME,
	  "systemd-nspawn", CG_UNESCAPE },
};

struct nslog_cg_path {
	char buf[4096];
	char *comp[NSLOG_CG_DEPTH];
	int count;
};

static int nslog_cg_split(struct nslog_cg_path *p, const char *path)
{
	char *s, *save = NULL;
	size_t n = strlen(path);

	if (n >= sizeof(p->buf))
		return -ENAMETOOLONG;
	memcpy(p->buf, path, n + 1);
	p->count = 0;
	for (s = strtok_r(p->buf, "/", &save); s;
	     s = strtok_r(NULL, "/", &save)) {
		if (p->count == NSLOG_CG_DEPTH)
			memmove(p->comp, p->comp + 1,
				sizeof(p->comp[0]) * --p->count);
		p->comp[p->count++] = s;
	}
	return 0;
}

static bool nslog_cg_starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* "name" is the component itself; "name*" any component it starts. */
static bool nslog_cg_glob(const char *pat, const char *s)
{
	size_t n = strlen(pat);

	if (n && pat[n - 1] == '*')
		return !strncmp(s, pat, n - 1);
	return !strcmp(s, pat);
}

static bool nslog_cg_hex64(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return !s[64];
}

static bool nslog_cg_uuid(const char *s)
{
	size_t i;

	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
		} else if (!((s[i] >= '0' && s[i] <= '9') ||
			     (s[i] >= 'a' && s[i] <= 'f'))) {
			return false;
		}
	}
	return !s[36];
}

static int nslog_cg_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* In place: "\xNN" becomes the byte NN (not NUL). */
static void nslog_cg_unescape(char *s)
{
	char *out = s;
	int hi, lo;

	while (*s) {
		hi = s[0] == '\\' && s[1] == 'x' ? nslog_cg_hexval(s[2]) : -1;
		lo = hi >= 0 ? nslog_cg_hexval(s[3]) : -1;
		if (lo >= 0 && (hi || lo)) {
			*out++ = (char)(hi << 4 | lo);
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

static bool nslog_cg_class_ok(enum nslog_cg_class cls, const char *s)
{
	switch (cls) {
	case CG_HEX64:
		return nslog_cg_hex64(s);
	case CG_UUID:
		return nslog_cg_uuid(s);
	case CG_NAME:
		return *s && strcmp(s, ".") && strcmp(s, "..");
	}
	return false;
}

/*
 * Whether @r matches component @i of @p: its middle, allocated, or NULL
 * (with *@err set to -ENOMEM if that is why).
 */
static char *nslog_cg_match(const struct nslog_cg_rule *r,
			    const struct nslog_cg_path *p, int i, int *err)
{
	const char *c = p->comp[i];
	size_t n = strlen(c), pl = strlen(r->prefix), sl = strlen(r->suffix);
	char *mid, *s;
	int j;

	if (r->parent && (!i || !nslog_cg_glob(r->parent, p->comp[i - 1])))
		return NULL;
	if (r->under) {
		for (j = 0; j < i; j++)
			if (nslog_cg_starts(p->comp[j], r->under))
				break;
		if (j == i)
			return NULL;
	}
	if (n <= pl + sl || strncmp(c, r->prefix, pl) ||
	    strcmp(c + n - sl, r->suffix))
		return NULL;
	mid = strndup(c + pl, n - pl - sl);
	if (!mid) {
		*err = -ENOMEM;
		return NULL;
	}
	if (r->flags & CG_UNESCAPE)
		nslog_cg_unescape(mid);
	if (r->flags & CG_DASHES)
		for (s = mid; *s; s++)
			if (*s == '_')
				*s = '-';
	if (!nslog_cg_class_ok(r->cls, mid)) {
		free(mid);
		return NULL;
	}
	return mid;
}

/* The deepest "*.service" or "*.scope" component, when no rule matched. */
static int nslog_cg_unit(struct nslog_ident *id, const struct nslog_cg_path *p)
{
	const char *c;
	size_t n;
	int i;

	for (i = p->count - 1; i >= 0; i--) {
		c = p->comp[i];
		n = strlen(c);
		if ((n > 8 && !strcmp(c + n - 8, ".service")) ||
		    (n > 6 && !strcmp(c + n - 6, ".scope"))) {
			id->unit = strdup(c);
			return id->unit ? 0 : -ENOMEM;
		}
	}
	return 0;
}

struct nslog_cg_found {
	enum nslog_cg_kind kind;
	const char *ctr_runtime;
	const char *pod_runtime;
};

/* Apply a match of @r, whose middle is @mid (taken over). */
static void nslog_cg_take(struct nslog_ident *id, struct nslog_cg_found *f,
			  const struct nslog_cg_rule *r, char *mid)
{
	switch (r->what) {
	case CG_ID:
	case CG_CNAME:
	case CG_MONITOR:
		if (f->kind != NSLOG_CG_NONE)
			break;
		f->kind = r->what == CG_MONITOR ? NSLOG_CG_MONITOR :
			  NSLOG_CG_CONTAINER;
		f->ctr_runtime = r->runtime;
		if (r->what == CG_ID) {
			id->id = mid;
			return;
		}
		if (r->what == CG_CNAME) {
			id->name = mid;
			return;
		}
		break;
	case CG_POD:
		if (id->pod)
			break;
		id->pod = mid;
		f->pod_runtime = r->runtime;
		return;
	}
	free(mid);
}

/**
 * nslog_cg_parse() - the container of a cgroup path
 * @id: filled in (all of it; free with nslog_ident_free())
 * @path: a cgroup path, as /proc/PID/cgroup shows it ("/system.slice/...")
 *
 * Context: process context; allocates.
 * Return: NSLOG_CG_CONTAINER, NSLOG_CG_MONITOR (a runtime's monitor:
 * @id has only the runtime and the cgroup), NSLOG_CG_NONE (@id has the
 * cgroup and maybe the unit), -ENOMEM or -ENAMETOOLONG.
 */
int nslog_cg_parse(struct nslog_ident *id, const char *path)
{
	static struct nslog_cg_path p;
	struct nslog_cg_found f = { .kind = NSLOG_CG_NONE };
	const struct nslog_cg_rule *r;
	char *mid;
	int err = 0, i;
	size_t k;

	memset(id, 0, sizeof(*id));
	err = nslog_cg_split(&p, path);
	if (err)
		return err;
	id->cgroup = strdup(path);
	if (!id->cgroup)
		return -ENOMEM;

	for (i = p.count - 1; i >= 0; i--) {
		for (k = 0; k < ARRAY_SIZE(nslog_cg_rules); k++) {
			r = &nslog_cg_rules[k];
			mid = nslog_cg_match(r, &p, i, &err);
			if (err)
				goto fail;
			if (mid) {
				nslog_cg_take(id, &f, r, mid);
				break;
			}
		}
	}

	if (f.kind == NSLOG_CG_MONITOR) {
		id->runtime = f.ctr_runtime;
		free(id->pod);
		id->pod = NULL;
		return NSLOG_CG_MONITOR;
	}
	if (id->pod && f.pod_runtime && !strcmp(f.pod_runtime, "kubernetes")) {
		id->runtime = f.pod_runtime;
		id->engine = f.ctr_runtime;
		return NSLOG_CG_CONTAINER;
	}
	if (id->pod) {
		id->runtime = f.pod_runtime;
		return NSLOG_CG_CONTAINER;
	}
	if (f.kind == NSLOG_CG_CONTAINER) {
		id->runtime = f.ctr_runtime;
		return NSLOG_CG_CONTAINER;
	}
	err = nslog_cg_unit(id, &p);
	if (!err)
		return NSLOG_CG_NONE;
fail:
	nslog_ident_free(id);
	return err;
}

/**
 * nslog_cg_path() - the cgroup path in the text of /proc/PID/cgroup
 * @text: the file's text, lines "ID:CONTROLLERS:PATH"
 * @buf: where the path is copied
 * @size: size of @buf
 *
 * The unified hierarchy's line ("0::PATH", cgroup v2 or hybrid) if there
 * is one, else the "name=systemd" line, else the first.  A " (deleted)"
 * suffix (a removed cgroup) is dropped.
 *
 * Context: any.
 * Return: @buf, or NULL if no line has a path or it does not fit.
 */
const char *nslog_cg_path(const char *text, char *buf, unsigned int size)
{
	const char *best = NULL, *line, *c1, *c2, *end;
	int rank = 0, r;
	size_t n;

	for (line = text; *line; line = *end ? end + 1 : end) {
		end = line + strcspn(line, "\n");
		c1 = memchr(line, ':', (size_t)(end - line));
		c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
		if (!c2 || c2 + 1 == end)
			continue;
		if (c1 - line == 1 && line[0] == '0' && c2 == c1 + 1)
			r = 3;
		else if (c2 - c1 - 1 == 12 && !strncmp(c1 + 1, "name=systemd", 12))
			r = 2;
		else
			r = 1;
		if (r > rank) {
			rank = r;
			best = c2 + 1;
		}
	}
	if (!best)
		return NULL;
	n = strcspn(best, "\n");
	if (n >= 10 && !strncmp(best + n - 10, " (deleted)", 10))
		n -= 10;
	if (n >= size)
		return NULL;
	memcpy(buf, best, n);
	buf[n] = '\0';
	return buf;
}

/**
 * nslog_cg_from_proc() - nslog_cg_parse() on the text of /proc/PID/cgroup
 * @id: filled in
 * @text: the file's text
 *
 * Context: process context; allocates.
 * Return: as nslog_cg_parse(); -ENOENT if @text names no cgroup.
 */
int nslog_cg_from_proc(struct nslog_ident *id, const char *text)
{
	static char path[4096];

	memset(id, 0, sizeof(*id));
	if (!nslog_cg_path(text, path, sizeof(path)))
		return -ENOENT;
	return nslog_cg_parse(id, path);
}

static bool nslog_str_same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

/**
 * nslog_ident_same() - whether two identities name the same container
 * @a: one
 * @b: the other
 *
 * Context: any.
 * Return: true if runtime, engine, id, name and pod are all equal.
 */
bool nslog_ident_same(const struct nslog_ident *a, const struct nslog_ident *b)
{
	return nslog_str_same(a->runtime, b->runtime) &&
	       nslog_str_same(a->engine, b->engine) &&
	       nslog_str_same(a->id, b->id) &&
	       nslog_str_same(a->name, b->name) &&
	       nslog_str_same(a->pod, b->pod);
}

static int nslog_dup(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

/**
 * nslog_ident_copy() - a deep copy
 * @dst: filled in
 * @src: copied
 *
 * Context: process context; allocates.
 * Return: 0 or -ENOMEM (then @dst holds nothing).
 */
int nslog_ident_copy(struct nslog_ident *dst, const struct nslog_ident *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->runtime = src->runtime;
	dst->engine = src->engine;
	if (nslog_dup(&dst->id, src->id) || nslog_dup(&dst->name, src->name) ||
	    nslog_dup(&dst->pod, src->pod) || nslog_dup(&dst->unit, src->unit) ||
	    nslog_dup(&dst->cgroup, src->cgroup)) {
		nslog_ident_free(dst);
		return -ENOMEM;
	}
	return 0;
}

/**
 * nslog_ident_free() - release an identity's strings; it is empty after
 * @id: the identity
 *
 * Context: any.
 */
void nslog_ident_free(struct nslog_ident *id)
{
	free(id->id);
	free(id->name);
	free(id->pod);
	free(id->unit);
	free(id->cgroup);
	memset(id, 0, sizeof(*id));
}
