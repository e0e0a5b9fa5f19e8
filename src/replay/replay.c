/* SPDX-License-Identifier: MIT */
/*
 * The replay: events in time order (a bounded reorder window), each task
 * replaying its own events one after another with the recorded gaps kept as
 * compute time, every policy evaluated in the same pass over its own copy of
 * the kernel's swap state and of the machine's resources.
 *
 * Memory: the tasks seen, the swap slots in use and the reorder window; it
 * does not grow with the length of the trace.  docs/MODEL.md is the
 * reference for what is modelled and how.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/cost.h"
#include "common/internal.h"
#include "swapreplay/policy.h"
#include "swapreplay/replay.h"
#include "trace/window.h"

/* 64: SWAP_SLOTS_CACHE_SIZE (= SWAP_BATCH) in include/linux/swap_slots.h. */
#define SLOTS_CACHE_SIZE 64
/* check_cache_active() in mm/swap_slots.c: the cache turns off below
 * 2 x 64 x online CPUs free slots and on again above 5 x 64 x CPUs. */
#define CACHE_DEACTIVATE (2 * SLOTS_CACHE_SIZE)
#define CACHE_ACTIVATE (5 * SLOTS_CACHE_SIZE)

#define DEFAULT_REORDER SR_REORDER_DEFAULT
#define CCACHE_SIZE 512 /* chunks of slot cells found without hashing */

/* ---- resource calendars ------------------------------------------------ */
/*
 * A resource (a device's throughput, PMem media bandwidth, one direction of
 * a link) is a calendar of time buckets, each able to hold CAL_BUCKET_NS of
 * work.  A request starting at s takes the free capacity of the buckets
 * from s on (earlier requests may have filled them) and finishes where its
 * work is covered.  Requests need not arrive in time order: a later-handled
 * request at an earlier time fills what is still free then.  The window
 * slides forward; a request older than the window starts at its start.
 */
#define CAL_BUCKET_NS 10000.0 /* 10 us: finer than one NVMe request */
#define CAL_BUCKETS 16384     /* 164 ms of window */

struct cal {
	double *used;    /* work held by each bucket, ns; NULL until first use */
	uint32_t *skip;  /* full bucket: how far on a bucket with room was */
	int64_t lo;      /* bucket number of the window's oldest bucket */
	double work_ns;  /* all work ever reserved */
};

static int cal_init(struct cal *c)
{
	c->used = calloc(CAL_BUCKETS, sizeof(*c->used));
	c->skip = calloc(CAL_BUCKETS, sizeof(*c->skip));
	c->lo = 0;
	c->work_ns = 0;
	if (!c->used || !c->skip) {
		free(c->used);
		free(c->skip);
		c->used = NULL;
		c->skip = NULL;
		return -1;
	}
	return 0;
}

static void cal_free(struct cal *c)
{
	free(c->used);
	free(c->skip);
}

/* Slide so that bucket b is inside the window, keeping half of it behind. */
static void cal_slide(struct cal *c, int64_t b)
{
	int64_t nlo = b - CAL_BUCKETS / 2, k;

	if (nlo - c->lo >= CAL_BUCKETS) {
		memset(c->used, 0, CAL_BUCKETS * sizeof(*c->used));
		memset(c->skip, 0, CAL_BUCKETS * sizeof(*c->skip));
	} else {
		for (k = c->lo; k < nlo; k++) {
			c->used[k & (CAL_BUCKETS - 1)] = 0;
			c->skip[k & (CAL_BUCKETS - 1)] = 0;
		}
	}
	c->lo = nlo;
}

/*
 * The first bucket from b on with room.  Full buckets remember how far
 * ahead the next bucket with room was (path compression, as in a
 * union-find), so that a burst of requests at one time does not scan the
 * same full buckets again and again.
 */
static int64_t cal_first_free(struct cal *c, int64_t b)
{
	int64_t r = b, k;

	while (r < c->lo + CAL_BUCKETS && c->used[r & (CAL_BUCKETS - 1)] >= CAL_BUCKET_NS) {
		uint32_t s = c->skip[r & (CAL_BUCKETS - 1)];

		r += s ? s : 1;
	}
	/* Compress: every full bucket on the way now points at r. */
	for (k = b; k < r && k < c->lo + CAL_BUCKETS; ) {
		uint32_t s = c->skip[k & (CAL_BUCKETS - 1)];

		c->skip[k & (CAL_BUCKETS - 1)] = (uint32_t)(r - k);
		k += s ? s : 1;
	}
	return r;
}

/* cal_reserve()'s general case: the request's first bucket is full, or
 * beyond the window. */
static __attribute__((noinline)) double cal_reserve_slow(struct cal *c, int64_t b, double s,
							  double w)
{
	double left = w, done;

	for (;;) {
		double *u, room;

		if (b >= c->lo + CAL_BUCKETS)
			cal_slide(c, b);
		b = cal_first_free(c, b);
		if (b >= c->lo + CAL_BUCKETS)
			continue; /* slides at the top of the loop */
		u = &c->used[b & (CAL_BUCKETS - 1)];
		room = CAL_BUCKET_NS - *u;
		if (room >= left) {
			*u += left;
			break;
		}
		left -= room;
		*u = CAL_BUCKET_NS;
		b++;
	}
	done = (double)b * CAL_BUCKET_NS + c->used[b & (CAL_BUCKETS - 1)];
	return done > s + w ? done : s + w;
}

/*
 * Reserve w ns of work from time s on; returns when it is done.  Within a
 * bucket, work is a quantity, not a position: a request takes what capacity
 * the bucket has left whatever the order the requests were handled in, and
 * is done when the bucket's work packed from its start covers it, but never
 * before s + w.  The common case, a bucket with room for all of it, is
 * inline: an event's device and link reservations are independent, and
 * the processor can then overlap them.
 */
static inline double cal_reserve(struct cal *c, double s, double w)
{
	double done;
	int64_t b;

	c->work_ns += w;
	if (s < (double)c->lo * CAL_BUCKET_NS)
		s = (double)c->lo * CAL_BUCKET_NS;
	b = (int64_t)(s * (1.0 / CAL_BUCKET_NS));
	if (SR_LIKELY(b < c->lo + CAL_BUCKETS)) {
		double *u = &c->used[b & (CAL_BUCKETS - 1)];

		if (SR_LIKELY(*u + w <= CAL_BUCKET_NS)) {
			*u += w;
			done = (double)b * CAL_BUCKET_NS + *u;
			return done > s + w ? done : s + w;
		}
	}
	return cal_reserve_slow(c, b, s, w);
}

/* ---- latency histogram ------------------------------------------------- */

static void hist_add(struct sr_hist *h, double ns)
{
	uint64_t v = ns < 1 ? 1 : (uint64_t)ns;
	int e = 63 - __builtin_clzll(v), idx;
	uint64_t sub;

	/* Below 2^5 ns every value is exact enough in the first buckets. */
	if (e < 5) {
		idx = (int)v;
	} else {
		sub = (v >> (e - 5)) & (SR_HIST_SUB - 1);
		idx = (e - 4) * SR_HIST_SUB + (int)sub;
	}
	if (idx >= SR_HIST_EXP * SR_HIST_SUB)
		idx = SR_HIST_EXP * SR_HIST_SUB - 1;
	h->b[idx]++;
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

/* Lower bound and width of bucket idx, ns. */
static void hist_bucket(int idx, double *lo, double *width)
{
	int e;

	if (idx < SR_HIST_SUB) {
		*lo = idx;
		*width = 1;
		return;
	}
	e = idx / SR_HIST_SUB + 4;
	*width = ldexp(1.0, e - 5);
	*lo = ldexp(1.0, e) + (idx % SR_HIST_SUB) * *width;
}

double sr_hist_quantile(const struct sr_hist *h, double q)
{
	uint64_t rank, seen = 0;
	int i;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < SR_HIST_EXP * SR_HIST_SUB; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			double lo, w, mid;

			hist_bucket(i, &lo, &w);
			mid = lo + w / 2;
			return mid > h->max_ns ? h->max_ns : mid;
		}
	}
	return h->max_ns;
}

int sr_hist_log2_us(const struct sr_hist *h, uint64_t *out, int max)
{
	int i, k, used = 0;

	memset(out, 0, (size_t)max * sizeof(*out));
	for (i = 0; i < SR_HIST_EXP * SR_HIST_SUB; i++) {
		double lo, w, us;

		if (!h->b[i])
			continue;
		hist_bucket(i, &lo, &w);
		us = lo / 1000.0;
		k = us < 1 ? 0 : (int)floor(log2(us));
		if (k >= max)
			k = max - 1;
		out[k] += h->b[i];
		if (k + 1 > used)
			used = k + 1;
	}
	return used;
}

/* ---- priority lists ---------------------------------------------------- */
/*
 * swap_avail_heads[node] for every node: devices by priority, highest
 * first.  A device swapped on without a priority gets -2, -3, ... in
 * swapon order (least_priority starts at -1 in mm/swapfile.c), raised to
 * -1 on its own node's list; a given priority (>= 0) is the same on every
 * node.  Equal priorities form a group whose members take turns.
 */
struct prio_list {
	int n;
	int *dev;     /* device indices, highest priority first */
	int *prio;    /* their priority on this node */
};

static int build_lists(const struct sr_machine *m, struct prio_list *lists)
{
	int node, i, j, autos = 0;
	int *base = malloc((size_t)m->nr_devices * sizeof(*base));

	if (!base)
		return -1;
	for (i = 0; i < m->nr_devices; i++)
		base[i] = m->dev[i].prio_auto ? -2 - autos++ : m->dev[i].prio;
	for (node = 0; node < m->nr_nodes; node++) {
		struct prio_list *l = &lists[node];

		l->n = m->nr_devices;
		l->dev = malloc((size_t)l->n * sizeof(*l->dev));
		l->prio = malloc((size_t)l->n * sizeof(*l->prio));
		if (!l->dev || !l->prio) {
			free(base);
			return -1;
		}
		for (i = 0; i < l->n; i++) {
			int p = base[i];

			if (m->dev[i].prio_auto && m->dev[i].node == node)
				p = -1;
			/* Insert keeping swapon order among equals. */
			for (j = i; j > 0 && l->prio[j - 1] < p; j--) {
				l->prio[j] = l->prio[j - 1];
				l->dev[j] = l->dev[j - 1];
			}
			l->prio[j] = p;
			l->dev[j] = i;
		}
	}
	free(base);
	return 0;
}

/* ---- the replay's state ------------------------------------------------ */

struct task {
	uint64_t prev_ts;
	uint64_t prev_busy; /* recorded I/O wait of the previous event (swap-in latency) */
	uint64_t last_off;  /* not used by all devices: hdd sequentiality */
};

struct pol {
	const struct sr_policy_ops *ops;
	void *priv;
	void *dl;                  /* dlopen handle, or NULL */
	struct sr_policy_env env;
	struct sr_replay *r;
	char spec[96];

	int *rr;                   /* [node * nr_devices + group start]: next turn */
	uint64_t *used;            /* slots in use per device */
	uint64_t free_total;
	int cache_active;
	int taking;                /* decide() will take slots: turns may move */
	struct sr_u64map cache;    /* CPU key -> (dev + 1) << 32 | slots left */
	uint64_t *cache_vec;       /* the same for CPUs below cache_n: no hashing */
	size_t cache_n;
	struct cal *devcal;        /* per device */
	struct cal *linkcal;       /* [from * nr_nodes + to] */
	uint64_t *link_bytes;
	uint64_t *hdd_next;        /* per device: offset that would continue it */
	double *clock;             /* per task: when its last event completed */
	struct sr_dev_result *dev;
	struct sr_policy_result res;
	double swapout_lat_sum;
	double end;
	/*
	 * The policy whose simulation this one shares (itself when it has its
	 * own).  See "shared simulations" above replay_one().
	 */
	int lead;
};


/* What the replay keeps of one recorded swap slot in use, in the cell of
 * its offset: locality of offsets is locality in memory. */
struct slot_cell {
	uint16_t nr_pages;  /* recorded folio size; 0: the cell is free */
	uint16_t left;      /* pages not yet swapped in */
	int16_t dev[];      /* per policy: the device it was put on, -1 none */
};

struct memo_ent {
	struct sr_cost c;
	double link_work[2]; /* 1e9 x lbytes / link_bw: the links' calendar work */
	int valid;
};


struct sr_replay {
	const struct sr_machine *m;
	int slots_cache;
	int np;
	int baseline;
	struct pol *pol;
	struct prio_list lists[SR_MACHINE_MAX_NODES];

	struct sr_u64map task_ix;  /* pid -> task index */
	uint32_t *task_vec;        /* the same for pids below task_vec_n: index + 1, 0 none */
	size_t task_vec_n;
	struct task *tasks;
	size_t ntasks, task_cap;
	double first_ts;
	int any;

	/* (dev, offset) key -> slot index + 1: a two-level table, as the
	 * kernel's swap_map is an array: chunks of 4096 offsets, found by a
	 * small hash map of chunk numbers, allocated while they hold a slot. */
	struct sr_u64map chunk_ix;
	struct {                   /* a direct-mapped cache of the chunk map */
		uint64_t ck;
		struct slot_chunk *c;  /* NULL: empty */
	} ccache[CCACHE_SIZE];
	size_t cell_size;          /* bytes of one slot cell (struct slot_cell + devs) */
	struct memo_ent *memo;     /* [dev][op][cpu node][page node], or NULL */

	/* The reorder window (window.h), unless the events come ordered. */
	int ordered;
	struct sr_window win;
	uint64_t last_ts;
	uint64_t fed;              /* events fed so far, for messages */
	int *choice;               /* per policy, device chosen for this event */
	int nlead;                 /* policies with a simulation of their own */

	struct sr_result result;
	int finished;
};

/* ---- priority list walk ------------------------------------------------ */

static uint64_t dev_free(const struct pol *p, int d)
{
	const struct sr_device *dv = &p->r->m->dev[d];

	return dv->size_pages > p->used[d] ? dv->size_pages - p->used[d] : 0;
}

/*
 * get_swap_pages()'s walk of node's list: groups of equal priority from
 * the highest; within a group the device after the last one used
 * (plist_requeue); a device without room for nr_pages is skipped, as a
 * full device is off every list.  take: advance the turn.
 */
static int walk(struct pol *p, int node, unsigned mask, uint32_t nr_pages, int take)
{
	const struct sr_machine *m = p->r->m;
	const struct prio_list *l = &p->r->lists[node];
	int g = 0;

	while (g < l->n) {
		int e = g, k, *turn = &p->rr[node * m->nr_devices + g];

		while (e < l->n && l->prio[e] == l->prio[g])
			e++;
		for (k = 0; k < e - g; k++) {
			int j = g + (*turn + k) % (e - g);
			int d = l->dev[j];

			if (mask && !(mask & SR_CLASS_BIT(m->dev[d].cls)))
				continue;
			if (dev_free(p, d) < nr_pages)
				continue;
			if (take)
				*turn = (j - g + 1) % (e - g);
			return d;
		}
		g = e;
	}
	return -1;
}

static int env_peek(const struct sr_policy_env *env, int node, unsigned mask,
		    uint32_t nr_pages)
{
	struct pol *p = env->core;

	if (node < 0 || node >= p->r->m->nr_nodes)
		return -1;
	return walk(p, node, mask, nr_pages ? nr_pages : 1, 0);
}

static int env_advance(const struct sr_policy_env *env, int node, unsigned mask,
		       uint32_t nr_pages)
{
	struct pol *p = env->core;

	if (node < 0 || node >= p->r->m->nr_nodes)
		return -1;
	/* A look-up that allocates nothing (where to read an unmatched
	 * swap-in from) must not move the turns either. */
	return walk(p, node, mask, nr_pages ? nr_pages : 1, p->taking);
}

/* Ask the policy, then walk as it says; -1 if no device has room. */
static int decide(struct pol *p, const struct sr_alloc_req *req, uint32_t need, int take)
{
	struct sr_alloc_choice ch = { req->cpu_nid, -1, SR_CLASS_ALL };
	const struct sr_machine *m = p->r->m;
	int d;

	p->taking = take;
	p->ops->choose(p->priv, &p->env, req, &ch);
	if (ch.node < 0) {
		if (ch.device >= 0 && ch.device < m->nr_devices &&
		    dev_free(p, ch.device) >= need)
			return ch.device;
		ch.node = req->cpu_nid; /* full or invalid: as the kernel would */
		ch.class_mask = SR_CLASS_ALL;
	}
	if (ch.node >= m->nr_nodes)
		ch.node = req->cpu_nid;
	d = walk(p, ch.node, ch.class_mask, need, take);
	if (d < 0 && ch.class_mask)
		d = walk(p, ch.node, SR_CLASS_ALL, need, take);
	return d;
}

static uint64_t cpu_key(const struct sr_event *e)
{
	/* Without a recorded CPU, each task stands for its own CPU. */
	return (e->flags & SR_EV_HAS_CPU) ? e->cpu : (1ull << 40) | e->pid;
}

static void take_slots(struct pol *p, int d, uint64_t n)
{
	p->used[d] += n;
	p->free_total -= n;
}

static void put_slots(struct pol *p, int d, uint64_t n)
{
	if (n > p->used[d])
		n = p->used[d];
	p->used[d] -= n;
	p->free_total += n;
}

/* sr_grow(), the new elements zero. */
static int grow_zeroed(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t old = *cap;

	if (sr_grow(p, cap, need, elem, first))
		return -1;
	memset((char *)*p + old * elem, 0, (*cap - old) * elem);
	return 0;
}

/* The slots cache of the event's CPU; NULL on ENOMEM. */
static uint64_t *cache_slot(struct pol *p, const struct sr_event *e)
{
	uint64_t key = cpu_key(e);

	if (key < 65536) {
		if (key >= p->cache_n &&
		    grow_zeroed((void **)&p->cache_vec, &p->cache_n, (size_t)key + 1,
				sizeof(*p->cache_vec), 64))
			return NULL;
		return &p->cache_vec[key];
	}
	return sr_u64map_put(&p->cache, key, NULL);
}

/* Turn the slots cache off (returning the cached slots) or on, as
 * check_cache_active() does. */
static void cache_check(struct pol *p)
{
	uint64_t cpus = (uint64_t)p->r->m->nr_cpus;
	size_t i;

	if (p->cache_active && p->free_total < CACHE_DEACTIVATE * cpus) {
		for (i = 0; i < p->cache.cap + p->cache_n; i++) {
			uint64_t *v;

			if (i < p->cache_n) {
				v = &p->cache_vec[i];
			} else {
				if (p->cache.ent[i - p->cache_n].key == SR_U64MAP_EMPTY)
					continue;
				v = &p->cache.ent[i - p->cache_n].val;
			}
			if (*v >> 32)
				put_slots(p, (int)(*v >> 32) - 1, *v & 0xffffffffu);
			*v = 0;
		}
		p->cache_active = 0;
	} else if (!p->cache_active && p->free_total > CACHE_ACTIVATE * cpus) {
		p->cache_active = 1;
	}
}

/* What a policy is told of an allocation for event e. */
static void alloc_req(const struct sr_event *e, int via_cache, struct sr_alloc_req *req)
{
	req->ts_ns = e->ts_ns;
	req->pid = e->pid;
	req->cpu = (e->flags & SR_EV_HAS_CPU) ? e->cpu : e->pid;
	req->cpu_nid = e->cpu_nid;
	req->page_nid = e->page_nid;
	req->nr_pages = e->nr_pages;
	req->via_cache = via_cache;
}

/* Allocate swap for a swap-out; returns the device or -1 (swap full). */
static int alloc_out(struct pol *p, const struct sr_event *e)
{
	struct sr_alloc_req req;
	int d;

	if (p->r->slots_cache) {
		cache_check(p);
		if (p->cache_active && e->nr_pages == 1) {
			uint64_t *v = cache_slot(p, e);

			if (SR_LIKELY(v && (*v & 0xffffffffu))) {
				/* The common case: a slot from the CPU's cache. */
				(*v)--;
				return (int)(*v >> 32) - 1;
			}
			if (v) {
				/* refill_swap_slots_cache(): up to 64 slots of one
				 * device, from the refilling CPU's walk. */
				alloc_req(e, 1, &req);
				d = decide(p, &req, 1, 1);
				if (d >= 0) {
					uint64_t n = dev_free(p, d);

					if (n > SLOTS_CACHE_SIZE)
						n = SLOTS_CACHE_SIZE;
					take_slots(p, d, n);
					*v = ((uint64_t)(d + 1) << 32) | n;
					p->res.cache_refills++;
				}
			}
			if (v && (*v & 0xffffffffu)) {
				(*v)--;
				return (int)(*v >> 32) - 1;
			}
		}
	}
	alloc_req(e, 0, &req);
	d = decide(p, &req, e->nr_pages, 1);
	if (d >= 0) {
		take_slots(p, d, e->nr_pages);
		p->res.direct_allocs++;
	}
	return d;
}

/* ---- setting up ------------------------------------------------------- */

static enum sr_err load_policy(struct pol *p, const char *spec, struct sr_diag *d)
{
	char name[96], err[256] = "";
	const char *params = NULL, *colon;
	size_t nlen;
	int i;

	snprintf(p->spec, sizeof(p->spec), "%s", spec);
	colon = strchr(spec, ':');
	nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	if (nlen == 0 || nlen >= sizeof(name))
		return sr_diag_set(d, SR_ERR_POLICY, "bad policy '%s'", spec);
	memcpy(name, spec, nlen);
	name[nlen] = '\0';
	if (colon)
		params = colon + 1;
	if (strchr(name, '/')) {
		/* Only the path the user gave: dlopen() searches no directory
		 * for a name with a slash. */
		const struct sr_policy_ops *const *sym;

		p->dl = dlopen(name, RTLD_NOW | RTLD_LOCAL);
		if (!p->dl)
			return sr_diag_set(d, SR_ERR_POLICY, "cannot load policy %s: %s", name,
					   dlerror());
		sym = dlsym(p->dl, SR_POLICY_SYMBOL);
		if (!sym || !*sym) {
			dlclose(p->dl);
			p->dl = NULL;
			p->ops = NULL;
			return sr_diag_set(d, SR_ERR_POLICY,
					   "%s: no '%s' symbol (define it with SR_POLICY_EXPORT)",
					   name, SR_POLICY_SYMBOL);
		}
		p->ops = *sym;
		if (p->ops->abi != SR_POLICY_ABI) {
			unsigned abi = p->ops->abi;

			dlclose(p->dl);
			p->dl = NULL;
			p->ops = NULL;
			return sr_diag_set(d, SR_ERR_POLICY,
					   "%s: built for policy ABI %u, this swapreplay has ABI %d: rebuild it against this swapreplay/policy.h",
					   name, abi, SR_POLICY_ABI);
		}
		if (!p->ops->name || !p->ops->choose) {
			dlclose(p->dl);
			p->dl = NULL;
			p->ops = NULL;
			return sr_diag_set(d, SR_ERR_POLICY, "%s: the policy has no name or no choose()",
					   name);
		}
	} else {
		p->ops = sr_policy_find(name);
		if (!p->ops) {
			const struct sr_policy_ops *const *b = sr_policy_builtins();
			char list[512] = "";

			for (i = 0; b[i]; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 i ? ", " : "", b[i]->name);
			return sr_diag_set(d, SR_ERR_POLICY,
					   "unknown policy '%s' (built in: %s; or a path to a .so)",
					   name, list);
		}
	}
	if (p->ops->init && p->ops->init(&p->env, params, &p->priv, err, sizeof(err))) {
		if (p->dl)
			dlclose(p->dl);
		p->dl = NULL;
		p->ops = NULL; /* its code may be gone: finish() is not called */
		return sr_diag_set(d, SR_ERR_POLICY, "%s", err[0] ? err : "policy init failed");
	}
	if (!p->ops->init && params && *params) {
		if (p->dl)
			dlclose(p->dl);
		p->dl = NULL;
		p->ops = NULL; /* its code may be gone: finish() is not called */
		return sr_diag_set(d, SR_ERR_POLICY, "policy %s takes no parameters", name);
	}
	return SR_OK;
}

static enum sr_err pol_setup(struct sr_replay *r, struct pol *p, struct sr_diag *d)
{
	const struct sr_machine *m = r->m;
	int i;

	p->r = r;
	p->env.machine = m;
	p->env.peek = env_peek;
	p->env.advance = env_advance;
	p->env.core = p;
	p->rr = calloc((size_t)m->nr_nodes * m->nr_devices, sizeof(*p->rr));
	p->used = calloc((size_t)m->nr_devices, sizeof(*p->used));
	p->hdd_next = calloc((size_t)m->nr_devices, sizeof(*p->hdd_next));
	p->devcal = calloc((size_t)m->nr_devices, sizeof(*p->devcal));
	p->linkcal = calloc((size_t)m->nr_nodes * m->nr_nodes, sizeof(*p->linkcal));
	p->link_bytes = calloc((size_t)m->nr_nodes * m->nr_nodes, sizeof(*p->link_bytes));
	p->dev = calloc((size_t)m->nr_devices, sizeof(*p->dev));
	if (!p->rr || !p->used || !p->hdd_next || !p->devcal || !p->linkcal ||
	    !p->link_bytes || !p->dev)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	sr_u64map_init(&p->cache);
	p->cache_active = 1;
	for (i = 0; i < m->nr_devices; i++) {
		p->free_total += m->dev[i].size_pages;
		snprintf(p->dev[i].name, sizeof(p->dev[i].name), "%s", m->dev[i].name);
	}
	return SR_OK;
}

static void pol_free(struct pol *p)
{
	int i, n;

	if (p->ops && p->ops->finish && p->priv)
		p->ops->finish(p->priv);
	if (p->dl)
		dlclose(p->dl);
	if (p->r) {
		for (i = 0; p->devcal && i < p->r->m->nr_devices; i++)
			cal_free(&p->devcal[i]);
		n = p->r->m->nr_nodes * p->r->m->nr_nodes;
		for (i = 0; p->linkcal && i < n; i++)
			cal_free(&p->linkcal[i]);
	}
	free(p->rr);
	free(p->used);
	free(p->hdd_next);
	free(p->devcal);
	free(p->linkcal);
	free(p->link_bytes);
	free(p->dev);
	free(p->clock);
	free(p->cache_vec);
	free(p->res.link);
	sr_u64map_free(&p->cache);
}

enum sr_err sr_replay_new(struct sr_replay **out, const struct sr_replay_opts *opts,
			  const char *const *specs, int n, const char *baseline,
			  struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct sr_replay *r;
	enum sr_err err;
	int i, j;

	*out = NULL;
	sr_diag_clear(d);
	if (n < 1 || n > SR_MAX_POLICIES)
		return sr_diag_set(d, SR_ERR_INVAL, "between 1 and %d policies, not %d",
				   SR_MAX_POLICIES, n);
	r = calloc(1, sizeof(*r));
	if (!r)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	r->m = opts->machine;
	r->slots_cache = opts->slots_cache;
	r->ordered = opts->ordered;
	r->cell_size = (sizeof(struct slot_cell) + (size_t)n * sizeof(int16_t) + 3) & ~(size_t)3;
	r->baseline = -1;
	sr_u64map_init(&r->task_ix);
	sr_u64map_init(&r->chunk_ix);
	if (r->m->nr_nodes <= 8)
		r->memo = calloc((size_t)r->m->nr_devices * 2 * (size_t)r->m->nr_nodes *
				 (size_t)r->m->nr_nodes, sizeof(*r->memo));
	r->pol = calloc((size_t)n, sizeof(*r->pol));
	r->choice = calloc((size_t)n, sizeof(*r->choice));
	if ((!r->ordered && sr_window_init(&r->win, opts->reorder_window ?
					   opts->reorder_window : DEFAULT_REORDER)) ||
	    !r->pol || !r->choice || build_lists(r->m, r->lists)) {
		err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		goto fail;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(specs[i], specs[j]) == 0) {
				err = sr_diag_set(d, SR_ERR_INVAL, "policy '%s' given twice", specs[i]);
				goto fail;
			}
		err = pol_setup(r, &r->pol[i], d);
		if (err)
			goto fail;
		r->pol[i].lead = 0;
		r->np = i + 1;
		err = load_policy(&r->pol[i], specs[i], d);
		if (err)
			goto fail;
		if (baseline && strcmp(specs[i], baseline) == 0)
			r->baseline = i;
	}
	r->nlead = 1;
	if (r->baseline < 0) {
		err = sr_diag_set(d, SR_ERR_INVAL, "baseline '%s' is not among the policies replayed",
				  baseline ? baseline : "(none)");
		goto fail;
	}
	*out = r;
	return SR_OK;
fail:
	sr_replay_free(r);
	return err;
}

void sr_replay_free(struct sr_replay *r)
{
	size_t k;
	int i;

	if (!r)
		return;
	for (i = 0; i < r->np; i++)
		pol_free(&r->pol[i]);
	for (i = 0; i < SR_MACHINE_MAX_NODES; i++) {
		free(r->lists[i].dev);
		free(r->lists[i].prio);
	}
	free(r->pol);
	free(r->choice);
	sr_window_free(&r->win);
	free(r->memo);
	free(r->tasks);
	free(r->result.policy);
	sr_u64map_free(&r->task_ix);
	free(r->task_vec);
	for (k = 0; k < r->chunk_ix.cap; k++)
		if (r->chunk_ix.ent[k].key != SR_U64MAP_EMPTY)
			free((void *)(uintptr_t)r->chunk_ix.ent[k].val);
	sr_u64map_free(&r->chunk_ix);
	free(r);
}

/* ---- per-event work ------------------------------------------------------ */

#define TASK_VEC_MAX 65536 /* pids below this are looked up without hashing */

static long task_of(struct sr_replay *r, uint32_t pid, int *fresh)
{
	int added;
	uint64_t *v = NULL;
	uint32_t *tv = NULL;
	size_t cap, i;
	int k;

	if (pid < TASK_VEC_MAX) {
		if (pid >= r->task_vec_n &&
		    grow_zeroed((void **)&r->task_vec, &r->task_vec_n, (size_t)pid + 1,
				sizeof(*r->task_vec), 256))
			return -1;
		tv = &r->task_vec[pid];
		added = *tv == 0;
		if (!added) {
			*fresh = 0;
			return (long)*tv - 1;
		}
	} else {
		v = sr_u64map_put(&r->task_ix, pid, &added);
		if (!v)
			return -1;
		if (!added) {
			*fresh = 0;
			return (long)*v;
		}
	}
	cap = r->task_cap;
	if (sr_grow((void **)&r->tasks, &cap, r->ntasks + 1, sizeof(*r->tasks), 1024))
		goto nomem;
	if (cap != r->task_cap) {
		for (k = 0; k < r->np; k++) {
			double *nc = realloc(r->pol[k].clock, cap * sizeof(double));

			if (!nc)
				goto nomem;
			r->pol[k].clock = nc;
		}
		r->task_cap = cap;
	}
	i = r->ntasks++;
	memset(&r->tasks[i], 0, sizeof(r->tasks[i]));
	if (tv)
		*tv = (uint32_t)i + 1;
	else
		*v = i;
	*fresh = 1;
	return (long)i;
nomem:
	if (!tv)
		sr_u64map_del(&r->task_ix, pid);
	return -1;
}

/* Key of a recorded swap slot; offsets of 2^48 and above are not matched. */
static int slot_key(const struct sr_event *e, uint64_t off, uint64_t *key)
{
	if (!(e->flags & SR_EV_HAS_OFFSET) || off >= (1ull << 48))
		return 0;
	*key = off | ((uint64_t)(uint32_t)(e->dev + 1) << 48);
	return 1;
}


#define CHUNK_BITS 12
#define CHUNK_CELLS (1u << CHUNK_BITS)

struct slot_chunk {
	uint32_t live;      /* cells in use */
	unsigned char cells[]; /* CHUNK_CELLS cells of r->cell_size bytes */
};

/* The entry of the chunk cache that chunk ck may sit in. */
static size_t ccache_at(uint64_t ck)
{
	return (size_t)(ck ^ (ck >> 9)) & (CCACHE_SIZE - 1);
}

static struct slot_chunk *chunk_find(struct sr_replay *r, uint64_t ck, size_t h);

/* The chunk of slot cells numbered ck, or NULL if it does not exist: from
 * the chunk cache inline, else from the map. */
static inline struct slot_chunk *chunk_get(struct sr_replay *r, uint64_t ck)
{
	size_t h = ccache_at(ck);

	if (SR_LIKELY(r->ccache[h].c && r->ccache[h].ck == ck))
		return r->ccache[h].c;
	return chunk_find(r, ck, h);
}

/* chunk_get() when the chunk cache does not have it. */
static __attribute__((noinline)) struct slot_chunk *chunk_find(struct sr_replay *r, uint64_t ck,
							       size_t h)
{
	uint64_t *v;

	v = sr_u64map_get(&r->chunk_ix, ck);
	if (!v)
		return NULL;
	r->ccache[h].ck = ck;
	r->ccache[h].c = (struct slot_chunk *)(uintptr_t)*v;
	return r->ccache[h].c;
}

/* The cell of key, or NULL if its chunk does not exist and !create. */
static struct slot_cell *slot_cell(struct sr_replay *r, uint64_t key, int create,
				   struct slot_chunk **chunk)
{
	uint64_t ck = key >> CHUNK_BITS, *v;
	struct slot_chunk *c = chunk_get(r, ck);
	int added;

	if (!c) {
		if (!create)
			return NULL;
		v = sr_u64map_put(&r->chunk_ix, ck, &added);
		if (!v)
			return NULL;
		c = calloc(1, sizeof(*c) + CHUNK_CELLS * r->cell_size);
		if (!c) {
			sr_u64map_del(&r->chunk_ix, ck);
			return NULL;
		}
		*v = (uint64_t)(uintptr_t)c;
	}
	*chunk = c;
	return (struct slot_cell *)(void *)(c->cells + (key & (CHUNK_CELLS - 1)) * r->cell_size);
}

/* Free the cell of key, in chunk c; frees the chunk when that was its last. */
static void slot_forget(struct sr_replay *r, uint64_t key, struct slot_chunk *c,
			struct slot_cell *cell)
{
	uint64_t ck = key >> CHUNK_BITS;

	if (!cell->nr_pages)
		return;
	cell->nr_pages = 0;
	if (--c->live == 0) {
		sr_u64map_del(&r->chunk_ix, ck);
		if (r->ccache[ccache_at(ck)].c == c)
			r->ccache[ccache_at(ck)].c = NULL;
		free(c);
	}
}

/* Find the recorded swap-out a swap-in reads: the exact offset, or the
 * huge page (aligned 2^k run) that contains it.  Returns its cell or NULL;
 * *key is the key it was found under. */
static struct slot_cell *slot_find(struct sr_replay *r, const struct sr_event *e,
				   uint64_t *key, struct slot_chunk **chunk)
{
	int k;

	for (k = 0; k <= 9; k++) {
		uint64_t base = e->offset & ~((1ull << k) - 1);
		struct slot_cell *cell;

		if (!slot_key(e, base, key))
			return NULL;
		cell = slot_cell(r, *key, 0, chunk);
		if (cell && cell->nr_pages && (k == 0 || cell->nr_pages > e->offset - base))
			return cell;
	}
	return NULL;
}

static struct cal *need_cal(struct cal *c)
{
	if (!c->used && cal_init(c))
		return NULL;
	return c;
}

/*
 * One event of one policy on device dv: place its work and return when the
 * task may go on (*done: when the I/O completed, for its latency).
 */
static int play(struct pol *p, const struct sr_event *e, int dv, double start,
		double *resume, double *done)
{
	const struct sr_machine *m = p->r->m;
	const struct sr_device *dev = &m->dev[dv];
	struct sr_cost own;
	const struct sr_cost *c;
	struct cal *cal;
	double s, fin, B = (double)e->nr_pages * SR_PAGE_SIZE, lw[2];
	int seq = 0, i;

	if (dev->cls == SR_DEV_HDD) {
		seq = (e->flags & SR_EV_HAS_OFFSET) && e->offset == p->hdd_next[dv];
		p->hdd_next[dv] = e->offset + e->nr_pages;
	}
	if (e->nr_pages == 1 && dev->cls != SR_DEV_HDD && p->r->memo) {
		/* The cost of a one-page event depends only on the device, the
		 * op and the two nodes: computed once (the divisions add up). */
		size_t n = (size_t)m->nr_nodes;
		struct memo_ent *me = &p->r->memo[(((size_t)dv * 2 + e->op) * n + e->cpu_nid) * n +
						 e->page_nid];

		if (SR_UNLIKELY(!me->valid)) {
			sr_cost_event(m, dev, e->op, e->cpu_nid, e->page_nid, 1, 0, &me->c);
			for (i = 0; i < me->c.nlinks; i++)
				me->link_work[i] = 1e9 * me->c.lbytes[i] / m->link_bw;
			me->valid = 1;
		}
		c = &me->c;
		lw[0] = me->link_work[0];
		lw[1] = me->link_work[1];
	} else {
		sr_cost_event(m, dev, e->op, e->cpu_nid, e->page_nid, e->nr_pages, seq, &own);
		c = &own;
		for (i = 0; i < own.nlinks; i++)
			lw[i] = 1e9 * own.lbytes[i] / m->link_bw;
	}
	s = start + c->cpu_ns;
	fin = s + c->copy_ns;
	if (c->dev_work_ns > 0) {
		double f;

		cal = &p->devcal[dv];
		if (SR_UNLIKELY(!cal->used) && !need_cal(cal))
			return -1;
		f = cal_reserve(cal, s, c->dev_work_ns);
		if (c->dma)
			fin = (s + c->dev_lat_ns > f ? s + c->dev_lat_ns : f);
		else if (f > fin)
			fin = f;
		p->dev[dv].busy_ns += c->dev_work_ns;
	}
	for (i = 0; i < c->nlinks; i++) {
		int li = c->lfrom[i] * m->nr_nodes + c->lto[i];
		double f;

		cal = &p->linkcal[li];
		if (SR_UNLIKELY(!cal->used) && !need_cal(cal))
			return -1;
		f = cal_reserve(cal, s, lw[i]) + m->link_lat_ns;
		if (f > fin)
			fin = f;
		p->link_bytes[li] += (uint64_t)c->lbytes[i];
	}
	*done = fin;
	if (c->sync) {
		*resume = fin;
	} else {
		/* Asynchronous writeback: the writer goes on unless the device
		 * is backlogged by more than one request's latency. */
		double r = fin - c->dev_lat_ns - c->dev_work_ns;

		*resume = r > s ? r : s;
	}
	if (e->op == SR_OP_OUT) {
		p->dev[dv].writes++;
		p->dev[dv].write_bytes += (uint64_t)B;
	} else {
		p->dev[dv].reads++;
		p->dev[dv].read_bytes += (uint64_t)B;
	}
	return 0;
}

/*
 * Shared simulations.  What a policy decides (its slots cache, its slots in
 * use, the turns of its priority lists, its own state) depends on the
 * events alone, never on simulated time; what follows from the decisions
 * (the calendars of devices and links, the tasks' clocks, the counters and
 * the latency histogram: the simulation) depends only on the devices
 * chosen.  So policies that have chosen the same device for every event so
 * far have the same simulation, and only one of them needs to play it: all
 * policies start sharing the simulation of the first, and a policy whose
 * choice differs from that of the one it shares with (its lead) takes a
 * copy of the lead's simulation, before the event is played, and goes on
 * with it.  Policies that part from a lead at the same event with the same
 * choice share again among themselves.  The results are exactly those of
 * one replay per policy (tests/cli/replay.sh checks them field by field);
 * on a machine where the policies agree, as reclaimer-nid, page-nid with
 * the slots cache and hybrid do on 2s-pmem2, one pass costs little more
 * than one policy.
 */
/* dst (never used: a follower's) becomes a copy of src. */
static int cal_copy(struct cal *dst, const struct cal *src)
{
	if (src->used) {
		if (cal_init(dst))
			return -1;
		memcpy(dst->used, src->used, CAL_BUCKETS * sizeof(*dst->used));
		memcpy(dst->skip, src->skip, CAL_BUCKETS * sizeof(*dst->skip));
	}
	dst->lo = src->lo;
	dst->work_ns = src->work_ns;
	return 0;
}

/* The simulation's results, also used to hand a lead's to its followers. */
static void sim_results_copy(struct pol *dst, const struct pol *src)
{
	const struct sr_machine *m = src->r->m;

	dst->res.swapouts = src->res.swapouts;
	dst->res.swapins = src->res.swapins;
	dst->res.pages_out = src->res.pages_out;
	dst->res.pages_in = src->res.pages_in;
	dst->res.swapin_lat = src->res.swapin_lat;
	dst->swapout_lat_sum = src->swapout_lat_sum;
	dst->end = src->end;
	memcpy(dst->dev, src->dev, (size_t)m->nr_devices * sizeof(*dst->dev));
	memcpy(dst->link_bytes, src->link_bytes,
	       (size_t)m->nr_nodes * m->nr_nodes * sizeof(*dst->link_bytes));
}

/* Give p a copy of the simulation of src. */
static int sim_copy(struct pol *p, const struct pol *src)
{
	const struct sr_replay *r = src->r;
	const struct sr_machine *m = r->m;
	int i, n = m->nr_nodes * m->nr_nodes;

	sim_results_copy(p, src);
	memcpy(p->hdd_next, src->hdd_next, (size_t)m->nr_devices * sizeof(*p->hdd_next));
	if (r->ntasks)
		memcpy(p->clock, src->clock, r->ntasks * sizeof(*p->clock));
	for (i = 0; i < m->nr_devices; i++)
		if (cal_copy(&p->devcal[i], &src->devcal[i]))
			return -1;
	for (i = 0; i < n; i++)
		if (cal_copy(&p->linkcal[i], &src->linkcal[i]))
			return -1;
	return 0;
}

/* Part the policies whose choice (r->choice) differs from their lead's. */
static int split(struct sr_replay *r)
{
	int k, j, from[SR_MAX_POLICIES];

	for (k = 0; k < r->np; k++)
		from[k] = -1;
	for (k = 0; k < r->np; k++) {
		struct pol *p = &r->pol[k];
		int g = p->lead;

		if (g == k || r->choice[k] == r->choice[g])
			continue;
		/* A policy that has just parted from the same lead with the
		 * same choice has the same simulation. */
		for (j = 0; j < k; j++)
			if (from[j] == g && r->choice[j] == r->choice[k])
				break;
		if (j < k) {
			p->lead = j;
			continue;
		}
		if (sim_copy(p, &r->pol[g]))
			return -1;
		p->lead = k;
		from[k] = g;
		r->nlead++;
	}
	return 0;
}

static enum sr_err replay_one(struct sr_replay *r, const struct sr_event *e, struct sr_diag *d)
{
	struct sr_alloc_req req;
	struct task *t;
	struct slot_cell *sc = NULL;
	struct slot_chunk *chunk = NULL;
	uint64_t key = 0;
	long ti;
	double gap;
	int fresh, k, part = 0;

	ti = task_of(r, e->pid, &fresh);
	if (ti < 0)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	t = &r->tasks[ti];
	/* The task's compute time since its previous event: the recorded
	 * gap less the recorded wait of that event (a swap-in's latency;
	 * swap-out writeback is asynchronous). */
	if (fresh) {
		gap = 0;
	} else {
		uint64_t busy_end = t->prev_ts + t->prev_busy;

		gap = e->ts_ns > busy_end ? (double)(e->ts_ns - busy_end) : 0;
	}
	if (!r->any || (double)e->ts_ns < r->first_ts)
		r->first_ts = (double)e->ts_ns;
	r->any = 1;
	t->prev_ts = e->ts_ns > t->prev_ts || fresh ? e->ts_ns : t->prev_ts;
	t->prev_busy = e->op == SR_OP_IN ? e->lat_ns : 0;

	if (e->op == SR_OP_IN) {
		sc = slot_find(r, e, &key, &chunk);
	} else if (slot_key(e, e->offset, &key)) {
		struct slot_chunk *c;

		sc = slot_cell(r, key, 1, &c);
		if (!sc)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		if (sc->nr_pages) {
			/* The slot was reused without a swap-in in the trace
			 * (the page was freed): release what the old one held. */
			for (k = 0; k < r->np; k++)
				if (sc->dev[k] >= 0)
					put_slots(&r->pol[k], sc->dev[k], sc->left);
		} else {
			c->live++;
		}
		sc->nr_pages = (uint16_t)e->nr_pages;
		sc->left = (uint16_t)e->nr_pages;
	}

	/* Every policy decides where the event's slots are. */
	for (k = 0; k < r->np; k++) {
		struct pol *p = &r->pol[k];
		int dv;

		if (p->ops->on_event)
			p->ops->on_event(p->priv, e);
		if (e->op == SR_OP_OUT) {
			dv = alloc_out(p, e);
			if (sc)
				sc->dev[k] = (int16_t)dv;
			else if (dv >= 0)
				put_slots(p, dv, e->nr_pages); /* cannot be matched: not kept */
			if (dv < 0)
				p->res.swap_full++;
		} else {
			dv = sc ? sc->dev[k] : -1;
			if (!sc) {
				/* No swap-out in the trace: read it from where
				 * this policy would put it now. */
				alloc_req(e, 0, &req);
				dv = decide(p, &req, e->nr_pages, 0);
				if (dv < 0)
					dv = walk(p, e->cpu_nid, SR_CLASS_ALL, 0, 0);
				p->res.unmatched_in++;
			} else if (dv >= 0) {
				put_slots(p, dv, e->nr_pages);
			}
		}
		r->choice[k] = dv;
		/* Its lead (never after it) has decided already. */
		part |= dv != r->choice[p->lead];
	}
	/* A policy that decided otherwise than the one it shares a
	 * simulation with gets its own, before this event is played. */
	if (part && split(r))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	/* Then each simulation plays the event on the device chosen. */
	for (k = 0; k < r->np; k++) {
		struct pol *p = &r->pol[k];
		double start, resume, done;
		int dv = r->choice[k];

		if (p->lead != k)
			continue;
		start = fresh ? (double)e->ts_ns : p->clock[ti] + gap;
		if (dv < 0) {
			p->clock[ti] = start;
			continue;
		}
		if (e->op == SR_OP_OUT) {
			p->res.swapouts++;
			p->res.pages_out += e->nr_pages;
		} else {
			p->res.swapins++;
			p->res.pages_in += e->nr_pages;
		}
		if (play(p, e, dv, start, &resume, &done))
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		if (e->op == SR_OP_IN)
			hist_add(&p->res.swapin_lat, done - start);
		else
			p->swapout_lat_sum += done - start;
		p->clock[ti] = resume;
		if (resume > p->end)
			p->end = resume;
	}
	if (e->op == SR_OP_OUT) {
		const int b = r->choice[r->baseline];

		for (k = 0; k < r->np; k++)
			if (r->choice[k] != b)
				r->pol[k].res.moved_out++;
	}
	if (e->op == SR_OP_IN && sc) {
		sc->left = sc->left > e->nr_pages ? (uint16_t)(sc->left - e->nr_pages) : 0;
		if (!sc->left)
			slot_forget(r, key, chunk, sc);
	}
	r->result.events++;
	return SR_OK;
}

/* ---- order ----------------------------------------------------------------- */

/*
 * Start loading the slot cell of an event about to be replayed: with
 * random swap offsets each cell is a cache miss, and the window (or the
 * ordered batch) tells which ones come next.
 */
#define PREFETCH_AHEAD 12

static inline void slot_prefetch(struct sr_replay *r, const struct sr_event *e)
{
	uint64_t key;
	const struct slot_chunk *c;

	if (!slot_key(e, e->offset, &key))
		return;
	c = chunk_get(r, key >> CHUNK_BITS);
	if (c)
		__builtin_prefetch(c->cells + (key & (CHUNK_CELLS - 1)) * r->cell_size, 1);
}

/* Replay an event in its turn, counting it late if it is. */
static enum sr_err replay_next(struct sr_replay *r, const struct sr_event *e, struct sr_diag *d)
{
	if (e->ts_ns < r->last_ts)
		r->result.late_events++;
	else
		r->last_ts = e->ts_ns;
	return replay_one(r, e, d);
}

static enum sr_err pop_one(struct sr_replay *r, struct sr_diag *d)
{
	const struct sr_event *next = sr_window_ahead(&r->win, PREFETCH_AHEAD);
	struct sr_event x;

	if (next)
		slot_prefetch(r, next);
	sr_window_pop(&r->win, &x);
	return replay_next(r, &x, d);
}

static enum sr_err check_event(struct sr_replay *r, const struct sr_event *e, uint64_t nth,
			       struct sr_diag *d)
{
	if (SR_LIKELY(e->cpu_nid < r->m->nr_nodes && e->page_nid < r->m->nr_nodes &&
		      e->dev < r->m->nr_devices))
		return SR_OK;
	sr_diag_clear(d);
	if (d)
		d->record = nth;
	if (e->cpu_nid >= r->m->nr_nodes || e->page_nid >= r->m->nr_nodes)
		return sr_diag_set(d, SR_ERR_MACHINE,
				   "the trace names node %u, but machine %s has %d node%s (0 to %d)",
				   e->cpu_nid >= r->m->nr_nodes ? e->cpu_nid : e->page_nid,
				   r->m->name, r->m->nr_nodes, r->m->nr_nodes > 1 ? "s" : "",
				   r->m->nr_nodes - 1);
	return sr_diag_set(d, SR_ERR_MACHINE,
			   "the trace names swap device %d, but machine %s has %d device%s (0 to %d)",
			   e->dev, r->m->name, r->m->nr_devices,
			   r->m->nr_devices > 1 ? "s" : "", r->m->nr_devices - 1);
}

enum sr_err sr_replay_check(void *replay, const struct sr_event *e, uint64_t nth,
			    struct sr_diag *diag)
{
	return check_event(replay, e, nth, diag);
}

enum sr_err sr_replay_feed(struct sr_replay *r, const struct sr_event *evs, size_t n,
			   struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	size_t i;
	enum sr_err err;

	for (i = 0; i < n; i++) {
		const struct sr_event *e = &evs[i];

		r->fed++;
		err = check_event(r, e, r->fed, d);
		if (err)
			return err;
		if (r->ordered) {
			if (i + PREFETCH_AHEAD < n)
				slot_prefetch(r, &evs[i + PREFETCH_AHEAD]);
			err = replay_next(r, e, d);
		} else {
			err = sr_window_len(&r->win) == r->win.cap ? pop_one(r, d) : SR_OK;
			if (!err)
				sr_window_push(&r->win, e);
		}
		if (err)
			return err;
	}
	return SR_OK;
}

/* ---- results ------------------------------------------------------------- */

enum sr_err sr_replay_finish(struct sr_replay *r, const struct sr_result **res,
			     struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	const struct sr_machine *m = r->m;
	enum sr_err err;
	int k, i;

	*res = NULL;
	if (!r->finished) {
		while (!r->ordered && sr_window_len(&r->win)) {
			err = pop_one(r, d);
			if (err)
				return err;
		}
		r->finished = 1;
		r->result.policy = calloc((size_t)r->np, sizeof(*r->result.policy));
		if (!r->result.policy)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		r->result.nr_policies = r->np;
		r->result.baseline = r->baseline;
		r->result.tasks = r->ntasks;
		for (k = 0; k < r->np; k++)
			if (r->pol[k].lead != k)
				sim_results_copy(&r->pol[k], &r->pol[r->pol[k].lead]);
		for (k = 0; k < r->np; k++) {
			struct pol *p = &r->pol[k];
			struct sr_policy_result *o = &p->res;
			double span = p->end - r->first_ts, bytes;
			int nl = 0;

			snprintf(o->name, sizeof(o->name), "%s", p->spec);
			o->makespan_ns = span > 0 ? span : 0;
			bytes = (double)(o->pages_in + o->pages_out) * SR_PAGE_SIZE;
			o->throughput_kib_s = span > 0 ? bytes / 1024.0 / (span / 1e9) : 0;
			o->swapout_lat_mean_ns = o->swapouts ? p->swapout_lat_sum / (double)o->swapouts : 0;
			o->nr_devices = m->nr_devices;
			o->dev = p->dev;
			for (i = 0; i < m->nr_devices; i++)
				p->dev[i].util = span > 0 ? p->dev[i].busy_ns / span : 0;
			for (i = 0; i < m->nr_nodes * m->nr_nodes; i++)
				nl += p->link_bytes[i] != 0;
			o->link = calloc(nl ? (size_t)nl : 1, sizeof(*o->link));
			if (!o->link)
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			for (i = 0; i < m->nr_nodes * m->nr_nodes; i++) {
				struct sr_link_result *l;

				if (!p->link_bytes[i])
					continue;
				l = &o->link[o->nr_links++];
				l->from = i / m->nr_nodes;
				l->to = i % m->nr_nodes;
				l->bytes = p->link_bytes[i];
				l->util = span > 0 ? 1e9 * (double)l->bytes / m->link_bw / span : 0;
			}
			r->result.policy[k] = *o;
		}
		for (k = 0; k < r->np; k++) {
			struct sr_policy_result *o = &r->result.policy[k];
			double base = r->result.policy[r->baseline].makespan_ns;

			o->delta_pct = o->makespan_ns > 0 && base > 0 ?
				       (base / o->makespan_ns - 1.0) * 100.0 : 0;
		}
	}
	*res = &r->result;
	return SR_OK;
}

int sr_delta_side(double d)
{
	return d > SR_SAME_PCT ? 1 : d < -SR_SAME_PCT ? -1 : 0;
}

void sr_replay_uncertainty(struct sr_replay *r, const struct sr_result *const *var,
			   int n, double range)
{
	struct sr_result *res = &r->result;
	int k, i;

	if (!r->finished)
		return;
	for (k = 0; k < res->nr_policies; k++) {
		struct sr_policy_result *p = &res->policy[k];
		int side = sr_delta_side(p->delta_pct);

		p->unc.variants = n;
		p->unc.range = range;
		p->unc.agree = 0;
		p->unc.min = p->unc.max = p->delta_pct;
		for (i = 0; i < n; i++) {
			double d = var[i]->policy[k].delta_pct;

			if (d < p->unc.min)
				p->unc.min = d;
			if (d > p->unc.max)
				p->unc.max = d;
			p->unc.agree += sr_delta_side(d) == side;
		}
	}
}
