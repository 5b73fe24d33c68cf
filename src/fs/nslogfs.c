// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: nslogfs, an IPC namespace's log set as a filesystem.
 */

/**
 * DOC: nslogfs
 *
 * Each mount shows the log set of the mounter's IPC namespace, the same set
 * the device nodes reach from there: one file per log (main, events, radio,
 * system), whose open files are those of the devices (file.c).  Mounted on
 * /dev/log it gives Android user space its paths without a device node, so
 * a container with no access to the host's /dev can have its logs.
 *
 * Who may mount: as for mqueue, a mount belongs to the user namespace that
 * owns the IPC namespace (fc->user_ns), so mounting takes CAP_SYS_ADMIN
 * there (mount_capable()).  A rootless container that made its own IPC
 * namespace mounts its own set; a user namespace sharing the host's IPC
 * namespace cannot mount the host's.  So the mount's owner already holds
 * CAP_SYSLOG over the set, and nothing a mount's permissions grant is more
 * than that owner could do through the devices.
 *
 * Who may do what, inside: the files' owner, group and mode (mount options
 * uid=, gid=, mode=, then chown and chmod, judged in the mount's user
 * namespace) decide.  Write permission is writing records; read permission
 * is reading every record (there is no own-records-only view here: a reader
 * without it cannot open the file); flushing (LOGGER_FLUSH_LOG, or truncate
 * to 0) takes both, checked with the caller's credentials when it flushes.
 * The owner and mode live in the mount's inodes: two mounts of one set have
 * their own.  Resizing (NSLOG_IOC_SET_SIZE) is as through the devices.
 *
 * Lifetimes: the superblock holds a reference to the set, each open file
 * another; the set outlives its namespace while either is there (readers
 * then get end of file, as on the devices).  The files' dentries are pinned
 * by references the superblock keeps and drops when it is killed.
 */

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/ipc_namespace.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>

#include <uapi/linux/nslogger.h>

#include "file.h"
#include "logset.h"
#include "fs/nslogfs.h"
#include "ns/registry.h"
#include "stream.h"

/* Inode numbers: the root, then the logs in &enum nslog_log_id order. */
#define NSLOGFS_ROOT_INO	1
#define NSLOGFS_LOG_INO(id)	(2 + (id))

/**
 * struct nslogfs_info - one mount's superblock
 * @set: the log set shown; a counted reference, taken at fill_super
 * @uid: owner of the log files when made (mount option uid=)
 * @gid: their group (gid=)
 * @mode: their permission bits (mode=, 0622 by default)
 * @size: ring size of a stream made here (size=, 64K by default)
 * @limits: what the set's streams may take, made or resized through this
 *	mount (streams=, stream_bytes=)
 * @files: the log files' dentries, pinned until the superblock dies
 */
struct nslogfs_info {
	struct nslog_logset *set;
	kuid_t uid;
	kgid_t gid;
	umode_t mode;
	u32 size;
	struct nslog_stream_limits limits;
	struct dentry *files[NSLOG_NR_LOGS];
};

static const struct inode_operations nslogfs_stream_iops;

/* The stream a file of the mount is, or NULL for one of the four logs. */
static struct nslog_stream *nslogfs_stream(struct inode *inode)
{
	return inode->i_op == &nslogfs_stream_iops ? inode->i_private : NULL;
}

static struct nslog_log *nslogfs_log(struct inode *inode)
{
	struct nslogfs_info *info = inode->i_sb->s_fs_info;
	struct nslog_stream *s = nslogfs_stream(inode);

	return s ? &s->log : &info->set->logs[(unsigned long)inode->i_private];
}

/*
 * A stream's owner and mode belong to the stream, so that every mount of
 * its set shows the same: an inode takes them before they are looked at.
 */
static void nslogfs_stream_sync(struct inode *inode)
{
	struct nslog_stream *s = nslogfs_stream(inode);

	if (!s)
		return;
	inode->i_uid = READ_ONCE(s->uid);
	inode->i_gid = READ_ONCE(s->gid);
	inode->i_mode = S_IFREG | READ_ONCE(s->mode);
}

/* Flushing takes the right to read everything and to write, now. */
static int nslogfs_may_flush_inode(struct nslog_idmap *idmap,
				   struct inode *inode)
{
	return inode_permission(idmap, inode, MAY_READ | MAY_WRITE);
}

static bool nslogfs_may_flush(struct file *file)
{
	return !nslogfs_may_flush_inode(nslog_file_idmap(file),
					file_inode(file));
}

/*
 * NSLOG_IOC_SET_SIZE, once the caller's CAP_SYSLOG over the set is
 * checked: a stream's new size counts against this mount's limits.
 */
static int nslogfs_resize(struct file *file, u32 size)
{
	struct inode *inode = file_inode(file);
	struct nslogfs_info *info = inode->i_sb->s_fs_info;
	struct nslog_stream *s = nslogfs_stream(inode);
	struct nslog_log *log = nslogfs_log(inode);

	if (s)
		return nslog_stream_resize(s, size, &info->limits);
	return nslog_log_resize(log, size, nslog_logset_max_size(log->set));
}

static const struct nslog_opener nslogfs_opener = {
	.may_flush	= nslogfs_may_flush,
	.resize		= nslogfs_resize,
};

static int nslogfs_open(struct inode *inode, struct file *file)
{
	struct nslogfs_info *info = inode->i_sb->s_fs_info;
	struct nslog_stream *s = nslogfs_stream(inode);

	nslog_logset_get(info->set);
	if (s)
		nslog_stream_get(s);
	/* The VFS checked the mode against the opener: reading is all. */
	return nslog_file_open(file, nslogfs_log(inode),
			       file->f_mode & FMODE_READ, &nslogfs_opener);
}

static const struct file_operations nslogfs_log_fops = {
	NSLOG_FILE_OPS,
	.open		= nslogfs_open,
};

/*
 * st_size is what the log holds (bytes of stored records, headers
 * included, as LOGGER_GET_LOG_LEN counts them for a reader at the oldest);
 * st_blocks is its ring, in 512-byte units, once allocated (the first
 * write allocates it): the memory it takes, as for a file on disk.
 */
static int nslogfs_getattr(struct nslog_idmap *idmap, const struct path *path,
			   struct kstat *stat, u32 request_mask,
			   unsigned int query_flags)
{
	struct inode *inode = d_inode(path->dentry);
	struct nslog_ring_stats st;
	int err;

	nslogfs_stream_sync(inode);
	err = simple_getattr(idmap, path, stat, request_mask, query_flags);
	if (err)
		return err;
	nslog_ring_stats(&nslogfs_log(inode)->ring, &st);
	stat->size = st.used;
	stat->blocks = st.allocated ? st.size >> 9 : 0;
	return 0;
}

/*
 * Truncating to 0 (truncate(2), or an open with O_TRUNC) flushes; no other
 * size means anything.  chown and chmod are simple_setattr()'s, judged by
 * setattr_prepare() in the mount's user namespace; a log's mode has read
 * and write bits only.
 */
static int nslogfs_setattr(struct nslog_idmap *idmap, struct dentry *dentry,
			   struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	int err;

	/* As mode=: a log is read or written, nothing else. */
	if ((attr->ia_valid & ATTR_MODE) && S_ISREG(inode->i_mode) &&
	    (attr->ia_mode & 07777 & ~0666))
		return -EINVAL;
	if (attr->ia_valid & ATTR_SIZE) {
		if (attr->ia_size)
			return -EINVAL;
		err = nslogfs_may_flush_inode(idmap, inode);
		if (err)
			return err;
		nslog_log_flush(nslogfs_log(inode));
		attr->ia_valid &= ~ATTR_SIZE;
	}
	return simple_setattr(idmap, dentry, attr);
}

static const struct inode_operations nslogfs_log_iops = {
	.getattr	= nslogfs_getattr,
	.setattr	= nslogfs_setattr,
};

static int nslogfs_stream_setattr(struct nslog_idmap *idmap,
				  struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	struct nslog_stream *s = nslogfs_stream(inode);
	int err;

	nslogfs_stream_sync(inode);
	err = nslogfs_setattr(idmap, dentry, attr);
	if (err)
		return err;
	/* Racing changes from two mounts: one of them wins whole fields. */
	WRITE_ONCE(s->uid, inode->i_uid);
	WRITE_ONCE(s->gid, inode->i_gid);
	WRITE_ONCE(s->mode, inode->i_mode & 0666);
	return 0;
}

static int nslogfs_stream_permission(struct nslog_idmap *idmap,
				     struct inode *inode, int mask)
{
	nslogfs_stream_sync(inode);
	return generic_permission(idmap, inode, mask);
}

static const struct inode_operations nslogfs_stream_iops = {
	.permission	= nslogfs_stream_permission,
	.getattr	= nslogfs_getattr,
	.setattr	= nslogfs_stream_setattr,
};

static struct inode *nslogfs_inode(struct super_block *sb, unsigned long ino,
				   umode_t mode, kuid_t uid, kgid_t gid)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = ino;
	inode->i_mode = mode;
	inode->i_uid = uid;
	inode->i_gid = gid;
	nslog_inode_init_ts(inode);
	return inode;
}

/* Streams' inode numbers follow the four logs', in the order of log ids. */
static unsigned long nslogfs_stream_ino(const struct nslog_stream *s)
{
	return NSLOGFS_LOG_INO(NSLOG_NR_LOGS) + s->log_id -
	       NSLOG_STREAM_LOG_ID_MIN;
}

/* Make @inode @s's, taking over the caller's reference to @s. */
static void nslogfs_stream_attach(struct inode *inode, struct nslog_stream *s)
{
	inode->i_ino = nslogfs_stream_ino(s);
	inode->i_private = s;
	inode->i_op = &nslogfs_stream_iops;
	inode->i_fop = &nslogfs_log_fops;
}

/* An inode of this mount for @s, whose reference it takes over. */
static struct inode *nslogfs_stream_inode(struct super_block *sb,
					  struct nslog_stream *s)
{
	struct inode *inode;

	inode = nslogfs_inode(sb, 0, S_IFREG | s->mode, s->uid, s->gid);
	if (!inode) {
		nslog_stream_put(s);
		return NULL;
	}
	nslogfs_stream_attach(inode, s);
	return inode;
}

/*
 * Streams are looked up in the set each time their name is not cached, so
 * that one made through another mount of the set is found; names that are
 * not there are cached as such, until nslogfs_d_revalidate() says not.
 */
static struct dentry *nslogfs_lookup(struct inode *dir, struct dentry *dentry,
				     unsigned int flags)
{
	struct nslogfs_info *info = dir->i_sb->s_fs_info;
	struct inode *inode = NULL;
	struct nslog_stream *s;

	if (dentry->d_name.len > NSLOG_STREAM_NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	s = nslog_stream_find(info->set, dentry->d_name.name);
	if (s) {
		inode = nslogfs_stream_inode(dir->i_sb, s);
		if (!inode)
			return ERR_PTR(-ENOMEM);
	}
	return d_splice_alias(inode, dentry);
}

/*
 * A cached name is good while it is of a stream still in the set, or of
 * one of the four logs; a name cached as missing is looked up again, as
 * another mount may have made it since.
 */
static int nslogfs_d_revalidate(NSLOG_D_REVALIDATE_ARGS)
{
	struct inode *inode = d_inode_rcu(dentry);
	struct nslog_stream *s;

	if (!inode)
		return 0;
	/* Inodes are freed after RCU readers; so is reading their i_op. */
	s = nslogfs_stream(inode);
	if (!s)
		return 1;
	/*
	 * A stream is freed at once with the inode's last reference: look at
	 * it only with the dentry, hence the inode, held.
	 */
	if (flags & LOOKUP_RCU)
		return -ECHILD;
	/* Paired with WRITE_ONCE() in nslog_stream_remove(). */
	return !READ_ONCE(s->log.gone);
}

static const struct dentry_operations nslogfs_dentry_ops = {
	.d_revalidate	= nslogfs_d_revalidate,
	.d_delete	= always_delete_dentry,
};

/*
 * Creating a file makes a stream in the set, with this mount's size and
 * limits; its owner is the creator, its mode the read and write bits of
 * what it asked for (after its umask).
 */
static int nslogfs_create(struct nslog_idmap *idmap, struct inode *dir,
			  struct dentry *dentry, umode_t mode, bool excl)
{
	struct nslogfs_info *info = dir->i_sb->s_fs_info;
	struct nslog_stream *s;
	struct inode *inode;

	if (dentry->d_name.len > NSLOG_STREAM_NAME_MAX)
		return -ENAMETOOLONG;
	/* The owner as a file's would be, then made the stream's. */
	inode = nslogfs_inode(dir->i_sb, 0, S_IFREG, GLOBAL_ROOT_UID,
			      GLOBAL_ROOT_GID);
	if (!inode)
		return -ENOMEM;
	inode_init_owner(idmap, inode, dir, S_IFREG | (mode & 0666));
	s = nslog_stream_create(info->set, dentry->d_name.name, info->size,
				&info->limits, inode->i_uid, inode->i_gid,
				inode->i_mode);
	if (IS_ERR(s)) {
		iput(inode);
		return PTR_ERR(s);
	}
	nslogfs_stream_attach(inode, s);
	d_instantiate(dentry, inode);
	nslog_ns_note_change();
	return 0;
}

/* Unlinking a stream removes it from the set; the four logs stay. */
static int nslogfs_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = d_inode(dentry);
	struct nslog_stream *s = nslogfs_stream(inode);
	int err;

	if (!s)
		return -EPERM;
	err = nslog_stream_remove(s);
	if (err)
		return err;
	clear_nlink(inode);
	nslog_ns_note_change();
	return 0;
}

static const struct inode_operations nslogfs_dir_iops = {
	.lookup		= nslogfs_lookup,
	.create		= nslogfs_create,
	.unlink		= nslogfs_unlink,
	.setattr	= simple_setattr,
	.getattr	= simple_getattr,
};

/*
 * The directory: dots, the four logs, then the streams in the order they
 * were made, positioned by log id so that a listing that goes on after a
 * change neither repeats nor skips a stream that stayed.
 */
#define NSLOGFS_POS_STREAMS	(2 + NSLOG_NR_LOGS)

static int nslogfs_readdir(struct file *file, struct dir_context *ctx)
{
	struct nslogfs_info *info = file_inode(file)->i_sb->s_fs_info;
	struct nslog_stream *s;
	unsigned int id;
	bool more;

	if (!dir_emit_dots(file, ctx))
		return 0;
	for (; ctx->pos < NSLOGFS_POS_STREAMS; ctx->pos++) {
		id = ctx->pos - 2;
		if (!dir_emit(ctx, nslog_log_names[id],
			      strlen(nslog_log_names[id]),
			      NSLOGFS_LOG_INO(id), DT_REG))
			return 0;
	}
	for (;;) {
		s = nslog_stream_next(info->set, ctx->pos - NSLOGFS_POS_STREAMS +
					      NSLOG_STREAM_LOG_ID_MIN);
		if (!s)
			return 0;
		ctx->pos = NSLOGFS_POS_STREAMS + s->log_id -
			   NSLOG_STREAM_LOG_ID_MIN;
		more = dir_emit(ctx, s->name, strlen(s->name),
				nslogfs_stream_ino(s), DT_REG);
		nslog_stream_put(s);
		if (!more)
			return 0;
		ctx->pos++;
	}
}

static const struct file_operations nslogfs_dir_fops = {
	.owner		= THIS_MODULE,
	.read		= generic_read_dir,
	.iterate_shared	= nslogfs_readdir,
	.llseek		= generic_file_llseek,
};

static int nslogfs_add_log(struct super_block *sb, unsigned int id)
{
	struct nslogfs_info *info = sb->s_fs_info;
	struct dentry *dentry;
	struct inode *inode;

	dentry = d_alloc_name(sb->s_root, nslog_log_names[id]);
	if (!dentry)
		return -ENOMEM;
	inode = nslogfs_inode(sb, NSLOGFS_LOG_INO(id), S_IFREG | info->mode,
			      info->uid, info->gid);
	if (!inode) {
		dput(dentry);
		return -ENOMEM;
	}
	inode->i_private = (void *)(unsigned long)id;
	inode->i_op = &nslogfs_log_iops;
	inode->i_fop = &nslogfs_log_fops;
	/* d_alloc_name()'s reference stays, pinning the file: see kill_sb. */
	d_add(dentry, inode);
	info->files[id] = dentry;
	return 0;
}

static int nslogfs_show_options(struct seq_file *m, struct dentry *root)
{
	struct nslogfs_info *info = root->d_sb->s_fs_info;
	struct user_namespace *user_ns = root->d_sb->s_user_ns;

	seq_printf(m, ",uid=%u,gid=%u,mode=%04o,size=%u,streams=%u,stream_bytes=%llu",
		   from_kuid_munged(user_ns, info->uid),
		   from_kgid_munged(user_ns, info->gid), info->mode,
		   info->size, info->limits.streams, info->limits.bytes);
	return 0;
}

/* A stream's inode holds a reference to it; the four logs' hold nothing. */
static void nslogfs_evict_inode(struct inode *inode)
{
	struct nslog_stream *s = nslogfs_stream(inode);

	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	if (s)
		nslog_stream_put(s);
}

static const struct super_operations nslogfs_super_ops = {
	.statfs		= simple_statfs,
	.show_options	= nslogfs_show_options,
	.evict_inode	= nslogfs_evict_inode,
};

static int nslogfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct nslogfs_info *info = sb->s_fs_info;
	struct nslog_logset *set;
	struct inode *root;
	unsigned int id;
	int err;

	/*
	 * The mounter's set, which must be of the IPC namespace the mount's
	 * user namespace was taken from (a setns() in between would mount
	 * another namespace's set on the first one's privilege).
	 */
	set = nslog_ns_current_set();
	if (IS_ERR(set))
		return PTR_ERR(set);
	info->set = set;
	if (set->user_ns != fc->user_ns)
		return -EPERM;

	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = NSLOGFS_SUPER_MAGIC;
	sb->s_op = &nslogfs_super_ops;
	nslog_set_default_d_op(sb, &nslogfs_dentry_ops);
	sb->s_time_gran = 1;
	/* Nothing here is a program or a device, whatever chmod says. */
	sb->s_iflags |= SB_I_NOEXEC | SB_I_NODEV;

	root = nslogfs_inode(sb, NSLOGFS_ROOT_INO, S_IFDIR | 0755, info->uid,
			     info->gid);
	if (!root)
		return -ENOMEM;
	root->i_op = &nslogfs_dir_iops;
	root->i_fop = &nslogfs_dir_fops;
	set_nlink(root, 2);
	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;

	for (id = 0; id < NSLOG_NR_LOGS; id++) {
		err = nslogfs_add_log(sb, id);
		if (err)
			return err;
	}
	return 0;
}

static int nslogfs_get_tree(struct fs_context *fc)
{
	/* A superblock per mount: modes and owners are the mount's own. */
	return get_tree_nodev(fc, nslogfs_fill_super);
}

enum {
	NSLOGFS_OPT_UID, NSLOGFS_OPT_GID, NSLOGFS_OPT_MODE, NSLOGFS_OPT_SIZE,
	NSLOGFS_OPT_STREAMS, NSLOGFS_OPT_STREAM_BYTES,
};

static const struct fs_parameter_spec nslogfs_params[] = {
	fsparam_u32("uid", NSLOGFS_OPT_UID),
	fsparam_u32("gid", NSLOGFS_OPT_GID),
	fsparam_u32oct("mode", NSLOGFS_OPT_MODE),
	fsparam_string("size", NSLOGFS_OPT_SIZE),
	fsparam_u32("streams", NSLOGFS_OPT_STREAMS),
	fsparam_string("stream_bytes", NSLOGFS_OPT_STREAM_BYTES),
	{}
};

/* A byte count with memparse()'s suffixes (64K, 1M). */
static int nslogfs_parse_bytes(struct fs_context *fc,
			       struct fs_parameter *param, u64 min, u64 max,
			       u64 *bytes)
{
	char *end;

	*bytes = memparse(param->string, &end);
	if (end == param->string || *end || *bytes < min || *bytes > max)
		return invalfc(fc, "%s=%s: a byte count from %llu to %llu, e.g. 64K",
			       param->key, param->string, min, max);
	return 0;
}

static int nslogfs_parse_param(struct fs_context *fc,
			       struct fs_parameter *param)
{
	struct nslogfs_info *info = fc->s_fs_info;
	struct fs_parse_result result;
	kuid_t uid;
	kgid_t gid;
	u64 bytes;
	int opt, err;

	opt = fs_parse(fc, nslogfs_params, param, &result);
	if (opt < 0)
		return opt;
	switch (opt) {
	case NSLOGFS_OPT_UID:
		uid = make_kuid(fc->user_ns, result.uint_32);
		if (!uid_valid(uid))
			return invalfc(fc, "uid %u is not mapped",
				       result.uint_32);
		info->uid = uid;
		break;
	case NSLOGFS_OPT_GID:
		gid = make_kgid(fc->user_ns, result.uint_32);
		if (!gid_valid(gid))
			return invalfc(fc, "gid %u is not mapped",
				       result.uint_32);
		info->gid = gid;
		break;
	case NSLOGFS_OPT_MODE:
		if (result.uint_32 & ~0666)
			return invalfc(fc, "mode %o: only read and write bits",
				       result.uint_32);
		info->mode = result.uint_32;
		break;
	case NSLOGFS_OPT_SIZE:
		/* Checked against the set's limit at each create. */
		err = nslogfs_parse_bytes(fc, param, NSLOG_RING_MIN_SIZE,
					  NSLOG_RING_MAX_SIZE, &bytes);
		if (err)
			return err;
		info->size = bytes;
		break;
	case NSLOGFS_OPT_STREAMS:
		info->limits.streams = result.uint_32;
		break;
	case NSLOGFS_OPT_STREAM_BYTES:
		err = nslogfs_parse_bytes(fc, param, 0, U64_MAX, &bytes);
		if (err)
			return err;
		info->limits.bytes = bytes;
		break;
	}
	return 0;
}

static void nslogfs_free_fc(struct fs_context *fc)
{
	/* Still here if no superblock took it; it holds no set yet. */
	kfree(fc->s_fs_info);
}

static const struct fs_context_operations nslogfs_context_ops = {
	.free		= nslogfs_free_fc,
	.parse_param	= nslogfs_parse_param,
	.get_tree	= nslogfs_get_tree,
};

static int nslogfs_init_fs_context(struct fs_context *fc)
{
	struct nslogfs_info *info;

	info = kzalloc(sizeof(*info), GFP_KERNEL_ACCOUNT);
	if (!info)
		return -ENOMEM;
	info->uid = current_fsuid();
	info->gid = current_fsgid();
	info->mode = 0622;
	info->size = 64 << 10;
	info->limits.streams = 16;
	info->limits.bytes = 1 << 20;
	fc->s_fs_info = info;
	fc->ops = &nslogfs_context_ops;
	/*
	 * The mount belongs to the user namespace owning the mounter's IPC
	 * namespace: see the DOC comment above.  Only the task itself changes
	 * its nsproxy.
	 */
	put_user_ns(fc->user_ns);
	fc->user_ns = get_user_ns(current->nsproxy->ipc_ns->user_ns);
	return 0;
}

static void nslogfs_kill_sb(struct super_block *sb)
{
	struct nslogfs_info *info = sb->s_fs_info;
	unsigned int id;

	/* Unpin the files, so that the umount finds every dentry unused. */
	for (id = 0; id < NSLOG_NR_LOGS; id++)
		dput(info->files[id]);
	kill_anon_super(sb);
	if (info->set)
		nslog_ns_put_set(info->set);
	kfree(info);
}

static struct file_system_type nslogfs_type = {
	.owner			= THIS_MODULE,
	.name			= "nslogfs",
	.init_fs_context	= nslogfs_init_fs_context,
	.parameters		= nslogfs_params,
	.kill_sb		= nslogfs_kill_sb,
	.fs_flags		= FS_USERNS_MOUNT,
};
MODULE_ALIAS_FS("nslogfs");

/**
 * nslog_fs_init() - register the filesystem
 *
 * Context: module init.
 * Return: 0 or a negative errno from register_filesystem().
 */
int nslog_fs_init(void)
{
	return register_filesystem(&nslogfs_type);
}

/**
 * nslog_fs_exit() - unregister the filesystem
 *
 * Context: module exit; nothing is mounted (a mount holds the module).
 */
void nslog_fs_exit(void)
{
	unregister_filesystem(&nslogfs_type);
}
