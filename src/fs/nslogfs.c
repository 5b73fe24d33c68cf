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
#include "log.h"
#include "fs/nslogfs.h"
#include "ns/registry.h"

/* Inode numbers: the root, then the logs in &enum nslog_log_id order. */
#define NSLOGFS_ROOT_INO	1
#define NSLOGFS_LOG_INO(id)	(2 + (id))

/**
 * struct nslogfs_info - one mount's superblock
 * @set: the log set shown; a counted reference, taken at fill_super
 * @uid: owner of the log files when made (mount option uid=)
 * @gid: their group (gid=)
 * @mode: their permission bits (mode=, 0622 by default)
 * @files: the log files' dentries, pinned until the superblock dies
 */
struct nslogfs_info {
	struct nslog_logset *set;
	kuid_t uid;
	kgid_t gid;
	umode_t mode;
	struct dentry *files[NSLOG_NR_LOGS];
};

static struct nslog_log *nslogfs_log(struct inode *inode)
{
	struct nslogfs_info *info = inode->i_sb->s_fs_info;

	return &info->set->logs[(unsigned long)inode->i_private];
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

static int nslogfs_open(struct inode *inode, struct file *file)
{
	struct nslogfs_info *info = inode->i_sb->s_fs_info;

	/* The VFS checked the mode against the opener: reading is all. */
	return nslog_file_open(file, nslog_logset_get(info->set),
			       (unsigned long)inode->i_private,
			       file->f_mode & FMODE_READ, nslogfs_may_flush);
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

	seq_printf(m, ",uid=%u,gid=%u,mode=%04o",
		   from_kuid_munged(user_ns, info->uid),
		   from_kgid_munged(user_ns, info->gid), info->mode);
	return 0;
}

static const struct super_operations nslogfs_super_ops = {
	.statfs		= simple_statfs,
	.show_options	= nslogfs_show_options,
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
	sb->s_time_gran = 1;
	/* Nothing here is a program or a device, whatever chmod says. */
	sb->s_iflags |= SB_I_NOEXEC | SB_I_NODEV;

	root = nslogfs_inode(sb, NSLOGFS_ROOT_INO, S_IFDIR | 0755, info->uid,
			     info->gid);
	if (!root)
		return -ENOMEM;
	root->i_op = &simple_dir_inode_operations;
	root->i_fop = &simple_dir_operations;
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

enum { NSLOGFS_OPT_UID, NSLOGFS_OPT_GID, NSLOGFS_OPT_MODE };

static const struct fs_parameter_spec nslogfs_params[] = {
	fsparam_u32("uid", NSLOGFS_OPT_UID),
	fsparam_u32("gid", NSLOGFS_OPT_GID),
	fsparam_u32oct("mode", NSLOGFS_OPT_MODE),
	{}
};

static int nslogfs_parse_param(struct fs_context *fc,
			       struct fs_parameter *param)
{
	struct nslogfs_info *info = fc->s_fs_info;
	struct fs_parse_result result;
	kuid_t uid;
	kgid_t gid;
	int opt;

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
