/*
 * The core model tests as ns-3 TestSuites: `./test.py -s paramsync-shared-buffer-mmu` (or
 * paramsync-roce-header) in an ns-3 source tree. Each TestCase runs one shared body
 * (model-checks.h), the same function the GoogleTest suite of that unit runs, and turns its
 * failed checks into ns-3 test failures.
 */
#include "model-checks.h"

#include "ns3/test.h"

namespace ns3
{
namespace
{

/**
 * \brief An ns-3 TestCase running one shared test body.
 */
class SharedBodyTestCase : public TestCase, public CheckReporter
{
  public:
    /// \brief The body and its name (the GoogleTest test name).
    SharedBodyTestCase(void (*body)(CheckReporter&), const std::string& name)
        : TestCase(name),
          m_body(body)
    {
    }

    void
    Report(bool ok, const std::string& what, const char* file, int line) override
    {
        if (!ok)
        {
            ReportTestFailure(what, "false", "true", "", file, line);
        }
    }

  private:
    void
    DoRun() override
    {
        m_body(*this);
    }

    void (*m_body)(CheckReporter&); //!< the shared body
};

/**
 * \brief A TestSuite of shared bodies, all QUICK unit tests.
 */
class SharedBodyTestSuite : public TestSuite
{
  public:
    /// \brief Suite name and its (test name, body) pairs.
    SharedBodyTestSuite(
        const std::string& name,
        std::initializer_list<std::pair<const char*, void (*)(CheckReporter&)>> cases)
        : TestSuite(name, UNIT)
    {
        for (const auto& [testName, body] : cases)
        {
            AddTestCase(new SharedBodyTestCase(body, testName), TestCase::QUICK);
        }
    }
};

/// SharedBufferMmu: headroom, shared pool, XOFF/XON, dynamic threshold, errors.
SharedBodyTestSuite g_sharedBufferMmuSuite(
    "paramsync-shared-buffer-mmu",
    {{"HeadroomFormulaAndSharedPool", CheckMmuHeadroomFormulaAndSharedPool},
     {"SharedThenHeadroomThenDrop", CheckMmuSharedThenHeadroomThenDrop},
     {"LossyPriorityHasNoHeadroomAndNoPause", CheckMmuLossyPriorityHasNoHeadroomAndNoPause},
     {"LossyClassCannotDriveTheLosslessXoffToZero",
      CheckMmuLossyClassCannotDriveTheLosslessXoffToZero},
     {"UpstreamReactionTimeJoinsTheHeadroom", CheckMmuUpstreamReactionTimeJoinsTheHeadroom},
     {"DynamicThreshold", CheckMmuDynamicThreshold},
     {"HeadroomThatDoesNotFitIsAClearError", CheckMmuHeadroomThatDoesNotFitIsAClearError},
     {"HpccHeadroomReserveAndShiftPerPortRate", CheckMmuHpccHeadroomReserveAndShiftPerPortRate},
     {"HpccReserveFillsFirstAndResume3072BelowXoff",
      CheckMmuHpccReserveFillsFirstAndResume3072BelowXoff}});

/// RoCEv2 / PFC frame sizes and PFC frame bytes.
SharedBodyTestSuite g_roceHeaderSuite("paramsync-roce-header",
                                      {{"DataFrameSizeWithVlan", CheckRoceDataFrameSizeWithVlan},
                                       {"FrameSizesWithoutVlanAndAck",
                                        CheckRoceFrameSizesWithoutVlanAndAck},
                                       {"PfcFrameBytes", CheckPfcFrameBytes}});

} // namespace
} // namespace ns3
