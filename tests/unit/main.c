/* Unit test entry: every test_*.c file's tests are listed here. */
#include "test.h"

int test_failed;
const char *test_name;

/* Checklist: one line per test suite file. */
void suite_u64map(void);
void suite_readers(void);
void suite_opts(void);
void suite_gen(void);
void suite_replay(void);
void suite_vmstat(void);
void suite_window(void);
void suite_bigmem(void);
void suite_hist(void);
void suite_sweep(void);
void suite_calendar(void);
void suite_readahead(void);
void suite_slots(void);
void suite_plug(void);
void suite_disk(void);
void suite_revmap(void);
void suite_compare(void);
void suite_tasks(void);
void suite_order(void);
void suite_report_read(void);
void suite_fio(void);
void suite_numa(void);
void suite_memcg(void);
void suite_tiers(void);
void suite_zswap(void);

int main(void)
{
	suite_u64map();
	suite_readers();
	suite_opts();
	suite_gen();
	suite_replay();
	suite_tasks();
	suite_order();
	suite_vmstat();
	suite_window();
	suite_bigmem();
	suite_hist();
	suite_sweep();
	suite_calendar();
	suite_readahead();
	suite_slots();
	suite_plug();
	suite_disk();
	suite_revmap();
	suite_compare();
	suite_report_read();
	suite_fio();
	suite_numa();
	suite_memcg();
	suite_tiers();
	suite_zswap();
	return test_failed ? 1 : 0;
}
