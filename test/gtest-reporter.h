/*
 * GTestReporter: a CheckReporter (check-reporter.h) whose failed checks are GoogleTest
 * failures at the body's file and line; SHARED_BODY_TEST declares a TEST running one body.
 */
#ifndef PARAMSYNC_GTEST_REPORTER_H
#define PARAMSYNC_GTEST_REPORTER_H

#include "check-reporter.h"

#include <gtest/gtest.h>

namespace ns3
{

/// \brief Failed checks become GoogleTest failures.
class GTestReporter : public CheckReporter
{
  public:
    void
    Report(bool ok, const std::string& what, const char* file, int line) override
    {
        if (!ok)
        {
            ADD_FAILURE_AT(file, line) << what;
        }
    }
};

} // namespace ns3

/// \brief A GoogleTest test Suite.Name that runs the shared body `body(CheckReporter&)`.
#define SHARED_BODY_TEST(Suite, Name, body)                                                        \
    TEST(Suite, Name)                                                                              \
    {                                                                                              \
        ::ns3::GTestReporter reporter;                                                             \
        body(reporter);                                                                            \
    }

#endif // PARAMSYNC_GTEST_REPORTER_H
