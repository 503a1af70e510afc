/*
 * Out of tree, the ns-3 TestSuites of paramsync-ns3-test-suites.cc run through this program
 * (ns-3's own TestRunner, the engine of test.py's test-runner): ctest runs
 * `paramsync-ns3-test-runner --suite=paramsync-...` so the wrappers are checked on every build.
 */
#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    return ns3::TestRunner::Run(argc, argv);
}
