# Test bodies shared by the GoogleTest suites (out of tree) and the ns-3 TestSuites (in an
# ns-3 source tree, `./test.py -s paramsync-...`): each body is a plain function that reports
# its checks to a CheckReporter (test/check-reporter.h); each framework supplies a reporter.
set(PARAMSYNC_SHARED_TEST_SOURCES
    test/shared-buffer-mmu-checks.cc
    test/roce-header-checks.cc
)
# The ns-3 TestSuite wrappers of those bodies: ns-3's test-runner and test.py run them in a
# source tree; out of tree, ctest runs them through paramsync-ns3-test-runner.
set(PARAMSYNC_NS3_TEST_SOURCES
    test/paramsync-ns3-test-suites.cc
)
