/* SPDX-License-Identifier: MIT */
/*
 * The XScale API's own calls (<pmu/xscale.h>) over one process-wide
 * simple device, a simulated xscale1 created once.  The API had one PMU
 * and global state; a mutex keeps concurrent callers from interleaving
 * inside a call.
 */
#include <errno.h>
#include <pthread.h>

#include <pmu/xscale.h>

static struct pmu_simple *dev;
static pthread_once_t dev_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;

static void make_device(void)
{
	dev = pmu_simple_open("xscale1", NULL);
}

struct pmu_simple *pmu_xscale_device(void)
{
	pthread_once(&dev_once, make_device);
	return dev;
}

int pmu_claim(void)
{
	struct pmu_simple *d = pmu_xscale_device();
	int ret;

	if (!d)
		return -ENOMEM;
	pthread_mutex_lock(&dev_lock);
	ret = pmu_simple_claim(d);
	pthread_mutex_unlock(&dev_lock);
	return ret;
}

int pmu_start(u32 pmn0, u32 pmn1)
{
	struct pmu_simple *d = pmu_xscale_device();
	int ret;

	if (!d)
		return -ENOMEM;
	pthread_mutex_lock(&dev_lock);
	ret = pmu_simple_start(d, pmn0, pmn1);
	pthread_mutex_unlock(&dev_lock);
	return ret;
}

int pmu_stop(struct pmu_results *results)
{
	struct pmu_simple_results r = { .size = sizeof(r) };
	struct pmu_simple *d = pmu_xscale_device();
	int ret;

	if (!d)
		return -ENOMEM;
	if (!results)
		return -EINVAL;
	pthread_mutex_lock(&dev_lock);
	ret = pmu_simple_stop(d, &r);
	pthread_mutex_unlock(&dev_lock);
	if (ret)
		return ret;
	*results = (struct pmu_results){
		.ccnt = r.ccnt, .ccnt_of = r.ccnt_of,
		.pmn0 = r.pmn0, .pmn0_of = r.pmn0_of,
		.pmn1 = r.pmn1, .pmn1_of = r.pmn1_of,
	};
	return 0;
}

int pmu_release(int claim_id)
{
	struct pmu_simple *d = pmu_xscale_device();
	int ret;

	if (!d)
		return -ENOMEM;
	pthread_mutex_lock(&dev_lock);
	ret = pmu_simple_release(d, claim_id);
	pthread_mutex_unlock(&dev_lock);
	return ret;
}
