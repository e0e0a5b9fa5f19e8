/* A shared object whose `swapreplay_policy` is a function: loading it must
 * be refused, not crash (tests/cli/replay.sh). */
__attribute__((visibility("default"))) int swapreplay_policy(void);

int swapreplay_policy(void)
{
	return 0;
}
