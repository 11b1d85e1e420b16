// SPDX-License-Identifier: GPL-2.0
/*
 * rtla_bound_suite: rtla's libcheck suite of the bound engine
 * (tools/tracing/rtla/tests/unit/sched_latency_bound.c) run alone, linked
 * with the engine of our choosing. rtla's unit_tests runs it among
 * mainline's suites, which need the whole of rtla; mutants.t runs it on
 * each engine mutant, and make -C tests/unit bound on the overlay's engine.
 */
#include <check.h>
#include <stdlib.h>

Suite *sched_latency_bound_suite(void);

int main(void)
{
	SRunner *sr = srunner_create(sched_latency_bound_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
