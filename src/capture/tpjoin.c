/* SPDX-License-Identifier: MIT */
/*
 * The tracepoint capture (traces/capture/swapreplay-capture-tp.bt) joined
 * into swap events: see tpjoin.h and traces/capture/README.md.
 *
 * Where the kernel's own code puts each event (mm/page_io.c and
 * mm/vmscan.c, 5.x to 6.18):
 * - a swap-out is one bio per folio, REQ_OP_WRITE, submitted by the task
 *   that reclaims (swap_writepage_bdev_sync/async(), from
 *   __swap_writepage()); block:block_bio_queue sees it when it is
 *   submitted, before a plug or the elevator merges it into a request;
 *   vmscan's pageout() then traces mm_vmscan_write_folio for the folio;
 * - a swap-in read is one bio per folio, REQ_OP_READ, submitted by the
 *   faulting task (swap_read_folio_bdev_*()), readahead's neighbours first
 *   and in the same way; the kernel counts pswpin for each folio read and
 *   pswpout for each folio written, in pages (count_swpout_vm_event(),
 *   count_vm_events(PSWPIN)), so the pages of these bios are those counts;
 * - a request completes (block:block_rq_complete) for all the bios merged
 *   into it: the sectors [sector, sector + nr_sectors) cover them.
 * A bio's device in block_bio_queue is its own block device (a partition
 * stays one after blk_partition_remap(), its sector made the disk's);
 * block_rq_complete names the disk: an extent gives both numbers.
 *
 * The slot of a bio at disk sector s in the extent (page p0, sector s0)
 * of swap area t: offset = p0 + (s - s0) / 8 (4 KiB pages of 8 sectors).
 * Its latency: the completion's time less its queueing time.
 *
 * The memcg of a bio's folio (version 5 on, kernels from 6.13): the
 * kernel counts the folio's pages in its memcg's pswpout or pswpin
 * (count_memcg_folio_events(), traced as memcg:count_memcg_events with
 * the memcg's cgroup id) right before it submits the bio, in the same
 * task (swap_writepage_bdev_*() through count_swpout_vm_event(), and
 * swap_read_folio_bdev_*(), 6.13 to 6.18): an M line is kept for its task
 * and given to that task's next bio of its direction.  A folio without a
 * memcg is not counted: its bio has none.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "capture/tpjoin.h"
#include "common/parse.h"
#include "common/u64map.h"

struct ext {
	uint32_t type, qdev, cdev;
	uint32_t disk;         /* index of cdev in sr_tpjoin.disks */
	uint64_t page, sector, pages;
};

/*
 * A disk requests complete on, with the maps of its sectors: each disk
 * has maps of its own, so that no key made of a device number and a
 * sector can stand for two (a device number is 32 bits, a sector up to
 * 2^52 + 2^55 in an extent: together they do not fit a 64-bit key).
 */
struct disk {
	uint32_t cdev;
	struct sr_u64map by_sector; /* sector -> seq + 1 of the bio queued there */
	/* Completions read before their bio's line, sector -> time: bpftrace
	 * prints each CPU's lines from a buffer of its own, so a request
	 * completed on one CPU may come out before its bio queued on
	 * another. */
	struct sr_u64map early;
};

struct pend {
	struct sr_event ev;
	uint64_t pfn;
	uint64_t sector;       /* disk sector of the bio */
	uint32_t disk;         /* the disk, as completions name it: an index in disks */
	uint64_t ino;          /* its memcg's cgroup inode (an M line's), 0 none */
	uint8_t has_pfn, done;
};

struct sr_tpjoin {
	struct ext *ext;       /* by (qdev, sector) once sorted */
	struct ext *by_disk;   /* the same by (cdev, sector) */
	size_t next, ext_cap;
	int sorted;
	struct pend *ring;     /* pending events, queue order: seq & (cap - 1) */
	size_t cap;
	uint64_t head, tail;   /* sequence numbers: [head, tail) pending */
	struct disk *disks;    /* the extents' disks, by cdev, once sorted */
	size_t ndisks;
	struct sr_u64map last_write; /* task -> seq + 1 of its last write */
	struct sr_u64map last_read; /* task -> seq + 1 of its last read */
	struct sr_u64map wait_start; /* task -> ts_ns + 1 of its last entry to wait4() */
	struct sr_u64map parent;     /* task -> its parent + 1 (F) */
	struct sr_u64map exited;     /* task -> its one exited, unreaped child + 1;
				      * UINT64_MAX: more than one */
	struct sr_u64map woke;       /* task -> child + 1 of a wait written early */
	struct sr_u64map memcg_out;  /* task -> cgroup inode of its next write (M, o) */
	struct sr_u64map memcg_in;   /* task -> cgroup inode of its next read (M, i) */
	uint64_t latest_ts;
	struct sr_capture_stats *st; /* the capture's: its tracepoint counts */
};

struct sr_tpjoin *sr_tpjoin_new(struct sr_capture_stats *st)
{
	struct sr_tpjoin *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->st = st;
	sr_u64map_init(&j->last_write);
	sr_u64map_init(&j->last_read);
	sr_u64map_init(&j->wait_start);
	sr_u64map_init(&j->parent);
	sr_u64map_init(&j->exited);
	sr_u64map_init(&j->woke);
	sr_u64map_init(&j->memcg_out);
	sr_u64map_init(&j->memcg_in);
	return j;
}

static void disks_free(struct sr_tpjoin *j)
{
	size_t i;

	for (i = 0; i < j->ndisks; i++) {
		sr_u64map_free(&j->disks[i].by_sector);
		sr_u64map_free(&j->disks[i].early);
	}
	free(j->disks);
	j->disks = NULL;
	j->ndisks = 0;
}

void sr_tpjoin_free(struct sr_tpjoin *j)
{
	if (!j)
		return;
	free(j->ext);
	free(j->ring);
	disks_free(j);
	sr_u64map_free(&j->last_write);
	sr_u64map_free(&j->last_read);
	sr_u64map_free(&j->wait_start);
	sr_u64map_free(&j->parent);
	sr_u64map_free(&j->exited);
	sr_u64map_free(&j->woke);
	sr_u64map_free(&j->memcg_out);
	sr_u64map_free(&j->memcg_in);
	free(j->by_disk);
	free(j);
}

/* The comma-separated fields of s into f[0..n); the count found. */
static size_t split(const char *s, size_t len, const char **f, size_t *fl, size_t n)
{
	size_t k = 0, pos = 0;

	while (k < n) {
		const char *c = memchr(s + pos, ',', len - pos);
		size_t l = c ? (size_t)(c - (s + pos)) : len - pos;

		f[k] = s + pos;
		fl[k++] = l;
		if (!c)
			return k;
		pos += l + 1;
	}
	return k + 1; /* more than n */
}

int sr_tpjoin_extent(struct sr_tpjoin *j, const char *s, size_t len, char *msg, size_t msz)
{
	static const char *const name[6] = { "type", "dev", "disk", "page", "sector", "pages" };
	const char *f[8];
	size_t fl[8], k;
	uint64_t v[6];
	struct ext *e;

	if (split(s, len, f, fl, 8) != 7) {
		snprintf(msg, msz, "a swap extent has 7 fields (" SR_CAPTURE_TP_EXTENT ")");
		return -1;
	}
	for (k = 0; k < 6; k++) {
		uint64_t max = k < 3 ? UINT32_MAX : (1ull << 52);

		if (sr_parse_u64(f[k + 1], fl[k + 1], max, &v[k])) {
			snprintf(msg, msz, "swap extent: not a number (%s, \"%.*s\")", name[k],
				 (int)(fl[k + 1] > 32 ? 32 : fl[k + 1]), f[k + 1]);
			return -1;
		}
	}
	if (j->sorted) {
		snprintf(msg, msz, "a swap extent after the capture's lines began");
		return -1;
	}
	if (v[0] >= 32 || !v[5]) {
		snprintf(msg, msz, "swap extent: type %llu (0 to 31) with %llu pages (at least 1)",
			 (unsigned long long)v[0], (unsigned long long)v[5]);
		return -1;
	}
	if (j->next == j->ext_cap) {
		size_t nc = j->ext_cap ? 2 * j->ext_cap : 16;
		struct ext *ne = realloc(j->ext, nc * sizeof(*ne));

		if (!ne) {
			snprintf(msg, msz, "out of memory");
			return -2;
		}
		j->ext = ne;
		j->ext_cap = nc;
	}
	e = &j->ext[j->next++];
	e->type = (uint32_t)v[0];
	e->qdev = (uint32_t)v[1];
	e->cdev = (uint32_t)v[2];
	e->page = v[3];
	e->sector = v[4];
	e->pages = v[5];
	j->sorted = 0;
	return 0;
}

int sr_tpjoin_has_extents(const struct sr_tpjoin *j)
{
	return j->next > 0;
}

static int ext_cmp(const void *a, const void *b)
{
	const struct ext *x = a, *y = b;

	if (x->qdev != y->qdev)
		return x->qdev < y->qdev ? -1 : 1;
	return x->sector < y->sector ? -1 : x->sector > y->sector;
}

static int ext_cmp_disk(const void *a, const void *b)
{
	const struct ext *x = a, *y = b;

	if (x->cdev != y->cdev)
		return x->cdev < y->cdev ? -1 : 1;
	return x->sector < y->sector ? -1 : x->sector > y->sector;
}

/* The index in j->disks of the disk cdev, or -1 if no extent is on it. */
static long disk_find(const struct sr_tpjoin *j, uint32_t cdev)
{
	size_t lo = 0, hi = j->ndisks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (j->disks[mid].cdev < cdev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < j->ndisks && j->disks[lo].cdev == cdev ? (long)lo : -1;
}

/* Sort the extents both ways once they are all in (before the first data
 * line: sr_tpjoin_extent() refuses one after), and list their disks; 0,
 * or -1 out of memory. */
static int ext_sort(struct sr_tpjoin *j)
{
	size_t i;

	if (j->sorted)
		return 0;
	disks_free(j);
	free(j->by_disk);
	j->by_disk = malloc((j->next ? j->next : 1) * sizeof(*j->by_disk));
	j->disks = calloc(j->next ? j->next : 1, sizeof(*j->disks));
	if (!j->by_disk || !j->disks)
		return -1;
	qsort(j->ext, j->next, sizeof(*j->ext), ext_cmp);
	memcpy(j->by_disk, j->ext, j->next * sizeof(*j->ext));
	qsort(j->by_disk, j->next, sizeof(*j->by_disk), ext_cmp_disk);
	for (i = 0; i < j->next; i++) {
		if (!j->ndisks || j->disks[j->ndisks - 1].cdev != j->by_disk[i].cdev) {
			struct disk *k = &j->disks[j->ndisks++];

			k->cdev = j->by_disk[i].cdev;
			sr_u64map_init(&k->by_sector);
			sr_u64map_init(&k->early);
		}
		j->by_disk[i].disk = (uint32_t)(j->ndisks - 1);
	}
	for (i = 0; i < j->next; i++)
		j->ext[i].disk = (uint32_t)disk_find(j, j->ext[i].cdev);
	j->sorted = 1;
	return 0;
}

/* The extent of a[0..n) holding sector on device dev (its qdev, or its
 * cdev with disk set), or NULL: a binary search for the last extent
 * starting at or before (dev, sector). */
static const struct ext *ext_search(const struct ext *a, size_t n, int disk, uint32_t dev,
				    uint64_t sector)
{
	size_t lo = 0, hi = n;
	const struct ext *e;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t d;

		e = &a[mid];
		d = disk ? e->cdev : e->qdev;
		if (d < dev || (d == dev && e->sector <= sector))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	e = &a[lo - 1];
	if ((disk ? e->cdev : e->qdev) != dev || sector >= e->sector + e->pages * 8)
		return NULL;
	return e;
}

static const struct ext *ext_find(struct sr_tpjoin *j, uint32_t qdev, uint64_t sector)
{
	return ext_search(j->ext, j->next, 0, qdev, sector);
}

static struct pend *pend_of(struct sr_tpjoin *j, uint64_t seq1)
{
	if (!seq1 || seq1 - 1 < j->head || seq1 - 1 >= j->tail)
		return NULL;
	return &j->ring[(seq1 - 1) & (j->cap - 1)];
}

static struct pend *pend_push(struct sr_tpjoin *j)
{
	if (j->tail - j->head == j->cap) {
		size_t nc = j->cap ? 2 * j->cap : 1024;
		struct pend *nr = malloc(nc * sizeof(*nr));
		uint64_t s;

		if (!nr)
			return NULL;
		for (s = j->head; s < j->tail; s++)
			nr[s & (nc - 1)] = j->ring[s & (j->cap - 1)];
		free(j->ring);
		j->ring = nr;
		j->cap = nc;
	}
	return &j->ring[j->tail++ & (j->cap - 1)];
}

/* The operation of a block event's rwbs: 'W', 'R', or 0 for any other
 * (a flush, a discard); a leading F is a preflush. */
static char rwbs_op(const char *s, size_t len)
{
	if (len && s[0] == 'F') {
		s++;
		len--;
	}
	return len && (s[0] == 'W' || s[0] == 'R') ? s[0] : 0;
}

/* A pending event of op for line v (its time, task, CPU and node), next
 * in the queue's order; NULL out of memory. */
static struct pend *pend_line(struct sr_tpjoin *j, const uint64_t *v, int op)
{
	struct pend *p = pend_push(j);

	if (!p)
		return NULL;
	sr_event_init(&p->ev);
	p->ev.ts_ns = v[0];
	p->ev.op = (uint8_t)op;
	p->ev.pid = (uint32_t)v[2];
	p->ev.cpu = (uint32_t)v[3];
	p->ev.cpu_nid = (uint16_t)v[4];
	p->ev.flags = SR_EV_HAS_CPU;
	p->ino = 0;
	return p;
}

static int queued(struct sr_tpjoin *j, const uint64_t *v, const char *rw, size_t rwl)
{
	const struct ext *e;
	struct disk *dk;
	struct pend *p;
	uint64_t nr, *slot;
	char op = rwbs_op(rw, rwl);
	int added;

	e = ext_find(j, (uint32_t)v[5], v[6]);
	nr = v[7] / 8;
	/* Not a swap area's, or not whole pages (the file system's metadata,
	 * say): not swap I/O. */
	if (!e || !op || !nr || v[7] % 8 || nr > SR_MAX_NR_PAGES || (nr & (nr - 1)) ||
	    v[6] + v[7] > e->sector + e->pages * 8) {
		j->st->not_swap_io++;
		return 0;
	}
	p = pend_line(j, v, op == 'W' ? SR_OP_OUT : SR_OP_IN);
	if (!p)
		return -2;
	p->ev.dev = (int32_t)e->type;
	p->ev.offset = e->page + (v[6] - e->sector) / 8;
	p->ev.nr_pages = (uint32_t)nr;
	p->ev.flags = SR_EV_HAS_CPU | SR_EV_HAS_OFFSET;
	if (p->ev.op == SR_OP_IN) {
		j->st->reads++;
		if (v[9]) {
			p->ev.vaddr = v[9];
			p->ev.flags |= SR_EV_HAS_VADDR;
			j->st->reads_with_fault++;
		}
	}
	p->pfn = 0;
	p->has_pfn = 0;
	p->done = 0;
	/* The memcg its task's M line gave just before: used up. */
	{
		struct sr_u64map *mm = p->ev.op == SR_OP_OUT ? &j->memcg_out : &j->memcg_in;
		uint64_t *m = sr_u64map_get(mm, v[2]);

		if (m) {
			p->ino = *m;
			j->st->memcg_paired++;
			sr_u64map_del(mm, v[2]);
		}
	}
	p->sector = v[6];
	p->disk = e->disk;
	/* Keys: sectors inside an extent, below 2^52 + 2^55, never
	 * SR_U64MAP_EMPTY. */
	dk = &j->disks[e->disk];
	slot = sr_u64map_get(&dk->early, v[6]);
	if (slot && *slot >= p->ev.ts_ns) {
		/* Its completion came out first. */
		p->ev.lat_ns = *slot - p->ev.ts_ns;
		p->done = 1;
		sr_u64map_del(&dk->early, v[6]);
	} else {
		slot = sr_u64map_put(&dk->by_sector, v[6], &added);
		if (!slot)
			return -2;
		*slot = j->tail; /* seq + 1 */
	}
	if (p->ev.op == SR_OP_OUT) {
		slot = sr_u64map_put(&j->last_write, v[2], &added);
		if (!slot)
			return -2;
		*slot = j->tail;
	} else {
		/* Reads of one fault (its own and readahead's, queued one
		 * after another under the same fault address): which is the
		 * fault's own is not known, so none keeps the address. */
		slot = sr_u64map_put(&j->last_read, v[2], &added);
		if (!slot)
			return -2;
		if (!added && v[9]) {
			struct pend *q = pend_of(j, *slot);

			if (q && q->ev.op == SR_OP_IN && q->ev.vaddr == v[9]) {
				if (q->ev.flags & SR_EV_HAS_VADDR) {
					q->ev.flags &= (uint8_t)~SR_EV_HAS_VADDR;
					j->st->reads_with_fault--;
				}
				p->ev.flags &= (uint8_t)~SR_EV_HAS_VADDR;
				j->st->reads_with_fault--;
			}
		}
		*slot = j->tail;
	}
	return 0;
}

static int completed(struct sr_tpjoin *j, const uint64_t *v)
{
	uint64_t s = v[6], end = v[6] + v[7];
	long di = disk_find(j, (uint32_t)v[5]);
	struct disk *dk;

	if (end < s || di < 0)
		return 0; /* a request without a sector (a flush: ~0), or on no swap disk */
	dk = &j->disks[di];
	while (s < end) {
		uint64_t *seq = sr_u64map_get(&dk->by_sector, s);
		struct pend *p = seq ? pend_of(j, *seq) : NULL;

		if (p && !p->done && p->sector == s && p->disk == (uint32_t)di) {
			p->ev.lat_ns = v[0] > p->ev.ts_ns ? v[0] - p->ev.ts_ns : 0;
			p->done = 1;
			sr_u64map_del(&dk->by_sector, s);
			s += (uint64_t)p->ev.nr_pages * 8;
		} else {
			/* In a swap area: maybe a bio whose line comes later. */
			if (ext_search(j->by_disk, j->next, 1, (uint32_t)v[5], s)) {
				int added;
				uint64_t *t = sr_u64map_put(&dk->early, s, &added);

				if (!t)
					return -2;
				*t = v[0];
			}
			s += 8;
		}
	}
	return 0;
}

/* Reclaim's write of a folio (P) by the task of v, who (rw: k kswapd, d
 * direct, - not said: a capture before version 4) paired with that task's
 * last write queued: its pfn and its reclaim. */
static void reclaimed(struct sr_tpjoin *j, const uint64_t *v, char who)
{
	uint64_t *seq = sr_u64map_get(&j->last_write, v[2]);
	struct pend *p = seq ? pend_of(j, *seq) : NULL;

	if (p && !p->has_pfn) {
		p->pfn = v[9];
		p->has_pfn = 1;
		if (who == 'k') {
			p->ev.flags |= SR_EV_HAS_RECLAIM | SR_EV_KSWAPD;
			j->st->writes_kswapd++;
		} else if (who == 'd') {
			p->ev.flags |= SR_EV_HAS_RECLAIM;
			j->st->writes_direct++;
		}
	} else {
		/* A folio written with no bio of its own: zswap's, a zero-filled
		 * one (6.12 on), or a bio lost by bpftrace. */
		j->st->unpaired_pfn++;
	}
	if (seq)
		sr_u64map_del(&j->last_write, v[2]);
}

/* Task pid entered wait4() (w): when, for its return's lat_ns. */
static int wait_entered(struct sr_tpjoin *j, const uint64_t *v)
{
	int added;
	uint64_t *slot = sr_u64map_put(&j->wait_start, v[2], &added);

	if (!slot)
		return -2;
	*slot = v[0] + 1;
	return 0;
}

/* Map m: key -> val (0 deletes).  0, or -2 out of memory. */
static int map_set(struct sr_u64map *m, uint64_t key, uint64_t val)
{
	int added;
	uint64_t *slot;

	if (!val) {
		sr_u64map_del(m, key);
		return 0;
	}
	slot = sr_u64map_put(m, key, &added);
	if (!slot)
		return -2;
	*slot = val;
	return 0;
}

/* The memcg of task pid's next bio (M): rw o for a write, i for a read,
 * addr the memcg's cgroup inode.  0, -1 a bad rw, -2 out of memory. */
static int memcg_line(struct sr_tpjoin *j, const uint64_t *v, const char *rw, size_t rwl)
{
	if (rwl != 1 || (rw[0] != 'o' && rw[0] != 'i'))
		return -1;
	if (!v[2] || !v[9])
		return 0;
	return map_set(rw[0] == 'o' ? &j->memcg_out : &j->memcg_in, v[2], v[9]);
}

/* A task op's line: no page, no request to wait for, done at once. */
static void task_op_done(struct pend *p)
{
	p->pfn = 0;
	p->has_pfn = 0;
	p->ino = 0;
	p->done = 1;
	p->sector = 0;
	p->disk = 0;
}

/* A wait op of task pid for child at ts, waited since its entry to
 * wait4() (lat_ns; 0 when the entry was not seen): the entry is used up. */
static struct pend *wait_op(struct sr_tpjoin *j, const uint64_t *v, uint64_t ts, uint64_t child)
{
	uint64_t w[10], *start = sr_u64map_get(&j->wait_start, v[2]);
	struct pend *p;

	memcpy(w, v, sizeof(w));
	w[0] = ts;
	p = pend_line(j, w, SR_OP_WAIT);
	if (!p)
		return NULL;
	p->ev.child = (uint32_t)child;
	p->ev.flags |= SR_EV_HAS_CHILD;
	if (start && *start - 1 <= ts)
		p->ev.lat_ns = ts - (*start - 1);
	if (start)
		sr_u64map_del(&j->wait_start, v[2]);
	return p;
}

/*
 * Task pid's swap I/O at v[0] while it is in wait4(), with one child that
 * has exited and is not yet reaped: the wait has ended (the kernel writes
 * the child's status into the task's memory before wait4() returns, and
 * that page may be in swap), so the wait op is written now, just before
 * the I/O, for that child; the task's W is then dropped.  Otherwise the
 * I/O's gap from the wait's entry would be replayed as compute.  0, or -2.
 */
static int woke_by_io(struct sr_tpjoin *j, const uint64_t *v)
{
	uint64_t *c = sr_u64map_get(&j->exited, v[2]), child;
	struct pend *p;

	if (!v[2] || !c || *c == UINT64_MAX || !sr_u64map_get(&j->wait_start, v[2]))
		return 0;
	child = *c - 1;
	p = wait_op(j, v, v[0] ? v[0] - 1 : 0, child);
	if (!p)
		return -2;
	task_op_done(p);
	j->st->task_ops[2]++;
	sr_u64map_del(&j->exited, v[2]);
	return map_set(&j->woke, v[2], child + 1);
}

/*
 * A task's fork (F: of task addr), exit (X) or return from wait4() (W:
 * having reaped task addr), as the trace's task op, in its place among the
 * bios (done at once: nothing to wait for).  A wait's lat_ns is how long
 * the task was in wait4() (since its last entry, w), 0 when the entry was
 * not seen; a wait written already (woke_by_io()) is not written again.
 * A fork or a wait that names no task or the task itself is left out and
 * counted.  0, or -2 out of memory.
 */
static int task_op(struct sr_tpjoin *j, char kind, const uint64_t *v)
{
	static const uint8_t ops[3] = { SR_OP_FORK, SR_OP_EXIT, SR_OP_WAIT };
	struct pend *p;
	int i = kind == 'F' ? 0 : kind == 'X' ? 1 : 2;

	if (!v[2] || (kind != 'X' && (!v[9] || v[9] == v[2] || v[9] > UINT32_MAX))) {
		j->st->task_ops_bad++;
		return 0;
	}
	if (kind == 'F' && map_set(&j->parent, v[9], v[2] + 1))
		return -2;
	if (kind == 'X') {
		uint64_t *par = sr_u64map_get(&j->parent, v[2]);

		if (par) {
			uint64_t pp = *par - 1, *c = sr_u64map_get(&j->exited, pp);

			if (map_set(&j->exited, pp, c ? UINT64_MAX : v[2] + 1))
				return -2;
			sr_u64map_del(&j->parent, v[2]);
		}
	}
	if (kind == 'W') {
		uint64_t *w = sr_u64map_get(&j->woke, v[2]);
		int early = w && *w == v[9] + 1;

		sr_u64map_del(&j->woke, v[2]);
		sr_u64map_del(&j->exited, v[2]);
		if (early)
			return 0;
		p = wait_op(j, v, v[0], v[9]);
	} else {
		p = pend_line(j, v, ops[i]);
	}
	if (!p)
		return -2;
	if (kind == 'F') {
		p->ev.child = (uint32_t)v[9];
		p->ev.flags |= SR_EV_HAS_CHILD;
	}
	task_op_done(p);
	j->st->task_ops[i]++;
	return 0;
}

int sr_tpjoin_line(struct sr_tpjoin *j, const char *s, size_t len, char *msg, size_t msz)
{
	static const char *const name[10] = { "ts_ns", "kind", "pid", "cpu", "cpu_nid", "dev",
					      "sector", "nr_sectors", "rw", "addr" };
	static const uint64_t max[10] = { UINT64_MAX, 0, UINT32_MAX, UINT32_MAX, SR_MAX_NODES - 1,
					  UINT32_MAX, UINT64_MAX, UINT32_MAX, 0, UINT64_MAX };
	const char *f[11];
	size_t fl[11], k;
	uint64_t v[10] = { 0 };

	if (split(s, len, f, fl, 10) != 10) {
		snprintf(msg, msz, "a tracepoint line has 10 fields (" SR_CAPTURE_TP_HEADER ")");
		return -1;
	}
	if (fl[1] != 1 || !strchr("QCPFXWwM", f[1][0]) || !f[1][0]) {
		snprintf(msg, msz, "kind is Q, C, P, F, X, W, w or M, not \"%.*s\"",
			 (int)(fl[1] > 16 ? 16 : fl[1]), f[1]);
		return -1;
	}
	for (k = 0; k < 10; k++) {
		if (k == 1 || k == 8)
			continue;
		if (sr_parse_u64(f[k], fl[k], max[k], &v[k])) {
			snprintf(msg, msz, "not a number (%s, \"%.*s\")", name[k],
				 (int)(fl[k] > 32 ? 32 : fl[k]), f[k]);
			return -1;
		}
	}
	/* What one line may cost: a completion is walked a page at a time
	 * (8 sectors), each page looked up and, in a swap area without its
	 * bio yet, remembered; bounded by what the kernel can print. */
	if (v[7] >= SR_TPJOIN_MAX_SECTORS) {
		snprintf(msg, msz, "nr_sectors %llu: more than the kernel gives (below 2^23 = %llu: the block tracepoints print a request's or a bio's bytes, an unsigned int, >> 9)",
			 (unsigned long long)v[7], (unsigned long long)SR_TPJOIN_MAX_SECTORS);
		return -1;
	}
	if (v[0] > j->latest_ts)
		j->latest_ts = v[0];
	if (ext_sort(j)) {
		snprintf(msg, msz, "out of memory");
		return -2;
	}
	switch (f[1][0]) {
	case 'Q':
		if (woke_by_io(j, v) < 0 || queued(j, v, f[8], fl[8]) < 0) {
			snprintf(msg, msz, "out of memory");
			return -2;
		}
		break;
	case 'C':
		if (completed(j, v) < 0) {
			snprintf(msg, msz, "out of memory");
			return -2;
		}
		break;
	case 'M': {
		int rc = memcg_line(j, v, f[8], fl[8]);

		if (rc == -1) {
			snprintf(msg, msz, "an M line's rw is o (a write) or i (a read), not \"%.*s\"",
				 (int)(fl[8] > 16 ? 16 : fl[8]), f[8]);
			return -1;
		}
		if (rc < 0) {
			snprintf(msg, msz, "out of memory");
			return -2;
		}
		break;
	}
	case 'w':
		if (v[2] && wait_entered(j, v) < 0) {
			snprintf(msg, msz, "out of memory");
			return -2;
		}
		break;
	case 'F':
	case 'X':
	case 'W':
		if (task_op(j, f[1][0], v) < 0) {
			snprintf(msg, msz, "out of memory");
			return -2;
		}
		break;
	default:
		if (fl[8] != 1 || !strchr("kd-", f[8][0]) || !f[8][0]) {
			snprintf(msg, msz, "a P line's rw is k (kswapd), d (direct) or -, not \"%.*s\"",
				 (int)(fl[8] > 16 ? 16 : fl[8]), f[8]);
			return -1;
		}
		reclaimed(j, v, f[8][0]);
		break;
	}
	return 0;
}

int sr_tpjoin_next(struct sr_tpjoin *j, struct sr_event *ev, uint64_t *pfn, int *has_pfn,
		   uint64_t *ino, int at_end)
{
	struct pend *p;
	uint64_t *seq;

	if (j->head == j->tail)
		return 0;
	p = &j->ring[j->head & (j->cap - 1)];
	if (!p->done) {
		struct disk *dk = &j->disks[p->disk];

		if (!at_end && j->latest_ts - p->ev.ts_ns < SR_TPJOIN_TIMEOUT_NS)
			return 0;
		j->st->no_completion++;
		seq = sr_u64map_get(&dk->by_sector, p->sector);
		if (seq && *seq == j->head + 1)
			sr_u64map_del(&dk->by_sector, p->sector);
	}
	*ev = p->ev;
	*pfn = p->pfn;
	*has_pfn = p->has_pfn;
	*ino = p->ino;
	j->head++;
	return 1;
}
