/*
 * CheckReporter: where a shared test body (test/NAME-checks.cc) reports its checks, so that one
 * body serves both test frameworks — GoogleTest out of tree (GTestReporter, gtest-reporter.h)
 * and ns-3's TestSuite inside an ns-3 source tree (paramsync-ns3-test-suites.cc, run by
 * ./test.py -s paramsync-...). A body checks with PS_CHECK / PS_CHECK_EQ; a check whose
 * failure makes the rest meaningless is written `if (!PS_CHECK_EQ(...)) return;`.
 */
#ifndef PARAMSYNC_CHECK_REPORTER_H
#define PARAMSYNC_CHECK_REPORTER_H

#include <sstream>
#include <string>

namespace ns3
{

/**
 * \brief Receives the outcome of every check of a shared test body.
 */
class CheckReporter
{
  public:
    virtual ~CheckReporter() = default;
    /// \brief One check: whether it held, what it checked (with the values), where.
    virtual void Report(bool ok, const std::string& what, const char* file, int line) = 0;

    /// \brief Reports `ok`; returns it.
    bool
    Check(bool ok, const std::string& what, const char* file, int line)
    {
        Report(ok, what, file, line);
        return ok;
    }

    /// \brief Reports actual == expected, naming both values; returns whether they are equal.
    template<typename A, typename E>
    bool
    Equal(const A& actual, const E& expected, const char* text, const char* file, int line)
    {
        const bool ok = actual == expected;
        std::ostringstream what;
        what << text << ": actual " << +actual << ", expected " << +expected;
        Report(ok, what.str(), file, line);
        return ok;
    }
};

} // namespace ns3

/// \brief Checks a condition in a shared test body (reporter r).
#define PS_CHECK(r, cond) (r).Check((cond), #cond, __FILE__, __LINE__)
/// \brief Checks actual == expected in a shared test body (reporter r).
#define PS_CHECK_EQ(r, actual, expected)                                                           \
    (r).Equal((actual), (expected), #actual " == " #expected, __FILE__, __LINE__)

#endif // PARAMSYNC_CHECK_REPORTER_H
