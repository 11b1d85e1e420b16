// SPDX-License-Identifier: GPL-2.0
/*
 * ck_sleeper - a libcheck suite of one test, run in fork mode, that marks
 * its start in the file named by argv[1] and sleeps: what
 * tests/host/interrupt.t stops with a Ctrl-C.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *mark;

START_TEST(test_sleep)
{
	FILE *f = fopen(mark, "w");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	sleep(60);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("ck_sleeper");
	TCase *tc = tcase_create("sleep");
	SRunner *sr;
	int failed;

	if (argc != 2) {
		fprintf(stderr, "usage: ck_sleeper MARK\n");
		return 2;
	}
	mark = argv[1];
	tcase_set_timeout(tc, 0);
	tcase_add_test(tc, test_sleep);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
